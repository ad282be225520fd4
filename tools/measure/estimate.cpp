// The run estimate: what calibrating measures, and the engine's passes counted the way
// time_enqueues (src/core/timing.cpp) makes them.
#include "measure/estimate.hpp"

#include "clreduce/error.hpp"
#include "data/reference.hpp"
#include "measure/read_bandwidth.hpp"
#include "measure/progress.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace clreduce {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Decimal units, like the rates beside them.
std::string gb(double bytes) {
  char buf[32];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  else if (bytes >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", bytes / 1e6);
  else std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
  return buf;
}
std::string rate(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", gbps);
  return buf;
}
std::string plural(std::size_t k, const std::string& one, const std::string& many) {
  return std::to_string(k) + " " + (k == 1 ? one : many);
}
}  // namespace

Calibration calibrate(const Session& session, ElemType type, Op op, DataKind kind, std::uint64_t largest_n,
                      bool generated) {
  const auto t0 = std::chrono::steady_clock::now();
  Calibration c;
  // The host: generating and checking a sample (the rate is per byte; both are linear in n).
  const std::uint64_t sample_n = std::max<std::uint64_t>(1, std::min<std::uint64_t>(largest_n, 1u << 20));
  const auto h0 = std::chrono::steady_clock::now();
  const HostData sample = generate_data(type, sample_n, kind, 1);
  const double gen_s = seconds_since(h0);
  const auto r0 = std::chrono::steady_clock::now();
  // (A user operator's reference runs on the device; the sum's host rate stands in for it.)
  (void)host_reference(sample, op == Op::User ? Op::Sum : op);
  const double check_s = seconds_since(r0) + (generated ? gen_s : 0);
  c.host_gbps = static_cast<double>(sample.bytes.size()) / std::max(check_s, 1e-9) / 1e9;

  // The device: its read bandwidth on a buffer of zeros, the builds of the read kernels timed by
  // the program cache. (Written from the host: Oclgrind 21.10 crashes under --uninitialized on a
  // buffer made by clEnqueueFillBuffer.)
  const DeviceInfo& dev = session.device();
  const std::uint64_t elem = size_of(type);
  std::uint64_t bytes = std::min<std::uint64_t>({largest_n * elem, std::uint64_t{64} << 20, dev.max_alloc_bytes});
  bytes = std::max<std::uint64_t>(elem, bytes / elem * elem);
  c.device_bytes = bytes;
  const cl::Buffer buffer = with_cl_context("allocating the calibration buffer", [&] {
    const std::vector<unsigned char> zeros(bytes, 0);
    cl::Buffer b(session.context(), CL_MEM_READ_ONLY, bytes);
    session.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, zeros.data());
    return b;
  });
  ProgramCache& cache = ProgramCache::shared();
  const std::size_t builds0 = cache.builds();
  const double build_s0 = cache.build_seconds();
  TimingOptions t;
  t.warmup = 1;
  t.repetitions = 3;
  t.batch = 1;
  t.clock = session.clock();
  c.device_gbps = measure_read_bandwidth(session, buffer, bytes, t).gbps;
  if (cache.builds() > builds0)
    c.build_s = (cache.build_seconds() - build_s0) / static_cast<double>(cache.builds() - builds0);
  c.seconds = seconds_since(t0);
  return c;
}

double point_seconds(const Calibration& c, const TimingOptions& timing, TimeSource clock, std::uint64_t bytes) {
  if (!(c.device_gbps > 0)) return 0;
  const double unit = static_cast<double>(bytes) / (c.device_gbps * 1e9);
  const double queues = clock == TimeSource::DeviceEvents ? 2 : 1;  // the profiling queue and the plain one
  const double reps = std::max(1u, timing.repetitions);
  const double warm = std::max(1u, timing.warmup) * queues * unit;
  // Back-to-back samples: a fixed batch, or one chosen to span at least kSampleMinUs.
  const double b2b = timing.batch ? reps * timing.batch * unit : reps * std::max(unit, kSampleMinUs * 1e-6);
  const double single = reps * queues * unit;
  return warm + b2b + single;
}

double point_passes(const TimingOptions& timing, TimeSource clock) {
  const double queues = clock == TimeSource::DeviceEvents ? 2 : 1;
  const double reps = std::max(1u, timing.repetitions);
  return std::max(1u, timing.warmup) * queues + reps * std::max(1u, timing.batch) + reps * queues;
}

double host_seconds(const Calibration& c, std::uint64_t bytes) {
  return c.host_gbps > 0 ? static_cast<double>(bytes) / (c.host_gbps * 1e9) : 0;
}

std::string describe(const RunEstimate& e) {
  const Calibration& c = e.calibration;
  std::string s = "at least " + ProgressReporter::duration(e.seconds) + ": " +
                  plural(e.points, "launch", "launches") + " at " + plural(e.sizes, "size", "sizes") + " reading " +
                  gb(e.device_bytes) + " at the " + rate(c.device_gbps) + " measured here";
  if (e.builds && c.build_s > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " of %.2f s", c.build_s);
    s += ", " + plural(e.builds, "program build", "program builds") + buf;
  }
  if (e.host_bytes > 0)
    s += ", " + gb(e.host_bytes) + " of input prepared and checked on the host at " + rate(c.host_gbps);
  return s;
}

}  // namespace clreduce
