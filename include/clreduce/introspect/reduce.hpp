// What a Reducer plans and launches, for measuring tools (clreduce's benchmarks, tune, soak,
// explain, its tests) and for anyone who wants to see it: the resolved launch of a (type, op, n,
// offset class) and its passes, a launch enqueued on a queue of one's own, the partial-result and
// counter buffers it leaves, and the reducer's allocation and build counts. An application that
// only reduces needs clreduce/reduce.hpp alone; these hooks are not part of it.
//
// Thread-safety and errors as for Reducer: a hook on a reducer is a call of that reducer (one
// thread at a time); every failure is a clreduce::Error naming the parameter.
#pragma once

#include "clreduce/reduce.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clreduce {

// A whole configuration: the parameters and what is reduced.
struct ReduceConfig : ReduceParams {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
};

struct PassPlan {
  std::uint64_t count = 0;   // elements this pass reads
  std::uint64_t groups = 0;  // work-groups = partials it writes
  std::size_t wg = 0;
  unsigned times = 1;
  unsigned vec = 1;
  std::string options;       // the full build option string (the program cache key)
  // The last group to finish reduces the groups' partials to one value (single_pass variants).
  bool last_group_finishes = false;
  // Values this pass leaves for the next: one partial per group, or the one result.
  std::uint64_t values_out() const { return last_group_finishes ? 1 : groups; }
};

struct Plan {
  const Variant* variant = nullptr;
  // Each pass reads the values the previous one left; the last leaves one value.
  std::vector<PassPlan> passes;
  // The most additions any element goes through on its way to the result: the depth that
  // bounds the rounding error of a float sum.
  unsigned depth = 0;
  // single_pass: the groups meet through epoch-tagged 64-bit slots (SP_FINISH 1) rather than a
  // ticket counter; the two keep their state in different buffers.
  bool slots = false;
};

// What a descriptor reduction launches (introspect::prepare with a Reduction, of a Reducer, an
// AxisReducer or a SegmentedReducer): one of the descriptor kernels, with its parameters.
struct DescriptorLaunch {
  std::string kernel = "reduce_descriptor";  // reduce_descriptor, reduce_descriptor_lines, reduce_descriptor_cols
  std::size_t wg = 0;          // work-items per group
  std::uint64_t groups = 0;    // work-groups (whole: the partials the last group folds; lines,
                               // columns: along the first grid dimension)
  unsigned vec = 0;            // VEC: consecutive elements of every input per load (columns: 1)
  unsigned items = 0;          // ITEMS: loads each work-item keeps in flight per trip
  // Lines (rows and segments): work-items per line, and the parts a line is cut into (SPLIT when
  // above 1: one group each, a ticket per line). Columns: TILE_X x ROWS_Y groups, and `chunks`
  // runs of rows_per_chunk rows along the grid's second dimension.
  unsigned row_width = 0;
  std::uint64_t chunks = 1;
  unsigned tile_x = 0, rows_y = 0;
  std::uint64_t rows_per_chunk = 0;
  // Columns: BLOCK, each trip's ITEMS consecutive rows lifted at once (one chain, a combine per
  // ITEMS elements), for descriptors with a lift_vector at VEC 1.
  bool block = false;
  // Columns: SPAN, the VEC-wide loads a work-item makes along a row (it owns span x vec columns).
  unsigned span = 1;
  // Columns: LANES, a chain's VEC columns held as the descriptor's lanes state (vectors), not an
  // array of VEC accumulators (a CPU, argmin/argmax).
  bool lanes = false;
  // Whole arrays, an exact descriptor: EXACT_GROUP (each work-item's expansion in registers, its
  // group's digits in local memory; the launch's digits in one zeroed accumulator instead of a
  // partial per group).
  bool exact_group = false;
  // With exact_group: the group with the last ticket rounds (EXACT_LAST_GROUP_ROUNDS 1, one
  // launch), else a one-work-item launch after the reduction does.
  bool exact_last_group_rounds = false;
  std::string options;         // the build option string
  // The longest chain of combines from an element to the result: whole arrays for their n,
  // columns for their m rows, lines for the longest line the plan was made for (depth_of for a
  // given line length).
  unsigned depth = 0;
  unsigned depth_of(std::uint64_t line_length) const;  // lines: a line of that many elements; else depth
  std::string label() const;   // "wg 256, 1056 groups, VEC 4, ITEMS 4", "wg 256, row width 8, ..."
  // The build this launch runs: its program (CL_PROGRAM_BINARIES: PTX on NVIDIA) and its private
  // memory per work-item (KernelLimits::private_mem_bytes: on NVIDIA, what is not in registers).
  cl::Program program;
  std::uint64_t private_bytes = 0;
  // The tuning database's part (clreduce/tuning.hpp, descriptor_entries): the parameters its
  // entry filled ("WG_SIZE=64", "chunks=4"; empty: none), the file, the entry's date, the shape
  // class looked up ("whole", "rows.short.many"; empty where tuning was disabled), and warnings
  // (a foreign device, a stale driver, a tuned launch refused here and the defaults used).
  std::vector<std::string> tuned;
  std::string tuned_from, tuned_date, shape_class;
  std::vector<std::string> warnings;
};

