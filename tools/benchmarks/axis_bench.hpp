// The axis benchmark (`clreduce bench axis`): at each M x N shape, every axis launch
// asked for (the planner's default launch first, then each named variant of that axis), each a
// verified run_axis, beside two figures measured on the same M * N elements: the device's read
// peak over a buffer of that size, and the scalar family's whole-array reduction of those
// elements with its fastest known launch (the Reducer's own resolution: the tuning database where
// it has the device, else the device's default policy). Bandwidth counts the bytes read:
// M * N * sizeof(T).
#pragma once

#include "benchmarks/axis_run.hpp"
#include "clreduce/introspect/axis.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/timing.hpp"
#include "data/host_data.hpp"
#include "measure/measure.hpp"
#include "measure/read_bandwidth.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

// The axis shapes measured on a GPU (8192x8192, 16384x16384, 1048576x32, 32x1048576, 65536x1024,
// 1024x65536, 4096x4096); on any other device small ones (1024x1024, 65536x32, 32x65536,
// 4096x256).
std::vector<std::pair<std::uint64_t, std::uint64_t>> default_axis_bench_shapes(const DeviceInfo& dev);

struct AxisBenchDesign {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;  // M x N; empty: the defaults
  std::vector<Axis> axes;                                       // empty: rows, then cols
  // Axis variants to run after each axis's default launch (those of the other axis are left out
  // at that axis); empty: every variant of the axis.
  std::vector<std::string> variants;
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
  // Each shape's launches of an axis are measured `rounds` times in turn, round r starting at the
  // r-th launch of the list, and each point keeps its fastest round (by back-to-back median): at
  // a few microseconds a launch, the one measured first in a shape read 25-40% slower than the
  // same launch measured again right after it (bench/NOTES.md, axis shapes that stay in the L2).
  unsigned rounds = 1;
  TuningSource tuning;  // where the scalar reduction's launch comes from
  std::shared_ptr<const UserOperator> user_op;  // Op::User's operator
};

// One point: an axis launch at one shape.
struct AxisBenchRow {
  Axis axis = Axis::Rows;
  std::string chosen_by;  // "default" (the planner's choice) or the variant named
  std::string variant;    // the variant that ran (or would have run)
  std::optional<AxisReport> report;
  std::string refused;    // ConfigError or LimitError: why this launch does not run here
  std::string error;      // any other failure (a kernel that does not build, ...)
  double pct_of_peak = 0;  // GB/s / the shape's read peak, in percent
  double speedup = 0;      // the scalar reduction's back-to-back median / this one's (0: not known)
  unsigned round = 0;      // the round (1-based) whose report is kept; 0: none ran
  bool failed() const { return !error.empty() || (report && !report->ok()); }
};

struct AxisBenchShape {
  std::uint64_t m = 0, n = 0;
  std::uint64_t bytes = 0;  // M * N * sizeof(T): what every reduction of the shape reads
  std::string data_origin;
  std::string error;        // the shared input or the read peak failed: why (the points still run)
  std::optional<ReadBandwidth> peak;
  // The whole-array reduction of the same M * N elements (Launch::chosen_by says how its variant
  // was chosen).
  std::optional<ReduceReport> scalar;  // of scalar_op_of(op)
  std::string scalar_refused, scalar_error;
  std::vector<AxisBenchRow> rows;
  bool scalar_failed() const { return !scalar_error.empty() || (scalar && !scalar->ok()); }
};

struct AxisBenchRun {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  TimeSource clock = TimeSource::DeviceEvents;  // the session's clock
  std::string clock_note;
  bool tuning = true;  // the scalar reduction could take the tuning database's launch
  unsigned rounds = 1;  // AxisBenchDesign::rounds
  std::vector<AxisBenchShape> shapes;
  // Every measured point verified (refused points are not failures; errors are).
  bool all_ok() const;
};

// The variants run at `axis` after its default launch (the design's named ones of that axis, or
// every variant of it).
std::vector<std::string> axis_bench_variants(const AxisBenchDesign& design, Axis axis);

// Measures the design: per shape the data generated once, uploaded once for the read peak and the
// scalar reduction, then every point (run_axis), in `rounds` rounds. A point refused or failing is
// kept with its reason (a failing round is kept whatever the others measured) and not run again;
// nothing stops the run. `progress` hears before each step, weighed by the bytes read.
// The operator of the scalar family's comparison run: op itself; min for argmin, max for argmax
// (the whole-array family finds no index).
Op scalar_op_of(Op op);

AxisBenchRun measure_axis_bench(const Session& session, const AxisBenchDesign& design,
                                const std::function<void(const ProgressStep&)>& progress = {});

}  // namespace clreduce
