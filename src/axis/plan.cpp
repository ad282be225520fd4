// The axis-reduction registry and planner: which variant for which shape, its work-group, the
// row chunks of cols_tile, and each pass's option string.
#include "axis/plan.hpp"

#include "core/matrix.hpp"
#include "descriptor/families.hpp"
#include "descriptor/kernel_params.hpp"

#include "clreduce/error.hpp"
#include "clreduce/variants.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <stdexcept>
#include <type_traits>

namespace clreduce {

std::string_view name_of(Axis a) { return a == Axis::Rows ? "rows" : "cols"; }

Axis parse_axis(std::string_view text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "rows" || t == "row") return Axis::Rows;
  if (t == "cols" || t == "col" || t == "columns" || t == "column") return Axis::Cols;
  throw ConfigError(Param::Axis, "unknown axis '" + std::string(text) + "'; valid: rows, cols", "rows, cols");
}

namespace {
// ---- The axis kernels' parameters (clreduce/kernel_spec.hpp), shared by the registry entries ----
const std::vector<std::uint64_t> kPow2To1024 = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

// `clreduce tune axis` searches WG_SIZE and ROW_WIDTH (and the chunks, which no -D names).
KernelParam axis_wg() {
  KernelParam p = wg_param();
  p.tunable = true;
  p.rule = "256, or the device's most (rows_tile, cols_stream: halved until its local memory fits)";
  p.fallback = 256;
  return p;
}
KernelParam axis_op_id() {
  return op_id_param({0, 1, 2, 3, 4, 5}, "operator: 0 sum, 1 min, 2 max, 3 argmin, 4 argmax, 5 a user's file");
}
KernelParam reads_matrix() { return first_pass_param({1}, "1: it reads the matrix"); }
KernelParam reads_either() {
  return first_pass_param({0, 1}, "1 where it reads the matrix, 0 where it folds another pass's partials");
}
KernelParam axis_items(const std::string& rule = "4; 1 for argmin/argmax (a pair in registers costs more than the loads gain)") {
  return items_param(rule);
}
KernelParam row_width(const std::string& rule, std::vector<std::uint64_t> valid = kPow2To1024) {
  return {"ROW_WIDTH", "work-items (lanes) per row", std::move(valid), rule, true, true, "--row-width"};
}
KernelParam axis_vec(const std::string& rule) {
  return {"VEC", "consecutive elements one load reads (at most 16 bytes)", {1, 2, 4}, rule, false, true};
}
KernelParam fused_param(const std::string& rule) {
  return {"FUSED", "1: one launch, the last group to finish folds the chunks' values", {0, 1}, rule, false, false};
}
KernelParam ticket_nv_ptx() {
  KernelParam p = nv_ptx_param();
  p.meaning = "the device runs NVIDIA inline PTX (membar.gl: the fence before a ticket)";
  return p;
}
std::vector<KernelParam> tile_params(const std::string& tile_rule) {
  KernelParam x{"TILE_X", "columns per work-group (consecutive: one coalesced row segment per load)", kPow2To1024,
                tile_rule, false, true};
  x.fallback = 32;
  KernelParam y{"ROWS_Y", "row-slices per work-group, folded in local memory (TILE_X x ROWS_Y work-items)",
                kPow2To1024, "8 (with TILE_X: shrunk to the device's work-group limit, row-slices first)", false, true};
  y.fallback = 8;
  return {x, y};
}
std::vector<KernelParam> params(std::vector<std::vector<KernelParam>> parts) {
  std::vector<KernelParam> all;
  for (auto& part : parts)
    for (auto& p : part) all.push_back(std::move(p));
  return all;
}
std::vector<KernelParam> common(KernelParam first_pass, KernelParam items) {
  return {type_id_param(), axis_op_id(), std::move(first_pass), std::move(items)};
}
std::vector<KernelParam> tree_tail() {
  return lockstep_params("the device's reported lockstep width; 0 for argmin/argmax (their pairs fold without it)");
}

// cols_stream's kernel (axis_cols_stream.cl), with or without its fused finish.
std::vector<KernelParam> stream_params(const std::string& fused_rule) {
  return params({{axis_wg()}, common(reads_matrix(), axis_items("2 for sums, min and max; 1 for argmin/argmax")),
                {axis_vec("the widest of 4, 2, 1 within 16 bytes (the stride is made whole vectors)"),
                 fused_param(fused_rule),
                 {"NV_PTX", "the device runs NVIDIA inline PTX (membar.gl, shfl.sync)", {0, 1},
                  "1 on NVIDIA devices", false, false},
                 {"WARP_FOLD", "a group's lanes folded per column by warp shuffles where N allows (needs NV_PTX)",
                  {0, 1}, "NV_PTX", false, true}}});
}

std::vector<AxisVariant> build_registry() {
  std::vector<AxisVariant> r;
  {
    AxisVariant v;
    v.name = "rows_group";
    v.literature = "one work-group per output, as the whole-array family's groups (Harris, \"Optimizing Parallel Reduction in CUDA\")";
    v.step = "the first row step: each row is a whole-array reduction of N elements by one group, strided, then the tree";
    v.axis = Axis::Rows;
    v.summary = "one work-group per row: the group strides along the row, then the tree";
    v.tradeoff = "coalesced and simple; a row shorter than the group leaves most of it idle";
    v.geometry = AxisGeometry::GroupPerRow;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items()), tree_tail()});
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_sliced";
    v.literature = "PyTorch's reduce kernel, which shares a block among several outputs when each has few inputs";
    v.step = "a row gets ROW_WIDTH work-items instead of the whole group, so a group holds WG_SIZE / ROW_WIDTH rows: a 32-element row no longer leaves 224 of 256 work-items idle";
    v.axis = Axis::Rows;
    v.predecessor = "rows_group";
    v.summary = "ROW_WIDTH work-items per row, WG_SIZE / ROW_WIDTH rows per work-group";
    v.tradeoff = "keeps the group busy on short rows; a long row gets only ROW_WIDTH work-items";
    v.geometry = AxisGeometry::SlicedRows;
    v.spec.params = params({{axis_wg()}, common(reads_either(), axis_items()),
                            {row_width("a work-item per 8 elements of the row, a power of two up to 32 and WG_SIZE; "
                                       "rows_split's second pass: enough for its chunks, up to 32")}});
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_tile";
    v.literature = "the transpose lesson (stage through local memory so both sides are coalesced): Ruetsch and Micikevicius, \"Optimizing Matrix Transpose in CUDA\"";
    v.step = "no tree at all: the group copies its rows' block into local memory with consecutive work-items on consecutive elements, then each work-item folds its own row there; the copy costs what the tree cost (bench/NOTES.md, axis reductions on the H100)";
    v.axis = Axis::Rows;
    v.predecessor = "rows_sliced";
    v.summary = "one work-item per row: the group's rows staged TILE_N columns at a time in local memory, then each folds its own";
    v.tradeoff = "coalesced reads and no tree for short rows; local memory per group, and one work-item per long row";
    v.geometry = AxisGeometry::StagedRows;
    v.spec.params = {axis_wg(), type_id_param(), axis_op_id(), reads_matrix(),
                     {"TILE_N", "columns of the group's rows staged in local memory at a time", {16, 32},
                      "32; 16 for 8-byte types (a tile row of TILE_N + 1 elements)", false, false}};
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_vector";
    v.literature = "vectorized loads (the whole-array vector variant); one thread per row as in CUB's thread-level reduce";
    v.step = "one work-item per row reading 16-byte vectors into registers: no tree, no barrier, no local memory; a warp's load touches 32 rows, and that costs more than the tree at 32-wide rows on the H100";
    v.axis = Axis::Rows;
    v.predecessor = "rows_sliced";
    v.summary = "one work-item per row, the row read VEC elements (up to 16 bytes) per load and folded in registers";
    v.tradeoff = "no tree, no local memory and no barrier for narrow rows; one work-item per long row";
    v.geometry = AxisGeometry::ItemPerRow;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items()),
                            {axis_vec("the widest of 4, 2, 1 within 16 bytes that divides N (a row starts on a whole vector)")}});
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_warp";
    v.literature = "CUB's WarpReduce (a warp's values folded by shuffles); the butterfly form is CUDA's __shfl_xor_sync";
    v.step = "the row's lanes are consecutive lanes of one warp reading consecutive 16-byte vectors, so a warp's load is one contiguous run, and they meet by shuffles in registers, where rows_sliced met through local memory behind a barrier per level: 1048576x32 floats 53.3 -> 49.1 µs on the H100";
    v.axis = Axis::Rows;
    v.predecessor = "rows_sliced";
    v.summary =
        "ROW_WIDTH lanes of a warp per row reading consecutive VEC-element vectors, ITEMS rows per trip, "
        "folded by warp shuffles";
    v.tradeoff = "coalesced loads and no local memory or barrier on NVIDIA; elsewhere its shuffle goes through local memory, slowly";
    v.geometry = AxisGeometry::WarpRows;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items()),
                            {row_width("enough lanes for the row's vectors, a power of two up to WARP and WG_SIZE",
                                       {1, 2, 4, 8, 16, 32}),
                             axis_vec("the widest of 4, 2, 1 within 16 bytes that divides N"),
                             {"NV_PTX", "the device runs NVIDIA inline PTX (shfl.sync)", {0, 1},
                              "1 where the device reports NVIDIA's 32-lane warp", false, false},
                             {"WARP", "lanes of a warp: the most ROW_WIDTH may be", {32}, "32", false, false}}});
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_split";
    v.literature = "the whole-array family's second pass, per row (CUB's segmented reduce splits long segments likewise)";
    v.step = "a few long rows get several groups each, so the device fills; a second launch (rows_sliced) adds the chunks' values";
    v.axis = Axis::Rows;
    v.predecessor = "rows_group";
    v.summary = "each row split into chunks, one work-group per chunk; a second pass (rows_sliced) adds the chunks";
    v.tradeoff = "fills the device with few, long rows; a second launch";
    v.geometry = AxisGeometry::RowParts;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items()), tree_tail(),
                            {fused_param("0: a second launch (rows_sliced) folds the chunks"), ticket_nv_ptx()}});
    v.second_pass = "rows_sliced";
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "rows_split_fused";
    v.literature = "single_pass's last-block finish (the CUDA samples' threadFenceReduction), per row";
    v.step = "rows_split in one launch: each group takes its row's ticket and the last folds the row's parts, so the second launch is gone; each group pays the meeting instead, which wins for a few long rows in a few thousand groups (32x1048576 floats 49.7 µs against 50.6-50.9 on the H100) and loses once the groups are many";
    v.axis = Axis::Rows;
    v.predecessor = "rows_split";
    v.summary = "rows_split in one launch: the last group to finish a row's parts folds their values";
    v.tradeoff = "no second launch; a store, a device-wide fence and a ticket per group, which cost more than the second launch when the parts are many";
    v.fused = true;
    v.file = "axis_rows_split.cl";  // rows_split's kernel with FUSED 1
    v.kernel = "axis_rows_split";
    v.geometry = AxisGeometry::RowParts;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items()), tree_tail(),
                            {fused_param("1 where a row has more than one chunk"), ticket_nv_ptx()}});
    v.second_pass = "rows_sliced";  // none when a row is one chunk: FUSED 0 and no parts to fold
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "cols_item";
    v.literature = "coalescing across the row: consecutive work-items on consecutive columns";
    v.step = "the first column step: one work-item walks down its whole column, so a warp's load is one contiguous row segment";
    v.axis = Axis::Cols;
    v.summary = "one work-item per column, down the whole column";
    v.tradeoff = "coalesced across the row, no local memory; only N work-items, each reading M elements";
    v.geometry = AxisGeometry::ItemPerColumn;
    v.spec.params = params({{axis_wg()}, common(reads_matrix(), axis_items())});
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "cols_tile";
    v.literature = "a tile of columns x row-slices per group, folded in local memory (the transpose's tiles)";
    v.step = "a group takes 32 columns and 8 row-slices over a chunk of the rows, and the rows split into chunks, so a tall, narrow matrix still fills the device; a second launch adds the chunks' partial rows";
    v.axis = Axis::Cols;
    v.predecessor = "cols_item";
    v.summary = "TILE_X columns x ROWS_Y row-slices per group over chunks of rows; a second pass adds the chunks";
    v.tradeoff = "fills the device whatever the aspect ratio; a second launch when the rows are split";
    v.geometry = AxisGeometry::ColumnTiles;
    v.spec.params = params({common(reads_either(), axis_items()), tile_params("32")});
    v.second_pass = "cols_tile";
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "cols_fused";
    v.literature = "single_pass's last-block finish, after the CUDA samples' threadFenceReduction";
    v.step = "the chunks meet in one launch: each group takes its column tile's ticket and the last folds the tile's partial rows, so the second launch is gone";
    v.axis = Axis::Cols;
    v.predecessor = "cols_tile";
    v.summary = "cols_tile in one launch: the last group to finish a column tile's chunks folds their partial rows";
    v.tradeoff = "no second launch (microseconds on a small matrix); a ticket per tile and a device-wide fence per group";
    v.fused = true;
    v.geometry = AxisGeometry::ColumnTiles;
    v.spec.params = params({common(reads_matrix(), axis_items()),
                            tile_params("32; on NVIDIA for sums, min and max 128 (x 2) up to 64 MiB, 64 (x 4) above"),
                            {ticket_nv_ptx()}});
    v.wide_tiles_on_nvidia = true;
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "cols_stream";
    v.literature = "the whole-array family's vector loads, with a stride of whole rows";
    v.step = "the matrix streamed front to back as one array in aligned 16-byte loads; a stride of whole rows keeps each work-item's lanes on the same columns, so thin matrices read like a whole array; each group writes one partial row";
    v.axis = Axis::Cols;
    v.predecessor = "cols_tile";
    v.summary =
        "the matrix streamed as one array in VEC-wide loads, a stride of whole rows keeping each work-item's columns; "
        "a partial row per group, then cols_tile adds them";
    v.tradeoff = "whole-array loads for thin matrices; each group writes N partials, which wide matrices pay for";
    v.geometry = AxisGeometry::ColumnStream;
    v.spec.params = stream_params("0: a second launch (cols_tile) folds the groups' partial rows");
    v.second_pass = "cols_tile";
    r.push_back(v);
  }
  {
    AxisVariant v;
    v.name = "cols_stream_fused";
    v.literature = "single_pass's and cols_fused's ticket finish";
    v.step = "cols_stream in one launch: the last group to take the ticket streams the groups' partial rows the way the matrix was streamed";
    v.axis = Axis::Cols;
    v.predecessor = "cols_stream";
    v.summary = "cols_stream in one launch: the last group to finish streams the groups' partial rows";
    v.tradeoff =
        "no second launch; a ticket and a device-wide fence per group; sums, min and max (an argmin/argmax partial is a pair)";
    v.fused = true;
    v.arg_ops = false;
    // Unfused (FUSED 0) where a device's loop limit would cut the last group's finish short.
    v.second_pass = "cols_tile";
    v.file = "axis_cols_stream.cl";  // cols_stream's kernel with FUSED 1
    v.kernel = "axis_cols_stream";
    v.geometry = AxisGeometry::ColumnStream;
    v.spec.params = stream_params("1 where there is more than one group");
    r.push_back(v);
  }
  // The descriptor families' kernels over the operator's built-in: their own tables and planners
  // (src/descriptor), whose CPU shapes are what a CPU device wants of the Op path.
  for (const Axis axis : {Axis::Rows, Axis::Cols}) {
    const bool rows = axis == Axis::Rows;
    AxisVariant v;
    v.name = rows ? "rows_descriptor" : "cols_descriptor";
    v.literature = "the reduction descriptor's families (PyOpenCL's ReductionKernel, CUB's DeviceSegmentedReduce), "
                   "here over the operator's built-in";
    v.step = rows ? "the descriptor's lines kernel over sum_wrap, min, max, argmin or argmax: its planner's shapes, on a "
                    "CPU a work-item's contiguous run of rows folded in SIMD lanes, with no tree or barrier"
                  : "the descriptor's columns kernel over the operator's built-in: its planner's shapes, on a CPU "
                    "8-wide column groups over row chunks read 64 bytes a load";
    v.axis = axis;
    v.predecessor = rows ? "rows_vector" : "cols_fused";
    v.summary = rows ? "the descriptor's lines kernel over the operator's built-in (its planner: CPU and GPU shapes)"
                     : "the descriptor's columns kernel over the operator's built-in (its planner: CPU and GPU shapes)";
    v.tradeoff = "one kernel for every descriptor and shape, the CPU's shapes where the device is one; no user "
                 "operator file (a descriptor file goes through the descriptor API)";
    v.geometry = AxisGeometry::Descriptor;
    v.user_ops = false;
    v.spec = rows ? lines_kernel() : columns_kernel();
    // Through the axis path VEC is a -D: `--vec` is the whole array's and the descriptors' option.
    for (KernelParam& p : v.spec.params)
      if (p.option == "--vec") p.option.clear();
    v.file = v.spec.file;
    v.kernel = v.spec.kernel;
    r.push_back(v);
  }
  for (AxisVariant& v : r) {
    if (v.runs_descriptor()) continue;  // the descriptor family's own table (its family, file, kernel)
    if (v.file.empty()) v.file = "axis_" + v.name + ".cl";
    if (v.kernel.empty()) v.kernel = "axis_" + v.name;
    v.spec.family = "axis";
    v.spec.file = v.file;
    v.spec.kernel = v.kernel;
    v.spec.summary = v.name + ": " + v.summary;
  }
  return r;
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
bool power_of_two(std::uint64_t x) { return x && !(x & (x - 1)); }
unsigned log2_of(std::uint64_t x) {
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < x) ++l;
  return l;
}
unsigned clamp_depth(std::uint64_t d) { return static_cast<unsigned>(std::min<std::uint64_t>(d, 0xffffffffu)); }

