// Reductions along one axis of a matrix: the sum (min, max) of every row, or of every column, of
// an M x N row-major matrix in a cl::Buffer, into a buffer of M (rows) or N (columns) values.
// An AxisReducer is bound to an application's command queue, like the Reducer.
//
// The variants (axis_variants(), kernels_cl/axis_*.cl):
//   rows_group   one work-group per row: every work-item strides along the row, then the tree
//   rows_sliced  ROW_WIDTH work-items per row, WG_SIZE / ROW_WIDTH rows per group: for many
//                short rows, where a whole group per row would leave most of it idle
//   rows_tile    one work-item per row: the group's WG_SIZE rows staged TILE_N columns at a time
//                in local memory (coalesced reads), each work-item folding its own row there
//   rows_vector  one work-item per row, the row read VEC elements (16 bytes) per load and folded
//                in registers: no tree, no local memory, no barrier
//   rows_warp    ROW_WIDTH lanes of one warp per row, each reading consecutive VEC-element
//                vectors (a warp's load is one contiguous run), ITEMS rows per trip, the lanes
//                folded by warp shuffles (PTX shfl.sync on NVIDIA; elsewhere through local memory)
//   rows_split   each row split into chunks, one group per chunk, then a second pass
//                (rows_sliced) over the chunks' values: for few, long rows
//   rows_split_fused  rows_split in one launch: the last group to finish a row's chunks folds
//                their values (a ticket per row); each group pays that meeting, so for few chunks
//   cols_item    one work-item per column, down the whole column: a warp's loads read one
//                consecutive row segment (coalesced), but only N work-items exist
//   cols_tile    TILE_X columns x ROWS_Y row-slices per group over a chunk of the rows, folded in
//                local memory; the rows split into chunks (a second pass adds the chunks' partial
//                rows) so that a tall matrix with few columns still fills the device
//   cols_fused   cols_tile in one launch: the last group to finish a column tile's chunks folds
//                their partial rows (a ticket per tile), so no second launch
//   cols_stream  the matrix read as one flat array in VEC-wide loads, with a stride of whole rows
//                so that each work-item's lanes keep their columns; each group folds its lanes
//                per column into a partial row, which cols_tile then adds: for thin matrices
//   cols_stream_fused  cols_stream in one launch: the last group to finish streams the groups'
//                partial rows (a ticket and a device-wide fence per group); sums, min and max
//   rows_descriptor, cols_descriptor  the descriptor families' kernels (reduce_descriptor_lines.cl,
//                reduce_descriptor_cols.cl) over the operator's built-in (builtin_of: clreduce/reduction.hpp),
//                planned by their own planners: on a CPU, a work-item's contiguous run of rows
//                folded in SIMD lanes, 8-wide column groups; every operator but a user's file
// With no variant named, on a CPU device (no GPU, no loop limit: the descriptor planners' CPU
// shapes) every operator but a user's goes to rows_descriptor or cols_descriptor (on PoCL the GPU
// shapes below read 0.02-0.3x the whole array's rate: bench/NOTES.md, the Op path on a CPU).
// Elsewhere (measured on the H100: bench/NOTES.md, axis reductions): rows of at most 1024
// elements go to rows_warp on a device with NVIDIA's warp shuffle, else to rows_sliced (a
// work-item per about 8 elements of the row, a row width of 1 to 32); longer rows, where there
// are fewer than 4 per compute unit, to rows_split_fused (rows_split for argmin/argmax); rows of
// 128 KiB or more (64 KiB in a matrix of 512 MiB or more) to rows_split for sums, min and max;
// the rest to rows_group. Columns go to cols_item
// where there are columns enough for 8 groups of 256 work-items per compute unit; else to
// cols_fused when that gives 2 to 64 row chunks; thin matrices (rows of at most 128 bytes) that
// would need more chunks are streamed (cols_stream_fused, cols_stream for argmin/argmax); the
// rest go to cols_tile. rows_split(_fused) and cols_tile make enough chunks for about 8 groups per
// compute unit, rounded down to a power of two; rows_split's sums, min and max also parts of at
// most 16 KiB of a row (32 KiB in one launch). rows_tile and rows_vector are named variants
// (and candidates of `clreduce tune axis`).
//
// Shape classes and the tuning database: shape_class_of() sorts a shape into one of a few named
// classes (below) that want the same launch. `clreduce tune axis` stores the best launch per
// (device, type, op, axis, class) in the tuning database (clreduce/tuning.hpp, "axis_entries");
// with no variant named, the AxisReducer takes the tuned launch of the shape's class, and the
// rules above where the database has none (or the caller turned it off). A caller's variant and
// parameters always win: the tuned launch is taken only when no variant is named or the named one
// is the tuned one, and then only for the parameters the caller left unset.
//
// Thread-safety: as the Reducer (one thread at a time per AxisReducer).
// Errors: clreduce::Error naming the parameter; ConfigError before a kernel is built, LimitError
// for the built kernel's limits.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/kernel_spec.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduce.hpp"  // TuningSource
#include "clreduce/tuning.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

