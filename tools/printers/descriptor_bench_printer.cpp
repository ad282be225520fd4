// Renderings of the descriptor benchmark: one model of each row (Line) for every format.
#include "printers/descriptor_bench_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
struct Line {
  const DescriptorBenchRow& row;
  const DescriptorReport* report() const { return row.report ? &*row.report : nullptr; }
  std::string family() const { return std::string(name_of(row.family)); }
  // "8192x8192" for rows and columns; the element count of a whole array ("2^26").
  std::string shape() const {
    return row.family == DescriptorJob::Family::Whole ? size_label(row.n) : shape_label(row.m, row.n);
  }
  std::string resolved() const { return report() ? report()->launch.label() : ""; }
  std::string status() const {
    const bool ran = row.error.empty() && report();
    return status_cell(!row.refused.empty(), ran, ran && report()->ok(), ran && report()->timing.timer_suspect);
  }
  std::string reason() const { return !row.refused.empty() ? row.refused : row.error; }
  std::string accumulator() const { return report() ? accumulator_str(report()->reduction) : ""; }
};

const char* const kHowTime =
    "one launch per reduction, median of samples, back-to-back (a batch enqueued together, first start to last "
    "end / batch); 1 call: one reduction enqueued alone and waited for, host clock";
const char* const kHowGbps = "the bytes of every input the reduction reads / back-to-back median";
const char* const kHowPeak =
    "GB/s / the read peak: a plain streaming-read kernel (stream_read.cl) over as many bytes (the first input's "
    "buffer, or one buffer of all inputs' bytes), measured at each point";
}  // namespace

std::string descriptor_bench_text(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device:  " << dev.label() << ", " << dev.compute_units << " compute units\n"
      << "reduce:  each reduction descriptor over the whole array, every row or every column (row-major M x N), "
         "every result checked against its host reference\n"
      << "time:    " << kHowTime << "; by "
      << (r.clock == TimeSource::DeviceEvents ? "the device's events" : "the host clock") << "\n"
      << "GB/s:    " << kHowGbps << "; % of peak: " << kHowPeak << "\n"
      << clock_line(r.clock, r.clock_note) << "\n";
  TextTable t;
  t.headers = {"reduction", "inputs", "family", "shape", "launch", "resolved", "private B", "median µs", "1 call µs",
               bandwidth_label(), "% of peak", "check"};
  bool marked = false;
  for (const DescriptorBenchRow& row : r.rows) {
    const Line l{row};
    if (const DescriptorReport* d = l.report()) {
      t.rows.push_back({row.reduction, row.types, l.family(), l.shape(), row.launch, l.resolved(),
                        std::to_string(d->launch.private_bytes), stats_cell(d->timing.whole_us.median), stats_cell(d->timing.single_us.median),
                        bandwidth_cell(d->read_gbs(), 1), pct_of_peak_cell(d->pct_of_peak(), 1), l.status()});
      marked = marked || above_peak(d->pct_of_peak());
    } else {
      t.rows.push_back({row.reduction, row.types, l.family(), l.shape(), row.launch, "-", "-", "-", "-", "-", "-", l.status()});
    }
  }
  out << t.render_text();
  if (marked) out << kAbovePeakNote;
  for (const DescriptorBenchRow& row : r.rows) {
    const Line l{row};
    const std::string what = row.reduction + " " + row.types + " " + l.family() + " " + l.shape() + " " + row.launch;
    if (!l.reason().empty()) out << "\n" << what << " " << l.status() << ": " << l.reason();
    if (l.report() && !l.report()->ok()) out << "\n" << what << " check: " << l.report()->check.detail;
  }
  out << "\n";
  return out.str();
}

