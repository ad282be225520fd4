// Rows and segments of a descriptor (src/descriptor/families.hpp): the lines kernel's planner and
// its enqueue, and the blocking read both families share.
#include "clreduce/error.hpp"
#include "descriptor/families.hpp"
#include "descriptor/kernel_params.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <cstdint>

namespace clreduce {

namespace {
constexpr std::size_t kDefaultWg = 256;
constexpr unsigned kLineItems = 2;

// Rows of 16-bit floats on a GPU, for the built-ins whose accumulator is a struct: Welford's triple
// and the scaled l2's pair read best one vector in flight (ITEMS 1, so twice the work-items a row),
// argmin/argmax's pair four. On the H100 (bench/results/2026-12-06_h100_waves_dot): f16 l2 at 8192
// x 8192 83.1% -> 94% of the read peak, at 65536 x 1024 81.4% -> 87.1% (bf16 80.8% -> 86.4%);
// var_pop 80.1% -> 88.3% (bf16 80.4% -> 84.1%) at 65536 x 1024 but 93.4% -> 93.1% (bf16 93.0% ->
// 91.8%) at 8192 x 8192; f16 argmax ITEMS 4 at 8192 x 8192 83% -> 92%, at 65536 x 1024 81.0% ->
// 87.1% (bf16 89.5% and 89.3%, the same).
unsigned narrow_float_row_items(const Reduction& r, unsigned usual) {
  if (!r.builtin || r.summation == Summation::Exact || r.inputs.size() != 1 ||
      (r.inputs[0] != Scalar::F16 && r.inputs[0] != Scalar::BF16))
    return usual;
  switch (*r.builtin) {
    case Builtin::L2:
    case Builtin::VarPop:
    case Builtin::VarSample:
    case Builtin::StdPop:
    case Builtin::StdSample:
      return 1;
    case Builtin::ArgMin:
    case Builtin::ArgMax:
      return 4;
    default:
      return usual;
  }
}
// The groups along the lines: 32 per compute unit at most (8 x 256 work-items are resident on an
// H100 SM; four rounds of them keep its loads in flight while a round's trees run), the rest loop.
constexpr std::uint64_t kMaxGroupsPerCu = 32;
constexpr std::uint64_t kMaxParts = 1024;

std::uint64_t offset_type_id(Scalar t) {
  switch (t) {
    case Scalar::U32: return 0;
    case Scalar::U64: return 1;
    case Scalar::I32: return 2;
    case Scalar::I64: return 3;
    default:
      throw ConfigError(Param::Segments,
                        "segment offsets of type " + std::string(name_of(t)) + "; valid: u32, u64, i32, i64",
                        "u32, u64, i32, i64");
  }
}
}  // namespace

std::size_t family_wg(const KernelSpec& k, const FamilyParams& params, const DeviceInfo& dev,
                      std::size_t kernel_max_wg, std::size_t preferred) {
  std::size_t limit = dev.max_work_group_size ? dev.max_work_group_size : kDefaultWg;
  if (kernel_max_wg) limit = std::min(limit, kernel_max_wg);
  // The option and a -D of WG_SIZE: one value, or refused (both set, different).
  const std::optional<std::uint64_t> option = params.wg ? std::optional<std::uint64_t>(*params.wg) : std::nullopt;
  const std::optional<std::uint64_t> wg =
      k.find("WG_SIZE") ? caller_value(k, "WG_SIZE", option, "the work-group size", params.defines) : option;
  if (wg) {
    if (!is_pow2(*wg) || *wg > limit)
      throw ConfigError(Param::WorkGroupSize,
                        "work-group size " + std::to_string(*wg) + " for " + k.file + " on " + dev.name +
                            "; valid: a power of two up to " + std::to_string(limit),
                        "a power of two up to " + std::to_string(limit), dev.name);
    return static_cast<std::size_t>(*wg);
  }
  return static_cast<std::size_t>(pow2_floor(std::min(preferred, limit)));
}

DescriptorLaunch plan_lines(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                            const DeviceInfo& dev, std::size_t kernel_max_wg, bool aligned) {
  const KernelSpec& k = lines_kernel();
  check_fp64(r, dev);
  if (shape.lines == 0)
    throw ConfigError(shape.kind == LineKind::Rows ? Param::Shape : Param::Segments,
                      shape.kind == LineKind::Rows ? "a matrix of 0 rows: a row reduction needs at least one row"
                                                   : "0 segments: a segmented reduction needs at least one",
                      "at least 1");
  const std::uint64_t type_id = shape.kind == LineKind::Rows ? 1 : offset_type_id(shape.offset_type);
  DescriptorLaunch l;
  l.kernel = k.kernel;
  const std::uint64_t cus = std::max(1u, dev.compute_units);
  // Not a GPU (PoCL): a line per work-item, read in 64-byte loads, and groups of up to 64
  // lines that leave 4 groups per compute unit; fewer lines than that, a group of one work-item per
  // part of a line (the chunks below). On PoCL (2 cores) f32 sums went from 3.7-6.9 GB/s (row widths
  // 2-256 of 256-wide groups) to 10-20 (bench/NOTES.md, the descriptor families on a CPU device).
  const bool cpu_shape = cpu_shapes(dev);
  const std::optional<std::uint64_t> blocked_given = given_value(k, "BLOCKED", params.defines);
  // BLOCKED (below) planned on a CPU where there are lines enough and nothing asks for another shape.
  const bool caller_shape = params.row_width || params.chunks ||
                            given_value(k, "ROW_WIDTH", params.defines).has_value();
  const bool blocked_planned = cpu_shape && !blocked_given && !caller_shape && shape.lines >= 4 * cus;
  const std::uint64_t cpu_wg =
      shape.lines >= 4 * cus
          ? std::min<std::uint64_t>(blocked_given == 1u || blocked_planned ? kCpuRunWg : 64,
                                    pow2_floor(shape.lines / (4 * cus)))
          : 1;
  l.wg = family_wg(k, params, dev, local_wg_limit(r, dev, kernel_max_wg ? kernel_max_wg : SIZE_MAX),
                   cpu_shape ? cpu_wg : kDefaultWg);
  l.items = static_cast<unsigned>(given_value(k, "ITEMS", params.defines).value_or(default_items(r, kLineItems)));
  if (!cpu_shape && shape.kind == LineKind::Rows && !given_value(k, "ITEMS", params.defines))
    l.items = narrow_float_row_items(r, l.items);
  const std::size_t widest = widest_input_bytes(r);
  if (const auto v = given_value(k, "VEC", params.defines)) {
    l.vec = static_cast<unsigned>(*v);
  } else {
    // 16 bytes of the widest input per load, halved while an average line holds fewer than 4 such
    // vectors (a row of 6 floats is read as pairs, not as one vector and its tail one by one). On a
    // CPU 64 bytes (a cache line; VEC at most 16), halved while a line is shorter than one.
    if (cpu_shape) {
      l.vec = cpu_vec(r);
      while (l.vec > 1 && shape.average < l.vec) l.vec /= 2;
    } else {
      l.vec = static_cast<unsigned>(16 / widest);
      while (l.vec > 1 && shape.average < 4ull * l.vec) l.vec /= 2;
    }
  }
  fit_private_footprint(r, l.wg, params.wg.has_value() || given_value(k, "WG_SIZE", params.defines).has_value(),
                        std::uint64_t{l.items} + l.vec + 4, dev,
                        k.file + " (VEC " + std::to_string(l.vec) + ", ITEMS " + std::to_string(l.items) + ")");
  // ROW_WIDTH: about ITEMS vectors per work-item of an average line, 1 .. WG_SIZE.
  const std::optional<std::uint64_t> rw = caller_value(
      k, "ROW_WIDTH", params.row_width ? std::optional<std::uint64_t>(*params.row_width) : std::nullopt, "the row width",
      params.defines);
  if (rw) {
    if (!is_pow2(*rw) || *rw > l.wg)
      throw ConfigError(Param::RowWidth,
                        "row width " + std::to_string(*rw) + " with work-group size " + std::to_string(l.wg) +
                            "; valid: a power of two up to the work-group size",
                        "1, 2, 4, ..., " + std::to_string(l.wg));
    l.row_width = static_cast<unsigned>(*rw);
  }
  if (!rw && cpu_shape) {
    l.row_width = 1;
  } else if (!rw) {
    // About 4 trips of ITEMS vectors per work-item of an average line, and no fewer than
    // min(4, the old ITEMS-vectors-each width) work-items a line. On the H200 (f32, 4-wide vectors,
    // ITEMS 2), each length read best at 8 vectors a work-item: 1024-wide rows at 32 work-items a
    // row (sum 70.1% -> 96.6% of the read peak, minmax 62.8% -> 95.6%; 128 before), 2048-wide at 64
    // (sum 67.7% -> 96.5%; 256 before), 8192-wide at 256 (98.7%, as before); at 32 wide 4 beat 8
    // (76.4% and 43.0%): one trip a work-item leaves the tree and its barriers as much work as the
    // loads (bench/NOTES.md, the built-ins x families table).
    const std::uint64_t vectors = std::max<std::uint64_t>(1, shape.average / l.vec);
    const std::uint64_t one_trip = pow2_floor(std::max<std::uint64_t>(1, vectors / l.items));
    const std::uint64_t four_trips = pow2_floor(std::max<std::uint64_t>(1, vectors / (4ull * l.items)));
    std::uint64_t w = std::min<std::uint64_t>(std::max(four_trips, std::min<std::uint64_t>(one_trip, 4)), l.wg);
    // Accumulators over 8 bytes (argmin's pair, Welford's, the scaled l2's) fold at most 32 work-items
    // per line where there are lines enough (4 per compute unit) and a line is at most 1024
    // vectors: a shallower tree, under one warp's barrier on NVIDIA. On the H100, f32: at 65536 x
    // 1024 argmax went from 69% of the read peak (128 work-items a row) to 93.3%, var_pop from 60%
    // to 93.1%; at 8192 x 8192 (2048 vectors a row) the cap lost (argmax 96.5% -> 89.1%), hence
    // the length limit (bench/NOTES.md, descriptor families).
    if (r.acc_bytes > 8 && shape.lines >= 4 * cus && vectors <= 1024) w = std::min<std::uint64_t>(w, 32);
    l.row_width = static_cast<unsigned>(w);
  }
  if (params.chunks) {
    if (*params.chunks == 0 || *params.chunks > kMaxParts)
      throw ConfigError(Param::Chunks,
                        "parts per line " + std::to_string(*params.chunks) + "; valid: 1.." + std::to_string(kMaxParts),
                        "1.." + std::to_string(kMaxParts));
    l.chunks = *params.chunks;
  } else if (l.row_width == l.wg && shape.lines < 4 * cus) {
    // Few long lines: each cut into parts of at least 4 trips of the group's loads, for about 4
    // groups per compute unit.
    const std::uint64_t vectors = shape.average / l.vec;
    const std::uint64_t by_device = (4 * cus + shape.lines - 1) / shape.lines;
    const std::uint64_t by_length = std::max<std::uint64_t>(1, vectors / (std::uint64_t{l.wg} * l.items * 4));
    l.chunks = std::min({by_device, by_length, kMaxParts});
  }
  // BLOCKED 1 (with a line per work-item and whole lines): each work-item one run of consecutive
  // lines, 8-wide groups, 4 per compute unit, as the whole array's CPU shape. Planned on a CPU
  // wherever there are 4 lines a compute unit: on PoCL (2 cores, f32 sums) segments of 1 element
  // went from 0.2 to 1.2 GB/s, of 16 from 2.9 to 4.9, rows of 32 from 7.5-8.1 to 10.5-10.7 (bench/NOTES.md,
  // the Op path on a CPU); with the lanes in a vector (sumsq, 2^22 floats) segments of 64 2594 ->
  // 428 us, of 256 348-1810 -> 293-545, of 4096 307-459 -> 224-325, of 65536 level (201-209 against
  // 204-224); rows of 64 to 1024 level (bench/NOTES.md, vector lanes on a CPU).
  const bool blocked = blocked_given.value_or(blocked_planned ? 1 : 0) != 0;
  if (blocked && (l.row_width != 1 || l.chunks != 1))
    throw ConfigError(Param::Define,
                      "BLOCKED=1 for " + k.kernel + " with row width " + std::to_string(l.row_width) + " and " +
                          std::to_string(l.chunks) + " parts per line; valid: row width 1 and 1 part (a work-item folds its lines alone)",
                      "row width 1, 1 part");
  // LANES (a CPU's shape, a line one work-item's, VEC > 1, cpu_lanes): each of a vector's elements into its
  // own accumulator, VEC chains where a vector folded in order is one chain of VEC dependent steps
  // (bench/NOTES.md, lanes on a CPU). An accumulator of a scalar type holds its lanes in one vector
  // (lanes_vector: SIMD operations on PoCL) and takes them for any line of a whole vector: on PoCL
  // (2 cores, best of 3 x 20) f32 sums of rows of 16 / 32 / 64 elements 242 -> 154, 224 -> 116, 229
  // -> 108 us, i32 and f64 alike (bench/NOTES.md, vector lanes on a CPU). Lanes in an array only
  // where an average line holds at least VEC vectors: their meeting (a tree of log2 VEC levels of
  // scalar combines) lost on shorter ones. The depth below still holds: a lane's chain is at most
  // the vectors' count, the lanes' meeting log2 VEC more.
  const std::optional<std::uint64_t> lanes_given = given_value(k, "LANES", params.defines);
  // A lanes state (cpu_lanes) met in a tree of whole vectors (lanes_meet) takes lines of two vectors
  // or more: on PoCL (2 cores, best of 2) argmax/argmin rows of 32, 128 and 256 elements f32
  // 1.9-3.1x faster, i32 1.4-3.2x, f64 1.3-1.9x (one point 0.92x), u8 0.94-2.7x; rows of one vector
  // (16 elements) f32 1.45x but i32 0.76x and u8 0.47x, so not those. Without lanes_meet its lanes
  // are unpacked and met by VEC - 1 scalar combines, so it takes only lines of VEC vectors or more,
  // as an array's lanes: rows of two vectors lost 3.2-4.4x for i32 and u8 that way
  // (bench/results/2026-12-07_pocl_struct_lanes).
  const bool lanes_fit = lanes_vector(r)                              ? shape.average >= l.vec
                         : lanes_state(r) && !r.lanes_meet.empty()    ? shape.average >= 2 * std::uint64_t{l.vec}
                                                                       : shape.average / l.vec >= l.vec;
  const bool lanes = lanes_given.value_or(cpu_shape && l.row_width == 1 && l.vec > 1 && cpu_lanes(r) &&
                                                  lanes_fit
                                              ? 1
                                              : 0) != 0;
  refuse_lanes_state_on_llvmpipe(r, lanes, dev, k.kernel);
  if (lanes && l.row_width != 1)
    throw ConfigError(Param::Define,
                      "LANES=1 for " + k.kernel + " with row width " + std::to_string(l.row_width) +
                          "; valid: row width 1 (a line one work-item folds alone), or LANES=0",
                      "row width 1, or LANES=0");
  const std::uint64_t slots = l.wg / l.row_width;
  l.groups = blocked ? std::min<std::uint64_t>((shape.lines + l.wg - 1) / l.wg, cus * kCpuGroupsPerCu)
                     : std::min((shape.lines + slots - 1) / slots, cus * kMaxGroupsPerCu);
  // A work-item's loop trips: the elements of its lines (rows: its share of the rows, each whole;
  // segments: at most all n) over ROW_WIDTH x VEC x ITEMS a trip and the parts, and per line its
  // tail, chains and tree. Where the device ends long loops (llvmpipe), groups enough for one line
  // per work-item (or run) first, then parts.
  const auto trips = [&] {
    const std::uint64_t concurrent = blocked ? l.groups * l.wg : l.groups * slots;
    const std::uint64_t per_slot = (shape.lines + concurrent - 1) / concurrent;
    const std::uint64_t elements =
        shape.kind == LineKind::Rows ? per_slot * shape.longest : std::min(per_slot * shape.longest, shape.longest);
    const std::uint64_t per_trip = std::uint64_t{l.row_width} * l.vec * l.items * l.chunks;
    return elements / per_trip + per_slot * (l.items + 2 * l.vec + log2_floor(l.row_width) + 2) + l.chunks;
  };
  const std::uint64_t one_each = blocked ? (shape.lines + l.wg - 1) / l.wg : (shape.lines + slots - 1) / slots;
  while (trips() > loop_trips_allowed(dev) && l.groups < one_each) l.groups = std::min(one_each, 2 * l.groups);
  // Then (a group a line, as the planner cuts few long lines) more parts a line.
  while (trips() > loop_trips_allowed(dev) && !params.chunks && !blocked && l.row_width == l.wg && l.chunks < kMaxParts)
    l.chunks = std::min<std::uint64_t>(kMaxParts, 2 * l.chunks);
  check_loop_trips(dev, trips(),
                   "reduction '" + r.name + "' over " + std::to_string(shape.lines) +
                       (shape.kind == LineKind::Rows ? " rows of " + std::to_string(shape.longest)
                                                     : " segments of " + std::to_string(shape.longest) + " elements") +
                       " (row width " + std::to_string(l.row_width) + ", VEC " + std::to_string(l.vec) + ", ITEMS " +
                       std::to_string(l.items) + ", " + std::to_string(l.chunks) + " parts a line)",
                   Param::Chunks, "give more parts a line (--chunks), a larger row width, VEC or ITEMS");
  l.depth = l.depth_of(shape.longest);
  const ParamValues values = {{"WG_SIZE", l.wg},
                               {"ROW_WIDTH", l.row_width},
                               {"ITEMS", l.items},
                               {"VEC", l.vec},
                               {"ALIGNED", aligned ? 1 : 0},
                               {"LINES", static_cast<std::uint64_t>(shape.kind)},
                               {"OFFSET_T_ID", type_id},
                               {"SPLIT", l.chunks > 1 ? 1 : 0},
                               {"BLOCKED", blocked ? 1 : 0},
                               {"LANES", lanes ? 1 : 0},
                               {"LANES_INDEX32", lanes && lanes_state(r) && shape.longest <= 0xffffffffull ? 1 : 0},
                               {"NV_PTX", dev.is_nvidia ? 1 : 0}};
  l.options = options_for(k, values, params.defines);
  return l;
}

template <class With>
DescriptorLaunch FamilyReducer::tuned_or_default(const Reduction& r, DescriptorFamily family,
                                                 const std::string& shape_class, const FamilyParams& params, With with,
                                                 std::uint64_t most_chunks) {
  std::optional<std::uint64_t> wg_value;
  if (params.wg) wg_value = *params.wg;
  const DescriptorCallerSet caller{params.defines, params.wg.has_value(), false, params.row_width.has_value(),
                                   params.chunks.has_value(), wg_value};
  DescriptorTuning& t = tuning_.of(bound_.device, r, family, shape_class, caller);
  if (t.any() && !t.refused) {
    FamilyParams tuned = params;
    tuned.defines.insert(tuned.defines.end(), t.defines.begin(), t.defines.end());
    if (t.chunks) tuned.chunks = std::min<std::uint64_t>(*t.chunks, most_chunks);
    try {
      DescriptorLaunch l = with(tuned);
      note_tuning(t, l);
      return l;
    } catch (const ConfigError& e) {  // LimitError too: the device or the built kernel refuses it
      t.refused = true;
      t.refusal = "the tuned launch of " + r.name + " (" + t.label + ", class " + shape_class + ", tuning database " +
                  t.from + ") does not plan here (" + e.what() + "); the defaults are used";
    }
  }
  DescriptorLaunch l = with(params);
  note_tuning(t, l);
  return l;
}

DescriptorLaunch FamilyReducer::prepare_lines(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                                              const std::vector<Input>* inputs, cl::Kernel* kernel) {
  const std::string cls = descriptor_shape_class(DescriptorFamily::Rows, shape.lines, shape.average,
                                                 widest_input_bytes(r), bound_.device.compute_units);
  return tuned_or_default(r, DescriptorFamily::Rows, cls, params, [&](const FamilyParams& p) {
    return lines_with(r, shape, p, inputs, kernel);
  });
}

DescriptorLaunch FamilyReducer::prepare_columns(const Reduction& r, std::uint64_t m, std::uint64_t ncols,
                                                std::uint64_t ld, const FamilyParams& params,
                                                const std::vector<Input>* inputs, cl::Kernel* kernel) {
  const std::string cls =
      descriptor_shape_class(DescriptorFamily::Cols, m, ncols, widest_input_bytes(r), bound_.device.compute_units);
  return tuned_or_default(
      r, DescriptorFamily::Cols, cls, params,
      [&](const FamilyParams& p) { return columns_with(r, m, ncols, ld, p, inputs, kernel); }, m);
}

DescriptorLaunch FamilyReducer::lines_with(const Reduction& r, const LineShape& shape, const FamilyParams& params,
                                           const std::vector<Input>* inputs, cl::Kernel* kernel) {
  const std::shared_ptr<const std::string> held = sources_.of(r);  // refuses a malformed descriptor first
  const std::string& source = *held;
  const KernelSpec& k = lines_kernel();
  const auto aligned_for = [&](unsigned vec) {
    return !inputs || std::all_of(inputs->begin(), inputs->end(), [&](const Input& in) { return in.offset % vec == 0; });
  };
  for (std::size_t max_wg = programs_.max_wg(k, source);;) {
    DescriptorLaunch l = plan_lines(r, shape, params, bound_.device, max_wg, true);
    if (!aligned_for(l.vec)) l = plan_lines(r, shape, params, bound_.device, max_wg, false);
    cl::Kernel built = programs_.get(k, source, r.name, l.options);
    const KernelLimits lim = kernel_limits(built, bound_.device.device);
    if (l.wg > lim.max_work_group_size && !params.wg && max_wg != lim.max_work_group_size) {
      max_wg = lim.max_work_group_size;  // a narrower group for this descriptor's build
      continue;
    }
    check_kernel_limits(k.kernel, l.wg, lim, bound_.device);
    if (kernel) *kernel = built;
    l.program = built.getInfo<CL_KERNEL_PROGRAM>();
    l.private_bytes = lim.private_mem_bytes;
    return l;
  }
}

cl::Event FamilyReducer::lines(const Reduction& r, const std::vector<Input>& inputs, const LineShape& shape,
                               std::uint64_t n, const cl::Buffer* seg_a, const cl::Buffer* seg_b, std::uint64_t ld,
                               std::uint64_t len, const cl::Buffer& out, std::uint64_t out_index,
                               const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                               const FamilyParams& params, const cl::CommandQueue* on, bool with_event) {
  cl::Kernel k;
  const DescriptorLaunch l = prepare_lines(r, shape, params, &inputs, &k);
  const cl::Buffer* partials = nullptr;
  const cl::Buffer& tickets =
      tickets_.at_least(bound_, (l.chunks > 1 ? shape.lines : 1) * sizeof(cl_uint), "the lines' tickets", true,
                        &allocations_);
  if (l.chunks > 1) partials = &partials_.at_least(bound_, shape.lines * l.chunks * r.acc_bytes, "the lines' parts", false,
                                                   &allocations_);
  cl::Event done;
  with_cl_context("enqueueing reduction '" + r.name + "' over " + std::to_string(shape.lines) + " lines", [&] {
    cl_uint a = set_input_args(k, inputs);
    k.setArg(a++, static_cast<cl_ulong>(n));
    k.setArg(a++, seg_a ? *seg_a : tickets);  // rows: never read
    k.setArg(a++, seg_b ? *seg_b : tickets);  // rows, CSR offsets: never read
    k.setArg(a++, static_cast<cl_ulong>(shape.lines));
    k.setArg(a++, static_cast<cl_ulong>(ld));
    k.setArg(a++, static_cast<cl_ulong>(len));
    k.setArg(a++, static_cast<cl_uint>(l.chunks));
    k.setArg(a++, partials ? *partials : tickets);  // one part a line: never written
    k.setArg(a++, tickets);
    k.setArg(a++, out);
    k.setArg(a++, static_cast<cl_ulong>(out_index));
    set_scalar_args(k, a, r, scalars);
    enqueue_kernel(on ? *on : bound_.queue, k, cl::NullRange, cl::NDRange(l.groups * l.wg, l.chunks), cl::NDRange(l.wg, 1),
                                      wait.empty() ? nullptr : &wait, with_event ? &done : nullptr);
  });
  return done;
}

const cl::Buffer& FamilyReducer::result_buffer(const Reduction& r, std::uint64_t count) {
  return results_.at_least(bound_, count * r.out.bytes(), "the results", false, &allocations_);
}

std::vector<Result> FamilyReducer::read(const Reduction& r, const cl::Buffer& out, std::uint64_t count) {
  const std::size_t rb = r.out.bytes();
  std::vector<unsigned char> bytes(count * rb);
  with_cl_context("reading the results",
                  [&] { bound_.queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes.size(), bytes.data()); });
  std::vector<Result> results;
  results.reserve(count);
  for (std::uint64_t s = 0; s < count; ++s) results.push_back(Result::from_bytes(r.out, bytes.data() + s * rb));
  return results;
}

}  // namespace clreduce
