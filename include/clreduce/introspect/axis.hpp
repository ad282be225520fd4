// What an AxisReducer plans and launches, for measuring tools and anyone who wants to see it:
// the resolved launch of a (type, op, axis, M, N) with its passes, and a launch (or a descriptor
// reduction) enqueued on a queue of one's own. An application that only reduces rows and columns
// needs clreduce/axis.hpp alone.
//
// Thread-safety and errors as for AxisReducer: a hook on a reducer is a call of that reducer.
#pragma once

#include "clreduce/axis.hpp"
#include "clreduce/introspect/reduce.hpp"  // DescriptorLaunch

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clreduce {

struct AxisConfig : AxisParams {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  Axis axis = Axis::Rows;
};

// One launch of an axis kernel over an m x n matrix (the input, or the previous pass's partials).
struct AxisPassPlan {
  std::string file, kernel;                // the pass's kernel (a second pass may use another)
  AxisGeometry geometry = AxisGeometry::GroupPerRow;  // that kernel's geometry
  std::uint64_t m = 0, n = 0;              // the matrix this pass reads
  // cols_tile: the rows each chunk folds; rows_split: the elements of a row each chunk folds;
  // 0: the kernel takes no fifth argument.
  std::uint64_t chunk_len = 0;
  std::uint64_t groups_x = 0, groups_y = 1;
  std::size_t wg_x = 0, wg_y = 1;
  std::uint64_t values_out = 0;            // values it writes
  // cols_fused: the chunks' partial rows (chunks x n values, the kernel's sixth argument) and a
  // ticket counter per column tile (tickets, the seventh: zeroed once, each launch leaves them 0);
  // rows_split_fused: the chunks' values (M x chunks) and a ticket per row.
  std::uint64_t fused_partials = 0, tickets = 0;
  std::string options;                     // the build option string (the program cache key)
};

struct AxisPlan {
  const AxisVariant* variant = nullptr;
  Axis axis = Axis::Rows;
  std::uint64_t m = 0, n = 0;
  std::size_t wg = 0;             // WG_SIZE, or TILE_X * ROWS_Y
  unsigned row_width = 0;         // rows_sliced, rows_warp
  unsigned vec = 0;               // rows_vector, rows_warp, cols_stream(_fused): elements per load
  std::uint64_t rows_per_step = 0;  // cols_stream: whole rows the grid's loads cover per step
  unsigned tile_x = 0, rows_y = 0;
  std::uint64_t chunks = 1;       // cols_tile's or rows_split's chunks (passes: 2 when above 1, unless fused)
  std::vector<AxisPassPlan> passes;
  // The most operations any element goes through on its way to its output value: the depth that
  // bounds the rounding of a float sum.
  unsigned depth = 0;
  std::uint64_t outputs() const { return axis == Axis::Rows ? m : n; }
  std::string launch_label() const;  // "wg 256", "wg 256, row width 8", "32x8, 4 chunks", "wg 256, VEC 4, 528 groups"
  std::string descriptor_label;  // rows_descriptor, cols_descriptor: the descriptor launch's label()
};

// A resolved axis launch for one (type, op, axis, M, N).
class AxisLaunch {
 public:
  AxisConfig config;
  AxisPlan plan;
  std::size_t kernel_max_wg = 0;  // the work-items per group the built kernel allows
  // Where the launch came from: "given" (the caller named the variant), "tuned" (the tuning
  // database's launch for the shape's class) or "default rule" (the planner's rules).
  std::string chosen_by;
  std::string shape_class;             // shape_class_of() for this shape on this device
  std::vector<std::string> tuned;      // the parameters the database filled: "variant=rows_sliced", "wg=128", ...
  std::string tuned_date, tuned_from;  // the entry's date and the database's path, when tuned
  std::vector<std::string> warnings;   // the database's (foreign device, stale driver, a tuned launch refused)

 private:
  friend class AxisReducer;
  friend struct introspect::Access;
  mutable std::vector<cl::Kernel> kernels_;  // one per pass (none for rows_descriptor, cols_descriptor)
  std::shared_ptr<const Reduction> descriptor_;  // rows_descriptor, cols_descriptor: the built-in the launch reduces
  std::uint64_t owner_ = 0;  // the serial of the reducer that prepared it (never reused)
};

namespace introspect {

// The launch for an M x N matrix: planned, built and checked on the first call for (type, op,
// axis, M, N), then cached. Throws ConfigError naming the parameter (M or N outside 1..2^32-1, the
// matrix over one allocation, double without cl_khr_fp64, a parameter the variant does not take
// or outside its values, a variant of the other axis), LimitError for the built kernel's limits,
// Error for a failed build.
std::shared_ptr<const AxisLaunch> prepare(AxisReducer& r, ElemType type, Op op, Axis axis, std::uint64_t m,
                                          std::uint64_t n);
// The same on a reducer made for the question (the launch it would run: plan, options, limits).
inline std::shared_ptr<const AxisLaunch> prepare(AxisReducer&& r, ElemType type, Op op, Axis axis, std::uint64_t m,
                                                 std::uint64_t n) {
  return prepare(r, type, op, axis, m, n);
}
// Enqueues a prepared launch's passes on `on` (default: the reducer's queue), one event per pass
// when with_events. `launch` must come from r's prepare().
std::vector<cl::Event> enqueue(AxisReducer& r, const AxisLaunch& launch, const cl::Buffer& in, const cl::Buffer& out,
                               const cl::CommandQueue* on = nullptr, bool with_events = true,
                               const std::vector<cl::Event>* wait = nullptr);

// The launch AxisReducer::reduce(Reduction, ...) and reduce_to make (its kernel, parameters,
// option string and depth).
DescriptorLaunch prepare(AxisReducer& r, const Reduction& d, Axis axis, const MatrixShape& shape);
// AxisReducer::reduce_to on `on` (null: the reducer's queue; another in-order queue of the same
// context and device, which the caller then orders); with_event false: no event made.
cl::Event enqueue(AxisReducer& r, const Reduction& d, const std::vector<Input>& inputs, Axis axis,
                  const MatrixShape& shape, const cl::Buffer& out, std::uint64_t out_index,
                  const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                  const std::vector<cl::Event>& wait = {}, bool with_event = true);

}  // namespace introspect
}  // namespace clreduce
