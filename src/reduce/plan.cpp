// Validation and pass planning.
#include "reduce/plan.hpp"

#include "core/int_math.hpp"
#include "core/matrix.hpp"

#include "clreduce/kernel_spec.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/error.hpp"
#include "clreduce/device.hpp"

#include <algorithm>
#include <limits>

namespace clreduce {

namespace {
std::string bytes_str(std::uint64_t b) {
  if (b >= (1ULL << 30) && b % (1ULL << 20) == 0) return std::to_string(b >> 20) + " MiB";
  if (b >= (1ULL << 10) && b % (1ULL << 10) == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}
// n elements of es bytes, where n * es may not fit in 64 bits.
std::string elements_bytes_str(std::uint64_t n, std::uint64_t es) {
  if (n > std::numeric_limits<std::uint64_t>::max() / es)
    return "more than 2^64 bytes";
  return bytes_str(n * es);
}

std::vector<std::string> names_where(bool (*pred)(const Variant&)) {
  std::vector<std::string> out;
  for (const auto& v : variants())
    if (pred(v)) out.push_back(v.name);
  return out;
}

}  // namespace

ReduceConfig with_caller_values(const Variant& v, const ReduceConfig& given) {
  ReduceConfig cfg = given;
  const auto opt = [](auto x) { return x ? std::optional<std::uint64_t>(*x) : std::nullopt; };
  const std::optional<std::size_t> wg = given.wg ? std::optional<std::size_t>(given.wg) : std::nullopt;
  cfg.wg = static_cast<std::size_t>(caller_value(v.spec, "WG_SIZE", opt(wg), "the work-group size", given.defines).value_or(0));
  if (v.uses_times())
    if (const auto t = caller_value(v.spec, "TIMES", opt(given.times), "TIMES", given.defines))
      cfg.times = static_cast<unsigned>(*t);
  if (v.uses_vec())
    if (const auto x = caller_value(v.spec, "VEC", opt(given.vec), "VEC", given.defines))
      cfg.vec = static_cast<unsigned>(*x);
  // Taken: the fields hold them now, and options_for writes them from the plan.
  cfg.defines.erase(std::remove_if(cfg.defines.begin(), cfg.defines.end(),
                                   [&](const Define& d) {
                                     return d.name == "WG_SIZE" || (d.name == "TIMES" && v.uses_times()) ||
                                            (d.name == "VEC" && v.uses_vec());
                                   }),
                    cfg.defines.end());
  return cfg;
}

namespace {

// single_pass on NVIDIA, 32-bit types: the groups meet through epoch-tagged slots instead of a
// fence and a ticket each (single_pass.cl; bench/NOTES.md, "the whole reduction at least as fast as CUB"). Not when the caller sets
// NV_PTX (the tests' emulated-shuffle runs); a caller's SP_FINISH decides anywhere.
bool finishes_by_slots(const Variant& v, const ReduceConfig& cfg, const DeviceInfo& dev) {
  if (!v.single_pass) return false;
  if (const auto given = given_value(v.spec, "SP_FINISH", cfg.defines)) return *given == 1;
  return dev.is_nvidia && size_of(cfg.type) == 4 && !given_value(v.spec, "NV_PTX", cfg.defines);
}

// One pass's option string: every parameter the variant declares, resolved (a caller's -D of one
// is its value), written by options_for; then the caller's other -D's and the variant's compiler
// flags on this device.
std::string base_options(const Variant& v, const ReduceConfig& cfg, const DeviceInfo& dev,
                         std::size_t wg, unsigned times, unsigned vec, bool first_pass,
                         bool input_aligned) {
  const std::optional<std::uint64_t> nv_ptx =
      v.uses_nv_ptx() ? given_value(v.spec, "NV_PTX", cfg.defines) : std::nullopt;
  // A caller's NV_PTX=0 turns off every inline PTX: bar.warp.sync too, and a lockstep tail
  // without it is not safe on NVIDIA since Volta (independent thread scheduling), so LOCKSTEP 0.
  const bool no_ptx = nv_ptx && *nv_ptx == 0;
  const ParamValues values = {
      {"WG_SIZE", wg},
      {"TYPE_ID", static_cast<std::uint64_t>(cfg.type)},
      {"OP_ID", static_cast<std::uint64_t>(cfg.op)},
      {"TIMES", times},
      {"VEC", vec},
      {"FIRST_PASS", first_pass ? 1u : 0u},
      {"INPUT_ALIGNED", input_aligned ? 1u : 0u},
      {"LOCKSTEP", no_ptx ? 0u : dev.lockstep_width},
      {"NV_WARP_SYNC", dev.is_nvidia && !no_ptx ? 1u : 0u},
      {"NV_PTX", nv_ptx.value_or(dev.is_nvidia ? 1u : 0u)},
      {"WARP", has_nv_shuffle(dev) ? dev.lockstep_width : 0U},
      {"SP_FINISH", finishes_by_slots(v, cfg, dev) ? 1u : 0u}};
  std::string o = options_for(v.spec, values, cfg.defines);
  if (const std::string f = v.flags(dev); !f.empty()) o += " " + f;
  return o;
}
}  // namespace

void check_allocation(std::uint64_t n, ElemType t, const DeviceInfo& dev) {
  if (n == 0) throw ConfigError(Param::N, "n must be at least 1 (got 0)", ">= 1");
  const std::uint64_t es = size_of(t);
  if (n > dev.max_alloc_bytes / es)
    throw ConfigError(Param::N,
                      "n = " + std::to_string(n) + " " + std::string(name_of(t)) + " elements (" +
                          elements_bytes_str(n, es) + ") is over the largest single allocation of " + dev.name +
                          ", " + bytes_str(dev.max_alloc_bytes) +
                          " (CL_DEVICE_MAX_MEM_ALLOC_SIZE): use n <= " + std::to_string(dev.max_alloc_bytes / es),
                      "1.." + std::to_string(dev.max_alloc_bytes / es), dev.name);
}

std::uint64_t chunk_elements(ElemType t, const DeviceInfo& dev) {
  const std::uint64_t most = dev.max_alloc_bytes / size_of(t);
  return most >= 4096 ? most / 4096 * 4096 : std::max<std::uint64_t>(1, most);
}

void check_device_memory(std::uint64_t n, ElemType t, const DeviceInfo& dev) {
  if (n == 0) throw ConfigError(Param::N, "n must be at least 1 (got 0)", ">= 1");
  const std::uint64_t es = size_of(t);
  const std::uint64_t room = dev.global_mem_bytes / 10 * 9;
  if (n > room / es)
    throw ConfigError(Param::N,
                      "n = " + std::to_string(n) + " " + std::string(name_of(t)) + " elements (" +
                          elements_bytes_str(n, es) + ") is over 90% of the global memory of " + dev.name + ", " +
                          bytes_str(dev.global_mem_bytes) + " (CL_DEVICE_GLOBAL_MEM_SIZE), even in chunks: " +
                          "use n <= " + std::to_string(room / es),
                      "1.." + std::to_string(room / es), dev.name);
}

std::size_t effective_wg(const ReduceConfig& cfg, const DeviceInfo& dev) {
  if (cfg.wg == 0) {
    std::size_t wg = 256;
    while (wg > dev.max_work_group_size) wg /= 2;
    return std::max<std::size_t>(wg, 1);
  }
  const std::size_t wg = cfg.wg;
  const std::string valid = "a power of two 1, 2, 4, ..., " + std::to_string(dev.max_work_group_size);
  if (!is_pow2(wg))
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(wg) +
                          " is not a power of two; the reduction tree halves the group at each level, so "
                          "use one of 1, 2, 4, ..., " + std::to_string(dev.max_work_group_size) + " on " + dev.name,
                      valid, dev.name);
  if (wg > dev.max_work_group_size)
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(wg) + " is over the device maximum " +
                          std::to_string(dev.max_work_group_size) + " of " + dev.name +
                          " (CL_DEVICE_MAX_WORK_GROUP_SIZE)",
                      valid, dev.name);
  return wg;
}

