// The size benchmark's candidates.
#include "benchmarks/sizes.hpp"

#include <algorithm>
#include <set>

namespace clreduce {

std::vector<ReduceParams> size_candidates(const Variant& v, const DeviceInfo& dev, ElemType type,
                                          std::size_t wg) {
  const std::uint64_t es = size_of(type);
  const bool has_occupancy = dev.resident_items_per_cu > 0;
  std::vector<std::size_t> wgs;
  if (wg) {
    wgs = {wg};
  } else if (has_occupancy) {
    for (std::size_t w : {128, 256, 512, 1024})
      if (w <= dev.max_work_group_size && w * es <= dev.local_mem_bytes) wgs.push_back(w);
  }
  if (wgs.empty()) wgs = {0};  // the default: 256, or less where the device or the built kernel allows less
  std::vector<ReduceParams> out;
  for (std::size_t w : wgs) {
    ReduceParams base;
    base.variant = v.name;
    base.wg = w;
    if (v.contiguous_blocks) {
      // Its own default (VEC 16: a 64-byte cache line per load of a 32-bit type) and 16-byte loads.
      out.push_back(base);
      base.vec = static_cast<unsigned>(std::max<std::uint64_t>(2, 16 / es));
      out.push_back(base);
      continue;
    }
    if (v.uses_vec()) base.vec = static_cast<unsigned>(std::max<std::uint64_t>(2, 16 / es));
    if (!v.uses_times()) {
      out.push_back(base);
      continue;
    }
    if (!v.default_fills_device) out.push_back(base);  // the default TIMES
    if (v.single_pass && has_occupancy) {
      // Also grids of many short groups (TIMES fixed, groups from n): they stream faster than a
      // device-filling grid on the H100, at the price of more partials for the last group; with
      // 16- and 32-byte vectors (two loads in flight per step: `tune` picked VEC 8 at 2^26).
      for (unsigned t : {4u, 8u, 16u})
        for (unsigned vec : {*base.vec, 2 * *base.vec}) {
          ReduceParams c = base;
          c.times = t;
          c.vec = vec;
          out.push_back(c);
        }
    }
    const unsigned r = resident_groups_per_cu(dev, w, w * es);
    std::set<unsigned> gpcs{r};
    if (has_occupancy) gpcs.insert({std::max(1u, r / 2), 2 * r});
    for (unsigned g : gpcs) {
      ReduceParams c = base;
      c.groups_per_cu = g;
      out.push_back(c);
    }
  }
  return out;
}

std::function<std::vector<Point>(const Variant&, std::uint64_t)> sizes_points(const DeviceInfo& dev, ElemType type,
                                                                              std::size_t wg, bool use_tuning) {
  return [dev, type, wg, use_tuning](const Variant& v, std::uint64_t) {
    std::vector<Point> out;
    for (const ReduceParams& c : size_candidates(v, dev, type, wg)) out.push_back(Point{c, false, false, false});
    if (use_tuning) {
      Point tuned;
      tuned.params.wg = wg;
      tuned.use_tuning = true;
      tuned.only_if_tuned = true;
      out.push_back(tuned);
    }
    return out;
  };
}

}  // namespace clreduce
