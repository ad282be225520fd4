// `clreduce tune axis`: for each shape (one per shape class by default), the planner's default
// launch and every candidate launch of that axis (every variant x a small grid of wg, row width
// and groups per compute unit), each a verified, timed run_axis (the measuring engine's clock and
// samples, every output checked against the host reference); then per shape class the best
// candidate, kept for the tuning database only where it beats the default by more than the noise:
//
//   keep  when the candidate was verified at every shape of its class, launches otherwise than the
//         default at some shape, and gain = geometric mean over the class's shapes of
//         default median / candidate median > 1 + max(min_gain, noise), where noise is the largest
//         over those shapes of (candidate's IQR + default's IQR) / 2 / default median.
//
// A class where nothing passes keeps the default rule: tune says so, and its old entry (if any)
// is removed when the database is written. Chunks are tuned and stored as groups per compute
// unit (axis_chunks_for), so the launch transfers to every shape of the class.
#pragma once

#include "benchmarks/axis_run.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/tuning.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

struct AxisTuneDesign {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  std::vector<Axis> axes;                                       // empty: rows, then cols
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;  // empty: axis_tune_default_shapes
  std::vector<std::string> variants;                            // empty: every variant of the axis
  std::vector<std::size_t> wg;                // empty: 64, 128, 256, 512 (up to the device's limit)
  std::vector<unsigned> row_width;            // empty: 1, 2, 4, 8, 16, 32 (rows_sliced)
  std::vector<unsigned> groups_per_cu;        // empty: 2, 4, 8, 16, 32 (rows_split, cols_tile)
  double min_gain = 0.03;                     // the smallest gain kept, beside the noise
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
};

// One shape per class of `axis` on this device: about 2^24 elements on a GPU, 2^20 elsewhere (at
// most a quarter of one allocation), each shape checked to fall into its class (a class no shape
// of that size reaches on this device is left out).
std::vector<std::pair<std::uint64_t, std::uint64_t>> axis_tune_default_shapes(const DeviceInfo& dev, ElemType type,
                                                                               Axis axis);
// The same for elements of `elem_bytes` bytes (the descriptor types: u8 .. f64, f16, bf16).
std::vector<std::pair<std::uint64_t, std::uint64_t>> axis_tune_default_shapes(const DeviceInfo& dev,
                                                                               std::size_t elem_bytes, Axis axis);

// A candidate launch: an axis variant and the parameters it takes (unset: the planner's default).
struct AxisCandidate {
  std::string variant;
  std::optional<std::size_t> wg;
  std::optional<unsigned> row_width, groups_per_cu;
  std::string label() const;  // "rows_sliced wg 128 rw 8", "cols_tile gpc 16"
};
// Every candidate of `axis` for the design's grid.
std::vector<AxisCandidate> axis_tune_candidates(const AxisTuneDesign& d, const DeviceInfo& dev, Axis axis);

// One launch measured at one shape.
struct AxisTunePoint {
  std::optional<AxisCandidate> candidate;  // empty: the planner's default launch
  std::string launch;                      // the plan's variant and launch label
  std::optional<AxisReport> report;
  std::string refused, error;              // why it did not run
  std::string same_as;                     // a launch already measured at this shape (not run again)
  bool ok() const { return report && report->ok(); }
  double us() const { return report ? report->timing.whole_us.median : 0; }
};
struct AxisTuneShape {
  Axis axis = Axis::Rows;
  std::uint64_t m = 0, n = 0;
  std::string shape_class;
  std::vector<AxisTunePoint> points;  // [0]: the default launch
};
// The choice for one class.
struct AxisTuneClass {
  Axis axis = Axis::Rows;
  std::string shape_class;
  std::optional<TunedAxisEntry> entry;  // empty: the default rule is kept
  std::string best;                     // the best candidate's label ("" when none was verified)
  double gain = 0, noise = 0;           // the best's gain over the default and the noise
  std::string note;                     // why the default rule is kept, when it is
};
struct AxisTuneRun {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  std::vector<AxisTuneShape> shapes;
  std::vector<AxisTuneClass> classes;
  bool all_ok() const;  // every point that ran verified
};

// Measures the design (every shape checked against the device first by the caller).
AxisTuneRun measure_axis_tune(const Session& session, const AxisTuneDesign& d,
                              const std::function<void(const ProgressStep&)>& progress = {});
// The per-class choice from the measured shapes (the rule above); fills run.classes.
void choose_axis_tuning(AxisTuneRun& run, const AxisTuneDesign& d, const std::string& date);

}  // namespace clreduce