enum class Axis {
  Rows,  // one value per row: out[i] = OP over j of in[i * N + j], M values
  Cols,  // one value per column: out[j] = OP over i of in[i * N + j], N values
};
std::string_view name_of(Axis a);  // "rows", "cols"
// "rows" or "cols" (also "row", "columns", ...); throws ConfigError (Param::Axis) otherwise.
Axis parse_axis(std::string_view text);

// How a variant's kernel lays its work-items over the matrix: what the planner computes for it
// (its grid, the passes after it, the depth of its fold). A new variant with one of these
// geometries is its .cl file and one registry entry (src/axis/plan.cpp); the planner never tests
// a variant's name.
enum class AxisGeometry {
  GroupPerRow,    // rows_group: a work-group per row, strided, then the tree
  SlicedRows,     // rows_sliced: ROW_WIDTH work-items per row, WG_SIZE / ROW_WIDTH rows per group
  StagedRows,     // rows_tile: a work-item per row, the group's rows staged in local memory
  ItemPerRow,     // rows_vector: a work-item per row, VEC-wide loads folded in registers
  WarpRows,       // rows_warp: ROW_WIDTH lanes of a warp per row, folded by shuffles
  RowParts,       // rows_split(_fused): each row in chunks of a group each
  ItemPerColumn,  // cols_item: a work-item per column
  ColumnTiles,    // cols_tile, cols_fused: TILE_X x ROWS_Y groups over chunks of the rows
  ColumnStream,   // cols_stream(_fused): the matrix streamed as one array, a partial row per group
  Descriptor,     // rows_descriptor, cols_descriptor: the descriptor family's kernel and planner
};

struct AxisVariant {
  std::string name, file, kernel;  // "rows_group", "axis_rows_group.cl", "axis_rows_group"
  Axis axis = Axis::Rows;
  std::string summary;   // one line: what it does
  std::string tradeoff;  // what it gains and what it costs
  std::string predecessor;  // the variant this one is a step after ("" for the first of its axis)
  std::string literature;   // where the idea comes from
  std::string step;         // what it changes from its predecessor, and why that should help
  AxisGeometry geometry = AxisGeometry::GroupPerRow;
  // Its kernel's parameters (clreduce/kernel_spec.hpp): each -D the planner writes, its valid
  // values, its rule, who may set it. A caller's -D of one it declares is the plan's value (or
  // refused, for a derived one); a -D of one only other axis kernels declare is refused.
  KernelSpec spec;
  bool fused = false;    // its chunks meet in the same launch (partials and tickets)
  bool arg_ops = true;   // takes argmin/argmax (cols_stream_fused does not: its finish folds values)
  bool user_ops = true;  // takes Op::User (the descriptor variants do not: a user's file is no descriptor)
  // The variant whose kernel folds the chunks' values in a second launch ("" when there is none):
  // rows_split's chunks go to rows_sliced, cols_tile's to itself, cols_stream's to cols_tile.
  std::string second_pass;
  // ColumnTiles: the wider NVIDIA tiles of column_tile_policy (src/axis/plan.cpp), measured for
  // cols_fused's sums, min and max on the H100.
  bool wide_tiles_on_nvidia = false;

