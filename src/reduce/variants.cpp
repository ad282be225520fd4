// The registry of reduction variants, in the order the literature takes them.
#include "clreduce/variants.hpp"

#include "clreduce/error.hpp"
#include "clreduce/types.hpp"

#include <map>

namespace clreduce {

const std::vector<unsigned>& allowed_vec_widths() {
  static const std::vector<unsigned> v{2, 4, 8, 16};
  return v;
}

bool has_nv_shuffle(const DeviceInfo& dev) {
  return dev.is_nvidia && dev.lockstep_width == 32 && dev.lockstep_source == "CL_DEVICE_WARP_SIZE_NV";
}

unsigned Variant::default_times() const { return static_cast<unsigned>(spec.fallback_of("TIMES", 1)); }
unsigned Variant::default_vec() const { return static_cast<unsigned>(spec.fallback_of("VEC", 1)); }

namespace {
// The whole-array kernels' parameters (kernels_cl/reduce_common.clh, vector_load.clh,
// lockstep.clh, warp_reduce.clh, single_pass.cl). Each variant below lists the ones its kernel
// reads, in its option string's order.
KernelParam type_id() { return type_id_param(); }
// `clreduce tune` searches WG_SIZE, TIMES (or groups per compute unit) and VEC.
KernelParam wg() {
  KernelParam p = wg_param();
  p.tunable = true;
  return p;
}
KernelParam contiguous_wg() {
  KernelParam p = wg();
  p.rule = "the built kernel's preferred work-group multiple (the SIMD lanes a CPU implementation packs)";
  return p;
}
KernelParam op_id() {
  return op_id_param({0, 1, 2, 5}, "operator: 0 sum, 1 min, 2 max, 5 a user's file (values only: no argmin/argmax)");
}
// A caller's TIMES is kMinTimes..kMaxTimes (the planner's check, naming that range); the planner's
// own, from n and a grid of groups per compute unit, may be larger (up to 2^31).
KernelParam times(unsigned fallback) {
  KernelParam p{"TIMES", "elements (with VEC: vectors) each work-item accumulates before the tree", {},
                "the fallback; from n and the grid where groups per compute unit are given (or the grid fills the "
                "device by default); a caller's " + std::to_string(kMinTimes) + ".." + std::to_string(kMaxTimes),
                true, true, "--times"};
  p.min = kMinTimes;
  p.max = 1u << 31;
  p.fallback = fallback;
  return p;
}
KernelParam vec(unsigned fallback) {
  KernelParam p = vec_param("the fallback");
  p.tunable = true;
  p.valid.assign(allowed_vec_widths().begin(), allowed_vec_widths().end());
  p.meaning = "elements per vector load";
  p.fallback = fallback;
  return p;
}
KernelParam first_pass() { return first_pass_param({0, 1}, "1 for the first pass, 0 for the passes over partials"); }
KernelParam input_aligned() {
  return {"INPUT_ALIGNED", "1: the input starts at a whole vector; 0: the first pass loads its vectors unaligned",
          {0, 1}, "0 where the first pass's offset is not a multiple of VEC, else 1", false, false};
}
std::vector<KernelParam> lockstep() {
  return lockstep_params(
      "the device's reported lockstep width (0: not reported, every barrier kept); 0 where a caller's NV_PTX=0 "
      "turns off inline PTX");
}
// NV_PTX may be set by a caller: -D NV_PTX=0 runs the warp shuffle's local-memory stand-in on
// NVIDIA (the tests do, on a CPU posing as NVIDIA), keeps every barrier and single_pass's ticket
// finish.
std::vector<KernelParam> nv_ptx() {
  KernelParam p = nv_ptx_param();
  p.caller_may_set = true;
  p.rule = "1 on NVIDIA devices; a caller's 0 turns off every inline PTX: the shuffle emulated in local memory, "
           "no bar.warp.sync and so no lockstep tail (LOCKSTEP 0)";
  return {p,
          {"WARP", "lanes of a warp where shfl.sync may be used (0: none; the shuffle goes through local memory)",
           {0, 32}, "32 on an NVIDIA platform reporting CL_DEVICE_WARP_SIZE_NV = 32, else 0", false, false}};
}
KernelParam sp_finish() {
  return {"SP_FINISH", "how the groups' partials meet: 0 the last ticket folds them, 1 epoch-tagged slots",
          {0, 1}, "1 on NVIDIA for 32-bit types unless the caller sets NV_PTX, else 0", false, true};
}

std::vector<KernelParam> params(std::vector<std::vector<KernelParam>> parts) {
  std::vector<KernelParam> all;
  for (auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// The tree variants' parameters (one or two elements per work-item, no TIMES or VEC).
std::vector<KernelParam> tree_params(bool lockstep_tail) {
  return params({{wg(), type_id(), op_id(), first_pass()}, lockstep_tail ? lockstep() : std::vector<KernelParam>{}});
}

Variant make(std::string name, std::string summary, std::string literature, std::string tradeoff,
             std::vector<KernelParam> kernel_params) {
  Variant v;
  v.file = name + ".cl";
  v.kernel = "reduce_" + name;
  v.spec = KernelSpec{"whole_array", v.file, v.kernel, summary, std::move(kernel_params)};
  v.name = std::move(name);
  v.summary = std::move(summary);
  v.literature = std::move(literature);
  v.tradeoff = std::move(tradeoff);
  return v;
}

std::vector<Variant> build_registry() {
  std::vector<Variant> r;
  r.push_back(make("naive", "interleaved addressing, tid % (2*s) == 0, one element per work-item",
                   "NVIDIA reduction #1; AMD Naive Reduce",
                   "simplest tree; the modulo test leaves most work-items of every wavefront idle "
                   "and divergent",
                   tree_params(false)));
  r.push_back(make("interleaved", "strided index 2*s*tid: active work-items are contiguous",
                   "NVIDIA reduction #2",
                   "fewer divergent wavefronts than naive; the 2*s stride still causes local-memory "
                   "bank conflicts",
                   tree_params(false)));
  r.push_back(make("divergence_free",
                   "sequential addressing s = lsize/2 .. 1: contiguous work-items and banks",
                   "AMD Divergence-Free; NVIDIA reduction #3",
                   "no divergence until s < wavefront, no bank conflicts; half the work-items idle "
                   "from the first step",
                   tree_params(false)));
  {
    Variant v = make("first_add", "each work-item adds two elements while loading; half the groups",
                     "NVIDIA reduction #4",
                     "no idle work-items in the first step and half the groups; still one barrier "
                     "per tree level",
                     tree_params(false));
    v.items_per_work_item = 2;
    r.push_back(v);
  }
  {
    Variant v = make("last_wavefront_unroll",
                     "first_add, and the tree loop stops at the lockstep width; the rest unrolled "
                     "without barriers where the device reports lockstep execution",
                     "AMD Last-Wavefront-Unroll; NVIDIA reduction #5",
                     "saves the barriers of the last log2(warp) levels; only valid where the device "
                     "reports a lockstep width (elsewhere it keeps its barriers)",
                     tree_params(true));
    v.items_per_work_item = 2;
    r.push_back(v);
  }
  {
    Variant v = make("complete_unroll",
                     "last_wavefront_unroll with every tree level unrolled for the compile-time "
                     "WG_SIZE",
                     "AMD Completely-Unroll; NVIDIA reduction #6",
                     "no loop overhead at all; needs WG_SIZE known when the kernel is built",
                     tree_params(true));
    v.items_per_work_item = 2;
    r.push_back(v);
  }
  {
    Variant v = make("stride_global",
                     "each work-item first accumulates TIMES elements spaced global-size apart",
                     "AMD Stride-Global-Size",
                     "far fewer groups and tree work per element; each load instruction of a "
                     "wavefront is coalesced",
                     params({{wg(), type_id(), op_id(), times(16), first_pass()}, lockstep()}));
    r.push_back(v);
  }
  {
    Variant v = make("stride_local",
                     "each work-item accumulates TIMES elements spaced local-size apart inside "
                     "its group's tile",
                     "AMD Stride-Local-Size; NVIDIA reduction #7",
                     "like stride_global, but each group reads one contiguous tile of "
                     "WG*TIMES elements",
                     params({{wg(), type_id(), op_id(), times(16), first_pass()}, lockstep()}));
    r.push_back(v);
  }
  {
    Variant v = make("vector",
                     "each work-item loads VEC-wide vectors (uint2/4/8/16 or the element type's "
                     "vector), TIMES of them spaced global-size apart",
                     "AMD Vector-Size",
                     "fewer, wider load instructions; the n % VEC tail is added by scalar loads",
                     params({{wg(), type_id(), op_id(), times(4), vec(4), first_pass(), input_aligned()}, lockstep()}));
    r.push_back(v);
  }
  {
    Variant v = make("warp_shuffle",
                     "vector loads as in vector, then each warp reduces in registers by "
                     "shfl.sync.down.b32 (inline PTX); one value per warp goes through local "
                     "memory to the first warp",
                     "CUDA __shfl_down_sync warp reduction (Luitjens, Faster Parallel Reductions on Kepler)",
                     "no local memory and no barriers inside a warp, one barrier per group; "
                     "NVIDIA only (OpenCL 1.2 has no sub-group built-ins there)",
                     params({{wg(), type_id(), op_id(), times(4), vec(4), first_pass(), input_aligned()}, nv_ptx()}));
    v.unavailable_reason = [](const DeviceInfo& dev) {
      if (has_nv_shuffle(dev)) return std::string();
      return std::string("needs an NVIDIA platform reporting CL_DEVICE_WARP_SIZE_NV = 32 "
                         "(inline PTX shfl.sync.down.b32); this device's platform is '") +
             dev.platform_name + "', lockstep width " +
             (dev.lockstep_width ? std::to_string(dev.lockstep_width) : std::string("not reported"));
    };
    r.push_back(v);
  }
  {
    Variant v = make("subgroup",
                     "vector loads as in vector, then sub_group_reduce_<op> in each sub-group and "
                     "once more over the sub-groups' results",
                     "OpenCL 2.x sub-group reduction (cl_khr_subgroups)",
                     "the hardware's cross-lane reduction without inline assembly; only where the "
                     "device reports cl_khr_subgroups",
                     params({{wg(), type_id(), op_id(), times(4), vec(4), first_pass(), input_aligned()}}));
    v.unavailable_reason = [](const DeviceInfo& dev) {
      if (dev.has_extension("cl_khr_subgroups")) return std::string();
      return "needs the cl_khr_subgroups extension (sub_group_reduce_*), which " + dev.name +
             " does not report";
    };
    v.flags = [](const DeviceInfo& dev) {
      // The sub-group built-ins belong to OpenCL C 2.0 and later.
      if (dev.opencl_c_version.find("OpenCL C 3.") != std::string::npos) return std::string("-cl-std=CL3.0");
      if (dev.opencl_c_version.find("OpenCL C 2.") != std::string::npos) return std::string("-cl-std=CL2.0");
      return std::string();
    };
    r.push_back(v);
  }
  {
    Variant v = make("contiguous_blocks",
                     "a few work-items per core, each reducing one contiguous block (sized from n) "
                     "with VEC-wide loads into four accumulators; groups as wide as the implementation "
                     "packs work-items (its preferred work-group multiple)",
                     "AMD OpenCL guide, reductions on CPUs; Boost.Compute's reduce on a CPU",
                     "what a CPU streams fastest: each core walks its own memory in order, SIMD and "
                     "prefetch do the rest; one program for every n. On a GPU the worst access pattern",
                     params({{contiguous_wg(), type_id(), op_id(), vec(16), first_pass(), input_aligned()}}));
    v.contiguous_blocks = true;
    v.wg_from_kernel = true;
    r.push_back(v);
  }
  {
    Variant v = make("single_pass",
                     "vector loads over a grid that fills the device once; each group writes a "
                     "partial and takes a ticket from a global atomic counter, and the last group "
                     "reduces the partials and resets the counter: one launch in all (on NVIDIA, "
                     "32-bit types: epoch-tagged partials, no fence or ticket, the last-numbered "
                     "group folds)",
                     "threadFenceReduction (CUDA samples); last-block reduction",
                     "no second launch and no launch gap; the partials' writes must be made "
                     "visible (fence, atomic ticket, volatile reads) and one group does the tail",
                     params({{wg(), type_id(), op_id(), times(4), vec(4), first_pass(), input_aligned()},
                             lockstep(),
                             nv_ptx(),
                             {sp_finish()}}));
    v.single_pass = true;
    v.default_fills_device = true;
    r.push_back(v);
  }
  // The teaching steps: each variant's predecessor and what its kernel changes from it.
  static const std::map<std::string, std::pair<std::string, std::string>> steps = {
      {"naive", {"",
        "the starting point: one element per work-item into local memory, then a tree; at level s"
        " the work-items whose id is a multiple of 2s add the value s above them"}},
      {"interleaved", {"naive",
        "the same pairs, added by the first WG/(2s) work-items (index 2*s*lid) instead of every "
        "2s-th one (lid % (2s) == 0): the active work-items are contiguous, so whole warps idle "
        "and retire instead of every warp running a few lanes (divergence), and the modulo is "
        "gone; work-item lid now touches l[2*s*lid], so a warp's accesses are 2s words apart "
        "(bank conflicts)"}},
      {"divergence_free", {"interleaved",
        "sequential addressing: at level s (WG/2 down to 1) work-items 0..s-1 add l[lid + s]; "
        "neighbouring work-items touch neighbouring words, so no bank conflicts, and the active "
        "work-items stay contiguous"}},
      {"first_add", {"divergence_free",
        "each work-item adds two elements, WG_SIZE apart, while it loads: a group covers "
        "2*WG_SIZE elements, so half the groups, and no work-item is idle after the load (in "
        "divergence_free half of them stop at the first level)"}},
      {"last_wavefront_unroll", {"first_add",
        "the tree loop stops at the device's lockstep width and the last levels, where one warp "
        "(wavefront) works alone, run without barriers through volatile local memory (ordered by "
        "bar.warp.sync on NVIDIA): the barriers and loop overhead of log2(width) levels saved. "
        "Compiled in only where the device reports its lockstep width; elsewhere the kernel keeps"
        " every barrier and equals first_add"}},
      {"complete_unroll", {"last_wavefront_unroll",
        "every level of the tree written out for the compile-time WG_SIZE: no loop counter, "
        "compare and branch per level, and constant strides the compiler can fold into the "
        "addresses"}},
      {"stride_global", {"complete_unroll",
        "before the tree each work-item accumulates TIMES elements one global size apart (a grid "
        "stride): the tree, its barriers and its partial write happen once per WG_SIZE*TIMES "
        "elements instead of once per 2*WG_SIZE, and each load instruction of a warp still reads "
        "consecutive addresses. The tree is complete_unroll's, now from reduce_tree.clh"}},
      {"stride_local", {"stride_global",
        "the TIMES elements come from the group's own contiguous tile of WG_SIZE*TIMES elements, "
        "WG_SIZE apart, instead of one global size apart: each group streams one contiguous span"}},
      {"vector", {"stride_global",
        "VEC-wide vector loads (uint4: 16 bytes per work-item and load) instead of scalar ones: "
        "fewer load instructions for the same bytes and more bytes in flight per work-item; the n"
        " % VEC elements after the last whole vector are added by scalar loads"}},
      {"warp_shuffle", {"vector",
        "the local-memory tree replaced by warp shuffles (shfl.sync.down.b32): each warp reduces "
        "in registers, one value per warp goes through local memory, one barrier per group"}},
      {"subgroup", {"vector",
        "the local-memory tree replaced by the portable sub-group built-in "
        "(sub_group_reduce_<op>, cl_khr_subgroups), once in each sub-group and once over the "
        "sub-groups' results"}},
      {"contiguous_blocks", {"vector",
        "for CPUs: each work-item reduces one contiguous block (sized from n) with VEC-wide loads"
        " into four accumulators, instead of a grid stride: a CPU core streams its own memory in "
        "order and SIMD and the prefetcher do the rest"}},
      {"single_pass", {"vector",
        "one launch instead of two or three: each group writes its partial and takes a ticket "
        "from a global atomic counter, and the group that draws the last ticket reduces the "
        "partials; no second launch and no gap between launches"}},
  };
  for (Variant& v : r) {
    const auto& s = steps.at(v.name);
    v.predecessor = s.first;
    v.step = s.second;
  }
  return r;
}
}  // namespace

const std::vector<Variant>& variants() {
  static const std::vector<Variant> registry = build_registry();
  return registry;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : variants()) names.push_back(v.name);
  return names;
}

const Variant& find_variant(std::string_view name) {
  for (const auto& v : variants())
    if (v.name == name) return v;
  throw ConfigError(Param::Variant,
                    "unknown variant '" + std::string(name) + "'; valid variants: " + join(variant_names()),
                    join(variant_names()));
}

std::vector<const Variant*> select_variants(const std::vector<std::string>& names) {
  std::vector<const Variant*> out;
  if (names.empty()) {
    for (const auto& v : variants()) out.push_back(&v);
  } else {
    for (const auto& name : names) out.push_back(&find_variant(name));
  }
  return out;
}

}  // namespace clreduce
