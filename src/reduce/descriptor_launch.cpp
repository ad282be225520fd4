// The whole-array launch of a reduction descriptor (src/reduce/descriptor_launch.hpp).
#include "reduce/descriptor_launch.hpp"

#include "clreduce/error.hpp"
#include "descriptor/common.hpp"
#include "descriptor/kernel_params.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <cstring>

namespace clreduce {

namespace {
constexpr std::size_t kDefaultWg = 256;
constexpr unsigned kDefaultGroupsPerCu = 8;  // 8 x 256 work-items: a whole H100 SM's residency
constexpr unsigned kItems = 4;
// exact_digits() of a sum of doubles and of a sum of their products (src/core/reduction.cpp,
// exact_layout): how this file tells the exact accumulators apart.
constexpr unsigned kExactDoubleDigits = 68;
constexpr unsigned kExactDoubleProductDigits = 134;
constexpr unsigned kExactFloatProductDigits = 20;

// EXACT_GROUP's grid on a GPU: fewer groups a compute unit than the plain sums' 8. Each group ends
// in its tree, its digits' carries and the launch's global atomics, paid once a group, so fewer and
// longer-running groups pay it less often. Not residency: 6 groups, all that 40 registers a
// work-item leave resident on an SM, lost to 8 everywhere. H100 (driver 580), `bench descriptors
// --exact --families whole --grid groups_per_cu=...`, median us against the 8 of before
// (bench/NOTES.md, "The exact sum's grid"):
// - floats' sums (11 digits) and products (20): 4; f32 sum 2^26 104.1 -> 97.5, 2^28 363.9 -> 358.7,
//   2^24 37.0 -> 33.8; f32 dot 2^26 194.2 -> 188.7, 2^24 68.3 -> 59.1. 6 was slower than 8 everywhere.
// - doubles' sums (68): 3; 2^26 207.8 -> 194.2, 2^28 721.3 -> 707.4, 2^24 80.3 -> 67.1.
// - products of doubles (134): 4, measured before their chains were split (then every trip rolled
//   back, and 8 groups beat 4); not measured since.
unsigned exact_groups_per_cu(const Reduction& r) { return exact_digits(r) == kExactDoubleDigits ? 3 : 4; }
}  // namespace

std::string DescriptorLaunch::label() const {
  std::string s = "wg " + std::to_string(wg);
  if (exact_group)
    s += std::string(" (EXACT_GROUP: expansions in registers, the group's digits in local memory; rounded ") +
         (exact_last_group_rounds ? "by the last group)" : "by a launch of its own)");
  if (kernel == columns_kernel().kernel)
    return s + " (" + std::to_string(tile_x) + " x " + std::to_string(rows_y) + "), " + std::to_string(groups) +
           " column tiles x " + std::to_string(chunks) + " row chunks, " +
           (vec > 1 ? "VEC " + std::to_string(vec) + ", " : std::string()) +
           (span > 1 ? "SPAN " + std::to_string(span) + ", " : std::string()) + "ITEMS " + std::to_string(items) +
           (block ? " (a block each trip)" : "") + (lanes ? " (lanes as vectors)" : "");
  if (kernel == lines_kernel().kernel)
    s += ", row width " + std::to_string(row_width) + (chunks > 1 ? ", " + std::to_string(chunks) + " parts a line" : "");
  return s + ", " + std::to_string(groups) + " groups, VEC " + std::to_string(vec) + ", ITEMS " + std::to_string(items);
}

unsigned DescriptorLaunch::depth_of(std::uint64_t length) const {
  if (kernel != lines_kernel().kernel) return depth;
  // A work-item's share of its part's whole vectors (VEC elements each), the single elements
  // around them, its ITEMS chains, the line's tree, and the parts folded in order.
  const std::uint64_t rw = std::max(1u, row_width), v = std::max(1u, vec), c = std::max<std::uint64_t>(1, chunks);
  const std::uint64_t per_part = (length / v + c - 1) / c;
  const std::uint64_t d = (per_part + rw - 1) / rw * v + (2 * (v - 1) + rw - 1) / rw + items + log2_floor(rw) + c;
  return static_cast<unsigned>(std::min<std::uint64_t>(d, 0xffffffffu));
}

bool exact_group_available(const Reduction& r, const DeviceInfo& dev) {
  return r.summation == Summation::Exact && dev.fp64 && dev.has_extension("cl_khr_int64_base_atomics");
}

namespace {
// EXACT_GROUP: the caller's -D EXACT_GROUP, else on wherever it can run (an exact descriptor, fp64
// and 64-bit atomics) but where the caller turned the expansion off (-D EXACT_EXPANSION=0: every
// term through the integers, which this path does not do).
bool plan_exact_group(const Reduction& r, const DeviceInfo& dev, const std::vector<Define>& defines) {
  const bool no_expansion = std::any_of(defines.begin(), defines.end(), [](const Define& d) {
    return d.name == "EXACT_EXPANSION" && d.value.value_or("1") == "0";
  });
  const std::optional<std::uint64_t> given = given_value(whole_kernel(), "EXACT_GROUP", defines);
  if (!given) return exact_group_available(r, dev) && !no_expansion;
  if (*given == 0) return false;
  if (!exact_group_available(r, dev)) {
    // What is missing, and only that.
    std::vector<std::string> missing;
    if (r.summation != Summation::Exact)
      missing.push_back("an exact descriptor ('" + r.name + "' is " + std::string(name_of(r.summation)) +
                        " summation; --exact)");
    if (!dev.fp64) missing.push_back("fp64 (" + dev.name + " has no cl_khr_fp64)");
    if (!dev.has_extension("cl_khr_int64_base_atomics"))
      missing.push_back("64-bit atomics (" + dev.name + " has no cl_khr_int64_base_atomics)");
    std::string what;
    for (const std::string& m : missing) what += (what.empty() ? "" : ", ") + m;
    throw ConfigError(Param::Define,
                      "-D EXACT_GROUP=1: the exact fast path needs " + what + "; valid here: -D EXACT_GROUP=0",
                      "-D EXACT_GROUP=0", dev.name);
  }
  if (no_expansion)
    throw ConfigError(Param::Define,
                      "-D EXACT_GROUP=1 with -D EXACT_EXPANSION=0: the fast path's work-items hold the expansion; "
                      "valid: one of the two",
                      "-D EXACT_GROUP=1 or -D EXACT_EXPANSION=0, not both");
  return true;
}

// A flag of the exact fast path alone: the caller's -D, else `planned`. Without EXACT_GROUP the
// flag does nothing, so a given value other than `inert` (what the other paths do anyway) is
// refused rather than ignored; `why` says what only the fast path does.
std::uint64_t exact_group_flag(const char* name, bool exact_group, std::uint64_t planned, std::uint64_t inert,
                               const char* why, const std::vector<Define>& defines) {
  const std::optional<std::uint64_t> given = given_value(whole_kernel(), name, defines);
  if (exact_group) return given.value_or(planned);
  if (given && *given != inert) {
    const std::string valid = "-D " + std::string(name) + "=" + std::to_string(inert);
    throw ConfigError(Param::Define,
                      "-D " + std::string(name) + "=" + std::to_string(*given) + " without EXACT_GROUP: " + why +
                          "; valid here: " + valid + " or unset",
                      valid + " or unset");
  }
  return inert;
}

// EXACT_LAST_GROUP_ROUNDS's default: 1 where the accumulator is small. The rounding's code inside
// the reduction sets every work-item's register count: a double's 68 digits (and the products' 20
// and 134) took the H200's f64 sum to 229 registers a work-item, so they round in a launch of their
// own; a float's 11 digits did not hold the sum back, and the second launch costs about 10 us at
// 2^20 (bench/NOTES.md, "Exact summation after the rounding launch").
constexpr unsigned kLastGroupRoundsMaxDigits = 11;

// Small exact double sums on a GPU: one group a compute unit, rounded by the last group. At this
// size the grid's groups each pay their tree, carries and atomics for little data, and the second
// launch is a fixed cost; one launch's register count does not matter with one group a unit. H100
// (driver 580), `bench descriptors --exact --families whole --ops sum --types f64 --grid
// EXACT_LAST_GROUP_ROUNDS=0,1 --grid groups_per_cu=1,3`, median us (bench/results/
// 2026-12-06_h100_host_paths_maxtree, lgr_f64_*): 2^20 22.4 (3 a unit, own launch) -> 19.0 (1) ->
// 18.4 (1, last group); 2^22 29.1 -> 26.9 -> 24.5; at 2^24 one group a unit lost (66.9 -> 73.2-76.9).
// Not the products of doubles: rounding in the last group lost there (2^20 36.4 -> 50.6).
constexpr std::uint64_t kSmallExactDoubleSum = std::uint64_t{1} << 22;
bool small_exact_double_sum(const Reduction& r, std::uint64_t n, const DeviceInfo& dev) {
  return dev.is_gpu && exact_digits(r) == kExactDoubleDigits && n <= kSmallExactDoubleSum;
}

// Large exact double sums on a GPU: VEC 4 and 4 groups a compute unit. H100 (driver 580), 2^30
// doubles, `--grid groups_per_cu=2,3,4 --grid VEC=2,4` in one process, median us: 3 a unit VEC 2
// (the rule below this size) 2841.5, VEC 4 2790.5; 4 a unit VEC 2 2782.4, VEC 4 2769.4 (CUB's
// gpu_to_gpu sum 2812.4, its run_to_run 2779.7 in the same call; bench/results/
// 2026-12-07_h100_exact_l2_rounds). At 2^28 the rule below measured faster than gpu_to_gpu
// (696.4 against 707.4 us); 2^29, where this begins, is not measured.
constexpr std::uint64_t kLargeExactDoubleSum = std::uint64_t{1} << 29;
bool large_exact_double_sum(const Reduction& r, std::uint64_t n, const DeviceInfo& dev) {
  return dev.is_gpu && exact_digits(r) == kExactDoubleDigits && n >= kLargeExactDoubleSum;
}
}  // namespace

DescriptorLaunch plan_descriptor(const Reduction& r, std::uint64_t n, const ReduceParams& params,
                                 const DeviceInfo& dev, std::size_t kernel_max_wg, bool aligned, bool partial) {
  if (n == 0) throw ConfigError(Param::N, "n is 0: a reduction needs at least one element", "n >= 1");
  if (!params.variant.empty() && params.variant != "descriptor")
    throw ConfigError(Param::Variant,
                      "variant '" + params.variant + "' does not take a reduction descriptor; valid: descriptor",
                      "descriptor");
  if (params.times)
    throw ConfigError(Param::Times, "the descriptor kernel takes no TIMES; it takes a work-group size, groups per "
                                    "compute unit, VEC and -D ITEMS",
                      "unset");
  check_fp64(r, dev);
  DescriptorLaunch l;
  l.exact_group = plan_exact_group(r, dev, params.defines);
  l.exact_last_group_rounds =
      exact_group_flag("EXACT_LAST_GROUP_ROUNDS", l.exact_group,
                       exact_digits(r) <= kLastGroupRoundsMaxDigits || small_exact_double_sum(r, n, dev) ? 1 : 0,
                       0, "only the exact fast path rounds in its last group", params.defines) != 0;
  // The other paths' whole trips have no bounds tests between their loads anyway.
  const std::uint64_t whole_trips = exact_group_flag("EXACT_WHOLE_TRIPS", l.exact_group, 1, 1,
                                                     "only the exact fast path tests each vector of a trip",
                                                     params.defines);
  // Not a GPU (PoCL): contiguous_blocks' shape, each work-item one contiguous run of
  // vectors (BLOCKED) of 64-byte loads, groups of 8, 4 groups per compute unit. On PoCL (2 cores)
  // an f32 sum of 2^22 went from 7.1-7.6 GB/s (grid-strided, 256-wide groups) to 32.1 (bench/NOTES.md,
  // the descriptor families on a CPU device).
  const bool cpu_shape = cpu_shapes(dev);
  const bool blocked = given_value(whole_kernel(), "BLOCKED", params.defines).value_or(cpu_shape ? 1 : 0) != 0;
  // ITEMS: 4 vectors in flight per work-item for plain accumulators of up to 8 bytes; 2 for the
  // structs and vector lifts (Welford's, the scaled l2's, argmin's pair), whose chains hold more
  // registers. On the H200 at
  // 2^26 f32: var_pop 81.7% of the read peak at ITEMS 4, 90.9% at 2; argmax 90.6% and 91.8%; l2
  // 87% (VEC 8) and 89.7% (bench/NOTES.md, reduction descriptors).
  // EXACT_GROUP keeps two doubles a chain: the plain sums' 4 chains; products of doubles keep four
  // (the products' expansion and their errors'), 2 chains: on the H100 the f64 exact dot at 2^26
  // took 459.8 us at ITEMS 4 and 392.7 at 2 (the plain dot 354.8), one call each at 2^24 194.4 and
  // 152.7, at 2^28 1547 and 1476 (bench/NOTES.md, "The exact f64 dot"). Products of two floats'
  // inputs on a GPU: 2 chains too, since the group's digits go to the launch's a work-item a digit
  // (the kernel took 76 registers a work-item at ITEMS 4, 64 before; 4 groups of 256 a compute unit
  // need 64): f32 exact dot on the H100 at 2^26 186.7 us at ITEMS 2 against 220.1 at 4 (the plain
  // dot 180.2), 2^24 55.6 against 66.6. A float's squares (sumsq, l2: one input) keep 4: 104.8
  // against 111.5 (bench/results/2026-12-07_h100_exact_l2_rounds).
  const bool two_float_inputs = exact_digits(r) == kExactFloatProductDigits && r.inputs.size() == 2 && dev.is_gpu;
  l.items = l.exact_group ? (exact_digits(r) == kExactDoubleProductDigits || two_float_inputs ? 2 : kItems)
                          : default_items(r, r.acc_bytes > 8 || !r.lift_vector.empty() ? 2 : kItems);
  const std::optional<std::uint64_t> items = given_value(whole_kernel(), "ITEMS", params.defines);
  if (items) l.items = static_cast<unsigned>(*items);  // the caller's (-D ITEMS=8): the plan's depth follows it
  std::size_t limit = dev.max_work_group_size ? dev.max_work_group_size : kDefaultWg;
  if (kernel_max_wg) limit = std::min(limit, kernel_max_wg);
  if (!l.exact_group) limit = local_wg_limit(r, dev, limit);  // the group's tree of accumulators in local memory
  // -D WG_SIZE and -D VEC are the same parameters as --wg and --vec (declared: kernel_params.cpp).
  const std::size_t wg = static_cast<std::size_t>(
      caller_value(whole_kernel(), "WG_SIZE", params.wg ? std::optional<std::uint64_t>(params.wg) : std::nullopt,
                   "the work-group size", params.defines)
          .value_or(0));
  std::optional<unsigned> vec;
  if (const auto v = caller_value(whole_kernel(), "VEC", params.vec ? std::optional<std::uint64_t>(*params.vec) : std::nullopt,
                                  "VEC", params.defines))
    vec = static_cast<unsigned>(*v);
  if (wg) {
    if (!is_pow2(wg) || wg > limit)
      throw ConfigError(Param::WorkGroupSize,
                        "work-group size " + std::to_string(wg) + " for the descriptor kernel on " + dev.name +
                            "; valid: a power of two up to " + std::to_string(limit),
                        "a power of two up to " + std::to_string(limit), dev.name);
    l.wg = wg;
  } else {
    l.wg = 1;
    while (l.wg * 2 <= std::min(cpu_shape ? kCpuRunWg : kDefaultWg, limit)) l.wg *= 2;
  }
  // VEC: 16 bytes of the widest input per load (a u8 input 16 elements, f32 4, f64 2); on a CPU 64
  // bytes, at most 16 elements.
  const std::size_t widest = widest_input_bytes(r);
  l.vec = cpu_shape ? cpu_vec(r) : static_cast<unsigned>(16 / widest);
  if (vec) {
    if (*vec != 1 && *vec != 2 && *vec != 4 && *vec != 8 && *vec != 16)
      throw ConfigError(Param::Vec, "VEC " + std::to_string(*vec) + " for the descriptor kernel; valid: 1, 2, 4, 8, 16",
                        "1, 2, 4, 8, 16");
    l.vec = *vec;
  } else if (!cpu_shape && widest == 2 && r.acc_bytes > 8 &&
             std::none_of(r.inputs.begin(), r.inputs.end(), [](Scalar t) { return is_floating(t); })) {
    // 16-bit integers into a struct (argmin/argmax's pair, Welford's triple from exact integer
    // blocks): 32 bytes a load, VEC 16, one load in flight (ITEMS 1) unless the caller gives
    // ITEMS: the bytes in flight of VEC 8 ITEMS 2, half the struct combines. H200, 256 MiB, two
    // rounds against VEC 8 ITEMS 2: i16 var_pop 75.3% -> 89.4% of the read peak, u16 78.9% ->
    // 90.2%, argmin/argmax of both +0.6 to +1.1 points. Not f16/bf16: their float Welford lift
    // fell 87% -> 78% there (their argmax rose 1.4 points); at VEC 16 ITEMS 2 i16 var_pop read
    // 78.6% (bench/NOTES.md, 16-bit structs over the whole array).
    l.vec = 16;
    if (!items) l.items = 1;
  } else if (!cpu_shape && widest == 8 && !l.exact_group && l.items == 2 && r.acc_bytes > 8 &&
             r.out.kind == ResultLayout::Kind::Value) {
    // 8-byte inputs into a struct that sums (Welford's triple, the scaled l2's pair, nanmean's sum
    // and count) at the structs' ITEMS 2: 64 bytes a load, VEC 8, four times the bytes in flight
    // of VEC 2 ITEMS 2 and one lift per 8 elements. H100, 2^25 elements, VEC 8 against VEC 2 in one
    // call (bench/NOTES.md, f64 structs over the whole array): f64 var_pop 89.6% against 74.7% of
    // the read peak, l2 94.2 against 83.8, nanmean 92.6 against 86.2; u64/i64 var_pop 93.3 against
    // 91.9. Not the selections (argmin/argmax's value and index, minmax's pair), which lost there:
    // f64 argmin 92.5 against 95.1, minmax 90.1 against 94.4, u64 minmax 89.0 against 95.1.
    l.vec = 8;
  } else if (l.exact_group && large_exact_double_sum(r, n, dev)) {
    l.vec = 4;
  }
  if (!l.exact_group)
    fit_private_footprint(r, l.wg, wg != 0, std::uint64_t{l.items} + l.vec + 4, dev,
                        "the descriptor kernel (VEC " + std::to_string(l.vec) + ", ITEMS " + std::to_string(l.items) + ")");
  const unsigned per_cu = params.groups_per_cu.value_or(cpu_shape        ? kCpuGroupsPerCu
                                                       : l.exact_group ? (small_exact_double_sum(r, n, dev)   ? 1
                                                                          : large_exact_double_sum(r, n, dev) ? 4
                                                                                                              : exact_groups_per_cu(r))
                                                                       : kDefaultGroupsPerCu);
  if (per_cu == 0 || per_cu > 1024)
    throw ConfigError(Param::GroupsPerCu, "groups per compute unit " + std::to_string(per_cu) + "; valid: 1..1024",
                      "1..1024");
  const std::uint64_t per_group = static_cast<std::uint64_t>(l.wg) * l.items * l.vec;
  const std::uint64_t wanted = (n + per_group - 1) / per_group;
  l.groups = std::max<std::uint64_t>(1, std::min<std::uint64_t>(wanted, std::uint64_t{std::max(1u, dev.compute_units)} * per_cu));
  // EXACT_GROUP's local digits take a group's adds without propagating carries: an element puts at
  // most 2 pieces into a digit (a product of doubles: TwoProd's two terms, or the 106-bit integer
  // product), each below 2^32 in magnitude, and a digit holds 2^63: below 2^29 elements a group
  // (and the tree's few adds). No device holds that many a group today; past it, the accumulator
  // per work-item (it propagates carries at every combine).
  if (l.exact_group && (n + l.groups - 1) / l.groups >= (std::uint64_t{1} << 29)) {
    if (given_value(whole_kernel(), "EXACT_GROUP", params.defines))
      throw ConfigError(Param::N,
                        "-D EXACT_GROUP=1 over " + std::to_string(n) + " elements in " + std::to_string(l.groups) +
                            " groups: a group's local digits take at most 2^29 elements; valid: more groups "
                            "(--groups-per-cu) or -D EXACT_GROUP=0",
                        "more groups (--groups-per-cu) or -D EXACT_GROUP=0", dev.name);
    ReduceParams generic = params;
    generic.defines.push_back({"EXACT_GROUP", "0"});
    return plan_descriptor(r, n, generic, dev, kernel_max_wg, aligned, partial);
  }
  // A work-item's loop trips: its share of the trips of ITEMS vectors, its tail, its ITEMS chains,
  // the tree, and the last group's loop over the partials and its tree.
  const auto trips = [&] {
    const std::uint64_t global = l.groups * l.wg;
    return (n + global * per_group / l.wg - 1) / (global * per_group / l.wg) + l.vec + l.items + 2 * log2_floor(l.wg) +
           (l.groups + l.wg - 1) / l.wg;
  };
  // Where the device ends long loops (llvmpipe), more groups (up to one trip each) unless the
  // caller chose how many.
  while (!params.groups_per_cu && trips() > loop_trips_allowed(dev) && l.groups < wanted)
    l.groups = std::min(wanted, 2 * l.groups);
  check_loop_trips(dev, trips(),
                   "reduction '" + r.name + "' over " + std::to_string(n) + " elements in " + std::to_string(l.groups) +
                       " groups of " + std::to_string(l.wg) + " (VEC " + std::to_string(l.vec) + ", ITEMS " +
                       std::to_string(l.items) + ")",
                   Param::GroupsPerCu, "give more groups (--groups-per-cu), a larger work-group, VEC or ITEMS");
  // A work-item folds at most ceil(n / VEC / global) vectors of VEC elements and one tail element
  // through its chains and then its ITEMS accumulators together, the tree log2(wg) levels, the
  // last group ceil(groups / wg) partials and its tree again.
  const std::uint64_t global = l.groups * l.wg;
  const std::uint64_t per_item = ((n / l.vec + global - 1) / global) * l.vec + 1;
  const std::uint64_t depth = per_item + l.items + 2 * log2_floor(l.wg) + (l.groups + l.wg - 1) / l.wg;
  l.depth = static_cast<unsigned>(std::min<std::uint64_t>(depth, 0xffffffffu));
  // LANES (a CPU's BLOCKED, VEC > 1, cpu_lanes, not the exact path): each of a vector's elements
  // into its own accumulator, VEC chains a CPU's compiler can keep in SIMD registers, where a
  // vector folded in order is one chain of VEC dependent steps (bench/NOTES.md, lanes on a CPU).
  // The depth above still holds: a lane's chain is at most per_item / VEC, the meeting VEC - 1 more.
  // A lanes state (cpu_lanes: argmin/argmax's values and indices as vectors) too: on PoCL (2
  // cores, while a CI run shared them) 2^22 f32 argmax 7257-8391 -> 1641-1650 us.
  const bool lanes_planned = cpu_shape && blocked && l.vec > 1 && !l.exact_group && cpu_lanes(r);
  const bool lanes = given_value(whole_kernel(), "LANES", params.defines).value_or(lanes_planned ? 1 : 0) != 0;
  refuse_lanes_state_on_llvmpipe(r, lanes, dev, whole_kernel().kernel);
  if (lanes && (!blocked || l.exact_group))
    throw ConfigError(Param::Define,
                      std::string("LANES=1 for the descriptor kernel ") +
                          (l.exact_group ? "with EXACT_GROUP (the exact path keeps its own chains)" : "without BLOCKED") +
                          "; valid: LANES=1 with BLOCKED=1 and EXACT_GROUP=0, or LANES=0",
                      "LANES=1 with BLOCKED=1 and EXACT_GROUP=0, or LANES=0");
  const ParamValues values = {{"WG_SIZE", l.wg},
                               {"ITEMS", l.items},
                               {"VEC", l.vec},
                               {"ALIGNED", aligned ? 1 : 0},
                               {"PARTIAL", partial ? 1 : 0},
                               {"BLOCKED", blocked ? 1 : 0},
                               {"LANES", lanes ? 1 : 0},
                               {"EXACT_GROUP", l.exact_group ? 1 : 0},
                               {"EXACT_LAST_GROUP_ROUNDS", l.exact_last_group_rounds ? 1 : 0},
                               {"EXACT_WHOLE_TRIPS", whole_trips},
                               {"NV_PTX", dev.is_nvidia ? 1 : 0}};
  l.options = options_for(whole_kernel(), values, params.defines);
  return l;
}

cl::Buffer DescriptorReducer::allocate(std::uint64_t bytes, const std::string& what) {
  ++allocations_;
  return with_cl_context("allocating " + what, [&] {
    return cl::Buffer(bound_.context, CL_MEM_READ_WRITE, std::max<std::uint64_t>(bytes, 16));
  });
}

DescriptorLaunch DescriptorReducer::launch_for(const Reduction& r, std::uint64_t n, cl::Kernel* kernel,
                                              const std::vector<std::uint64_t>& offsets, bool partial) {
  const DescriptorCallerSet caller{params_.defines, params_.wg != 0, params_.vec.has_value(), false, false,
                                   params_.wg ? std::optional<std::uint64_t>(params_.wg) : std::nullopt};
  DescriptorTuning& t = tuning_.of(bound_.device, r, DescriptorFamily::Whole, kWholeClass, caller);
  if (t.any() && !t.refused) {
    ReduceParams tuned = params_;
    tuned.defines.insert(tuned.defines.end(), t.defines.begin(), t.defines.end());
    try {
      DescriptorLaunch l = launch_with(tuned, r, n, kernel, offsets, partial);
      note_tuning(t, l);
      return l;
    } catch (const ConfigError& e) {  // LimitError too: the device or the built kernel refuses it
      t.refused = true;
      t.refusal = "the tuned launch of " + r.name + " (" + t.label + ", class whole, tuning database " + t.from +
                  ") does not plan here (" + e.what() + "); the defaults are used";
    }
  }
  DescriptorLaunch l = launch_with(params_, r, n, kernel, offsets, partial);
  note_tuning(t, l);
  return l;
}

DescriptorLaunch DescriptorReducer::launch_with(const ReduceParams& params, const Reduction& r, std::uint64_t n,
                                                cl::Kernel* kernel, const std::vector<std::uint64_t>& offsets,
                                                bool partial) {
  const std::shared_ptr<const std::string> held = sources_.of(r);  // refuses a malformed descriptor first
  const std::string& source = *held;
  std::size_t max_wg = 0;
  if (auto it = kernel_max_wg_.find(source); it != kernel_max_wg_.end()) max_wg = it->second;
  // The vector loads go through vector pointers where every input starts on a whole vector.
  const auto aligned_for = [&](unsigned vec) {
    return std::all_of(offsets.begin(), offsets.end(), [&](std::uint64_t o) { return o % vec == 0; });
  };
  DescriptorLaunch l = plan_descriptor(r, n, params, bound_.device, max_wg, true, partial);
  if (!aligned_for(l.vec)) l = plan_descriptor(r, n, params, bound_.device, max_wg, false, partial);
  const UserOperator text{r.name, {}, source, std::nullopt};
  for (;;) {
    auto key = std::make_pair(source, l.options);
    auto it = kernels_.find(key);
    if (it == kernels_.end()) {
      cl::Kernel k = bound_.programs->kernel(bound_.context, bound_.device, bound_.kernel_dir.path,
                                             "reduce_descriptor.cl", "reduce_descriptor", l.options, &text);
      const KernelLimits lim = kernel_limits(k, bound_.device.device);
      kernel_max_wg_[source] = lim.max_work_group_size;
      if (l.wg > lim.max_work_group_size && !params.wg) {
        l = plan_descriptor(r, n, params, bound_.device, lim.max_work_group_size, aligned_for(l.vec),
                            partial);  // a narrower group
        continue;
      }
      check_kernel_limits("descriptor", l.wg, lim, bound_.device);  // LimitError: a chosen wg, local memory
      it = kernels_.emplace(std::move(key), Built{k, k.getInfo<CL_KERNEL_PROGRAM>(), lim.private_mem_bytes}).first;
    }
    if (kernel) *kernel = it->second.kernel;
    l.program = it->second.program;
    l.private_bytes = it->second.private_bytes;
    return l;
  }
}

DescriptorLaunch DescriptorReducer::prepare(const Reduction& r, std::uint64_t n, bool part) {
  return launch_for(r, n, nullptr, {}, part);
}

cl::Event DescriptorReducer::enqueue(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                     const cl::Buffer& out, std::uint64_t out_index,
                                     const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                                     const cl::CommandQueue* on, bool with_event) {
  return launch(r, inputs, n, out, out_index, scalars, wait, on, nullptr, nullptr, with_event);
}

cl::Event DescriptorReducer::enqueue_part(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                          const DescriptorPart& part, const cl::Buffer& out, std::uint64_t out_index,
                                          const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                                          const cl::CommandQueue* on, DescriptorLaunch* used) {
  return launch(r, inputs, n, out, out_index, scalars, wait, on, &part, used, true);
}

cl::Event DescriptorReducer::launch(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                    const cl::Buffer& out, std::uint64_t out_index,
                                    const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                                    const cl::CommandQueue* on, const DescriptorPart* part,
                                    DescriptorLaunch* used, bool with_event) {
  check_call(r, inputs, scalars);
  if (n == 0) throw Error(Param::N, "n is 0: a reduction needs at least one element", "n >= 1");
  for (std::size_t j = 0; j < inputs.size(); ++j) check_input_span(r, inputs, j, n, "n " + std::to_string(n));
  if (part)
    check_accumulators(r, out, out_index, 1);
  else
    check_output(r, out, out_index, 1);

  cl::Kernel k;
  std::vector<std::uint64_t> offsets;
  for (const Input& in : inputs) offsets.push_back(in.offset);
  const DescriptorLaunch l = launch_for(r, n, &k, offsets, part != nullptr);
  if (used) *used = l;
  if (l.exact_group) {
    // One accumulator of digits, zero between launches (the last group leaves it so): zeroed once
    // here when (re)allocated.
    if (r.acc_bytes > exact_total_bytes_) {
      exact_total_ = allocate(r.acc_bytes, "the exact launch's digits");
      exact_total_bytes_ = r.acc_bytes;
      with_cl_context("zeroing the exact launch's digits", [&] {
        bound_.queue.enqueueFillBuffer(exact_total_, cl_uchar{0}, 0, std::max<std::uint64_t>(r.acc_bytes, 16));
        bound_.queue.finish();
      });
    }
  } else {
    const std::uint64_t need = l.groups * r.acc_bytes;
    if (need > partial_bytes_) {
      partials_ = allocate(need, "the descriptor kernel's partials");
      partial_bytes_ = need;
    }
  }
  if (!ticket_()) {
    ticket_ = allocate(16, "the descriptor kernel's ticket");
    const cl_uint zero[4] = {0, 0, 0, 0};
    with_cl_context("zeroing the ticket",
                    [&] { bound_.queue.enqueueWriteBuffer(ticket_, CL_TRUE, 0, sizeof zero, zero); });
  }
  // The reduction's event only where it is the call's last launch and the caller asked for one.
  const bool finish_launch = l.exact_group && !l.exact_last_group_rounds;
  cl::Event done;
  with_cl_context("enqueueing reduction '" + r.name + "'", [&] {
    cl_uint a = set_input_args(k, inputs);
    k.setArg(a++, static_cast<cl_ulong>(n));
    k.setArg(a++, l.exact_group ? exact_total_ : partials_);
    k.setArg(a++, ticket_);
    k.setArg(a++, out);
    k.setArg(a++, static_cast<cl_ulong>(out_index));
    k.setArg(a++, static_cast<cl_ulong>(part ? part->index_base : 0));
    set_scalar_args(k, a, r, scalars);
    enqueue_kernel(on ? *on : bound_.queue, k, cl::NullRange, cl::NDRange(l.groups * l.wg), cl::NDRange(l.wg),
                                      wait.empty() ? nullptr : &wait, with_event && !finish_launch ? &done : nullptr);
  });
  if (!finish_launch) return done;
  // EXACT_GROUP with large digits: the rounding is a launch of its own (one work-item, after the
  // reduction on the same in-order queue), so that its code does not set the reduction's register
  // count (kernels_cl/reduce_descriptor.cl says what that cost).
  auto fk = exact_finish_kernels_.find(l.program());
  if (fk == exact_finish_kernels_.end())
    fk = exact_finish_kernels_
             .emplace(l.program(), with_cl_context("creating reduce_descriptor_exact_finish", [&] {
                        return cl::Kernel(l.program, "reduce_descriptor_exact_finish");
                      }))
             .first;
  cl::Event finished;
  with_cl_context("enqueueing the rounding of reduction '" + r.name + "'", [&] {
    cl::Kernel& f = fk->second;
    f.setArg(0, exact_total_);
    f.setArg(1, out);
    f.setArg(2, static_cast<cl_ulong>(out_index));
    f.setArg(3, static_cast<cl_ulong>(n));
    enqueue_kernel(on ? *on : bound_.queue, f, cl::NullRange, cl::NDRange(1), cl::NDRange(1), nullptr,
                   with_event ? &finished : nullptr);
  });
  return finished;
}

cl::Event DescriptorReducer::fold_parts(const Reduction& r, const cl::Buffer& parts, std::uint64_t count,
                                        std::uint64_t n, const cl::Buffer& out, std::uint64_t out_index,
                                        const std::vector<cl::Event>& wait) {
  if (count == 0 || count > 0xffffffffu)
    throw Error(Param::N, "folding " + std::to_string(count) + " parts; valid: 1 to 2^32 - 1", "1 to 2^32 - 1");
  check_accumulators(r, parts, 0, count);
  check_output(r, out, out_index, 1);
  // The fold kernel lives in the whole array's program, and any of its builds has it: the options
  // planned for a single element (no build of the reduce kernel needed), kept per descriptor.
  const std::shared_ptr<const std::string> held = sources_.of(r);
  auto it = fold_kernels_.find(*held);
  if (it == fold_kernels_.end()) {
    const DescriptorLaunch l = plan_descriptor(r, 1, params_, bound_.device);
    const UserOperator text{r.name, {}, *held, std::nullopt};
    it = fold_kernels_
             .emplace(*held, bound_.programs->kernel(bound_.context, bound_.device, bound_.kernel_dir.path,
                                                     whole_kernel().file, "reduce_descriptor_fold_parts", l.options,
                                                     &text))
             .first;
  }
  cl::Kernel& k = it->second;
  cl::Event done;
  with_cl_context("enqueueing the fold of reduction '" + r.name + "''s parts", [&] {
    k.setArg(0, parts);
    k.setArg(1, static_cast<cl_uint>(count));
    k.setArg(2, static_cast<cl_ulong>(n));
    k.setArg(3, out);
    k.setArg(4, static_cast<cl_ulong>(out_index));
    enqueue_kernel(bound_.queue, k, cl::NullRange, cl::NDRange(1), cl::NDRange(1), wait.empty() ? nullptr : &wait,
                                      &done);
  });
  return done;
}

Result DescriptorReducer::reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                 const std::vector<ScalarArg>& scalars) {
  if (!result_()) result_ = allocate(16, "the descriptor result");
  enqueue(r, inputs, n, result_, 0, scalars, {}, nullptr, false);  // the blocking read below orders it
  unsigned char bytes[16] = {};
  with_cl_context("reading the result",
                  [&] { bound_.queue.enqueueReadBuffer(result_, CL_TRUE, 0, r.out.bytes(), bytes); });
  return Result::from_bytes(r.out, bytes);
}

}  // namespace clreduce
