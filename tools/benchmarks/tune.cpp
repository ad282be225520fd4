// Tuning: the grid at several sizes, one configuration per variant chosen across them.
#include "benchmarks/tune.hpp"

#include "clreduce/error.hpp"
#include "format.hpp"

#include <cmath>
#include <ctime>
#include <map>

namespace clreduce {

std::vector<std::uint64_t> default_tune_sizes(const DeviceInfo& dev) {
  if (dev.is_gpu) return {1ULL << 20, 1ULL << 24, 1ULL << 26};
  return {1ULL << 16, 1ULL << 20};
}

bool TuneReport::all_ok() const { return run.all_ok(); }

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
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

TunedParams params_of(const ReduceParams& c) {
  TunedParams p;
  p.wg = c.wg;
  p.times = c.times;
  p.groups_per_cu = c.groups_per_cu;
  p.vec = c.vec;
  return p;
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

// Chooses the variant's configuration from its points at every size (run.sizes[s].variants[k]).
TuneRow tune_variant(const Run& run, std::size_t k, ElemType type) {
  const std::vector<SizeRun>& sweeps = run.sizes;
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
    for (const Measured& p : sweeps[s].variants[k].points) {
      if (!p.report || !p.report->ok()) continue;
      if (best[s] == 0 || p.us() < best[s]) best[s] = p.us();
      if (p.point.is_default) {
        row.default_us[s] = p.us();
        default_launch[s] = launch_of(*p.report);
        continue;
      }
      const std::string key = point_label(p);
      auto& v = us[key];
      v.resize(sizes, 0);
      v[s] = p.us();
      params[key] = params_of(p.point.params);
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

TuneReport choose_tuning(Run run) {
  TuneReport rep;
  rep.type = run.type;
  rep.op = run.op;
  for (const SizeRun& s : run.sizes) rep.sizes.push_back(s.n);
  rep.run = std::move(run);
  const Run& r = rep.run;
  const std::size_t nvar = r.sizes.empty() ? 0 : r.sizes.front().variants.size();
  for (std::size_t k = 0; k < nvar; ++k) rep.rows.push_back(tune_variant(r, k, rep.type));

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

  rep.entry.type = rep.type;
  rep.entry.op = rep.op;
  rep.entry.date = utc_now();
  rep.entry.sizes = rep.sizes;
  if (winner) rep.entry.best_variant = winner->variant;
  for (const auto& row : rep.rows)
    if (row.tuned) rep.entry.variants[row.variant] = *row.tuned;
  return rep;
}

}  // namespace clreduce
