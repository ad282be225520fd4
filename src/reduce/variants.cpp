// The registry of reduction variants, in the order the literature takes them.
#include "clreduce/variants.hpp"

#include "clreduce/error.hpp"
#include "clreduce/types.hpp"

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
