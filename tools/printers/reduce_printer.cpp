// Renderings of the device list and of one measured reduction (text, CSV, JSON).
#include "printers/reduce_printer.hpp"

#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

json device_json(const DeviceInfo& d) {
  return json{{"platform_index", d.platform_index},
              {"device_index", d.device_index},
              {"platform", d.platform_name},
              {"platform_vendor", d.platform_vendor},
              {"platform_version", d.platform_version},
              {"name", d.name},
              {"vendor", d.vendor},
              {"type", d.type_name},
              {"driver_version", d.driver_version},
              {"device_version", d.device_version},
              {"opencl_c_version", d.opencl_c_version},
              {"compute_units", d.compute_units},
              {"max_work_group_size", d.max_work_group_size},
              {"local_mem_bytes", d.local_mem_bytes},
              {"max_alloc_bytes", d.max_alloc_bytes},
              {"global_mem_bytes", d.global_mem_bytes},
              {"lockstep_width", d.lockstep_width},
              {"lockstep_source", d.lockstep_source},
              {"loop_trip_limit", d.loop_trip_limit},
              {"timer_resolution_ns", d.timer_resolution_ns},
              {"resident_items_per_cu", d.resident_items_per_cu},
              {"resident_groups_limit", d.resident_groups_limit},
              {"occupancy_source", d.occupancy_source},
              {"fp64", d.fp64}};
}

std::string devices_text(const std::vector<DeviceInfo>& all) {
  std::ostringstream out;
  std::size_t last_platform = static_cast<std::size_t>(-1);
  for (const auto& d : all) {
    if (d.platform_index != last_platform) {
      out << "platform " << d.platform_index << ": " << d.platform_name << " (" << d.platform_vendor
          << ", " << d.platform_version << ")\n";
      last_platform = d.platform_index;
    }
    out << "  device " << d.platform_index << ":" << d.device_index << ": " << d.name << " ["
        << d.type_name << "]\n"
        << "    driver " << d.driver_version << ", " << d.opencl_c_version << "\n"
        << "    compute units " << d.compute_units << ", max work-group " << d.max_work_group_size
        << ", local memory " << bytes_human(d.local_mem_bytes) << ", max allocation "
        << bytes_human(d.max_alloc_bytes) << " of " << bytes_human(d.global_mem_bytes) << "\n"
        << "    lockstep width "
        << (d.lockstep_width ? std::to_string(d.lockstep_width) + " (" + d.lockstep_source + ")"
                             : std::string("unknown (none reported: lockstep tails keep barriers)"))
        << ", timer resolution " << d.timer_resolution_ns << " ns, fp64 "
        << (d.fp64 ? "yes" : "no") << "\n";
    if (d.loop_trip_limit)
      out << "    loops end after " << d.loop_trip_limit
          << " iterations per kernel invocation (Mesa's llvmpipe): a work-item that loops longer gives a wrong value\n";
  }
  return out.str();
}

namespace {
json plan_json(const Plan& p) {
  json passes = json::array();
  for (const auto& pass : p.passes)
    passes.push_back(json{{"count", pass.count},
                          {"groups", pass.groups},
                          {"wg", pass.wg},
                          {"times", pass.times},
                          {"vec", pass.vec},
                          {"options", pass.options}});
  return json{{"variant", p.variant->name}, {"depth", p.depth}, {"passes", passes}};
}

}  // namespace

json report_core_json(const ReduceReport& r) {
  return json{{"variant", r.config.variant},
              {"type", std::string(name_of(r.config.type))},
              {"op", std::string(name_of(r.config.op))},
              {"n", r.n},
              {"data", r.data_origin},
              {"wg", r.plan.passes.front().wg},
              {"times", r.plan.passes.front().times},
              {"vec", r.plan.passes.front().vec},
              {"passes", r.plan.passes.size()},
              {"groups_per_cu", r.config.groups_per_cu ? json(*r.config.groups_per_cu) : json()},
              {"plan", plan_json(r.plan)},
              {"result", r.timed.value.str()},
              {"reference", r.reference.value.str()},
              {"check", {{"ok", r.ok()}, {"tolerance", r.check.tolerance}, {"error", r.check.error},
                         {"rel_error", r.check.rel_error >= 0 ? json(r.check.rel_error) : json()},
                         {"detail", r.check.detail}, {"consistent", r.timed.consistent}}},
              {"time_us", stats_json(r.timed.whole_us)},
              {"first_pass_us", stats_json(r.timed.first_pass_us)},
              {"single_call_us", stats_json(r.timed.single_us)},
              {"single_call_events_us", stats_json(r.timed.single_events_us)},
              {"batch", r.timed.batch},
              {"repetitions", r.timed.repetitions},
              {"gbps", r.gbps},
              {"chunks", r.chunks},
              {"clock", std::string(name_of(r.timed.clock))},
              {"clock_note", r.timed.clock_note},
              {"host_time_us", stats_json(r.timed.host_whole_us)},
              {"timer_suspect", r.timed.timer_suspect},
              {"cache", r.timed.cold ? "cold" : "warm"},
              {"noise_target_pct", r.timed.noise_target_pct},
              {"noise_reached", r.timed.noise_reached},
              {"chosen_by", r.chosen_by},
              {"tuned", r.tuned},
              {"tuning_db", r.tuned_from.empty() ? json() : json(r.tuned_from)},
              {"warnings", r.warnings}};
}

