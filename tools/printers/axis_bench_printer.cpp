// Renderings of the axis benchmark: one model of each row (Line) that the text table, the CSV and
// the JSON all show.
#include "printers/axis_bench_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
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

json line_json(const Line& l) {
  json j{{"m", l.s.m},
         {"n", l.s.n},
         {"axis", l.axis()},
         {"chosen_by", l.row.chosen_by},
         {"variant", l.row.variant},
         {"status", l.status()}};
  if (!l.row.refused.empty()) j["refused"] = l.row.refused;
  if (!l.row.error.empty()) j["error"] = l.row.error;
  if (const AxisReport* a = l.report()) {
    j["launch"] = l.launch();
    j["passes"] = a->plan.passes.size();
    j["wg"] = a->plan.wg;
    j["outputs"] = a->plan.outputs();
    j["time_us"] = stats_json(a->timing.whole_us);
    j["single_call_us"] = stats_json(a->timing.single_us);
    j["single_call_events_us"] = stats_json(a->timing.single_events_us);
    j["batch"] = a->timing.batch;
    j["samples"] = a->timing.repetitions;
    j["timer_suspect"] = a->timing.timer_suspect;
    j["gbps"] = a->gbps;
    j["pct_of_peak"] = l.row.pct_of_peak;
    j["above_peak"] = above_peak(l.row.pct_of_peak);
    j["speedup_vs_scalar"] = l.row.speedup;
    j["check"] = check_json(a->check);
    j["ok"] = a->ok();
  }
  return j;
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

  TextTable shapes;
  shapes.headers = {"shape", "bytes", "read peak GB/s", "scalar variant", "scalar launch", "chosen by",
                    "scalar µs", "scalar GB/s", "check"};
  for (const auto& s : r.shapes) {
    std::vector<std::string> cells{shape_label(s.m, s.n), bytes_human(s.bytes), s.peak ? fixed(s.peak->gbps, 1) : "-"};
    if (s.scalar) {
      const ReduceReport& sc = *s.scalar;
      for (std::string c : {sc.config.variant, scalar_launch(sc), sc.chosen_by, stats_cell(sc.timed.whole_us.median),
                            fixed(sc.gbps, 1)})
        cells.push_back(std::move(c));
    } else {
      cells.insert(cells.end(), 5, "-");
    }
    cells.push_back(scalar_status(s));
    shapes.rows.push_back(std::move(cells));
  }
  out << shapes.render_text() << "\n";

  TextTable t;
  t.headers = {"shape", "axis", "chosen by", "variant", "launch", "median µs", "1 call µs",
               "GB/s", "% of peak", "vs scalar", "check"};
  bool marked = false;
  for_each_line(r, [&](const Line& l) {
    if (!l.report()) {
      t.rows.push_back({l.shape(), l.axis(), l.row.chosen_by, l.row.variant, "-", "-", "-", "-", "-", "-", l.status()});
      return;
    }
    t.rows.push_back({l.shape(), l.axis(), l.row.chosen_by, l.row.variant, l.launch(), stats_cell(l.median_us()),
                      stats_cell(l.single_us()), fixed(l.gbps(), 1),
                      l.s.peak ? pct_of_peak_cell(l.row.pct_of_peak, 1) : "-",
                      l.row.speedup > 0 ? fixed(l.row.speedup, 2) + "x" : "-", l.status()});
    marked = marked || above_peak(l.row.pct_of_peak);
  });
  out << t.render_text();
  if (marked) out << kAbovePeakNote;

  for (const auto& s : r.shapes) {
    const std::string shape = shape_label(s.m, s.n);
    if (!s.error.empty()) out << "\n" << shape << " error: " << s.error;
    if (!s.scalar_refused.empty()) out << "\n" << shape << " scalar refused: " << s.scalar_refused;
    if (!s.scalar_error.empty() && s.scalar_error != "not measured: " + s.error)
      out << "\n" << shape << " scalar error: " << s.scalar_error;
    if (s.scalar && !s.scalar->ok()) out << "\n" << shape << " scalar check: " << s.scalar->check.detail;
    if (s.scalar) {
      if (!s.scalar->tuned.empty())
        out << "\n" << shape << " scalar tuned: " << join(s.scalar->tuned) << " from " << s.scalar->tuned_from;
    }
  }
  for_each_line(r, [&](const Line& l) {
    const std::string what = l.shape() + " " + l.axis() + " " + l.row.chosen_by;
    if (!l.reason().empty()) out << "\n" << what << " " << l.status() << ": " << l.reason();
    if (l.report() && !l.report()->ok()) out << "\n" << what << " check: " << l.report()->check.detail;
    if (l.report() && l.report()->timing.timer_suspect)
      out << "\n" << what << " timer?: the device clock gave " << stats_cell(l.median_us())
          << " µs per reduction where the host clock saw " << stats_cell(l.report()->timing.host_whole_us.median)
          << " µs: its GB/s is not trusted";
  });
  out << "\n";
  return out.str();
}