// Groups along x: enough for the work, never more than the kernels' loops need.
constexpr std::uint64_t kMaxGroupsX = 1u << 20;
// Row chunks run along the grid's second dimension, which NVIDIA caps at 65535 groups.
constexpr std::uint64_t kMaxChunks = 65535;
// cols_tile: each work-item folds at least this many rows of its chunk.
constexpr std::uint64_t kMinRowsPerItem = 16;
// Rows at or below this length go to rows_sliced when no variant is named.
constexpr std::uint64_t kShortRow = 1024;
// Longer rows go to rows_split(_fused) when there are fewer than this many per compute unit.
constexpr unsigned kFewRowsPerCu = 4;
// Rows of at least this many bytes are split into parts (rows_split) for sums, min and max
// however many there are: one group per row reads them off the peak, the fewer and longer the
// rows the more (H100, float sums, bench/results/2026-11-26_h100_axis_long_rows_split: 8192x8192 88.8
// µs, 4096x16384 90.6, 2048x32768 91.5, 1024x65536 92.8-92.9, 256x262144 101.5), as groups reading
// many far-apart streams at once; parts of kSplitPartBytes read as a window sliding through the
// matrix. 1024x65536: 91.5-92.1 at 16 parts with the second launch (uint min 91.6, float max 91.8,
// uint sum 91.3); 2048x32768 a tie (91.6-91.7); 4096x16384 a loss (91.6-91.8), so the line is here.
constexpr std::uint64_t kLongRowBytes = 128 * 1024;
// Rows half that long fall off the peak by less (4096x16384: 2%), which the second launch's fixed
// 2-3 µs outweighs in 256 MiB but not in a large matrix: 16384x16384 floats (1 GiB) 345.2 µs at
// 4 parts against rows_group's 347.8-348.1 (the same run). So they are split from this many bytes.
constexpr std::uint64_t kHalfLongRowMatrixBytes = 512ULL << 20;
// The bytes of a row part that rows_split's and rows_split_fused's chunk counts aim at, at most
// (sums, min and max; a group's tree and its meeting are paid per part, so not smaller). That run
// (rows_split, second launch included): 4096 floats per part 91.5-92.1 µs over 1024x65536, 2048
// 92.1-92.2, 8192 92.1-92.5, 16384 93.4-93.5; 256x262144 92.2 at 2048-8192; 512x131072 91.5-91.7
// at 4096. rows_split_fused pays a ticket per part, so its parts are twice as long (H100:
// 256x262144 92.2-92.4 at 8192 floats a part, 94.5-94.7 at 4096).
constexpr std::uint64_t kSplitPartBytes = 16 * 1024;
// rows_sliced's default row width gives each work-item about this many elements of its row.
constexpr std::uint64_t kRowElementsPerItem = 8;
// Groups that fill a device: this many per compute unit (cols_tile's and rows_split's chunks).
constexpr std::uint64_t kGroupsPerCu = 8;
// Loads each work-item keeps in flight in every axis kernel's fold (axis_fold.clh's ITEMS). On
// the H100 (bench/results/2026-11-25_h100_axis_items_chunks) 4 took 1048576x32 float columns from
// 58.1 to 55.0 µs and moved the other shapes by under 2% (noise); argmin/argmax's pairs are
// faster with one: 4096x4096 float argmax rows 29.98 µs at 1 against 51.65 at 4, 8192x8192 95.5
// against 102.4 (four pairs in registers cost the kernel more than the loads in flight gain).
constexpr unsigned kItems = 4;
constexpr unsigned kArgItems = 1;
// cols_stream's (and cols_stream_fused's) loads in flight for sums, min and max: on the H100
// (bench/results/2026-11-26_h100_axis_cols_stream_items) ITEMS 2 against 4 took cols_stream_fused over
// 1048576x32 floats from 53.31 to 52.28 µs, uint min 53.39 -> 52.52, 2097152x16 float sum 52.34 ->
// 51.49; ITEMS 8 was no better than 4 (53.09).
constexpr unsigned kStreamItems = 2;
// cols_stream's groups per compute unit when no chunk count is given: each group writes a partial
// row that the second pass folds, so fewer, longer-running groups than cols_tile's chunks (not yet
// measured on a GPU: bench/NOTES.md, the prediction for 1048576x32's two variants).
constexpr std::uint64_t kStreamGroupsPerCu = 4;
// The work-items of a group when judging whether one work-item per column fills the device.
constexpr std::uint64_t kFillGroup = 256;
// Thin matrices (rows of at most this many bytes) whose tiles would need more than kFusedMaxChunks
// row chunks are streamed (cols_stream) when no variant is named. On the H100
// (bench/results/2026-11-26_h100_axis_thin_cols_stream) against cols_tile's 1024 chunks: 1048576x32 float
// sum 53.06 against 54.76 µs, uint min 54.88 against 58.38, int argmin 66.80 against 76.68;
// 2097152x16 float sum 53.62 against 58.08, float argmax 70.78 against 99.78; at 64 columns
// (256 bytes) it tied or lost (float argmax 524288x64 68.96 against 61.65).
constexpr std::uint64_t kStreamRowBytes = 128;
// rows_warp's most lanes per row: a warp on NVIDIA, whose lanes shuffle together.
constexpr std::uint64_t kWarpRowWidth = 32;
// rows_sliced's row width when none is given (and rows_split's second pass's): at most a warp's 32.
constexpr unsigned kMostDefaultRowWidth = 32;

