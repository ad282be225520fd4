// Renderings of the family benchmark (`clreduce bench`): one row per variant, its columns declared
// once (the result model, measure/result_table.hpp), every format from the generic printers.
#include "printers/family_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
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

namespace {
// {key, json path, text header, csv header, unit, text decimals, csv decimals}; the text table and
// the CSV order theirs below (kTextOrder, kCsvOrder).
const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      {"report", "*", "", "", Unit::Json},  // the report's shared keys (report_core_json), or the variant alone
      {"variant", "", "variant", "variant"},
      {"type", "", "", "type"},
      {"op", "", "", "op"},
      {"n", "", "", "n", Unit::Count},
      {"wg", "", "wg", "wg", Unit::Count},
      {"times", "", "times", "times", Unit::Count},
      {"vec", "", "vec", "vec", Unit::Count},
      {"passes", "", "passes", "passes", Unit::Count},
      {"median_us", "", "median µs", "median_us", Unit::Micros, 2, 3},
      {"spread", "", "spread", ""},
      {"min_us", "", "min µs", "min_us", Unit::Micros, 2, 3},
      {"max_us", "", "max µs", "max_us", Unit::Micros, 2, 3},
      {"first_pass_us", "", "", "first_pass_median_us", Unit::Micros, 2, 3},
      {"single_us", "", "1 call µs", "single_call_median_us", Unit::Micros, 2, 3},
      {"single_events_us", "", "", "single_call_events_median_us", Unit::Micros, 2, 3},
      {"gbps", "", "$bw", "$bw", Unit::Bandwidth, 1, 2},
      {"peak_gbps", "", "", "peak_read_$bw", Unit::Bandwidth, 1, 2},
      {"pct", "pct_of_peak", "% of peak", "pct_of_peak", Unit::PctOfPeak, 1, 2},
      {"speedup", "", "speedup vs naive", "", Unit::Ratio, 2},  // where naive ran
      {"speedup_csv", "speedup_vs_naive", "", "speedup_vs_naive", Unit::Number, 2, 3},
      {"rel_error", "", "rel error", "rel_error"},
      {"status", "status", "check", "check"},
      {"cache", "", "", "cache"},
      {"spread_pct", "", "", "spread_pct", Unit::Number, 1, 2},
      {"samples", "", "", "samples", Unit::Count},
      {"noise_reached", "", "", "noise_reached"},
      {"skipped", "skipped", "", ""},
      {"error", "error", "", ""},
      {"above_peak", "above_peak", "", ""},
  };
  return c;
}
const std::vector<std::string> kTextOrder = {"variant", "wg", "times", "vec", "passes", "median_us", "spread",
                                             "min_us", "max_us", "single_us", "gbps", "pct", "speedup", "status"};
const std::vector<std::string> kCsvOrder = {
    "variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us", "max_us", "first_pass_us",
    "single_us", "single_events_us", "gbps", "peak_gbps", "pct", "speedup_csv", "status", "rel_error", "cache",
    "spread_pct", "samples", "noise_reached"};

Cell count(std::uint64_t x) { return x; }

ResultTable table_of(const Run& run) {
  const SizeRun& r = run.sizes.front();
  ResultTable t;
  t.columns = columns();
  t.text_order = kTextOrder;
  t.csv_order = kCsvOrder;
  // Float sums also show each variant's relative error against the compensated host sum.
  if (is_floating(run.type) && run.op == Op::Sum) t.text_order.insert(t.text_order.end() - 1, "rel_error");
  for (const auto& vr : r.variants) {
    const Row row(vr);
    const ReduceReport* rr = row.report();
    t.add_row();
    t.set("report", rr ? report_core_json(*rr) : json{{"variant", vr.variant}});
    t.set("variant", vr.variant);
    t.set("type", std::string(name_of(run.type)));
    t.set("op", std::string(name_of(run.op)));
    t.set("n", count(r.n));
    t.set("peak_gbps", r.peak.gbps);
    t.set("status", check_cell(row));
    t.set("cache", r.cold ? "cold" : "warm");
    if (!vr.unavailable.empty()) t.set("skipped", vr.unavailable);
    if (!row.error().empty()) t.set("error", row.error());
    if (!rr) continue;
    const PassPlan& first = rr->plan.passes.front();
    const double up = speedup(r, *rr);
    t.set("wg", count(first.wg));
    t.set("times", count(first.times));
    t.set("vec", count(first.vec));
    t.set("passes", count(rr->plan.passes.size()));
    t.set("median_us", rr->timed.whole_us.median);
    t.set("spread", noise_cell(rr->timed));
    t.set("min_us", rr->timed.whole_us.min);
    t.set("max_us", rr->timed.whole_us.max);
    t.set("first_pass_us", rr->timed.first_pass_us.median);
    t.set("single_us", rr->timed.single_us.median);
    t.set("single_events_us", rr->timed.single_events_us.median);
    t.set("gbps", rr->gbps);
    t.set("pct", r.pct_of_peak(rr->gbps));
    if (up > 0) t.set("speedup", up);
    t.set("speedup_csv", up);
    t.set("rel_error", rel_error_cell(rr->check.rel_error));
    t.set("spread_pct", rr->timed.whole_us.spread_pct());
    t.set("samples", count(rr->timed.whole_us.samples.size()));
    t.set("noise_reached", rr->timed.noise_reached ? "yes" : "no");
    t.set("above_peak", above_peak(r.pct_of_peak(rr->gbps)));
  }
  return t;
}
}  // namespace

json bench_json(const Run& run, const DeviceInfo& dev) {
  const SizeRun& r = run.sizes.front();
  ResultTable t = table_of(run);
  t.meta = {{"kind", "bench"},
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
            {"all_ok", run.all_ok()}};
  return render_json(t);
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
  ResultTable t = table_of(run);
  t.preamble = {out.str()};
  for (const auto& vr : r.variants)
    if (const ReduceReport* rr = Row(vr).report(); rr && !rr->timed.noise_reached)
      t.after.push_back(vr.variant + ": noise target not reached: spread " + spread_cell(rr->timed.whole_us) + " after " +
                        std::to_string(rr->timed.repetitions) + " samples (--max-time ends the sampling)\n");
  std::vector<std::string> tuned;
  std::string tuned_from;
  for (const auto& vr : r.variants)
    if (const ReduceReport* rr = Row(vr).report(); rr && !rr->tuned.empty()) {
      tuned.push_back(vr.variant + " (" + join(rr->tuned) + ")");
      tuned_from = rr->tuned_from;
    }
  if (!tuned.empty())
    t.after.push_back("tuned parameters from " + tuned_from + ": " + join(tuned, "; ") +
                      " (options given override them; --no-tuning: the built-in defaults)\n");
  for (const auto& vr : r.variants) {
    const Row row(vr);
    if (!vr.unavailable.empty()) t.notes.push_back(vr.variant + " skipped: " + vr.unavailable);
    if (!row.error().empty()) t.notes.push_back(vr.variant + " error: " + row.error());
    if (row.report() && !row.ok()) t.notes.push_back(vr.variant + " check: " + row.report()->check.detail);
    if (row.report() && row.report()->timed.timer_suspect)
      t.notes.push_back(vr.variant + " timer?: the device clock gave " + stats_cell(row.report()->timed.whole_us.median) +
                        " µs per reduction where the host clock saw " +
                        stats_cell(row.report()->timed.host_whole_us.median) + " µs: its GB/s is not trusted");
  }
  return render_text(t);
}

std::string bench_csv(const Run& run) { return render_csv(table_of(run)); }

}  // namespace clreduce
