// Renderings of the family benchmark (`clreduce bench`): one row per variant, its columns declared
// once (the result model, measure/result_table.hpp), every format from the generic printers.
#include "printers/family_printer.hpp"

#include "printers/common_columns.hpp"
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
// One variant's row as the columns read it.
struct Line {
  const Run* run;
  const SizeRun* size;
  Row row;
  const ReduceReport* rr;  // null where it did not run
  double up;               // naive's median over this one's (0: none)
  Line(const Run& r, const VariantRun& v)
      : run(&r), size(&r.sizes.front()), row(v), rr(row.report()), up(rr ? speedup(*size, *rr) : 0) {}
};

using Col = ColumnOf<Line>;

// {{key, json path, text header, csv header, unit, text decimals, csv decimals}, cell}; the text
// table and the CSV order theirs below (kTextOrder, kCsvOrder).
const std::vector<Col>& columns() {
  using R = ReduceReport;
  const PartOf<Line, Timed> timing = [](const Line& l) { return l.rr ? &l.rr->timed : nullptr; };
  static const std::vector<Col> c = join<Line>({
      // The report's shared keys (report_core_json), or the variant alone.
      {{{"report", "*", "", ""},
        [](const Line& l) { return Cell(l.rr ? report_core_json(*l.rr) : json{{"variant", l.row.v.variant}}); }},
       {{"variant", "", "variant", "variant"}, [](const Line& l) { return Cell(l.row.v.variant); }},
       {{"type", "", "", "type"}, [](const Line& l) { return Cell(std::string(name_of(l.run->type))); }},
       {{"op", "", "", "op"}, [](const Line& l) { return Cell(std::string(name_of(l.run->op))); }},
       {{"n", "", "", "n", Unit::Count}, [](const Line& l) { return u64(l.size->n); }},
       {{"wg", "", "wg", "wg", Unit::Count}, when(&Line::rr, [](const R& r) { return u64(r.plan.passes.front().wg); })},
       {{"times", "", "times", "times", Unit::Count}, when(&Line::rr, [](const R& r) { return u64(r.plan.passes.front().times); })},
       {{"vec", "", "vec", "vec", Unit::Count}, when(&Line::rr, [](const R& r) { return u64(r.plan.passes.front().vec); })},
       {{"passes", "", "passes", "passes", Unit::Count}, when(&Line::rr, [](const R& r) { return u64(r.plan.passes.size()); })},
       {{"spread", "", "spread", ""}, when(&Line::rr, [](const R& r) { return noise_cell(r.timed); })},
       {{"first_pass_us", "", "", "first_pass_median_us", Unit::Micros, 2, 3},
        when(&Line::rr, [](const R& r) { return r.timed.first_pass_us.median; })},
       {{"gbps", "", "$bw", "$bw", Unit::Bandwidth, 1, 2}, when(&Line::rr, [](const R& r) { return r.gbps; })},
       {{"speedup", "", "speedup vs naive", "", Unit::Ratio, 2},  // where naive ran
        [](const Line& l) { return l.up > 0 ? Cell(l.up) : Cell(); }},
       {{"speedup_csv", "speedup_vs_naive", "", "speedup_vs_naive", Unit::Number, 2, 3},
        [](const Line& l) { return l.rr ? Cell(l.up) : Cell(); }},
       {{"rel_error", "", "rel error", "rel_error"}, when(&Line::rr, [](const R& r) { return rel_error_cell(r.check.rel_error); })},
       {{"cache", "", "", "cache"}, [](const Line& l) { return Cell(std::string(l.size->cold ? "cold" : "warm")); }},
       {{"spread_pct", "", "", "spread_pct", Unit::Number, 1, 2}, when(&Line::rr, [](const R& r) { return r.timed.whole_us.spread_pct(); })},
       {{"samples", "", "", "samples", Unit::Count}, when(&Line::rr, [](const R& r) { return u64(r.timed.whole_us.samples.size()); })},
       {{"noise_reached", "", "", "noise_reached"}, when(&Line::rr, [](const R& r) { return std::string(r.timed.noise_reached ? "yes" : "no"); })}},
      time_columns(timing, kMinMaxText | kSingle | kSingleEvents),
      peak_columns<Line>([](const Line& l) { return &l.size->peak; },
                         [](const Line& l) { return l.rr ? std::optional(l.size->pct_of_peak(l.rr->gbps)) : std::nullopt; }, {}),
      check_columns<Line>([](const Line& l) { return check_cell(l.row); }, nullptr,
                          [](const Line& l) { return l.row.v.unavailable; }, [](const Line& l) { return l.row.error(); },
                          "skipped")});
  return c;
}
const std::vector<std::string> kTextOrder = {"variant", "wg", "times", "vec", "passes", "median_us", "spread",
                                             "min_us", "max_us", "single_us", "gbps", "pct", "speedup", "status"};
const std::vector<std::string> kCsvOrder = {
    "variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us", "max_us", "first_pass_us",
    "single_us", "single_events_us", "gbps", "peak_gbps", "pct", "speedup_csv", "status", "rel_error", "cache",
    "spread_pct", "samples", "noise_reached"};

ResultTable table_of(const Run& run) {
  std::vector<Line> lines;
  for (const auto& vr : run.sizes.front().variants) lines.emplace_back(run, vr);
  ResultTable t = tabulate(columns(), lines);
  t.text_order = kTextOrder;
  t.csv_order = kCsvOrder;
  // Float sums also show each variant's relative error against the compensated host sum.
  if (is_floating(run.type) && run.op == Op::Sum) t.text_order.insert(t.text_order.end() - 1, "rel_error");
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
  return with_schema(render_json(t), "bench");
}

std::string bench_text(const Run& run, const DeviceInfo& dev, BandwidthUnit u) {
  const SizeRun& r = run.sizes.front();
  std::ostringstream out;
  const std::uint64_t bytes = r.n * size_of(run.type);
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "input:  n = " << r.n << " " << name_of(run.type) << " (" << bytes_human(bytes) << ", "
      << r.data_origin << "), operator " << name_of(run.op) << "\n"
      << "peak:   " << fixed(r.peak.gbps, 1)
      << " GB/s read bandwidth, measured in the same run by a plain streaming-read kernel (stream_read.cl: "
      << r.peak.kernel << ") over the same buffer\n";
  if (r.host.threads)
    out << "host:   " << fixed(r.host.gbps, 1) << " GB/s by std::reduce on " << r.host.threads
        << " threads (a contiguous block each) over the same data in host memory, measured in the same run: "
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
  return render_text(t, u);
}

std::string bench_csv(const Run& run, BandwidthUnit u) { return render_csv(table_of(run), u); }

}  // namespace clreduce
