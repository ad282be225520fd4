// Text, CSV and JSON renderings of devices, single reductions and benchmarks.
#include "printers/report.hpp"

#include "clreduce/error.hpp"
#include "clreduce/types.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace clreduce {

using nlohmann::json;

Format parse_format(const std::string& text) {
  if (text == "table") return Format::Table;
  if (text == "csv") return Format::Csv;
  if (text == "json") return Format::Json;
  throw Error("unknown format '" + text + "'; valid formats: table, csv, json");
}

std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

namespace {
bool looks_numeric(const std::string& s) {
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-') &&
         s.find_first_not_of("0123456789.-+e%x") == std::string::npos;
}
// Display width of UTF-8 text (counts code points; µ is one column).
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
std::string plan_times(const Plan& p) { return std::to_string(p.passes.front().times); }
std::string rel_error_cell(double e) {
  if (e < 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", e);
  return buf;
}
}  // namespace

std::string stats_cell(double us) { return fixed(us, us < 100 ? 2 : 1); }

std::string bytes_human(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double x = static_cast<double>(b);
  int u = 0;
  while (x >= 1024 && u < 4) {
    x /= 1024;
    ++u;
  }
  return fixed(x, u ? 1 : 0) + " " + units[u];
}

std::string TextTable::render_text() const {
  std::vector<std::size_t> w(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) w[c] = width(headers[c]);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t c = 0; c < w.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(w[c] - width(cell), ' ');
      const bool right = !header && looks_numeric(cell);
      out << (c ? " | " : "") << (right ? pad + cell : cell + (c + 1 < w.size() ? pad : ""));
    }
    out << '\n';
  };
  line(headers, true);
  for (std::size_t c = 0; c < w.size(); ++c) out << (c ? "-+-" : "") << std::string(w[c], '-');
  out << '\n';
  for (const auto& r : rows) line(r, false);
  return out.str();
}

std::string TextTable::render_csv() const {
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) out << (c ? "," : "") << csv_cell(cells[c]);
    out << '\n';
  };
  line(headers);
  for (const auto& r : rows) line(r);
  return out.str();
}

json device_json(const DeviceInfo& d) {
  return json{{"platform_index", d.platform_index},
              {"device_index", d.device_index},
              {"platform", d.platform_name},
              {"platform_vendor", d.platform_vendor},
              {"platform_version", d.platform_version},
              {"name", d.name},
              {"vendor", d.vendor},
              {"type", d.type_name},
              {"driver_version", d.driver_version},
              {"device_version", d.device_version},
              {"opencl_c_version", d.opencl_c_version},
              {"compute_units", d.compute_units},
              {"max_work_group_size", d.max_work_group_size},
              {"local_mem_bytes", d.local_mem_bytes},
              {"max_alloc_bytes", d.max_alloc_bytes},
              {"global_mem_bytes", d.global_mem_bytes},
              {"lockstep_width", d.lockstep_width},
              {"lockstep_source", d.lockstep_source},
              {"timer_resolution_ns", d.timer_resolution_ns},
              {"resident_items_per_cu", d.resident_items_per_cu},
              {"resident_groups_limit", d.resident_groups_limit},
              {"occupancy_source", d.occupancy_source},
              {"fp64", d.fp64}};
}

std::string devices_text(const std::vector<DeviceInfo>& all) {
  std::ostringstream out;
  std::size_t last_platform = static_cast<std::size_t>(-1);
  for (const auto& d : all) {
    if (d.platform_index != last_platform) {
      out << "platform " << d.platform_index << ": " << d.platform_name << " (" << d.platform_vendor
          << ", " << d.platform_version << ")\n";
      last_platform = d.platform_index;
    }
    out << "  device " << d.platform_index << ":" << d.device_index << ": " << d.name << " ["
        << d.type_name << "]\n"
        << "    driver " << d.driver_version << ", " << d.opencl_c_version << "\n"
        << "    compute units " << d.compute_units << ", max work-group " << d.max_work_group_size
        << ", local memory " << bytes_human(d.local_mem_bytes) << ", max allocation "
        << bytes_human(d.max_alloc_bytes) << " of " << bytes_human(d.global_mem_bytes) << "\n"
        << "    lockstep width "
        << (d.lockstep_width ? std::to_string(d.lockstep_width) + " (" + d.lockstep_source + ")"
                             : std::string("unknown (none reported: lockstep tails keep barriers)"))
        << ", timer resolution " << d.timer_resolution_ns << " ns, fp64 "
        << (d.fp64 ? "yes" : "no") << "\n";
  }
  return out.str();
}

