// Tuning: grid sweeps at several sizes, one configuration per variant chosen across them.
#include "benchmarks/tune.hpp"

#include "clreduce/error.hpp"
#include "printers/report.hpp"
#include "printers/sizes_printer.hpp"

#include <cmath>
#include <ctime>
#include <map>
#include <sstream>

namespace clreduce {

using nlohmann::json;

std::vector<std::uint64_t> default_tune_sizes(const DeviceInfo& dev) {
  if (dev.is_gpu) return {1ULL << 20, 1ULL << 24, 1ULL << 26};
  return {1ULL << 16, 1ULL << 20};
}

bool TuneReport::all_ok() const {
  for (const auto& s : sweeps)
    if (!s.all_ok()) return false;
  return true;
}

namespace {
// Geometric mean of us[i] / best[i]; 0 when some size has no measurement.
double relative_score(const std::vector<double>& us, const std::vector<double>& best) {
  double log_sum = 0;
  for (std::size_t i = 0; i < us.size(); ++i) {
    if (!(us[i] > 0) || !(best[i] > 0)) return 0;
    log_sum += std::log(us[i] / best[i]);
  }
  return us.empty() ? 0 : std::exp(log_sum / static_cast<double>(us.size()));
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

TunedParams params_of(const ReduceConfig& c) {
  TunedParams p;
  p.wg = c.wg;
  p.times = c.times;
  p.groups_per_cu = c.groups_per_cu;
  p.vec = c.vec;
  return p;
}

std::string params_label(const TunedParams& p) {
  std::string s = "wg " + std::to_string(p.wg);
  if (p.times) s += ", times " + std::to_string(*p.times);
  if (p.groups_per_cu) s += ", " + std::to_string(*p.groups_per_cu) + " groups/CU";
  if (p.vec) s += ", vec " + std::to_string(*p.vec);
  return s;
}

// What a launch runs: every pass's work-group size, groups, TIMES and VEC. Two configurations
// with the same launch are the same measurement twice (e.g. wg 256 and the default wg 256).
std::string launch_of(const ReduceReport& r) {
  std::string s;
  for (const PassPlan& p : r.plan.passes)
    s += std::to_string(p.wg) + "/" + std::to_string(p.groups) + "/" + std::to_string(p.times) + "/" +
         std::to_string(p.vec) + ";";
  return s;
}

// Chooses the variant's configuration from its points at every size (sweeps[s].variants[k]).
TuneRow tune_variant(const std::vector<GridSweep>& sweeps, std::size_t k, ElemType type) {
  const std::size_t sizes = sweeps.size();
  TuneRow row;
  row.variant = sweeps[0].variants[k].variant;
  row.unavailable = sweeps[0].variants[k].unavailable;
  row.default_us.assign(sizes, 0);
  if (!row.unavailable.empty()) return row;
  std::map<std::string, std::vector<double>> us;  // point label -> median per size
  std::map<std::string, TunedParams> params;
  std::map<std::string, std::vector<std::string>> launches;  // point label -> launch per size
  std::vector<std::string> default_launch(sizes);
  std::vector<double> best(sizes, 0);
  for (std::size_t s = 0; s < sizes; ++s) {
    for (const GridPoint& p : sweeps[s].variants[k].points) {
      if (!p.report || !p.report->ok()) continue;
      if (best[s] == 0 || p.us() < best[s]) best[s] = p.us();
      if (p.is_default) {
        row.default_us[s] = p.us();
        default_launch[s] = launch_of(*p.report);
        continue;
      }
      const std::string key = point_label(p);
      auto& v = us[key];
      v.resize(sizes, 0);
      v[s] = p.us();
      params[key] = params_of(p.config);
      auto& l = launches[key];
      l.resize(sizes);
      l[s] = launch_of(*p.report);
    }
  }
  std::string chosen;
  double chosen_score = 0;
  for (const auto& [key, v] : us) {
    const double score = relative_score(v, best);
    if (score > 0 && (chosen.empty() || score < chosen_score)) {
      chosen = key;
      chosen_score = score;
    }
  }
  const double default_score = relative_score(row.default_us, best);
  if (chosen.empty()) {
    row.note = "no grid point was verified at every size; the default launch is kept";
    return row;
  }
  if (launches[chosen] == default_launch) {
    row.note = "the default launch is kept: the best grid point (" + chosen + ") launches exactly as it "
               "does at every size";
    return row;
  }
  if (default_score > 0 && default_score <= chosen_score) {
    row.note = "the default launch is kept: no grid point beat it across the sizes (best " + chosen +
               ", " + fixed(chosen_score, 3) + " vs " + fixed(default_score, 3) + " of the best time)";
    return row;
  }
  TunedVariant t;
  t.params = params[chosen];
  const std::vector<double>& v = us[chosen];
  for (std::size_t s = 0; s < sizes; ++s) {
    TunedMeasurement m;
    m.n = sweeps[s].n;
    m.tuned_us = v[s];
    m.default_us = row.default_us[s];
    m.gbps = static_cast<double>(m.n * size_of(type)) / (v[s] * 1e3);
    t.measurements.push_back(m);
  }
  t.gain_over_default = default_score > 0 ? default_score / chosen_score : 1.0;
  row.tuned = t;
  return row;
}

std::vector<double> chosen_us(const TuneRow& row) {
  if (!row.tuned) return row.default_us;
  std::vector<double> out;
  for (const auto& m : row.tuned->measurements) out.push_back(m.tuned_us);
  return out;
}
}  // namespace

TuneReport run_tune(Runtime& rt, const TuneOptions& opt, const GridProgress& progress) {
  TuneReport rep;
  rep.type = opt.type;
  rep.op = opt.op;
  rep.sizes = opt.sizes.empty() ? default_tune_sizes(rt.device()) : opt.sizes;
  for (std::uint64_t n : rep.sizes) check_allocation(n, opt.type, rt.device());
  GridSweepOptions g;
  g.type = opt.type;
  g.op = opt.op;
  g.variants = opt.variants;
  g.axes = opt.axes;
  g.timing = opt.timing;
  for (std::size_t i = 0; i < rep.sizes.size(); ++i) {
    const std::uint64_t n = rep.sizes[i];
    const HostData data = generate_data(opt.type, n, opt.data, opt.seed);
    const std::size_t count = rep.sizes.size();
    rep.sweeps.push_back(run_grid_sweep(rt, g, data, [&](std::size_t d, std::size_t t, const std::string& w) {
      if (progress) progress(i * t + d, count * t, "n=" + size_label(n) + ": " + w);
    }));
  }
  const std::size_t nvar = rep.sweeps.front().variants.size();
  for (std::size_t k = 0; k < nvar; ++k) rep.rows.push_back(tune_variant(rep.sweeps, k, opt.type));

  // The best variant: the same relative score against the best chosen time of any variant.
  std::vector<double> best(rep.sizes.size(), 0);
  for (const auto& row : rep.rows) {
    const auto us = chosen_us(row);
    for (std::size_t s = 0; s < us.size(); ++s)
      if (us[s] > 0 && (best[s] == 0 || us[s] < best[s])) best[s] = us[s];
  }
  const TuneRow* winner = nullptr;
  for (auto& row : rep.rows) {
    row.score = relative_score(chosen_us(row), best);
    if (row.score > 0 && (!winner || row.score < winner->score)) winner = &row;
  }

  rep.entry.type = opt.type;
  rep.entry.op = opt.op;
  rep.entry.date = utc_now();
  rep.entry.sizes = rep.sizes;
  if (winner) rep.entry.best_variant = winner->variant;
  for (const auto& row : rep.rows)
    if (row.tuned) rep.entry.variants[row.variant] = *row.tuned;
  return rep;
}

std::string tune_text(const TuneReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out << "device: " << dev.label() << "\n"
      << "tuned:  " << name_of(r.op) << " of " << name_of(r.type) << " at n = ";
  for (std::size_t s = 0; s < r.sizes.size(); ++s) out << (s ? ", " : "") << size_label(r.sizes[s]);
  out << "; " << r.sweeps.front().count_points() << " grid points per size, every measured point "
      << "verified\nchoice:  per variant the grid point with the lowest geometric mean of (its "
         "time / the variant's best time) over the sizes; b2b medians below as tuned (default)\n\n";
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
  for (std::size_t s = 0; s < r.sweeps.size(); ++s)
    for (const auto& v : r.sweeps[s].variants)
      if (v.unavailable.empty() && v.count_failed() > 0)
        out << "FAILED: " << v.variant << " at n = " << size_label(r.sizes[s]) << ": "
            << v.count_failed() << " points failed (see `clreduce sweep --variants " << v.variant
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
