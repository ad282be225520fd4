// `clreduce sweep`: a grid over work-group size, TIMES, groups per compute unit and VEC for one
// variant or all, on one input. Every point the device and the variant accept is measured (both
// timings) and verified; a point they refuse is kept with the reason and never stops the sweep.
// Each variant's default launch is measured beside the grid (its first point), so the best point
// can be stated as a gain over the default.
//
// The grid of a variant is built from its kernel's table (Variant::spec): each parameter marked
// tunable is an axis (WG_SIZE: work-group sizes, VEC: vector widths, TIMES: a fixed TIMES or, the
// other launch mode, a fixed number of groups per compute unit, TIMES then following from n), and
// a variant that sizes contiguous blocks from n takes groups per compute unit alone.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/reduce.hpp"
#include "measure/engine.hpp"

#include <string>
#include <vector>

namespace clreduce {

struct GridAxes {
  std::vector<std::size_t> wg;              // empty: grid_defaults
  std::vector<unsigned> times;              // empty: grid_defaults
  std::vector<unsigned> groups_per_cu;      // empty: grid_defaults
  std::vector<unsigned> vec;                // empty: grid_defaults
  // Only one launch mode: the grid then takes only TIMES (or only groups per CU) values.
  bool no_times = false, no_groups_per_cu = false;
};

// The axes with every empty list filled from the device:
//  wg: powers of two from 32 (from 1 on devices under 32) up to CL_DEVICE_MAX_WORK_GROUP_SIZE;
//  times: 1, 2, 4, ..., 64;
//  groups_per_cu: powers of two up to twice the occupancy at 256-wide groups (GPUs; 1..16 on the
//    H100), or 1, 2, 4, 8 (devices without occupancy facts);
//  vec: the allowed vector widths.
GridAxes grid_defaults(const GridAxes& given, const DeviceInfo& dev);

// Whether the sweep has an axis for kernel parameter p (WG_SIZE, VEC, TIMES): every parameter a
// table marks tunable must have one.
bool sweeps(const KernelParam& p);

// The points of one variant's grid, its default launch first. Throws std::logic_error for a
// tunable parameter without a sweep axis.
std::vector<Point> grid_points(const Variant& v, const GridAxes& axes);
// The same as the engine's points function (axes with the defaults filled).
std::function<std::vector<Point>(const Variant&, std::uint64_t)> grid_points(const GridAxes& axes);

// "wg 256, times 8, vec 4" / "wg 256, 8 groups/CU" / "default (wg 256, times 4, vec 4)".
std::string point_label(const Measured& m);

}  // namespace clreduce
