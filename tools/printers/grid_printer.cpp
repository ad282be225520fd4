// Renderings of the parameter sweep.
#include "printers/grid_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <map>
#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
template <class T>
std::string list_label(const std::vector<T>& xs) {
  if (xs.empty()) return "none";
  std::string s;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs.size() > 6 && i == 2) {
      s += ", ...";
      i = xs.size() - 2;
    }
    s += (s.empty() ? "" : ", ") + std::to_string(xs[i]);
  }
  return s;
}

std::string status(const Measured& p) {
  if (!p.skipped.empty()) return "skipped";
  if (!p.error.empty()) return "ERROR";
  if (!p.report) return "-";
  return p.report->ok() ? "ok" : "FAILED";
}

double pct(double gbps, const SizeRun& s) { return s.pct_of_peak(gbps); }
}  // namespace

std::string axis_label(const std::vector<std::size_t>& xs) { return list_label(xs); }
std::string axis_label(const std::vector<unsigned>& xs) { return list_label(xs); }

std::string grid_sweep_text(const Run& run, const GridAxes& axes, const DeviceInfo& dev) {
  const SizeRun& s = run.sizes.front();
  std::ostringstream out;
  const std::uint64_t bytes = s.n * size_of(run.type);
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "sweep:  " << name_of(run.op) << " of " << size_label(s.n) << " " << name_of(run.type) << " ("
      << bytes_human(bytes) << ", " << s.data_origin << "); read peak " << fixed(s.peak.gbps, 1)
      << " GB/s (stream_read.cl, same buffer)\n"
      << "grid:   wg " << axis_label(axes.wg) << "; times " << axis_label(axes.times)
      << "; groups/CU " << axis_label(axes.groups_per_cu) << "; vec " << axis_label(axes.vec)
      << " (each variant takes the parameters it has)\n"
      << "times:  whole reduction medians; b2b = a batch back-to-back / batch, 1 call = one call "
         "(host clock, no profiling); every measured point verified against the host reference\n"
      << clock_line(run.clock, run.clock_note);
  std::map<std::string, std::size_t> reasons;  // reason -> footnote number
  bool any_marked = false;                     // a "% of peak" cell above the peak
  auto footnote = [&](const std::string& r) {
    auto it = reasons.find(r);
    if (it == reasons.end()) it = reasons.emplace(r, reasons.size() + 1).first;
    return "[" + std::to_string(it->second) + "]";
  };
  for (const auto& v : s.variants) {
    out << "\n" << v.variant;
    if (!v.unavailable.empty()) {
      out << ": unavailable on this device: " << v.unavailable << "\n";
      continue;
    }
    out << ": " << v.points.size() << " points, " << v.measured() << " measured, "
        << v.skipped() << " skipped, " << v.failed() << " failed\n";
    TextTable t;
    t.headers = {"point", "groups", "passes", "b2b µs", "1 call µs", "GB/s", "% of peak", "check"};
    bool marked = false;  // a cell above the peak
    const int best = v.best();
    for (std::size_t i = 0; i < v.points.size(); ++i) {
      const Measured& p = v.points[i];
      std::string mark = static_cast<int>(i) == best ? " <- best" : "";
      if (!p.report) {
        const std::string why = !p.skipped.empty() ? p.skipped : p.error;
        t.rows.push_back({point_label(p), "", "", "", "", "", "", status(p) + " " + footnote(why)});
        continue;
      }
      const ReduceReport& r = *p.report;
      t.rows.push_back({point_label(p), std::to_string(r.plan.passes.front().groups),
                        std::to_string(r.plan.passes.size()), stats_cell(r.timed.whole_us.median),
                        stats_cell(r.timed.single_us.median), fixed(r.gbps, 1),
                        pct_of_peak_cell(pct(r.gbps, s), 1), status(p) + mark});
      marked = marked || above_peak(pct(r.gbps, s));
    }
    out << t.render_text();
    any_marked = any_marked || marked;
  }
  if (!reasons.empty()) {
    std::vector<const std::string*> by_number(reasons.size());
    for (const auto& [r, i] : reasons) by_number[i - 1] = &r;
    out << "\nnot measured:\n";
    for (std::size_t i = 0; i < by_number.size(); ++i)
      out << "[" << i + 1 << "] " << *by_number[i] << "\n";
  }
  out << "\nbest point per variant (lowest b2b median of the verified points)\n";
  TextTable b;
  b.headers = {"variant", "best point", "b2b µs", "GB/s", "% of peak", "default b2b µs",
               "gain over default", "measured / skipped / failed"};
  for (const auto& v : s.variants) {
    if (!v.unavailable.empty()) {
      b.rows.push_back({v.variant, "unavailable", "", "", "", "", "", ""});
      continue;
    }
    const Measured* p = v.best_point();
    const Measured* d = v.default_launch();
    const std::string counts = std::to_string(v.measured()) + " / " + std::to_string(v.skipped()) + " / " +
                               std::to_string(v.failed());
    if (!p) {
      b.rows.push_back({v.variant, "none verified", "", "", "", "", "", counts});
      continue;
    }
    b.rows.push_back({v.variant, point_label(*p), stats_cell(p->us()), fixed(p->gbps(), 1),
                      pct_of_peak_cell(pct(p->gbps(), s), 1), d ? stats_cell(d->us()) : "-",
                      d ? fixed(v.gain_over_default(), 2) + "x" : "-", counts});
    any_marked = any_marked || above_peak(pct(p->gbps(), s));
  }
  out << b.render_text();
  if (const VariantRun* best = s.best_variant())
    out << "best overall: " << best->variant << " " << point_label(*best->best_point()) << ", "
        << stats_cell(best->best_point()->us()) << " µs, " << fixed(best->best_point()->gbps(), 1)
        << " GB/s (" << pct_of_peak_cell(pct(best->best_point()->gbps(), s), 1) << " of peak)\n";
  if (any_marked) out << kAbovePeakNote;
  return out.str();
}

