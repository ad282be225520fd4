// The parameter sweep's grid.
#include "benchmarks/grid.hpp"

#include <algorithm>
#include <stdexcept>

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

namespace {
// The sweep's values of each kernel parameter a variant's table marks tunable (KernelParam::tunable),
// in the order the grid nests them. TIMES has a second launch mode beside its values: groups per
// compute unit, from which the planner derives TIMES.
struct SweepAxis {
  const char* define;
  void (*expand)(const ReduceParams& c, const GridAxes& axes, std::vector<ReduceParams>& out);
};
// `c` once per value of `values`, the value in field `field`.
template <class T, class Field>
void each(const ReduceParams& c, const std::vector<T>& values, Field ReduceParams::*field,
          std::vector<ReduceParams>& out) {
  for (const T& v : values) {
    ReduceParams p = c;
    p.*field = v;
    out.push_back(p);
  }
}
const SweepAxis kSweepAxes[] = {
    {"WG_SIZE", [](const ReduceParams& c, const GridAxes& a, std::vector<ReduceParams>& out) {
       each(c, a.wg, &ReduceParams::wg, out);
     }},
    {"VEC", [](const ReduceParams& c, const GridAxes& a, std::vector<ReduceParams>& out) {
       each(c, a.vec, &ReduceParams::vec, out);
     }},
    {"TIMES", [](const ReduceParams& c, const GridAxes& a, std::vector<ReduceParams>& out) {
       each(c, a.times, &ReduceParams::times, out);
       each(c, a.groups_per_cu, &ReduceParams::groups_per_cu, out);
     }},
};
}  // namespace

bool sweeps(const KernelParam& p) {
  for (const SweepAxis& a : kSweepAxes)
    if (p.define == a.define) return true;
  return false;
}

std::vector<Point> grid_points(const Variant& v, const GridAxes& axes) {
  ReduceParams base;
  base.variant = v.name;
  Point def;
  def.params = base;
  def.is_default = true;
  std::vector<ReduceParams> grid{base};
  bool times_searched = false;
  for (const SweepAxis& a : kSweepAxes) {
    const KernelParam* p = v.spec.find(a.define);
    if (!p || !p->tunable) continue;
    std::vector<ReduceParams> next;
    for (const ReduceParams& c : grid) a.expand(c, axes, next);
    grid = std::move(next);
    times_searched |= std::string(a.define) == "TIMES";
  }
  for (const KernelParam& p : v.spec.params)
    if (p.tunable && !sweeps(p))
      throw std::logic_error("variant " + v.name + ": tunable parameter " + p.define + " has no sweep axis");
  // A variant that sizes contiguous blocks from n has no TIMES but takes the grid's other launch
  // mode, groups per compute unit (a launch dimension, not a -D).
  if (v.takes_groups_per_cu() && !times_searched) {
    std::vector<ReduceParams> next;
    for (const ReduceParams& c : grid) each(c, axes.groups_per_cu, &ReduceParams::groups_per_cu, next);
    grid = std::move(next);
  }
  std::vector<Point> out{def};
  for (const ReduceParams& c : grid) out.push_back(Point{c, false, false, false});
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
