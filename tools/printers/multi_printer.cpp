// Renderings of the multi-device benchmark: the whole per device count, then each device's part,
// so that a poor efficiency can be traced to the device (or the split) that held it back.
#include "printers/multi_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
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
  out << "\ninput:   n = " << run.n << " " << name_of(d.type) << " (" << bytes_human(run.n * size_of(d.type)) << ", "
      << run.data_origin << "), operator " << name_of(d.op) << ", "
      << (d.resident ? "resident (one buffer per device, written before timing)"
                     : "host-copied (each device copies its part in chunks, overlapped with its reductions)")
      << "\nsplit:   " << d.split.str()
      << "; partials folded on the host in device order (the result does not depend on which device finishes first)\n"
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
  t.headers = {"devices", "device", "name", "n", "chunks", "variant", "start µs", "median µs", bandwidth_label(), "value"};
  for (const MultiBenchRow& r : run.rows)
    for (const DeviceShare& s : r.last.shares)
      t.rows.push_back({std::to_string(r.devices), std::to_string(s.device), s.name, std::to_string(s.n),
                        std::to_string(s.chunks), s.n ? s.variant : "(skipped)",
                        s.n ? stats_cell(r.device_start_us[s.device].median) : "-",
                        s.n ? stats_cell(r.device_us[s.device].median) : "-",
                        s.n && r.device_us[s.device].median > 0
                            ? bandwidth_cell(static_cast<double>(s.n * size_of(d.type)) / (r.device_us[s.device].median * 1e3), 2)
                            : "-",
                        s.n ? s.value.str() : "-"});
  out << "each device's part (host clock from its first command to its value):\n" << t.render_text();
  for (const MultiBenchRow& r : run.rows)
    out << r.devices << " device" << (r.devices == 1 ? "" : "s") << ": " << r.last.value.str() << ", " << r.check.detail
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
                        {"value", s.n ? s.value.str() : ""},
                        {"time_us", stats_json(st)},
                        {"start_us", stats_json(r.device_start_us[s.device])},
                        {"gbps", s.n && st.median > 0 ? static_cast<double>(s.n * size_of(d.type)) / (st.median * 1e3) : 0.0}});
    }
    rows.push_back({{"devices", r.devices},
                    {"time_us", stats_json(r.us)},
                    {"gbps", r.gbps},
                    {"speedup", r.speedup},
                    {"efficiency_pct", r.efficiency_pct},
                    {"tail_us", stats_json(r.tail_us)},
                    {"value", r.last.value.str()},
                    {"depth", r.last.depth},
                    {"check", r.check.detail},
                    {"ok", r.ok()},
                    {"repeatable", r.repeatable},
                    {"shares", shares}});
  }
  return json{{"kind", "bench multi"},
              {"devices", devices},
              {"n", run.n},
              {"type", std::string(name_of(d.type))},
              {"op", std::string(name_of(d.op))},
              {"data", run.data_origin},
              {"bytes", run.n * size_of(d.type)},
              {"resident", d.resident},
              {"split", d.split.str()},
              {"iterations", d.iterations},
              {"warmup", d.warmup},
              {"rows", rows},
              {"skipped_device_counts", run.skipped},
              {"all_ok", run.all_ok()}};
}

}  // namespace clreduce
