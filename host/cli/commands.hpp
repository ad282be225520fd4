// The clreduce subcommands, given their options as typed text exactly as the user wrote it
// (parsing and validation happen in the library, so every message is the library's).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace clreduce::cli {

struct DeviceOptions {
  std::optional<std::size_t> platform;
  std::optional<std::string> device;
  std::optional<std::string> kernel_dir;
};

struct RunOptions {  // shared by reduce and bench
  std::string type = "uint", op = "sum", data = "random", format = "table";
  std::optional<std::string> n, input, output_json;
  std::optional<std::size_t> wg;
  std::optional<unsigned> times, groups_per_cu, vec, batch;
  std::vector<std::string> defines;
  unsigned iterations = 10, warmup = 2;
  unsigned long long seed = 42;
};

struct ReduceOptions : RunOptions {
  std::string variant;
};

struct BenchOptions : RunOptions {
  std::vector<std::string> variants;
  std::vector<std::string> sizes;  // non-empty: the size sweep
};

// Each returns the process exit code: 0 all checks passed, 1 a check failed.
// Errors are thrown as clreduce::Error.
int cmd_devices(const DeviceOptions& d, const std::string& format);
int cmd_variants();
int cmd_reduce(const DeviceOptions& d, const ReduceOptions& o);
int cmd_bench(const DeviceOptions& d, const BenchOptions& o);

}  // namespace clreduce::cli
