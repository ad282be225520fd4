// Size-sweep renderings.
#include "printers/sizes_printer.hpp"

#include "printers/report.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

std::string size_label(std::uint64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    unsigned l = 0;
    while ((1ULL << l) < n) ++l;
    return "2^" + std::to_string(l);
  }
  return std::to_string(n);
}

std::string config_label(const ReduceReport& r, const DeviceInfo& dev) {
  const PassPlan& p = r.plan.passes.front();
  std::string s = "wg " + std::to_string(p.wg) + ", " + std::to_string(p.groups) +
                  (p.groups == 1 ? " group" : " groups");
  if (r.config.groups_per_cu) s += " (" + std::to_string(*r.config.groups_per_cu) + "/CU)";
  else if (dev.compute_units && p.groups % dev.compute_units == 0 && r.plan.variant->default_fills_device)
    s += " (" + std::to_string(p.groups / dev.compute_units) + "/CU)";
  s += ", times " + std::to_string(p.times);
  if (p.vec > 1) s += ", vec " + std::to_string(p.vec);
  s += ", " + std::to_string(r.plan.passes.size()) + (r.plan.passes.size() == 1 ? " pass" : " passes");
  if (!r.tuned.empty()) s += ", tuned";
  return s;
}

namespace {
double floor_us(const SweepSize& s, ElemType t) {
  return s.peak.gbps > 0 ? static_cast<double>(s.n * size_of(t)) / (s.peak.gbps * 1e3) : 0;
}

std::string status(const SweepRow& row) {
  if (!row.skipped.empty()) return "skipped";
  if (row.measured() == 0) return "ERROR";
  return row.ok() ? "ok" : "FAILED";
}

std::string checked_cell(const SweepRow& row) {
  std::size_t refused = 0;
  for (const auto& c : row.tried) refused += !c.refused.empty();
  std::string s = std::to_string(row.measured()) + " run";
  if (refused) s += ", " + std::to_string(refused) + " refused";
  return s;
}

// The best one-call-at-a-time figure across every variant and candidate of one size.
const ReduceReport* best_of(const SweepSize& s, bool single) {
  const ReduceReport* best = nullptr;
  for (const auto& row : s.rows) {
    const int i = single ? row.best_single : row.best;
    if (i < 0) continue;
    const ReduceReport* r = &*row.tried[i].report;
    const double t = single ? r->timed.single_us.median : r->timed.whole_us.median;
    if (!best || t < (single ? best->timed.single_us.median : best->timed.whole_us.median)) best = r;
  }
  return best;
}
}  // namespace

std::string sweep_text(const SweepReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units, occupancy "
      << (dev.resident_items_per_cu ? std::to_string(dev.resident_items_per_cu) + " work-items/CU, "
                                    : std::string())
      << dev.occupancy_source << "\n"
      << "reduce: " << name_of(r.op) << " of " << name_of(r.type)
      << "; each variant's best configuration (lowest back-to-back median) of the candidates tried, "
         "every candidate verified against the host reference\n"
      << "times:  whole reduction (all passes, to one value on the device), medians. b2b: a batch "
         "enqueued together, first start to last end / batch; 1 call: one call at a time "
         "(enqueue, wait) by the host clock on a queue without profiling, as the host clock "
         "around a CUDA call and a stream synchronize; GB/s = bytes / b2b\n";
  for (const auto& s : r.sizes) {
    const std::uint64_t bytes = s.n * size_of(r.type);
    out << "\nn = " << size_label(s.n) << " (" << s.n << " " << name_of(r.type) << ", "
        << bytes_human(bytes) << ", " << s.data_origin << "): read peak " << fixed(s.peak.gbps, 1)
        << " GB/s (stream_read.cl, same buffer), floor " << stats_cell(floor_us(s, r.type)) << " µs\n";
    TextTable t;
    t.headers = {"variant", "best configuration", "b2b µs", "1 call µs", "GB/s", "% of peak",
                 "best 1 call µs", "candidates", "check"};
    for (const auto& row : s.rows) {
      const ReduceReport* b = row.best_report();
      if (!b) {
        t.rows.push_back({row.variant, "-", "-", "-", "-", "-", "-", checked_cell(row), status(row)});
        continue;
      }
      const ReduceReport& bs = *row.tried[row.best_single].report;
      t.rows.push_back({row.variant, config_label(*b, dev), stats_cell(b->timed.whole_us.median),
                        stats_cell(b->timed.single_us.median), fixed(b->gbps, 1),
                        fixed(row.pct_of_peak, 1) + "%", stats_cell(bs.timed.single_us.median),
                        checked_cell(row), status(row)});
    }
    out << t.render_text();
    if (const ReduceReport* b = best_of(s, false))
      out << "best b2b:    " << b->config.variant << " " << stats_cell(b->timed.whole_us.median)
          << " µs (" << config_label(*b, dev) << ")\n";
    if (const ReduceReport* b = best_of(s, true))
      out << "best one call: " << b->config.variant << " " << stats_cell(b->timed.single_us.median)
          << " µs (" << config_label(*b, dev) << ")\n";
    for (const auto& row : s.rows) {
      if (!row.skipped.empty()) out << row.variant << " skipped: " << row.skipped << "\n";
      for (const auto& c : row.tried) {
        if (!c.error.empty()) out << row.variant << " error: " << c.error << "\n";
        if (c.report && !c.report->ok())
          out << row.variant << " FAILED (" << config_label(*c.report, dev) << "): " << c.report->check.detail << "\n";
      }
    }
  }
  return out.str();
}

