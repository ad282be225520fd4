// The parameter sweep's grid.
#include "benchmarks/grid.hpp"

#include <algorithm>

namespace clreduce {

GridAxes grid_defaults(const GridAxes& given, const DeviceInfo& dev) {
  GridAxes a = given;
  if (a.wg.empty()) {
    const std::size_t lo = dev.max_work_group_size < 32 ? 1 : 32;
    for (std::size_t w = lo; w <= dev.max_work_group_size; w *= 2) a.wg.push_back(w);
  }
  if (a.times.empty() && !a.no_times)
    for (unsigned t = 1; t <= 64; t *= 2) a.times.push_back(t);
  if (a.groups_per_cu.empty() && !a.no_groups_per_cu) {
    const unsigned top =
        dev.resident_items_per_cu ? 2 * resident_groups_per_cu(dev, 256, 256 * 8) : 8;
    for (unsigned g = 1; g <= std::max(1u, top); g *= 2) a.groups_per_cu.push_back(g);
  }
  if (a.vec.empty()) a.vec = allowed_vec_widths();
  return a;
}

std::vector<Point> grid_points(const Variant& v, const GridAxes& axes) {
  ReduceParams base;
  base.variant = v.name;
  std::vector<Point> out;
  Point def;
  def.params = base;
  def.is_default = true;
  out.push_back(def);
  const std::vector<unsigned> no_vec{0};  // 0: the variant takes no VEC
  for (std::size_t w : axes.wg) {
    ReduceParams c = base;
    c.wg = w;
    if (!v.takes_groups_per_cu()) {
      out.push_back(Point{c, false, false, false});
      continue;
    }
    for (unsigned vec : v.uses_vec() ? axes.vec : no_vec) {
      if (vec) c.vec = vec;
      if (v.uses_times())
        for (unsigned t : axes.times) {
          ReduceParams ct = c;
          ct.times = t;
          out.push_back(Point{ct, false, false, false});
        }
      for (unsigned g : axes.groups_per_cu) {
        ReduceParams cg = c;
        cg.groups_per_cu = g;
        out.push_back(Point{cg, false, false, false});
      }
    }
  }
  return out;
}

std::function<std::vector<Point>(const Variant&, std::uint64_t)> grid_points(const GridAxes& axes) {
  return [axes](const Variant& v, std::uint64_t) { return grid_points(v, axes); };
}

std::string point_label(const Measured& m) {
  const Point& p = m.point;
  const ReduceParams& c = p.params;
  std::string s;
  if (p.is_default) {
    if (!m.report) return "default";
    const PassPlan& first = m.report->plan.passes.front();
    s = "default (wg " + std::to_string(first.wg);
    if (m.report->plan.variant->uses_times()) s += ", times " + std::to_string(first.times);
    if (first.vec > 1) s += ", vec " + std::to_string(first.vec);
    return s + ")";
  }
  s = "wg " + std::to_string(c.wg);
  if (c.times) s += ", times " + std::to_string(*c.times);
  if (c.groups_per_cu) s += ", " + std::to_string(*c.groups_per_cu) + " groups/CU";
  if (c.vec) s += ", vec " + std::to_string(*c.vec);
  return s;
}

}  // namespace clreduce
