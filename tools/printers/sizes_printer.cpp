// Renderings of the size benchmark.
#include "printers/sizes_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

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
double floor_us(const SizeRun& s, ElemType t) { return s.floor_us(t); }

std::string status(const VariantRun& row) {
  if (!row.unavailable.empty()) return "skipped";
  if (row.measured() == 0) return "ERROR";
  return row.ok() ? "ok" : "FAILED";
}

std::string checked_cell(const VariantRun& row) {
  std::string s = std::to_string(row.measured()) + " run";
  if (row.skipped()) s += ", " + std::to_string(row.skipped()) + " refused";
  return s;
}

const ReduceReport* best_report(const VariantRun& row) {
  return row.best() < 0 ? nullptr : &*row.points[row.best()].report;
}
const ReduceReport& best_single_report(const VariantRun& row) { return *row.points[row.best_single()].report; }

// The best one-call-at-a-time figure across every variant and candidate of one size.
const ReduceReport* best_of(const SizeRun& s, bool single) {
  const ReduceReport* best = nullptr;
  for (const auto& row : s.variants) {
    const int i = single ? row.best_single() : row.best();
    if (i < 0) continue;
    const ReduceReport* r = &*row.points[i].report;
    const double t = single ? r->timed.single_us.median : r->timed.whole_us.median;
    if (!best || t < (single ? best->timed.single_us.median : best->timed.whole_us.median)) best = r;
  }
  return best;
}
}  // namespace

std::string sizes_text(const Run& r, const DeviceInfo& dev) {
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
         "around a CUDA call and a stream synchronize; GB/s = bytes / b2b\n"
      << clock_line(r.clock, r.clock_note) << noise_line(r.noise_target_pct);
  bool warm = false, cold = false;
  for (const auto& s : r.sizes) (s.cold ? cold : warm) = true;
  if (warm || r.sizes.empty()) out << cache_line(false, "");
  if (cold) out << cache_line(true, r.cache_note);
  for (const auto& s : r.sizes) {
    const std::uint64_t bytes = s.n * size_of(r.type);
    out << "\nn = " << size_label(s.n) << (s.cold ? " COLD" : " warm") << " (" << s.n << " " << name_of(r.type) << ", "
        << bytes_human(bytes) << ", " << s.data_origin << "): read peak " << bandwidth_cell(s.peak.gbps, 1)
        << " " << bandwidth_label() << " (stream_read.cl, same buffer), floor " << stats_cell(floor_us(s, r.type)) << " µs\n";
    TextTable t;
    t.headers = {"variant", "best configuration", "b2b µs", "spread", "1 call µs", bandwidth_label(), "% of peak",
                 "best 1 call µs", "candidates", "check"};
    bool marked = false;  // a cell above the peak
    for (const auto& row : s.variants) {
      const ReduceReport* b = best_report(row);
      if (!b) {
        t.rows.push_back({row.variant, "-", "-", "-", "-", "-", "-", "-", checked_cell(row), status(row)});
        continue;
      }
      const ReduceReport& bs = best_single_report(row);
      t.rows.push_back({row.variant, config_label(*b, dev), stats_cell(b->timed.whole_us.median),
                        noise_cell(b->timed), stats_cell(b->timed.single_us.median), bandwidth_cell(b->gbps, 1),
                        pct_of_peak_cell(s.pct_of_peak(b->gbps), 1), stats_cell(bs.timed.single_us.median),
                        checked_cell(row), status(row)});
      marked = marked || above_peak(s.pct_of_peak(b->gbps));
    }
    out << t.render_text();
    if (marked) out << kAbovePeakNote;
    for (const auto& row : s.variants)
      if (const ReduceReport* b = best_report(row); b && !b->timed.noise_reached)
        out << row.variant << ": noise target not reached: spread " << spread_cell(b->timed.whole_us) << " after "
            << b->timed.repetitions << " samples (--max-time ends the sampling)\n";
    if (const ReduceReport* b = best_of(s, false))
      out << "best b2b:    " << b->config.variant << " " << stats_cell(b->timed.whole_us.median)
          << " µs (" << config_label(*b, dev) << ")\n";
    if (const ReduceReport* b = best_of(s, true))
      out << "best one call: " << b->config.variant << " " << stats_cell(b->timed.single_us.median)
          << " µs (" << config_label(*b, dev) << ")\n";
    for (const auto& row : s.variants) {
      if (!row.unavailable.empty()) out << row.variant << " skipped: " << row.unavailable << "\n";
      for (const auto& c : row.points) {
        if (!c.error.empty()) out << row.variant << " error: " << c.error << "\n";
        if (c.report && !c.report->ok())
          out << row.variant << " FAILED (" << config_label(*c.report, dev) << "): " << c.report->check.detail << "\n";
      }
    }
  }
  return out.str();
}

