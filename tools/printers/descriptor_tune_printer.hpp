// Renderings of `clreduce tune descriptors` (text, CSV, JSON of one DescriptorTuneRun): per class
// of (built-in, types, family, shape class) the chosen launch and its gain over the default at
// each size or shape; the CSV and JSON also carry every point measured.
#pragma once

#include "benchmarks/descriptor_tune.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string descriptor_tune_text(const DescriptorTuneRun& r, const DeviceInfo& dev);
std::string descriptor_tune_csv(const DescriptorTuneRun& r);
nlohmann::json descriptor_tune_json(const DescriptorTuneRun& r, const DeviceInfo& dev);

}  // namespace clreduce
