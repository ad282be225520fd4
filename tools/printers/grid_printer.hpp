// Renderings of the parameter sweep (`clreduce sweep`, a Run of one size over a grid): an aligned table of every point per variant
// (refused points marked, their reasons listed once), the best point per variant with its gain
// over the default launch, CSV with one row per point, and JSON with everything.
#pragma once

#include "clreduce/device.hpp"
#include "benchmarks/grid.hpp"
#include "measure/engine.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

// `run` holds one size; `axes` the grid as swept (defaults filled).
std::string grid_sweep_text(const Run& run, const GridAxes& axes, const DeviceInfo& dev);
std::string grid_sweep_csv(const Run& run);
nlohmann::json grid_sweep_json(const Run& run, const GridAxes& axes, const DeviceInfo& dev);

// "32, 64, ..., 1024" style summaries of an axis, for headers.
std::string axis_label(const std::vector<std::size_t>& xs);
std::string axis_label(const std::vector<unsigned>& xs);

}  // namespace clreduce
