// Report-to-chart conversions.
#include "printers/result_charts.hpp"

#include "clreduce/error.hpp"
#include "printers/table.hpp"

#include <algorithm>
#include <optional>

namespace clreduce {

BarChart bench_chart(const Run& run, const DeviceInfo& dev) {
  const SizeRun& r = run.sizes.front();
  BarChart c;
  c.title = "clreduce bench: " + std::string(name_of(run.op)) + " of " + size_label(r.n) + " " +
            std::string(name_of(run.type)) + " on " + dev.name;
  c.y_label = "GB/s (input bytes / back-to-back median)";
  for (const auto& v : r.variants)
    if (!v.points.empty() && v.points.front().report && v.points.front().report->ok())
      c.bars.emplace_back(v.variant, v.points.front().report->gbps);
  if (r.peak.gbps > 0) {
    c.reference = r.peak.gbps;
    c.reference_label = "measured read peak " + fixed(r.peak.gbps, 0) + " GB/s";
  }
  return c;
}

std::vector<LineChart> scaling_chart(const Run& r, const DeviceInfo& dev) {
  const std::string what = std::string(name_of(r.op)) + " of " + std::string(name_of(r.type)) + " on " + dev.name;
  LineChart time;
  time.title = "time vs n: " + what;
  time.x_label = "n (elements)";
  time.y_label = "µs (whole reduction, b2b median, best configuration)";
  time.log_x = time.log_y = true;
  LineChart bw = time;
  bw.title = "bandwidth vs n: " + what;
  bw.y_label = "GB/s";
  std::vector<std::string> order;
  for (const auto& s : r.sizes)
    for (const auto& row : s.variants)
      if (std::find(order.begin(), order.end(), row.variant) == order.end()) order.push_back(row.variant);
  for (const auto& name : order) {
    Series st{name, {}}, sb{name, {}};
    for (const auto& s : r.sizes)
      for (const auto& row : s.variants)
        if (row.variant == name && row.best_point()) {
          const ReduceReport& b = *row.best_point()->report;
          st.points.emplace_back(static_cast<double>(s.n), b.timed.whole_us.median);
          sb.points.emplace_back(static_cast<double>(s.n), b.gbps);
        }
    if (!st.points.empty()) {
      time.series.push_back(st);
      bw.series.push_back(sb);
    }
  }
  Series peak{"read peak (stream_read)", {}};
  for (const auto& s : r.sizes)
    if (s.peak.gbps > 0) peak.points.emplace_back(static_cast<double>(s.n), s.peak.gbps);
  if (!peak.points.empty()) bw.series.push_back(peak);
  return {time, bw};
}

GridParam parse_grid_param(const std::string& text) {
  if (text == "wg") return GridParam::Wg;
  if (text == "times") return GridParam::Times;
  if (text == "groups-per-cu" || text == "groups_per_cu") return GridParam::GroupsPerCu;
  if (text == "vec") return GridParam::Vec;
  throw Error("unknown sweep parameter '" + text + "'; valid parameters: wg, times, groups-per-cu, vec");
}

std::string_view name_of(GridParam p) {
  switch (p) {
    case GridParam::Wg: return "wg";
    case GridParam::Times: return "times";
    case GridParam::GroupsPerCu: return "groups-per-cu";
    case GridParam::Vec: return "vec";
  }
  return "?";
}

void check_heat_map_axes(GridParam x, GridParam y) {
  if (x == y) throw Error("--chart-x and --chart-y are both '" + std::string(name_of(x)) + "'; choose two different parameters");
  const auto launch = [](GridParam p) { return p == GridParam::Times || p == GridParam::GroupsPerCu; };
  if (launch(x) && launch(y))
    throw Error("times and groups-per-cu are two launch modes (a point fixes one and derives the "
                "other from n), so no point has both; chart one of them against wg or vec");
}

bool takes_param(const Variant& v, GridParam p) {
  switch (p) {
    case GridParam::Wg: return true;
    case GridParam::Times: return v.uses_times();
    case GridParam::GroupsPerCu: return v.takes_groups_per_cu();
    case GridParam::Vec: return v.uses_vec();
  }
  return false;
}

void check_heat_map_variants(const std::vector<std::string>& names, GridParam x, GridParam y,
                             const std::string& chart_variant) {
  const std::vector<const Variant*> swept = select_variants(names);
  const std::string both = std::string(name_of(x)) + " and " + std::string(name_of(y));
  if (!chart_variant.empty()) {
    const Variant& v = find_variant(chart_variant);
    if (std::find(swept.begin(), swept.end(), &v) == swept.end())
      throw Error("--chart-variant " + v.name + " is not among the swept variants");
    if (!takes_param(v, x) || !takes_param(v, y))
      throw Error("variant " + v.name + " does not take both " + both +
                  "; choose other --chart-x/--chart-y or another --chart-variant");
    return;
  }
  for (const Variant* v : swept)
    if (takes_param(*v, x) && takes_param(*v, y)) return;
  throw Error("no swept variant takes both " + both +
              " (`clreduce variants` lists the parameters each takes); choose other "
              "--chart-x/--chart-y");
}

namespace {
std::optional<unsigned long long> value_of(const ReduceParams& c, GridParam p) {
  switch (p) {
    case GridParam::Wg: return c.wg ? std::optional<unsigned long long>(c.wg) : std::nullopt;
    case GridParam::Times: return c.times ? std::optional<unsigned long long>(*c.times) : std::nullopt;
    case GridParam::GroupsPerCu:
      return c.groups_per_cu ? std::optional<unsigned long long>(*c.groups_per_cu) : std::nullopt;
    case GridParam::Vec: return c.vec ? std::optional<unsigned long long>(*c.vec) : std::nullopt;
  }
  return std::nullopt;
}

std::vector<unsigned long long> axis_values(const GridAxes& a, GridParam p) {
  std::vector<unsigned long long> out;
  switch (p) {
    case GridParam::Wg: out.assign(a.wg.begin(), a.wg.end()); break;
    case GridParam::Times: out.assign(a.times.begin(), a.times.end()); break;
    case GridParam::GroupsPerCu: out.assign(a.groups_per_cu.begin(), a.groups_per_cu.end()); break;
    case GridParam::Vec: out.assign(a.vec.begin(), a.vec.end()); break;
  }
  return out;
}
}  // namespace

HeatMap grid_heat_map(const Run& run, const GridAxes& axes, const DeviceInfo& dev, GridParam x, GridParam y,
                      const std::string& variant) {
  check_heat_map_axes(x, y);
  const SizeRun& s = run.sizes.front();
  const VariantRun* shown = nullptr;
  if (!variant.empty()) {
    const Variant& v = find_variant(variant);
    for (const auto& gv : s.variants)
      if (gv.variant == v.name) shown = &gv;
    if (!shown) throw Error("--chart-variant " + v.name + " is not among the swept variants");
    if (!takes_param(v, x) || !takes_param(v, y))
      throw Error("variant " + v.name + " does not take both " + std::string(name_of(x)) + " and " +
                  std::string(name_of(y)) + "; choose other --chart-x/--chart-y or another --chart-variant");
  } else {
    std::vector<const VariantRun*> ranked;
    for (const auto& gv : s.variants)
      if (gv.best_point() && takes_param(find_variant(gv.variant), x) && takes_param(find_variant(gv.variant), y))
        ranked.push_back(&gv);
    std::sort(ranked.begin(), ranked.end(), [](const VariantRun* a, const VariantRun* b) {
      return a->best_point()->us() < b->best_point()->us();
    });
    if (ranked.empty())
      throw Error("no swept variant with a verified point takes both " + std::string(name_of(x)) +
                  " and " + std::string(name_of(y)) + " (`clreduce variants` lists the parameters each takes)");
    shown = ranked.front();
  }
  const auto xs = axis_values(axes, x);
  const auto ys = axis_values(axes, y);
  HeatMap h;
  h.title = "clreduce sweep: " + shown->variant + ", " + std::string(name_of(run.op)) + " of " +
            size_label(s.n) + " " + std::string(name_of(run.type)) + " on " + dev.name + " (read peak " +
            fixed(s.peak.gbps, 0) + " GB/s)";
  h.x_label = std::string(name_of(x));
  h.y_label = std::string(name_of(y));
  h.value_label = "GB/s";  // each cell: the best verified point over the other parameters
  for (auto v : xs) h.x_values.push_back(std::to_string(v));
  for (auto v : ys) h.y_values.push_back(std::to_string(v));
  h.cells.assign(ys.size(), std::vector<std::optional<double>>(xs.size()));
  for (const Measured& p : shown->points) {
    if (p.point.is_default || !p.report || !p.report->ok()) continue;
    const auto vx = value_of(p.point.params, x), vy = value_of(p.point.params, y);
    if (!vx || !vy) continue;
    const auto ix = std::find(xs.begin(), xs.end(), *vx) - xs.begin();
    const auto iy = std::find(ys.begin(), ys.end(), *vy) - ys.begin();
    if (ix >= static_cast<long>(xs.size()) || iy >= static_cast<long>(ys.size())) continue;
    auto& cell = h.cells[static_cast<std::size_t>(iy)][static_cast<std::size_t>(ix)];
    if (!cell || p.gbps() > *cell) cell = p.gbps();
  }
  return h;
}

}  // namespace clreduce