json stats_json(const Stats& s) { return json{{"min", s.min}, {"median", s.median}, {"max", s.max}}; }

namespace {
json plan_json(const Plan& p) {
  json passes = json::array();
  for (const auto& pass : p.passes)
    passes.push_back(json{{"count", pass.count},
                          {"groups", pass.groups},
                          {"wg", pass.wg},
                          {"times", pass.times},
                          {"vec", pass.vec},
                          {"options", pass.options}});
  return json{{"variant", p.variant->name}, {"depth", p.depth}, {"passes", passes}};
}

}  // namespace

json report_core_json(const ReduceReport& r) {
  return json{{"variant", r.config.variant},
              {"type", std::string(name_of(r.config.type))},
              {"op", std::string(name_of(r.config.op))},
              {"n", r.n},
              {"data", r.data_origin},
              {"wg", r.plan.passes.front().wg},
              {"times", r.plan.passes.front().times},
              {"vec", r.plan.passes.front().vec},
              {"passes", r.plan.passes.size()},
              {"plan", plan_json(r.plan)},
              {"result", r.timed.value.str()},
              {"reference", r.reference.value.str()},
              {"check", {{"ok", r.ok()}, {"tolerance", r.check.tolerance}, {"error", r.check.error},
                         {"rel_error", r.check.rel_error >= 0 ? json(r.check.rel_error) : json()},
                         {"detail", r.check.detail}, {"consistent", r.timed.consistent}}},
              {"time_us", stats_json(r.timed.whole_us)},
              {"first_pass_us", stats_json(r.timed.first_pass_us)},
              {"single_call_us", stats_json(r.timed.single_us)},
              {"single_call_events_us", stats_json(r.timed.single_events_us)},
              {"batch", r.timed.batch},
              {"repetitions", r.timed.repetitions},
              {"gbps", r.gbps},
              {"chunks", r.chunks},
              {"tuned", r.tuned},
              {"tuning_db", r.tuned_from.empty() ? json() : json(r.tuned_from)}};
}

json reduce_json(const ReduceReport& r, const DeviceInfo& dev) {
  json j = report_core_json(r);
  j["device"] = device_json(dev);
  return j;
}

std::string reduce_text(const ReduceReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device     " << dev.label() << "\n"
      << "reduction  " << r.config.variant << ", " << name_of(r.config.op) << " of " << r.n << " "
      << name_of(r.config.type) << " (" << r.data_origin << ")\n"
      << "result     " << r.timed.value.str() << "\n"
      << "reference  " << r.reference.value.str() << "\n"
      << "check      " << (r.ok() ? "ok: " : "FAILED: ") << r.check.detail << "\n";
  if (r.chunks > 1)
    out << "chunks     " << r.chunks << " input buffers of up to " << r.chunk_elements
        << " elements (n is over CL_DEVICE_MAX_MEM_ALLOC_SIZE); each reduced on the device as "
           "planned below, their values folded on the host\n";
  if (!r.tuned.empty())
    out << "tuned      " << join(r.tuned) << " from the tuning database " << r.tuned_from
        << " (options given override it; --no-tuning: the built-in defaults)\n";
  if (r.check.rel_error >= 0)
    out << "accuracy   relative error " << rel_error_cell(r.check.rel_error)
        << " against the compensated (Neumaier, long double) host sum\n";
  TextTable t;
  t.headers = {"pass", "elements", "groups", "wg", "times", "vec", "options"};
  for (std::size_t i = 0; i < r.plan.passes.size(); ++i) {
    const auto& p = r.plan.passes[i];
    t.rows.push_back({std::to_string(i + 1), std::to_string(p.count), std::to_string(p.groups),
                      std::to_string(p.wg), std::to_string(p.times), std::to_string(p.vec), p.options});
  }
  out << "\n" << t.render_text() << "\n";
  out << "time (whole reduction, " << r.timed.repetitions << " samples"
      << (r.timed.batch > 1 ? ", each a batch of " + std::to_string(r.timed.batch) + " back-to-back" : "")
      << "): min " << stats_cell(r.timed.whole_us.min) << " µs, median "
      << stats_cell(r.timed.whole_us.median) << " µs, max " << stats_cell(r.timed.whole_us.max)
      << " µs\n"
      << "first pass: min " << stats_cell(r.timed.first_pass_us.min) << " µs, median "
      << stats_cell(r.timed.first_pass_us.median) << " µs, max "
      << stats_cell(r.timed.first_pass_us.max) << " µs\n"
      << "one call at a time (enqueue, wait; " << r.timed.repetitions
      << " samples): host clock on a queue without profiling min "
      << stats_cell(r.timed.single_us.min) << " µs, median " << stats_cell(r.timed.single_us.median)
      << " µs, max " << stats_cell(r.timed.single_us.max)
      << " µs; device clock from a profiled marker median "
      << stats_cell(r.timed.single_events_us.median) << " µs\n"
      << "bandwidth:  " << fixed(r.gbps, 1) << " GB/s (" << r.n * size_of(r.config.type)
      << " bytes / median)\n";
  return out.str();
}

