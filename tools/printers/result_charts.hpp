// The charts of clreduce's results (`--chart FILE.svg`), built from the reports and drawn by
// charts.hpp: the benchmark as GB/s per variant against the measured read peak, the size sweep
// as time and GB/s against n (log scales), and the parameter sweep as a heat map of GB/s over
// two of its parameters.
#pragma once

#include "benchmarks/grid.hpp"
#include "measure/engine.hpp"
#include "printers/charts.hpp"

#include <string>
#include <vector>

namespace clreduce {

BarChart bench_chart(const Run& run, const DeviceInfo& dev);

// Two panels: whole-reduction b2b median vs n, and GB/s vs n with the read peak as a series.
std::vector<LineChart> scaling_chart(const Run& r, const DeviceInfo& dev);

// The sweep's parameters a heat map can take as an axis.
enum class GridParam { Wg, Times, GroupsPerCu, Vec };
GridParam parse_grid_param(const std::string& text);  // wg | times | groups-per-cu | vec
std::string_view name_of(GridParam p);

// The variant shown: `variant` if given, else the sweep's best variant that takes both
// parameters. A cell holds the best verified GB/s over the other parameters at (x, y); a cell no
// point measured stays empty. Throws Error naming the problem: the two parameters are the same,
// or TIMES against groups per CU (two launch modes: no point has both), or the variant takes
// neither (e.g. naive has no TIMES).
HeatMap grid_heat_map(const Run& run, const GridAxes& axes, const DeviceInfo& dev, GridParam x, GridParam y,
                      const std::string& variant = "");
// Validates the pair before a sweep runs (same rules, without data).
void check_heat_map_axes(GridParam x, GridParam y);
// Whether a variant's grid has the parameter (TIMES and groups per CU: the TIMES variants; VEC:
// the vector variants; wg: all).
bool takes_param(const Variant& v, GridParam p);
// Before a sweep: throws Error when none of `variants` (names; empty: all) takes both
// parameters, or `chart_variant` (if not empty) is not swept or does not take both.
void check_heat_map_variants(const std::vector<std::string>& variants, GridParam x, GridParam y,
                             const std::string& chart_variant);

}  // namespace clreduce
