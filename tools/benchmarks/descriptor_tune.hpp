// `clreduce tune descriptors`: for each (built-in, input type, family, shape class) the
// descriptor kernel's default launch and a grid of its tunable parameters (the -Ds that
// src/descriptor/kernel_params.cpp marks tunable, each with the values descriptor_tune_axis
// gives, or --grid's), every point a verified run of `clreduce bench descriptors`
// (measure_descriptor_bench: each result checked against the host reference); then per class the
// best point, kept for the tuning database (clreduce/tuning.hpp, descriptor_entries) only where
// it beats the default by more than the noise, the rule of `tune axis`:
//
//   keep  when the point was verified at every size (whole) or shape (rows, cols) of its class,
//         launches otherwise than the default at some of them, and gain = geometric mean over them
//         of default median / point median > 1 + max(min_gain, noise), noise being the largest over
//         them of (point's IQR + default's IQR) / 2 / default median. Of the points verified
//         everywhere the one with the lowest geometric mean of point / default is the best (the
//         lowest geometric mean of its time relative to the best time, as `tune` ranks: the same
//         order).
//
// A class where nothing passes keeps the planner's default (its old entry, if any, is removed
// when the database is written). Rows and segments share the lines kernel: rows entries serve
// segmented reductions too (by the rows class of their segments).
// Thread-safety: measure_descriptor_tune uses the session's queue; one run at a time per session.
#pragma once

#include "benchmarks/descriptor_bench.hpp"
#include "clreduce/tuning.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

// The values `tune descriptors` tries for tunable parameter `define` of `family`'s kernel on
// `dev`, for inputs of at most `widest_bytes` bytes (VEC: 8 to 32 bytes a load on a GPU, 16 to 64
// elsewhere). Throws std::logic_error for a tunable parameter without a tune axis (a table's bug:
// every parameter kernel_params.cpp marks tunable must have one) and for a define that is not
// tunable there.
std::vector<std::uint64_t> descriptor_tune_axis(DescriptorFamily family, const std::string& define,
                                                const DeviceInfo& dev, std::size_t widest_bytes);

struct DescriptorTuneDesign {
  std::vector<Builtin> ops;                      // empty: sum, argmax, var_pop
  std::vector<Scalar> types;                     // empty: f32
  std::vector<DescriptorFamily> families;        // empty: whole, rows, cols
  std::vector<std::uint64_t> sizes;              // whole: elements; empty: default_tune_sizes
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;  // rows, cols; empty: one per class
  std::vector<LaunchAxis> grid;                  // axes that replace the defaults (a -D name, or chunks)
  double min_gain = 0.03;                        // the smallest gain kept, beside the noise
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
};

// The design's ops, types and families with the defaults filled.
DescriptorTuneDesign with_defaults(DescriptorTuneDesign d);

// The grid's points for `family` (the default launch first): every tunable parameter of its
// kernel an axis (descriptor_tune_axis, or the design's --grid axis of that name), and chunks
// where the design gives them (rows, cols). Points whose ROW_WIDTH is over their WG_SIZE, or whose
// TILE_X x ROWS_Y is over the device's work-group limit, are left out (the planner refuses them).
// Throws Error (Param::Define, Param::Chunks) for a grid axis no selected family tunes, or a value
// its kernel does not take.
std::vector<DescriptorLaunchPoint> descriptor_tune_points(const DescriptorTuneDesign& d, DescriptorFamily family,
                                                          const DeviceInfo& dev, std::size_t widest_bytes);
// Checks every --grid axis against the design's families (as descriptor_tune_points throws).
void check_descriptor_tune_grid(const DescriptorTuneDesign& d, const DeviceInfo& dev);

// The whole array's sizes (elements) and the rows' or columns' shapes of one input type.
std::vector<std::uint64_t> descriptor_tune_sizes(const DescriptorTuneDesign& d, const DeviceInfo& dev);
std::vector<std::pair<std::uint64_t, std::uint64_t>> descriptor_tune_shapes(const DescriptorTuneDesign& d,
                                                                            DescriptorFamily family,
                                                                            const DeviceInfo& dev, Scalar type);

// One class's choice.
struct DescriptorTuneClass {
  std::string reduction;           // "sum"
  std::vector<Scalar> inputs;      // {F32}
  DescriptorFamily family = DescriptorFamily::Whole;
  std::string shape_class;         // "whole", "rows.short.many"
  // Per size or shape of the class (m 0 for the whole array): n, and the run's row of its
  // default launch.
  struct Where {
    std::uint64_t m = 0, n = 0;
    std::size_t default_row = 0;   // index into DescriptorTuneRun::bench.rows
    std::size_t best_row = 0;      // the best point's row there (where there is a best)
  };
  std::vector<Where> wheres;
  std::optional<TunedDescriptorEntry> entry;  // empty: the default launch is kept
  std::string best;                // the best point's label ("" when none was verified everywhere)
  double gain = 0, noise = 0;      // the best's gain over the default and the noise
  std::string note;                // why the default is kept, when it is
  std::string types() const;       // "f32", "f32 x f32"
};

struct DescriptorTuneRun {
  DescriptorBenchRun bench;        // every point measured (the default launches among them)
  std::vector<DescriptorTuneClass> classes;
  bool all_ok() const { return bench.all_ok(); }  // every point that ran verified
};

// Measures the design (its sizes and shapes checked against the device by the caller): per
// family, type and size or shape, every built-in at every grid point, one after another.
DescriptorTuneRun measure_descriptor_tune(const Session& session, const DescriptorTuneDesign& d,
                                          const std::function<void(const ProgressStep&)>& progress = {});
// The number of runs measure_descriptor_tune makes (points x built-ins x types x sizes and shapes).
std::uint64_t descriptor_tune_runs(const DescriptorTuneDesign& d, const DeviceInfo& dev);
// The per-class choice from the measured points (the rule above); fills run.classes. `dev` gives
// the classes' compute units.
void choose_descriptor_tuning(DescriptorTuneRun& run, const DescriptorTuneDesign& d, const DeviceInfo& dev,
                              const std::string& date);

}  // namespace clreduce