std::string reduce_csv(const ReduceReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us",
               "max_us", "first_pass_median_us", "single_call_median_us",
               "single_call_events_median_us", "GB_per_s", "result", "reference", "check",
               "rel_error"};
  t.rows.push_back({r.config.variant, std::string(name_of(r.config.type)),
                    std::string(name_of(r.config.op)), std::to_string(r.n),
                    std::to_string(r.plan.passes.front().wg), plan_times(r.plan),
                    std::to_string(r.plan.passes.front().vec), std::to_string(r.plan.passes.size()),
                    fixed(r.timed.whole_us.min, 3), fixed(r.timed.whole_us.median, 3),
                    fixed(r.timed.whole_us.max, 3), fixed(r.timed.first_pass_us.median, 3),
                    fixed(r.timed.single_us.median, 3), fixed(r.timed.single_events_us.median, 3),
                    fixed(r.gbps, 2), r.timed.value.str(), r.reference.value.str(),
                    r.ok() ? "ok" : "FAILED", rel_error_cell(r.check.rel_error)});
  return t.render_csv();
}

namespace {
std::string check_cell(const BenchRow& row) {
  if (!row.skipped.empty()) return "skipped";
  if (!row.error.empty()) return "ERROR";
  return row.ok() ? "ok" : "FAILED";
}
}  // namespace

json bench_json(const BenchReport& r, const DeviceInfo& dev) {
  json rows = json::array();
  for (const auto& row : r.rows) {
    json j = row.report ? report_core_json(*row.report) : json{{"variant", row.variant}};
    j["status"] = check_cell(row);
    if (!row.skipped.empty()) j["skipped"] = row.skipped;
    if (!row.error.empty()) j["error"] = row.error;
    if (!row.tuned_refused.empty()) j["tuned_refused"] = row.tuned_refused;
    if (row.report) {
      j["pct_of_peak"] = row.pct_of_peak;
      j["speedup_vs_naive"] = row.speedup;
    }
    rows.push_back(j);
  }
  return json{{"device", device_json(dev)},
              {"n", r.n},
              {"type", std::string(name_of(r.type))},
              {"op", std::string(name_of(r.op))},
              {"data", r.data_origin},
              {"bytes", r.n * size_of(r.type)},
              {"peak_read", {{"gbps", r.peak.gbps}, {"time_us", stats_json(r.peak.us)},
                             {"kernel", "stream_read.cl"}, {"groups", r.peak.groups},
                             {"wg", r.peak.wg}}},
              {"rows", rows},
              {"all_ok", r.all_ok()}};
}

