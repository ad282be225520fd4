// Shared test fixtures: the device under test, the printed seed, and the one helper that runs a
// reduction on generated data and checks it against the host reference.
#pragma once

#include "benchmarks/family.hpp"
#include "core/runtime.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace clreduce::test {

// The device under test (CLREDUCE_DEVICE, else the default), created once per process.
Runtime& runtime();
// The suite's seed: CLREDUCE_TEST_SEED or a fixed default; printed at start-up.
std::uint64_t seed();

// Describes a configuration for failure messages.
std::string describe(const ReduceConfig& cfg, std::uint64_t n, DataKind kind);

// Runs one whole reduction of generated data on the device under test and returns the check.
Check reduce_and_check(const ReduceConfig& cfg, std::uint64_t n, DataKind kind = DataKind::Random,
                       Value* device_value = nullptr, Reference* reference = nullptr);

// The same on a given runtime (e.g. one whose DeviceInfo poses as another device).
Check reduce_and_check(Runtime& rt, const ReduceConfig& cfg, std::uint64_t n,
                       DataKind kind = DataKind::Random);

// Timing for correctness runs: `warmup` discarded runs, then `repetitions` samples of one run each.
TimingOptions quick_timing(unsigned warmup, unsigned repetitions);

// True when this process's shard (CLREDUCE_TEST_SHARD=i/N) owns item k.
bool in_shard(std::size_t k);

// A fresh copy of the source tree's kernels_cl/ in a temporary directory named after `tag`.
std::filesystem::path copy_kernels(const std::string& tag);
// Replaces the first `from` in `file` by `to`; the test fails when `from` is not there.
void replace_in_file(const std::filesystem::path& file, const std::string& from,
                     const std::string& to);

// One run of the clreduce command line.
struct Run {
  int code = -1;
  std::string out;  // stdout and stderr together
};
// Runs `clreduce ARGS` with `env` (e.g. "FOO=1") in front. Every run is hermetic with respect to
// the tuning database: CLREDUCE_TUNING_DB is unset and XDG_CONFIG_HOME points at an empty
// directory, unless `env` sets them.
Run run_cli(const std::string& args, const std::string& env = "");

// A DeviceInfo with made-up limits, for pure validation tests.
DeviceInfo fake_device();
// The same posing as an NVIDIA GPU: warps of 32 (CL_DEVICE_WARP_SIZE_NV), 132 compute units,
// 2048 resident work-items per compute unit.
DeviceInfo fake_nvidia_device();

}  // namespace clreduce::test
