// Renderings of one segmented reduction: its text report, and its CSV row and JSON from the result
// model.
#include "printers/segmented_printer.hpp"

#include "parse.hpp"
#include "printers/axis_printer.hpp"
#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

std::string segmented_text(const SegmentedReport& r, const DeviceInfo& dev) {
  const SegmentedPlan& p = r.plan;
  std::ostringstream out;
  out << "device     " << dev.label() << "\n"
      << "reduction  " << p.kernel << ": " << name_of(r.config.op) << " of every segment of " << p.n << " "
      << name_of(r.config.type) << " elements (" << r.data_origin << ") in " << p.segments
      << (p.segments == 1 ? " segment" : " segments")
      << (r.segments_origin.empty() ? std::string() : " (" + r.segments_origin + ")") << " -> " << p.segments
      << (p.segments == 1 ? " value" : " values") << "\n"
      << "segments   " << r.empty_segments << " empty, longest " << r.longest_segment << " elements\n"
      << "launch     " << p.launch_label() << ", options " << p.options << "\n"
      << "result     " << first_outputs_text(r.outputs, "segment") << "\n"
      << clock_line(r.timing.clock, r.clock_note) << "check      " << (r.ok() ? "ok: " : "FAILED: ")
      << r.check.detail << " (output poisoned before the run)\n"
      << "time       " << r.timing.repetitions << " samples"
      << (r.timing.batch > 1 ? " of " + std::to_string(r.timing.batch) + " back-to-back" : "")
      << ": min " << stats_cell(r.timing.whole_us.min) << " µs, median " << stats_cell(r.timing.whole_us.median)
      << " µs, max " << stats_cell(r.timing.whole_us.max) << " µs, spread " << spread_cell(r.timing.whole_us)
      << " (interquartile range / median)\n"
      << "1 call     median " << stats_cell(r.timing.single_us.median)
      << " µs by the host clock (enqueue and wait, queue without profiling)"
      << (r.timing.clock == TimeSource::DeviceEvents
              ? ", " + stats_cell(r.timing.single_events_us.median) + " µs by device events (a marker before it to its last end)"
              : std::string())
      << "\n"
      << "bandwidth  " << fixed(r.gbps, 1) << " GB/s (" << r.bytes_read()
      << " bytes read, elements and offsets / median)\n";
  return out.str();
}

namespace {
// One segmented reduction's CSV row and JSON object: its columns declared once (the result model,
// measure/result_table.hpp), both formats from the generic printers.
ResultTable table_of(const SegmentedReport& report) {
  using R = SegmentedReport;
  using L = const R*;  // the report, not a copy of its outputs
  static const std::vector<ColumnOf<L>> c = join<L>({
      {{{"kernel", "", "", "kernel"}, [](L r) { return Cell(r->plan.kernel); }},
       {{"type", "type", "", "type"}, [](L r) { return Cell(std::string(name_of(r->config.type))); }},
       {{"op", "op", "", "op"}, [](L r) { return Cell(std::string(name_of(r->config.op))); }},
       {{"n", "", "", "n", Unit::Count}, [](L r) { return u64(r->plan.n); }},
       {{"segments", "", "", "segments", Unit::Count}, [](L r) { return u64(r->plan.segments); }},
       {{"empty_segments", "empty_segments", "", "empty_segments", Unit::Count}, [](L r) { return u64(r->empty_segments); }},
       {{"longest_segment", "longest_segment", "", "longest_segment", Unit::Count}, [](L r) { return u64(r->longest_segment); }},
       {{"launch", "", "", "launch"}, [](L r) { return Cell(r->plan.launch_label()); }}},
      time_columns<L, Sampled>([](L r) { return &r->timing; }, kSingle | kSingleEvents),
      {{{"gbps", "", "", "GB_per_s", Unit::Number, 1, 2}, [](L r) { return Cell(r->gbps); }},
       {{"check", "", "", "check"}, [](L r) { return Cell(std::string(r->ok() ? "ok" : "FAILED")); }},
       // JSON only.
       {{"plan", "plan", "", ""}, [](L r) {
          const SegmentedPlan& p = r->plan;
          return Cell(json{{"kernel", p.kernel}, {"finish_kernel", p.finish_kernel}, {"n", p.n}, {"segments", p.segments},
                           {"wg", p.wg}, {"parts", p.parts}, {"items", p.items}, {"groups", p.groups}, {"options", p.options}});
        }},
       {{"data", "data", "", ""}, [](L r) { return Cell(r->data_origin); }},
       {{"segments_file", "segments_file", "", ""}, [](L r) { return Cell(r->segments_origin); }},
       {{"bytes_read", "bytes_read", "", ""}, [](L r) { return u64(r->bytes_read()); }},
       {{"first_outputs", "first_outputs", "", ""}, [](L r) { return Cell(first_outputs_json(r->outputs)); }},
       {{"timed", "*", "", ""}, [](L r) { return Cell(timed_outputs_json(r->timing, r->gbps, r->check)); }}}});
  return tabulate(c, std::vector<L>{&report});
}
}  // namespace

std::string segmented_csv(const SegmentedReport& r) { return render_csv(table_of(r)); }

json segmented_json(const SegmentedReport& r, const DeviceInfo& dev) {
  json j = render_json_rows(table_of(r))[0];
  j["device"] = device_json(dev);
  TableView v;
  v.text.push_back({segmented_text(r, dev), std::nullopt});
  v.csv = table_of(r);
  return with_table(j, "reduce_segments", v);
}

}  // namespace clreduce
