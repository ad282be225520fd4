// Renderings of the descriptor benchmark (`clreduce bench descriptors`): one model of each row
// that the aligned text table, the CSV and the JSON all show.
#pragma once

#include "benchmarks/descriptor_bench.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

std::string descriptor_bench_text(const DescriptorBenchRun& r, const DeviceInfo& dev);
std::string descriptor_bench_csv(const DescriptorBenchRun& r);
// The CSV's header line and one row's line, for rows written as they are measured (the two
// together are descriptor_bench_csv of a run of that row).
std::string descriptor_bench_csv_header();
std::string descriptor_bench_csv_line(const DescriptorBenchRow& row);
nlohmann::json descriptor_bench_json(const DescriptorBenchRun& r, const DeviceInfo& dev);

}  // namespace clreduce