// cols_tile's row chunks for `groups_per_cu` groups per compute unit (the planner: kGroupsPerCu;
// a tuned entry: its own) over the ceil(n / tile_x) column tiles, each work-item folding at least
// kMinRowsPerItem rows, rounded down to a power of two: on the H100 5 and 9 chunks of 8192 and
// 4096 rows ran 10-17% slower than 4 or 8 (bench/results/2026-11-25_h100_axis/chunk_sweep.txt).
std::uint64_t tile_chunks(std::uint64_t m, std::uint64_t n, std::uint64_t tile_x, std::uint64_t rows_y,
                          unsigned compute_units, std::uint64_t groups_per_cu) {
  const std::uint64_t groups_x = std::min(ceil_div(n, tile_x), kMaxGroupsX);
  const std::uint64_t target = std::max<std::uint64_t>(groups_per_cu, 1) * std::max<std::uint64_t>(compute_units, 1);
  const std::uint64_t most = std::max<std::uint64_t>(1, m / (rows_y * kMinRowsPerItem));
  std::uint64_t chunks = std::clamp<std::uint64_t>(ceil_div(target, groups_x), 1, std::min({most, m, kMaxChunks}));
  while (chunks & (chunks - 1)) chunks &= chunks - 1;
  return chunks;
}

// rows_split's chunks of each row for `groups_per_cu` groups per compute unit over the m rows,
// each work-item folding at least kMinRowsPerItem elements, rounded down to a power of two: on
// the H100 32 chunks of 32x1048576 floats took 50.5 µs against 51.2-52.6 for the 33 of the
// unrounded rule (bench/results/2026-11-25_h100_axis_items_chunks).
// With `part_bytes` (sums, min and max by the planner), at least enough chunks for parts of about
// that many bytes of the row.
std::uint64_t split_chunks(std::uint64_t m, std::uint64_t n, std::uint64_t wg, unsigned compute_units,
                           std::uint64_t groups_per_cu, std::uint64_t row_bytes = 0, std::uint64_t part_bytes = 0) {
  const std::uint64_t target = std::max<std::uint64_t>(groups_per_cu, 1) * std::max<std::uint64_t>(compute_units, 1);
  const std::uint64_t most = std::max<std::uint64_t>(1, n / (std::max<std::uint64_t>(wg, 1) * kMinRowsPerItem));
  std::uint64_t want = ceil_div(target, std::max<std::uint64_t>(m, 1));
  if (part_bytes) want = std::max(want, row_bytes / part_bytes);
  std::uint64_t chunks = std::clamp<std::uint64_t>(want, 1, std::min(most, kMaxGroupsX));
  while (chunks & (chunks - 1)) chunks &= chunks - 1;
  return chunks;
}

// cols_fused rather than cols_tile, when no variant is named, for chunk counts from 2 up to this:
// on the H100 (bench/results/2026-11-25_h100_axis_cols_fused_vs_tile) one launch won at 2 to 32 chunks
// (4096x4096 floats 28.57 -> 27.74 µs, 8192x8192 94.78 -> 92.55, 16384x16384 370.8 -> 364.5,
// 65536x1024 96.98 -> 94.99) and lost at 1024 chunks of a single tile (1048576x32: 54.90 ->
// 57.41, argmax 71.5 -> 83.7: 1024 groups take turns at one ticket, and the last folds 1024
// partial rows alone) and at 1 chunk (nothing to meet: 1024x65536 91.5 -> 95.1).
constexpr std::uint64_t kFusedMaxChunks = 64;

// Matrices of at most this many bytes stay in a large GPU's L2 between back-to-back calls (the
// H100's and H200's 50 MB; what a launch's fixed costs weigh against there, not the HBM). There,
// on the H100 (float sum, max and argmax back to back, bench/results/2026-12-07_h100_l2_axis):
// - columns of rows of at most kSmallStreamRowBytes from kSmallStreamRows rows: streamed in one
//   launch for sums, min and max (8192x32 6.0 µs against cols_fused's 11.9 at 256 chunks,
//   16384x64 9.5 against cols_tile's 11.6);
// - columns of at most kSmallItemRows rows and enough columns for two groups a compute unit: a
//   work-item per column (32x131072 sum 6.0 against cols_tile's 8.3, argmax 6.9 against 10.3);
//   with fewer columns (64x16384, 32x8192) the two tie;
// - argmin/argmax over few long rows: one group per row where the rows fill the compute units
//   (256x16384 8.8 µs against rows_split's 14.7 and its one launch's 10.7), else rows_split in
//   one launch (64x16384 7.2 against 8.7, 32x8192 6.6 against 9.4, 32x131072 10.6 against 11.4):
//   the second launch is a third of the time here;
// - many rows of 1025 elements to under 16 KiB: rows_sliced's 32 work-items a row for sums, min and
//   max, rows_warp's for argmin/argmax where the device has the shuffle (6144x1536 sum 7.9 µs
//   against rows_group's 14.8, argmax 12.0 against 21.4; 2816x2816 sum 7.0 against 9.5, argmax
//   10.9 against 14.3; 2048x3072 a tie, 6.3 against 6.2, argmax 11.0 against 10.7), where a group
//   of 256 per row leaves each work-item a few loads; from 6144 elements rows_group wins (1536x6144
//   sum 10.6 against 11.3, argmax 14.9 against 22.4).
//
// Measured again in 3 rounds a launch (`bench axis --rounds 3`, each launch's fastest round) in
// two calls on two H100s (bench/results/2026-12-07_h100_exact_l2_rounds; the first machine's
// launches were slower throughout, torch's too, which weighed against two-launch variants):
// - matrices of at most kCacheFusedMatrixBytes whose tiles need 65 to kCacheFusedMaxChunks row
//   chunks: cols_fused's one launch too. 16384x256 at 128 chunks, sum 11.2 / 10.3 µs against
//   cols_tile's 20.3 / 11.3, max 10.2 / 10.4 against 15.9 / 11.5; argmax 16384x64 12.0 / 10.0
//   against 22.5 / 11.4, but argmax 16384x256 14.0 / 13.8 against 16.2 / 12.4; and at 40 MiB
//   (65536x160, 128 chunks) cols_fused lost, 22.1 against 13.8, as past 40 MiB;
// - few rows of at most kCacheGroupRowBytes for sums, min and max: a group per row (sum 32x8192
//   5.1 / 5.7 against rows_split_fused's 5.9 / 6.3, 64x16384 8.8 / 4.0 against 9.4 / 6.3,
//   256x16384 10.4 / 5.6 against 11.4 / 7.3; max 32x8192 6.7 / 5.7 against 7.5 / 6.3, 64x16384
//   9.4 / 5.7 against 10.5 / 6.2); at 32x131072 (512 KiB rows) rows_split_fused stays (sum 9.3 /
//   7.4 against 14.1 / 14.2). Not argmin/argmax: at 64x16384 a group per row won in one call and
//   lost in the other (10.8 against 11.8; 8.0 against 7.0).
constexpr std::uint64_t kCacheMatrixBytes = 40ULL << 20;
constexpr std::uint64_t kCacheFusedMaxChunks = 128;
constexpr std::uint64_t kCacheFusedMatrixBytes = 16ULL << 20;
constexpr std::uint64_t kCacheGroupRowBytes = 64 * 1024;
constexpr std::uint64_t kCacheSlicedRowBytes = 16 * 1024;
constexpr std::uint64_t kSmallStreamRowBytes = 256;
constexpr std::uint64_t kSmallStreamRows = 4096;
constexpr std::uint64_t kSmallItemRows = 64;

