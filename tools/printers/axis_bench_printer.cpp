// Renderings of the axis benchmark: its shapes' and rows' columns declared once (the result model,
// measure/result_table.hpp), every format from the generic printers.
#include "printers/axis_bench_printer.hpp"

#include "parse.hpp"
#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::string status_of(const AxisBenchRow& row) {
  const bool ran = row.error.empty() && row.report;
  return status_cell(!row.refused.empty(), ran, ran && row.report->ok(), ran && row.report->timing.timer_suspect);
}

std::string scalar_status(const AxisBenchShape& s) {
  const bool ran = s.scalar_error.empty() && s.scalar;
  return status_cell(!s.scalar_refused.empty(), ran, ran && s.scalar->ok(), ran && s.scalar->timed.timer_suspect);
}

// The scalar reduction's launch: "wg 256, times 16, vec 4, 2 passes".
std::string scalar_launch(const ReduceReport& r) {
  const PassPlan& first = r.plan.passes.front();
  return "wg " + std::to_string(first.wg) + ", times " + std::to_string(first.times) +
         (first.vec > 1 ? ", vec " + std::to_string(first.vec) : std::string()) + ", " +
         std::to_string(r.plan.passes.size()) + (r.plan.passes.size() == 1 ? " pass" : " passes");
}

// One row as every format shows it.
struct Line {
  const AxisBenchRun* run;
  const AxisBenchShape& s;
  const AxisBenchRow& row;
  const AxisReport* a;  // null where it did not run
  std::string shape() const { return shape_label(s.m, s.n); }
  std::string axis() const { return std::string(name_of(row.axis)); }
  std::string status() const { return status_of(row); }
  std::string reason() const { return !row.refused.empty() ? row.refused : row.error; }
  double median_us() const { return a ? a->timing.whole_us.median : 0; }
};

// The rows of one shape (or of all), in order.
std::vector<Line> lines_of(const AxisBenchRun& r, const AxisBenchShape* only = nullptr) {
  std::vector<Line> out;
  for (const auto& s : r.shapes)
    if (!only || &s == only)
      for (const auto& row : s.rows) out.push_back(Line{&r, s, row, row.report ? &*row.report : nullptr});
  return out;
}

json check_json(const AxisCheck& c) {
  return json{{"ok", c.ok}, {"failures", c.failures}, {"detail", c.detail},
              {"worst_rel_error", c.worst_rel_error >= 0 ? json(c.worst_rel_error) : json()}};
}

json scalar_json(const AxisBenchShape& s) {
  json j = s.scalar ? report_core_json(*s.scalar) : json::object();
  j["status"] = scalar_status(s);
  if (s.scalar) j["launch"] = scalar_launch(*s.scalar);
  if (!s.scalar_refused.empty()) j["refused"] = s.scalar_refused;
  if (!s.scalar_error.empty()) j["error"] = s.scalar_error;
  return j;
}

const char* const kHowTime =
    "whole reduction (all passes), median of samples, back-to-back (a batch enqueued together, first start to "
    "last end / batch); 1 call: one reduction enqueued alone and waited for, host clock, queue without profiling";
const char* const kHowGbps = "bytes read (M*N*sizeof(T)) / back-to-back median";
const char* const kHowPeak =
    "GB/s / the read peak: a plain streaming-read kernel (stream_read.cl) over a buffer of the shape's bytes, "
    "measured in the same run";
const char* const kHowScalar =
    "the whole-array reduction of the same M*N elements with the fastest known launch (the Reducer's own "
    "choice: the tuning database's best for the device, else the device's default policy): its back-to-back "
    "median / this one's";

std::string rounds_text(unsigned rounds) {
  return "each shape's launches of an axis measured in " + std::to_string(rounds) +
         " rounds in turn, each round starting one launch later (cyclically); each launch keeps the round "
         "with the lowest back-to-back median, every figure of its row from that round (\"round\" in CSV "
         "and JSON), a failing round whatever the others measured; the read peak and the scalar reduction "
         "are measured once a shape, so % of peak and vs scalar compare a best of " +
         std::to_string(rounds) + " with one measurement";
}

