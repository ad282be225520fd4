// Renderings of `clreduce tune axis`: one table row per launch tried, then the choice per class.
#include "printers/axis_tune_printer.hpp"

#include "parse.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::string candidate_label(const AxisTunePoint& p) { return p.candidate ? p.candidate->label() : "default"; }

// The point's cells: median, GB/s, default / this, check, note.
std::vector<std::string> point_cells(const AxisTuneShape& s, const AxisTunePoint& p) {
  const double def = s.points.empty() ? 0 : s.points[0].us();
  std::string note = !p.same_as.empty() ? "same launch as " + p.same_as : !p.refused.empty() ? "refused: " + p.refused
                                                                         : p.error;
  if (!p.report) return {"", "", "", p.error.empty() ? "" : "ERROR", note};
  return {stats_cell(p.us()), fixed(p.report->gbps, 1), def > 0 && p.us() > 0 ? fixed(def / p.us(), 3) + "x" : "",
          p.report->ok() ? "ok" : "FAILED", note};
}

std::string class_choice(const AxisTuneClass& c) {
  if (c.entry)
    return c.entry->launch_label() + " (" + fixed(c.gain, 3) + "x the default, noise " + fixed(c.noise * 100, 1) + "%)";
  return c.note;
}
}  // namespace

std::string axis_tune_text(const AxisTuneRun& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device  " << dev.label() << "\n"
      << "tune    " << name_of(r.op) << " of " << name_of(r.type) << " rows or columns: every launch below verified "
      << "against the host reference; median of the samples\n\n";
  for (const AxisTuneShape& s : r.shapes) {
    out << name_of(s.axis) << " " << shape_label(s.m, s.n) << " (class " << s.shape_class << ")\n";
    TextTable t;
    t.headers = {"candidate", "launch", "median µs", "GB/s", "vs default", "check", "note"};
    for (const AxisTunePoint& p : s.points) {
      std::vector<std::string> row{candidate_label(p), p.launch};
      for (auto& c : point_cells(s, p)) row.push_back(std::move(c));
      t.rows.push_back(std::move(row));
    }
    out << t.render_text() << "\n";
  }
  TextTable c;
  c.headers = {"class", "chosen"};
  for (const AxisTuneClass& k : r.classes) c.rows.push_back({k.shape_class, class_choice(k)});
  out << "per class (kept when the gain is over 1 + max(min gain, noise); noise: the IQRs' mean over the default's "
         "median)\n"
      << c.render_text();
  return out.str();
}

std::string axis_tune_csv(const AxisTuneRun& r) {
  TextTable t;
  t.headers = {"axis", "m", "n", "class", "candidate", "launch", "median_us", "GB_per_s", "vs_default", "check", "note"};
  for (const AxisTuneShape& s : r.shapes)
    for (const AxisTunePoint& p : s.points) {
      std::vector<std::string> row{std::string(name_of(s.axis)), std::to_string(s.m), std::to_string(s.n), s.shape_class,
                                   candidate_label(p), p.launch};
      for (auto& c : point_cells(s, p)) row.push_back(std::move(c));
      t.rows.push_back(std::move(row));
    }
  return t.render_csv();
}

json axis_tune_json(const AxisTuneRun& r, const DeviceInfo& dev) {
  json shapes = json::array();
  for (const AxisTuneShape& s : r.shapes) {
    json pts = json::array();
    for (const AxisTunePoint& p : s.points) {
      json j{{"candidate", candidate_label(p)}, {"launch", p.launch}, {"same_as", p.same_as},
             {"refused", p.refused}, {"error", p.error}};
      if (p.report)
        j.update({{"time_us", stats_json(p.report->timing.whole_us)}, {"gbps", p.report->gbps}, {"ok", p.report->ok()},
                  {"check", p.report->check.detail}});
      pts.push_back(j);
    }
    shapes.push_back({{"axis", std::string(name_of(s.axis))}, {"m", s.m}, {"n", s.n}, {"class", s.shape_class},
                      {"points", pts}});
  }
  json classes = json::array();
  for (const AxisTuneClass& k : r.classes) {
    json j{{"axis", std::string(name_of(k.axis))}, {"class", k.shape_class}, {"best", k.best}, {"gain", k.gain},
           {"noise", k.noise}, {"tuned", k.entry.has_value()}, {"note", k.note}};
    if (k.entry) j["launch"] = k.entry->launch_label();
    classes.push_back(j);
  }
  return json{{"device", device_json(dev)}, {"type", std::string(name_of(r.type))}, {"op", std::string(name_of(r.op))},
              {"shapes", shapes}, {"classes", classes}, {"ok", r.all_ok()}};
}

}  // namespace clreduce