// A resolved launch: what the reducer runs for one (type, op, n, offset class).
class Launch {
 public:
  // The variant and each parameter as given, tuned, or set by the default policy (a CPU's
  // work-group, for one); unset: the planner derives it, and `plan` holds what runs.
  ReduceConfig config;
  std::uint64_t n = 0;
  std::uint64_t offset = 0;  // the offset it was prepared for (the alignment class matters)
  Plan plan;
  // Where the variant came from: "given", "tuning database", or the name of the default policy.
  std::string chosen_by;
  std::vector<std::string> tuned;  // parameters taken from the tuning database, e.g. "wg=256"
  std::string tuned_from;          // the database's path, when `tuned` is not empty
  // The work-group size the built kernels allow (CL_KERNEL_WORK_GROUP_SIZE, the smallest over the
  // passes). A default work-group size is never above it; a chosen one over it is refused.
  std::size_t kernel_max_wg = 0;
  // Said once when the launch was resolved, e.g. tuned parameters the device refused (the
  // defaults were used) or a database for another device or driver.
  std::vector<std::string> warnings;

 private:
  friend class Reducer;
  friend struct introspect::Access;
  mutable std::vector<cl::Kernel> kernels_;  // one per pass; the owning reducer sets their arguments
  std::uint64_t owner_ = 0;  // the serial of the reducer that prepared it (never reused)
};

namespace introspect {

// The launch for n elements of `type` from element `offset` of a buffer: resolved, validated,
// built and checked against the kernel's limits on the first call for (type, op, n, offset mod
// 16), then taken from the reducer's cache. Throws Error naming the parameter: an unknown or
// unavailable variant, n = 0, n over one allocation, a parameter outside its valid values or
// over a device limit; ConfigError where the configuration is refused before a kernel is built,
// LimitError where the built kernel refuses it.
std::shared_ptr<const Launch> prepare(Reducer& r, ElemType type, Op op, std::uint64_t n, std::uint64_t offset = 0);
// The same on a reducer made for the question (the launch it would run: plan, options, limits).
inline std::shared_ptr<const Launch> prepare(Reducer&& r, ElemType type, Op op, std::uint64_t n,
                                             std::uint64_t offset = 0) {
  return prepare(r, type, op, n, offset);
}

// The launch Reducer::reduce(Reduction, ...) and reduce_to make for (d, n): work-group size,
// groups, ITEMS, the option string, and the depth (the longest chain of combines any element goes
// through: the float bound).
DescriptorLaunch prepare(Reducer& r, const Reduction& d, std::uint64_t n);

// Enqueues a prepared launch's passes (one event per pass when with_events) on `on` (default: the
// reducer's queue; another in-order queue of the same context and device may be given, and the
// caller then orders the two queues). The value is left in element 0 of result_buffer(r, launch).
// `launch` must come from r's prepare().
std::vector<cl::Event> enqueue(Reducer& r, const Launch& launch, const cl::Buffer& in, std::uint64_t offset = 0,
                               const cl::CommandQueue* on = nullptr, bool with_events = true,
                               const std::vector<cl::Event>* wait = nullptr);
// A descriptor reduction (as Reducer::reduce_to) enqueued on `on` (null: the reducer's queue;
// another in-order queue of the same context and device). with_event false: no event made (an
// empty one returned), as a benchmark's launches between its first and last want.
cl::Event enqueue(Reducer& r, const Reduction& d, const std::vector<Input>& inputs, std::uint64_t n,
                  const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                  const cl::CommandQueue* on, const std::vector<cl::Event>& wait = {}, bool with_event = true);
// Blocking read of the value the last enqueue of `launch` left.
Value read_result(Reducer& r, const Launch& launch, const cl::CommandQueue* on = nullptr);
// The buffer whose element 0 holds that value.
cl::Buffer result_buffer(const Reducer& r, const Launch& launch);
// single_pass: the ticket counter, or (Plan::slots) the epoch in word 0 and the groups' 64-bit
// slots from byte 16; empty for other variants. Tests read its state between launches.
// enqueue, read_result, result_buffer and counter_buffer throw Error for a launch another
// reducer prepared (a destroyed one included).
cl::Buffer counter_buffer(const Reducer& r, const Launch& launch);
// Device buffers r has allocated so far (scratch of every launch and of the descriptor path).
std::size_t allocations(const Reducer& r);
// Launches r has resolved and built (its cache's misses).
std::size_t launches_prepared(const Reducer& r);

}  // namespace introspect
}  // namespace clreduce