// cols_fused's tile (TILE_X columns x ROWS_Y row-slices) and its groups per compute unit when no
// chunk count is given. A warp of the registry's 32 x 8 tile reads 128 bytes of a row per load;
// wider tiles read longer runs of each row. On the H100 (float sums, b2b,
// bench/results/2026-11-26_h100_axis_cols_fused_tile_shape; 1024 groups unless said):
//   64 x 4: 8192x8192 91.74 µs against 32 x 8's 92.40, 16384x16384 358.6 against 364.7,
//     65536x1024 93.58 against 93.88; 4096x4096 27.61 against 27.54.
//   128 x 2 at 2 groups per compute unit (256): 4096x4096 27.25-27.34 against 27.54-27.65 (rounds
//     14 and 16); it lost on the larger matrices (8192x8192 93.20, 16384x16384 363.3).
// So on NVIDIA, for the variants that say so (cols_fused: AxisVariant::wide_tiles_on_nvidia): 128 x 2 at 2
// per compute unit up to 64 MiB, 64 x 4 at kGroupsPerCu above; elsewhere
// (not measured) the registry's tile and kGroupsPerCu. Not for argmin/argmax, whose pairs fold one
// load in flight per work-item (kArgItems): 128 x 2 took float argmax over 4096x4096 columns from
// 29.3 to 48.8 µs and int argmin to 42.4, 64 x 4 over 65536x1024 from 96.8 to 100.7
// (bench/results/2026-11-26_h100_axis_argmax_tiles).
struct ColumnTilePolicy {
  unsigned tile_x, rows_y;
  std::uint64_t groups_per_cu;
};
constexpr std::uint64_t kSmallTileBytes = 64ULL << 20;
ColumnTilePolicy column_tile_policy(const AxisVariant& v, Op op, std::uint64_t bytes, const DeviceInfo& dev) {
  if (!v.wide_tiles_on_nvidia || !dev.is_nvidia || is_arg_op(op)) return {v.default_tile_x(), v.default_rows_y(), kGroupsPerCu};
  if (bytes <= kSmallTileBytes) return {128, 2, 2};
  return {64, 4, kGroupsPerCu};
}

// rows_vector's and cols_stream's VEC: the widest of 4, 2, 1 elements within 16 bytes that
// divides `divides` (rows_vector: N, so that every row starts on a whole vector; cols_stream: 0,
// any, since its stride is made a multiple of VEC instead), unless the caller's -D VEC names one
// (1, 2 or 4: the table), which must be within 16 bytes and divide `divides`.
unsigned vec_width(const AxisVariant& v, const AxisConfig& cfg, std::uint64_t divides) {
  const std::uint64_t es = size_of(cfg.type);
  if (const auto given = given_value(v.spec, "VEC", cfg.defines)) {
    const std::string valid = es > 4 ? "1 or 2 (16 bytes at most)" : "1, 2 or 4 (16 bytes at most)";
    const unsigned vec = static_cast<unsigned>(*given);
    if (vec * es > 16)
      throw ConfigError(Param::Define, "VEC=" + std::to_string(vec) + " for " + v.name + ": valid " + valid, valid);
    if (divides % vec)
      throw ConfigError(Param::Define,
                        "VEC=" + std::to_string(vec) + " for " + v.name + " does not divide the row of " +
                            std::to_string(divides) + " elements (a vector would straddle two rows)",
                        "a width dividing N: " + valid);
    return vec;
  }
  for (unsigned vec = 4; vec > 1; vec /= 2)
    if (vec * es <= 16 && divides % vec == 0) return vec;
  return 1;
}

// The depth of a cols_stream group's fold of its lanes per column: a tree of log2(lanes of a
// column) levels, or, where the kernel may fold by warps (NVIDIA: WARP_FOLD follows NV_PTX; a user's
// -D can turn it off), the butterfly inside a warp and then the group's warps one after another:
// the deeper of the two, which bounds either.
std::uint64_t stream_lanes_depth(std::uint64_t wg, std::uint64_t vec, std::uint64_t n, bool warps) {
  const std::uint64_t tree = log2_of(ceil_div(wg * vec, n));
  const std::uint64_t q = n / vec;  // a row's lanes: the kernel's warp_fold_fits
  if (!warps || n % vec != 0 || q > 32 || (q & (q - 1)) != 0 || n > wg || wg % 32 != 0) return tree;
  return std::max(tree, log2_of(ceil_div(32 * vec, n)) + wg / 32);
}

// cols_stream's groups for `groups_per_cu` groups per compute unit (the planner's: kStreamGroupsPerCu),
// and the rows each step covers: the grid's work-items x VEC elements rounded down to whole rows,
// then to a multiple of VEC / gcd(N, VEC) rows so that the stride stays whole vectors, at most the
// matrix (rounded up to that multiple) and at least one such unit.
struct StreamShape {
  std::uint64_t groups = 1, rows_per_step = 1;
};
std::uint64_t gcd_of(std::uint64_t a, std::uint64_t b) {
  while (b) {
    const std::uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}
StreamShape stream_shape(std::uint64_t m, std::uint64_t n, std::uint64_t wg, unsigned vec, std::uint64_t groups) {
  const std::uint64_t unit = vec / gcd_of(n, vec);  // rows whose elements make whole vectors
  const std::uint64_t most = ceil_div(m, unit) * unit;
  std::uint64_t rows = std::max<std::uint64_t>(groups, 1) * wg * vec / n;
  rows = std::clamp<std::uint64_t>(rows / unit * unit, unit, most);
  rows = std::min<std::uint64_t>(rows, 0xffffffffu / unit * unit);  // the kernel's uint argument
  StreamShape s;
  s.rows_per_step = rows;
  s.groups = ceil_div(rows * n / vec, wg);  // every active lane has a work-item (checked by the planner)
  return s;
}

// A TILE_X x ROWS_Y group shrunk to the device's work-group limit: fewer row-slices first, then
// fewer columns (cols_tile, cols_fused and cols_stream's second pass).
void fit_tile(unsigned& tile_x, unsigned& rows_y, std::uint64_t max_wg) {
  while (std::uint64_t{tile_x} * rows_y > max_wg && rows_y > 1) rows_y /= 2;
  while (std::uint64_t{tile_x} * rows_y > max_wg && tile_x > 1) tile_x /= 2;
}

// A one-dimensional group whose work-items each need `bytes_per_item` of local memory (rows_tile's
// tile rows, cols_stream's lanes): a work-group nobody chose halves until it fits the device's
// local memory; a chosen one that does not fit is refused, naming the largest that does.
void fit_local_memory(std::size_t& wg, bool chosen, std::uint64_t bytes_per_item, const std::string& variant,
                      const DeviceInfo& dev) {
  if (!dev.local_mem_bytes) return;
  if (chosen && wg * bytes_per_item > dev.local_mem_bytes)
    throw ConfigError(Param::WorkGroupSize,
                      variant + " with a work-group of " + std::to_string(wg) + " needs " +
                          std::to_string(wg * bytes_per_item) + " bytes of local memory; " + dev.name + " has " +
                          std::to_string(dev.local_mem_bytes),
                      "a power of two up to " + std::to_string(dev.local_mem_bytes / bytes_per_item), dev.name);
  while (wg * bytes_per_item > dev.local_mem_bytes && wg > 1) wg /= 2;
}

// The values every axis kernel's declared parameters take in one pass, before the pass's own
// (WG_SIZE, TILE_X, ROW_WIDTH, VEC, ...): options_for writes those its kernel declares. `items`:
// the caller's -D ITEMS, else the pass's default (0: kItems, or kArgItems for argmin/argmax).
ParamValues common_values(const AxisConfig& cfg, const DeviceInfo& dev, bool first_pass, std::optional<std::uint64_t> items,
                          unsigned default_items = 0) {
  const bool arg = is_arg_op(cfg.op);
  return {{"TYPE_ID", static_cast<std::uint64_t>(cfg.type)},
          {"OP_ID", static_cast<std::uint64_t>(cfg.op)},
          {"FIRST_PASS", first_pass ? 1u : 0u},
          {"ITEMS", items.value_or(default_items ? default_items : arg ? kArgItems : kItems)},
          // The tree's lockstep tail (rows_group, rows_split): argmin/argmax pairs fold without it.
          {"LOCKSTEP", arg ? 0u : dev.lockstep_width},
          {"NV_WARP_SYNC", !arg && dev.is_nvidia ? 1u : 0u},
          {"NV_PTX", dev.is_nvidia ? 1u : 0u},
          {"FUSED", 0u}};
}
// Sets (or adds) one value.
void set_value(ParamValues& values, const std::string& define, std::uint64_t value) {
  for (auto& kv : values)
    if (kv.first == define) {
      kv.second = value;
      return;
    }
  values.emplace_back(define, value);
}

// The caller's -D's, checked against the variant's table before anything is planned: a -D of a
// parameter the variant declares is read (a derived one or a value outside the valid ones refused
// by given_value); one that only other axis kernels declare is refused, naming those that take it
// (rows_split -D VEC=2 would go to a kernel that has no VEC, silently).
void check_axis_defines(const AxisVariant& v, const AxisConfig& cfg) {
  for (const Define& d : cfg.defines) {
    if (v.spec.find(d.name)) {
      given_value(v.spec, d.name, cfg.defines);
      continue;
    }
    bool declared = false;
    std::vector<std::string> takers;
    for (const AxisVariant& x : axis_variants())
      if (const KernelParam* p = x.spec.find(d.name)) {
        declared = true;
        if (p->caller_may_set && x.axis == v.axis) takers.push_back(x.name);
      }
    if (declared)
      throw ConfigError(Param::Define,
                        "-D " + d.str() + ": axis variant " + v.name + " takes no " + d.name +
                            (takers.empty() ? " (the host sets it where a kernel has one)"
                                            : "; for " + std::string(name_of(v.axis)) + ": " + join(takers)),
                        takers.empty() ? "leave " + d.name + " unset" : join(takers));
  }
}
}  // namespace

bool AxisVariant::uses_wg() const {
  const KernelParam* p = spec.find("WG_SIZE");
  return p && p->caller_may_set;
}
bool AxisVariant::uses_row_width() const { return spec.find("ROW_WIDTH") != nullptr; }
bool AxisVariant::uses_vec() const { return spec.find("VEC") != nullptr; }
std::size_t AxisVariant::default_wg() const { return static_cast<std::size_t>(spec.fallback_of("WG_SIZE", 0)); }
unsigned AxisVariant::default_tile_x() const { return static_cast<unsigned>(spec.fallback_of("TILE_X", 0)); }
unsigned AxisVariant::default_rows_y() const { return static_cast<unsigned>(spec.fallback_of("ROWS_Y", 0)); }

