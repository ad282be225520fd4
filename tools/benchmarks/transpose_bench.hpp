// The measured transpose jobs of the CLI: one verified transpose (run_transpose) and every
// variant at a list of shapes beside the device-to-device copy bandwidth of the same bytes
// (run_transpose_bench). Bandwidth counts bytes read plus written: 2 * M * N * sizeof(T).
#pragma once

#include "data/host_data.hpp"
#include "clreduce/timing.hpp"
#include "clreduce/introspect/transpose.hpp"
#include "data/reference.hpp"
#include "measure/estimate.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

struct TransposeReport {
  TransposeConfig config;
  TransposePlan plan;
  std::string data_origin;
  Sampled timing;        // whole_us: one transpose
  std::string clock_note;  // with the host clock (timing.clock): why the device's timer was not used
  double gbps = 0;       // 2 * M * N * sizeof(T) / median
  TransposeCheck check;  // the output of a run into a poisoned buffer, element by element
  bool ok() const { return check.ok; }
};

// The byte every output buffer is filled with before a checked run, so that an element a kernel
// never writes shows up as a mismatch.
constexpr unsigned char kPoisonByte = 0xA5;

// Runs `cfg` on data (M x N elements of cfg.type): one checked run into a poisoned output, then
// warm-ups and timed samples.
TransposeReport run_transpose(const Session& rt, const TransposeConfig& cfg, const HostData& data,
                              std::uint64_t m, std::uint64_t n, const TimingOptions& timing);

// A plain clEnqueueCopyBuffer of `bytes` between two device buffers, timed like the kernels;
// gbps counts bytes read plus written (2 * bytes / median).
struct CopyBandwidth {
  Sampled timing;
  std::uint64_t bytes = 0;
  double gbps = 0;
};
CopyBandwidth measure_copy_bandwidth(const Session& rt, const cl::Buffer& src, const cl::Buffer& dst,
                                     std::uint64_t bytes, const TimingOptions& timing);

// Default shapes of `bench transpose`: 2048x512 (the transpose study's size) and 8192x8192.
std::vector<std::pair<std::uint64_t, std::uint64_t>> default_transpose_shapes();

struct TransposeBenchOptions {
  ElemType type = ElemType::Float;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;  // empty: the defaults
  std::vector<std::string> variants;                            // empty: all
  // The parameters given, applied to the variants that take them (the others keep their own
  // shape); the variant field is not used.
  TransposeParams given;
  DataKind data = DataKind::Random;
  std::uint64_t seed = 42;
  TimingOptions timing;
};

struct TransposeBenchRow {
  std::string variant;
  std::optional<TransposeReport> report;
  std::string error;         // a set-up error (bad option for this variant, failed build)
  double speedup = 0;        // naive's median / this median, at the same shape
  double pct_of_copy = 0;
  bool ok() const { return error.empty() && report && report->ok(); }
};

struct TransposeShapeResult {
  std::uint64_t m = 0, n = 0;
  std::string data_origin;
  CopyBandwidth copy;
  std::vector<TransposeBenchRow> rows;
};

struct TransposeBenchReport {
  ElemType type = ElemType::Float;
  TimeSource clock = TimeSource::DeviceEvents;  // the session's clock
  std::string clock_note;
  std::vector<TransposeShapeResult> shapes;
  bool all_ok() const;
};

// `progress` hears before each step (a shape's input, its copy, each variant), the steps weighed
// by the bytes they move.
TransposeBenchReport run_transpose_bench(const Session& rt, const TransposeBenchOptions& opt,
                                         const std::function<void(const ProgressStep&)>& progress = {});

// What run_transpose_bench takes at least (estimate.hpp): each variant and the copy reading and
// writing M x N elements at the calibrated read bandwidth, every pass of their timing.
RunEstimate estimate_transpose_bench(const Calibration& c, const TransposeBenchOptions& opt, TimeSource clock);

}  // namespace clreduce
