// Shared test fixtures: the device under test, the printed seed, and the one helper that runs a
// reduction on generated data and checks it against the host reference.
#pragma once

#include "clreduce/introspect.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/measure.hpp"
#include "measure/session.hpp"

#include <memory>

#include <cstdint>
#include <filesystem>
#include <string>

namespace clreduce::test {

// The device under test (CLREDUCE_DEVICE, else the default) on the source tree's kernels,
// created once per process.
Session& session();

// One configuration made ready, as the tests use it: a reducer on `s` with the tuning database
// off, and its launch for n.
struct Prepared {
  const Session* session;
  Reducer reducer;
  std::shared_ptr<const Launch> launch;
  const Plan& plan() const { return launch->plan; }
  cl::Buffer upload(const HostData& data) const { return upload_data(*session, data); }
  // One whole reduction of `in`, waited for.
  Value run(const cl::Buffer& in);
  std::vector<cl::Event> enqueue(const cl::Buffer& in, bool with_events = true, const cl::CommandQueue* on = nullptr) {
    return introspect::enqueue(reducer, *launch, in, 0, on, with_events);
  }
  Value read_result() { return introspect::read_result(reducer, *launch); }
  cl::Buffer counter_buffer() const { return introspect::counter_buffer(reducer, *launch); }
  // Warm-ups and timed samples (both ways), the value read and compared after every sample.
  Timed time(const cl::Buffer& in, const TimingOptions& opt);
};
// Throws what introspect::prepare throws.
Prepared prepare(const Session& s, const ReduceConfig& cfg, std::uint64_t n);
// run_reduce (measure.hpp) of one configuration, the tuning database off.
ReduceReport run_config(const Session& s, const ReduceConfig& cfg, const HostData& data, const TimingOptions& timing);
// The suite's seed: CLREDUCE_TEST_SEED or a fixed default; printed at start-up.
std::uint64_t seed();

// Describes a configuration for failure messages.
std::string describe(const ReduceConfig& cfg, std::uint64_t n, DataKind kind);

// Runs one whole reduction of generated data on the device under test and returns the check.
Check reduce_and_check(const ReduceConfig& cfg, std::uint64_t n, DataKind kind = DataKind::Random,
                       Value* device_value = nullptr, Reference* reference = nullptr);

// The same on a given session (e.g. one whose DeviceInfo poses as another device).
Check reduce_and_check(const Session& s, const ReduceConfig& cfg, std::uint64_t n,
                       DataKind kind = DataKind::Random);

// Timing for correctness runs: `warmup` discarded runs, then `repetitions` samples of one run each.
TimingOptions quick_timing(unsigned warmup, unsigned repetitions);

// Every file of the source tree's kernels_cl/ (not its subdirectories), one after another: for
// tests that look for a macro's #ifndef.
std::string source_kernels_text();

// True when this process's shard (CLREDUCE_TEST_SHARD=i/N) owns item k, and, where
// CLREDUCE_TEST_SAMPLE=M is set, item k falls in the seeded one-in-M sample. The sample's seed is
// CLREDUCE_TEST_SAMPLE_SEED, else the day (days since 1970, UTC), so CI covers another part of the
// matrix each day; the first call prints the seed and the line that repeats the sample.
bool in_shard(std::size_t k);
// A covering sample of a two-axis matrix (item (i, j), j < width): with CLREDUCE_TEST_SAMPLE=M set,
// the items whose i + j + an offset of the day's seed is a multiple of min(M, width): every i and
// every j of a matrix at least that wide on both axes keeps an item. Unset: every item.
bool in_diagonal(std::size_t i, std::size_t j, std::size_t width);

// The largest power of two the variant's kernel allows on the device under test (its
// CL_KERNEL_WORK_GROUP_SIZE and the device maximum): 4096 on PoCL, 256 on NVIDIA, 32 on Rusticl.
// On another session (one posing as another device) where `on` is given, with `defines`.
std::size_t allowed_wg(const std::string& variant, ElemType t = ElemType::Uint, const Session* on = nullptr,
                       const std::vector<Define>& defines = {});
// `preferred`, or the largest the kernel allows where that is less.
std::size_t test_wg(const std::string& variant, std::size_t preferred, ElemType t = ElemType::Uint,
                    const Session* on = nullptr, const std::vector<Define>& defines = {});

// A fresh copy of the source tree's kernels_cl/ in a temporary directory named after `tag`.
std::filesystem::path copy_kernels(const std::string& tag);
// A directory under the system's temporary directory, named after `tag` and the process id (so
// shards of one test side by side stay apart), created empty and removed with everything in it
// when the object goes (a `static` one: when the test process ends).
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& tag);
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();
};
// Every byte of `file` (the test fails where it cannot be read).
std::string read_file(const std::filesystem::path& file);
// Replaces the first `from` in `file` by `to`; the test fails when `from` is not there.
void replace_in_file(const std::filesystem::path& file, const std::string& from,
                     const std::string& to);

// One run of the clreduce command line.
struct CliRun {
  int code = -1;
  std::string out;     // stdout and stderr together, in the order they were read
  std::string stdout_text;  // stdout alone (tables, CSV, JSON: what a pipe to another program gets)
  std::string stderr_text;  // stderr alone (errors, warnings, progress lines)
  long peak_rss_kib = 0;    // the largest resident memory of the command and what it ran, KiB (wait4's ru_maxrss)
};
// Runs `clreduce ARGS` with `env` (e.g. "FOO=1") in front. Every run is hermetic with respect to
// the tuning database: CLREDUCE_TUNING_DB is unset and XDG_CONFIG_HOME points at an empty
// directory, unless `env` sets them.
CliRun run_cli(const std::string& args, const std::string& env = "");
// The same, killed after `seconds` (timeout -s KILL) where it runs longer: what it printed so far.
CliRun run_cli_killed_after(unsigned seconds, const std::string& args);

// Checks (doctest) that `clreduce ARGS` is refused as the CLI's rules say: exit code 2, nothing
// on standard output, one line on standard error, and that line holds `text`.
void expect_refused(const std::string& args, const std::string& text);

// Checks (doctest) that an option string holds "-D NAME=" of every parameter `spec` declares, each
// once and in declaration order, and then `after` (a caller's own -D) behind them all.
void check_declared_options(const KernelSpec& spec, const std::string& options, const std::string& after);

// A DeviceInfo with made-up limits, for pure validation tests.
DeviceInfo fake_device();
// The same posing as an NVIDIA GPU: warps of 32 (CL_DEVICE_WARP_SIZE_NV), 132 compute units,
// 2048 resident work-items per compute unit.
DeviceInfo fake_nvidia_device();

}  // namespace clreduce::test