std::string grid_sweep_csv(const Run& run) {
  const SizeRun& s = run.sizes.front();
  TextTable t;
  t.headers = {"n", "type", "op", "variant", "default", "wg", "times", "groups_per_cu", "vec",
               "groups", "passes", "b2b_median_us", "b2b_min_us", "b2b_max_us", "single_median_us",
               "GB_per_s", "peak_read_GB_per_s", "pct_of_peak", "best", "status", "reason"};
  for (const auto& v : s.variants) {
    if (!v.unavailable.empty()) {
      t.rows.push_back({std::to_string(s.n), std::string(name_of(run.type)), std::string(name_of(run.op)),
                        v.variant, "", "", "", "", "", "", "", "", "", "", "", "", fixed(s.peak.gbps, 2),
                        "", "", "unavailable", v.unavailable});
      continue;
    }
    const int best = v.best();
    for (std::size_t i = 0; i < v.points.size(); ++i) {
      const Measured& p = v.points[i];
      const ReduceParams& c = p.point.params;
      std::vector<std::string> row{std::to_string(s.n), std::string(name_of(run.type)),
                                   std::string(name_of(run.op)), v.variant, p.point.is_default ? "1" : "0"};
      if (p.report) {
        const PassPlan& f = p.report->plan.passes.front();
        const Stats& w = p.report->timed.whole_us;
        row.insert(row.end(),
                   {std::to_string(f.wg), std::to_string(f.times),
                    c.groups_per_cu ? std::to_string(*c.groups_per_cu) : "", std::to_string(f.vec),
                    std::to_string(f.groups), std::to_string(p.report->plan.passes.size()),
                    fixed(w.median, 3), fixed(w.min, 3), fixed(w.max, 3),
                    fixed(p.report->timed.single_us.median, 3), fixed(p.gbps(), 2),
                    fixed(s.peak.gbps, 2), fixed(pct(p.gbps(), s), 2)});
      } else {
        row.insert(row.end(),
                   {c.wg ? std::to_string(c.wg) : "", c.times ? std::to_string(*c.times) : "",
                    c.groups_per_cu ? std::to_string(*c.groups_per_cu) : "",
                    c.vec ? std::to_string(*c.vec) : "", "", "", "", "", "", "", "",
                    fixed(s.peak.gbps, 2), ""});
      }
      row.push_back(static_cast<int>(i) == best ? "1" : "0");
      row.push_back(status(p));
      row.push_back(!p.skipped.empty() ? p.skipped : p.error);
      t.rows.push_back(row);
    }
  }
  return t.render_csv();
}

json grid_sweep_json(const Run& run, const GridAxes& axes, const DeviceInfo& dev) {
  const SizeRun& s = run.sizes.front();
  json vs = json::array();
  for (const auto& v : s.variants) {
    json j{{"variant", v.variant}};
    if (!v.unavailable.empty()) {
      j["unavailable"] = v.unavailable;
      vs.push_back(j);
      continue;
    }
    json points = json::array();
    for (const auto& p : v.points) {
      const ReduceParams& c = p.point.params;
      json pj{{"label", point_label(p)}, {"default", p.point.is_default}, {"status", status(p)}};
      if (c.wg) pj["wg"] = c.wg;
      if (c.times) pj["times"] = *c.times;
      if (c.groups_per_cu) pj["groups_per_cu"] = *c.groups_per_cu;
      if (c.vec) pj["vec"] = *c.vec;
      if (p.report) {
        pj["result"] = report_core_json(*p.report);
        pj["pct_of_peak"] = pct(p.gbps(), s);
        pj["above_peak"] = above_peak(pct(p.gbps(), s));
      }
      if (!p.skipped.empty()) pj["skipped"] = p.skipped;
      if (!p.error.empty()) pj["error"] = p.error;
      points.push_back(pj);
    }
    j["points"] = points;
    j["measured"] = v.measured();
    j["skipped"] = v.skipped();
    j["failed"] = v.failed();
    if (const Measured* b = v.best_point()) {
      j["best"] = {{"label", point_label(*b)}, {"b2b_us", b->us()}, {"gbps", b->gbps()},
                   {"gain_over_default", v.gain_over_default()}};
    }
    vs.push_back(j);
  }
  json out{{"device", device_json(dev)},
           {"clock", std::string(name_of(run.clock))},
           {"clock_note", run.clock_note},
           {"type", std::string(name_of(run.type))},
           {"op", std::string(name_of(run.op))},
           {"n", s.n},
           {"bytes", s.n * size_of(run.type)},
           {"data", s.data_origin},
           {"peak_read", peak_json(s.peak)},
           {"host_reduce", host_reduce_json(s.host)},
           {"grid", {{"wg", axes.wg}, {"times", axes.times}, {"groups_per_cu", axes.groups_per_cu},
                     {"vec", axes.vec}}},
           {"variants", vs},
           {"all_ok", run.all_ok()}};
  if (const VariantRun* b = s.best_variant()) out["best_variant"] = b->variant;
  return out;
}

}  // namespace clreduce
