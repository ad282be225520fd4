// Renderings of one segmented reduction (`clreduce reduce --segments`): text, CSV and JSON of one model.
#pragma once

#include "benchmarks/segmented_run.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string segmented_text(const SegmentedReport& r, const DeviceInfo& dev);
std::string segmented_csv(const SegmentedReport& r);
nlohmann::json segmented_json(const SegmentedReport& r, const DeviceInfo& dev);

}  // namespace clreduce
