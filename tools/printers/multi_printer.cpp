// Renderings of the multi-device benchmark: the whole per device count, then each device's part,
// so that a poor efficiency can be traced to the device (or the split) that held it back. Both
// tables' columns declared once (the result model, measure/result_table.hpp); the tables, CSV and
// JSON rows (each count's parts nested in it) from the generic printers.
#include "printers/multi_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
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

// A device count's row, or (share set) one device's part of it, as the columns read it.
struct Line {
  const MultiBenchRun* run;
  const MultiBenchRow* row;
  const DeviceShare* s = nullptr;
  const Stats& part_us() const { return row->device_us[s->device]; }
  double part_gbps() const {  // 0 where the device did not run
    return s->n && part_us().median > 0 ? static_cast<double>(s->n * run->element_bytes) / (part_us().median * 1e3) : 0.0;
  }
};
using Col = ColumnOf<Line>;

// How the part's input reached its device: "resident", "pageable", "pinned x8" (copy threads), "in_place".
std::string path_text(const MultiBenchRun& run, const DeviceShare& s) {
  if (run.design.resident) return "resident";
  if (s.host_path == HostPath::Pinned) return "pinned x" + std::to_string(s.copy_threads);
  return name_of(s.host_path);
}

// {{key, json path, text header, csv header, unit, text decimals}, cell}: the CSV is the text
// table's (csv_text).
const std::vector<Col>& share_columns() {
  const auto ran = [](auto f) { return [f](const Line& l) { return l.s->n ? Cell(f(l)) : Cell(); }; };
  static const std::vector<Col> c = {
      {{"devices", "", "devices", "", Unit::Count}, [](const Line& l) { return u64(l.row->devices); }},
      {{"device", "device", "device", "", Unit::Count}, [](const Line& l) { return u64(l.s->device); }},
      {{"name", "name", "name", ""}, [](const Line& l) { return Cell(l.s->name); }},
      {{"n", "n", "n", "", Unit::Count}, [](const Line& l) { return u64(l.s->n); }},
      {{"chunks", "chunks", "chunks", "", Unit::Count}, [](const Line& l) { return u64(l.s->chunks); }},
      {{"path", "", "path", ""}, ran([](const Line& l) { return path_text(*l.run, *l.s); })},
      {{"variant_text", "", "variant", ""}, [](const Line& l) { return Cell(l.s->n ? l.s->variant : "(skipped)"); }},
      {{"start", "", "start µs", "", Unit::Micros}, ran([](const Line& l) { return l.row->device_start_us[l.s->device].median; })},
      {{"median", "", "median µs", "", Unit::Micros}, ran([](const Line& l) { return l.part_us().median; })},
      {{"gbps_text", "", "$bw", "", Unit::Bandwidth, 2},
       [](const Line& l) { return l.part_gbps() > 0 ? Cell(l.part_gbps()) : Cell(); }},
      // The text's last header is "part" for a descriptor (its parts unfinished), else "value".
      {{"value_text", "", "value", ""},
       ran([](const Line& l) { return l.run->design.reduction ? std::string("(unfinished)") : l.s->value.str(); })},
      // JSON only.
      {{"json", "*", "", ""}, [](const Line& l) {
         const DeviceShare& s = *l.s;
         return Cell(json{{"offset", s.offset}, {"variant", s.variant}, {"value", s.n && !l.run->design.reduction ? s.value.str() : ""},
                          {"time_us", stats_json(l.part_us())}, {"start_us", stats_json(l.row->device_start_us[s.device])},
                          {"gbps", l.part_gbps()}, {"host_path", l.run->design.resident ? "resident" : name_of(s.host_path)},
                          {"copy_threads", s.copy_threads}});
       }}};
  return c;
}

ResultTable share_table(const MultiBenchRun& run, const MultiBenchRow* only = nullptr) {
  std::vector<Line> lines;
  for (const MultiBenchRow& r : run.rows)
    if (!only || &r == only)
      for (const DeviceShare& s : r.last.shares) lines.push_back({&run, &r, &s});
  ResultTable t = tabulate(share_columns(), lines);
  if (run.design.reduction) t.columns[10].text = "part";  // value_text
  return t;
}

