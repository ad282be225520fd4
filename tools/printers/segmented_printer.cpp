// Renderings of one segmented reduction.
#include "printers/segmented_printer.hpp"

#include "parse.hpp"
#include "printers/axis_printer.hpp"
#include "printers/reduce_printer.hpp"
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

std::string segmented_csv(const SegmentedReport& r) {
  TextTable t;
  t.headers = {"kernel", "type", "op", "n", "segments", "empty_segments", "longest_segment", "launch", "min_us",
               "median_us", "max_us", "single_call_median_us", "single_call_events_median_us", "GB_per_s", "check"};
  t.rows.push_back({r.plan.kernel, std::string(name_of(r.config.type)), std::string(name_of(r.config.op)),
                    std::to_string(r.plan.n), std::to_string(r.plan.segments), std::to_string(r.empty_segments),
                    std::to_string(r.longest_segment), r.plan.launch_label(), fixed(r.timing.whole_us.min, 3),
                    fixed(r.timing.whole_us.median, 3), fixed(r.timing.whole_us.max, 3),
                    fixed(r.timing.single_us.median, 3), fixed(r.timing.single_events_us.median, 3), fixed(r.gbps, 2),
                    r.ok() ? "ok" : "FAILED"});
  return t.render_csv();
}

json segmented_json(const SegmentedReport& r, const DeviceInfo& dev) {
  const SegmentedPlan& p = r.plan;
  json j{{"device", device_json(dev)},
         {"plan",
          {{"kernel", p.kernel}, {"finish_kernel", p.finish_kernel}, {"n", p.n}, {"segments", p.segments},
           {"wg", p.wg}, {"parts", p.parts}, {"items", p.items}, {"groups", p.groups}, {"options", p.options}}},
         {"type", std::string(name_of(r.config.type))},
         {"op", std::string(name_of(r.config.op))},
         {"data", r.data_origin},
         {"segments_file", r.segments_origin},
         {"empty_segments", r.empty_segments},
         {"longest_segment", r.longest_segment},
         {"bytes_read", r.bytes_read()},
         {"first_outputs", first_outputs_json(r.outputs)}};
  j.update(timed_outputs_json(r.timing, r.gbps, r.check));
  return j;
}

}  // namespace clreduce
