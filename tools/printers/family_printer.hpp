// Renderings of the family benchmark (`clreduce bench`, a Run of one size with one point per
// variant): the table with the read peak, speedup over naive and the check of each row; CSV; JSON.
#pragma once

#include "clreduce/device.hpp"
#include "measure/engine.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

nlohmann::json bench_json(const Run& run, const DeviceInfo& dev);
std::string bench_text(const Run& run, const DeviceInfo& dev);
std::string bench_csv(const Run& run);

}  // namespace clreduce
