// Renderings of `clreduce tune descriptors`: the choice per class, then (CSV, JSON) every point;
// both declared on the result model (measure/result_table.hpp), every format from the generic printers.
#include "printers/descriptor_tune_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

namespace clreduce {

using nlohmann::json;

namespace {
std::string where_label(const DescriptorTuneClass::Where& w) {
  return w.m ? shape_label(w.m, w.n) : "n " + size_label(w.n);
}
double us_of(const DescriptorBenchRow& r) { return r.report ? r.report->timing.whole_us.median : 0; }

// The default row of the point's (reduction, types, family, m, n), or null.
const DescriptorBenchRow* default_of(const DescriptorTuneRun& r, const DescriptorBenchRow& p) {
  for (const DescriptorBenchRow& q : r.bench.rows)
    if (q.launch == "default" && q.reduction == p.reduction && q.types == p.types && q.family == p.family &&
        q.m == p.m && q.n == p.n)
      return &q;
  return nullptr;
}

// A point (CSV and JSON rows): its launch, median and gain over its default as text in the CSV
// (the CSV predates the model).
struct Point {
  const DescriptorTuneRun* run;
  const DescriptorBenchRow* p;
  const DescriptorReport* r;  // null where it did not run
  double us() const { return us_of(*p); }
  double default_us() const {
    const DescriptorBenchRow* d = default_of(*run, *p);
    return d ? us_of(*d) : 0;
  }
};

const std::vector<ColumnOf<Point>>& point_columns() {
  using P = Point;
  using D = DescriptorReport;
  static const std::vector<ColumnOf<P>> c = {
      {{"reduction", "reduction", "", "reduction"}, [](const P& x) { return Cell(x.p->reduction); }},
      {{"types", "types", "", "types"}, [](const P& x) { return Cell(x.p->types); }},
      {{"family", "family", "", "family"}, [](const P& x) { return Cell(std::string(name_of(x.p->family))); }},
      {{"m", "m", "", "m", Unit::Count}, [](const P& x) { return u64(x.p->m); }},
      {{"n", "n", "", "n", Unit::Count}, [](const P& x) { return u64(x.p->n); }},
      {{"point", "point", "", "point"}, [](const P& x) { return Cell(x.p->launch); }},
      {{"launch", "launch", "", "launch"}, when(&P::r, [](const D& r) { return r.launch.label(); })},
      {{"median_us", "", "", "median_us"}, [](const P& x) { return x.us() > 0 ? Cell(stats_cell(x.us())) : Cell(); }},
      {{"vs_default", "", "", "vs_default"},
       [](const P& x) { return x.default_us() > 0 && x.us() > 0 ? Cell(fixed(x.default_us() / x.us(), 3) + "x") : Cell(); }},
      {{"status", "", "", "check"},
       [](const P& x) { return Cell(status_cell(!x.p->refused.empty(), x.r != nullptr, x.r && x.r->ok(), false)); }},
      {{"note", "", "", "note"},
       [](const P& x) {
         return Cell(!x.p->refused.empty() ? x.p->refused : !x.p->error.empty() ? x.p->error : x.r && !x.r->ok() ? x.r->check.detail : "");
       }},
      // JSON only.
      {{"refused", "refused", "", ""}, [](const P& x) { return Cell(x.p->refused); }},
      {{"error", "error", "", ""}, [](const P& x) { return Cell(x.p->error); }},
      {{"options", "options", "", ""}, when(&P::r, [](const D& r) { return r.launch.options; })},
      {{"time_us", "time_us", "", ""}, when(&P::r, [](const D& r) { return stats_json(r.timing.whole_us); })},
      {{"ok", "ok", "", ""}, when(&P::r, [](const D& r) { return r.ok(); })},
      {{"check", "check", "", ""}, when(&P::r, [](const D& r) { return r.check.detail; })}};
  return c;
}

ResultTable point_table(const DescriptorTuneRun& r) {
  std::vector<Point> points;
  for (const DescriptorBenchRow& p : r.bench.rows) points.push_back({&r, &p, p.report ? &*p.report : nullptr});
  return tabulate(point_columns(), points);
}

// A class at one of its sizes or shapes (text rows; JSON: the class's "per").
struct Where {
  const DescriptorTuneClass* c;
  const DescriptorTuneClass::Where* w;
  const DescriptorBenchRow* def;
  const DescriptorBenchRow* best;
};

ResultTable where_table(const DescriptorTuneRun& r, const DescriptorTuneClass* only = nullptr) {
  using W = Where;
  const auto chosen_us = [](const W& x) { return x.c->entry ? us_of(*x.best) : 0.0; };
  static const std::vector<ColumnOf<W>> c = {
      {{"reduction", "", "reduction", ""}, [](const W& x) { return Cell(x.c->reduction); }},
      {{"types", "", "types", ""}, [](const W& x) { return Cell(x.c->types()); }},
      {{"family", "", "family", ""}, [](const W& x) { return Cell(std::string(name_of(x.c->family))); }},
      {{"class", "", "class", ""}, [](const W& x) { return Cell(x.c->shape_class); }},
      {{"size", "", "size", ""}, [](const W& x) { return Cell(where_label(*x.w)); }},
      {{"default", "", "default launch", ""},
       [](const W& x) { return Cell(x.def->report ? x.def->report->launch.label() : x.def->refused.empty() ? "ERROR" : "refused"); }},
      {{"default_text", "", "default µs", "", Unit::Micros}, [](const W& x) { return us_of(*x.def) > 0 ? Cell(us_of(*x.def)) : Cell(); }},
      {{"chosen", "", "chosen", ""}, [](const W& x) { return Cell(x.c->entry ? x.c->entry->launch_label() : "default kept"); }},
      {{"chosen_text", "", "chosen µs", "", Unit::Micros},
       [chosen_us](const W& x) { return chosen_us(x) > 0 ? Cell(chosen_us(x)) : Cell(); }},
      {{"gain", "", "gain", "", Unit::Ratio, 3},
       [chosen_us](const W& x) { return us_of(*x.def) > 0 && chosen_us(x) > 0 ? Cell(us_of(*x.def) / chosen_us(x)) : Cell(); }},
      // JSON only.
      {{"m", "m", "", "", Unit::Count}, [](const W& x) { return u64(x.w->m); }},
      {{"n", "n", "", "", Unit::Count}, [](const W& x) { return u64(x.w->n); }},
      {{"default_us", "default_us", "", ""}, [](const W& x) { return Cell(us_of(*x.def)); }},
      {{"tuned_us", "tuned_us", "", ""}, [](const W& x) { return x.c->entry ? Cell(us_of(*x.best)) : Cell(); }}};
  std::vector<W> wheres;
  for (const DescriptorTuneClass& k : r.classes)
    if (!only || &k == only)
      for (const auto& w : k.wheres) wheres.push_back({&k, &w, &r.bench.rows[w.default_row], &r.bench.rows[w.best_row]});
  ResultTable t = tabulate(c, wheres);
  t.empty_text = "";
  return t;
}
}  // namespace

namespace {
TableView view_of(const DescriptorTuneRun& r, const DeviceInfo& dev) {
  ResultTable t = where_table(r);
  t.preamble = {"device  " + dev.label() + "\n",
                "tune    reduction descriptors: the default launch and every grid point verified against the host "
                "reference; median of the samples\n",
                "        (kept when the gain is over 1 + max(min gain, noise); noise: the IQRs' mean over the default's "
                "median)\n\n"};
  for (const DescriptorTuneClass& c : r.classes) {
    const std::string what = c.reduction + " " + c.types() + " " + std::string(name_of(c.family)) + " " + c.shape_class;
    t.notes.push_back(what + ": " + (c.entry ? c.entry->launch_label() + ", " + fixed(c.gain, 3) +
                                                   "x the default over the class (noise " + fixed(c.noise * 100, 1) + "%)"
                                             : c.note));
  }
  TableView v;
  v.text.push_back({"", std::move(t)});
  v.csv = point_table(r);
  return v;
}
}  // namespace

std::string descriptor_tune_text(const DescriptorTuneRun& r, const DeviceInfo& dev) { return render_text(view_of(r, dev)); }

std::string descriptor_tune_csv(const DescriptorTuneRun& r) { return render_csv(point_table(r)); }

json descriptor_tune_json(const DescriptorTuneRun& r, const DeviceInfo& dev) {
  json classes = json::array();
  for (const DescriptorTuneClass& c : r.classes) {
    json j{{"reduction", c.reduction}, {"types", c.types()}, {"family", std::string(name_of(c.family))},
           {"class", c.shape_class}, {"best", c.best}, {"gain", c.gain}, {"noise", c.noise},
           {"tuned", c.entry.has_value()}, {"note", c.note}, {"per", render_json_rows(where_table(r, &c))}};
    if (c.entry) {
      json params = json::object();
      for (const auto& [name, value] : c.entry->params) params[name] = value;
      j["params"] = params;
      if (c.entry->chunks) j["chunks"] = *c.entry->chunks;
    }
    classes.push_back(j);
  }
  return with_table(
      json{{"device", device_json(dev)}, {"classes", classes}, {"points", render_json_rows(point_table(r))}, {"ok", r.all_ok()}},
      "tune_descriptors", view_of(r, dev));
}

}  // namespace clreduce
