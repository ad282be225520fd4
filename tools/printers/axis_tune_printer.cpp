// Renderings of `clreduce tune axis`: one table row per launch tried, then the choice per class;
// both declared on the result model (measure/result_table.hpp), every format from the generic printers.
#include "printers/axis_tune_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
// A launch tried at a shape, as the columns read it.
struct Point {
  const AxisTuneShape* s;
  const AxisTunePoint* p;
  const AxisReport* r;  // null where it did not run
};

// {{key, json path, text header, csv header}, cell}. The median, GB/s and gain over the default
// are text in the CSV as in the table (the CSV predates the model); a point that did not run
// leaves them blank in both.
const std::vector<ColumnOf<Point>>& point_columns() {
  using P = Point;
  static const std::vector<ColumnOf<P>> c = {
      {{"axis", "", "", "axis"}, [](const P& x) { return Cell(std::string(name_of(x.s->axis))); }},
      {{"m", "", "", "m", Unit::Count}, [](const P& x) { return u64(x.s->m); }},
      {{"n", "", "", "n", Unit::Count}, [](const P& x) { return u64(x.s->n); }},
      {{"class", "", "", "class"}, [](const P& x) { return Cell(x.s->shape_class); }},
      {{"candidate", "candidate", "candidate", "candidate"},
       [](const P& x) { return Cell(x.p->candidate ? x.p->candidate->label() : "default"); }},
      {{"launch", "launch", "launch", "launch"}, [](const P& x) { return Cell(x.p->launch); }},
      {{"median", "", "median µs", "median_us"}, when(&P::r, [](const AxisReport& r) { return stats_cell(r.timing.whole_us.median); })},
      {{"gbps_text", "", "GB/s", "GB_per_s"}, when(&P::r, [](const AxisReport& r) { return fixed(r.gbps, 1); })},
      {{"vs_default", "", "vs default", "vs_default"},
       [](const P& x) {
         const double def = x.s->points.empty() ? 0 : x.s->points[0].us();
         return x.r && def > 0 && x.p->us() > 0 ? Cell(fixed(def / x.p->us(), 3) + "x") : Cell();
       }},
      {{"status", "", "check", "check"},
       [](const P& x) { return x.r ? Cell(std::string(x.r->ok() ? "ok" : "FAILED")) : x.p->error.empty() ? Cell() : Cell(std::string("ERROR")); }},
      {{"note", "", "note", "note"},
       [](const P& x) {
         const AxisTunePoint& p = *x.p;
         return Cell(!p.same_as.empty() ? "same launch as " + p.same_as : !p.refused.empty() ? "refused: " + p.refused : p.error);
       }},
      // JSON only.
      {{"same_as", "same_as", "", ""}, [](const P& x) { return Cell(x.p->same_as); }},
      {{"refused", "refused", "", ""}, [](const P& x) { return Cell(x.p->refused); }},
      {{"error", "error", "", ""}, [](const P& x) { return Cell(x.p->error); }},
      {{"time_us", "time_us", "", ""}, when(&P::r, [](const AxisReport& r) { return stats_json(r.timing.whole_us); })},
      {{"gbps", "gbps", "", ""}, when(&P::r, [](const AxisReport& r) { return r.gbps; })},
      {{"ok", "ok", "", ""}, when(&P::r, [](const AxisReport& r) { return r.ok(); })},
      {{"check", "check", "", ""}, when(&P::r, [](const AxisReport& r) { return r.check.detail; })}};
  return c;
}

ResultTable point_table(const AxisTuneRun& r, const AxisTuneShape* only = nullptr) {
  std::vector<Point> points;
  for (const AxisTuneShape& s : r.shapes)
    if (!only || &s == only)
      for (const AxisTunePoint& p : s.points) points.push_back({&s, &p, p.report ? &*p.report : nullptr});
  ResultTable t = tabulate(point_columns(), points);
  t.empty_text = "";
  return t;
}

// The choice per class: text "chosen" (the launch and its gain, or why the default rule stays).
ResultTable class_table(const AxisTuneRun& r) {
  using K = AxisTuneClass;
  static const std::vector<ColumnOf<K>> c = {
      {{"axis", "axis", "", ""}, [](const K& k) { return Cell(std::string(name_of(k.axis))); }},
      {{"class", "class", "class", ""}, [](const K& k) { return Cell(k.shape_class); }},
      {{"chosen", "", "chosen", ""},
       [](const K& k) {
         return Cell(k.entry ? k.entry->launch_label() + " (" + fixed(k.gain, 3) + "x the default, noise " +
                                   fixed(k.noise * 100, 1) + "%)"
                             : k.note);
       }},
      {{"best", "best", "", ""}, [](const K& k) { return Cell(k.best); }},
      {{"gain", "gain", "", ""}, [](const K& k) { return Cell(k.gain); }},
      {{"noise", "noise", "", ""}, [](const K& k) { return Cell(k.noise); }},
      {{"tuned", "tuned", "", ""}, [](const K& k) { return Cell(k.entry.has_value()); }},
      {{"note", "note", "", ""}, [](const K& k) { return Cell(k.note); }},
      {{"launch", "launch", "", ""}, [](const K& k) { return k.entry ? Cell(k.entry->launch_label()) : Cell(); }}};
  return tabulate(c, r.classes);
}
}  // namespace

namespace {
TableView view_of(const AxisTuneRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device  " << dev.label() << "\n"
      << "tune    " << name_of(r.op) << " of " << name_of(r.type) << " rows or columns: every launch below verified "
      << "against the host reference; median of the samples\n\n";
  TableView v;
  v.text.push_back({out.str(), std::nullopt});
  for (const AxisTuneShape& s : r.shapes) {
    ResultTable t = point_table(r, &s);
    t.text_order = {"candidate", "launch", "median", "gbps_text", "vs_default", "status", "note"};
    t.preamble = {std::string(name_of(s.axis)) + " " + shape_label(s.m, s.n) + " (class " + s.shape_class + ")\n"};
    v.text.push_back({"", std::move(t)});
  }
  ResultTable c = class_table(r);
  c.preamble = {"per class (kept when the gain is over 1 + max(min gain, noise); noise: the IQRs' mean over the default's "
                "median)\n"};
  v.text.push_back({"", std::move(c), true});  // render_text's closing blank line left out: the class table ends
  v.csv = point_table(r);
  return v;
}
}  // namespace

std::string axis_tune_text(const AxisTuneRun& r, const DeviceInfo& dev) { return render_text(view_of(r, dev)); }

std::string axis_tune_csv(const AxisTuneRun& r) { return render_csv(point_table(r)); }

json axis_tune_json(const AxisTuneRun& r, const DeviceInfo& dev) {
  json shapes = json::array();
  for (const AxisTuneShape& s : r.shapes)
    shapes.push_back({{"axis", std::string(name_of(s.axis))}, {"m", s.m}, {"n", s.n}, {"class", s.shape_class},
                      {"points", render_json_rows(point_table(r, &s))}});
  return with_table(json{{"device", device_json(dev)}, {"type", std::string(name_of(r.type))}, {"op", std::string(name_of(r.op))},
                          {"shapes", shapes}, {"classes", render_json_rows(class_table(r))}, {"ok", r.all_ok()}},
                     "tune_axis", view_of(r, dev));
}

}  // namespace clreduce
