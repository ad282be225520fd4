// Renderings of transposes, the transpose benchmark and the access-pattern study: their rows'
// columns declared once (the result model, measure/result_table.hpp), the tables, CSV and JSON rows
// from the generic printers; one transpose's text stays a report of its own.
#include "printers/transpose_printer.hpp"

#include "parse.hpp"
#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::uint64_t moved_bytes(std::uint64_t m, std::uint64_t n, ElemType t) {
  return 2 * m * n * size_of(t);
}

json report_core_json(const TransposeReport& r) {
  const TransposePlan& p = r.plan;
  const json plan{{"variant", p.variant->name}, {"m", p.m}, {"n", p.n}, {"wg_x", p.wg_x}, {"wg_y", p.wg_y},
                  {"tile", p.tile}, {"rows", p.rows}, {"vec", p.vec}, {"aligned", p.aligned}, {"groups_x", p.groups_x},
                  {"groups_y", p.groups_y}, {"local_bytes", p.local_bytes}, {"options", p.options}};
  return json{{"plan", plan}, {"type", std::string(name_of(r.config.type))}, {"data", r.data_origin},
              {"bytes_moved", moved_bytes(p.m, p.n, r.config.type)}, {"time_us", stats_json(r.timing.whole_us)},
              {"batch", r.timing.batch}, {"samples", r.timing.repetitions}, {"gbps", r.gbps},
              {"check", {{"ok", r.check.ok}, {"mismatches", r.check.mismatches}, {"detail", r.check.detail}}}};
}

// A transpose as its columns read it: a bench transpose's row (with its shape's copy) or one
// transpose (shape and row null).
struct Line {
  std::string variant;
  const TransposeReport* r;  // null where it did not run
  ElemType type;
  std::uint64_t m, n;
  const TransposeShapeResult* s = nullptr;
  const TransposeBenchRow* row = nullptr;
  std::string status() const { return row && !row->error.empty() ? "ERROR" : r && r->ok() ? "ok" : "FAILED"; }
};
using Col = ColumnOf<Line>;

// {{key, json path, text header, csv header, unit, text decimals, csv decimals}, cell}. The bench's
// columns (bench: its copy, % of copy, speedup, and the variant and status in JSON beside the
// report's keys) or one transpose's (its CSV row; its JSON the report's keys alone).
std::vector<Col> make_columns(bool bench) {
  using R = TransposeReport;
  std::vector<Col> c = join<Line>({
      {{{"variant", bench ? "variant" : "", "variant", "variant"}, [](const Line& l) { return Cell(l.variant); }},
       {{"type", "", "", "type"}, [](const Line& l) { return Cell(std::string(name_of(l.type))); }},
       {{"m", "", "", "m", Unit::Count}, [](const Line& l) { return u64(l.m); }},
       {{"n", "", "", "n", Unit::Count}, [](const Line& l) { return u64(l.n); }},
       {{"shape", "", "shape", ""}, [](const Line& l) { return Cell(shape_label(l.m, l.n)); }},
       {{"wg", "", "wg", "wg"}, when(&Line::r, [](const R& r) { return r.plan.wg_label(); })},
       {{"tile", "", "", "tile"}, when(&Line::r, [](const R& r) { return r.plan.tile ? std::to_string(r.plan.tile) : "-"; })},
       {{"rows", "", "", "rows"}, when(&Line::r, [](const R& r) {
          const TransposePlan& p = r.plan;
          return p.variant && p.variant->shape == TransposeShape::TileRows ? std::to_string(p.rows) : "-";
        })}},
      time_columns<Line, Sampled>([](const Line& l) { return l.r ? &l.r->timing : nullptr; }, kMinMaxText),
      {{{"gbps", "", "GB/s", "GB_per_s", Unit::Number, 1, 2}, when(&Line::r, [](const R& r) { return r.gbps; })}}});
  if (bench)
    c = join<Line>({c,
                    {{{"copy", "", "", "copy_GB_per_s", Unit::Number, 1, 2}, [](const Line& l) { return Cell(l.s->copy.gbps); }},
                     {{"pct_of_copy", "pct_of_copy", "% of copy", "pct_of_copy", Unit::Percent, 1, 2},
                      [](const Line& l) { return l.r ? Cell(l.row->pct_of_copy) : Cell(); }},
                     // The text shows no speedup where naive did not run (0); CSV and JSON keep the 0.
                     {{"speedup", "", "speedup vs naive", "", Unit::Ratio, 2},
                      [](const Line& l) { return l.r && l.row->speedup > 0 ? Cell(l.row->speedup) : Cell(); }},
                     {{"speedup_vs_naive", "speedup_vs_naive", "", "speedup_vs_naive", Unit::Number, 1, 3},
                      [](const Line& l) { return l.r ? Cell(l.row->speedup) : Cell(); }},
                     {{"error", "error", "", ""}, [](const Line& l) { return l.row->error.empty() ? Cell() : Cell(l.row->error); }}}});
  return join<Line>({c,
                     {{{"status", bench ? "status" : "", "check", "check"}, [](const Line& l) { return Cell(l.status()); }},
                      {{"report", "*", "", ""}, when(&Line::r, [](const R& r) { return report_core_json(r); })}}});
}

