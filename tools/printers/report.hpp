// Rendering results for people (aligned text tables) and machines (CSV with units, JSON).
#pragma once

#include "benchmarks/family.hpp"
#include "clreduce/device.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace clreduce {

enum class Format { Table, Csv, Json };
Format parse_format(const std::string& text);  // table | csv | json

// A table of strings: rendered aligned (numbers right-aligned) or as CSV.
struct TextTable {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::string render_text() const;
  std::string render_csv() const;
};

std::string fixed(double x, int decimals);
std::string stats_cell(double us);          // microseconds: 2 decimals under 100, else 1
std::string bytes_human(std::uint64_t b);  // "4.0 MiB"
nlohmann::json stats_json(const Stats& s);
// One measured reduction: configuration, plan, value, check and both timings.
nlohmann::json report_core_json(const ReduceReport& r);

nlohmann::json device_json(const DeviceInfo& dev);
std::string devices_text(const std::vector<DeviceInfo>& all);

nlohmann::json reduce_json(const ReduceReport& r, const DeviceInfo& dev);
std::string reduce_text(const ReduceReport& r, const DeviceInfo& dev);
std::string reduce_csv(const ReduceReport& r);

nlohmann::json bench_json(const BenchReport& r, const DeviceInfo& dev);
std::string bench_text(const BenchReport& r, const DeviceInfo& dev);
std::string bench_csv(const BenchReport& r);

}  // namespace clreduce
