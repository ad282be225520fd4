// Renderings of transposes, the transpose benchmark and the access-pattern study.
#include "printers/transpose_printer.hpp"

#include "parse.hpp"
#include "printers/table.hpp"
#include "printers/reduce_printer.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::string tile_cell(const TransposePlan& p) { return p.tile ? std::to_string(p.tile) : "-"; }
std::string rows_cell(const TransposePlan& p) {
  return p.variant && p.variant->shape == TransposeShape::TileRows ? std::to_string(p.rows) : "-";
}
std::uint64_t moved_bytes(std::uint64_t m, std::uint64_t n, ElemType t) {
  return 2 * m * n * size_of(t);
}

json plan_json(const TransposePlan& p) {
  return json{{"variant", p.variant->name}, {"m", p.m}, {"n", p.n},
              {"wg_x", p.wg_x}, {"wg_y", p.wg_y}, {"tile", p.tile}, {"rows", p.rows}, {"vec", p.vec},
              {"aligned", p.aligned},
              {"groups_x", p.groups_x}, {"groups_y", p.groups_y},
              {"local_bytes", p.local_bytes}, {"options", p.options}};
}

json report_core_json(const TransposeReport& r) {
  return json{{"plan", plan_json(r.plan)},
              {"type", std::string(name_of(r.config.type))},
              {"data", r.data_origin},
              {"bytes_moved", moved_bytes(r.plan.m, r.plan.n, r.config.type)},
              {"time_us", stats_json(r.timing.whole_us)},
              {"batch", r.timing.batch},
              {"samples", r.timing.repetitions},
              {"gbps", r.gbps},
              {"check", {{"ok", r.check.ok}, {"mismatches", r.check.mismatches},
                         {"detail", r.check.detail}}}};
}

std::string status(const TransposeBenchRow& row) {
  if (!row.error.empty()) return "ERROR";
  return row.ok() ? "ok" : "FAILED";
}
}  // namespace

json transpose_json(const TransposeReport& r, const DeviceInfo& dev) {
  json j = report_core_json(r);
  j["device"] = device_json(dev);
  return j;
}

std::string transpose_text(const TransposeReport& r, const DeviceInfo& dev) {
  const TransposePlan& p = r.plan;
  std::ostringstream out;
  out << "device     " << dev.label() << "\n"
      << "transpose  " << p.variant->name << ": " << p.m << "x" << p.n << " "
      << name_of(r.config.type) << " (M rows x N columns, " << r.data_origin << ") -> " << p.n
      << "x" << p.m << "\n"
      << "launch     work-group " << p.wg_label() << ", groups " << p.groups_x << "x" << p.groups_y
      << (p.tile ? ", tile " + std::to_string(p.tile) : std::string())
      << (p.vec ? ", vec " + std::to_string(p.vec) + (p.aligned ? " (rows on whole vectors)" : " (vloadn/vstoren: rows off whole vectors)")
                : std::string())
      << (p.local_bytes ? ", " + std::to_string(p.local_bytes) + " bytes of local memory" : std::string())
      << "\n"
      << "options    " << p.options << "\n"
      << clock_line(r.timing.clock, r.clock_note)
      << "check      " << (r.ok() ? "ok: " : "FAILED: ") << r.check.detail
      << " (output poisoned before the run)\n"
      << "time       " << r.timing.repetitions << " samples"
      << (r.timing.batch > 1 ? " of " + std::to_string(r.timing.batch) + " back-to-back" : "")
      << ": min " << stats_cell(r.timing.whole_us.min) << " µs, median "
      << stats_cell(r.timing.whole_us.median) << " µs, max " << stats_cell(r.timing.whole_us.max)
      << " µs, spread " << spread_cell(r.timing.whole_us) << " (interquartile range / median)\n"
      << "bandwidth  " << fixed(r.gbps, 1) << " GB/s (" << moved_bytes(p.m, p.n, r.config.type)
      << " bytes read plus written / median)\n";
  return out.str();
}