std::string axis_bench_csv(const AxisBenchRun& r) {
  TextTable t;
  t.headers = {"m", "n", "axis", "type", "op", "chosen_by", "variant", "launch", "passes", "min_us", "median_us",
               "max_us", "single_call_median_us", "GB_per_s", "peak_read_GB_per_s", "pct_of_peak", "scalar_variant",
               "scalar_median_us", "speedup_vs_scalar", "check", "reason"};
  for_each_line(r, [&](const Line& l) {
    const AxisReport* a = l.report();
    const ReduceReport* sc = l.s.scalar ? &*l.s.scalar : nullptr;
    t.rows.push_back({std::to_string(l.s.m), std::to_string(l.s.n), l.axis(), std::string(name_of(r.type)),
                      std::string(name_of(r.op)), l.row.chosen_by, l.row.variant, l.launch(),
                      a ? std::to_string(a->plan.passes.size()) : "", a ? fixed(a->timing.whole_us.min, 3) : "",
                      a ? fixed(l.median_us(), 3) : "", a ? fixed(a->timing.whole_us.max, 3) : "",
                      a ? fixed(l.single_us(), 3) : "", a ? fixed(l.gbps(), 2) : "",
                      l.s.peak ? fixed(l.s.peak->gbps, 2) : "", a && l.s.peak ? fixed(l.row.pct_of_peak, 2) : "",
                      sc ? sc->config.variant : "", sc ? fixed(sc->timed.whole_us.median, 3) : "",
                      a && l.row.speedup > 0 ? fixed(l.row.speedup, 3) : "", l.status(), l.reason()});
  });
  return t.render_csv();
}

json axis_bench_json(const AxisBenchRun& r, const DeviceInfo& dev) {
  json shapes = json::array();
  for (const auto& s : r.shapes) {
    json rows = json::array();
    for (const auto& row : s.rows) rows.push_back(line_json(Line{s, row}));
    json j{{"m", s.m},
           {"n", s.n},
           {"bytes", s.bytes},
           {"data", s.data_origin},
           {"peak_read", s.peak ? peak_json(*s.peak) : json()},
           {"scalar", scalar_json(s)},
           {"rows", rows}};
    if (!s.error.empty()) j["error"] = s.error;
    shapes.push_back(std::move(j));
  }
  return json{{"device", device_json(dev)},
              {"clock", std::string(name_of(r.clock))},
              {"clock_note", r.clock_note},
              {"type", std::string(name_of(r.type))},
              {"op", std::string(name_of(r.op))},
              {"tuning", r.tuning},
              {"how", {{"time", kHowTime}, {"gbps", kHowGbps}, {"pct_of_peak", kHowPeak}, {"speedup_vs_scalar", kHowScalar}}},
              {"shapes", shapes},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