  // Asked of `spec`:
  bool uses_wg() const;         // a WG_SIZE the caller may set (one-dimensional groups)
  bool uses_row_width() const;  // ROW_WIDTH
  bool uses_vec() const;        // VEC-wide loads (the planner's VEC: AxisPlan::vec)
  std::size_t default_wg() const;   // WG_SIZE's fallback (256)
  unsigned default_tile_x() const;  // TILE_X's fallback (32), 0 where it takes none
  unsigned default_rows_y() const;  // ROWS_Y's fallback (8), 0 where it takes none
  // Asked of `geometry`:
  bool uses_tile() const { return geometry == AxisGeometry::ColumnTiles; }    // TILE_X x ROWS_Y groups, row chunks
  bool splits_rows() const { return geometry == AxisGeometry::RowParts; }     // row chunks of one group each
  bool streams() const { return geometry == AxisGeometry::ColumnStream; }     // its groups (chunks) write partial rows
  // Whether a chunk count (--chunks, AxisParams::chunks, a tuned groups_per_cu) means anything to it.
  bool takes_chunks() const { return uses_tile() || splits_rows() || streams() || runs_descriptor(); }
  // Takes the operator: argmin/argmax where arg_ops, a user's where user_ops.
  bool takes(Op op) const { return (arg_ops || !is_arg_op(op)) && (user_ops || op != Op::User); }
  bool runs_descriptor() const { return geometry == AxisGeometry::Descriptor; }
};

const std::vector<AxisVariant>& axis_variants();
std::vector<std::string> axis_variant_names();
// The names of the variants of `axis` (any axis: nullopt) for which `pred` holds, in registry
// order: the valid choices a refusal names.
std::vector<std::string> axis_variant_names_where(std::optional<Axis> axis,
                                                  const std::function<bool(const AxisVariant&)>& pred);
// Throws ConfigError (Param::Variant) naming the valid ones.
const AxisVariant& find_axis_variant(std::string_view name);

// The parameters a caller may fix; each unset one is the variant's default (or the planner's).
struct AxisParams {
  std::string variant;                  // an axis variant; empty: chosen by shape
  std::optional<std::size_t> wg;        // WG_SIZE: rows_group, rows_sliced, rows_tile, rows_vector, rows_warp, rows_split,
                                        // rows_split_fused, cols_item, cols_stream, cols_stream_fused
  std::optional<unsigned> row_width;    // ROW_WIDTH: rows_sliced (a power of two dividing WG_SIZE), rows_warp
                                        // (a power of two up to 32 and WG_SIZE)
  std::optional<std::uint64_t> chunks;  // cols_tile: chunks of the rows; rows_split(_fused): of each row;
                                        // cols_stream: its groups (partial rows) (1: one pass);
                                        // rows_descriptor: parts a row is cut into; cols_descriptor: row chunks
  // -D NAME[=VALUE]. One naming a parameter the variant's kernel declares (AxisVariant::spec) is
  // that parameter's value: WG_SIZE and ROW_WIDTH as the fields above (both given: the same value),
  // VEC, ITEMS, TILE_X, ROWS_Y, WARP_FOLD where declared; a derived one (TYPE_ID, FIRST_PASS, ...)
  // or one only other axis kernels declare is refused (ConfigError, Param::Define). The others go
  // to every pass's build untouched.
  std::vector<Define> defines;
};




// The variant the planner picks for a shape when none is named (see the file comment) for this
// type and operator on `dev` (its compute units, and whether it has NVIDIA's warp shuffle).
const AxisVariant& default_axis_variant(Axis axis, ElemType type, Op op, std::uint64_t m, std::uint64_t n,
                                        const DeviceInfo& dev);

