// Renderings of one measured descriptor reduction (`clreduce reduce --op dot --type f16 ...`):
// aligned text for people, CSV with units and JSON for machines. Every one says the reduction,
// the input types, the accumulator and the result's layout.
#pragma once

#include "benchmarks/descriptor_run.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

nlohmann::json descriptor_json(const DescriptorReport& r, const DeviceInfo& dev);
std::string descriptor_text(const DescriptorReport& r, const DeviceInfo& dev);
std::string descriptor_csv(const DescriptorReport& r);

}  // namespace clreduce
