// The statistics of comparing two sets of timing samples: the Mann-Whitney U-test (two-sided,
// normal approximation with the tie correction and a continuity correction of 1/2, as
// scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True)), and the verdict of a
// comparison of an old and a new set of times. Pure functions, no device.
#pragma once

#include <string>
#include <vector>

namespace clreduce {

struct MannWhitney {
  double u = 0;          // U of the first sample: pairs (x, y) with x > y, plus half the ties
  double z = 0;          // the standardized statistic, continuity-corrected (0 when no spread)
  double p_value = 1;    // two-sided; 1 when either sample is empty or every value is equal
};
// Any sizes (an empty sample gives p = 1). Samples in any unit; only their order matters.
MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// The median of a sample (0 for none).
double median_of(std::vector<double> xs);

// An old and a new set of times (lower is better) compared: ratio = new median / old median;
// significant when p < alpha; the verdict is "faster" or "slower" (significant and the medians
// apart by at least min_effect_pct percent, by the sign of the difference) or "same" (not
// significant, or significant but closer than min_effect_pct: `below_effect`). The U-test sees
// only the spread within each run; two runs of one build drift apart by a few tenths of a percent
// (H100: bench/results/2026-11-25_h100_cache_compare_noise), which it calls significant.
struct Comparison {
  double old_median = 0, new_median = 0, ratio = 1;
  MannWhitney test;
  bool significant = false;
  bool below_effect = false;  // significant, but the medians closer than min_effect_pct
  std::string verdict;  // "faster", "slower" or "same"
  // Significantly slower by more than pct percent (ratio > 1 + pct/100).
  bool regression(double pct) const { return significant && verdict == "slower" && ratio > 1 + pct / 100; }
};
Comparison compare_samples(const std::vector<double>& old_us, const std::vector<double>& new_us, double alpha,
                           double min_effect_pct = 0);

}  // namespace clreduce
