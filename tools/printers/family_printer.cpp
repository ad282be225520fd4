// Renderings of the family benchmark (`clreduce bench`): one row per variant.
#include "printers/family_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
// The family benchmark has one point per variant: its row.
struct Row {
  const VariantRun& v;
  const Measured* m;  // null when the variant is unavailable
  explicit Row(const VariantRun& vr) : v(vr), m(vr.points.empty() ? nullptr : &vr.points.front()) {}
  const ReduceReport* report() const { return m && m->report ? &*m->report : nullptr; }
  // A refused configuration is an error here: the user's options asked for it.
  std::string error() const { return m ? (!m->error.empty() ? m->error : m->skipped) : ""; }
  bool ok() const { return v.unavailable.empty() && report() && report()->ok(); }
};

std::string check_cell(const Row& row) {
  if (!row.v.unavailable.empty()) return "skipped";
  if (!row.report()) return "ERROR";
  if (!row.ok()) return "FAILED";
  return row.report()->timed.timer_suspect ? "ok, timer?" : "ok";
}

// naive's median over this one's.
double speedup(const SizeRun& s, const ReduceReport& r) {
  for (const auto& v : s.variants) {
    const Row row(v);
    if (v.variant == "naive" && row.report() && r.timed.whole_us.median > 0)
      return row.report()->timed.whole_us.median / r.timed.whole_us.median;
  }
  return 0;
}
}  // namespace

json bench_json(const Run& run, const DeviceInfo& dev) {
  const SizeRun& r = run.sizes.front();
  json rows = json::array();
  for (const auto& vr : r.variants) {
    const Row row(vr);
    json j = row.report() ? report_core_json(*row.report()) : json{{"variant", vr.variant}};
    j["status"] = check_cell(row);
    if (!vr.unavailable.empty()) j["skipped"] = vr.unavailable;
    if (!row.error().empty()) j["error"] = row.error();
    if (const ReduceReport* rr = row.report()) {
      j["pct_of_peak"] = r.pct_of_peak(rr->gbps);
      j["above_peak"] = above_peak(r.pct_of_peak(rr->gbps));
      j["speedup_vs_naive"] = speedup(r, *rr);
    }
    rows.push_back(j);
  }
  return json{{"kind", "bench"},
              {"device", device_json(dev)},
              {"clock", std::string(name_of(run.clock))},
              {"clock_note", run.clock_note},
              {"cache", r.cold ? "cold" : "warm"},
              {"cache_note", run.cache_note},
              {"noise_target_pct", run.noise_target_pct},
              {"n", r.n},
              {"type", std::string(name_of(run.type))},
              {"op", std::string(name_of(run.op))},
              {"data", r.data_origin},
              {"bytes", r.n * size_of(run.type)},
              {"peak_read", peak_json(r.peak)},
              {"host_reduce", host_reduce_json(r.host)},
              {"rows", rows},
              {"all_ok", run.all_ok()}};
}

