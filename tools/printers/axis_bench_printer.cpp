// Renderings of the axis benchmark: its shapes' and rows' columns declared once (the result model,
// measure/result_table.hpp), every format from the generic printers.
#include "printers/axis_bench_printer.hpp"

#include "parse.hpp"
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
  const AxisBenchShape& s;
  const AxisBenchRow& row;
  const AxisReport* report() const { return row.report ? &*row.report : nullptr; }
  std::string shape() const { return shape_label(s.m, s.n); }
  std::string axis() const { return std::string(name_of(row.axis)); }
  std::string launch() const { return report() ? report()->plan.launch_label() : ""; }
  std::string status() const { return status_of(row); }
  std::string reason() const { return !row.refused.empty() ? row.refused : row.error; }
  double median_us() const { return report() ? report()->timing.whole_us.median : 0; }
  double single_us() const { return report() ? report()->timing.single_us.median : 0; }
  double gbps() const { return report() ? report()->gbps : 0; }
};

template <class F>
void for_each_line(const AxisBenchRun& r, F&& f) {
  for (const auto& s : r.shapes)
    for (const auto& row : s.rows) f(Line{s, row});
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
    "measured now";
const char* const kHowScalar =
    "the whole-array reduction of the same M*N elements with the fastest known launch (the Reducer's own "
    "choice: the tuning database's best for the device, else the device's default policy): its back-to-back "
    "median / this one's";

// The rows' columns, {key, json path, text header, csv header, unit, text decimals, csv decimals}:
// each format takes those that name a header or a path there, in this order.
const std::vector<Column>& line_columns() {
  static const std::vector<Column> c = {
      {"m", "m", "", "m", Unit::Count},
      {"n", "n", "", "n", Unit::Count},
      {"shape", "", "shape", ""},
      {"axis", "axis", "axis", "axis"},
      {"type", "", "", "type"},
      {"op", "", "", "op"},
      {"chosen_by", "chosen_by", "chosen by", "chosen_by"},
      {"variant", "variant", "variant", "variant"},
      {"launch", "launch", "launch", "launch"},
      {"passes", "passes", "", "passes", Unit::Count},
      {"min_us", "", "", "min_us", Unit::Micros, 2, 3},
      {"median_us", "", "median µs", "median_us", Unit::Micros, 2, 3},
      {"max_us", "", "", "max_us", Unit::Micros, 2, 3},
      {"single_us", "", "1 call µs", "single_call_median_us", Unit::Micros, 2, 3},
      {"gbps", "gbps", "GB/s", "GB_per_s", Unit::Number, 1, 2},
      {"peak_gbps", "", "", "peak_read_GB_per_s", Unit::Number, 1, 2},
      {"pct", "", "% of peak", "pct_of_peak", Unit::PctOfPeak, 1, 2},  // where the shape's peak was measured
      {"scalar_variant", "", "", "scalar_variant"},
      {"scalar_us", "", "", "scalar_median_us", Unit::Micros, 2, 3},
      {"speedup", "", "vs scalar", "speedup_vs_scalar", Unit::Ratio, 2, 3},  // where there is a speedup
      {"status", "status", "check", "check"},
      {"reason", "", "", "reason"},
      // JSON only.
      {"refused", "refused", "", ""},
      {"error", "error", "", ""},
      {"wg", "wg", "", "", Unit::Count},
      {"outputs", "outputs", "", "", Unit::Count},
      {"time_us", "time_us", "", "", Unit::Json},
      {"single_call_us", "single_call_us", "", "", Unit::Json},
      {"single_call_events_us", "single_call_events_us", "", "", Unit::Json},
      {"batch", "batch", "", "", Unit::Count},
      {"samples", "samples", "", "", Unit::Count},
      {"timer_suspect", "timer_suspect", "", ""},
      {"pct_of_peak", "pct_of_peak", "", "", Unit::Number},
      {"above_peak", "above_peak", "", ""},
      {"speedup_vs_scalar", "speedup_vs_scalar", "", "", Unit::Number},
      {"check", "check", "", "", Unit::Json},
      {"ok", "ok", "", ""},
  };
  return c;
}

Cell count(std::uint64_t x) { return x; }

void add_line(ResultTable& t, const AxisBenchRun& r, const Line& l) {
  t.add_row();
  t.set("m", count(l.s.m));
  t.set("n", count(l.s.n));
  t.set("shape", l.shape());
  t.set("axis", l.axis());
  t.set("type", std::string(name_of(r.type)));
  t.set("op", std::string(name_of(r.op)));
  t.set("chosen_by", l.row.chosen_by);
  t.set("variant", l.row.variant);
  t.set("status", l.status());
  if (!l.reason().empty()) t.set("reason", l.reason());
  if (!l.row.refused.empty()) t.set("refused", l.row.refused);
  if (!l.row.error.empty()) t.set("error", l.row.error);
  if (l.s.peak) t.set("peak_gbps", l.s.peak->gbps);
  if (l.s.scalar) {
    t.set("scalar_variant", l.s.scalar->config.variant);
    t.set("scalar_us", l.s.scalar->timed.whole_us.median);
  }
  const AxisReport* a = l.report();
  if (!a) return;
  t.set("launch", l.launch());
  t.set("passes", count(a->plan.passes.size()));
  t.set("min_us", a->timing.whole_us.min);
  t.set("median_us", l.median_us());
  t.set("max_us", a->timing.whole_us.max);
  t.set("single_us", l.single_us());
  t.set("gbps", l.gbps());
  if (l.s.peak) t.set("pct", l.row.pct_of_peak);
  if (l.row.speedup > 0) t.set("speedup", l.row.speedup);
  t.set("wg", count(a->plan.wg));
  t.set("outputs", count(a->plan.outputs()));
  t.set("time_us", stats_json(a->timing.whole_us));
  t.set("single_call_us", stats_json(a->timing.single_us));
  t.set("single_call_events_us", stats_json(a->timing.single_events_us));
  t.set("batch", count(a->timing.batch));
  t.set("samples", count(a->timing.repetitions));
  t.set("timer_suspect", a->timing.timer_suspect);
  t.set("pct_of_peak", l.row.pct_of_peak);
  t.set("above_peak", above_peak(l.row.pct_of_peak));
  t.set("speedup_vs_scalar", l.row.speedup);
  t.set("check", check_json(a->check));
  t.set("ok", a->ok());
}

ResultTable lines_table(const AxisBenchRun& r) {
  ResultTable t;
  t.columns = line_columns();
  for_each_line(r, [&](const Line& l) { add_line(t, r, l); });
  return t;
}

// The shapes' table (text) and the JSON's shapes, each with its rows nested.
ResultTable shapes_table(const AxisBenchRun& r) {
  ResultTable t;
  t.columns = {{"shape", "", "shape", ""},
               {"m", "m", "", "", Unit::Count},
               {"n", "n", "", "", Unit::Count},
               {"bytes", "bytes", "", "", Unit::Count},
               {"size", "", "bytes", ""},  // "4.0 MiB"
               {"data", "data", "", ""},
               {"peak", "", "read peak GB/s", "", Unit::Number},
               {"peak_read", "peak_read", "", "", Unit::Json},
               {"scalar_variant", "", "scalar variant", ""},
               {"scalar_launch", "", "scalar launch", ""},
               {"scalar_chosen_by", "", "chosen by", ""},
               {"scalar_us", "", "scalar µs", "", Unit::Micros},
               {"scalar_gbps", "", "scalar GB/s", "", Unit::Number},
               {"scalar_status", "", "check", ""},
               {"scalar", "scalar", "", "", Unit::Json},
               {"rows", "rows", "", "", Unit::Json},
               {"error", "error", "", ""}};
  for (const auto& s : r.shapes) {
    ResultTable rows;
    rows.columns = line_columns();
    for (const auto& row : s.rows) add_line(rows, r, Line{s, row});
    t.add_row();
    t.set("shape", shape_label(s.m, s.n));
    t.set("m", count(s.m));
    t.set("n", count(s.n));
    t.set("bytes", count(s.bytes));
    t.set("size", bytes_human(s.bytes));
    t.set("data", s.data_origin);
    t.set("peak_read", s.peak ? peak_json(*s.peak) : json());
    if (s.peak) t.set("peak", s.peak->gbps);
    if (s.scalar) {
      const ReduceReport& sc = *s.scalar;
      t.set("scalar_variant", sc.config.variant);
      t.set("scalar_launch", scalar_launch(sc));
      t.set("scalar_chosen_by", sc.chosen_by);
      t.set("scalar_us", sc.timed.whole_us.median);
      t.set("scalar_gbps", sc.gbps);
    }
    t.set("scalar_status", scalar_status(s));
    t.set("scalar", scalar_json(s));
    t.set("rows", render_json_rows(rows));
    if (!s.error.empty()) t.set("error", s.error);
  }
  return t;
}
}  // namespace

