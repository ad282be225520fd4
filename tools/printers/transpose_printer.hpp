// Text, CSV and JSON renderings of transposes, the transpose benchmark and the access-pattern
// study (their rows declared on the result model, measure/result_table.hpp).
#pragma once

#include "benchmarks/access.hpp"
#include "clreduce/device.hpp"
#include "benchmarks/transpose_bench.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

nlohmann::json transpose_json(const TransposeReport& r, const DeviceInfo& dev);
std::string transpose_text(const TransposeReport& r, const DeviceInfo& dev);
std::string transpose_csv(const TransposeReport& r);

nlohmann::json transpose_bench_json(const TransposeBenchReport& r, const DeviceInfo& dev);
std::string transpose_bench_text(const TransposeBenchReport& r, const DeviceInfo& dev);
std::string transpose_bench_csv(const TransposeBenchReport& r);

nlohmann::json access_json(const AccessReport& r, const DeviceInfo& dev);
std::string access_text(const AccessReport& r, const DeviceInfo& dev);
std::string access_csv(const AccessReport& r);

}  // namespace clreduce
