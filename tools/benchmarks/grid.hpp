// The parameter sweep behind `clreduce sweep`: a grid over work-group size, TIMES, groups per
// compute unit and VEC for one variant or all, on one input. Every point that the device and the
// variant accept is measured (both timings) and verified against the host reference; a point
// they refuse is kept with the reason and never stops the sweep. Each variant's default launch
// is measured beside the grid, so the best point can be stated as a gain over the default.
//
// The grid of a variant: work-group sizes x launch modes x VEC, where a launch mode is a fixed
// TIMES or a fixed number of groups per compute unit (TIMES then follows from n); variants
// without TIMES take only the work-group sizes, variants without VEC no VEC.
#pragma once

#include "benchmarks/family.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

struct GridAxes {
  std::vector<std::size_t> wg;              // empty: grid_defaults
  std::vector<unsigned> times;              // empty: grid_defaults
  std::vector<unsigned> groups_per_cu;      // empty: grid_defaults
  std::vector<unsigned> vec;                // empty: grid_defaults
  // Only one launch mode: the grid then takes only --times (or only --groups-per-cu) values.
  bool no_times = false, no_groups_per_cu = false;
};

// The axes with every empty list filled from the device:
//  wg: powers of two from 32 (from 1 on devices under 32) up to CL_DEVICE_MAX_WORK_GROUP_SIZE;
//  times: 1, 2, 4, ..., 64;
//  groups_per_cu: powers of two up to twice the occupancy at 256-wide groups (GPUs; 1..16 on the
//    H100), or 1, 2, 4, 8 (devices without occupancy facts);
//  vec: the allowed vector widths.
GridAxes grid_defaults(const GridAxes& given, const DeviceInfo& dev);

struct GridPoint {
  ReduceConfig config;
  bool is_default = false;              // the variant's default launch (no parameter set)
  std::optional<ReduceReport> report;   // measured and checked
  std::string skipped;                  // the configuration is invalid here: why
  std::string error;                    // any other failure (a kernel that fails to build...)
  double gbps() const { return report ? report->gbps : 0; }
  double us() const { return report ? report->timed.whole_us.median : 0; }
};

// The points of one variant's grid (its default launch first), unmeasured.
std::vector<GridPoint> grid_points(const Variant& v, const GridAxes& axes, ElemType type, Op op,
                                   const std::vector<Define>& defines);

struct GridVariant {
  std::string variant;
  std::string unavailable;  // the variant does not run on this device: why (no points)
  std::vector<GridPoint> points;
  int best = -1;            // index of the lowest back-to-back median
  int default_point = -1;   // index of the default launch
  const GridPoint* best_point() const { return best < 0 ? nullptr : &points[best]; }
  const GridPoint* default_launch() const {
    return default_point < 0 || !points[default_point].report ? nullptr : &points[default_point];
  }
  // Default median / best median (1 when either is missing).
  double gain_over_default() const;
  std::size_t count_measured() const, count_skipped() const, count_failed() const;
};

struct GridSweep {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::uint64_t n = 0;
  std::string data_origin;
  ReadBandwidth peak;
  GridAxes axes;  // as used (defaults filled)
  std::vector<GridVariant> variants;
  std::size_t count_points() const;
  // No point failed (an error, a wrong value); every available variant measured at least once.
  bool all_ok() const;
  const GridVariant* best_variant() const;  // the lowest best median
};

struct GridSweepOptions {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::vector<std::string> variants;  // empty: every registered variant
  GridAxes axes;
  std::vector<Define> defines;
  TimingOptions timing;
};

// Progress: called before each point with its index (from 0), the total and a label.
using GridProgress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;

// Sweeps on `data` (already checked against the device's allocation limit).
GridSweep run_grid_sweep(Runtime& rt, const GridSweepOptions& opt, const HostData& data,
                         const GridProgress& progress = {});

// The same sweep on an input already on the device (tune measures several sizes this way).
GridSweep run_grid_sweep(Runtime& rt, const GridSweepOptions& opt, const HostData& data,
                         const cl::Buffer& input, const GridProgress& progress);

// "wg 256, times 8, vec 4" / "wg 256, 8 groups/CU" / "default (wg 256, times 4, vec 4)".
std::string point_label(const GridPoint& p);

}  // namespace clreduce