const std::vector<Col>& columns(bool bench) {
  static const std::vector<Col> b = make_columns(true), one = make_columns(false);
  return bench ? b : one;
}

Line line_of(const TransposeReport& r) { return Line{r.plan.variant->name, &r, r.config.type, r.plan.m, r.plan.n}; }

std::vector<Line> lines_of(const TransposeBenchReport& r, const TransposeShapeResult* only = nullptr) {
  std::vector<Line> out;
  for (const auto& s : r.shapes)
    if (!only || &s == only)
      for (const auto& row : s.rows)
        out.push_back(Line{row.variant, row.report ? &*row.report : nullptr, r.type, s.m, s.n, &s, &row});
  return out;
}
}  // namespace

json transpose_json(const TransposeReport& r, const DeviceInfo& dev) {
  json j = render_json_rows(tabulate(columns(false), std::vector<Line>{line_of(r)}))[0];
  j["device"] = device_json(dev);
  TableView v;
  v.text.push_back({transpose_text(r, dev), std::nullopt});
  v.csv = tabulate(columns(false), std::vector<Line>{line_of(r)});
  return with_table(j, "transpose", v);
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
  return render_csv(tabulate(columns(false), std::vector<Line>{line_of(r)}));
}

namespace {
TableView bench_view(const TransposeBenchReport& r, const DeviceInfo& dev);
}  // namespace

json transpose_bench_json(const TransposeBenchReport& r, const DeviceInfo& dev) {
  json shapes = json::array();
  for (const auto& s : r.shapes)
    shapes.push_back(json{{"m", s.m}, {"n", s.n}, {"data", s.data_origin},
                          {"copy", {{"bytes", s.copy.bytes}, {"gbps", s.copy.gbps},
                                    {"time_us", stats_json(s.copy.timing.whole_us)},
                                    {"how", "clEnqueueCopyBuffer; GB/s counts read plus written"}}},
                          {"rows", render_json_rows(tabulate(columns(true), lines_of(r, &s)))}});
  return with_table(json{{"device", device_json(dev)}, {"clock", std::string(name_of(r.clock))}, {"clock_note", r.clock_note},
                          {"type", std::string(name_of(r.type))}, {"shapes", shapes}, {"all_ok", r.all_ok()}},
                     "bench_transpose", bench_view(r, dev));
}

ResultTable bench_table(const TransposeBenchReport& r) {
  ResultTable t = tabulate(columns(true), lines_of(r));
  t.text_order = {"variant", "shape", "wg", "median_us", "min_us", "max_us", "gbps", "pct_of_copy", "speedup", "status"};
  for (const auto& s : r.shapes)
    for (const auto& row : s.rows) {
      if (!row.error.empty()) t.notes.push_back(row.variant + " " + shape_label(s.m, s.n) + " error: " + row.error);
      if (row.report && !row.ok())
        t.notes.push_back(row.variant + " " + shape_label(s.m, s.n) + " check: " + row.report->check.detail);
    }
  return t;
}

namespace {
TableView bench_view(const TransposeBenchReport& r, const DeviceInfo& dev) {
  ResultTable t = bench_table(r);
  t.preamble = {"device: " + dev.label() + ", " + std::to_string(dev.compute_units) + " compute units\n",
                "type:   " + std::string(name_of(r.type)) + "; GB/s = bytes read plus written (2*M*N*" +
                    std::to_string(size_of(r.type)) + ") / median; copy = clEnqueueCopyBuffer of the same bytes, now\n",
                clock_line(r.clock, r.clock_note)};
  for (const auto& s : r.shapes)
    t.preamble.push_back("copy " + shape_label(s.m, s.n) + ": " + fixed(s.copy.gbps, 1) + " GB/s (median " +
                         stats_cell(s.copy.timing.whole_us.median) + " µs)\n");
  t.preamble.push_back("\n");
  TableView v;
  v.text.push_back({"", std::move(t)});
  v.csv_part = 0;
  return v;
}
}  // namespace

std::string transpose_bench_text(const TransposeBenchReport& r, const DeviceInfo& dev) {
  return render_text(bench_view(r, dev));
}

std::string transpose_bench_csv(const TransposeBenchReport& r) { return render_csv(bench_table(r)); }

