// Renderings of the parameter sweep: a point's columns declared once (the result model,
// measure/result_table.hpp); its tables, CSV and JSON points from the generic printers.
#include "printers/grid_printer.hpp"

#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
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

// A point as its columns read it; a variant unavailable on the device is one row without a point
// (CSV alone). check: the text's check cell (the status, "<- best", the footnote of why not measured).
struct Line {
  const Run* run;
  const SizeRun* s;
  const VariantRun* v;
  const Measured* p;
  const ReduceReport* r;  // null where the point did not run
  bool best;
  std::string check;
};

std::optional<unsigned> param(const Line& l, std::optional<unsigned> ReduceParams::*x) {
  return l.p ? l.p->point.params.*x : std::nullopt;
}

// {{key, json path, text header, csv header, unit, text decimals, csv decimals}, cell}: each format
// takes the columns that name a header or a path there, in this order.
const std::vector<ColumnOf<Line>>& columns() {
  using L = Line;
  using R = ReduceReport;
  const auto opt = [](std::optional<unsigned> x) { return x ? u64(*x) : Cell(); };
  static const std::vector<ColumnOf<L>> c = join<L>({
      {{{"n", "", "", "n", Unit::Count}, [](const L& l) { return u64(l.s->n); }},
       {{"type", "", "", "type"}, [](const L& l) { return Cell(std::string(name_of(l.run->type))); }},
       {{"op", "", "", "op"}, [](const L& l) { return Cell(std::string(name_of(l.run->op))); }},
       {{"variant", "", "", "variant"}, [](const L& l) { return Cell(l.v->variant); }},
       {{"default", "", "", "default"}, [](const L& l) { return l.p ? Cell(std::string(l.p->point.is_default ? "1" : "0")) : Cell(); }},
       {{"wg", "", "", "wg", Unit::Count},
        [](const L& l) { return l.r ? u64(l.r->plan.passes.front().wg) : l.p && l.p->point.params.wg ? u64(l.p->point.params.wg) : Cell(); }},
       {{"times", "", "", "times", Unit::Count},
        [opt](const L& l) { return l.r ? u64(l.r->plan.passes.front().times) : opt(param(l, &ReduceParams::times)); }},
       {{"groups_per_cu", "groups_per_cu", "", "groups_per_cu", Unit::Count}, [opt](const L& l) { return opt(param(l, &ReduceParams::groups_per_cu)); }},
       {{"vec", "", "", "vec", Unit::Count},
        [opt](const L& l) { return l.r ? u64(l.r->plan.passes.front().vec) : opt(param(l, &ReduceParams::vec)); }},
       {{"point", "label", "point", ""}, [](const L& l) { return l.p ? Cell(point_label(*l.p)) : Cell(); }},
       {{"groups", "", "groups", "groups", Unit::Count}, when(&L::r, [](const R& r) { return u64(r.plan.passes.front().groups); })},
       {{"passes", "", "passes", "passes", Unit::Count}, when(&L::r, [](const R& r) { return u64(r.plan.passes.size()); })},
       {{"median_us", "", "b2b µs", "b2b_median_us", Unit::Micros, 2, 3}, when(&L::r, [](const R& r) { return r.timed.whole_us.median; })},
       {{"min_us", "", "", "b2b_min_us", Unit::Micros, 2, 3}, when(&L::r, [](const R& r) { return r.timed.whole_us.min; })},
       {{"max_us", "", "", "b2b_max_us", Unit::Micros, 2, 3}, when(&L::r, [](const R& r) { return r.timed.whole_us.max; })},
       {{"single_us", "", "1 call µs", "single_median_us", Unit::Micros, 2, 3},
        when(&L::r, [](const R& r) { return r.timed.single_us.median; })},
       {{"gbps", "", "GB/s", "GB_per_s", Unit::Number, 1, 2}, when(&L::r, [](const R& r) { return r.gbps; })}},
      peak_columns<L>([](const L& l) { return &l.s->peak; },
                      [](const L& l) { return l.r ? std::optional(l.s->pct_of_peak(l.r->gbps)) : std::nullopt; },
                      {"peak_read_GB_per_s", "pct_of_peak", "pct_of_peak", "", true, Unit::Number}),
      {{{"best", "", "", "best"}, [](const L& l) { return l.p ? Cell(std::string(l.best ? "1" : "0")) : Cell(); }},
       {{"status", "status", "", "status"}, [](const L& l) { return Cell(l.p ? status(*l.p) : "unavailable"); }},
       {{"reason", "", "", "reason"},
        [](const L& l) { return Cell(!l.p ? l.v->unavailable : !l.p->skipped.empty() ? l.p->skipped : l.p->error); }},
       {{"check", "", "check", ""}, [](const L& l) { return Cell(l.check); }},
       // JSON only: the grid's parameters of the point, its report, why it was not measured.
       {{"default_json", "default", "", ""}, when(&L::p, [](const Measured& p) { return p.point.is_default; })},
       {{"wg_json", "wg", "", ""}, [](const L& l) { return l.p && l.p->point.params.wg ? u64(l.p->point.params.wg) : Cell(); }},
       {{"times_json", "times", "", ""}, [opt](const L& l) { return opt(param(l, &ReduceParams::times)); }},
       {{"vec_json", "vec", "", ""}, [opt](const L& l) { return opt(param(l, &ReduceParams::vec)); }},
       {{"result", "result", "", ""}, when(&L::r, [](const R& r) { return report_core_json(r); })},
       {{"skipped", "skipped", "", ""}, [](const L& l) { return l.p && !l.p->skipped.empty() ? Cell(l.p->skipped) : Cell(); }},
       {{"error", "error", "", ""}, [](const L& l) { return l.p && !l.p->error.empty() ? Cell(l.p->error) : Cell(); }}}});
  return c;
}
// The points of one variant (or a row for it where it is unavailable), each text check cell with
// its mark or the footnote number of why it was not measured (numbered in order over the variants).
std::vector<Line> lines_of(const Run& run, const VariantRun* only, std::map<std::string, std::size_t>* reasons = nullptr) {
  const SizeRun* s = &run.sizes.front();
  std::vector<Line> out;
  for (const auto& v : s->variants) {
    if (only && &v != only) continue;
    if (!v.unavailable.empty()) out.push_back(Line{&run, s, &v, nullptr, nullptr, false, ""});
    for (std::size_t i = 0; i < v.points.size(); ++i) {
      const Measured& p = v.points[i];
      Line l{&run, s, &v, &p, p.report ? &*p.report : nullptr, static_cast<int>(i) == v.best(), status(p)};
      if (l.r && l.best) l.check += " <- best";
      if (!l.r && reasons) {
        const std::string& why = !p.skipped.empty() ? p.skipped : p.error;
        l.check += " [" + std::to_string(reasons->emplace(why, reasons->size() + 1).first->second) + "]";
      }
      out.push_back(std::move(l));
    }
  }
  return out;
}
}  // namespace

