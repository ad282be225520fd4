// The registry of reduction variants, in the order the literature takes them.
#include "variants.hpp"

#include "errors.hpp"
#include "types.hpp"

namespace clreduce {

const std::vector<unsigned>& allowed_vec_widths() {
  static const std::vector<unsigned> v{2, 4, 8, 16};
  return v;
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
  throw Error("unknown variant '" + std::string(name) + "'; valid variants: " + join(variant_names()));
}

}  // namespace clreduce
