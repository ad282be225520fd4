// Renderings of tune's choice: the per-variant table (text and JSON rows) and the per-size CSV
// declared on the result model (measure/result_table.hpp), rendered by the generic printers.
#include "printers/tune_printer.hpp"

#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

namespace clreduce {

using nlohmann::json;

namespace {
std::string params_label(const TunedParams& p) {
  std::string s = "wg " + std::to_string(p.wg);
  if (p.times) s += ", times " + std::to_string(*p.times);
  if (p.groups_per_cu) s += ", " + std::to_string(*p.groups_per_cu) + " groups/CU";
  if (p.vec) s += ", vec " + std::to_string(*p.vec);
  return s;
}

// A variant (text and JSON rows) or a variant at one size (CSV rows) as the columns read it.
struct Line {
  const TuneReport* r;
  const TuneRow* row;
  std::size_t s = 0;  // the size (CSV)
  const TunedVariant* t() const { return row->tuned ? &*row->tuned : nullptr; }
  const TunedMeasurement* m() const { return row->tuned ? &row->tuned->measurements[s] : nullptr; }
};
using Col = ColumnOf<Line>;

// {{key, json path, text header, csv header, unit, text decimals}, cell}. A variant's row: its
// parameters, then its tuned (default) median at each size; an unavailable variant's text row is
// blank after "unavailable".
ResultTable variant_table(const TuneReport& r) {
  const auto have = [](auto f) { return [f](const Line& l) { return l.row->unavailable.empty() ? Cell(f(l)) : Cell(); }; };
  std::vector<Col> c = {
      {{"variant", "variant", "variant", ""}, [](const Line& l) { return Cell(l.row->variant); }},
      {{"params", "", "tuned parameters", ""},
       [](const Line& l) { return Cell(!l.row->unavailable.empty() ? "unavailable" : l.t() ? params_label(l.t()->params) : "default kept"); }}};
  for (std::size_t s = 0; s < r.sizes.size(); ++s)
    c.push_back({{"us" + std::to_string(s), "", size_label(r.sizes[s]) + " µs", ""}, have([s](const Line& l) {
                   const double d = l.row->default_us[s];
                   const std::string def = d > 0 ? stats_cell(d) : "-";
                   return l.t() ? stats_cell(l.t()->measurements[s].tuned_us) + " (" + def + ")" : def;
                 })});
  c = join<Line>({c, {
      {{"gain", "", "gain over default", "", Unit::Ratio, 2}, have([](const Line& l) { return l.t() ? l.t()->gain_over_default : 1.0; })},
      {{"vs_best", "", "vs best variant", ""},
       have([](const Line& l) { return l.row->score > 0 ? fixed(l.row->score, 2) + "x" : "-"; })},
      // JSON only.
      {{"default_us", "default_us", "", ""}, [](const Line& l) { return Cell(json(l.row->default_us)); }},
      {{"score", "score", "", ""}, [](const Line& l) { return Cell(l.row->score); }},
      {{"unavailable", "unavailable", "", ""}, text_if<Line>([](const Line& l) { return l.row->unavailable; })},
      {{"note", "note", "", ""}, text_if<Line>([](const Line& l) { return l.row->note; })},
      {{"tuned", "tuned", "", ""}, [](const Line& l) { return Cell(l.row->tuned.has_value()); }}}});
  std::vector<Line> lines;
  for (const TuneRow& row : r.rows) lines.push_back({&r, &row});
  ResultTable t = tabulate(c, lines);
  t.empty_text = "";
  return t;
}

// The CSV's rows: one per variant and size, the tuned parameters and medians where tuned.
const std::vector<Col>& size_columns() {
  const auto opt = [](std::optional<unsigned> TunedParams::*x) {
    return [x](const Line& l) { return l.t() && l.t()->params.*x ? u64(*(l.t()->params.*x)) : Cell(); };
  };
  static const std::vector<Col> c = {
      {{"variant", "", "", "variant"}, [](const Line& l) { return Cell(l.row->variant); }},
      {{"type", "", "", "type"}, [](const Line& l) { return Cell(std::string(name_of(l.r->type))); }},
      {{"op", "", "", "op"}, [](const Line& l) { return Cell(std::string(name_of(l.r->op))); }},
      {{"n", "", "", "n", Unit::Count}, [](const Line& l) { return u64(l.r->sizes[l.s]); }},
      {{"tuned", "", "", "tuned"}, [](const Line& l) { return Cell(std::string(l.t() ? "1" : "0")); }},
      {{"wg", "", "", "wg", Unit::Count}, [](const Line& l) { return l.t() ? u64(l.t()->params.wg) : Cell(); }},
      {{"times", "", "", "times", Unit::Count}, opt(&TunedParams::times)},
      {{"groups_per_cu", "", "", "groups_per_cu", Unit::Count}, opt(&TunedParams::groups_per_cu)},
      {{"vec", "", "", "vec", Unit::Count}, opt(&TunedParams::vec)},
      {{"tuned_us", "", "", "tuned_b2b_median_us", Unit::Micros, 2, 3}, [](const Line& l) { return l.m() ? Cell(l.m()->tuned_us) : Cell(); }},
      {{"default_us", "", "", "default_b2b_median_us", Unit::Micros, 2, 3},
       [](const Line& l) {
         if (l.m()) return Cell(l.m()->default_us);
         const auto& d = l.row->default_us;
         return d.empty() || d[l.s] <= 0 ? Cell() : Cell(d[l.s]);
       }},
      {{"gbps", "", "", "GB_per_s", Unit::Number, 1, 2}, [](const Line& l) { return l.m() ? Cell(l.m()->gbps) : Cell(); }},
      {{"gain", "", "", "gain_over_default", Unit::Number, 1, 3},
       [](const Line& l) { return l.t() ? Cell(l.t()->gain_over_default) : Cell(); }},
      {{"note", "", "", "note"},
       [](const Line& l) { return Cell(l.t() ? "" : l.row->unavailable.empty() ? l.row->note : l.row->unavailable); }}};
  return c;
}
}  // namespace

namespace {
TableView view_of(const TuneReport& r, const DeviceInfo& dev) {
  ResultTable t = variant_table(r);
  std::string sizes;
  for (std::size_t s = 0; s < r.sizes.size(); ++s) sizes += (s ? ", " : "") + size_label(r.sizes[s]);
  t.preamble = {"device: " + dev.label() + "\n",
                "tuned:  " + std::string(name_of(r.op)) + " of " + std::string(name_of(r.type)) + " at n = " + sizes + "; " +
                    std::to_string(r.run.count_points()) + " grid points per size, every measured point verified\n",
                "choice:  per variant the grid point with the lowest geometric mean of (its time / the variant's best "
                "time) over the sizes; b2b medians below as tuned (default)\n",
                clock_line(r.run.clock, r.run.clock_note) + "\n"};
  for (const auto& row : r.rows) {
    if (!row.unavailable.empty()) t.after.push_back(row.variant + " unavailable: " + row.unavailable + "\n");
    else if (!row.note.empty()) t.after.push_back(row.variant + ": " + row.note + "\n");
  }
  if (!r.entry.best_variant.empty()) t.after.push_back("best variant overall: " + r.entry.best_variant + "\n");
  for (std::size_t s = 0; s < r.run.sizes.size(); ++s)
    for (const auto& v : r.run.sizes[s].variants)
      if (v.unavailable.empty() && v.failed() > 0)
        t.after.push_back("FAILED: " + v.variant + " at n = " + size_label(r.sizes[s]) + ": " + std::to_string(v.failed()) +
                          " points failed (see `clreduce sweep --variants " + v.variant + " --n " +
                          std::to_string(r.sizes[s]) + "`)\n");
  TableView v;
  // render_text's closing blank line left out: the lines under the table end the output
  v.text.push_back({"", std::move(t), true});
  std::vector<Line> lines;
  for (const auto& row : r.rows)
    for (std::size_t s = 0; s < r.sizes.size(); ++s) lines.push_back({&r, &row, s});
  v.csv = tabulate(size_columns(), lines);
  return v;
}
}  // namespace

std::string tune_text(const TuneReport& r, const DeviceInfo& dev) { return render_text(view_of(r, dev)); }

std::string tune_csv(const TuneReport& r) {
  std::vector<Line> lines;
  for (const auto& row : r.rows)
    for (std::size_t s = 0; s < r.sizes.size(); ++s) lines.push_back({&r, &row, s});
  return render_csv(tabulate(size_columns(), lines));
}

json tune_json(const TuneReport& r, const DeviceInfo& dev) {
  TuningDb db;
  db.devices.push_back(DeviceTuning{device_key(dev), {r.entry}});
  return with_table(json{{"device", device_json(dev)},
                          {"entry", json::parse(tuning_db_json(db))},
                          {"rows", render_json_rows(variant_table(r))},
                          {"all_ok", r.all_ok()}},
                     "tune", view_of(r, dev));
}

}  // namespace clreduce
