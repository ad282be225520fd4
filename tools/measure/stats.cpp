// The Mann-Whitney U-test by ranks (midranks for ties), and the comparison of two sets of times.
#include "measure/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clreduce {

double median_of(std::vector<double> xs) {
  if (xs.empty()) return 0;
  std::sort(xs.begin(), xs.end());
  const std::size_t m = xs.size() / 2;
  return xs.size() % 2 ? xs[m] : 0.5 * (xs[m - 1] + xs[m]);
}

MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  MannWhitney r;
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size());
  if (x.empty() || y.empty()) return r;
  // Every value with the sample it came from, ranked together; tied values share their midrank.
  std::vector<std::pair<double, bool>> all;  // (value, from x)
  for (double v : x) all.emplace_back(v, true);
  for (double v : y) all.emplace_back(v, false);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const double n = n1 + n2;
  double rank_sum_x = 0, tie_term = 0;  // tie_term: sum of t^3 - t over the groups of ties
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = (static_cast<double>(i) + 1 + static_cast<double>(j)) / 2;  // ranks i+1..j
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second) rank_sum_x += midrank;
    tie_term += t * t * t - t;
    i = j;
  }
  r.u = rank_sum_x - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double var = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (var <= 0) return r;  // every value equal: no evidence of a difference
  const double dev = std::abs(r.u - mean);
  r.z = std::max(0.0, dev - 0.5) / std::sqrt(var);
  r.p_value = std::min(1.0, std::erfc(r.z / std::sqrt(2.0)));  // 2 * (1 - Phi(z))
  return r;
}

Comparison compare_samples(const std::vector<double>& old_us, const std::vector<double>& new_us, double alpha,
                           double min_effect_pct) {
  Comparison c;
  c.old_median = median_of(old_us);
  c.new_median = median_of(new_us);
  c.ratio = c.old_median > 0 ? c.new_median / c.old_median : 1;
  c.test = mann_whitney_u(old_us, new_us);
  c.significant = c.test.p_value < alpha;
  const bool large = std::fabs(c.ratio - 1) * 100 >= min_effect_pct;
  c.below_effect = c.significant && !large;
  c.verdict = !c.significant || !large ? "same" : c.new_median > c.old_median ? "slower" : "faster";
  return c;
}

}  // namespace clreduce
