// The descriptor's families beyond the whole array: lines (rows of a matrix, segments by CSR
// offsets or begin/end arrays: kernels_cl/reduce_descriptor_lines.cl) and columns
// (kernels_cl/reduce_descriptor_cols.cl): their planners, and the part of the AxisReducer and
// the SegmentedReducer that builds, caches and enqueues them.
// Thread-safety: a FamilyReducer belongs to one reducer (one thread at a time).
#pragma once

#include "clreduce/introspect/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "core/bound_queue.hpp"
#include "descriptor/common.hpp"
#include "descriptor/tuned.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace clreduce {

// What a caller may fix of a lines or columns launch; unset: the planner's.
struct FamilyParams {
  std::optional<std::size_t> wg;          // WG_SIZE (columns: TILE_X x ROWS_Y)
  std::optional<unsigned> row_width;      // lines: ROW_WIDTH
  std::optional<std::uint64_t> chunks;    // lines: parts per line; columns: row chunks
  std::vector<Define> defines;            // -D: declared parameters (ITEMS, VEC, TILE_X, ...) and others, untouched
};

// The work-group size of a lines or columns launch: the caller's (params.wg, or -D WG_SIZE),
// checked against the device and the built kernel (ConfigError, Param::WorkGroupSize); else
// `preferred` (256), or the most they allow.
std::size_t family_wg(const KernelSpec& k, const FamilyParams& params, const DeviceInfo& dev,
                      std::size_t kernel_max_wg, std::size_t preferred);

enum class LineKind { Rows = 0, Offsets = 1, BeginEnd = 2 };  // LINES in the kernel

struct LineShape {
  LineKind kind = LineKind::Rows;
  std::uint64_t lines = 0;    // rows, or segments
  std::uint64_t longest = 0;  // rows: the row length; segments: the elements (n), which bounds any one
  std::uint64_t average = 0;  // elements per line: the row length, or n / segments
  Scalar offset_type = Scalar::U64;  // segments: U32, U64, I32 or I64
};

// The lines launch (see reduce_descriptor_lines.cl): VEC 16 bytes of the widest input (fewer for
// lines of under 4 such vectors), ITEMS 2, ROW_WIDTH the power of two nearest an average line's
// vectors / ITEMS (1 .. WG_SIZE), parts when there are under 4 lines per compute unit and a line
// is many groups' worth, and at most 32 groups per compute unit (the groups loop over the lines).
// Throws ConfigError naming the parameter.
DescriptorLaunch plan_lines(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                            const DeviceInfo& dev, std::size_t kernel_max_wg, bool aligned);
// The columns launch (see reduce_descriptor_cols.cl) over an m x ncols matrix: VEC 1 (a caller's
// -D VEC up to the columns), TILE_X the work-group where the columns' work-items
// alone give 2048 per compute unit, else 32 (or those work-items rounded up to a power of two),
// ROWS_Y = WG_SIZE / TILE_X, row chunks for about 8 groups per compute unit, each at least
// ROWS_Y x ITEMS x 4 rows. Throws ConfigError.
DescriptorLaunch plan_columns(const Reduction& r, std::uint64_t m, std::uint64_t ncols, const FamilyParams& params,
                              const DeviceInfo& dev, std::size_t kernel_max_wg, bool aligned);

class FamilyReducer {
 public:
  // `tuning`: the owner's tuning database (null or empty: none), whose descriptor entries fill the
  // parameters a call's FamilyParams leave unset (src/descriptor/tuned.hpp): rows and segments by
  // the rows class of (lines, average length), columns by the columns class of the matrix.
  explicit FamilyReducer(BoundQueue& bound, std::function<const LoadedTuningDb*()> tuning = {})
      : bound_(bound), programs_(bound), tuning_(std::move(tuning)) {}

  // (Both: on `on`, null for the bound queue; another in-order queue of its context and device;
  // with_event false: no event made, an empty one returned.)
  // Rows of a matrix (LineKind::Rows: `lines` rows of `len` elements, `ld` apart) or segments
  // (seg_a: the S + 1 offsets, or the begins with seg_b the ends; n: the elements every input
  // holds from its offset). One result per line at out_index + s of `out`.
  cl::Event lines(const Reduction& r, const std::vector<Input>& inputs, const LineShape& shape, std::uint64_t n,
                  const cl::Buffer* seg_a, const cl::Buffer* seg_b, std::uint64_t ld, std::uint64_t len,
                  const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                  const std::vector<cl::Event>& wait, const FamilyParams& params,
                  const cl::CommandQueue* on = nullptr, bool with_event = true);
  DescriptorLaunch prepare_lines(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                                 const std::vector<Input>* inputs = nullptr, cl::Kernel* kernel = nullptr);

  // Columns of an m x ncols matrix, rows `ld` apart: one result per column at out_index + j.
  cl::Event columns(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t m, std::uint64_t ncols,
                    std::uint64_t ld, const cl::Buffer& out, std::uint64_t out_index,
                    const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                    const FamilyParams& params, const cl::CommandQueue* on = nullptr, bool with_event = true);
  DescriptorLaunch prepare_columns(const Reduction& r, std::uint64_t m, std::uint64_t ncols, std::uint64_t ld,
                                   const FamilyParams& params, const std::vector<Input>* inputs = nullptr,
                                   cl::Kernel* kernel = nullptr);

  // (prepare_lines and prepare_columns: the tuning database's entry first, where it fills anything
  // and has not been refused here; a refusal is said in the launch's warnings, once per reducer,
  // and the planner's defaults are used.)

  // Blocking: reads `count` results from `out` (after the last enqueue on the bound queue).
  std::vector<Result> read(const Reduction& r, const cl::Buffer& out, std::uint64_t count);
  // A buffer the reducer keeps for blocking calls' results (at least `count` results of r).
  const cl::Buffer& result_buffer(const Reduction& r, std::uint64_t count);
  std::size_t allocations() const { return allocations_; }

 private:
  DescriptorLaunch lines_with(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                              const std::vector<Input>* inputs, cl::Kernel* kernel);
  DescriptorLaunch columns_with(const Reduction& r, std::uint64_t m, std::uint64_t ncols, std::uint64_t ld,
                                const FamilyParams& params, const std::vector<Input>* inputs, cl::Kernel* kernel);
  // The launch of `with(params)`, tuned first where the cache's entry fills anything (its chunks at
  // most `most_chunks`: a class's count cut to a smaller shape, where a caller's is refused).
  template <class With>
  DescriptorLaunch tuned_or_default(const Reduction& r, DescriptorFamily family, const std::string& shape_class,
                                    const FamilyParams& params, With with, std::uint64_t most_chunks = ~std::uint64_t{0});

  BoundQueue& bound_;
  DescriptorPrograms programs_;
  DescriptorTuningCache tuning_;
  SourceCache sources_;
  Scratch partials_, tickets_, results_;
  std::size_t allocations_ = 0;
};

}  // namespace clreduce