AxisConfig with_caller_options(const AxisConfig& given) {
  AxisConfig cfg = given;
  // The parameters the API also takes as fields: a -D of one is that field.
  const auto take = [&](const char* define, const char* option, auto& field) {
    bool from_define = false;  // field holds an earlier -D's value, not the option's
    for (const Define& d : given.defines) {
      if (d.name != define) continue;
      const std::string text = d.value.value_or("");
      const bool digits = !text.empty() && text.size() <= 9 &&
                          std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits)
        throw ConfigError(Param::Define,
                          "-D " + d.str() + ": " + define + " must be a positive integer (the same as " + option + ")",
                          "a power of two");
      const std::uint64_t x = std::stoull(text);
      if (field && static_cast<std::uint64_t>(*field) != x)
        throw ConfigError(Param::Define,
                          "-D " + d.str() + " and " + (from_define ? std::string("-D ") + define + "=" : option + std::string(" ")) +
                              std::to_string(*field) + " both set " + define + ", to different values; give one",
                          from_define ? "one -D " + std::string(define) : std::string(option) + " or -D " + define + ", not both");
      field = static_cast<std::decay_t<decltype(*field)>>(x);
      from_define = true;
    }
  };
  take("WG_SIZE", "--wg", cfg.wg);
  take("ROW_WIDTH", "--row-width", cfg.row_width);
  cfg.defines.erase(std::remove_if(cfg.defines.begin(), cfg.defines.end(),
                                   [](const Define& d) { return d.name == "WG_SIZE" || d.name == "ROW_WIDTH"; }),
                    cfg.defines.end());
  return cfg;
}

const std::vector<AxisVariant>& axis_variants() {
  static const std::vector<AxisVariant> r = build_registry();
  return r;
}

std::vector<std::string> axis_variant_names() {
  return axis_variant_names_where(std::nullopt, [](const AxisVariant&) { return true; });
}

std::vector<std::string> axis_variant_names_where(std::optional<Axis> axis,
                                                  const std::function<bool(const AxisVariant&)>& pred) {
  std::vector<std::string> out;
  for (const AxisVariant& v : axis_variants())
    if ((!axis || v.axis == *axis) && pred(v)) out.push_back(v.name);
  return out;
}

const AxisVariant& find_axis_variant(std::string_view name) {
  for (const auto& v : axis_variants())
    if (v.name == name) return v;
  throw ConfigError(Param::Variant,
                    "unknown axis variant '" + std::string(name) + "'; valid axis variants: " + join(axis_variant_names()),
                    join(axis_variant_names()));
}

const AxisVariant& default_axis_variant(Axis axis, ElemType type, Op op, std::uint64_t m, std::uint64_t n,
                                        const DeviceInfo& dev) {
  // A CPU: the descriptor families' CPU shapes (a work-item's run of rows in SIMD lanes, 8-wide
  // column groups), which the GPU-shaped variants below leave to 0.02-0.3x of the whole array.
  if (cpu_shapes(dev) && op != Op::User) return find_axis_variant(axis == Axis::Rows ? "rows_descriptor" : "cols_descriptor");
  const unsigned cus = std::max(dev.compute_units, 1u);
  // Columns: one work-item per column (cols_item, no local memory, no second pass) once the
  // columns alone give every compute unit kGroupsPerCu groups of kFillGroup work-items (H100,
  // 32x1048576: 51.1 µs against cols_tile's 57.3); else tiles over row chunks fill the device.
  // Tiles: in one launch (cols_fused) where a few chunks meet; thin matrices that need more
  // chunks than that are streamed (cols_stream, in one launch for sums, min and max); else cols_tile.
  // (Divided, not multiplied: the caller may not have checked the shape yet.)
  const std::uint64_t row_bytes = n * size_of(type);
  const bool cache_resident =
      m > 0 && n > 0 && n <= kCacheMatrixBytes / size_of(type) && m <= kCacheMatrixBytes / row_bytes;
  if (axis == Axis::Cols) {
    if (n >= kGroupsPerCu * kFillGroup * cus) return find_axis_variant("cols_item");
    if (cache_resident && m <= kSmallItemRows && n >= 2 * kFillGroup * cus) return find_axis_variant("cols_item");
    if (cache_resident && !is_arg_op(op) && m >= kSmallStreamRows && row_bytes <= kSmallStreamRowBytes)
      return find_axis_variant("cols_stream_fused");
    const AxisVariant& tile = find_axis_variant("cols_tile");
    const std::uint64_t chunks = tile_chunks(m, n, tile.default_tile_x(), tile.default_rows_y(), cus, kGroupsPerCu);
    if (chunks >= 2 && chunks <= kFusedMaxChunks) return find_axis_variant("cols_fused");
    if (chunks > kFusedMaxChunks && row_bytes <= kStreamRowBytes)
      return find_axis_variant(is_arg_op(op) ? "cols_stream" : "cols_stream_fused");
    if (cache_resident && chunks >= 2 && chunks <= kCacheFusedMaxChunks && m * row_bytes <= kCacheFusedMatrixBytes)
      return find_axis_variant("cols_fused");
    return tile;
  }
  // Short rows: a warp's lanes per row folded by shuffles (rows_warp) where the device has them,
  // else rows_sliced's tree in local memory.
  if (n <= kShortRow) return find_axis_variant(has_nv_shuffle(dev) ? "rows_warp" : "rows_sliced");
  // Long rows: a group per row, or where there are few, each split over several groups, their
  // parts meeting in one launch for sums, min and max (H100: 32x1048576 floats 49.7 µs
  // at 32 or 128 chunks against rows_split's 50.6-50.9 with its second launch; 256x262144 at 32
  // chunks 92.2-92.4, against 95.3-96.2 by rows_split at 4). argmin/argmax keep rows_split: one
  // launch gained nothing for them (float argmax 32x1048576 53.4 at 64 chunks against 53.5, int
  // argmin 52.7 against 53.0).
  if (m < std::uint64_t{kFewRowsPerCu} * cus) {
    if (cache_resident && !is_arg_op(op) && row_bytes <= kCacheGroupRowBytes) return find_axis_variant("rows_group");
    if (!is_arg_op(op)) return find_axis_variant("rows_split_fused");
    if (cache_resident) return find_axis_variant(m >= cus ? "rows_group" : "rows_split_fused");
    return find_axis_variant("rows_split");
  }
  if (cache_resident && row_bytes < kCacheSlicedRowBytes)
    return find_axis_variant(!is_arg_op(op) || !has_nv_shuffle(dev) ? "rows_sliced" : "rows_warp");
  // Many rows, long ones: parts of each row read by neighbouring groups, for sums, min and max
  // (argmin/argmax lost with parts at 1024x65536: float argmax 99.4-114.4 µs against
  // rows_group's 95.8).
  if (!is_arg_op(op) && (row_bytes >= kLongRowBytes ||
                         (row_bytes >= kLongRowBytes / 2 && m * row_bytes >= kHalfLongRowMatrixBytes)))
    return find_axis_variant("rows_split");
  return find_axis_variant("rows_group");
}

std::string AxisPlan::launch_label() const {
  if (variant && variant->runs_descriptor()) return descriptor_label;
  if (variant && variant->uses_tile())
    return std::to_string(tile_x) + "x" + std::to_string(rows_y) + ", " + std::to_string(chunks) +
           (chunks == 1 ? " chunk" : " chunks");
  std::string s = "wg " + std::to_string(wg);
  if (variant && variant->uses_row_width()) s += ", row width " + std::to_string(row_width);
  if (variant && variant->uses_vec()) s += ", VEC " + std::to_string(vec);
  if (variant && variant->splits_rows()) s += ", " + std::to_string(chunks) + (chunks == 1 ? " chunk" : " chunks");
  if (variant && variant->streams()) s += ", " + std::to_string(chunks) + (chunks == 1 ? " group" : " groups");
  return s;
}

