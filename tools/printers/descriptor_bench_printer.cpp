// Renderings of the descriptor benchmark: its columns declared once (the result model,
// measure/result_table.hpp), every format from the generic printers.
#include "printers/descriptor_bench_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

namespace clreduce {

using nlohmann::json;

namespace {
const char* const kHowTime =
    "one launch per reduction, median of samples, back-to-back (a batch enqueued together, first start to last "
    "end / batch); 1 call: one reduction enqueued alone and waited for, host clock";
const char* const kHowGbps = "the bytes of every input the reduction reads / back-to-back median";
const char* const kHowPeak =
    "GB/s / the read peak: a plain streaming-read kernel (stream_read.cl) over as many bytes (the first input's "
    "buffer, or one buffer of all inputs' bytes), measured at each point";

// {key, json path, text header, csv header, unit}: the text table, the CSV and the JSON rows each
// take the columns that name a header or a path there, in this order.
const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      {"reduction", "reduction", "reduction", "reduction"},
      {"inputs", "inputs", "inputs", "inputs"},
      {"accumulator", "accumulator", "", "accumulator"},
      {"family", "family", "family", "family"},
      {"m", "m", "", "m", Unit::Count},
      {"n", "n", "", "n", Unit::Count},
      {"shape", "", "shape", ""},  // "8192x8192" for rows and columns, "2^26" elements for the whole array
      {"launch", "launch", "launch", "launch"},
      {"resolved", "resolved/label", "resolved", "resolved"},
      {"options", "resolved/options", "", "options"},
      {"private_bytes", "resolved/private_bytes", "private B", "private_bytes", Unit::Count},
      {"depth", "resolved/depth", "", "depth", Unit::Count},
      {"bytes_read", "bytes_read", "", "bytes_read", Unit::Count},
      {"median_us", "", "median µs", "median_us", Unit::Micros},
      {"min_us", "", "", "min_us", Unit::Micros},
      {"max_us", "", "", "max_us", Unit::Micros},
      {"single_us", "", "1 call µs", "single_call_median_us", Unit::Micros},
      {"gbps", "read_GB_per_s", "$bw", "$bw", Unit::Bandwidth},
      {"peak_gbps", "", "", "peak_$bw", Unit::Bandwidth},
      {"pct", "pct_of_read_peak", "% of peak", "pct_of_read_peak", Unit::PctOfPeak},
      {"status", "status", "check", "check"},
      {"reason", "", "", "reason"},  // why refused, the error, or the check's detail where it failed
      // JSON only.
      {"refused", "refused", "", ""},
      {"error", "error", "", ""},
      {"result_layout", "result_layout", "", ""},
      {"result", "result", "", ""},
      {"results", "results", "", "", Unit::Count},
      {"kernel", "resolved/kernel", "", ""},
      {"wg", "resolved/wg", "", "", Unit::Count},
      {"groups", "resolved/groups", "", "", Unit::Count},
      {"vec", "resolved/vec", "", "", Unit::Count},
      {"items", "resolved/items", "", "", Unit::Count},
      {"row_width", "resolved/row_width", "", "", Unit::Count},
      {"chunks", "resolved/chunks", "", "", Unit::Count},
      {"tile_x", "resolved/tile_x", "", "", Unit::Count},
      {"rows_y", "resolved/rows_y", "", "", Unit::Count},
      {"check_ok", "check/ok", "", ""},
      {"check_detail", "check/detail", "", ""},
      {"check_reference", "check/reference", "", ""},
      {"back_to_back_us", "back_to_back_us", "", "", Unit::Json},
      {"one_call_us", "one_call_us", "", "", Unit::Json},
      {"batch", "batch", "", "", Unit::Count},
      {"timer_suspect", "timer_suspect", "", ""},
      {"peak", "peak", "", "", Unit::Json},
      {"above_peak", "above_peak", "", ""},
  };
  return c;
}

Cell count(std::uint64_t x) { return x; }

