// `clreduce tune`: the sweep's grid (grid.hpp) at a few sizes, measured by the engine, and from
// it the best launch parameters of every variant for the device, element type and operator, as
// an entry of the tuning database (clreduce/tuning.hpp) that every Reducer then uses.
//
// A variant's tuned configuration is the grid point that was verified at every size and has the
// lowest geometric mean, over the sizes, of its time relative to the variant's best time at that
// size: one configuration that holds up across sizes rather than the winner of one. Where no
// grid point beats the variant's default launch by that measure, or the winner launches exactly
// as the default does (same passes, groups, TIMES, VEC: the same measurement twice), the default
// is kept (the variant gets no entry). The best variant overall is chosen the same way among the
// variants.
#pragma once

#include "benchmarks/grid.hpp"
#include "clreduce/tuning.hpp"
#include "measure/engine.hpp"

#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// 2^20, 2^24, 2^26 on a GPU (launch-bound to bandwidth-bound); 2^16, 2^20 elsewhere.
std::vector<std::uint64_t> default_tune_sizes(const DeviceInfo& dev);

struct TuneRow {
  std::string variant;
  std::string unavailable;
  std::optional<TunedVariant> tuned;  // empty: the default launch is kept
  std::string note;                   // why nothing was tuned, when so
  std::vector<double> default_us;     // per size (0: not measured)
  double score = 0;                   // geometric mean of time / best time of all variants
};

struct TuneReport {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::vector<std::uint64_t> sizes;
  Run run;                 // the grid at every size
  std::vector<TuneRow> rows;
  TuningEntry entry;       // what goes into the database
  bool all_ok() const;     // every point of the run verified
};

// The choice from a run of the grid (grid_points, every size): one row per variant.
TuneReport choose_tuning(Run run);

// Now, in ISO 8601 UTC ("2026-11-28T22:00:00Z"): when a tune ran, as the tuning database keeps it.
std::string utc_now();

}  // namespace clreduce