// {{key, json path, text header, csv header, unit, text decimals, csv decimals}, cell}: each format
// takes the rows' columns that name a header or a path there, in this order.
const std::vector<ColumnOf<Line>>& line_columns() {
  using A = AxisReport;
  using L = Line;
  const auto sc = [](const L& l) { return l.s.scalar ? &*l.s.scalar : nullptr; };
  const PartOf<L, Sampled> timing = [](const L& l) { return l.a ? &l.a->timing : nullptr; };
  static const std::vector<ColumnOf<Line>> c = join<L>({
      {{{"m", "m", "", "m", Unit::Count}, [](const L& l) { return u64(l.s.m); }},
       {{"n", "n", "", "n", Unit::Count}, [](const L& l) { return u64(l.s.n); }},
       {{"shape", "", "shape", ""}, [](const L& l) { return Cell(l.shape()); }},
       {{"axis", "axis", "axis", "axis"}, [](const L& l) { return Cell(l.axis()); }},
       {{"type", "", "", "type"}, [](const L& l) { return Cell(std::string(name_of(l.run->type))); }},
       {{"op", "", "", "op"}, [](const L& l) { return Cell(std::string(name_of(l.run->op))); }},
       {{"chosen_by", "chosen_by", "chosen by", "chosen_by"}, [](const L& l) { return Cell(l.row.chosen_by); }},
       {{"variant", "variant", "variant", "variant"}, [](const L& l) { return Cell(l.row.variant); }},
       {{"launch", "launch", "launch", "launch"}, when(&L::a, [](const A& a) { return a.plan.launch_label(); })},
       {{"passes", "passes", "", "passes", Unit::Count}, when(&L::a, [](const A& a) { return u64(a.plan.passes.size()); })}},
      time_columns(timing, kSingle),
      {{{"gbps", "gbps", "GB/s", "GB_per_s", Unit::Number, 1, 2}, when(&L::a, [](const A& a) { return a.gbps; })}},
      // The % where the shape's peak was measured (JSON: pct_of_peak and above_peak below, wherever the row ran).
      peak_columns<L>([](const L& l) { return l.s.peak ? &*l.s.peak : nullptr; },
                      [](const L& l) { return l.a && l.s.peak ? std::optional(l.row.pct_of_peak) : std::nullopt; },
                      {"peak_read_GB_per_s", "", "pct_of_peak", "", false, Unit::Number}),
      {{{"scalar_variant", "", "", "scalar_variant"},
        [sc](const L& l) { return sc(l) ? Cell(sc(l)->config.variant) : Cell(); }},
       {{"scalar_us", "", "", "scalar_median_us", Unit::Micros, 2, 3},
        [sc](const L& l) { return sc(l) ? Cell(sc(l)->timed.whole_us.median) : Cell(); }},
       {{"speedup", "", "vs scalar", "speedup_vs_scalar", Unit::Ratio, 2, 3},  // where there is a speedup
        [](const L& l) { return l.a && l.row.speedup > 0 ? Cell(l.row.speedup) : Cell(); }}},
      check_columns<L>([](const L& l) { return l.status(); }, [](const L& l) { return l.reason(); },
                       [](const L& l) { return l.row.refused; }, [](const L& l) { return l.row.error; }),
      // Last in CSV: the round whose figures the row shows (1 without --rounds).
      {{{"round", "round", "", "round", Unit::Count}, [](const L& l) { return l.a ? u64(l.row.round) : Cell(); }}},
      time_json_columns(timing, "time_us", "single_call_us", "single_call_events_us", "samples"),
      // JSON only.
      {{{"wg", "wg", "", ""}, when(&L::a, [](const A& a) { return u64(a.plan.wg); })},
       {{"outputs", "outputs", "", ""}, when(&L::a, [](const A& a) { return u64(a.plan.outputs()); })},
       {{"pct_of_peak", "pct_of_peak", "", ""}, [](const L& l) { return l.a ? Cell(l.row.pct_of_peak) : Cell(); }},
       {{"above_peak", "above_peak", "", ""}, [](const L& l) { return l.a ? Cell(above_peak(l.row.pct_of_peak)) : Cell(); }},
       {{"speedup_vs_scalar", "speedup_vs_scalar", "", ""}, [](const L& l) { return l.a ? Cell(l.row.speedup) : Cell(); }},

       {{"check", "check", "", ""}, when(&L::a, [](const A& a) { return check_json(a.check); })},
       {{"ok", "ok", "", ""}, when(&L::a, [](const A& a) { return a.ok(); })}}});
  return c;
}

