// Renderings of `clreduce bench multi`: text (one row per device count, then each device's part
// per count), CSV (the device-count rows) and JSON (everything, with the meta block added by the
// command line).
#pragma once

#include "benchmarks/multi_bench.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string multi_text(const MultiBenchRun& run);
std::string multi_csv(const MultiBenchRun& run);
nlohmann::json multi_json(const MultiBenchRun& run);

}  // namespace clreduce
