// The memory access-pattern study: the sum of cubes of n uint elements computed twice on the
// same data, once with each work-item reading one contiguous chunk (uncoalesced on a GPU) and
// once with work-items reading interleaved elements (coalesced), each verified exactly against
// the host and timed whole (the pattern's pass plus the reduction of its per-group partials).
#pragma once

#include "data/host_data.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/timing.hpp"
#include "measure/estimate.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

struct AccessPattern {
  std::string name;     // "contiguous", "interleaved"
  std::string kernel;   // in kernels_cl/sum_of_cubes.cl
  std::string summary;  // which elements a work-item reads
};
const std::vector<AccessPattern>& access_patterns();

// Sum of x^3 over the data, modulo 2^32 (the kernels' uint arithmetic).
std::uint32_t host_sum_of_cubes(const HostData& data);

struct AccessOptions {
  std::size_t wg = 0;                    // 0: 256, or the device maximum if smaller
  std::optional<std::uint64_t> groups;   // default: enough to fill the device (2048 work-items
                                         // per compute unit), at most one per element
  TimingOptions timing;
};

struct AccessRow {
  AccessPattern pattern;
  Sampled timing;              // whole: the pattern's pass and the partials' reduction
  double gbps = 0;             // n * 4 bytes / median whole time
  double first_pass_gbps = 0;  // n * 4 bytes / median time of the pattern's pass alone
  std::uint32_t value = 0;     // the device result (of the last sample)
  bool consistent = true;      // every sample gave the same value
  bool ok = false;             // value == reference and consistent
};

struct AccessReport {
  TimeSource clock = TimeSource::DeviceEvents;  // the session's clock
  std::string clock_note;
  std::uint64_t n = 0;
  std::string data_origin;
  std::size_t wg = 0;
  std::uint64_t groups = 0;
  std::uint64_t chunk = 0;  // elements per work-item of the contiguous pattern
  std::uint32_t reference = 0;
  std::vector<AccessRow> rows;
  double ratio = 0;  // interleaved GB/s over contiguous GB/s (whole)
  bool all_ok() const;
};

// Throws Error when the data is not uint or the launch shape is invalid for the device.
// `progress` hears before each pattern.
AccessReport run_access(const Session& rt, const HostData& data, const AccessOptions& opt,
                        const std::function<void(const ProgressStep&)>& progress = {});

// What the study of n elements takes at least (estimate.hpp): the input generated and checked,
// each pattern's timed passes reading it at the calibrated read bandwidth.
RunEstimate estimate_access(const Calibration& c, std::uint64_t n, const TimingOptions& timing, TimeSource clock);

}  // namespace clreduce