std::string transpose_csv(const TransposeReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "m", "n", "wg", "tile", "rows", "min_us", "median_us", "max_us",
               "GB_per_s", "check"};
  t.rows.push_back({r.plan.variant->name, std::string(name_of(r.config.type)),
                    std::to_string(r.plan.m), std::to_string(r.plan.n), r.plan.wg_label(),
                    tile_cell(r.plan), rows_cell(r.plan), fixed(r.timing.whole_us.min, 3),
                    fixed(r.timing.whole_us.median, 3), fixed(r.timing.whole_us.max, 3),
                    fixed(r.gbps, 2), r.ok() ? "ok" : "FAILED"});
  return t.render_csv();
}

json transpose_bench_json(const TransposeBenchReport& r, const DeviceInfo& dev) {
  json shapes = json::array();
  for (const auto& s : r.shapes) {
    json rows = json::array();
    for (const auto& row : s.rows) {
      json j = row.report ? report_core_json(*row.report) : json::object();
      j["variant"] = row.variant;
      j["status"] = status(row);
      if (!row.error.empty()) j["error"] = row.error;
      if (row.report) {
        j["pct_of_copy"] = row.pct_of_copy;
        j["speedup_vs_naive"] = row.speedup;
      }
      rows.push_back(j);
    }
    shapes.push_back(json{{"m", s.m}, {"n", s.n}, {"data", s.data_origin},
                          {"copy", {{"bytes", s.copy.bytes}, {"gbps", s.copy.gbps},
                                    {"time_us", stats_json(s.copy.timing.whole_us)},
                                    {"how", "clEnqueueCopyBuffer; GB/s counts read plus written"}}},
                          {"rows", rows}});
  }
  return json{{"device", device_json(dev)}, {"clock", std::string(name_of(r.clock))}, {"clock_note", r.clock_note},
              {"type", std::string(name_of(r.type))}, {"shapes", shapes}, {"all_ok", r.all_ok()}};
}

std::string transpose_bench_text(const TransposeBenchReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "type:   " << name_of(r.type) << "; GB/s = bytes read plus written (2*M*N*"
      << size_of(r.type) << ") / median; copy = clEnqueueCopyBuffer of the same bytes, now\n"
      << clock_line(r.clock, r.clock_note);
  TextTable t;
  t.headers = {"variant", "shape", "wg", "median µs", "min µs", "max µs", "GB/s", "% of copy",
               "speedup vs naive", "check"};
  for (const auto& s : r.shapes) {
    const std::string shape = shape_label(s.m, s.n);
    out << "copy " << shape << ": " << fixed(s.copy.gbps, 1) << " GB/s (median "
        << stats_cell(s.copy.timing.whole_us.median) << " µs)\n";
    for (const auto& row : s.rows) {
      if (!row.report) {
        t.rows.push_back({row.variant, shape, "-", "-", "-", "-", "-", "-", "-", status(row)});
        continue;
      }
      const TransposeReport& tr = *row.report;
      t.rows.push_back({row.variant, shape, tr.plan.wg_label(),
                        stats_cell(tr.timing.whole_us.median), stats_cell(tr.timing.whole_us.min),
                        stats_cell(tr.timing.whole_us.max), fixed(tr.gbps, 1),
                        fixed(row.pct_of_copy, 1) + "%",
                        row.speedup > 0 ? fixed(row.speedup, 2) + "x" : "-", status(row)});
    }
  }
  out << "\n" << t.render_text();
  for (const auto& s : r.shapes)
    for (const auto& row : s.rows) {
      if (!row.error.empty())
        out << "\n" << row.variant << " " << shape_label(s.m, s.n) << " error: " << row.error;
      if (row.report && !row.ok())
        out << "\n" << row.variant << " " << shape_label(s.m, s.n) << " check: "
            << row.report->check.detail;
    }
  out << "\n";
  return out.str();
}