std::string sweep_csv(const SweepReport& r, const DeviceInfo& dev) {
  TextTable t;
  t.headers = {"n", "type", "op", "variant", "wg", "groups", "groups_per_cu", "times", "vec",
               "passes", "b2b_median_us", "b2b_min_us", "single_median_us", "single_events_median_us",
               "GB_per_s", "peak_read_GB_per_s", "pct_of_peak", "floor_us", "best_single_median_us",
               "best_single_config", "candidates_run", "check"};
  for (const auto& s : r.sizes)
    for (const auto& row : s.rows) {
      std::vector<std::string> cells{std::to_string(s.n), std::string(name_of(r.type)),
                                     std::string(name_of(r.op)), row.variant};
      const ReduceReport* b = row.best_report();
      if (!b) {
        cells.insert(cells.end(), {"", "", "", "", "", "", "", "", "", "", "", fixed(s.peak.gbps, 2), "",
                                   fixed(floor_us(s, r.type), 3), "", "", std::to_string(row.measured()),
                                   status(row)});
      } else {
        const PassPlan& p = b->plan.passes.front();
        const ReduceReport& bs = *row.tried[row.best_single].report;
        cells.insert(cells.end(),
                     {std::to_string(p.wg), std::to_string(p.groups),
                      b->config.groups_per_cu ? std::to_string(*b->config.groups_per_cu) : "",
                      std::to_string(p.times), std::to_string(p.vec), std::to_string(b->plan.passes.size()),
                      fixed(b->timed.whole_us.median, 3), fixed(b->timed.whole_us.min, 3),
                      fixed(b->timed.single_us.median, 3), fixed(b->timed.single_events_us.median, 3),
                      fixed(b->gbps, 2), fixed(s.peak.gbps, 2), fixed(row.pct_of_peak, 2),
                      fixed(floor_us(s, r.type), 3), fixed(bs.timed.single_us.median, 3),
                      config_label(bs, dev), std::to_string(row.measured()), status(row)});
      }
      t.rows.push_back(cells);
    }
  return t.render_csv();
}

json sweep_json(const SweepReport& r, const DeviceInfo& dev) {
  json sizes = json::array();
  for (const auto& s : r.sizes) {
    json rows = json::array();
    for (const auto& row : s.rows) {
      json j{{"variant", row.variant}, {"status", status(row)}};
      if (!row.skipped.empty()) j["skipped"] = row.skipped;
      if (const ReduceReport* b = row.best_report()) {
        j["best"] = report_core_json(*b);
        j["best"]["config"] = config_label(*b, dev);
        j["best_single"] = report_core_json(*row.tried[row.best_single].report);
        j["best_single"]["config"] = config_label(*row.tried[row.best_single].report, dev);
        j["pct_of_peak"] = row.pct_of_peak;
      }
      json tried = json::array();
      for (const auto& c : row.tried) {
        json cj{{"wg", c.config.wg}};
        if (c.config.groups_per_cu) cj["groups_per_cu"] = *c.config.groups_per_cu;
        if (c.config.vec) cj["vec"] = *c.config.vec;
        if (c.report) {
          cj["config"] = config_label(*c.report, dev);
          cj["b2b_us"] = stats_json(c.report->timed.whole_us);
          cj["single_us"] = stats_json(c.report->timed.single_us);
          cj["single_events_us"] = stats_json(c.report->timed.single_events_us);
          cj["ok"] = c.report->ok();
        }
        if (!c.refused.empty()) cj["refused"] = c.refused;
        if (!c.error.empty()) cj["error"] = c.error;
        tried.push_back(cj);
      }
      j["candidates"] = tried;
      rows.push_back(j);
    }
    sizes.push_back(json{{"n", s.n},
                         {"bytes", s.n * size_of(r.type)},
                         {"data", s.data_origin},
                         {"peak_read", {{"gbps", s.peak.gbps}, {"time_us", stats_json(s.peak.us)},
                                        {"kernel", "stream_read.cl"}}},
                         {"floor_us", floor_us(s, r.type)},
                         {"rows", rows}});
  }
  return json{{"device", device_json(dev)},
              {"type", std::string(name_of(r.type))},
              {"op", std::string(name_of(r.op))},
              {"sizes", sizes},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
