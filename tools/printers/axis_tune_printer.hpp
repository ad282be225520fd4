// Renderings of `clreduce tune axis` (text, CSV, JSON of one AxisTuneRun): every launch tried at
// every shape, then what each shape class chose.
#pragma once

#include "benchmarks/axis_tune.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string axis_tune_text(const AxisTuneRun& r, const DeviceInfo& dev);
std::string axis_tune_csv(const AxisTuneRun& r);
nlohmann::json axis_tune_json(const AxisTuneRun& r, const DeviceInfo& dev);

}  // namespace clreduce
