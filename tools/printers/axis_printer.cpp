// Renderings of one axis reduction.
#include "printers/axis_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <algorithm>
#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
json plan_json(const AxisPlan& p) {
  json passes = json::array();
  for (const AxisPassPlan& a : p.passes)
    passes.push_back({{"kernel", a.kernel}, {"m", a.m}, {"n", a.n}, {"chunk_len", a.chunk_len}, {"groups_x", a.groups_x},
                      {"groups_y", a.groups_y}, {"wg_x", a.wg_x}, {"wg_y", a.wg_y}, {"values_out", a.values_out},
                      {"options", a.options}});
  return json{{"variant", p.variant->name}, {"axis", std::string(name_of(p.axis))}, {"m", p.m}, {"n", p.n},
              {"wg", p.wg}, {"row_width", p.row_width}, {"tile_x", p.tile_x}, {"rows_y", p.rows_y},
              {"chunks", p.chunks}, {"depth", p.depth}, {"passes", passes}};
}
}  // namespace

std::string axis_source_text(const AxisReport& r) {
  if (r.chosen_by == "tuned")
    return "tuned (class " + r.shape_class + (r.tuned_date.empty() ? std::string() : ", " + r.tuned_date) + "; " +
           join(r.tuned) + " from " + r.tuned_from + ")";
  if (r.chosen_by.empty()) return "class " + r.shape_class;
  return r.chosen_by + " (class " + r.shape_class + ")";
}

std::string first_outputs_text(const Outputs& o, const std::string& what, std::size_t most) {
  std::string s;
  const std::size_t shown = std::min(most, o.size());
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) s += "; ";
    s += o.size() == 1 && what == "whole array" ? what + ": " : what + " " + std::to_string(i) + ": ";
    s += o.values[i].str();
    if (!o.indexes.empty()) s += " at " + (o.indexes[i] == kNoIndex ? std::string("none") : std::to_string(o.indexes[i]));
  }
  if (shown < o.size()) s += " (first " + std::to_string(shown) + " of " + std::to_string(o.size()) + ")";
  return s;
}

json first_outputs_json(const Outputs& o, std::size_t most) {
  json a = json::array();
  for (std::size_t i = 0; i < std::min(most, o.size()); ++i) {
    json e{{"value", o.values[i].str()}};
    if (!o.indexes.empty()) e["index"] = o.indexes[i] == kNoIndex ? json(nullptr) : json(o.indexes[i]);
    a.push_back(e);
  }
  return a;
}

std::string axis_text(const AxisReport& r, const DeviceInfo& dev) {
  const AxisPlan& p = r.plan;
  std::ostringstream out;
  out << "device     " << dev.label() << "\n"
      << "reduction  " << p.variant->name << ": " << name_of(r.config.op) << " of every "
      << (p.axis == Axis::Rows ? "row" : "column") << " of a " << p.m << "x" << p.n << " "
      << name_of(r.config.type) << " matrix (M rows x N columns, row-major, " << r.data_origin << ") -> "
      << p.outputs() << " values\n"
      << "launch     " << p.launch_label() << ", " << p.passes.size() << (p.passes.size() == 1 ? " pass" : " passes")
      << "\n"
      << "chosen by  " << axis_source_text(r) << "\n";
  for (std::size_t i = 0; i < p.passes.size(); ++i)
    out << "pass " << i + 1 << "     groups " << p.passes[i].groups_x << "x" << p.passes[i].groups_y << ", options "
        << p.passes[i].options << "\n";
  const bool whole = p.m == 1 && p.axis == Axis::Rows && r.whole_array;
  out << "result     " << first_outputs_text(r.outputs, whole ? "whole array" : p.axis == Axis::Rows ? "row" : "column")
      << "\n"
      << clock_line(r.timing.clock, r.clock_note) << "check      " << (r.ok() ? "ok: " : "FAILED: ")
      << (whole && r.check.ok ? std::string("the whole array exact") : r.check.detail) << " (output poisoned before the run)\n"
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
      << "bandwidth  " << fixed(r.gbps, 1) << " GB/s (" << p.m * p.n * size_of(r.config.type)
      << " bytes read / median)\n";
  return out.str();
}

std::string axis_csv(const AxisReport& r) {
  TextTable t;
  t.headers = {"variant", "axis", "type", "op", "m", "n", "launch", "passes", "min_us", "median_us", "max_us",
               "single_call_median_us", "single_call_events_median_us", "GB_per_s", "check"};
  t.rows.push_back({r.plan.variant->name, std::string(name_of(r.plan.axis)), std::string(name_of(r.config.type)),
                    std::string(name_of(r.config.op)), std::to_string(r.plan.m), std::to_string(r.plan.n),
                    r.plan.launch_label(), std::to_string(r.plan.passes.size()), fixed(r.timing.whole_us.min, 3),
                    fixed(r.timing.whole_us.median, 3), fixed(r.timing.whole_us.max, 3),
                    fixed(r.timing.single_us.median, 3), fixed(r.timing.single_events_us.median, 3), fixed(r.gbps, 2),
                    r.ok() ? "ok" : "FAILED"});
  return t.render_csv();
}

json timed_outputs_json(const Sampled& timing, double gbps, const AxisCheck& check) {
  return json{{"time_us", stats_json(timing.whole_us)},
              {"single_call_us", stats_json(timing.single_us)},
              {"single_call_events_us", stats_json(timing.single_events_us)},
              {"batch", timing.batch},
              {"samples", timing.repetitions},
              {"clock", std::string(name_of(timing.clock))},
              {"gbps", gbps},
              {"check",
               {{"ok", check.ok}, {"failures", check.failures}, {"detail", check.detail},
                {"worst_rel_error", check.worst_rel_error}}},
              {"ok", check.ok}};
}

json axis_json(const AxisReport& r, const DeviceInfo& dev) {
  json j{{"device", device_json(dev)},
         {"plan", plan_json(r.plan)},
         {"type", std::string(name_of(r.config.type))},
         {"op", std::string(name_of(r.config.op))},
         {"data", r.data_origin},
         {"bytes_read", r.plan.m * r.plan.n * size_of(r.config.type)},
         {"whole_array", r.whole_array},
         {"chosen_by", r.chosen_by},
         {"shape_class", r.shape_class},
         {"tuned", r.tuned},
         {"tuned_date", r.tuned_date},
         {"tuned_from", r.tuned_from},
         {"first_outputs", first_outputs_json(r.outputs)}};
  j.update(timed_outputs_json(r.timing, r.gbps, r.check));
  return j;
}

}  // namespace clreduce