std::string axis_bench_text(const AxisBenchRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device:    " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "reduce:    " << name_of(r.op) << " of every row (M values) or column (N values) of each M x N "
      << name_of(r.type) << " matrix (row-major"
      << (r.shapes.empty() ? std::string() : ", " + r.shapes.front().data_origin)
      << "); every output checked against the host reference, the output buffer poisoned first\n"
      << "time:      " << kHowTime << "; by "
      << (r.clock == TimeSource::DeviceEvents ? "the device's events" : "the host clock") << "\n"
      << "GB/s:      " << kHowGbps << "; % of peak: " << kHowPeak << "\n"
      << "vs scalar: " << kHowScalar << (r.tuning ? "" : " (--no-tuning: the default policy)")
      << (is_arg_op(r.op) ? "; the whole-array family finds no index, so its " +
                                std::string(name_of(scalar_op_of(r.op))) + " of the same bytes"
                          : std::string())
      << "\n"
      << clock_line(r.clock, r.clock_note) << "\n";
  out << render_text(shapes_table(r));
  ResultTable lines = lines_table(r);
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
  for_each_line(r, [&](const Line& l) {
    const std::string what = l.shape() + " " + l.axis() + " " + l.row.chosen_by;
    if (!l.reason().empty()) lines.notes.push_back(what + " " + l.status() + ": " + l.reason());
    if (l.report() && !l.report()->ok()) lines.notes.push_back(what + " check: " + l.report()->check.detail);
    if (l.report() && l.report()->timing.timer_suspect)
      lines.notes.push_back(what + " timer?: the device clock gave " + stats_cell(l.median_us()) +
                            " µs per reduction where the host clock saw " +
                            stats_cell(l.report()->timing.host_whole_us.median) + " µs: its GB/s is not trusted");
  });
  return out.str() + render_text(lines);
}

std::string axis_bench_csv(const AxisBenchRun& r) { return render_csv(lines_table(r)); }

json axis_bench_json(const AxisBenchRun& r, const DeviceInfo& dev) {
  ResultTable shapes = shapes_table(r);
  shapes.meta = {{"device", device_json(dev)},
                 {"clock", std::string(name_of(r.clock))},
                 {"clock_note", r.clock_note},
                 {"type", std::string(name_of(r.type))},
                 {"op", std::string(name_of(r.op))},
                 {"tuning", r.tuning},
                 {"how", {{"time", kHowTime}, {"gbps", kHowGbps}, {"pct_of_peak", kHowPeak}, {"speedup_vs_scalar", kHowScalar}}},
                 {"all_ok", r.all_ok()}};
  json doc = shapes.meta;
  doc["shapes"] = render_json_rows(shapes);
  return doc;
}

}  // namespace clreduce