const std::vector<Col>& columns() {
  const auto stats = [](Stats MultiBenchRow::*s, double Stats::*x) {
    return [s, x](const Line& l) { return Cell(l.row->*s.*x); };
  };
  static const std::vector<Col> c = {
      {{"devices", "devices", "devices", "", Unit::Count}, [](const Line& l) { return u64(l.row->devices); }},
      {{"parts", "", "parts", ""},
       [](const Line& l) {
         std::vector<std::string> parts;
         for (const DeviceShare& s : l.row->last.shares) parts.push_back(std::to_string(s.n));
         return Cell(join(parts, "/"));
       }},
      {{"median", "", "median µs", "", Unit::Micros}, stats(&MultiBenchRow::us, &Stats::median)},
      {{"spread", "", "spread", ""}, [](const Line& l) { return Cell(spread_cell(l.row->us)); }},
      {{"min", "", "min µs", "", Unit::Micros}, stats(&MultiBenchRow::us, &Stats::min)},
      {{"max", "", "max µs", "", Unit::Micros}, stats(&MultiBenchRow::us, &Stats::max)},
      {{"gbps", "gbps", "$bw", "", Unit::Bandwidth, 2}, [](const Line& l) { return Cell(l.row->gbps); }},
      {{"speedup", "speedup", "speedup", "", Unit::Ratio, 2}, [](const Line& l) { return Cell(l.row->speedup); }},
      {{"efficiency", "efficiency_pct", "efficiency", "", Unit::Percent}, [](const Line& l) { return Cell(l.row->efficiency_pct); }},
      {{"tail", "", "tail µs", "", Unit::Micros}, stats(&MultiBenchRow::tail_us, &Stats::median)},
      {{"check_cell", "", "check", ""},
       [](const Line& l) { return Cell(std::string(!l.row->check.ok ? "FAILED" : l.row->repeatable ? "ok" : "NOT REPEATABLE")); }},
      // JSON only.
      {{"json", "*", "", ""}, [](const Line& l) {
         const MultiBenchRow& r = *l.row;
         return Cell(json{{"time_us", stats_json(r.us)}, {"tail_us", stats_json(r.tail_us)}, {"value", result_str(*l.run, r.last)},
                          {"depth", r.last.depth}, {"check", r.check.detail}, {"ok", r.ok()}, {"repeatable", r.repeatable},
                          {"shares", render_json_rows(share_table(*l.run, l.row))}});
       }}};
  return c;
}

ResultTable whole_table(const MultiBenchRun& run) {
  std::vector<Line> lines;
  for (const MultiBenchRow& r : run.rows) lines.push_back({&run, &r});
  ResultTable t = tabulate(columns(), lines);
  t.csv_text = true;
  return t;
}
}  // namespace

