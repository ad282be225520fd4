// Renderings of the device list (`clreduce devices`) and of one measured reduction
// (`clreduce reduce`): aligned text for people, CSV with units and JSON for machines.
#pragma once

#include "clreduce/device.hpp"
#include "measure/measure.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clreduce {

nlohmann::json device_json(const DeviceInfo& dev);
std::string devices_text(const std::vector<DeviceInfo>& all);

// One measured reduction: configuration, plan, value, check and both timings (the core every
// machine format of a reduction shares).
nlohmann::json report_core_json(const ReduceReport& r);
// The spread of the back-to-back samples ("1.2%", spread_cell), with " !" where a noise target
// (--max-noise) was not reached.
std::string noise_cell(const Timed& t);

nlohmann::json reduce_json(const ReduceReport& r, const DeviceInfo& dev);
std::string reduce_text(const ReduceReport& r, const DeviceInfo& dev);
std::string reduce_csv(const ReduceReport& r);

}  // namespace clreduce