void add_row(ResultTable& t, const DescriptorBenchRow& row) {
  const DescriptorReport* d = row.report ? &*row.report : nullptr;
  const bool ran = row.error.empty() && d;
  const std::string family(name_of(row.family));
  const std::string status =
      status_cell(!row.refused.empty(), ran, ran && d->ok(), ran && d->timing.timer_suspect);
  t.add_row();
  t.set("reduction", row.reduction);
  t.set("inputs", row.types);
  t.set("family", family);
  t.set("m", count(row.m));
  t.set("n", count(row.n));
  t.set("shape", row.family == DescriptorJob::Family::Whole ? size_label(row.n) : shape_label(row.m, row.n));
  t.set("launch", row.launch);
  t.set("status", status);
  if (!row.refused.empty()) t.set("refused", row.refused);
  if (!row.error.empty()) t.set("error", row.error);
  const std::string reason = !row.refused.empty() ? row.refused : row.error;
  if (!reason.empty()) {
    t.set("reason", reason);
    t.notes.push_back(row.reduction + " " + row.types + " " + family + " " +
                      (row.family == DescriptorJob::Family::Whole ? size_label(row.n) : shape_label(row.m, row.n)) +
                      " " + row.launch + " " + status + ": " + reason);
  }
  if (!d) return;
  const DescriptorLaunch& l = d->launch;
  t.set("accumulator", accumulator_str(d->reduction));
  t.set("resolved", l.label());
  t.set("options", l.options);
  t.set("private_bytes", count(l.private_bytes));
  t.set("depth", count(l.depth));
  t.set("bytes_read", count(d->bytes_read));
  t.set("median_us", d->timing.whole_us.median);
  t.set("min_us", d->timing.whole_us.min);
  t.set("max_us", d->timing.whole_us.max);
  t.set("single_us", d->timing.single_us.median);
  t.set("gbps", d->read_gbs());
  t.set("peak_gbps", d->peak.gbps);
  t.set("pct", d->pct_of_peak());
  if (!d->ok()) {
    if (reason.empty()) t.set("reason", d->check.detail);
    t.notes.push_back(row.reduction + " " + row.types + " " + family + " " +
                      (row.family == DescriptorJob::Family::Whole ? size_label(row.n) : shape_label(row.m, row.n)) +
                      " " + row.launch + " check: " + d->check.detail);
  }
  t.set("result_layout", d->out_layout_str());
  t.set("result", d->result.str());
  t.set("results", count(d->results.size()));
  t.set("kernel", l.kernel);
  t.set("wg", count(l.wg));
  t.set("groups", count(l.groups));
  t.set("vec", count(l.vec));
  t.set("items", count(l.items));
  t.set("row_width", count(l.row_width));
  t.set("chunks", count(l.chunks));
  t.set("tile_x", count(l.tile_x));
  t.set("rows_y", count(l.rows_y));
  t.set("check_ok", d->check.ok);
  t.set("check_detail", d->check.detail);
  t.set("check_reference", d->reference_how);
  t.set("back_to_back_us", stats_json(d->timing.whole_us));
  t.set("one_call_us", stats_json(d->timing.single_us));
  t.set("batch", count(d->timing.batch));
  t.set("timer_suspect", d->timing.timer_suspect);
  t.set("peak", peak_json(d->peak));
  t.set("above_peak", above_peak(d->pct_of_peak()));
}

ResultTable table_of(const std::vector<const DescriptorBenchRow*>& rows) {
  ResultTable t;
  t.columns = columns();
  for (const DescriptorBenchRow* row : rows) add_row(t, *row);
  return t;
}

ResultTable table_of(const DescriptorBenchRun& r, const DeviceInfo* dev) {
  std::vector<const DescriptorBenchRow*> rows;
  for (const DescriptorBenchRow& row : r.rows) rows.push_back(&row);
  ResultTable t = table_of(rows);
  const bool events = r.clock == TimeSource::DeviceEvents;
  if (dev) {
    t.preamble = {"device:  " + dev->label() + ", " + std::to_string(dev->compute_units) + " compute units\n",
                  "reduce:  each reduction descriptor over the whole array, every row or every column (row-major M x N), "
                  "every result checked against its host reference\n",
                  std::string("time:    ") + kHowTime + "; by " + (events ? "the device's events" : "the host clock") + "\n",
                  std::string("GB/s:    ") + kHowGbps + "; % of peak: " + kHowPeak + "\n",
                  clock_line(r.clock, r.clock_note) + "\n"};
    t.meta = {{"device", device_json(*dev)},
              {"clock", events ? "device events" : "host clock"},
              {"how", json{{"time", kHowTime}, {"gbps", kHowGbps}, {"peak", kHowPeak}}},
              {"all_ok", r.all_ok()}};
  }
  return t;
}
}  // namespace

std::string descriptor_bench_text(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  return render_text(table_of(r, &dev));
}

std::string descriptor_bench_csv(const DescriptorBenchRun& r) { return render_csv(table_of(r, nullptr)); }

std::string descriptor_bench_csv_header() { return render_csv(table_of({})); }

std::string descriptor_bench_csv_line(const DescriptorBenchRow& row) { return render_csv_rows(table_of({&row})); }

json descriptor_bench_json(const DescriptorBenchRun& r, const DeviceInfo& dev) { return render_json(table_of(r, &dev)); }

}  // namespace clreduce
