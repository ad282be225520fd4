// Renderings of the size benchmark (`clreduce bench --sizes`, a Run over several sizes with the
// candidates of each variant): an aligned table per size with each variant's best candidate
// (back-to-back and one call at a time), CSV with one row per (size, variant), and JSON with every
// candidate tried.
#pragma once

#include "clreduce/device.hpp"
#include "measure/engine.hpp"
#include "printers/table.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

// "wg 256, 1056 groups (8/CU), times 4, vec 4, 2 passes".
std::string config_label(const ReduceReport& r, const DeviceInfo& dev);

// Text and CSV in the bandwidth unit `u` (bench --units).
std::string sizes_text(const Run& r, const DeviceInfo& dev, BandwidthUnit u = BandwidthUnit::GB);
std::string sizes_csv(const Run& r, const DeviceInfo& dev, BandwidthUnit u = BandwidthUnit::GB);
nlohmann::json sizes_json(const Run& r, const DeviceInfo& dev);

}  // namespace clreduce