namespace {
// (The most loop trips pass_loop_trips' estimate may reach: loop_trips_allowed, descriptor/common.hpp,
// an eighth of the limit kept for the loops it leaves out: the trees' levels, a tail, a fused finish.)

// The names of the axis variants of `axis` for which `pred` holds, as a list in words.
std::string variants_where(std::optional<Axis> axis, const std::function<bool(const AxisVariant&)>& pred) {
  return join(axis_variant_names_where(axis, pred));
}

// A caller's value of a parameter the variant declares (nullopt: not given, or not declared).
std::optional<std::uint64_t> given(const AxisVariant& v, const AxisConfig& cfg, const std::string& define) {
  return v.spec.find(define) ? given_value(v.spec, define, cfg.defines) : std::nullopt;
}

// The caller's defines for a second pass's kernel: those the variant's own kernel declared were
// taken into the plan (VEC, WARP_FOLD: the first pass's), so only the ones this kernel declares too
// (ITEMS) and the undeclared ones go on.
std::vector<Define> defines_for_second(const AxisVariant& v, const AxisVariant& second, const std::vector<Define>& defines) {
  std::vector<Define> out;
  for (const Define& d : defines)
    if (!v.spec.find(d.name) || second.spec.find(d.name)) out.push_back(d);
  return out;
}

std::uint64_t value_of(const ParamValues& values, const std::string& define) {
  for (const auto& kv : values)
    if (kv.first == define) return kv.second;
  throw std::logic_error("no value for " + define);
}

AxisPlan plan_passes(const AxisConfig& given_cfg, const DeviceInfo& dev, std::uint64_t m, std::uint64_t n) {
  const AxisConfig cfg = with_caller_options(given_cfg);
  check_matrix(dev, cfg.type, m, n);
  const AxisVariant& v =
      cfg.variant.empty() ? default_axis_variant(cfg.axis, cfg.type, cfg.op, m, n, dev) : find_axis_variant(cfg.variant);
  if (v.axis != cfg.axis) {
    const std::string fitting = variants_where(cfg.axis, [](const AxisVariant&) { return true; });
    throw ConfigError(Param::Variant,
                      "axis variant " + v.name + " reduces " + std::string(name_of(v.axis)) + ", not " +
                          std::string(name_of(cfg.axis)) + "; valid for " + std::string(name_of(cfg.axis)) + ": " +
                          fitting,
                      fitting);
  }
  if (cfg.wg && !v.uses_wg()) {
    const std::string takers = variants_where(std::nullopt, [](const AxisVariant& x) { return x.uses_wg(); });
    throw ConfigError(Param::WorkGroupSize,
                      "axis variant " + v.name + " sets its work-group from TILE_X x ROWS_Y, not a work-group size",
                      "none for " + v.name + "; " + takers + " take one");
  }
  if (cfg.row_width && !v.uses_row_width()) {
    const std::string takers = variants_where(Axis::Rows, [](const AxisVariant& x) { return x.uses_row_width(); });
    throw ConfigError(Param::RowWidth, "axis variant " + v.name + " takes no ROW_WIDTH; " + takers + " do", takers);
  }
  if (cfg.chunks && !v.takes_chunks()) {
    const std::string takers = variants_where(std::nullopt, [](const AxisVariant& x) { return x.takes_chunks(); });
    throw ConfigError(Param::Chunks, "axis variant " + v.name + " does not split into chunks; " + takers + " do", takers);
  }
  if (!v.user_ops && cfg.op == Op::User) {
    const std::string takers = variants_where(v.axis, [](const AxisVariant& x) { return x.user_ops; });
    throw ConfigError(Param::Variant,
                      "axis variant " + v.name + " reduces a built-in descriptor, not a user's operator file; valid for " +
                          std::string(v.axis == Axis::Rows ? "rows" : "columns") + " with a user operator: " + takers +
                          " (or the descriptor API with a descriptor file)",
                      takers);
  }
  if (!v.arg_ops && is_arg_op(cfg.op)) {
    const std::string takers = variants_where(v.axis, [](const AxisVariant& x) { return x.arg_ops; });
    throw ConfigError(Param::Variant,
                      "axis variant " + v.name + " folds its partials as values, not argmin/argmax pairs; valid for " +
                          std::string(v.axis == Axis::Rows ? "rows" : "columns") + " with " + std::string(name_of(cfg.op)) + ": " + takers,
                      takers);
  }
  if (v.runs_descriptor()) {
    const FamilyParams fp = family_params_of(cfg);  // the family's planner checks them
    const Reduction r = builtin_of(cfg.op, cfg.type);
    const DescriptorLaunch l =
        cfg.axis == Axis::Rows
            ? plan_lines(r, LineShape{LineKind::Rows, m, n, n, Scalar::U64}, fp, dev, dev.max_work_group_size, true)
            : plan_columns(r, m, n, fp, dev, dev.max_work_group_size, true);
    return axis_plan_of(v, m, n, l);
  }
  check_axis_defines(v, cfg);
  const std::optional<std::uint64_t> items = given(v, cfg, "ITEMS");

  AxisPlan p;
  p.variant = &v;
  p.axis = cfg.axis;
  p.m = m;
  p.n = n;
  const auto check_wg = [&](std::uint64_t wg) {
    if (!power_of_two(wg) || wg > dev.max_work_group_size)
      throw ConfigError(Param::WorkGroupSize,
                        "work-group size " + std::to_string(wg) + " is not a power of two up to the device maximum " +
                            std::to_string(dev.max_work_group_size) + " of " + dev.name,
                        "1, 2, 4, ... " + std::to_string(dev.max_work_group_size), dev.name);
  };
  // A pass's kernel: the variant's own, or its second pass's (AxisVariant::second_pass).
  const auto pass_of = [&](const AxisVariant& k) {
    AxisPassPlan a;
    a.file = k.file;
    a.kernel = k.kernel;
    a.geometry = k.geometry;
    return a;
  };
  if (v.uses_tile()) {
    const ColumnTilePolicy policy = column_tile_policy(v, cfg.op, m * n * size_of(cfg.type), dev);
    const std::optional<std::uint64_t> tx = given(v, cfg, "TILE_X"), ry = given(v, cfg, "ROWS_Y");
    p.tile_x = static_cast<unsigned>(tx.value_or(policy.tile_x));
    p.rows_y = static_cast<unsigned>(ry.value_or(policy.rows_y));
    if (tx || ry) {
      // A tile the caller chose is refused where it does not fit, never shrunk.
      const std::uint64_t items_wg = std::uint64_t{p.tile_x} * p.rows_y;
      const std::uint64_t bytes = items_wg * result_size(cfg.type, cfg.op);
      if (items_wg > dev.max_work_group_size || (dev.local_mem_bytes && bytes > dev.local_mem_bytes))
        throw ConfigError(Param::Define,
                          "TILE_X x ROWS_Y = " + std::to_string(p.tile_x) + " x " + std::to_string(p.rows_y) + " for " +
                              v.name + " is " + std::to_string(items_wg) + " work-items and " + std::to_string(bytes) +
                              " bytes of local memory; " + dev.name + " allows " +
                              std::to_string(dev.max_work_group_size) + " work-items and " +
                              std::to_string(dev.local_mem_bytes) + " bytes",
                          "TILE_X x ROWS_Y up to " + std::to_string(dev.max_work_group_size) + " work-items",
                          dev.name);
    } else {
      // A device allowing fewer work-items per group than TILE_X * ROWS_Y: fewer row-slices first.
      fit_tile(p.tile_x, p.rows_y, dev.max_work_group_size);
    }
    p.wg = std::size_t{p.tile_x} * p.rows_y;
    const std::uint64_t groups_x = std::min(ceil_div(n, p.tile_x), kMaxGroupsX);
    const std::uint64_t most_chunks = std::min<std::uint64_t>(m, kMaxChunks);
    if (cfg.chunks) {
      if (*cfg.chunks == 0 || *cfg.chunks > most_chunks)
        throw ConfigError(Param::Chunks,
                          "row chunks " + std::to_string(*cfg.chunks) + " for " + std::to_string(m) +
                              " rows; valid: 1.." + std::to_string(most_chunks),
                          "1.." + std::to_string(most_chunks));
      p.chunks = *cfg.chunks;
    } else {
      p.chunks = tile_chunks(m, n, p.tile_x, p.rows_y, dev.compute_units, policy.groups_per_cu);
      // Where the device ends long loops, chunks enough that no work-item loops past it.
      if (dev.loop_trip_limit)
        p.chunks = std::clamp<std::uint64_t>(ceil_div(m, std::uint64_t{p.rows_y} * loop_trips_allowed(dev)), p.chunks,
                                             most_chunks);
    }
    const std::uint64_t rows_per_chunk = ceil_div(m, p.chunks);
    p.chunks = ceil_div(m, rows_per_chunk);  // no empty chunk
    const auto pass = [&](const AxisVariant& k, std::uint64_t pm, std::uint64_t per_chunk, bool first) {
      AxisPassPlan a = pass_of(k);
      a.m = pm;
      a.n = n;
      a.chunk_len = per_chunk;
      a.groups_x = groups_x;
      a.groups_y = ceil_div(pm, per_chunk);
      a.wg_x = p.tile_x;
      a.wg_y = p.rows_y;
      a.values_out = a.groups_y * n;
      ParamValues values = common_values(cfg, dev, first, items);
      set_value(values, "TILE_X", p.tile_x);
      set_value(values, "ROWS_Y", p.rows_y);
      a.options = options_for(k.spec, values, defines_for_second(v, k, cfg.defines));
      p.depth += clamp_depth(ceil_div(per_chunk, p.rows_y) + log2_of(p.rows_y));
      return a;
    };
    p.passes.push_back(pass(v, m, rows_per_chunk, true));
    if (v.fused) {
      // One launch: the chunks' partial rows meet through tickets, and the last group of a tile
      // folds its chunks (ROWS_Y row-slices, then their tree), as a second pass would.
      AxisPassPlan& a = p.passes.back();
      a.fused_partials = p.chunks * n;
      a.tickets = ceil_div(n, p.tile_x);
      a.values_out = n;
      p.depth += clamp_depth(ceil_div(p.chunks, p.rows_y) + log2_of(p.rows_y));
    } else if (p.chunks > 1) {
      p.passes.push_back(pass(find_axis_variant(v.second_pass), p.chunks, p.chunks, false));
    }
    return p;
  }

  p.wg = cfg.wg.value_or(std::min<std::size_t>(v.default_wg(), dev.max_work_group_size));
  check_wg(p.wg);
  // rows_tile's local tile: WG_SIZE rows of TILE_N + 1 elements.
  const std::uint64_t tile_n = size_of(cfg.type) > 4 ? 16 : 32;
  if (v.geometry == AxisGeometry::StagedRows)
    fit_local_memory(p.wg, cfg.wg.has_value(), (tile_n + 1) * size_of(cfg.type), v.name, dev);
  ParamValues values = common_values(cfg, dev, true, items);
  set_value(values, "WG_SIZE", p.wg);
  AxisPassPlan a = pass_of(v);
  a.m = m;
  a.n = n;
  a.wg_x = p.wg;
  if (v.splits_rows()) {
    // Each row in `chunks` parts of one group each: enough groups for the device, each work-item
    // folding at least kMinRowsPerItem elements; the rows go along the grid's second dimension.
    if (cfg.chunks) {
      if (*cfg.chunks == 0 || *cfg.chunks > std::min(n, kMaxGroupsX))
        throw ConfigError(Param::Chunks,
                          "chunks " + std::to_string(*cfg.chunks) + " of rows of " + std::to_string(n) +
                              " elements; valid: 1.." + std::to_string(std::min(n, kMaxGroupsX)),
                          "1.." + std::to_string(std::min(n, kMaxGroupsX)));
      p.chunks = *cfg.chunks;
    } else {
      p.chunks = axis_chunks_for(v, dev, cfg.type, cfg.op, m, n, p.wg, kGroupsPerCu);
    }
    const std::uint64_t per_chunk = ceil_div(n, p.chunks);
    p.chunks = ceil_div(n, per_chunk);  // no empty chunk
    a.chunk_len = per_chunk;
    a.groups_x = p.chunks;
    a.groups_y = std::min(m, kMaxChunks);
    a.values_out = m * p.chunks;
    p.depth = clamp_depth(ceil_div(per_chunk, p.wg) + log2_of(p.wg));
    if (v.fused && p.chunks > 1) {
      // One launch: a row's parts meet at its ticket, and the last group folds their values
      // (strided over the group, then the tree), as the second pass would.
      set_value(values, "FUSED", 1);
      a.options = options_for(v.spec, values, cfg.defines);
      a.fused_partials = m * p.chunks;
      a.tickets = m;
      a.values_out = m;
      p.depth += clamp_depth(ceil_div(p.chunks, p.wg) + log2_of(p.wg));
      p.passes.push_back(a);
      return p;
    }
    a.options = options_for(v.spec, values, cfg.defines);
    p.passes.push_back(a);
    if (p.chunks > 1) {
      // The chunks' values, an M x chunks matrix, by the second pass's rows: a row width up to 32.
      const AxisVariant& second = find_axis_variant(v.second_pass);
      unsigned w = 1;
      while (w < p.chunks && w < kMostDefaultRowWidth && w < p.wg) w *= 2;
      p.row_width = w;
      ParamValues values2 = common_values(cfg, dev, false, items);
      set_value(values2, "WG_SIZE", p.wg);
      set_value(values2, "ROW_WIDTH", w);
      AxisPassPlan b = pass_of(second);
      b.m = m;
      b.n = p.chunks;
      b.wg_x = p.wg;
      b.groups_x = std::min(ceil_div(m, p.wg / w), kMaxGroupsX);
      b.values_out = m;
      b.options = options_for(second.spec, values2, defines_for_second(v, second, cfg.defines));
      p.passes.push_back(b);
      p.depth += clamp_depth(ceil_div(p.chunks, w) + log2_of(w));
    }
    return p;
  }
  if (v.streams()) {
    // cols_stream: its groups (the chunks: each writes a partial row of N values), the rows each
    // step of the grid covers, then cols_tile over the groups' partial rows in one chunk with the
    // largest tile the device allows (a work-item per column and 32 row-slices at most).
    p.vec = vec_width(v, cfg, 0);  // any VEC: the stride is made whole vectors instead
    // Its lanes in local memory: WG_SIZE * VEC accumulators.
    fit_local_memory(p.wg, cfg.wg.has_value(), p.vec * result_size(cfg.type, cfg.op), v.name, dev);
    std::uint64_t groups = kStreamGroupsPerCu * std::max(dev.compute_units, 1u);
    if (cfg.chunks) {
      if (*cfg.chunks == 0 || *cfg.chunks > kMaxGroupsX)
        throw ConfigError(Param::Chunks,
                          v.name + " groups " + std::to_string(*cfg.chunks) + "; valid: 1.." + std::to_string(kMaxGroupsX),
                          "1.." + std::to_string(kMaxGroupsX));
      groups = *cfg.chunks;
    }
    const StreamShape shape = stream_shape(m, n, p.wg, p.vec, groups);
    if (shape.groups > kMaxGroupsX) {
      const std::string others = variants_where(Axis::Cols, [](const AxisVariant& x) { return !x.streams(); });
      throw ConfigError(Param::Variant,
                        v.name + " needs a work-item per " + std::to_string(p.vec) + " elements of " +
                            std::to_string(shape.rows_per_step) + " rows of " + std::to_string(n) +
                            " columns, more than its grid of " + std::to_string(kMaxGroupsX) +
                            " groups; it is for thin matrices: valid for these columns: " + others,
                        others);
    }
    p.chunks = shape.groups;
    p.rows_per_step = shape.rows_per_step;
    // cols_stream_fused with more than one group: one launch, the groups' partial rows (chunks x N)
    // meet through one ticket, and the last group streams them in steps of whole rows that fit its
    // lanes (or by columns where none fit). Sums, min and max only (argmin/argmax refused above).
    bool fused = v.fused && p.chunks > 1;
    // The last group's finish loops over the groups' partial rows: frows whole rows per step, or,
    // where no whole row fits its lanes, each work-item over its columns' partials (N / WG_SIZE
    // columns x G partials). On a device that ends a kernel's loops (llvmpipe) a finish that would
    // pass the limit (with the stream's own trips before it) gave wrong columns (5 x 20011 at
    // WG_SIZE 32: 626 x 626 trips); there the partial rows go to the second pass instead.
    const std::uint64_t unit = p.vec / gcd_of(n, p.vec);
    const std::uint64_t frows = (p.wg * p.vec / n) / unit * unit;
    const std::uint64_t finish_trips = frows ? ceil_div(p.chunks, frows) : ceil_div(n, p.wg) * p.chunks;
    const std::uint64_t stream_trips = ceil_div(m * n, p.chunks * p.wg);
    if (fused && dev.loop_trip_limit && stream_trips + finish_trips > loop_trips_allowed(dev)) fused = false;
    values = common_values(cfg, dev, true, items, is_arg_op(cfg.op) ? 0 : kStreamItems);
    set_value(values, "WG_SIZE", p.wg);
    set_value(values, "VEC", p.vec);
    set_value(values, "FUSED", fused ? 1 : 0);
    // The lanes folded by warp shuffles where the device has NVIDIA's PTX, unless the caller says not.
    const std::optional<std::uint64_t> warp_fold = given(v, cfg, "WARP_FOLD");
    if (warp_fold && *warp_fold && !dev.is_nvidia)
      throw ConfigError(Param::Define,
                        "-D WARP_FOLD=1 for " + v.name + " needs NVIDIA's PTX shuffle (NV_PTX 1); " + dev.name +
                            " has none",
                        "WARP_FOLD=0, or leave it unset", dev.name);
    const bool warps = warp_fold ? *warp_fold == 1 : dev.is_nvidia;
    set_value(values, "WARP_FOLD", warps ? 1 : 0);
    a.options = options_for(v.spec, values, cfg.defines);
    a.chunk_len = p.rows_per_step;
    a.groups_x = p.chunks;
    a.values_out = p.chunks * n;
    // A lane's elements (one per step), then the group's lanes of a column, then the second pass.
    const std::uint64_t lanes_depth = stream_lanes_depth(p.wg, p.vec, n, warps);
    p.depth = clamp_depth(ceil_div(m, p.rows_per_step) + lanes_depth);
    if (fused) {
      a.fused_partials = p.chunks * n;
      a.tickets = 1;
      a.values_out = n;
      p.depth += clamp_depth(frows ? ceil_div(p.chunks, frows) + lanes_depth : p.chunks);
      p.passes.push_back(a);
      return p;
    }
    p.passes.push_back(a);
    if (p.chunks > 1) {
      const AxisVariant& tile = find_axis_variant(v.second_pass);
      unsigned tx = tile.default_tile_x(), ry = 32;
      fit_tile(tx, ry, dev.max_work_group_size);
      if (dev.local_mem_bytes)
        while (std::uint64_t{tx} * ry * result_size(cfg.type, cfg.op) > dev.local_mem_bytes && ry > 1) ry /= 2;
      ParamValues values2 = common_values(cfg, dev, false, items);
      set_value(values2, "TILE_X", tx);
      set_value(values2, "ROWS_Y", ry);
      AxisPassPlan b = pass_of(tile);
      b.m = p.chunks;
      b.n = n;
      b.chunk_len = p.chunks;  // one chunk: all the partial rows
      b.groups_x = std::min(ceil_div(n, tx), kMaxGroupsX);
      b.groups_y = 1;
      b.wg_x = tx;
      b.wg_y = ry;
      b.values_out = n;
      b.options = options_for(tile.spec, values2, defines_for_second(v, tile, cfg.defines));
      p.passes.push_back(b);
      p.tile_x = tx;
      p.rows_y = ry;
      p.depth += clamp_depth(ceil_div(p.chunks, ry) + log2_of(ry));
    } else {
      p.passes.back().values_out = n;
    }
    return p;
  }
  switch (v.geometry) {
    case AxisGeometry::StagedRows:
      set_value(values, "TILE_N", tile_n);  // wg 256: 33.8 KiB for 4-byte types, 34.8 KiB for 8-byte ones
      a.groups_x = std::min(ceil_div(m, p.wg), kMaxGroupsX);
      a.values_out = m;
      p.depth = clamp_depth(n);
      break;
    case AxisGeometry::ItemPerRow:
      // The row's elements one after another through ITEMS accumulators: at most N operations.
      p.vec = vec_width(v, cfg, n);
      set_value(values, "VEC", p.vec);
      a.groups_x = std::min(ceil_div(m, p.wg), kMaxGroupsX);
      a.values_out = m;
      p.depth = clamp_depth(n);
      break;
    case AxisGeometry::WarpRows: {
      // ROW_WIDTH lanes per row: enough for the row's vectors, a power of two up to 32 (a warp on
      // NVIDIA, where the lanes shuffle within one) and the group. Each lane folds its vectors one
      // after another, then log2(ROW_WIDTH) levels of shuffles.
      p.vec = vec_width(v, cfg, n);
      const std::uint64_t vectors = n / p.vec;
      const std::uint64_t most = std::min<std::uint64_t>(kWarpRowWidth, p.wg);
      if (cfg.row_width) {
        p.row_width = *cfg.row_width;
        if (!power_of_two(p.row_width) || p.row_width > most)
          throw ConfigError(Param::RowWidth,
                            "ROW_WIDTH " + std::to_string(p.row_width) + " for " + v.name +
                                " must be a power of two up to " + std::to_string(most) +
                                " (a warp's lanes, within the work-group of " + std::to_string(p.wg) + ")",
                            "1, 2, 4, ... " + std::to_string(most));
      } else {
        unsigned w = 1;
        while (2 * w <= vectors && 2 * w <= most) w *= 2;
        p.row_width = w;
      }
      const std::uint64_t rows_per_trip = p.wg / p.row_width * value_of(values, "ITEMS");
      set_value(values, "ROW_WIDTH", p.row_width);
      set_value(values, "VEC", p.vec);
      // The PTX shuffle where the device says its warp is 32 lanes; the emulation elsewhere.
      set_value(values, "NV_PTX", has_nv_shuffle(dev) ? 1 : 0);
      set_value(values, "WARP", kWarpRowWidth);
      a.groups_x = std::min(ceil_div(m, rows_per_trip), kMaxGroupsX);
      a.values_out = m;
      p.depth = clamp_depth(ceil_div(vectors, p.row_width) * p.vec + log2_of(p.row_width));
      break;
    }
    case AxisGeometry::GroupPerRow:
      a.groups_x = std::min(m, kMaxGroupsX);
      a.values_out = m;
      p.depth = clamp_depth(ceil_div(n, p.wg) + log2_of(p.wg));
      break;
    case AxisGeometry::SlicedRows:
      if (cfg.row_width) {
        p.row_width = *cfg.row_width;
        if (!power_of_two(p.row_width) || p.row_width > p.wg)
          throw ConfigError(Param::RowWidth,
                            "ROW_WIDTH " + std::to_string(p.row_width) +
                                " must be a power of two dividing the work-group size " + std::to_string(p.wg),
                            "1, 2, 4, ... " + std::to_string(p.wg));
      } else {
        // A work-item per kRowElementsPerItem elements of the row, a power of two up to a warp's
        // 32 and the group. On the H100 (bench/results/2026-11-25_h100_axis.md, row-width sweep)
        // 1048576x32 floats took 53 µs at a row width of 4 or 8 against 146 µs at 32 (one element
        // per work-item leaves the kernel bound by its tree), and 65536x1024 was fastest at 16-32.
        unsigned w = 1;
        while (2 * w * kRowElementsPerItem <= n && w < kMostDefaultRowWidth && w < p.wg) w *= 2;
        p.row_width = w;
      }
      set_value(values, "ROW_WIDTH", p.row_width);
      a.groups_x = std::min(ceil_div(m, p.wg / p.row_width), kMaxGroupsX);
      a.values_out = m;
      p.depth = clamp_depth(ceil_div(n, p.row_width) + log2_of(p.row_width));
      break;
    case AxisGeometry::ItemPerColumn:
      a.groups_x = std::min(ceil_div(n, p.wg), kMaxGroupsX);
      a.values_out = n;
      p.depth = clamp_depth(m);
      break;
    case AxisGeometry::RowParts:
    case AxisGeometry::ColumnTiles:
    case AxisGeometry::ColumnStream:
    case AxisGeometry::Descriptor:
      throw std::logic_error("planned above");
  }
  a.options = options_for(v.spec, values, cfg.defines);
  p.passes.push_back(a);
  return p;
}


// The loop trips a work-item of a pass runs, about: the pass's elements over the work-items that
// have some (a work-item per column: one per column; the tiles: the columns of their tiles times
// the row-slices and chunks; the others: every work-item launched).
std::uint64_t pass_loop_trips(const AxisPassPlan& a) {
  const std::uint64_t launched = a.groups_x * a.wg_x * a.groups_y * a.wg_y;
  std::uint64_t active = launched;
  if (a.geometry == AxisGeometry::ItemPerColumn) active = std::min<std::uint64_t>(launched, a.n);
  if (a.geometry == AxisGeometry::ColumnTiles)
    active = std::min<std::uint64_t>(a.n, a.groups_x * a.wg_x) * a.wg_y * a.groups_y;
  const std::uint64_t trips = ceil_div(a.m * a.n, std::max<std::uint64_t>(active, 1));
  return a.geometry == AxisGeometry::StagedRows ? 2 * trips : trips;  // each element copied, then folded
}
}  // namespace

