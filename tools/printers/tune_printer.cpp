// Renderings of tune's choice.
#include "printers/tune_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
std::string params_label(const TunedParams& p) {
  std::string s = "wg " + std::to_string(p.wg);
  if (p.times) s += ", times " + std::to_string(*p.times);
  if (p.groups_per_cu) s += ", " + std::to_string(*p.groups_per_cu) + " groups/CU";
  if (p.vec) s += ", vec " + std::to_string(*p.vec);
  return s;
}
}  // namespace

std::string tune_text(const TuneReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device: " << dev.label() << "\n"
      << "tuned:  " << name_of(r.op) << " of " << name_of(r.type) << " at n = ";
  for (std::size_t s = 0; s < r.sizes.size(); ++s) out << (s ? ", " : "") << size_label(r.sizes[s]);
  out << "; " << r.run.count_points() << " grid points per size, every measured point "
      << "verified\nchoice:  per variant the grid point with the lowest geometric mean of (its "
         "time / the variant's best time) over the sizes; b2b medians below as tuned (default)\n"
      << clock_line(r.run.clock, r.run.clock_note) << "\n";
  TextTable t;
  t.headers = {"variant", "tuned parameters"};
  for (std::uint64_t n : r.sizes) t.headers.push_back(size_label(n) + " µs");
  t.headers.insert(t.headers.end(), {"gain over default", "vs best variant"});
  for (const auto& row : r.rows) {
    std::vector<std::string> cells{row.variant};
    if (!row.unavailable.empty()) {
      cells.push_back("unavailable");
      cells.resize(t.headers.size());
      t.rows.push_back(cells);
      continue;
    }
    cells.push_back(row.tuned ? params_label(row.tuned->params) : "default kept");
    for (std::size_t s = 0; s < r.sizes.size(); ++s) {
      const double d = row.default_us[s];
      const std::string def = d > 0 ? stats_cell(d) : "-";
      cells.push_back(row.tuned ? stats_cell(row.tuned->measurements[s].tuned_us) + " (" + def + ")" : def);
    }
    cells.push_back(row.tuned ? fixed(row.tuned->gain_over_default, 2) + "x" : "1.00x");
    cells.push_back(row.score > 0 ? fixed(row.score, 2) + "x" : "-");
    t.rows.push_back(cells);
  }
  out << t.render_text();
  for (const auto& row : r.rows) {
    if (!row.unavailable.empty()) out << row.variant << " unavailable: " << row.unavailable << "\n";
    else if (!row.note.empty()) out << row.variant << ": " << row.note << "\n";
  }
  if (!r.entry.best_variant.empty()) out << "best variant overall: " << r.entry.best_variant << "\n";
  for (std::size_t s = 0; s < r.run.sizes.size(); ++s)
    for (const auto& v : r.run.sizes[s].variants)
      if (v.unavailable.empty() && v.failed() > 0)
        out << "FAILED: " << v.variant << " at n = " << size_label(r.sizes[s]) << ": "
            << v.failed() << " points failed (see `clreduce sweep --variants " << v.variant
            << " --n " << r.sizes[s] << "`)\n";
  return out.str();
}

std::string tune_csv(const TuneReport& r) {
  TextTable t;
  t.headers = {"variant", "type", "op", "n", "tuned", "wg", "times", "groups_per_cu", "vec",
               "tuned_b2b_median_us", "default_b2b_median_us", "GB_per_s", "gain_over_default", "note"};
  const auto opt = [](const std::optional<unsigned>& x) { return x ? std::to_string(*x) : std::string(); };
  for (const auto& row : r.rows)
    for (std::size_t s = 0; s < r.sizes.size(); ++s) {
      std::vector<std::string> cells{row.variant, std::string(name_of(r.type)), std::string(name_of(r.op)),
                                     std::to_string(r.sizes[s]), row.tuned ? "1" : "0"};
      if (row.tuned) {
        const TunedParams& p = row.tuned->params;
        const TunedMeasurement& m = row.tuned->measurements[s];
        cells.insert(cells.end(), {std::to_string(p.wg), opt(p.times), opt(p.groups_per_cu), opt(p.vec),
                                   fixed(m.tuned_us, 3), fixed(m.default_us, 3), fixed(m.gbps, 2),
                                   fixed(row.tuned->gain_over_default, 3), ""});
      } else {
        cells.insert(cells.end(), {"", "", "", "", "", row.default_us.empty() || row.default_us[s] <= 0 ? "" : fixed(row.default_us[s], 3),
                                   "", "", row.unavailable.empty() ? row.note : row.unavailable});
      }
      t.rows.push_back(cells);
    }
  return t.render_csv();
}

json tune_json(const TuneReport& r, const DeviceInfo& dev) {
  TuningDb db;
  db.devices.push_back(DeviceTuning{device_key(dev), {r.entry}});
  json rows = json::array();
  for (const auto& row : r.rows) {
    json j{{"variant", row.variant}, {"default_us", row.default_us}, {"score", row.score}};
    if (!row.unavailable.empty()) j["unavailable"] = row.unavailable;
    if (!row.note.empty()) j["note"] = row.note;
    j["tuned"] = row.tuned.has_value();
    rows.push_back(j);
  }
  return json{{"device", device_json(dev)},
              {"entry", json::parse(tuning_db_json(db))},
              {"rows", rows},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
