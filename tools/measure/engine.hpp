// The one measuring engine behind `bench`, `bench --sizes`, `sweep` and `tune`: a benchmark
// declares the points it wants (a launch configuration each) for every variant at every size;
// the engine generates (or takes) the input of each size, uploads it once, measures the read
// peak on it, then prepares, times (both ways) and verifies every point on it. A point the
// device refuses is kept with the reason, a failing one with its error; nothing stops the run.
// The result is one model (Run) that every printer renders; the engine prints nothing.
#pragma once

#include "clreduce/reduce.hpp"
#include "data/host_data.hpp"
#include "measure/estimate.hpp"
#include "measure/measure.hpp"
#include "measure/host_reduce.hpp"
#include "measure/read_bandwidth.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// One launch to measure.
struct Point {
  ReduceParams params;     // the variant is always set; the rest as the benchmark declares
  bool use_tuning = false; // the tuning database fills the parameters left unset
  bool only_if_tuned = false;  // dropped when the database tunes nothing (an extra candidate)
  bool is_default = false;     // the variant's default launch (a sweep's reference)
};

// A point as measured.
struct Measured {
  Point point;
  std::optional<ReduceReport> report;  // measured and checked
  std::string skipped;                 // refused before running (ConfigError, LimitError): why
  std::string error;                   // any other failure (a kernel that fails to build...)
  bool failed() const { return !error.empty() || (report && !report->ok()); }
  double us() const { return report ? report->timed.whole_us.median : 0; }            // b2b median
  double single_us() const { return report ? report->timed.single_us.median : 0; }    // 1-call median
  double gbps() const { return report ? report->gbps : 0; }
};

struct VariantRun {
  std::string variant;
  std::string unavailable;  // the variant does not run on this device: why (then no points)
  std::vector<Measured> points;

  // Indices into points, -1 when none: the lowest back-to-back median of the verified points,
  // the lowest one-call median of the verified points, the default launch (if measured).
  int best() const;
  int best_single() const;
  int default_point() const;
  const Measured* best_point() const { return best() < 0 ? nullptr : &points[best()]; }
  const Measured* default_launch() const {
    return default_point() < 0 ? nullptr : &points[default_point()];
  }
  // Default median / best median (1 when either is missing).
  double gain_over_default() const;
  std::size_t measured() const, skipped() const, failed() const;
  // Available, no point failed, at least one measured.
  bool ok() const { return !unavailable.empty() || (failed() == 0 && measured() > 0); }
};

struct SizeRun {
  std::uint64_t n = 0;
  bool cold = false;  // measured with the last-level cache evicted before every sample
  std::string data_origin;
  ReadBandwidth peak;
  // A CPU device: the host's std::reduce of the same data on as many threads as it has compute
  // units (the same cores), measured in the same run. threads == 0 elsewhere.
  HostReduceRate host;
  std::vector<VariantRun> variants;
  // The time the read peak would take for the input: n * sizeof(T) / peak.
  double floor_us(ElemType t) const;
  double pct_of_peak(double gbps) const { return peak.gbps > 0 ? 100.0 * gbps / peak.gbps : 0; }
  // The variant with the lowest best back-to-back median; nullptr when nothing was verified.
  const VariantRun* best_variant() const;
};

struct Run {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  TimeSource clock = TimeSource::DeviceEvents;  // the session's clock (measure/session.hpp)
  std::string clock_note;                       // with the host clock: why
  std::string cache_note;                       // with cold sizes: how the cache was evicted
  double noise_target_pct = 0;                  // TimingOptions::max_noise_pct (0: none)
  std::vector<SizeRun> sizes;                   // per size, warm then cold where both were asked
  bool all_ok() const;  // every variant at every size ok()
  std::size_t count_points() const;  // at the first size
};

// What to measure.
struct Design {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::vector<std::uint64_t> sizes;  // generated data of each size; ignored when input is set
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  const HostData* input = nullptr;   // the user's data instead (one size)
  std::vector<std::string> variants; // registry names; empty: every registered variant
  std::vector<Define> defines;       // added to every point
  TimingOptions timing;
  // Which caches to measure each size with: warm (the default), cold, or both (warm first).
  // Cold needs `evict` (Session::cache_evictor()).
  bool warm = true, cold = false;
  Session::CacheEvictor evict;
  TuningSource tuning;               // for the points with use_tuning
  std::shared_ptr<const UserOperator> user_op;  // Op::User's operator (its reference on the device)
  // The points of one (available) variant at one size, in the order to measure and print.
  std::function<std::vector<Point>(const Variant&, std::uint64_t n)> points;
};

// What the caller watches of a run (both optional).
struct Watch {
  // Before each step (an input prepared, a read peak, a launch): the steps done and their total,
  // weighed by their estimated seconds, and what comes next.
  std::function<void(const ProgressStep&)> progress;
  // Set: the engine calibrates first (calibrate(), about a second) and calls this with the run's
  // estimate before any input is generated; returning false ends the run there (an empty Run:
  // `--estimate`). Without it the steps are weighed by the bytes they read.
  std::function<bool(const RunEstimate&)> estimated;
};

// Throws Error before any measurement for sizes the device cannot hold in one buffer, an input
// of another type, or unknown variants; everything after that is recorded in the Run.
Run measure(const Session& session, const Design& design, const Watch& watch = {});

}  // namespace clreduce