namespace {
// The access study's row: the report's shared launch beside each pattern's.
struct AccessLine {
  const AccessReport* r;
  const AccessRow* row;
};

ResultTable access_table(const AccessReport& r) {
  using L = AccessLine;
  static const std::vector<ColumnOf<L>> c = join<L>({
      {{{"pattern", "pattern", "pattern", "pattern"}, [](const L& l) { return Cell(l.row->pattern.name); }},
       {{"kernel", "kernel", "", ""}, [](const L& l) { return Cell(l.row->pattern.kernel); }},
       {{"reads", "reads", "", ""}, [](const L& l) { return Cell(l.row->pattern.summary); }},
       {{"n", "", "", "n", Unit::Count}, [](const L& l) { return u64(l.r->n); }},
       {{"wg", "", "", "wg", Unit::Count}, [](const L& l) { return u64(l.r->wg); }},
       {{"groups", "", "", "groups", Unit::Count}, [](const L& l) { return u64(l.r->groups); }},
       {{"chunk", "", "", "chunk", Unit::Count}, [](const L& l) { return u64(l.r->chunk); }}},
      time_columns<L, Sampled>([](const L& l) { return &l.row->timing; }, kMinMaxText),
      {{{"first_us", "", "pattern pass µs", "first_pass_median_us", Unit::Micros, 2, 3},
        [](const L& l) { return Cell(l.row->timing.first_us.median); }},
       {{"gbps", "gbps", "GB/s", "GB_per_s", Unit::Number, 1, 2}, [](const L& l) { return Cell(l.row->gbps); }},
       {{"first_gbps", "first_pass_gbps", "pattern pass GB/s", "first_pass_GB_per_s", Unit::Number, 1, 2},
        [](const L& l) { return Cell(l.row->first_pass_gbps); }},
       {{"value", "value", "result", "result", Unit::Count}, [](const L& l) { return u64(l.row->value); }},
       {{"reference", "", "", "reference", Unit::Count}, [](const L& l) { return u64(l.r->reference); }},
       {{"check", "", "check", "check"}, [](const L& l) { return Cell(std::string(l.row->ok ? "ok" : "FAILED")); }},
       {{"time_us", "time_us", "", ""}, [](const L& l) { return Cell(stats_json(l.row->timing.whole_us)); }},
       {{"first_pass_us", "first_pass_us", "", ""}, [](const L& l) { return Cell(stats_json(l.row->timing.first_us)); }},
       {{"batch", "batch", "", ""}, [](const L& l) { return u64(l.row->timing.batch); }},
       {{"consistent", "consistent", "", ""}, [](const L& l) { return Cell(l.row->consistent); }},
       {{"ok", "ok", "", ""}, [](const L& l) { return Cell(l.row->ok); }}}});
  std::vector<L> lines;
  for (const AccessRow& row : r.rows) lines.push_back({&r, &row});
  ResultTable t = tabulate(c, lines);
  t.text_order = {"pattern", "median_us", "min_us", "max_us", "gbps", "first_us", "first_gbps", "value", "check"};
  return t;
}
}  // namespace

namespace {
TableView access_view(const AccessReport& r, const DeviceInfo& dev);
}  // namespace

json access_json(const AccessReport& r, const DeviceInfo& dev) {
  return with_table(json{{"device", device_json(dev)}, {"clock", std::string(name_of(r.clock))}, {"clock_note", r.clock_note},
              {"n", r.n}, {"type", "uint"}, {"data", r.data_origin},
              {"wg", r.wg}, {"groups", r.groups}, {"work_items", r.groups * r.wg},
              {"chunk", r.chunk}, {"reference", r.reference}, {"rows", render_json_rows(access_table(r))},
              {"interleaved_over_contiguous", r.ratio}, {"all_ok", r.all_ok()}}, "bench_access", access_view(r, dev));
}

namespace {
TableView access_view(const AccessReport& r, const DeviceInfo& dev) {
  ResultTable t = access_table(r);
  t.preamble = {
      "device: " + dev.label() + ", " + std::to_string(dev.compute_units) + " compute units\n",
      "input:  n = " + std::to_string(r.n) + " uint (" + bytes_human(r.n * 4) + ", " + r.data_origin +
          "); sum of x^3 mod 2^32, host reference " + std::to_string(r.reference) + "\n",
      "launch: " + std::to_string(r.groups) + " groups of " + std::to_string(r.wg) + " = " +
          std::to_string(r.groups * r.wg) + " work-items; contiguous chunk " + std::to_string(r.chunk) + " elements\n",
      "time:   whole (pattern pass + reduction of the partials), median; GB/s = input bytes / median\n",
      clock_line(r.clock, r.clock_note) + "\n"};
  t.notes = {"interleaved / contiguous: " + fixed(r.ratio, 2) + "x the bandwidth"};
  for (const auto& row : r.rows) t.notes.push_back("  " + row.pattern.name + ": " + row.pattern.summary);
  TableView v;
  v.text.push_back({"", std::move(t)});
  v.csv_part = 0;
  return v;
}
}  // namespace

std::string access_text(const AccessReport& r, const DeviceInfo& dev) { return render_text(access_view(r, dev)); }

std::string access_csv(const AccessReport& r) { return render_csv(access_table(r)); }

}  // namespace clreduce
