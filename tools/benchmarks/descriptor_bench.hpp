// The descriptor benchmark (`clreduce bench descriptors`): reduction descriptors (the
// built-ins, or one user's descriptor file) x element types x families (the whole array, rows,
// columns) x launches, in one process. Per type and family shape the inputs are generated once;
// each point is then a verified run_descriptor (benchmarks/descriptor_run.hpp): every result
// checked against its host reference, timed back to back and one call at a time, beside the read
// peak over as many bytes. Bandwidth counts the bytes of every input the reduction reads (a dot
// product reads two arrays).
//
// A launch grid sweeps the family kernels' declared parameters (src/descriptor/kernel_params.cpp,
// `clreduce variants --params`): each grid axis is one -D parameter, or the row chunks (`chunks`)
// or the work-group size (`wg`), with its values; the points are the axes' product, each run after
// the family's default launch at the same point.
// Thread-safety: measure_descriptor_bench uses the session's queue; one run at a time per session.
#pragma once

#include "benchmarks/descriptor_run.hpp"
#include "clreduce/reduction.hpp"
#include "data/host_data.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

// One axis of a launch grid: "TILE_X" (a -D parameter), "chunks" or "wg", and its values.
struct LaunchAxis {
  std::string name;
  std::vector<std::uint64_t> values;
};

// One launch of the grid: what it sets, in the order of the axes.
struct DescriptorLaunchPoint {
  std::string label;  // "TILE_X=64 ROWS_Y=4 chunks=8"; "default" for the family's own launch
  std::vector<Define> defines;
  std::optional<std::uint64_t> chunks;
  std::optional<std::size_t> wg;
  std::optional<unsigned> groups_per_cu;  // the whole array's groups per compute unit
};

// The grid's points, the default launch first: the product of the axes, the first axis outermost.
// Each axis is checked against the kernel of every family asked for (its name declared there and
// settable by a caller, each value valid; `chunks` only for rows and columns, `groups_per_cu`
// only for the whole array); a value repeated is refused. Throws Error (Param::Define,
// Param::Chunks or Param::GroupsPerCu) naming the axis, the family's kernel
// and the valid names or values.
std::vector<DescriptorLaunchPoint> launch_grid(const std::vector<LaunchAxis>& axes,
                                               const std::vector<DescriptorJob::Family>& families);

struct DescriptorBenchDesign {
  std::vector<Builtin> ops;             // the built-ins to run (empty with `user`)
  std::optional<Reduction> user;        // a user's descriptor instead (its own input types)
  std::vector<Scalar> types;            // the built-ins' input type, each in turn
  std::optional<Scalar> accumulate;     // the built-ins' accumulator where they have a choice
  Summation summation = Summation::Default;  // exact: the built-ins that take it, summed exactly
  std::vector<DescriptorJob::Family> families;                  // Whole, Rows, Cols
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;  // rows and columns: M x N
  std::uint64_t bytes = 0;              // the whole array: bytes of each input (n = bytes / element)
  std::vector<DescriptorLaunchPoint> launches;  // launch_grid's; empty: the default launch alone
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
  bool read_peak = true;                // each point's read peak beside it (tune leaves it out)
};

// The whole array's bytes per input when none are given: 256 MiB on a GPU, 16 MiB elsewhere.
std::uint64_t default_descriptor_bench_bytes(const DeviceInfo& dev);

struct DescriptorBenchRow {
  std::string reduction;                // the built-in's or the file's name
  std::string types;                    // the inputs' types, "f32" or "f16 x f16"
  DescriptorJob::Family family = DescriptorJob::Family::Whole;
  std::uint64_t m = 0, n = 0;           // rows and columns: the shape; whole: n elements (m 0)
  std::string launch = "default";       // DescriptorLaunchPoint::label
  std::optional<DescriptorReport> report;
  std::string refused;  // ConfigError: why this point does not run here (not a failure)
  std::string error;    // any other failure
  bool failed() const { return !error.empty() || (report && !report->ok()); }
};

struct DescriptorBenchRun {
  TimeSource clock = TimeSource::DeviceEvents;
  std::string clock_note;
  std::vector<DescriptorBenchRow> rows;
  bool all_ok() const;
};

// Measures every point: types outermost, then families and shapes (the inputs generated once for
// each), then reductions, then launches. A point refused or failing is kept with its reason;
// nothing stops the run. `progress` hears before each point, weighed by the bytes it reads.
// `on_row` hears each row once it is measured (or refused), in the run's order.
DescriptorBenchRun measure_descriptor_bench(const Session& session, const DescriptorBenchDesign& design,
                                            const std::function<void(const ProgressStep&)>& progress = {},
                                            const std::function<void(const DescriptorBenchRow&)>& on_row = {});

}  // namespace clreduce
