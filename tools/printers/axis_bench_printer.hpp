// Renderings of the axis benchmark (`clreduce bench axis`): the shapes table as text, CSV and
// JSON, all three from one model of each row.
#pragma once

#include "benchmarks/axis_bench.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string axis_bench_text(const AxisBenchRun& r, const DeviceInfo& dev);
std::string axis_bench_csv(const AxisBenchRun& r);
nlohmann::json axis_bench_json(const AxisBenchRun& r, const DeviceInfo& dev);

}  // namespace clreduce