// A shape as its columns read it.
struct ShapeLine {
  const AxisBenchRun* run;
  const AxisBenchShape* s;
  const ReduceReport* sc;  // the scalar reduction's report, null where it did not run
};

// The shapes (text) and the JSON's shapes, each with its rows nested.
const std::vector<ColumnOf<ShapeLine>>& shape_columns() {
  using S = ShapeLine;
  using R = ReduceReport;
  static const std::vector<ColumnOf<S>> c = {
      {{"shape", "", "shape", ""}, [](const S& s) { return Cell(shape_label(s.s->m, s.s->n)); }},
      {{"m", "m", "", ""}, [](const S& s) { return u64(s.s->m); }},
      {{"n", "n", "", ""}, [](const S& s) { return u64(s.s->n); }},
      {{"bytes", "bytes", "", ""}, [](const S& s) { return u64(s.s->bytes); }},
      {{"size", "", "bytes", ""}, [](const S& s) { return Cell(bytes_human(s.s->bytes)); }},  // "4.0 MiB"
      {{"data", "data", "", ""}, [](const S& s) { return Cell(s.s->data_origin); }},
      {{"peak", "", "read peak GB/s", "", Unit::Number},
       [](const S& s) { return s.s->peak ? Cell(s.s->peak->gbps) : Cell(); }},
      {{"peak_read", "peak_read", "", ""}, [](const S& s) { return Cell(s.s->peak ? peak_json(*s.s->peak) : json()); }},
      {{"scalar_variant", "", "scalar variant", ""}, when(&S::sc, [](const R& r) { return r.config.variant; })},
      {{"scalar_launch", "", "scalar launch", ""}, when(&S::sc, [](const R& r) { return scalar_launch(r); })},
      {{"scalar_chosen_by", "", "chosen by", ""}, when(&S::sc, [](const R& r) { return r.chosen_by; })},
      {{"scalar_us", "", "scalar µs", "", Unit::Micros}, when(&S::sc, [](const R& r) { return r.timed.whole_us.median; })},
      {{"scalar_gbps", "", "scalar GB/s", "", Unit::Number}, when(&S::sc, [](const R& r) { return r.gbps; })},
      {{"scalar_status", "", "check", ""}, [](const S& s) { return Cell(scalar_status(*s.s)); }},
      {{"scalar", "scalar", "", ""}, [](const S& s) { return Cell(scalar_json(*s.s)); }},
      {{"rows", "rows", "", ""},
       [](const S& s) { return Cell(render_json_rows(tabulate(line_columns(), lines_of(*s.run, s.s)))); }},
      {{"error", "error", "", ""}, [](const S& s) { return s.s->error.empty() ? Cell() : Cell(s.s->error); }},
  };
  return c;
}

ResultTable shapes_table(const AxisBenchRun& r) {
  std::vector<ShapeLine> shapes;
  for (const auto& s : r.shapes) shapes.push_back({&r, &s, s.scalar ? &*s.scalar : nullptr});
  return tabulate(shape_columns(), shapes);
}
}  // namespace