namespace {
TextTable csv_table(const std::vector<const DescriptorBenchRow*>& rows) {
  TextTable t;
  t.headers = {"reduction", "inputs", "accumulator", "family", "m", "n", "launch", "resolved", "options", "private_bytes",
               "depth", "bytes_read", "median_us", "min_us", "max_us", "single_call_median_us", bandwidth_csv_label(),
               "peak_" + bandwidth_csv_label(), "pct_of_read_peak", "check", "reason"};
  for (const DescriptorBenchRow* p : rows) {
    const DescriptorBenchRow& row = *p;
    const Line l{row};
    const DescriptorReport* d = l.report();
    const auto num = [&](double x) { return d ? std::to_string(x) : std::string(); };
    t.rows.push_back({row.reduction, row.types, l.accumulator(), l.family(), std::to_string(row.m),
                      std::to_string(row.n), row.launch, l.resolved(), d ? d->launch.options : "",
                      d ? std::to_string(d->launch.private_bytes) : "", d ? std::to_string(d->launch.depth) : "",
                      d ? std::to_string(d->bytes_read) : "",
                      num(d ? d->timing.whole_us.median : 0), num(d ? d->timing.whole_us.min : 0),
                      num(d ? d->timing.whole_us.max : 0), num(d ? d->timing.single_us.median : 0),
                      num(d ? bandwidth_in_unit(d->read_gbs()) : 0), num(d ? bandwidth_in_unit(d->peak.gbps) : 0),
                      num(d ? d->pct_of_peak() : 0), l.status(),
                      !l.reason().empty() ? l.reason() : (d && !d->ok() ? d->check.detail : "")});
  }
  return t;
}
}  // namespace

std::string descriptor_bench_csv(const DescriptorBenchRun& r) {
  std::vector<const DescriptorBenchRow*> rows;
  for (const DescriptorBenchRow& row : r.rows) rows.push_back(&row);
  return csv_table(rows).render_csv();
}

std::string descriptor_bench_csv_header() { return csv_table({}).render_csv(); }

std::string descriptor_bench_csv_line(const DescriptorBenchRow& row) {
  const std::string both = csv_table({&row}).render_csv();
  return both.substr(descriptor_bench_csv_header().size());
}

json descriptor_bench_json(const DescriptorBenchRun& r, const DeviceInfo& dev) {
  json rows = json::array();
  for (const DescriptorBenchRow& row : r.rows) {
    const Line l{row};
    json j{{"reduction", row.reduction}, {"inputs", row.types}, {"family", l.family()},
           {"m", row.m},                 {"n", row.n},          {"launch", row.launch},
           {"status", l.status()}};
    if (!row.refused.empty()) j["refused"] = row.refused;
    if (!row.error.empty()) j["error"] = row.error;
    if (const DescriptorReport* d = l.report()) {
      j["accumulator"] = accumulator_str(d->reduction);
      j["result_layout"] = d->out_layout_str();
      j["result"] = d->result.str();
      j["results"] = d->results.size();
      j["resolved"] = json{{"kernel", d->launch.kernel}, {"label", d->launch.label()}, {"wg", d->launch.wg},
                           {"groups", d->launch.groups}, {"vec", d->launch.vec},   {"items", d->launch.items},
                           {"row_width", d->launch.row_width}, {"chunks", d->launch.chunks},
                           {"tile_x", d->launch.tile_x}, {"rows_y", d->launch.rows_y},
                           {"depth", d->launch.depth},   {"options", d->launch.options},
                           {"private_bytes", d->launch.private_bytes}};
      j["check"] = json{{"ok", d->check.ok}, {"detail", d->check.detail}, {"reference", d->reference_how}};
      j["bytes_read"] = d->bytes_read;
      j["back_to_back_us"] = stats_json(d->timing.whole_us);
      j["one_call_us"] = stats_json(d->timing.single_us);
      j["batch"] = d->timing.batch;
      j["timer_suspect"] = d->timing.timer_suspect;
      j["read_GB_per_s"] = d->read_gbs();
      j["peak"] = peak_json(d->peak);
      j["pct_of_read_peak"] = d->pct_of_peak();
      j["above_peak"] = above_peak(d->pct_of_peak());
    }
    rows.push_back(std::move(j));
  }
  return json{{"device", device_json(dev)},
              {"clock", r.clock == TimeSource::DeviceEvents ? "device events" : "host clock"},
              {"how", json{{"time", kHowTime}, {"gbps", kHowGbps}, {"peak", kHowPeak}}},
              {"rows", rows},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