std::string axis_label(const std::vector<std::size_t>& xs) { return list_label(xs); }
std::string axis_label(const std::vector<unsigned>& xs) { return list_label(xs); }

namespace {
TableView view_of(const Run& run, const GridAxes& axes, const DeviceInfo& dev) {
  const SizeRun& s = run.sizes.front();
  TableView view;
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
  bool marked = false;                         // a "% of peak" cell above the peak: one note at the end
  for (const auto& v : s.variants) {
    out << "\n" << v.variant;
    if (!v.unavailable.empty()) {
      out << ": unavailable on this device: " << v.unavailable << "\n";
      continue;
    }
    out << ": " << v.points.size() << " points, " << v.measured() << " measured, " << v.skipped() << " skipped, "
        << v.failed() << " failed\n";
    ResultTable t = tabulate(columns(), lines_of(run, &v, &reasons));
    t.empty_text = "";
    t.peak_note = false;
    view.text.push_back({out.str(), std::nullopt});
    out.str("");
    view.text.push_back({"", std::move(t), true});  // without render_text's closing blank line
    for (const auto& p : v.points) marked = marked || (p.report && above_peak(s.pct_of_peak(p.gbps())));
  }
  if (!reasons.empty()) {
    std::vector<const std::string*> by_number(reasons.size());
    for (const auto& [r, i] : reasons) by_number[i - 1] = &r;
    out << "\nnot measured:\n";
    for (std::size_t i = 0; i < by_number.size(); ++i) out << "[" << i + 1 << "] " << *by_number[i] << "\n";
  }
  out << "\nbest point per variant (lowest b2b median of the verified points)\n";
  TextTable b;
  b.headers = {"variant", "best point", "b2b µs", "GB/s", "% of peak", "default b2b µs", "gain over default",
               "measured / skipped / failed"};
  for (const auto& v : s.variants) {
    const Measured* p = v.unavailable.empty() ? v.best_point() : nullptr;
    const Measured* d = v.default_launch();
    const std::string counts = v.unavailable.empty() ? std::to_string(v.measured()) + " / " + std::to_string(v.skipped()) +
                                                           " / " + std::to_string(v.failed())
                                                     : "";
    if (!p) {
      b.rows.push_back({v.variant, v.unavailable.empty() ? "none verified" : "unavailable", "", "", "", "", "", counts});
      continue;
    }
    b.rows.push_back({v.variant, point_label(*p), stats_cell(p->us()), fixed(p->gbps(), 1),
                      pct_of_peak_cell(s.pct_of_peak(p->gbps()), 1), d ? stats_cell(d->us()) : "-",
                      d ? fixed(v.gain_over_default(), 2) + "x" : "-", counts});
    marked = marked || above_peak(s.pct_of_peak(p->gbps()));
  }
  out << b.render_text();
  if (const VariantRun* best = s.best_variant())
    out << "best overall: " << best->variant << " " << point_label(*best->best_point()) << ", "
        << stats_cell(best->best_point()->us()) << " µs, " << fixed(best->best_point()->gbps(), 1)
        << " GB/s (" << pct_of_peak_cell(s.pct_of_peak(best->best_point()->gbps()), 1) << " of peak)\n";
  if (marked) out << kAbovePeakNote;
  view.text.push_back({out.str(), std::nullopt});
  view.csv = tabulate(columns(), lines_of(run, nullptr));
  return view;
}
}  // namespace

std::string grid_sweep_text(const Run& run, const GridAxes& axes, const DeviceInfo& dev) {
  return render_text(view_of(run, axes, dev));
}

std::string grid_sweep_csv(const Run& run) {
  return render_csv(tabulate(columns(), lines_of(run, nullptr)));
}

json grid_sweep_json(const Run& run, const GridAxes& axes, const DeviceInfo& dev) {
  const SizeRun& s = run.sizes.front();
  json vs = json::array();
  for (const auto& v : s.variants) {
    json j{{"variant", v.variant}};
    if (!v.unavailable.empty()) j["unavailable"] = v.unavailable;
    else j.update({{"points", render_json_rows(tabulate(columns(), lines_of(run, &v)))}, {"measured", v.measured()},
                   {"skipped", v.skipped()}, {"failed", v.failed()}});
    if (const Measured* b = v.unavailable.empty() ? v.best_point() : nullptr)
      j["best"] = {{"label", point_label(*b)}, {"b2b_us", b->us()}, {"gbps", b->gbps()}, {"gain_over_default", v.gain_over_default()}};
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
  return with_table(out, "sweep", view_of(run, axes, dev));
}

}  // namespace clreduce