std::string transpose_bench_csv(const TransposeBenchReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "m", "n", "wg", "tile", "rows", "min_us", "median_us", "max_us",
               "GB_per_s", "copy_GB_per_s", "pct_of_copy", "speedup_vs_naive", "check"};
  for (const auto& s : r.shapes)
    for (const auto& row : s.rows) {
      const std::string type(name_of(r.type));
      if (!row.report) {
        t.rows.push_back({row.variant, type, std::to_string(s.m), std::to_string(s.n), "", "", "",
                          "", "", "", "", fixed(s.copy.gbps, 2), "", "", status(row)});
        continue;
      }
      const TransposeReport& tr = *row.report;
      t.rows.push_back({row.variant, type, std::to_string(s.m), std::to_string(s.n),
                        tr.plan.wg_label(), tile_cell(tr.plan), rows_cell(tr.plan),
                        fixed(tr.timing.whole_us.min, 3), fixed(tr.timing.whole_us.median, 3),
                        fixed(tr.timing.whole_us.max, 3), fixed(tr.gbps, 2), fixed(s.copy.gbps, 2),
                        fixed(row.pct_of_copy, 2), fixed(row.speedup, 3), status(row)});
    }
  return t.render_csv();
}

json access_json(const AccessReport& r, const DeviceInfo& dev) {
  json rows = json::array();
  for (const auto& row : r.rows)
    rows.push_back(json{{"pattern", row.pattern.name},
                        {"kernel", row.pattern.kernel},
                        {"reads", row.pattern.summary},
                        {"time_us", stats_json(row.timing.whole_us)},
                        {"first_pass_us", stats_json(row.timing.first_us)},
                        {"batch", row.timing.batch},
                        {"gbps", row.gbps},
                        {"first_pass_gbps", row.first_pass_gbps},
                        {"value", row.value},
                        {"consistent", row.consistent},
                        {"ok", row.ok}});
  return json{{"device", device_json(dev)}, {"clock", std::string(name_of(r.clock))}, {"clock_note", r.clock_note},
              {"n", r.n}, {"type", "uint"}, {"data", r.data_origin},
              {"wg", r.wg}, {"groups", r.groups}, {"work_items", r.groups * r.wg},
              {"chunk", r.chunk}, {"reference", r.reference}, {"rows", rows},
              {"interleaved_over_contiguous", r.ratio}, {"all_ok", r.all_ok()}};
}

std::string access_text(const AccessReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "input:  n = " << r.n << " uint (" << bytes_human(r.n * 4) << ", " << r.data_origin
      << "); sum of x^3 mod 2^32, host reference " << r.reference << "\n"
      << "launch: " << r.groups << " groups of " << r.wg << " = " << r.groups * r.wg
      << " work-items; contiguous chunk " << r.chunk << " elements\n"
      << "time:   whole (pattern pass + reduction of the partials), median; GB/s = input bytes / "
         "median\n"
      << clock_line(r.clock, r.clock_note) << "\n";
  TextTable t;
  t.headers = {"pattern", "median µs", "min µs", "max µs", "GB/s", "pattern pass µs",
               "pattern pass GB/s", "result", "check"};
  for (const auto& row : r.rows)
    t.rows.push_back({row.pattern.name, stats_cell(row.timing.whole_us.median),
                      stats_cell(row.timing.whole_us.min), stats_cell(row.timing.whole_us.max),
                      fixed(row.gbps, 1), stats_cell(row.timing.first_us.median),
                      fixed(row.first_pass_gbps, 1), std::to_string(row.value),
                      row.ok ? "ok" : "FAILED"});
  out << t.render_text() << "\n"
      << "interleaved / contiguous: " << fixed(r.ratio, 2) << "x the bandwidth\n";
  for (const auto& row : r.rows)
    out << "  " << row.pattern.name << ": " << row.pattern.summary << "\n";
  return out.str();
}

std::string access_csv(const AccessReport& r) {
  TextTable t;
  t.headers = {"pattern", "n", "wg", "groups", "chunk", "min_us", "median_us", "max_us",
               "first_pass_median_us", "GB_per_s", "first_pass_GB_per_s", "result", "reference",
               "check"};
  for (const auto& row : r.rows)
    t.rows.push_back({row.pattern.name, std::to_string(r.n), std::to_string(r.wg),
                      std::to_string(r.groups), std::to_string(r.chunk),
                      fixed(row.timing.whole_us.min, 3), fixed(row.timing.whole_us.median, 3),
                      fixed(row.timing.whole_us.max, 3), fixed(row.timing.first_us.median, 3),
                      fixed(row.gbps, 2), fixed(row.first_pass_gbps, 2), std::to_string(row.value),
                      std::to_string(r.reference), row.ok ? "ok" : "FAILED"});
  return t.render_csv();
}

}  // namespace clreduce
