// Renderings of a size sweep (`clreduce bench --sizes`): an aligned table per size, CSV with one
// row per (size, variant), and JSON with every candidate tried.
#pragma once

#include "clreduce/device.hpp"
#include "benchmarks/sizes.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

// "2^20" for powers of two from 2^10 up, else the decimal number.
std::string size_label(std::uint64_t n);
// "wg 256, 1056 groups (8/CU), times 4, vec 4, 2 passes".
std::string config_label(const ReduceReport& r, const DeviceInfo& dev);

std::string sweep_text(const SweepReport& r, const DeviceInfo& dev);
std::string sweep_csv(const SweepReport& r, const DeviceInfo& dev);
nlohmann::json sweep_json(const SweepReport& r, const DeviceInfo& dev);

}  // namespace clreduce
