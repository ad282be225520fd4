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

namespace {
Variant make(std::string name, std::string summary, std::string literature, std::string tradeoff) {
  Variant v;
  v.file = name + ".cl";
  v.kernel = "reduce_" + name;
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
                   "and divergent"));
  r.push_back(make("interleaved", "strided index 2*s*tid: active work-items are contiguous",
                   "NVIDIA reduction #2",
                   "fewer divergent wavefronts than naive; the 2*s stride still causes local-memory "
                   "bank conflicts"));
  r.push_back(make("divergence_free",
                   "sequential addressing s = lsize/2 .. 1: contiguous work-items and banks",
                   "AMD Divergence-Free; NVIDIA reduction #3",
                   "no divergence until s < wavefront, no bank conflicts; half the work-items idle "
                   "from the first step"));
  {
    Variant v = make("first_add", "each work-item adds two elements while loading; half the groups",
                     "NVIDIA reduction #4",
                     "no idle work-items in the first step and half the groups; still one barrier "
                     "per tree level");
    v.items_per_work_item = 2;
    r.push_back(v);
  }
  {
    Variant v = make("last_wavefront_unroll",
                     "first_add, and the tree loop stops at the lockstep width; the rest unrolled "
                     "without barriers where the device reports lockstep execution",
                     "AMD Last-Wavefront-Unroll; NVIDIA reduction #5",
                     "saves the barriers of the last log2(warp) levels; only valid where the device "
                     "reports a lockstep width (elsewhere it keeps its barriers)");
    v.items_per_work_item = 2;
    v.uses_lockstep = true;
    r.push_back(v);
  }
  {
    Variant v = make("complete_unroll",
                     "last_wavefront_unroll with every tree level unrolled for the compile-time "
                     "WG_SIZE",
                     "AMD Completely-Unroll; NVIDIA reduction #6",
                     "no loop overhead at all; needs WG_SIZE known when the kernel is built");
    v.items_per_work_item = 2;
    v.uses_lockstep = true;
    r.push_back(v);
  }
  {
    Variant v = make("stride_global",
                     "each work-item first accumulates TIMES elements spaced global-size apart",
                     "AMD Stride-Global-Size",
                     "far fewer groups and tree work per element; each load instruction of a "
                     "wavefront is coalesced");
    v.uses_times = true;
    v.uses_lockstep = true;
    v.default_times = 16;
    r.push_back(v);
  }
  {
    Variant v = make("stride_local",
                     "each work-item accumulates TIMES elements spaced local-size apart inside "
                     "its group's tile",
                     "AMD Stride-Local-Size; NVIDIA reduction #7",
                     "like stride_global, but each group reads one contiguous tile of "
                     "WG*TIMES elements");
    v.uses_times = true;
    v.uses_lockstep = true;
    v.default_times = 16;
    r.push_back(v);
  }
  {
    Variant v = make("vector",
                     "each work-item loads VEC-wide vectors (uint2/4/8/16 or the element type's "
                     "vector), TIMES of them spaced global-size apart",
                     "AMD Vector-Size",
                     "fewer, wider load instructions; the n % VEC tail is added by scalar loads");
    v.uses_times = true;
    v.uses_vec = true;
    v.uses_lockstep = true;
    v.default_times = 4;
    v.default_vec = 4;
    r.push_back(v);
  }
  {
    Variant v = make("warp_shuffle",
                     "vector loads as in vector, then each warp reduces in registers by "
                     "shfl.sync.down.b32 (inline PTX); one value per warp goes through local "
                     "memory to the first warp",
                     "CUDA __shfl_down_sync warp reduction (Luitjens, Faster Parallel Reductions on Kepler)",
                     "no local memory and no barriers inside a warp, one barrier per group; "
                     "NVIDIA only (OpenCL 1.2 has no sub-group built-ins there)");
    v.uses_times = true;
    v.uses_vec = true;
    v.uses_nv_ptx = true;
    v.default_times = 4;
    v.default_vec = 4;
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
                     "device reports cl_khr_subgroups");
    v.uses_times = true;
    v.uses_vec = true;
    v.default_times = 4;
    v.default_vec = 4;
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
                     "prefetch do the rest; one program for every n. On a GPU the worst access pattern");
    v.uses_vec = true;
    v.contiguous_blocks = true;
    v.default_vec = 16;
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
                     "visible (fence, atomic ticket, volatile reads) and one group does the tail");
    v.uses_times = true;
    v.uses_vec = true;
    v.uses_lockstep = true;
    v.uses_nv_ptx = true;
    v.single_pass = true;
    v.default_fills_device = true;
    v.default_times = 4;
    v.default_vec = 4;
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