std::string noise_cell(const Timed& t) { return spread_cell(t.whole_us) + (t.noise_reached ? "" : " !"); }

json reduce_json(const ReduceReport& r, const DeviceInfo& dev) {
  json j = report_core_json(r);
  j["device"] = device_json(dev);
  return j;
}

std::string reduce_text(const ReduceReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device     " << dev.label() << "\n"
      << "reduction  " << r.config.variant << ", " << name_of(r.config.op) << " of " << r.n << " "
      << name_of(r.config.type) << " (" << r.data_origin << ")\n"
      << "result     " << r.timed.value.str() << "\n"
      << "reference  " << r.reference.value.str() << "\n"
      << "check      " << (r.ok() ? "ok: " : "FAILED: ") << r.check.detail << "\n";
  if (r.chunks > 1)
    out << "chunks     " << r.chunks << " input buffers of up to " << r.chunk_elements
        << " elements (n is over CL_DEVICE_MAX_MEM_ALLOC_SIZE); each reduced on the device as "
           "planned below, their values folded on the host\n";
  if (r.chosen_by != "given") out << "variant    chosen by " << r.chosen_by << "\n";
  if (!r.tuned.empty())
    out << "tuned      " << join(r.tuned) << " from the tuning database " << r.tuned_from
        << " (options given override it; --no-tuning: the built-in defaults)\n";
  if (r.check.rel_error >= 0)
    out << "accuracy   relative error " << rel_error_cell(r.check.rel_error)
        << (r.config.op == Op::User ? " against the in-order fold of the user's operator on the device\n"
                                    : " against the compensated (Neumaier, long double) host sum\n");
  TextTable t;
  t.headers = {"pass", "elements", "groups", "wg", "times", "vec", "options"};
  for (std::size_t i = 0; i < r.plan.passes.size(); ++i) {
    const auto& p = r.plan.passes[i];
    t.rows.push_back({std::to_string(i + 1), std::to_string(p.count), std::to_string(p.groups),
                      std::to_string(p.wg), std::to_string(p.times), std::to_string(p.vec), p.options});
  }
  out << "\n" << t.render_text() << "\n";
  out << "time (whole reduction, " << r.timed.repetitions << " samples"
      << (r.timed.batch > 1 ? ", each a batch of " + std::to_string(r.timed.batch) + " back-to-back" : "")
      << "): min " << stats_cell(r.timed.whole_us.min) << " µs, median "
      << stats_cell(r.timed.whole_us.median) << " µs, max " << stats_cell(r.timed.whole_us.max)
      << " µs, spread " << spread_cell(r.timed.whole_us) << " (interquartile range / median)\n"
      << "first pass: min " << stats_cell(r.timed.first_pass_us.min) << " µs, median "
      << stats_cell(r.timed.first_pass_us.median) << " µs, max "
      << stats_cell(r.timed.first_pass_us.max) << " µs\n"
      << "one call at a time (enqueue, wait; " << r.timed.repetitions
      << " samples): host clock on a queue without profiling min "
      << stats_cell(r.timed.single_us.min) << " µs, median " << stats_cell(r.timed.single_us.median)
      << " µs, max " << stats_cell(r.timed.single_us.max)
      << " µs; device clock from a profiled marker median "
      << stats_cell(r.timed.single_events_us.median) << " µs\n"
      << clock_line(r.timed.clock, r.timed.clock_note)
      << (r.timed.timer_suspect ? "timer:  SUSPECT: the device clock gave " + stats_cell(r.timed.whole_us.median) +
                                      " µs per reduction where the host clock saw " +
                                      stats_cell(r.timed.host_whole_us.median) + " µs; the GB/s below is not trusted\n"
                                : std::string())
      << "bandwidth:  " << fixed(r.gbps, 1) << " GB/s (" << r.n * size_of(r.config.type)
      << " bytes / median)\n";
  return out.str();
}

std::string reduce_csv(const ReduceReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "op", "n", "wg", "times", "vec", "passes", "min_us", "median_us",
               "max_us", "first_pass_median_us", "single_call_median_us",
               "single_call_events_median_us", "GB_per_s", "result", "reference", "check",
               "rel_error", "clock", "timer_suspect"};
  t.rows.push_back({r.config.variant, std::string(name_of(r.config.type)),
                    std::string(name_of(r.config.op)), std::to_string(r.n),
                    std::to_string(r.plan.passes.front().wg), std::to_string(r.plan.passes.front().times),
                    std::to_string(r.plan.passes.front().vec), std::to_string(r.plan.passes.size()),
                    fixed(r.timed.whole_us.min, 3), fixed(r.timed.whole_us.median, 3),
                    fixed(r.timed.whole_us.max, 3), fixed(r.timed.first_pass_us.median, 3),
                    fixed(r.timed.single_us.median, 3), fixed(r.timed.single_events_us.median, 3),
                    fixed(r.gbps, 2), r.timed.value.str(), r.reference.value.str(),
                    r.ok() ? "ok" : "FAILED", rel_error_cell(r.check.rel_error),
                    std::string(name_of(r.timed.clock)), r.timed.timer_suspect ? "1" : "0"});
  return t.render_csv();
}

}  // namespace clreduce