namespace {
TableView view_of(const AxisBenchRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device:    " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "reduce:    " << name_of(r.op) << " of every row (M values) or column (N values) of each M x N "
      << name_of(r.type) << " matrix (row-major"
      << (r.shapes.empty() ? std::string() : ", " + r.shapes.front().data_origin)
      << "); every output checked against the host reference, the output buffer poisoned first\n"
      << "time:      " << kHowTime << "; by "
      << (r.clock == TimeSource::DeviceEvents ? "the device's events" : "the host clock") << "\n"
      << (r.rounds > 1 ? "rounds:    " + rounds_text(r.rounds) + "\n" : std::string())
      << "GB/s:      " << kHowGbps << "; % of peak: " << kHowPeak << "\n"
      << "vs scalar: " << kHowScalar << (r.tuning ? "" : " (--no-tuning: the default policy)")
      << (is_arg_op(r.op) ? "; the whole-array family finds no index, so its " +
                                std::string(name_of(scalar_op_of(r.op))) + " of the same bytes"
                          : std::string())
      << "\n"
      << clock_line(r.clock, r.clock_note) << "\n";
  TableView v;
  v.text.push_back({out.str(), std::nullopt});
  v.text.push_back({"", shapes_table(r)});
  ResultTable lines = tabulate(line_columns(), lines_of(r));
  for (const auto& s : r.shapes) {
    const std::string shape = shape_label(s.m, s.n);
    if (!s.error.empty()) lines.notes.push_back(shape + " error: " + s.error);
    if (!s.scalar_refused.empty()) lines.notes.push_back(shape + " scalar refused: " + s.scalar_refused);
    if (!s.scalar_error.empty() && s.scalar_error != "not measured: " + s.error)
      lines.notes.push_back(shape + " scalar error: " + s.scalar_error);
    if (s.scalar && !s.scalar->ok()) lines.notes.push_back(shape + " scalar check: " + s.scalar->check.detail);
    if (s.scalar && !s.scalar->tuned.empty())
      lines.notes.push_back(shape + " scalar tuned: " + join(s.scalar->tuned) + " from " + s.scalar->tuned_from);
  }
  for (const Line& l : lines_of(r)) {
    const std::string what = l.shape() + " " + l.axis() + " " + l.row.chosen_by;
    if (!l.reason().empty()) lines.notes.push_back(what + " " + l.status() + ": " + l.reason());
    if (l.a && !l.a->ok()) lines.notes.push_back(what + " check: " + l.a->check.detail);
    if (l.a && l.a->timing.timer_suspect)
      lines.notes.push_back(what + " timer?: the device clock gave " + stats_cell(l.median_us()) +
                            " µs per reduction where the host clock saw " +
                            stats_cell(l.a->timing.host_whole_us.median) + " µs: its GB/s is not trusted");
  }
  v.text.push_back({"", std::move(lines)});
  v.csv_part = 2;
  return v;
}
}  // namespace

std::string axis_bench_text(const AxisBenchRun& r, const DeviceInfo& dev) { return render_text(view_of(r, dev)); }

std::string axis_bench_csv(const AxisBenchRun& r) { return render_csv(tabulate(line_columns(), lines_of(r))); }

json axis_bench_json(const AxisBenchRun& r, const DeviceInfo& dev) {
  ResultTable shapes = shapes_table(r);
  shapes.meta = {{"device", device_json(dev)},
                 {"clock", std::string(name_of(r.clock))},
                 {"clock_note", r.clock_note},
                 {"type", std::string(name_of(r.type))},
                 {"op", std::string(name_of(r.op))},
                 {"tuning", r.tuning},
                 {"rounds", r.rounds},
                 {"how", {{"time", r.rounds > 1 ? std::string(kHowTime) + "; " + rounds_text(r.rounds) : kHowTime}, {"gbps", kHowGbps}, {"pct_of_peak", kHowPeak}, {"speedup_vs_scalar", kHowScalar}}},
                 {"all_ok", r.all_ok()}};
  json doc = shapes.meta;
  doc["shapes"] = render_json_rows(shapes);
  return with_table(doc, "bench_axis", view_of(r, dev));
}

}  // namespace clreduce
