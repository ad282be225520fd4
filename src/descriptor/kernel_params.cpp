// The descriptor kernels' parameters as data (src/descriptor/kernel_params.hpp).
#include "descriptor/kernel_params.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"

#include <algorithm>
#include <stdexcept>

namespace clreduce {

namespace {
const std::vector<std::uint64_t> kPow2Wg = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
const std::vector<std::uint64_t> kFlag = {0, 1};

KernelParam aligned_param() {
  return {"ALIGNED", "every input's element offset is a multiple of VEC (loads through vector pointers)", kFlag,
          "from the inputs' offsets", false, false};
}
// `p` marked tunable: `clreduce tune descriptors` searches it (its values:
// tools/benchmarks/descriptor_tune.cpp, descriptor_tune_axis) and the tuning database's
// descriptor entries may set it.
KernelParam tunable(KernelParam p) {
  p.tunable = true;
  return p;
}
KernelParam partial_param() {
  return {"PARTIAL", "the launch writes its accumulator unfinished: a part of a larger reduction", kFlag,
          "1 for the parts of a several-device reduction (MultiReducer), else 0", false, false};
}

// The lanes state's indices in 32 bits: derived from the shape (an index past 2^32 - 2 would be
// cut), so no caller sets it.
KernelParam lanes_index32_param(const std::string& bound) {
  return {"LANES_INDEX32", "a lanes state keeps its indices in 32 bits (LANES 1; argmin/argmax's places)", kFlag,
          "1 with LANES 1 and a descriptor's lanes state where every index a lane folds is below 2^32 - 1 (" + bound +
              "), else 0",
          false, false};
}

}  // namespace

const KernelSpec& whole_kernel() {
  static const KernelSpec k{
      "whole", "reduce_descriptor.cl", "reduce_descriptor", "one result over n elements, in one launch (a ticket)",
      {tunable(wg_param()), tunable(items_param("4; 2 for accumulators over 8 bytes and vector lifts")),
       tunable(vec_param("16 bytes of the widest input")), aligned_param(), partial_param(),
       {"BLOCKED", "each work-item reads one contiguous run of vectors, not grid-strided ones", kFlag,
        "1 where the device is not a GPU (nor llvmpipe)", false, true},
       {"LANES", "with BLOCKED: element c of each vector folds into its own accumulator c, the VEC lanes met at the "
        "run's end (VEC independent chains), not a vector's elements in order into one of ITEMS",
        kFlag, "1 on a CPU where BLOCKED is, VEC > 1 and the accumulator is at most 8 bytes without a vector lift, else 0", false, true},
       {"EXACT_GROUP",
        "an exact descriptor's work-items keep a two-term expansion in registers and their group's digits live in "
        "local memory (exact_group.clh), not an accumulator per work-item",
        kFlag, "1 for an exact descriptor where the device has fp64 and cl_khr_int64_base_atomics, else 0", false,
        true},
       {"EXACT_WHOLE_TRIPS",
        "with EXACT_GROUP: a trip whose ITEMS vectors all lie before the end loads them with no bounds test "
        "between them (only the last trip tests each vector)",
        kFlag, "1", false, true},
       {"EXACT_LAST_GROUP_ROUNDS",
        "with EXACT_GROUP: the group with the last ticket rounds the launch's digits (one launch), not a "
        "one-work-item launch after it (reduce_descriptor_exact_finish)",
        kFlag, "1 where the accumulator has at most 11 digits (sums and means of f16, bf16, f32), else 0", false,
        true},
       nv_ptx_param()}};
  return k;
}

const KernelSpec& lines_kernel() {
  static const KernelSpec k{
      "lines", "reduce_descriptor_lines.cl", "reduce_descriptor_lines",
      "one result per row of a matrix or per segment (offsets, begin/end)",
      {tunable(wg_param()),
       {"ROW_WIDTH", "work-items per line (a power of two dividing WG_SIZE)", kPow2Wg,
        "about ITEMS vectors per work-item of an average line, up to WG_SIZE", true, true, "--row-width"},
       tunable(items_param("2")), tunable(vec_param("16 bytes of the widest input, less for lines under 4 such vectors")),
       aligned_param(),
       {"LINES", "what a line is: 0 rows (s * ld, len), 1 CSR offsets, 2 begin/end arrays", {0, 1, 2},
        "from the call", false, false},
       {"OFFSET_T_ID", "the offsets' type: 0 uint, 1 ulong, 2 int, 3 long", {0, 1, 2, 3}, "from the call", false,
        false},
       {"SPLIT", "each line cut into chunks, one group each, met by a ticket per line", kFlag,
        "1 when there are under 4 lines per compute unit and a line fills several groups", false, false},
       {"BLOCKED", "each work-item folds one run of consecutive lines (ROW_WIDTH 1, SPLIT 0), not lines a grid apart",
        kFlag, "1 where the device takes CPU shapes, there are 4 lines a compute unit and no row width or parts are "
        "given, else 0", false, true},
       {"LANES", "with ROW_WIDTH 1: element c of each vector folds into its own accumulator c, the VEC lanes met at "
        "the line's end (VEC independent chains), not a vector's elements in order into one of ITEMS",
        kFlag, "1 where the device takes CPU shapes, a line is one work-item's, VEC > 1, the accumulator is at most 8 "
        "bytes without a vector lift, and an average line holds a vector (the accumulator of a scalar type: the lanes "
        "one vector) or VEC vectors (else), else 0", false, true},
       lanes_index32_param("a line's places: the longest line (every segment: n) has at most 2^32 - 1 elements"),
       nv_ptx_param()}};
  return k;
}

const KernelSpec& columns_kernel() {
  static const KernelSpec k{
      "columns", "reduce_descriptor_cols.cl", "reduce_descriptor_cols", "one result per column of a matrix",
      {{"TILE_X", "work-items along the columns per group (a power of two)", kPow2Wg,
        "the work-group where the columns alone fill the device (2048 work-items per compute unit), else 32, or "
        "the columns / VEC rounded up to a power of two where fewer",
        true, true},
       {"ROWS_Y", "row slices per group (TILE_X x ROWS_Y = the work-group)", kPow2Wg, "WG_SIZE / TILE_X", true, true},
       tunable(items_param("8 under BLOCK; else 4, 2 for accumulators over 8 bytes")),
       vec_param("1 (a column per work-item); under BLOCK on a GPU 4 bytes of the widest input (u8 4, 16-bit 2); "
                 "at most the columns"),
       aligned_param(),
       {"BLOCK", "each trip's ITEMS consecutive rows lifted at once (desc_lift_vector), one chain per column", kFlag,
        "1 where the descriptor has a lift_vector (argmin/argmax, var/std, l1, l2, nanmean, count_nonzero, 8- and "
        "16-bit sums) and the planner's VEC is 1 (then ITEMS 8 unless given); 0 for ITEMS 1",
        true, true},
       {"SPAN", "VEC-wide loads each work-item makes along a row: it owns SPAN x VEC consecutive columns (VEC > 1, "
        "BLOCK 0)", {1, 2, 4, 8},
        "on a CPU, for an accumulator of a scalar type, the largest up to 8 that keeps 8 work-items across the "
        "columns (or fits them, where fewer than 8 vectors), at most 512 bytes of accumulators a row; else 1",
        false, true},
       {"LANES", "a work-item's VEC columns a chain held as the descriptor's lanes state (vectors of the pairs' "
        "fields: lanes_type), unpacked at the end, not an array of VEC accumulators (VEC > 1, BLOCK 0)", kFlag,
        "1 on a CPU where the descriptor has lanes (argmin, argmax), VEC > 1 and BLOCK 0; else 0", false, true},
       lanes_index32_param("a column's rows: the matrix has at most 2^32 - 1 rows"),
       nv_ptx_param()}};
  return k;
}

const std::vector<const KernelSpec*>& descriptor_kernels() {
  static const std::vector<const KernelSpec*> all = {&whole_kernel(), &lines_kernel(), &columns_kernel()};
  return all;
}

}  // namespace clreduce
