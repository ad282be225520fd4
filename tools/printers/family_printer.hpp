// Renderings of the family benchmark (`clreduce bench`, a Run of one size with one point per
// variant): the table with the read peak, speedup over naive and the check of each row; CSV; JSON.
#pragma once

#include "clreduce/device.hpp"
#include "measure/engine.hpp"
#include "printers/table.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

nlohmann::json bench_json(const Run& run, const DeviceInfo& dev);
// Text and CSV in the bandwidth unit `u` (bench --units).
std::string bench_text(const Run& run, const DeviceInfo& dev, BandwidthUnit u = BandwidthUnit::GB);
std::string bench_csv(const Run& run, BandwidthUnit u = BandwidthUnit::GB);

}  // namespace clreduce
