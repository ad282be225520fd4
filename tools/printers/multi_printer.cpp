// Renderings of the multi-device benchmark: the whole per device count, then each device's part,
// so that a poor efficiency can be traced to the device (or the split) that held it back.
#include "printers/multi_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
// What is reduced: "n = 1000 uint (4 KB, random), operator sum", or a descriptor's inputs, its
// accumulator and result.
std::string input_line(const MultiBenchRun& run) {
  const MultiBenchDesign& d = run.design;
  std::ostringstream out;
  out << "n = " << run.n << " ";
  if (!d.reduction) {
    out << name_of(d.type) << " (" << bytes_human(run.n * run.element_bytes) << ", " << run.data_origin << "), operator "
        << name_of(d.op) << ", accumulator " << name_of(d.type)
        << (d.op == Op::Sum && !is_floating(d.type) ? " (sums wrap modulo 2^32)" : "");
    return out.str();
  }
  const Reduction& r = *d.reduction;
  for (std::size_t j = 0; j < r.inputs.size(); ++j) out << (j ? ", " : "") << name_of(r.inputs[j]);
  out << " (" << bytes_human(run.n * run.element_bytes) << ": " << run.data_origin << "), reduction " << r.name
      << (r.origin.empty() ? "" : " (" + r.origin + ")") << ", accumulator " << accumulator_str(r) << ", result "
      << r.out.str();
  if (!d.scalars.empty()) {
    out << ", scalars";
    for (const ScalarArg& a : d.scalars) out << " " << std::visit([](auto v) { std::ostringstream o; o << v; return o.str(); }, a);
  }
  return out.str();
}

std::string result_str(const MultiBenchRun& run, const MultiResult& m) {
  return run.design.reduction ? m.result.str() : m.value.str();
}

std::string check_cell(const MultiBenchRow& r) {
  if (!r.check.ok) return "FAILED";
  return r.repeatable ? "ok" : "NOT REPEATABLE";
}

TextTable whole_table(const MultiBenchRun& run) {
  TextTable t;
  t.headers = {"devices", "parts", "median µs", "spread", "min µs", "max µs", bandwidth_label(), "speedup",
               "efficiency", "tail µs", "check"};
  for (const MultiBenchRow& r : run.rows) {
    std::vector<std::string> parts;
    for (const DeviceShare& s : r.last.shares) parts.push_back(std::to_string(s.n));
    t.rows.push_back({std::to_string(r.devices), join(parts, "/"), stats_cell(r.us.median), spread_cell(r.us),
                      stats_cell(r.us.min), stats_cell(r.us.max), bandwidth_cell(r.gbps, 2), fixed(r.speedup, 2) + "x",
                      fixed(r.efficiency_pct, 1) + "%", stats_cell(r.tail_us.median), check_cell(r)});
  }
  return t;
}
}  // namespace