std::string sizes_csv(const Run& r, const DeviceInfo& dev) {
  TextTable t;
  t.headers = {"n", "type", "op", "variant", "wg", "groups", "groups_per_cu", "times", "vec",
               "passes", "b2b_median_us", "b2b_min_us", "single_median_us", "single_events_median_us",
               bandwidth_csv_label(), "peak_read_" + bandwidth_csv_label(), "pct_of_peak", "floor_us", "best_single_median_us",
               "best_single_config", "candidates_run", "check", "cache", "b2b_spread_pct", "b2b_samples",
               "noise_reached"};
  for (const auto& s : r.sizes)
    for (const auto& row : s.variants) {
      std::vector<std::string> cells{std::to_string(s.n), std::string(name_of(r.type)),
                                     std::string(name_of(r.op)), row.variant};
      const ReduceReport* b = best_report(row);
      if (!b) {
        cells.insert(cells.end(), {"", "", "", "", "", "", "", "", "", "", "", bandwidth_cell(s.peak.gbps, 2), "",
                                   fixed(floor_us(s, r.type), 3), "", "", std::to_string(row.measured()),
                                   status(row), s.cold ? "cold" : "warm", "", "", ""});
      } else {
        const PassPlan& p = b->plan.passes.front();
        const ReduceReport& bs = best_single_report(row);
        cells.insert(cells.end(),
                     {std::to_string(p.wg), std::to_string(p.groups),
                      b->config.groups_per_cu ? std::to_string(*b->config.groups_per_cu) : "",
                      std::to_string(p.times), std::to_string(p.vec), std::to_string(b->plan.passes.size()),
                      fixed(b->timed.whole_us.median, 3), fixed(b->timed.whole_us.min, 3),
                      fixed(b->timed.single_us.median, 3), fixed(b->timed.single_events_us.median, 3),
                      bandwidth_cell(b->gbps, 2), bandwidth_cell(s.peak.gbps, 2), fixed(s.pct_of_peak(b->gbps), 2),
                      fixed(floor_us(s, r.type), 3), fixed(bs.timed.single_us.median, 3),
                      config_label(bs, dev), std::to_string(row.measured()), status(row), s.cold ? "cold" : "warm",
                      fixed(b->timed.whole_us.spread_pct(), 2), std::to_string(b->timed.whole_us.samples.size()),
                      b->timed.noise_reached ? "yes" : "no"});
      }
      t.rows.push_back(cells);
    }
  return t.render_csv();
}

json sizes_json(const Run& r, const DeviceInfo& dev) {
  json sizes = json::array();
  for (const auto& s : r.sizes) {
    json rows = json::array();
    for (const auto& row : s.variants) {
      json j{{"variant", row.variant}, {"status", status(row)}};
      if (!row.unavailable.empty()) j["skipped"] = row.unavailable;
      if (const ReduceReport* b = best_report(row)) {
        j["best"] = report_core_json(*b);
        j["best"]["config"] = config_label(*b, dev);
        j["best_single"] = report_core_json(best_single_report(row));
        j["best_single"]["config"] = config_label(best_single_report(row), dev);
        j["pct_of_peak"] = s.pct_of_peak(b->gbps);
        j["above_peak"] = above_peak(s.pct_of_peak(b->gbps));
      }
      json tried = json::array();
      for (const auto& c : row.points) {
        const ReduceParams& cp = c.report ? static_cast<const ReduceParams&>(c.report->config) : c.point.params;
        json cj{{"wg", cp.wg}};
        if (cp.groups_per_cu) cj["groups_per_cu"] = *cp.groups_per_cu;
        if (cp.vec) cj["vec"] = *cp.vec;
        if (c.report) {
          cj["config"] = config_label(*c.report, dev);
          cj["b2b_us"] = stats_json(c.report->timed.whole_us);
          cj["single_us"] = stats_json(c.report->timed.single_us);
          cj["single_events_us"] = stats_json(c.report->timed.single_events_us);
          cj["ok"] = c.report->ok();
          cj["report"] = report_core_json(*c.report);  // everything, for `clreduce report`
        }
        if (!c.skipped.empty()) cj["refused"] = c.skipped;
        if (!c.error.empty()) cj["error"] = c.error;
        tried.push_back(cj);
      }
      j["candidates"] = tried;
      rows.push_back(j);
    }
    sizes.push_back(json{{"n", s.n},
                         {"cache", s.cold ? "cold" : "warm"},
                         {"bytes", s.n * size_of(r.type)},
                         {"data", s.data_origin},
                         {"peak_read", peak_json(s.peak)},
                         {"host_reduce", host_reduce_json(s.host)},
                         {"floor_us", floor_us(s, r.type)},
                         {"rows", rows}});
  }
  return json{{"kind", "bench_sizes"},
              {"device", device_json(dev)},
              {"clock", std::string(name_of(r.clock))},
              {"clock_note", r.clock_note},
              {"cache_note", r.cache_note},
              {"noise_target_pct", r.noise_target_pct},
              {"type", std::string(name_of(r.type))},
              {"op", std::string(name_of(r.op))},
              {"sizes", sizes},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
