// Renderings of `clreduce tune`: per variant the parameters chosen (or why the default stays),
// its time at each size against the default launch, and the database entry written.
#pragma once

#include "benchmarks/tune.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string tune_text(const TuneReport& r, const DeviceInfo& dev);
// One row per (variant, size): the tuned parameters, tuned and default medians.
std::string tune_csv(const TuneReport& r);
nlohmann::json tune_json(const TuneReport& r, const DeviceInfo& dev);

}  // namespace clreduce
