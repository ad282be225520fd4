// Columns of a descriptor (src/descriptor/families.hpp): the columns kernel's planner and enqueue.
#include "clreduce/error.hpp"
#include "descriptor/families.hpp"
#include "descriptor/kernel_params.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <cstdint>

namespace clreduce {

namespace {
constexpr std::uint64_t kGroupsPerCu = 8;  // 8 x 256 work-items: a whole H100 SM's residency
constexpr std::uint64_t kMaxChunks = 65535;
}  // namespace

DescriptorLaunch plan_columns(const Reduction& r, std::uint64_t m, std::uint64_t ncols, const FamilyParams& params,
                              const DeviceInfo& dev, std::size_t kernel_max_wg, bool aligned) {
  const KernelSpec& k = columns_kernel();
  check_fp64(r, dev);
  if (m == 0 || ncols == 0)
    throw ConfigError(Param::Shape,
                      "a " + std::to_string(m) + " x " + std::to_string(ncols) +
                          " matrix: a column reduction needs at least one row and one column",
                      "M >= 1 and N >= 1");
  if (params.row_width)
    throw ConfigError(Param::RowWidth, "a row width for a column reduction: columns take TILE_X and ROWS_Y",
                      "unset (or -D TILE_X / -D ROWS_Y)");
  for (const Define& d : params.defines)
    if (d.name == "WG_SIZE")
      throw ConfigError(Param::Define, "-D " + d.str() + ": " + k.file + " takes its group as TILE_X x ROWS_Y (or --wg)",
                        "--wg, -D TILE_X, -D ROWS_Y");
  DescriptorLaunch l;
  l.kernel = k.kernel;
  // Not a GPU (PoCL): 8 work-items across the columns, one row slice, 64-byte loads
  // (VEC 16 floats): each work-item walks its 16 columns down its chunk of rows, a cache line per
  // row. On PoCL (2 cores) f32 sums went from 1.7-7.2 GB/s (32 x 8 groups, a column each) to 27-55
  // (bench/NOTES.md, the descriptor families on a CPU device).
  const bool cpu_shape = cpu_shapes(dev);
  const std::size_t local_cap = local_wg_limit(r, dev, kernel_max_wg ? kernel_max_wg : SIZE_MAX);
  l.wg = family_wg(k, params, dev, local_cap, cpu_shape ? 8 : 256);
  l.items = static_cast<unsigned>(
      given_value(k, "ITEMS", params.defines).value_or(default_items(r, r.acc_bytes > 8 ? 2 : 4)));
  // VEC: 1 (a column per work-item). VEC-wide loads of consecutive columns (-D VEC=...) measured
  // slower on the H100 for every shape of bench axis: f32 sums the same (107 us at 8192 x 8192),
  // f16 sums 84 us against 73, Welford's struct 322 us against 128 (bench/NOTES.md, descriptor
  // families).
  l.vec = static_cast<unsigned>(given_value(k, "VEC", params.defines).value_or(cpu_shape ? cpu_vec(r) : 1));
  // TILE_X: the whole work-group along the columns where they alone give every compute unit 2048
  // work-items (each walks its columns down every row: no tree, no chunks); else 32 work-items (a
  // warp's loads along a row), or the columns' work-items rounded up to a power of two (a narrow
  // dense matrix: a warp then reads consecutive rows, one stream), ROWS_Y slices of the rows.
  // At most 256 bytes of accumulators per work-item (ITEMS x VEC of them): fewer chains first,
  // then narrower loads (a u8 sum's 16 columns of u64, a Welford struct per column).
  const bool items_given = given_value(k, "ITEMS", params.defines).has_value();
  const bool vec_given = given_value(k, "VEC", params.defines).has_value();
  // BLOCK: a trip's ITEMS rows lifted at once into one chain, where the descriptor can lift a
  // vector. Its accumulators cost their combines, not their loads (f16 argmax and var_pop columns
  // as slow as f32's on the H200); one combine per ITEMS elements instead of one each. On the H200
  // at 8192 x 8192 (bench/results/2026-11-28_h200_columns_block): f16 argmax 112.1 -> 72.8 us,
  // f16 var_pop 98.0 -> 51.6, f32 var_pop 87.5 -> 68.5 (92.8% of the read peak), l2 f16 124.6 ->
  // 52.9 (ITEMS 4). ITEMS 8: var_pop 1.4-5 points over ITEMS 4, argmax within 1 point of its best.
  // Under BLOCK a work-item may still own VEC columns (-D BLOCK=1 -D VEC=...): each row of a block
  // is then read VEC columns at once and each column lifted.
  const std::optional<std::uint64_t> block_given = given_value(k, "BLOCK", params.defines);
  const bool can_block = !r.lift_vector.empty();
  // Not by default for float min and max of 4 or 8 bytes: their lift_vector (a lane-wise tree,
  // for CPU devices) saves combines of one instruction each on a GPU, and BLOCK's ITEMS 8 cost
  // more than that. On the H100 (bench/results/2026-12-06_h100_host_paths_maxtree): f32 max and
  // nanmin columns at 8192 x 8192 96.6 us under BLOCK against 93.1 without, at 65536 x 1024 97.7
  // against 92.4; f16's were 0.5-1.7% faster under BLOCK, so 16-bit keeps it.
  const bool cheap_combine = r.builtin && widest_input_bytes(r) >= 4 &&
                             (*r.builtin == Builtin::Min || *r.builtin == Builtin::Max ||
                              *r.builtin == Builtin::NanMin || *r.builtin == Builtin::NanMax);
  const bool block_default = can_block && !cheap_combine && l.vec == 1;
  // ITEMS 8 under BLOCK, the caller's or the planner's (a given BLOCK=1 kept ITEMS 4 or 2 before,
  // against this parameter's declared default).
  if ((block_given ? *block_given != 0 : block_default) && !items_given) l.items = 8;
  l.block = block_given ? *block_given != 0 : block_default && l.items > 1;
  if (l.block && (!can_block || l.items == 1))
    throw ConfigError(Param::Define,
                      "-D BLOCK=1 for reduction '" + r.name + "'" +
                          (r.lift_vector.empty() ? ", which has no lift_vector" : " with ITEMS 1") +
                          ": BLOCK=1 takes ITEMS 2, 4 or 8 and a descriptor with a lift_vector (argmin, argmax, "
                          "var, std, l1, l2, nanmean, count_nonzero, 8- and 16-bit sums); else BLOCK=0",
                      "BLOCK=1 with ITEMS 2, 4 or 8 and a descriptor with a lift_vector; else BLOCK=0");
  // Under BLOCK on a GPU, inputs narrower than 4 bytes: VEC columns a work-item, 4 bytes of a row
  // (u8 VEC 4, 16-bit VEC 2), as a float column reads. On the H200 at 8192 x 8192, ITEMS 8
  // (bench/results/2026-11-29_h200_narrow_columns): u8 sum 50.0 -> 32.5 us (37.9% -> 58.3% of the
  // read peak), l1 the same, count_nonzero 41.3 -> 35.3, l2 42.9 -> 36.8, var_pop 43.7 -> 41.1,
  // argmax 42.9 -> 41.7; f16 count_nonzero 50.7 -> 48.1, l2 51.6 -> 48.0. Wider: u8 VEC 16 took
  // 94-186 us, f16 VEC 8 77-85 (a row of 16 or more columns' accumulators a work-item).
  if (l.block && !vec_given && !cpu_shape)
    l.vec = static_cast<unsigned>(std::max<std::size_t>(1, 4 / widest_input_bytes(r)));
  // Two inputs narrower than 4 bytes (dot, sqdist: no lift_vector, so no BLOCK): the same 4 bytes
  // of a row a work-item. On the H100, f16 dot columns at 8192 x 8192 read 91.5% of the read peak at
  // VEC 2; at 65536 x 1024 f16 and bf16 dots went 129.6 -> 103.0 us (69% -> 87%) and u8's 78.3 ->
  // 66.5 at VEC 4 (bench/results/2026-12-06_h100_waves_dot, grids29). sqdist follows unmeasured.
  if (!l.block && !vec_given && !cpu_shape && r.inputs.size() > 1 && widest_input_bytes(r) < 4)
    l.vec = static_cast<unsigned>(4 / widest_input_bytes(r));
  // Narrowed to the matrix where the caller left VEC (a caller's wider VEC runs: its columns
  // past the matrix are never read).
  if (!vec_given && l.vec > 1 && l.vec > ncols) l.vec = static_cast<unsigned>(pow2_floor(ncols));
  // One accumulator per column under BLOCK (VEC of them); else ITEMS x VEC.
  const auto acc_bytes = [&] { return std::uint64_t{l.block ? 1 : l.items} * l.vec * r.acc_bytes; };
  while (!items_given && !l.block && l.items > 1 && acc_bytes() > 256) l.items /= 2;
  while (!vec_given && l.vec > 1 && acc_bytes() > 256) l.vec /= 2;
  // SPAN (VEC > 1, no BLOCK): a work-item's VEC-wide loads along a row. On a CPU a work-item runs
  // its rows alone, one row ld apart from the next: a span of 8 64-byte loads reads 512 contiguous
  // bytes a row where one load read one cache line. The largest up to 8 that leaves 8 work-items
  // across the columns (a tile of one row slice: wider spans left row slices whose trees cost a
  // barrier a column), or where the columns are fewer than 8 vectors, the largest that fits them;
  // ITEMS (rows a trip) divided by the span, the loads in flight staying about 4 vectors. On PoCL
  // (2 cores, best of 3, f32 / f64 sums, us): 1024 x 1024 75.8 / 81.7 -> 43.4 / 63.6, 4096 x 256
  // 54.9 / 67.4 -> 36.7 / 63.0, 32 x 65536 117.6 / 269.7 -> 85.7 / 254.1, 65536 x 32 79 / 169 ->
  // 67 / 121 (bench/NOTES.md, columns' spans on a CPU). Accumulators of a scalar type only: the
  // structs (argmax's pair, Welford's) lost with spans (f32 argmax 0.56-0.61x, var_pop 0.86-1.0x).
  // 1 on a GPU, whose neighbouring work-items read a row's neighbouring vectors.
  const std::optional<std::uint64_t> span_given = given_value(k, "SPAN", params.defines);
  if (span_given && *span_given > 1 && (l.block || l.vec == 1))
    throw ConfigError(Param::Define,
                      "SPAN=" + std::to_string(*span_given) + " for " + k.kernel + " with VEC " + std::to_string(l.vec) +
                          (l.block ? " and BLOCK 1" : "") + "; valid: SPAN 1, or VEC > 1 with BLOCK 0",
                      "SPAN 1, or VEC > 1 with BLOCK 0");
  // LANES: on a CPU, a descriptor's lanes state (argmin/argmax: the values and their indices as
  // vectors, compared lane-wise) where an array of VEC pairs stayed scalar code; given, refused
  // without lanes or with BLOCK or VEC 1 (the kernel's #error says so too, but after a build).
  const std::optional<std::uint64_t> lanes_given = given_value(k, "LANES", params.defines);
  if (lanes_given && *lanes_given && (l.block || l.vec == 1 || !lanes_state(r)))
    throw ConfigError(Param::Define,
                      "LANES=1 for reduction '" + r.name + "'" +
                          (!lanes_state(r) ? ", which has no lanes state" : l.vec == 1 ? " with VEC 1" : " with BLOCK 1") +
                          "; valid: LANES 1 with a descriptor's lanes (argmin, argmax), VEC > 1 and BLOCK 0; else LANES 0",
                      "LANES 1 with a descriptor's lanes, VEC > 1 and BLOCK 0; else LANES 0");
  l.lanes = lanes_given ? *lanes_given != 0 : cpu_shape && !l.block && l.vec > 1 && lanes_state(r);
  refuse_lanes_state_on_llvmpipe(r, l.lanes, dev, k.kernel);
  std::uint64_t span = 1;
  if (cpu_shape && !l.block && l.vec > 1 && (lanes_vector(r) || l.lanes)) {
    const std::uint64_t across = ncols >= 8ull * l.vec ? 8 : 1;  // work-items kept across the columns
    while (span < 8 && std::uint64_t{l.vec} * span * 2 * across <= ncols) span *= 2;
    // At most 512 bytes of a row's accumulators (a struct's 16 bytes: span 2 at VEC 16); lanes
    // held as vectors (argmax's values and indices) 1024.
    const std::uint64_t cap = l.lanes ? 1024 : 512;
    while (span > 1 && std::uint64_t{l.vec} * span * r.acc_bytes > cap) span /= 2;
  }
  l.span = static_cast<unsigned>(span_given.value_or(span));
  if (!items_given && !l.block) l.items = static_cast<unsigned>(std::max<std::uint64_t>(1, l.items / l.span));
  // The exact accumulators on a CPU: a smaller group where its accumulators would not fit the stack
  // (the tile's choice below follows the group). Copies a work-item holds: its chains' columns, the
  // last group's row of them (one row slice), a vector's and a few more.
  const bool wg_chosen =
      params.wg.has_value() || (given_value(k, "TILE_X", params.defines) && given_value(k, "ROWS_Y", params.defines));
  const std::uint64_t private_copies = std::uint64_t{l.items + 1} * l.vec * l.span + l.vec + 4;
  const std::string private_launch =
      k.file + " (VEC " + std::to_string(l.vec) + ", ITEMS " + std::to_string(l.items) + ")";
  if (!wg_chosen) fit_private_footprint(r, l.wg, false, private_copies, dev, private_launch);
  const std::uint64_t cols_each = std::uint64_t{l.vec} * l.span;  // a work-item's columns
  const std::uint64_t col_items = (ncols + cols_each - 1) / cols_each;
  const std::uint64_t cus = std::max(1u, dev.compute_units);
  // 32 columns, not cols_fused's 64 x 4 on NVIDIA: on the H100 64 x 4 won only at 8192 x 8192
  // (f32 sum 94.6 us against 96.4 at 8 chunks each) and lost at 65536 x 1024 (sum 95.3 against
  // 94.3, argmax 115.8 against 109.8), 1024 x 65536 (95.9 against 93.3; 113.5 against 110.3) and
  // 4096 x 4096 (argmax 36.4 against 35.2): bench/results/2026-11-28_h100_descriptor_columns.
  const std::uint64_t tile_rule =
      cpu_shape ? std::min<std::uint64_t>({8, pow2_ceil(col_items), l.wg})
      : col_items >= 2048 * cus ? l.wg
                                : std::min<std::uint64_t>({32, pow2_ceil(col_items), l.wg});
  l.tile_x = static_cast<unsigned>(given_value(k, "TILE_X", params.defines).value_or(tile_rule));
  if (const auto y = given_value(k, "ROWS_Y", params.defines)) {
    l.rows_y = static_cast<unsigned>(*y);
    if (std::uint64_t{l.tile_x} * l.rows_y != l.wg && params.wg)
      throw ConfigError(Param::WorkGroupSize,
                        "TILE_X " + std::to_string(l.tile_x) + " x ROWS_Y " + std::to_string(l.rows_y) +
                            " is not the work-group size " + std::to_string(l.wg),
                        "TILE_X x ROWS_Y = the work-group size");
    l.wg = std::uint64_t{l.tile_x} * l.rows_y;
  } else {
    if (l.tile_x > l.wg)
      throw ConfigError(params.wg ? Param::WorkGroupSize : Param::Define,
                        "-D TILE_X=" + std::to_string(l.tile_x) + " is wider than the work-group size " +
                            std::to_string(l.wg) + (params.wg ? " (--wg)" : " (the planner's on " + dev.name + ")") +
                            "; valid: TILE_X up to " + std::to_string(l.wg) + ", or --wg " + std::to_string(l.tile_x) +
                            " or more with it",
                        "TILE_X <= the work-group size");
    // On a CPU a tile narrower than the group (fewer than 8 work-items across the columns) keeps
    // one row slice, the group as wide as the tile: PoCL runs a group's work-items one after the
    // other, so slices interleaved row by row each read every ROWS_Y-th row of the chunk, and the
    // rows' parallelism is the chunks' (contiguous runs of rows). PoCL, 2 cores, f32 sums of
    // 65536 x 32 columns: 76-79 us at one slice and 16 chunks against 109-155 at 8 slices
    // (bench/NOTES.md, the CPU's narrow columns).
    if (cpu_shape && !params.wg && l.tile_x < l.wg) l.wg = l.tile_x;
    l.rows_y = static_cast<unsigned>(l.wg / l.tile_x);
  }
  std::size_t limit = dev.max_work_group_size ? dev.max_work_group_size : 256;
  if (kernel_max_wg) limit = std::min(limit, kernel_max_wg);
  limit = std::min(limit, local_cap);
  {
    std::size_t wg = static_cast<std::size_t>(l.wg);
    fit_private_footprint(r, wg, true, private_copies, dev, private_launch);
  }
  if (l.wg > limit)
    throw ConfigError(Param::WorkGroupSize,
                      "TILE_X x ROWS_Y = " + std::to_string(l.wg) + " work-items on " + dev.name + "; valid: up to " +
                          std::to_string(limit),
                      "up to " + std::to_string(limit), dev.name);
  l.groups = (col_items + l.tile_x - 1) / l.tile_x;  // column tiles
  if (params.chunks) {
    if (*params.chunks == 0 || *params.chunks > kMaxChunks)
      throw ConfigError(Param::Chunks,
                        "row chunks " + std::to_string(*params.chunks) + "; valid: 1.." + std::to_string(kMaxChunks),
                        "1.." + std::to_string(kMaxChunks));
    if (*params.chunks > m)  // a chunk of no rows: refused, not cut to fit
      throw ConfigError(Param::Chunks,
                        "row chunks " + std::to_string(*params.chunks) + " over a matrix of " + std::to_string(m) +
                            " rows; valid: 1.." + std::to_string(std::min<std::uint64_t>(m, kMaxChunks)),
                        "1.." + std::to_string(std::min<std::uint64_t>(m, kMaxChunks)));
    l.chunks = *params.chunks;
  } else {
    // Enough chunks for about 8 groups per compute unit, each of at least 16 trips of its loads
    // unless that leaves fewer than 2 groups a compute unit, rounded down to a power of two. On the
    // H100 the 5 chunks of 32 x 8 tiles over 8192 x 8192 f32 columns took 106.2 us against 96.4 at
    // 8 (bench/results/2026-11-28_h100_descriptor_columns), as cols_tile's 5 and 9 chunks ran
    // 10-17% behind 4 and 8 (src/axis/plan.cpp, tile_chunks). 16 trips, not the 4 before: narrow
    // columns' short chunks lost to long ones (H100, u8 65536 x 1024 sum 45.2 us at 128 chunks,
    // 35.8 at 64; 1024 x 65536 28.0 at 1 chunk: bench/results/2026-12-06_h100_host_paths_maxtree;
    // H200, u8 8192 x 8192 at 16 chunks against 8: l2 34.1 against 29.4 us, var_pop 38.7 against
    // 35.0, sum 29.5 against 28.6: bench/results/2026-12-06_h200_host_api_chunks), while the f32
    // and f16 sums of 65536 x 1024 keep their 32 (the device's share binds there).
    const std::uint64_t by_device = (kGroupsPerCu * cus + l.groups - 1) / l.groups;
    const std::uint64_t two_per_cu = (2 * cus + l.groups - 1) / l.groups;
    const std::uint64_t by_length =
        std::max<std::uint64_t>({1, two_per_cu, m / (std::uint64_t{l.rows_y} * l.items * 16)});
    l.chunks = pow2_floor(std::min({by_device, by_length, kMaxChunks}));
  }
  // Where the device ends long loops (llvmpipe), chunks enough that no work-item loops past it:
  // its share of the chunk's rows, ITEMS a trip, the tail, the trees and the last group's loop.
  const auto trips = [&](std::uint64_t chunks) {
    const std::uint64_t per_chunk = (m + chunks - 1) / chunks;
    return per_chunk / (std::uint64_t{l.rows_y} * l.items) + l.items + 2 * cols_each * (log2_floor(l.rows_y) + 1) +
           (chunks > 1 ? (chunks + l.rows_y - 1) / l.rows_y * cols_each : 0);
  };
  if (!params.chunks)
    while (trips(l.chunks) > loop_trips_allowed(dev) && l.chunks < std::min<std::uint64_t>(m, kMaxChunks))
      l.chunks = std::min<std::uint64_t>({2 * l.chunks, m, kMaxChunks});
  check_loop_trips(dev, trips(l.chunks),
                   "reduction '" + r.name + "' over the columns of " + std::to_string(m) + " x " + std::to_string(ncols) +
                       " in " + std::to_string(l.chunks) + " row chunks of " + std::to_string(l.tile_x) + " x " +
                       std::to_string(l.rows_y) + " groups (ITEMS " + std::to_string(l.items) + ")",
                   Param::Chunks, "give more row chunks (--chunks), ROWS_Y or ITEMS");
  l.rows_per_chunk = (m + l.chunks - 1) / l.chunks;
  l.chunks = (m + l.rows_per_chunk - 1) / l.rows_per_chunk;
  const std::uint64_t depth = (l.rows_per_chunk + l.rows_y - 1) / l.rows_y + l.items + log2_floor(l.rows_y) +
                              (l.chunks > 1 ? (l.chunks + l.rows_y - 1) / l.rows_y + log2_floor(l.rows_y) : 0);
  l.depth = static_cast<unsigned>(std::min<std::uint64_t>(depth, 0xffffffffu));
  const ParamValues values = {{"TILE_X", l.tile_x},         {"ROWS_Y", l.rows_y},
                               {"ITEMS", l.items},           {"VEC", l.vec},
                               {"ALIGNED", aligned ? 1 : 0}, {"BLOCK", l.block ? 1 : 0},
                               {"SPAN", l.span},             {"LANES", l.lanes ? 1 : 0},
                               {"LANES_INDEX32", l.lanes && lanes_state(r) && m <= 0xffffffffull ? 1 : 0},
                               {"NV_PTX", dev.is_nvidia ? 1 : 0}};
  l.options = options_for(k, values, params.defines);
  return l;
}

DescriptorLaunch FamilyReducer::columns_with(const Reduction& r, std::uint64_t m, std::uint64_t ncols,
                                             std::uint64_t ld, const FamilyParams& params,
                                             const std::vector<Input>* inputs, cl::Kernel* kernel) {
  const std::shared_ptr<const std::string> held = sources_.of(r);
  const std::string& source = *held;
  const KernelSpec& k = columns_kernel();
  // Vector-pointer loads where every row of every input starts on a whole vector.
  const auto aligned_for = [&](unsigned vec) {
    return ld % vec == 0 && (!inputs || std::all_of(inputs->begin(), inputs->end(),
                                                    [&](const Input& in) { return in.offset % vec == 0; }));
  };
  for (std::size_t max_wg = programs_.max_wg(k, source);;) {
    DescriptorLaunch l = plan_columns(r, m, ncols, params, bound_.device, max_wg, true);
    if (!aligned_for(l.vec)) l = plan_columns(r, m, ncols, params, bound_.device, max_wg, false);
    cl::Kernel built = programs_.get(k, source, r.name, l.options);
    const KernelLimits lim = kernel_limits(built, bound_.device.device);
    if (l.wg > lim.max_work_group_size && !params.wg && max_wg != lim.max_work_group_size) {
      max_wg = lim.max_work_group_size;
      continue;
    }
    check_kernel_limits(k.kernel, l.wg, lim, bound_.device);
    if (kernel) *kernel = built;
    l.program = built.getInfo<CL_KERNEL_PROGRAM>();
    l.private_bytes = lim.private_mem_bytes;
    return l;
  }
}

cl::Event FamilyReducer::columns(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t m,
                                 std::uint64_t ncols, std::uint64_t ld, const cl::Buffer& out, std::uint64_t out_index,
                                 const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                                 const FamilyParams& params, const cl::CommandQueue* on, bool with_event) {
  cl::Kernel k;
  const DescriptorLaunch l = prepare_columns(r, m, ncols, ld, params, &inputs, &k);
  const cl::Buffer& tickets = tickets_.at_least(bound_, (l.chunks > 1 ? l.groups : 1) * sizeof(cl_uint),
                                                "the column tiles' tickets", true, &allocations_);
  const cl::Buffer* partials = nullptr;
  if (l.chunks > 1)
    partials = &partials_.at_least(bound_, l.chunks * ncols * r.acc_bytes, "the row chunks' partial rows", false,
                                   &allocations_);
  cl::Event done;
  with_cl_context("enqueueing reduction '" + r.name + "' over " + std::to_string(ncols) + " columns", [&] {
    cl_uint a = set_input_args(k, inputs);
    k.setArg(a++, static_cast<cl_ulong>(m));
    k.setArg(a++, static_cast<cl_ulong>(ncols));
    k.setArg(a++, static_cast<cl_ulong>(ld));
    k.setArg(a++, static_cast<cl_ulong>(l.rows_per_chunk));
    k.setArg(a++, partials ? *partials : tickets);  // one chunk: never written
    k.setArg(a++, tickets);
    k.setArg(a++, out);
    k.setArg(a++, static_cast<cl_ulong>(out_index));
    set_scalar_args(k, a, r, scalars);
    enqueue_kernel(on ? *on : bound_.queue, k, cl::NullRange, cl::NDRange(l.groups * l.tile_x, l.chunks * l.rows_y),
                                      cl::NDRange(l.tile_x, l.rows_y), wait.empty() ? nullptr : &wait,
                                      with_event ? &done : nullptr);
  });
  return done;
}

}  // namespace clreduce