// ---- Shape classes ----
// Shapes that want the same launch share a class; the tuning database keeps one launch per class.
// The id is stable (it is stored in tuning databases): "<axis>.<row length>.<rows per CU>" for rows,
// "<axis>.<width>" for columns. With B = N * element bytes (one row's bytes) and CU the device's
// compute units (at least 1):
//   rows.narrow.*   B <= 256 bytes (64 floats): a row is a fraction of a warp's loads; many rows
//                   per group (rows_sliced with a small row width)
//   rows.short.*    256 < B <= 4096 bytes (1024 floats): a row fits a group's loads (rows_sliced,
//                   a wider row width, or rows_group)
//   rows.long.*     B > 4096 bytes: a row is many group-loads long (rows_group, rows_split)
//   rows.*.few      M < 4 * CU rows: too few rows to fill the device one group per row
//   rows.*.many     M >= 4 * CU rows
//   cols.thin       B <= 256 bytes: too few columns for coalesced warps; tiles over row chunks
//   cols.wide       N >= 2048 * CU columns: one work-item per column fills the device (8 groups
//                   of 256 per compute unit)
//   cols.square     every other shape: a column per work-item would not fill the device, tiles
//                   over row chunks do
constexpr std::uint64_t kClassNarrowRowBytes = 256;
constexpr std::uint64_t kClassShortRowBytes = 4096;
constexpr std::uint64_t kClassFewRowsPerCu = 4;
constexpr std::uint64_t kClassThinColBytes = 256;
constexpr std::uint64_t kClassWideColsPerCu = 2048;

struct AxisShapeClass {
  std::string id;  // "rows.short.many"
  Axis axis = Axis::Rows;
  std::string summary;  // one line: which shapes
};
// Every class, rows first, in a fixed order.
const std::vector<AxisShapeClass>& axis_shape_classes();
// The class of an M x N matrix of `elem_bytes`-byte elements reduced along `axis` on a device of
// `compute_units` compute units (0 counts as 1). Never throws.
std::string shape_class_of(Axis axis, std::uint64_t m, std::uint64_t n, std::size_t elem_bytes,
                           unsigned compute_units);
// True when `id` is a class of `axis`.
bool is_axis_shape_class(Axis axis, std::string_view id);
// The class ids of `axis`, comma-separated, for messages.
std::string axis_shape_class_names(Axis axis);

// The row chunks (rows_split(_fused): of each row; cols_tile: of the rows) that give about
// `groups_per_cu` groups per compute unit for an M x N shape, with the same limits as the
// planner's own choice (which is this at 8 groups per compute unit, or for cols_fused on NVIDIA at
// its tile policy's count for sums, min and max: 2 up to 64 MiB): how a tuned groups-per-CU count,
// which transfers across the shapes of a class, becomes a launch. For rows_split's sums, min and
// max, at least enough chunks that a part is at most 16 KiB of the row (32 KiB for
// rows_split_fused), as the planner makes them. The tile is the planner's for this type, operator
// and shape. `wg` is rows_split's work-group size (ignored for cols_tile). Throws ConfigError
// (Param::Variant) for a variant that does not split into chunks.
std::uint64_t axis_chunks_for(const AxisVariant& v, const DeviceInfo& dev, ElemType type, Op op, std::uint64_t m,
                              std::uint64_t n, std::size_t wg, unsigned groups_per_cu);

// A row-major matrix of `rows` x `cols` elements of every input of a descriptor: row r starts `ld`
// elements after row r - 1 (ld 0: cols, a dense matrix; ld > cols: a padded matrix, or a
// sub-matrix of a wider one, with each Input's offset at the sub-matrix's first element).
struct MatrixShape {
  std::uint64_t rows = 0, cols = 0, ld = 0;
  std::uint64_t stride() const { return ld ? ld : cols; }
  // Elements an input holds from its offset: (rows - 1) x stride + cols.
  std::uint64_t span() const { return rows ? (rows - 1) * stride() + cols : 0; }
};


struct AxisReducerOptions {
  AxisParams params;
  std::filesystem::path kernel_dir;   // empty: find_kernel_dir()
  ProgramCache* programs = nullptr;   // null: ProgramCache::shared()
  std::optional<DeviceInfo> device;   // the queue's device facts, if the caller holds them
  std::shared_ptr<const UserOperator> user_op;  // what Op::User means (clreduce/user_operator.hpp)
  // Where tuned launches come from (as the Reducer's): the database's axis entry for (device,
  // type, op, axis, shape class) when no variant is named; for a reduction descriptor, its
  // descriptor entry for (device, built-in, inputs, rows|cols, shape class) for the parameters
  // `params` leaves unset; `enabled = false`: the rules alone.
  TuningSource tuning;
};