FamilyParams family_params_of(const AxisConfig& cfg) {
  const AxisConfig c = with_caller_options(cfg);
  return FamilyParams{c.wg, c.row_width, c.chunks, c.defines};
}

AxisPlan axis_plan_of(const AxisVariant& v, std::uint64_t m, std::uint64_t n, const DescriptorLaunch& l) {
  AxisPlan p;
  p.variant = &v;
  p.axis = v.axis;
  p.m = m;
  p.n = n;
  p.wg = l.wg;
  p.row_width = l.row_width;
  p.vec = l.vec;
  p.chunks = l.chunks;
  p.tile_x = l.tile_x;
  p.rows_y = l.rows_y;
  p.depth = l.depth;
  p.descriptor_label = l.label();
  AxisPassPlan a;
  a.file = v.file;
  a.kernel = v.kernel;
  a.geometry = v.geometry;
  a.m = m;
  a.n = n;
  a.groups_x = l.groups;
  a.groups_y = l.chunks;  // lines: a line's parts; columns: the row chunks (the grid's second dimension)
  a.wg_x = v.axis == Axis::Cols ? l.tile_x : l.wg;
  a.wg_y = v.axis == Axis::Cols ? l.rows_y : 1;
  a.values_out = p.outputs();
  a.options = l.options;
  p.passes.push_back(a);
  return p;
}