Plan plan_reduction(const ReduceConfig& given, const DeviceInfo& dev, std::uint64_t n,
                    std::uint64_t offset) {
  if (is_arg_op(given.op))
    throw ConfigError(Param::Op,
                      std::string(name_of(given.op)) + " gives a value and its index: the whole-array variants fold "
                      "values only (sum, min, max); the axis reductions compute it (AxisReducer; a whole array is "
                      "one row of n, as `clreduce reduce --op " + std::string(name_of(given.op)) + "` runs it)",
                      "sum, min, max");
  const Variant& v = find_variant(given.variant);
  const ReduceConfig cfg = with_caller_values(v, given);
  if (std::string why = v.unavailable_reason(dev); !why.empty())
    throw ConfigError(Param::Variant, "variant " + v.name + " is not available on " + dev.name + ": " + why,
                      join(names_where([](const Variant&) { return true; })), dev.name);
  check_type_on_device(dev, cfg.type);
  check_allocation(n, cfg.type, dev);
  const std::uint64_t es = size_of(cfg.type);
  const std::size_t wg = cfg.wg == 0 && v.wg_from_kernel ? 1 : effective_wg(cfg, dev);
  if (wg * es > dev.local_mem_bytes)
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(wg) + " needs " + bytes_str(wg * es) +
                          " of local memory, more than the " + bytes_str(dev.local_mem_bytes) + " of " +
                          dev.name + " (CL_DEVICE_LOCAL_MEM_SIZE)",
                      "at most " + std::to_string(dev.local_mem_bytes / es), dev.name);

  const std::string times_variants = join(names_where([](const Variant& x) { return x.uses_times(); }));
  const std::string gpc_variants =
      join(names_where([](const Variant& x) { return x.uses_times() || x.contiguous_blocks; }));
  if (!v.uses_times() && cfg.times)
    throw ConfigError(Param::Times, "variant " + v.name + " takes no TIMES; variants that do: " + times_variants,
                      times_variants);
  if (!v.uses_times() && !v.contiguous_blocks && cfg.groups_per_cu)
    throw ConfigError(Param::GroupsPerCu,
                      "variant " + v.name + " takes no groups per compute unit; variants that do: " + gpc_variants,
                      gpc_variants);
  if (!v.uses_vec() && cfg.vec) {
    const std::string vec_variants = join(names_where([](const Variant& x) { return x.uses_vec(); }));
    throw ConfigError(Param::Vec, "variant " + v.name + " takes no VEC; variants that do: " + vec_variants,
                      vec_variants);
  }
  if (cfg.times && cfg.groups_per_cu)
    throw ConfigError(Param::Times,
                      "TIMES and groups per compute unit are two launch modes (TIMES fixed, or the "
                      "groups fixed and TIMES from n); give one of them",
                      "one of TIMES and groups per compute unit");
  const std::string times_range = std::to_string(kMinTimes) + ".." + std::to_string(kMaxTimes);
  if (cfg.times && (*cfg.times < kMinTimes || *cfg.times > kMaxTimes))
    throw ConfigError(Param::Times,
                      "TIMES " + std::to_string(*cfg.times) + " is outside the allowed range " + times_range,
                      times_range);
  if (cfg.groups_per_cu && *cfg.groups_per_cu == 0)
    throw ConfigError(Param::GroupsPerCu, "groups per compute unit must be at least 1", ">= 1");
  const unsigned vec = v.uses_vec() ? cfg.vec.value_or(v.default_vec()) : 1;
  if (v.uses_vec()) {
    const auto& ok = allowed_vec_widths();
    if (std::find(ok.begin(), ok.end(), vec) == ok.end()) {
      std::vector<std::string> s;
      for (unsigned x : ok) s.push_back(std::to_string(x));
      throw ConfigError(Param::Vec,
                        "VEC " + std::to_string(vec) + " is not an allowed vector width; valid: " + join(s),
                        join(s));
    }
  }

  Plan plan;
  plan.variant = &v;
  plan.slots = finishes_by_slots(v, cfg, dev);
  std::optional<unsigned> groups_per_cu = cfg.groups_per_cu;
  if (v.contiguous_blocks && !groups_per_cu) groups_per_cu = resident_groups_per_cu(dev, wg, wg * es);
  if (v.default_fills_device && !cfg.times && !groups_per_cu) {
    std::uint64_t g = resident_groups_per_cu(dev, wg, wg * es);
    // On a GPU with occupancy facts, at least enough groups that a work-item loads <= 16 vectors:
    // on the H100 grids of many short groups streamed faster than one device-filling wave at
    // 2^26 and above (bench/NOTES.md, "the whole reduction at least as fast as CUB", runs 3-5).
    if (dev.resident_items_per_cu > 0 && dev.compute_units > 0)
      g = std::max<std::uint64_t>(g, ceil_div(n, std::uint64_t{wg} * vec * 16 * dev.compute_units));
    groups_per_cu = static_cast<unsigned>(std::min<std::uint64_t>(g, 1u << 30));
  }
  // Additions on an element's way through the group reduction: the tree's log2(wg) levels, or
  // for a shuffle reduction two warp trees and the first warp's loop over the warps' values.
  const std::uint64_t lanes = std::min<std::uint64_t>(wg, 32);
  const unsigned group_depth =
      v.uses_nv_ptx() ? std::max(log2_floor(wg), 2 * log2_floor(lanes) + static_cast<unsigned>(ceil_div(wg / lanes, lanes)))
                    : log2_floor(wg);
  std::uint64_t count = n;
  do {
    PassPlan p;
    p.count = count;
    p.wg = wg;
    p.vec = vec;
    p.last_group_finishes = v.single_pass;
    const std::uint64_t per_group_step = wg * vec;  // elements per group per TIMES step
    if (v.contiguous_blocks) {
      // At most groups_per_cu groups per compute unit, and no work-item with less than
      // kMinBlockElements elements; the block itself is sized in the kernel.
      const std::uint64_t max_groups = std::uint64_t{*groups_per_cu} * dev.compute_units;
      p.groups = std::max<std::uint64_t>(1, std::min(max_groups, count / (std::uint64_t{wg} * kMinBlockElements)));
      p.times = static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(count, p.groups * per_group_step), 1u << 31));
    } else if (v.uses_times() && groups_per_cu) {
      const std::uint64_t max_groups = std::uint64_t{*groups_per_cu} * dev.compute_units;
      p.groups = std::max<std::uint64_t>(1, std::min(max_groups, ceil_div(count, per_group_step)));
      if (!plan.passes.empty() && ceil_div(count, per_group_step) <= kCollapseTimes) p.groups = 1;
      p.times = static_cast<unsigned>(ceil_div(count, p.groups * per_group_step));
    } else {
      p.times = v.uses_times() ? cfg.times.value_or(v.default_times()) : 1;
      p.groups = ceil_div(count, wg * v.items(p.times, vec));
    }
    const bool first = plan.passes.empty();
    p.options = base_options(v, cfg, dev, wg, p.times, vec, first, !first || offset % vec == 0);
    // Sequential additions in a work-item, the vector's horizontal tree, the scalar tail of the
    // vector variant, and the work-group tree (a shuffle tree may add one level for the warps'
    // results); then, for a single pass, the last group's sequential loop over the partials and
    // its tree.
    // (contiguous_blocks: TIMES here is the block in vectors, over four accumulators, and the
    // last work-item adds up to VEC - 1 tail elements one by one.)
    const unsigned sequential = v.contiguous_blocks ? static_cast<unsigned>(ceil_div(p.times, 4)) + 2 + vec
                                : v.uses_times()     ? p.times
                                                   : v.items_per_work_item;
    plan.depth += sequential + log2_floor(vec) + (v.uses_vec() ? 1 : 0) + group_depth;
    // (the last group reads the partials as vectors into four accumulators: at most
    // ceil(groups / wg) sequential steps, two to join the accumulators, the vector's fold and
    // one scalar tail step).
    if (p.last_group_finishes)
      plan.depth += static_cast<unsigned>(ceil_div(p.groups, wg)) + 3 + log2_floor(vec) + group_depth;
    // A device that ends a kernel's loops after a number of iterations (Mesa's llvmpipe: 65535,
    // shared by all the kernel's loops): a work-item's loop trips, estimated as its sequential
    // steps, the group's tree and the last group's loop over the partials, must stay well under
    // it (half: the estimate counts steps, not every loop the compiler makes). Found by `clreduce
    // soak` on Rusticl: stride_global over 763478 elements in 8 groups of 2 (47717 steps) read wrong.
    if (dev.loop_trip_limit) {
      const std::uint64_t loops = std::uint64_t{sequential} + log2_floor(wg) +
                                  (p.last_group_finishes ? ceil_div(p.groups, wg) + log2_floor(wg) : 0);
      if (loops > dev.loop_trip_limit / 2)
        throw ConfigError(Param::WorkGroupSize,
                          "variant " + v.name + " with work-group size " + std::to_string(wg) + " over " +
                              std::to_string(count) + " elements would loop about " + std::to_string(loops) +
                              " times in a work-item, and " + dev.name + " ends a kernel's loops after " +
                              std::to_string(dev.loop_trip_limit) +
                              " iterations; give more groups (--groups-per-cu), a smaller TIMES or a larger work-group",
                          "a launch whose work-items loop fewer than " + std::to_string(dev.loop_trip_limit / 2) +
                              " times",
                          dev.name);
    }
    plan.passes.push_back(p);
    // A pass that leaves as many values as it read would repeat forever (one element per
    // work-item in groups of one: found by `clreduce soak`).
    if (p.values_out() >= count && count > 1)
      throw ConfigError(Param::WorkGroupSize,
                        "variant " + v.name + " with work-group size " + std::to_string(wg) +
                            " reduces nothing per pass (each group of " + std::to_string(wg) +
                            " work-item(s) consumes " + std::to_string(v.items(p.times, vec)) +
                            " element(s)); use a work-group size of at least 2",
                        "at least 2");
    count = p.values_out();
  } while (count > 1);
  return plan;
}

}  // namespace clreduce
