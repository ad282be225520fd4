// Renderings of `clreduce tune descriptors`: the choice per class, then (CSV, JSON) every point.
#include "printers/descriptor_tune_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::string where_label(const DescriptorTuneClass::Where& w) {
  return w.m ? shape_label(w.m, w.n) : "n " + size_label(w.n);
}
double us_of(const DescriptorBenchRow& r) { return r.report ? r.report->timing.whole_us.median : 0; }

// The default row of the point's (reduction, types, family, m, n), or null.
const DescriptorBenchRow* default_of(const DescriptorTuneRun& r, const DescriptorBenchRow& p) {
  for (const DescriptorBenchRow& q : r.bench.rows)
    if (q.launch == "default" && q.reduction == p.reduction && q.types == p.types && q.family == p.family &&
        q.m == p.m && q.n == p.n)
      return &q;
  return nullptr;
}

std::vector<std::string> point_cells(const DescriptorTuneRun& r, const DescriptorBenchRow& p) {
  const DescriptorBenchRow* def = default_of(r, p);
  const double d = def ? us_of(*def) : 0, us = us_of(p);
  const std::string check = status_cell(!p.refused.empty(), p.report.has_value(), p.report && p.report->ok(), false);
  const std::string note = !p.refused.empty() ? p.refused : !p.error.empty() ? p.error
                           : p.report && !p.report->ok() ? p.report->check.detail
                                                         : std::string();
  return {p.report ? p.report->launch.label() : "", us > 0 ? stats_cell(us) : "",
          d > 0 && us > 0 ? fixed(d / us, 3) + "x" : "", check, note};
}
}  // namespace

std::string descriptor_tune_text(const DescriptorTuneRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device  " << dev.label() << "\n"
      << "tune    reduction descriptors: the default launch and every grid point verified against the host "
         "reference; median of the samples\n"
      << "        (kept when the gain is over 1 + max(min gain, noise); noise: the IQRs' mean over the default's "
         "median)\n\n";
  TextTable t;
  t.headers = {"reduction", "types", "family", "class", "size", "default launch", "default µs", "chosen", "chosen µs",
               "gain"};
  std::vector<std::string> notes;
  for (const DescriptorTuneClass& c : r.classes) {
    for (const DescriptorTuneClass::Where& w : c.wheres) {
      const DescriptorBenchRow& def = r.bench.rows[w.default_row];
      const DescriptorBenchRow& best = r.bench.rows[w.best_row];
      const double d = us_of(def), b = us_of(best);
      std::vector<std::string> row{c.reduction, c.types(), std::string(name_of(c.family)), c.shape_class, where_label(w),
                                   def.report ? def.report->launch.label() : (def.refused.empty() ? "ERROR" : "refused"),
                                   d > 0 ? stats_cell(d) : ""};
      if (c.entry)
        row.insert(row.end(), {c.entry->launch_label(), b > 0 ? stats_cell(b) : "", d > 0 && b > 0 ? fixed(d / b, 3) + "x" : ""});
      else
        row.insert(row.end(), {"default kept", "", ""});
      t.rows.push_back(std::move(row));
    }
    const std::string what = c.reduction + " " + c.types() + " " + std::string(name_of(c.family)) + " " + c.shape_class;
    if (c.entry)
      notes.push_back(what + ": " + c.entry->launch_label() + ", " + fixed(c.gain, 3) + "x the default over the class "
                      "(noise " + fixed(c.noise * 100, 1) + "%)");
    else
      notes.push_back(what + ": " + c.note);
  }
  out << t.render_text() << "\n";
  for (const std::string& n : notes) out << n << "\n";
  return out.str();
}

std::string descriptor_tune_csv(const DescriptorTuneRun& r) {
  TextTable t;
  t.headers = {"reduction", "types", "family", "m", "n", "point", "launch", "median_us", "vs_default", "check", "note"};
  for (const DescriptorBenchRow& p : r.bench.rows) {
    std::vector<std::string> row{p.reduction, p.types, std::string(name_of(p.family)), std::to_string(p.m),
                                 std::to_string(p.n), p.launch};
    for (auto& c : point_cells(r, p)) row.push_back(std::move(c));
    t.rows.push_back(std::move(row));
  }
  return t.render_csv();
}

json descriptor_tune_json(const DescriptorTuneRun& r, const DeviceInfo& dev) {
  json classes = json::array();
  for (const DescriptorTuneClass& c : r.classes) {
    json per = json::array();
    for (const DescriptorTuneClass::Where& w : c.wheres) {
      json j{{"m", w.m}, {"n", w.n}, {"default_us", us_of(r.bench.rows[w.default_row])}};
      if (c.entry) j["tuned_us"] = us_of(r.bench.rows[w.best_row]);
      per.push_back(j);
    }
    json j{{"reduction", c.reduction}, {"types", c.types()}, {"family", std::string(name_of(c.family))},
           {"class", c.shape_class}, {"best", c.best}, {"gain", c.gain}, {"noise", c.noise},
           {"tuned", c.entry.has_value()}, {"note", c.note}, {"per", per}};
    if (c.entry) {
      json params = json::object();
      for (const auto& [name, value] : c.entry->params) params[name] = value;
      j["params"] = params;
      if (c.entry->chunks) j["chunks"] = *c.entry->chunks;
    }
    classes.push_back(j);
  }
  json points = json::array();
  for (const DescriptorBenchRow& p : r.bench.rows) {
    json j{{"reduction", p.reduction}, {"types", p.types}, {"family", std::string(name_of(p.family))}, {"m", p.m},
           {"n", p.n}, {"point", p.launch}, {"refused", p.refused}, {"error", p.error}};
    if (p.report)
      j.update({{"launch", p.report->launch.label()}, {"options", p.report->launch.options},
                {"time_us", stats_json(p.report->timing.whole_us)}, {"ok", p.report->ok()},
                {"check", p.report->check.detail}});
    points.push_back(j);
  }
  return json{{"device", device_json(dev)}, {"classes", classes}, {"points", points}, {"ok", r.all_ok()}};
}

}  // namespace clreduce