std::string bench_text(const Run& run, const DeviceInfo& dev) {
  const SizeRun& r = run.sizes.front();
  std::ostringstream out;
  const std::uint64_t bytes = r.n * size_of(run.type);
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "input:  n = " << r.n << " " << name_of(run.type) << " (" << bytes_human(bytes) << ", "
      << r.data_origin << "), operator " << name_of(run.op) << "\n"
      << "peak:   " << fixed(r.peak.gbps, 1)
      << " GB/s read bandwidth, measured now by a plain streaming-read kernel (stream_read.cl: "
      << r.peak.kernel << ") over the same buffer\n";
  if (r.host.threads)
    out << "host:   " << fixed(r.host.gbps, 1) << " GB/s by std::reduce on " << r.host.threads
        << " threads (a contiguous block each) over the same data in host memory, measured now: "
           "what these cores reach without OpenCL\n";
  out << "time:   whole reduction (all passes), median of samples, back-to-back (a batch "
         "enqueued together, first start to last end / batch); 1 call: one call at a time "
         "(enqueue, wait), host clock, queue without profiling; GB/s = input bytes / "
         "back-to-back median\n"
      << clock_line(run.clock, run.clock_note) << cache_line(r.cold, run.cache_note)
      << noise_line(run.noise_target_pct) << "\n";
  // Float sums also show each variant's relative error against the compensated host sum.
  const bool accuracy = is_floating(run.type) && run.op == Op::Sum;
  TextTable t;
  t.headers = {"variant", "wg", "times", "vec", "passes", "median µs", "spread", "min µs", "max µs",
               "1 call µs", bandwidth_label(), "% of peak", "speedup vs naive", "check"};
  if (accuracy) t.headers.insert(t.headers.end() - 1, "rel error");
  bool marked = false;  // a cell above the peak
  for (const auto& vr : r.variants) {
    const Row row(vr);
    if (!row.report()) {
      t.rows.push_back({vr.variant, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", check_cell(row)});
      if (accuracy) t.rows.back().insert(t.rows.back().end() - 1, "-");
      continue;
    }
    const ReduceReport& rr = *row.report();
    const PassPlan& first = rr.plan.passes.front();
    const double up = speedup(r, rr);
    t.rows.push_back({vr.variant, std::to_string(first.wg), std::to_string(first.times),
                      std::to_string(first.vec), std::to_string(rr.plan.passes.size()),
                      stats_cell(rr.timed.whole_us.median), noise_cell(rr.timed), stats_cell(rr.timed.whole_us.min),
                      stats_cell(rr.timed.whole_us.max), stats_cell(rr.timed.single_us.median),
                      bandwidth_cell(rr.gbps, 1), pct_of_peak_cell(r.pct_of_peak(rr.gbps), 1),
                      up > 0 ? fixed(up, 2) + "x" : "-", check_cell(row)});
    if (accuracy) t.rows.back().insert(t.rows.back().end() - 1, rel_error_cell(rr.check.rel_error));
    marked = marked || above_peak(r.pct_of_peak(rr.gbps));
  }
  out << t.render_text();
  if (marked) out << kAbovePeakNote;
  for (const auto& vr : r.variants)
    if (const ReduceReport* rr = Row(vr).report(); rr && !rr->timed.noise_reached)
      out << vr.variant << ": noise target not reached: spread " << spread_cell(rr->timed.whole_us) << " after "
          << rr->timed.repetitions << " samples (--max-time ends the sampling)\n";
  std::vector<std::string> tuned;
  std::string tuned_from;
  for (const auto& vr : r.variants)
    if (const ReduceReport* rr = Row(vr).report(); rr && !rr->tuned.empty()) {
      tuned.push_back(vr.variant + " (" + join(rr->tuned) + ")");
      tuned_from = rr->tuned_from;
    }
  if (!tuned.empty())
    out << "tuned parameters from " << tuned_from << ": " << join(tuned, "; ")
        << " (options given override them; --no-tuning: the built-in defaults)\n";
  for (const auto& vr : r.variants) {
    const Row row(vr);
    if (!vr.unavailable.empty()) out << "\n" << vr.variant << " skipped: " << vr.unavailable;
    if (!row.error().empty()) out << "\n" << vr.variant << " error: " << row.error();
    if (row.report() && !row.ok()) out << "\n" << vr.variant << " check: " << row.report()->check.detail;
    if (row.report() && row.report()->timed.timer_suspect)
      out << "\n" << vr.variant << " timer?: the device clock gave " << stats_cell(row.report()->timed.whole_us.median)
          << " µs per reduction where the host clock saw " << stats_cell(row.report()->timed.host_whole_us.median)
          << " µs: its GB/s is not trusted";
  }
  out << "\n";
  return out.str();
}

std::string bench_csv(const Run& run) {
  const SizeRun& r = run.sizes.front();
  TextTable t;
  t.headers = {"variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us",
               "max_us", "first_pass_median_us", "single_call_median_us",
               "single_call_events_median_us", bandwidth_csv_label(), "peak_read_" + bandwidth_csv_label(), "pct_of_peak",
               "speedup_vs_naive", "check", "rel_error", "cache", "spread_pct", "samples", "noise_reached"};
  const std::string cache = r.cold ? "cold" : "warm";
  for (const auto& vr : r.variants) {
    const Row row(vr);
    if (!row.report()) {
      t.rows.push_back({vr.variant, std::string(name_of(run.type)), std::string(name_of(run.op)),
                        std::to_string(r.n), "", "", "", "", "", "", "", "", "", "", "",
                        bandwidth_cell(r.peak.gbps, 2), "", "", check_cell(row), "", cache, "", "", ""});
      continue;
    }
    const ReduceReport& rr = *row.report();
    t.rows.push_back({vr.variant, std::string(name_of(run.type)), std::string(name_of(run.op)),
                      std::to_string(r.n), std::to_string(rr.plan.passes.front().wg),
                      std::to_string(rr.plan.passes.front().times), std::to_string(rr.plan.passes.front().vec),
                      std::to_string(rr.plan.passes.size()), fixed(rr.timed.whole_us.min, 3),
                      fixed(rr.timed.whole_us.median, 3), fixed(rr.timed.whole_us.max, 3),
                      fixed(rr.timed.first_pass_us.median, 3),
                      fixed(rr.timed.single_us.median, 3), fixed(rr.timed.single_events_us.median, 3),
                      bandwidth_cell(rr.gbps, 2), bandwidth_cell(r.peak.gbps, 2), fixed(r.pct_of_peak(rr.gbps), 2), fixed(speedup(r, rr), 3),
                      check_cell(row), rel_error_cell(rr.check.rel_error), cache,
                      fixed(rr.timed.whole_us.spread_pct(), 2), std::to_string(rr.timed.whole_us.samples.size()),
                      rr.timed.noise_reached ? "yes" : "no"});
  }
  return t.render_csv();
}

}  // namespace clreduce