std::string bench_text(const BenchReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  const std::uint64_t bytes = r.n * size_of(r.type);
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "input:  n = " << r.n << " " << name_of(r.type) << " (" << bytes_human(bytes) << ", "
      << r.data_origin << "), operator " << name_of(r.op) << "\n"
      << "peak:   " << fixed(r.peak.gbps, 1)
      << " GB/s read bandwidth, measured now by a plain streaming-read kernel (stream_read.cl) "
         "over the same buffer\n"
      << "time:   whole reduction (all passes), median of samples, back-to-back (a batch "
         "enqueued together, first start to last end / batch); 1 call: one call at a time "
         "(enqueue, wait), host clock, queue without profiling; GB/s = input bytes / "
         "back-to-back median\n\n";
  // Float sums also show each variant's relative error against the compensated host sum.
  const bool accuracy = is_floating(r.type) && r.op == Op::Sum;
  TextTable t;
  t.headers = {"variant", "wg", "times", "vec", "passes", "median µs", "min µs", "max µs",
               "1 call µs", "GB/s", "% of peak", "speedup vs naive", "check"};
  if (accuracy) t.headers.insert(t.headers.end() - 1, "rel error");
  for (const auto& row : r.rows) {
    if (!row.report) {
      t.rows.push_back({row.variant, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", check_cell(row)});
      if (accuracy) t.rows.back().insert(t.rows.back().end() - 1, "-");
      continue;
    }
    const ReduceReport& rr = *row.report;
    const PassPlan& first = rr.plan.passes.front();
    t.rows.push_back({row.variant, std::to_string(first.wg), std::to_string(first.times),
                      std::to_string(first.vec), std::to_string(rr.plan.passes.size()),
                      stats_cell(rr.timed.whole_us.median), stats_cell(rr.timed.whole_us.min),
                      stats_cell(rr.timed.whole_us.max), stats_cell(rr.timed.single_us.median),
                      fixed(rr.gbps, 1), fixed(row.pct_of_peak, 1) + "%",
                      row.speedup > 0 ? fixed(row.speedup, 2) + "x" : "-", check_cell(row)});
    if (accuracy) t.rows.back().insert(t.rows.back().end() - 1, rel_error_cell(rr.check.rel_error));
  }
  out << t.render_text();
  std::vector<std::string> tuned;
  std::string tuned_from;
  for (const auto& row : r.rows)
    if (row.report && !row.report->tuned.empty()) {
      tuned.push_back(row.variant + " (" + join(row.report->tuned) + ")");
      tuned_from = row.report->tuned_from;
    }
  if (!tuned.empty())
    out << "tuned parameters from " << tuned_from << ": " << join(tuned, "; ")
        << " (options given override them; --no-tuning: the built-in defaults)\n";
  for (const auto& row : r.rows) {
    if (!row.tuned_refused.empty())
      out << "\n" << row.variant << ": tuned parameters refused, defaults used: " << row.tuned_refused;
    if (!row.skipped.empty()) out << "\n" << row.variant << " skipped: " << row.skipped;
    if (!row.error.empty()) out << "\n" << row.variant << " error: " << row.error;
    if (row.report && !row.ok()) out << "\n" << row.variant << " check: " << row.report->check.detail;
  }
  out << "\n";
  return out.str();
}

std::string bench_csv(const BenchReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us",
               "max_us", "first_pass_median_us", "single_call_median_us",
               "single_call_events_median_us", "GB_per_s", "peak_read_GB_per_s", "pct_of_peak",
               "speedup_vs_naive", "check", "rel_error"};
  for (const auto& row : r.rows) {
    if (!row.report) {
      t.rows.push_back({row.variant, std::string(name_of(r.type)), std::string(name_of(r.op)),
                        std::to_string(r.n), "", "", "", "", "", "", "", "", "", "", "",
                        fixed(r.peak.gbps, 2), "", "", check_cell(row), ""});
      continue;
    }
    const ReduceReport& rr = *row.report;
    t.rows.push_back({row.variant, std::string(name_of(r.type)), std::string(name_of(r.op)),
                      std::to_string(r.n), std::to_string(rr.plan.passes.front().wg),
                      plan_times(rr.plan), std::to_string(rr.plan.passes.front().vec),
                      std::to_string(rr.plan.passes.size()), fixed(rr.timed.whole_us.min, 3),
                      fixed(rr.timed.whole_us.median, 3), fixed(rr.timed.whole_us.max, 3),
                      fixed(rr.timed.first_pass_us.median, 3),
                      fixed(rr.timed.single_us.median, 3), fixed(rr.timed.single_events_us.median, 3),
                      fixed(rr.gbps, 2), fixed(r.peak.gbps, 2), fixed(row.pct_of_peak, 2), fixed(row.speedup, 3),
                      check_cell(row), rel_error_cell(rr.check.rel_error)});
  }
  return t.render_csv();
}

}  // namespace clreduce
