// The size sweep behind `clreduce bench --sizes`: at each size, every variant's best
// configuration out of a small candidate set (work-group size, grid, vector width), each candidate
// timed both ways (back-to-back and one call at a time) and verified against the host reference,
// beside the read bandwidth measured on the same buffer.
#pragma once

#include "benchmarks/family.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

struct SweepOptions {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::vector<std::uint64_t> sizes;
  std::vector<std::string> variants;  // empty: every registered variant
  std::size_t wg = 0;                 // 0: search the candidate work-group sizes
  std::vector<Define> defines;
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
  // Tuned launch parameters per variant (tuning database): one more candidate for the variant.
  std::map<std::string, TunedParams> tuned;
  std::string tuned_from;
};

// The configurations tried for a variant on a device (for n elements of `type`):
//  - work-group sizes: 128, 256, 512, 1024 on GPUs (those the device and its local memory
//    allow), or `wg` when given; on devices without occupancy facts (CPUs) only the default;
//  - variants with TIMES: the variant's default TIMES, and groups per compute unit R/2, R and 2R
//    with R from occupancy (resident_groups_per_cu), on CPUs R alone; variants that fill the
//    device by default (single_pass) only the latter;
//  - VEC = 16 bytes / element size (16-byte loads) for the variants with VEC.
std::vector<ReduceConfig> sweep_candidates(const Variant& v, const DeviceInfo& dev, ElemType type,
                                           Op op, std::size_t wg = 0);

struct SweepCandidate {
  ReduceConfig config;
  std::optional<ReduceReport> report;  // measured and checked
  std::string refused;                 // the kernel's limits refused it (not a failure)
  std::string error;                   // any other set-up error (a failure)
};

struct SweepRow {
  std::string variant;
  std::string skipped;                  // unavailable on the device: why
  std::vector<SweepCandidate> tried;
  int best = -1;         // index into tried: the lowest back-to-back median
  int best_single = -1;  // index into tried: the lowest one-call-at-a-time median
  double pct_of_peak = 0;
  const ReduceReport* best_report() const { return best < 0 ? nullptr : &*tried[best].report; }
  // Every measured candidate verified, and at least one measured (or the variant skipped).
  bool ok() const;
  std::size_t measured() const;
};

struct SweepSize {
  std::uint64_t n = 0;
  std::string data_origin;
  ReadBandwidth peak;
  std::vector<SweepRow> rows;
};

struct SweepReport {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::vector<SweepSize> sizes;
  bool all_ok() const;
};

// progress (if set) hears "n=..., variant" before each variant.
SweepReport run_sweep(Runtime& rt, const SweepOptions& opt,
                      const std::function<void(const std::string&)>& progress = {});

}  // namespace clreduce
