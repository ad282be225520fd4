// The parameter sweep: the grid of each variant, its measurement, and the best point.
#include "benchmarks/grid.hpp"

#include "clreduce/error.hpp"
#include "core/occupancy.hpp"

#include <algorithm>
#include <cmath>

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

std::vector<GridPoint> grid_points(const Variant& v, const GridAxes& axes, ElemType type, Op op,
                                   const std::vector<Define>& defines) {
  ReduceConfig base;
  base.variant = v.name;
  base.type = type;
  base.op = op;
  base.defines = defines;
  std::vector<GridPoint> out;
  GridPoint def;
  def.config = base;
  def.is_default = true;
  out.push_back(def);
  const std::vector<unsigned> no_vec{0};  // 0: the variant takes no VEC
  for (std::size_t w : axes.wg) {
    ReduceConfig c = base;
    c.wg = w;
    if (!v.uses_times) {
      out.push_back(GridPoint{c, false, std::nullopt, {}, {}});
      continue;
    }
    for (unsigned vec : v.uses_vec ? axes.vec : no_vec) {
      if (vec) c.vec = vec;
      for (unsigned t : axes.times) {
        ReduceConfig ct = c;
        ct.times = t;
        out.push_back(GridPoint{ct, false, std::nullopt, {}, {}});
      }
      for (unsigned g : axes.groups_per_cu) {
        ReduceConfig cg = c;
        cg.groups_per_cu = g;
        out.push_back(GridPoint{cg, false, std::nullopt, {}, {}});
      }
    }
  }
  return out;
}

double GridVariant::gain_over_default() const {
  const GridPoint* b = best_point();
  const GridPoint* d = default_launch();
  return b && d && b->us() > 0 ? d->us() / b->us() : 1.0;
}

std::size_t GridVariant::count_measured() const {
  return static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const GridPoint& p) { return p.report.has_value(); }));
}
std::size_t GridVariant::count_skipped() const {
  return static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const GridPoint& p) { return !p.skipped.empty(); }));
}
std::size_t GridVariant::count_failed() const {
  return static_cast<std::size_t>(std::count_if(points.begin(), points.end(), [](const GridPoint& p) {
    return !p.error.empty() || (p.report && !p.report->ok());
  }));
}

std::size_t GridSweep::count_points() const {
  std::size_t total = 0;
  for (const auto& v : variants) total += v.points.size();
  return total;
}

bool GridSweep::all_ok() const {
  for (const auto& v : variants) {
    if (!v.unavailable.empty()) continue;
    if (v.count_failed() > 0 || v.count_measured() == 0) return false;
  }
  return true;
}

const GridVariant* GridSweep::best_variant() const {
  const GridVariant* best = nullptr;
  for (const auto& v : variants) {
    const GridPoint* p = v.best_point();
    if (p && (!best || p->us() < best->best_point()->us())) best = &v;
  }
  return best;
}

GridSweep run_grid_sweep(Runtime& rt, const GridSweepOptions& opt, const HostData& data,
                         const GridProgress& progress) {
  check_allocation(data.n, data.type, rt.device());
  const cl::Buffer input = upload_data(rt, data);
  return run_grid_sweep(rt, opt, data, input, progress);
}

GridSweep run_grid_sweep(Runtime& rt, const GridSweepOptions& opt, const HostData& data,
                         const cl::Buffer& input, const GridProgress& progress) {
  if (data.type != opt.type) throw Error("sweep: the input's type differs from --type");
  const std::vector<const Variant*> chosen = select_variants(opt.variants);
  const DeviceInfo& dev = rt.device();
  GridSweep sw;
  sw.type = opt.type;
  sw.op = opt.op;
  sw.n = data.n;
  sw.data_origin = data.origin;
  sw.axes = grid_defaults(opt.axes, dev);
  for (const Variant* v : chosen) {
    GridVariant gv;
    gv.variant = v->name;
    gv.unavailable = v->unavailable_reason(dev);
    if (gv.unavailable.empty()) gv.points = grid_points(*v, sw.axes, opt.type, opt.op, opt.defines);
    sw.variants.push_back(std::move(gv));
  }
  const std::size_t total = sw.count_points() + 1;
  std::size_t done = 0;
  if (progress) progress(done, total, "read bandwidth");
  sw.peak = measure_read_bandwidth(rt, input, data.bytes.size(), opt.timing);
  ++done;
  const Reference reference = host_reference(data, opt.op);
  for (GridVariant& gv : sw.variants) {
    for (std::size_t i = 0; i < gv.points.size(); ++i) {
      GridPoint& p = gv.points[i];
      if (progress) progress(done, total, gv.variant + " " + point_label(p));
      ++done;
      if (p.is_default) gv.default_point = static_cast<int>(i);
      try {
        plan_reduction(p.config, dev, data.n);
      } catch (const Error& e) {
        p.skipped = e.what();
        continue;
      }
      try {
        Reducer reducer(rt, p.config, data.n);
        p.report = measure_reduction(reducer, input, data, reference, opt.timing);
      } catch (const LimitError& e) {
        p.skipped = e.what();
      } catch (const Error& e) {
        p.error = e.what();
      }
      if (p.report && p.report->ok() && (gv.best < 0 || p.us() < gv.points[gv.best].us()))
        gv.best = static_cast<int>(i);
    }
  }
  if (progress) progress(total, total, "done");
  return sw;
}

std::string point_label(const GridPoint& p) {
  const ReduceConfig& c = p.config;
  std::string s;
  if (p.is_default) {
    if (!p.report) return "default";
    const PassPlan& first = p.report->plan.passes.front();
    s = "default (wg " + std::to_string(first.wg);
    if (p.report->plan.variant->uses_times) s += ", times " + std::to_string(first.times);
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
