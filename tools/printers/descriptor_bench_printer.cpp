// Renderings of the descriptor benchmark: its columns declared once (the result model,
// measure/result_table.hpp), every format from the generic printers.
#include "printers/descriptor_bench_printer.hpp"

#include "parse.hpp"
#include "printers/common_columns.hpp"
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

// One row as the columns read it.
struct Line {
  const DescriptorBenchRow* row;
  const DescriptorReport* d;  // null where it did not run
  std::string family, shape, status, reason;
  explicit Line(const DescriptorBenchRow& r)
      : row(&r),
        d(r.report ? &*r.report : nullptr),
        family(name_of(r.family)),
        shape(r.family == DescriptorJob::Family::Whole ? size_label(r.n) : shape_label(r.m, r.n)),
        status(status_cell(!r.refused.empty(), r.error.empty() && d, r.error.empty() && d && d->ok(),
                           r.error.empty() && d && d->timing.timer_suspect)),
        reason(!r.refused.empty() ? r.refused : r.error) {}
};

using Col = ColumnOf<Line>;

// {{key, json path, text header, csv header, unit}, cell}: the text table, the CSV and the JSON rows
// each take the columns that name a header or a path there, in this order.
const std::vector<Col>& columns() {
  using D = DescriptorReport;
  const PartOf<Line, Sampled> timing = [](const Line& l) { return l.d ? &l.d->timing : nullptr; };
  static const std::vector<Col> c = join<Line>({
      {{{"reduction", "reduction", "reduction", "reduction"}, [](const Line& l) { return Cell(l.row->reduction); }},
       {{"inputs", "inputs", "inputs", "inputs"}, [](const Line& l) { return Cell(l.row->types); }},
       {{"accumulator", "accumulator", "", "accumulator"}, when(&Line::d, [](const D& d) { return accumulator_str(d.reduction); })},
       {{"family", "family", "family", "family"}, [](const Line& l) { return Cell(l.family); }},
       {{"m", "m", "", "m", Unit::Count}, [](const Line& l) { return u64(l.row->m); }},
       {{"n", "n", "", "n", Unit::Count}, [](const Line& l) { return u64(l.row->n); }},
       {{"shape", "", "shape", ""}, [](const Line& l) { return Cell(l.shape); }},  // "8192x8192"; whole: "2^26"
       {{"launch", "launch", "launch", "launch"}, [](const Line& l) { return Cell(l.row->launch); }},
       {{"resolved", "resolved/label", "resolved", "resolved"}, when(&Line::d, [](const D& d) { return d.launch.label(); })},
       {{"options", "resolved/options", "", "options"}, when(&Line::d, [](const D& d) { return d.launch.options; })},
       {{"private_bytes", "resolved/private_bytes", "private B", "private_bytes", Unit::Count},
        when(&Line::d, [](const D& d) { return u64(d.launch.private_bytes); })},
       {{"depth", "resolved/depth", "", "depth", Unit::Count}, when(&Line::d, [](const D& d) { return u64(d.launch.depth); })},
       {{"bytes_read", "bytes_read", "", "bytes_read", Unit::Count}, when(&Line::d, [](const D& d) { return u64(d.bytes_read); })}},
      time_columns(timing, kMedianFirst | kSingle, -1),
      {{{"gbps", "read_GB_per_s", "$bw", "$bw", Unit::Bandwidth}, when(&Line::d, [](const D& d) { return d.read_gbs(); })}},
      peak_columns<Line>([](const Line& l) { return l.d ? &l.d->peak : nullptr; },
                         [](const Line& l) { return l.d ? std::optional(l.d->pct_of_peak()) : std::nullopt; },
                         {"peak_$bw", "pct_of_read_peak", "pct_of_read_peak", "peak", true, Unit::Bandwidth, -1}),
      // Why it was refused, its error, or where it failed its check, the check's detail.
      check_columns<Line>([](const Line& l) { return l.status; },
                          [](const Line& l) { return !l.reason.empty() ? l.reason : l.d && !l.d->ok() ? l.d->check.detail : ""; },
                          [](const Line& l) { return l.row->refused; }, [](const Line& l) { return l.row->error; }),
      // JSON only.
      {{{"result_layout", "result_layout", "", ""}, when(&Line::d, [](const D& d) { return d.out_layout_str(); })},
       {{"result", "result", "", ""}, when(&Line::d, [](const D& d) { return d.result.str(); })},
       {{"results", "results", "", ""}, when(&Line::d, [](const D& d) { return u64(d.results.size()); })},
       {{"launch_json", "resolved", "", ""}, when(&Line::d, [](const D& d) {
          const DescriptorLaunch& l = d.launch;
          return json{{"kernel", l.kernel}, {"wg", l.wg}, {"groups", l.groups}, {"vec", l.vec}, {"items", l.items},
                      {"row_width", l.row_width}, {"chunks", l.chunks}, {"tile_x", l.tile_x}, {"rows_y", l.rows_y}};
        })},
       {{"check", "check", "", ""}, when(&Line::d, [](const D& d) {
          return json{{"ok", d.check.ok}, {"detail", d.check.detail}, {"reference", d.reference_how}};
        })}},
      time_json_columns(timing, "back_to_back_us", "one_call_us")});
  return c;
}

ResultTable table_of(const std::vector<const DescriptorBenchRow*>& rows) {
  std::vector<Line> lines;
  for (const DescriptorBenchRow* row : rows) lines.emplace_back(*row);
  ResultTable t = tabulate(columns(), lines);
  for (const Line& l : lines) {
    const std::string what = l.row->reduction + " " + l.row->types + " " + l.family + " " + l.shape + " " + l.row->launch;
    if (!l.reason.empty()) t.notes.push_back(what + " " + l.status + ": " + l.reason);
    if (l.d && !l.d->ok()) t.notes.push_back(what + " check: " + l.d->check.detail);
  }
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

namespace {
TableView view_of(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  TableView v;
  v.text.push_back({"", table_of(r, &dev)});
  v.text.back().table->meta = json::object();  // the JSON's keys, not the view's
  v.csv_part = 0;
  return v;
}
}  // namespace

std::string descriptor_bench_text(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  return render_text(view_of(r, dev));
}

std::string descriptor_bench_csv(const DescriptorBenchRun& r) { return render_csv(table_of(r, nullptr)); }

std::string descriptor_bench_csv_header() { return render_csv(table_of({})); }

std::string descriptor_bench_csv_line(const DescriptorBenchRow& row) { return render_csv_rows(table_of({&row})); }

json descriptor_bench_json(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  return with_table(render_json(table_of(r, &dev)), "bench_descriptors", view_of(r, dev));
}

}  // namespace clreduce
