// How long a measuring run will take, told before it starts: a calibration of about a second
// (the device's read bandwidth on a buffer like the run's, the cost of one program build, the
// host's rate at generating and checking input), and a model of the engine's passes on it. The
// figure is a lower bound: every pass is taken to read at the read peak and to cost nothing to
// launch, so a slow variant or a launch-bound size only adds to it. It serves the warning that a
// run will be long (clreduce: warning: ...) and `--estimate`, and weighs the steps of the
// progress line so that its time left is right when the sizes differ.
#pragma once

#include "clreduce/timing.hpp"
#include "clreduce/types.hpp"
#include "data/host_data.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <string>

namespace clreduce {

struct Calibration {
  double device_gbps = 0;  // read bandwidth on the calibration buffer, GB/s (10^9 bytes/s)
  std::uint64_t device_bytes = 0;  // the calibration buffer's size
  double build_s = 0;      // seconds one program build took (0: none was built while calibrating)
  double host_gbps = 0;    // the host generating (when it does) and checking input, GB/s
  double seconds = 0;      // what calibrating took
};

// Measures the rates above for a run of `type` and `op` whose largest input is `largest_n`
// elements; `generated`: the run generates its input (else it is the user's, only checked).
// Reads a buffer of min(largest input, 64 MiB) filled on the device, and a host sample of at
// most 2^20 elements.
Calibration calibrate(const Session& session, ElemType type, Op op, DataKind kind, std::uint64_t largest_n,
                      bool generated);

// Seconds a launch measured as the engine measures it (measure_reduction: warm-ups, back-to-back
// samples, one call at a time on the profiling and the plain queue) takes at least, each pass
// reading `bytes` at the calibrated bandwidth.
double point_seconds(const Calibration& c, const TimingOptions& timing, TimeSource clock, std::uint64_t bytes);
// The passes over the input that makes at least (a batch chosen by the engine counted as 1).
double point_passes(const TimingOptions& timing, TimeSource clock);
// Seconds the host takes at least to generate (when it does) and check `bytes` of input.
double host_seconds(const Calibration& c, std::uint64_t bytes);

struct RunEstimate {
  double seconds = 0;       // the run takes at least this long
  std::size_t points = 0;   // launches measured (all sizes)
  std::size_t sizes = 0;
  std::size_t builds = 0;   // programs it builds at least (one per point of a size)
  double device_bytes = 0;  // read by every pass of every point
  double host_bytes = 0;    // generated and checked on the host
  Calibration calibration;
};

// "at least 4m10s: 13 launches at 1 size reading 57.2 GB at the 52.1 GB/s measured here, 13
// program builds of 0.41 s, 4.29 GB of input generated and checked on the host at 0.80 GB/s".
std::string describe(const RunEstimate& e);

// Runs estimated at least this long are warned about before they start.
inline constexpr double kLongRunSeconds = 30;

}  // namespace clreduce