AxisPlan plan_axis(const AxisConfig& cfg, const DeviceInfo& dev, std::uint64_t m, std::uint64_t n) {
  AxisPlan p = plan_passes(cfg, dev, m, n);
  // A device that ends a kernel's loops (llvmpipe: 65535 iterations in all) would return wrong
  // values from a launch whose work-items loop longer: refused, as the whole-array planner does.
  // (A descriptor variant's planner checks its own loops.)
  if (dev.loop_trip_limit && !p.variant->runs_descriptor())
    for (const AxisPassPlan& a : p.passes)
      if (pass_loop_trips(a) > loop_trips_allowed(dev))
        throw ConfigError(Param::Variant,
                          "axis variant " + p.variant->name + " (" + p.launch_label() + ") over " + std::to_string(m) +
                              "x" + std::to_string(n) + " would loop about " + std::to_string(pass_loop_trips(a)) +
                              " times in a work-item of " + a.kernel + ", and " + dev.name +
                              " ends a kernel's loops after " + std::to_string(dev.loop_trip_limit) +
                              " iterations; give it more work-items (--wg, --chunks) or another variant" +
                              (cfg.variant.empty() ? " (this is the planner's choice: none was named)" : ""),
                          "a launch whose work-items loop fewer than " + std::to_string(loop_trips_allowed(dev)) +
                              " times",
                          dev.name);
  return p;
}

// ---- Shape classes and the tuning database's hook ---------------------------------------
// Kept apart from the rules above: the classes group shapes by what decides their launch (a row's
// bytes against a warp's and a group's loads; rows or columns against the device's compute
// units), so that one tuned launch measured at a representative shape serves every shape of its
// class. The boundaries are in bytes (what a warp's and a group's loads see) and sit where the
// rules above change their choice for floats (a short row of 1024 floats = 4096 bytes; 4 rows per
// compute unit; 2048 columns per compute unit); narrow/short is a line the rules draw by row width
// instead. For doubles the rules' 1024-element line falls inside rows.long (rows of 513-1024
// doubles): there the class's tuned launch, measured at a longer row, is used for both.

const std::vector<AxisShapeClass>& axis_shape_classes() {
  static const std::vector<AxisShapeClass> classes{
      {"rows.narrow.few", Axis::Rows, "rows of at most 256 bytes, fewer than 4 rows per compute unit"},
      {"rows.narrow.many", Axis::Rows, "rows of at most 256 bytes, at least 4 rows per compute unit"},
      {"rows.short.few", Axis::Rows, "rows of 257 to 4096 bytes, fewer than 4 rows per compute unit"},
      {"rows.short.many", Axis::Rows, "rows of 257 to 4096 bytes, at least 4 rows per compute unit"},
      {"rows.long.few", Axis::Rows, "rows over 4096 bytes, fewer than 4 rows per compute unit"},
      {"rows.long.many", Axis::Rows, "rows over 4096 bytes, at least 4 rows per compute unit"},
      {"cols.thin", Axis::Cols, "rows of at most 256 bytes (few columns)"},
      {"cols.square", Axis::Cols, "more columns than thin, fewer than 2048 per compute unit"},
      {"cols.wide", Axis::Cols, "at least 2048 columns per compute unit: one work-item per column fills the device"},
  };
  return classes;
}

std::string shape_class_of(Axis axis, std::uint64_t m, std::uint64_t n, std::size_t elem_bytes, unsigned compute_units) {
  const std::uint64_t cu = std::max(compute_units, 1u);
  // A row's bytes, saturating (n and elem_bytes come from a caller; no overflow on absurd ones).
  const std::uint64_t row_bytes =
      elem_bytes && n > UINT64_MAX / elem_bytes ? UINT64_MAX : n * static_cast<std::uint64_t>(elem_bytes);
  if (axis == Axis::Cols) {
    if (row_bytes <= kClassThinColBytes) return "cols.thin";
    if (n >= kClassWideColsPerCu * cu) return "cols.wide";
    return "cols.square";
  }
  const char* length = row_bytes <= kClassNarrowRowBytes ? "narrow" : row_bytes <= kClassShortRowBytes ? "short" : "long";
  return std::string("rows.") + length + (m < kClassFewRowsPerCu * cu ? ".few" : ".many");
}

bool is_axis_shape_class(Axis axis, std::string_view id) {
  for (const auto& c : axis_shape_classes())
    if (c.axis == axis && c.id == id) return true;
  return false;
}

std::string axis_shape_class_names(Axis axis) {
  std::vector<std::string> ids;
  for (const auto& c : axis_shape_classes())
    if (c.axis == axis) ids.push_back(c.id);
  return join(ids);
}

std::uint64_t axis_chunks_for(const AxisVariant& v, const DeviceInfo& dev, ElemType type, Op op, std::uint64_t m,
                              std::uint64_t n, std::size_t wg, unsigned groups_per_cu) {
  if (v.runs_descriptor())
    throw ConfigError(Param::Variant,
                      "axis variant " + v.name + " takes its chunks as given (--chunks), not from groups per compute "
                      "unit; its family's planner sizes them",
                      "chunks for " + v.name);
  if (v.uses_tile()) {
    // As plan_axis: the policy's tile shrunk to the device's group limit, then chunks for the target.
    const ColumnTilePolicy policy = column_tile_policy(v, op, m * n * size_of(type), dev);
    unsigned tile_x = policy.tile_x, rows_y = policy.rows_y;
    fit_tile(tile_x, rows_y, dev.max_work_group_size);
    return tile_chunks(m, n, tile_x, rows_y, dev.compute_units, groups_per_cu);
  }
  if (v.splits_rows()) {  // as plan_axis: sums, min and max also by the parts' bytes
    const std::uint64_t part = is_arg_op(op) ? 0 : v.fused ? 2 * kSplitPartBytes : kSplitPartBytes;
    return split_chunks(m, n, wg, dev.compute_units, groups_per_cu, n * size_of(type), part);
  }
  if (v.streams())
    return std::min<std::uint64_t>(std::uint64_t{std::max(groups_per_cu, 1u)} * std::max(dev.compute_units, 1u), kMaxGroupsX);
  std::vector<std::string> takers;
  for (const AxisVariant& x : axis_variants())
    if (x.takes_chunks()) takers.push_back(x.name);
  throw ConfigError(Param::Variant, "axis variant " + v.name + " does not split into chunks; " + join(takers) + " do",
                    join(takers));
}

std::optional<AxisConfig> tuned_axis_config(const AxisConfig& cfg, const TunedAxisEntry& e, const DeviceInfo& dev,
                                            std::uint64_t m, std::uint64_t n, std::vector<std::string>& filled) {
  filled.clear();
  if (e.axis != cfg.axis) return std::nullopt;
  const AxisVariant* v = nullptr;
  try {
    v = &find_axis_variant(e.variant);
  } catch (const ConfigError&) {
    return std::nullopt;  // the reader checks names; a hand-built entry may not
  }
  if (v->axis != cfg.axis) return std::nullopt;
  if (!cfg.variant.empty() && cfg.variant != v->name) return std::nullopt;
  if ((cfg.wg && !v->uses_wg()) || (cfg.row_width && !v->uses_row_width()) ||
      (cfg.chunks && !v->takes_chunks()))
    return std::nullopt;
  AxisConfig out = cfg;
  if (out.variant.empty()) {
    out.variant = v->name;
    filled.push_back("variant=" + v->name);
  }
  if (!out.wg && e.wg && v->uses_wg()) {
    out.wg = *e.wg;
    filled.push_back("wg=" + std::to_string(*e.wg));
  }
  if (!out.row_width && e.row_width && v->uses_row_width()) {
    out.row_width = *e.row_width;
    filled.push_back("row_width=" + std::to_string(*e.row_width));
  }
  if (!out.chunks && e.groups_per_cu && v->takes_chunks()) {
    const std::size_t wg = out.wg.value_or(std::min<std::size_t>(v->default_wg(), dev.max_work_group_size));
    out.chunks = axis_chunks_for(*v, dev, cfg.type, cfg.op, m, n, wg, *e.groups_per_cu);
    filled.push_back("chunks=" + std::to_string(*out.chunks) + " (" + std::to_string(*e.groups_per_cu) +
                     " groups per CU)");
  }
  return out;
}

}  // namespace clreduce