class AxisReducer {
 public:
  // Binds to an in-order queue. Throws Error (Param::Queue) for an out-of-order queue.
  explicit AxisReducer(const cl::CommandQueue& queue, AxisReducerOptions options = {});
  explicit AxisReducer(cl_command_queue queue, AxisReducerOptions options = {});
  AxisReducer(const AxisReducer&) = delete;
  AxisReducer& operator=(const AxisReducer&) = delete;
  AxisReducer(AxisReducer&&) noexcept;
  AxisReducer& operator=(AxisReducer&&) noexcept;
  ~AxisReducer();

  // Enqueues the reduction of `in` (M x N) along `axis` into `out` (M values for rows, N for
  // columns) after `wait` and returns the event of its last pass. Throws Error (Param::Buffer)
  // when a buffer is smaller than that.
  cl::Event reduce(const cl::Buffer& in, const cl::Buffer& out, ElemType type, Op op, Axis axis, std::uint64_t m,
                   std::uint64_t n, const std::vector<cl::Event>& wait = {});
  template <class T>
  cl::Event reduce(const cl::Buffer& in, const cl::Buffer& out, Op op, Axis axis, std::uint64_t m, std::uint64_t n,
                   const std::vector<cl::Event>& wait = {}) {
    return reduce(in, out, element_type_of<T>(), op, axis, m, n, wait);
  }

  // ---- Descriptor reductions (clreduce/reduction.hpp) ----
  // The reduction `r` of every row (Axis::Rows: shape.rows results, the map's index i the column)
  // or every column (Axis::Cols: shape.cols results, i the row) of the matrices `inputs` (one Input
  // per r.inputs, each with its own buffer and element offset, all of `shape`), with the run-time
  // `scalars`. Rows run kernels_cl/reduce_descriptor_lines.cl, columns
  // kernels_cl/reduce_descriptor_cols.cl, in one launch each. The reducer's params give wg
  // (WG_SIZE), row_width (rows: ROW_WIDTH), chunks (rows: parts a row is cut into; columns: row
  // chunks) and -D ITEMS, VEC, TILE_X, ROWS_Y; params.variant must be empty or "descriptor".
  // Blocking: returns one Result per row or column.
  // Throws Error naming the parameter: an empty shape or ld < cols (Param::Shape), input or scalar
  // counts other than the descriptor's, a buffer too small for offset + shape.span() elements
  // (Param::Buffer), f64 without cl_khr_fp64 (Param::Type), a launch parameter outside its values,
  // a descriptor whose text does not build (its build log).
  std::vector<Result> reduce(const Reduction& r, const std::vector<Input>& inputs, Axis axis, const MatrixShape& shape,
                             const std::vector<ScalarArg>& scalars = {});
  // The same from host memory: one pointer per input of r, each holding shape.span() elements of
  // its type ((rows - 1) x ld + cols), copied to the device before the launch (blocking). Throws
  // as above, and Error (Param::Buffer) for a null pointer, (Param::N) for a matrix over the
  // device's largest allocation.
  std::vector<Result> reduce(const Reduction& r, const std::vector<const void*>& inputs, Axis axis,
                             const MatrixShape& shape, const std::vector<ScalarArg>& scalars = {});
  // The same, asynchronous: the results land at result indices out_index .. of `out` (byte offset
  // out_index x r.out.bytes()); returns the launch's event after `wait`, nothing waits.
  cl::Event reduce_to(const Reduction& r, const std::vector<Input>& inputs, Axis axis, const MatrixShape& shape,
                      const cl::Buffer& out, std::uint64_t out_index = 0, const std::vector<ScalarArg>& scalars = {},
                      const std::vector<cl::Event>& wait = {});
  const DeviceInfo& device() const;
  const cl::Context& context() const;
  const cl::CommandQueue& queue() const;

 private:
  friend struct introspect::Access;  // the hooks of clreduce/introspect/axis.hpp
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace clreduce