std::string multi_text(const MultiBenchRun& run) {
  const MultiBenchDesign& d = run.design;
  std::ostringstream out;
  out << "devices:";
  for (std::size_t i = 0; i < d.devices.size(); ++i)
    out << (i ? ";" : "") << " " << i << ": " << d.devices[i].label();
  out << "\ninput:   " << input_line(run) << ", "
      << (d.resident ? "resident (one buffer per device, written before timing)"
                     : "host-copied (each device copies its part in chunks, overlapped with its reductions)")
      << "\nsplit:   " << d.split.str()
      << (d.reduction ? "; each chunk's accumulator kept unfinished, all folded in device and chunk order on device 0, "
                        "which finishes the result (it does not depend on which device finishes first)\n"
                      : "; partials folded on the host in device order (the result does not depend on which device "
                        "finishes first)\n")
      << "time:    host clock of the whole call, median of " << d.iterations << " (after " << d.warmup
      << " warm-up); GB/s = input bytes / median; efficiency = speedup over the first row / devices;\n"
      << "         tail = the last part's value to the call's return (the other threads waited for, values folded), median;\n"
      << "         start (below) = the call's start to the part's start (handed to its thread), median\n\n";
  out << whole_table(run).render_text();
  for (std::size_t k : run.skipped)
    out << k << " device" << (k == 1 ? "" : "s") << ": not run ("
        << (k == 1 ? std::string("the first weight of the split is 0")
                   : "the first " + std::to_string(k) + " weights of the split are all 0")
        << "); speedup and efficiency are over the first row run\n";
  out << "\n";
  TextTable t;
  t.headers = {"devices", "device", "name", "n", "chunks", "variant", "start µs", "median µs", bandwidth_label(),
               d.reduction ? "part" : "value"};
  for (const MultiBenchRow& r : run.rows)
    for (const DeviceShare& s : r.last.shares)
      t.rows.push_back({std::to_string(r.devices), std::to_string(s.device), s.name, std::to_string(s.n),
                        std::to_string(s.chunks), s.n ? s.variant : "(skipped)",
                        s.n ? stats_cell(r.device_start_us[s.device].median) : "-",
                        s.n ? stats_cell(r.device_us[s.device].median) : "-",
                        s.n && r.device_us[s.device].median > 0
                            ? bandwidth_cell(static_cast<double>(s.n * run.element_bytes) / (r.device_us[s.device].median * 1e3), 2)
                            : "-",
                        !s.n ? "-" : d.reduction ? "(unfinished)" : s.value.str()});
  out << "each device's part (host clock from its first command to its value):\n" << t.render_text();
  for (const MultiBenchRow& r : run.rows)
    out << r.devices << " device" << (r.devices == 1 ? "" : "s") << ": " << result_str(run, r.last) << ", " << r.check.detail
        << (r.repeatable ? "" : "; the iterations did not all give the same bits") << "\n";
  return out.str();
}

std::string multi_csv(const MultiBenchRun& run) { return whole_table(run).render_csv(); }

json multi_json(const MultiBenchRun& run) {
  const MultiBenchDesign& d = run.design;
  json devices = json::array();
  for (const DeviceInfo& dev : d.devices) devices.push_back(device_json(dev));
  json rows = json::array();
  for (const MultiBenchRow& r : run.rows) {
    json shares = json::array();
    for (const DeviceShare& s : r.last.shares) {
      const Stats& st = r.device_us[s.device];
      shares.push_back({{"device", s.device},
                        {"name", s.name},
                        {"offset", s.offset},
                        {"n", s.n},
                        {"chunks", s.chunks},
                        {"variant", s.variant},
                        {"value", s.n && !d.reduction ? s.value.str() : ""},
                        {"time_us", stats_json(st)},
                        {"start_us", stats_json(r.device_start_us[s.device])},
                        {"gbps", s.n && st.median > 0 ? static_cast<double>(s.n * run.element_bytes) / (st.median * 1e3) : 0.0}});
    }
    rows.push_back({{"devices", r.devices},
                    {"time_us", stats_json(r.us)},
                    {"gbps", r.gbps},
                    {"speedup", r.speedup},
                    {"efficiency_pct", r.efficiency_pct},
                    {"tail_us", stats_json(r.tail_us)},
                    {"value", result_str(run, r.last)},
                    {"depth", r.last.depth},
                    {"check", r.check.detail},
                    {"ok", r.ok()},
                    {"repeatable", r.repeatable},
                    {"shares", shares}});
  }
  json what;
  if (d.reduction) {
    json inputs = json::array();
    for (Scalar t : d.reduction->inputs) inputs.push_back(std::string(name_of(t)));
    what = {{"reduction", d.reduction->name}, {"inputs", inputs}, {"accumulator", accumulator_str(*d.reduction)},
            {"result_layout", d.reduction->out.str()}};
    if (!d.reduction->origin.empty()) what["file"] = d.reduction->origin;
  } else {
    what = {{"type", std::string(name_of(d.type))}, {"op", std::string(name_of(d.op))},
            {"accumulator", std::string(name_of(d.type))}};
  }
  json j{{"kind", "bench multi"},
              {"devices", devices},
              {"n", run.n},
              {"data", run.data_origin},
              {"bytes", run.n * run.element_bytes},
              {"resident", d.resident},
              {"split", d.split.str()},
              {"iterations", d.iterations},
              {"warmup", d.warmup},
              {"rows", rows},
              {"skipped_device_counts", run.skipped},
              {"all_ok", run.all_ok()}};
  j.update(what);
  return j;
}

}  // namespace clreduce