namespace {
TableView view_of(const MultiBenchRun& run) {
  const MultiBenchDesign& d = run.design;
  std::ostringstream out;
  out << "devices:";
  for (std::size_t i = 0; i < d.devices.size(); ++i)
    out << (i ? ";" : "") << " " << i << ": " << d.devices[i].label();
  out << "\ninput:   " << input_line(run) << ", "
      << (d.resident ? "resident (one buffer per device, written before timing)"
                     : std::string("host-copied (each device copies its part in chunks, overlapped with its reductions; host "
                                   "path ") + name_of(d.host_path) + ": pageable = written from the caller's memory, pinned xT = T "
                                   "threads copy into pinned staging buffers written from there, in_place = read where it lies)")
      << "\nsplit:   " << d.split.str()
      << (d.reduction ? "; each chunk's accumulator kept unfinished, all folded in device and chunk order on device 0, "
                        "which finishes the result (it does not depend on which device finishes first)\n"
                      : "; partials folded on the host in device order (the result does not depend on which device "
                        "finishes first)\n")
      << "time:    host clock of the whole call, median of " << d.iterations << " (after " << d.warmup
      << " warm-up); GB/s = input bytes / median; efficiency = speedup over the first row / devices;\n"
      << "         tail = the last part's value to the call's return (the other threads waited for, values folded), median;\n"
      << "         start (below) = the call's start to the part's start (handed to its thread), median\n\n";
  ResultTable whole = whole_table(run);
  for (std::size_t k : run.skipped)
    whole.after.push_back(std::to_string(k) + " device" + (k == 1 ? "" : "s") + ": not run (" +
                          (k == 1 ? std::string("the first weight of the split is 0")
                                  : "the first " + std::to_string(k) + " weights of the split are all 0") +
                          "); speedup and efficiency are over the first row run\n");
  ResultTable parts = share_table(run);
  parts.preamble = {"each device's part (host clock from its first command to its value):\n"};
  for (const MultiBenchRow& r : run.rows) {
    // The value, unless the check's line already gives it (an exact sum's "bit for bit: VALUE (BITS)").
    const std::string value = result_str(run, r.last);
    const bool said = r.check.detail.find(value) != std::string::npos;
    parts.after.push_back(std::to_string(r.devices) + " device" + (r.devices == 1 ? "" : "s") + ": " +
                          (said ? "" : value + ", ") + r.check.detail +
                          (r.repeatable ? "" : "; the iterations did not all give the same bits") + "\n");
  }
  if (run.anchors) {
    const HostAnchors& a = *run.anchors;
    std::ostringstream an;
    an << "anchors (the same bytes without clreduce, best of " << d.iterations << "): the host's own "
       << a.sum_what << " " << fixed(a.host_sum_gbps, 2) << " GB/s; device 0's write of " << a.write_bytes
       << " bytes from pageable memory " << fixed(a.pageable_write_gbps, 2) << " GB/s, from pinned memory "
       << fixed(a.pinned_write_gbps, 2) << " GB/s\n";
    parts.after.push_back(an.str());
  }
  if (run.api_call) {
    const MultiBenchRun::ApiCall& a = *run.api_call;
    parts.after.push_back("clreduce::reduce() of the same host data (its own route: " + a.route + "): " +
                          fixed(a.us, 1) + " us, " + fixed(a.gbps, 2) + " GB/s (best of " +
                          std::to_string(std::max(1u, d.iterations)) + "), " + a.check.detail + "\n");
  }
  TableView v;
  v.text.push_back({out.str(), std::nullopt});
  v.text.push_back({"", std::move(whole)});
  v.text.push_back({"", std::move(parts), true});  // render_text's closing blank line left out: the part table ends
  v.csv_part = 1;
  return v;
}
}  // namespace

std::string multi_text(const MultiBenchRun& run) { return render_text(view_of(run)); }

std::string multi_csv(const MultiBenchRun& run) { return render_csv(whole_table(run)); }

json multi_json(const MultiBenchRun& run) {
  const MultiBenchDesign& d = run.design;
  json devices = json::array();
  for (const DeviceInfo& dev : d.devices) devices.push_back(device_json(dev));
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
  json j{{"kind", "bench multi"}, {"devices", devices}, {"n", run.n}, {"data", run.data_origin},
         {"bytes", run.n * run.element_bytes}, {"resident", d.resident}, {"split", d.split.str()},
         {"host_path", name_of(d.host_path)},
         {"iterations", d.iterations}, {"warmup", d.warmup}, {"rows", render_json_rows(whole_table(run))},
         {"skipped_device_counts", run.skipped}, {"all_ok", run.all_ok()}};
  if (run.api_call)
    j["api_call"] = {{"device", run.api_call->device}, {"route", run.api_call->route}, {"us", run.api_call->us}, {"gbps", run.api_call->gbps},
                     {"check", run.api_call->check.detail}, {"ok", run.api_call->check.ok}};
  if (run.anchors) {
    const HostAnchors& a = *run.anchors;
    j["anchors"] = {{"host_sum", a.sum_what}, {"host_sum_gbps", a.host_sum_gbps}, {"threads", a.threads},
                    {"write_bytes", a.write_bytes}, {"pageable_write_gbps", a.pageable_write_gbps},
                    {"pinned_write_gbps", a.pinned_write_gbps}, {"device", a.device}};
  }
  j.update(what);
  return with_table(j, "bench_multi", view_of(run));
}

}  // namespace clreduce
