// Timing units of device work: back-to-back batches by profiling events, and one unit at a time
// by the host clock and by a profiled marker.
#include "clreduce/timing.hpp"

#include "clreduce/error.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>

namespace clreduce {

namespace {
using Clock_ = std::chrono::steady_clock;
double us_between(Clock_::time_point a, Clock_::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

// A kernel that does a known amount of arithmetic per work-item and writes it out (so it is
// not optimised away): n dependent steps of a linear congruential generator.
constexpr const char* kProbeSource = R"CL(
__kernel void clreduce_timer_probe(__global uint* out, const uint steps) {
  uint a = (uint)get_global_id(0);
  for (uint i = 0; i < steps; ++i) a = a * 1664525u + 1013904223u;
  out[get_global_id(0)] = a;
}
)CL";

TimerCheck probe_timer(const cl::Context& context, const cl::CommandQueue& q, const DeviceInfo& dev) {
  const std::string on = " on " + dev.name;
  if (dev.timer_resolution_ns == 0)
    return {false, "the device timer" + on + " reports a resolution of 0 ns (CL_DEVICE_PROFILING_TIMER_RESOLUTION)"};
  return with_cl_context("checking the device timer" + on, [&]() -> TimerCheck {
    cl::Program p(context, kProbeSource);
    p.build(std::vector<cl::Device>{dev.device});
    cl::Kernel k(p, "clreduce_timer_probe");
    const std::size_t items = 256;
    cl::Buffer out(context, CL_MEM_WRITE_ONLY, items * sizeof(cl_uint));
    k.setArg(0, out);
    k.setArg(1, cl_uint{1});
    // One launch first: a runtime may compile the kernel for the device at its first launch
    // (PoCL does), which the host clock would count and the device's would not.
    enqueue_kernel(q, k, cl::NullRange, cl::NDRange(items), cl::NullRange);
    q.finish();
    // Grow the work until the host sees the batch take at least 2 ms (from a little: on a
    // simulator such as Oclgrind the first try already takes long enough). Then compare the two
    // clocks, up to three times: a timer that does not track the host clock never agrees, while
    // a loaded machine (the host's wait includes being scheduled again) disagrees only at times.
    cl_uint steps = 64;
    std::string disagreement;
    for (int attempt = 0, compared = 0; attempt < 16 && compared < 3; ++attempt) {
      k.setArg(1, steps);
      std::vector<cl::Event> ev(4);
      const auto t0 = Clock_::now();
      for (auto& e : ev) enqueue_kernel(q, k, cl::NullRange, cl::NDRange(items), cl::NullRange, nullptr, &e);
      q.finish();
      const double host_us = us_between(t0, Clock_::now());
      if (host_us < 2000 && steps < (1u << 28)) {
        steps *= 4;
        continue;
      }
      ++compared;
      for (const auto& e : ev)
        if (e.getProfilingInfo<CL_PROFILING_COMMAND_END>() <= e.getProfilingInfo<CL_PROFILING_COMMAND_START>())
          return {false, "the device timer" + on + " gives END == START (or earlier) for kernels that run " +
                             std::to_string(static_cast<long long>(host_us)) + " µs by the host clock"};
      const double device_us = event_span_us(ev.front(), ev.back());
      if (device_us >= host_us / 4 - 2000 && device_us <= host_us * 2 + 2000) return {true, ""};
      disagreement = "the device timer" + on + " says " + std::to_string(static_cast<long long>(device_us)) +
                     " µs for kernels the host clock saw take " + std::to_string(static_cast<long long>(host_us)) +
                     " µs (three times)";
    }
    if (disagreement.empty()) return {true, ""};
    return {false, disagreement};
  });
}
}  // namespace

std::string_view name_of(TimeSource c) { return c == TimeSource::DeviceEvents ? "device events" : "host clock"; }

TimerCheck check_device_timer(const cl::Context& context, const cl::CommandQueue& profiled, const DeviceInfo& dev) {
  static std::mutex mutex;
  static std::map<cl_device_id, TimerCheck> known;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = known.find(dev.device()); it != known.end()) return it->second;
  const TimerCheck c = probe_timer(context, profiled, dev);
  known.emplace(dev.device(), c);
  return c;
}

Stats stats_of(std::vector<double> xs) {
  Stats s;
  if (xs.empty()) return s;
  s.samples = xs;
  std::sort(xs.begin(), xs.end());
  s.min = xs.front();
  s.max = xs.back();
  const std::size_t m = xs.size() / 2;
  s.median = xs.size() % 2 ? xs[m] : 0.5 * (xs[m - 1] + xs[m]);
  const auto quantile = [&](double q) {
    const double at = q * static_cast<double>(xs.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(at);
    const std::size_t hi = std::min(lo + 1, xs.size() - 1);
    return xs[lo] + (at - static_cast<double>(lo)) * (xs[hi] - xs[lo]);
  };
  s.q1 = quantile(0.25);
  s.q3 = quantile(0.75);
  return s;
}

double event_span_us(const cl::Event& first, const cl::Event& last) {
  const cl_ulong start = first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const cl_ulong end = last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end >= start ? static_cast<double>(end - start) * 1e-3 : 0.0;
}

Sampled time_enqueues(const cl::CommandQueue& queue, const cl::CommandQueue& plain,
                      std::uint64_t timer_resolution_ns, const EnqueueUnit& enqueue_one,
                      const TimingOptions& opt, const std::function<void()>& after_sample) {
  Sampled s;
  s.clock = opt.clock;
  const bool device = opt.clock == TimeSource::DeviceEvents;
  std::vector<double> warm;  // per unit: device clock, or host clock without one
  for (unsigned w = 0; w < std::max(1u, opt.warmup); ++w) {
    if (device) {
      std::vector<cl::Event> ev = enqueue_one(queue, true);
      with_cl_context("waiting for a warm-up", [&] { queue.finish(); });
      warm.push_back(with_cl_context("reading a warm-up's events", [&] { return event_span_us(ev.front(), ev.back()); }));
    }
    const auto t0 = Clock_::now();
    enqueue_one(plain, false);  // the plain queue's first use pays its own set-up here
    with_cl_context("waiting for a warm-up", [&] { plain.finish(); });
    if (!device) warm.push_back(us_between(t0, Clock_::now()));
  }
  s.cold = static_cast<bool>(opt.before_sample);
  const auto evict = [&](const cl::CommandQueue& q) {
    if (!opt.before_sample) return;
    opt.before_sample(q);
    with_cl_context("waiting for the cache eviction", [&] { q.finish(); });
  };
  s.batch = s.cold ? 1u : opt.batch;
  if (s.batch == 0) {
    const double tick_us = device ? static_cast<double>(std::max<std::uint64_t>(1, timer_resolution_ns)) * 1e-3 : 1.0;
    const double est = std::max(*std::min_element(warm.begin(), warm.end()), tick_us / 2);
    const double span_us = device ? std::max(kSampleTicks * tick_us, kSampleMinUs) : kSampleMinUs;
    s.batch = static_cast<unsigned>(std::clamp(std::ceil(span_us / est), 1.0, 4096.0));
  }
  const unsigned singles = std::max(1u, opt.repetitions);
  std::vector<double> whole, host_whole, first;  // back-to-back samples first, then one call at a time
  const cl::CommandQueue& batch_queue = device ? queue : plain;
  const auto sampling_start = Clock_::now();
  // Whether to take another back-to-back sample after r of them (noise-based stopping).
  const auto more = [&](unsigned r) {
    if (r < singles) return true;
    if (r >= kMaxNoiseSamples) return false;
    const double elapsed_s = us_between(sampling_start, Clock_::now()) * 1e-6;
    if (elapsed_s < opt.min_time_s) return true;
    if (opt.max_noise_pct <= 0 || elapsed_s >= opt.max_time_s) return false;
    if (r % std::max(1u, r / 16) != 0) return true;  // the spread checked ~16 times per doubling
    return stats_of(device ? whole : host_whole).spread_pct() > opt.max_noise_pct;
  };
  for (unsigned r = 0; more(r); ++r) {
    evict(batch_queue);
    std::vector<cl::Event> head, tail;
    const auto t0 = Clock_::now();
    for (unsigned b = 0; b < s.batch; ++b) {
      std::vector<cl::Event> ev = enqueue_one(batch_queue, device && (b == 0 || b + 1 == s.batch));
      if (b == 0) head = ev;
      if (b + 1 == s.batch) tail = ev;
    }
    with_cl_context("waiting for a timed sample", [&] { batch_queue.finish(); });
    host_whole.push_back(us_between(t0, Clock_::now()) / s.batch);
    if (after_sample) after_sample();
    if (device)
      whole.push_back(with_cl_context("reading a sample's events", [&] { return event_span_us(head.front(), tail.back()); }) /
                      s.batch);
  }
  s.repetitions = static_cast<unsigned>(host_whole.size());
  if (opt.max_noise_pct > 0)
    s.noise_reached = stats_of(device ? whole : host_whole).spread_pct() <= opt.max_noise_pct;
  std::vector<double> wall, by_events;
  for (unsigned r = 0; r < singles; ++r) {
    // The host clock around one call on the queue without profiling.
    if (!after_sample) with_cl_context("waiting for the device to idle", [&] { queue.finish(); });
    evict(plain);
    const auto t0 = Clock_::now();
    enqueue_one(plain, false);
    with_cl_context("waiting for a single timed call", [&] { plain.finish(); });
    wall.push_back(us_between(t0, Clock_::now()));
    if (after_sample) after_sample();
    if (!device) continue;
    // The device clock: a profiled marker before one call on the profiling queue.
    evict(queue);
    cl::Event marker;
    with_cl_context("enqueueing a marker", [&] { queue.enqueueMarkerWithWaitList(nullptr, &marker); });
    std::vector<cl::Event> ev = enqueue_one(queue, true);
    with_cl_context("waiting for a single timed call", [&] { queue.finish(); });
    if (after_sample) after_sample();
    with_cl_context("reading a single call's events", [&] {
      // From the marker; from the first command where a driver gives a marker no usable time.
      const cl_ulong m = marker.getProfilingInfo<CL_PROFILING_COMMAND_START>();
      const cl_ulong k = ev.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
      by_events.push_back(m > 0 && m <= k ? event_span_us(marker, ev.back()) : event_span_us(ev.front(), ev.back()));
      first.push_back(event_span_us(ev.front(), ev.front()));
    });
  }
  s.host_whole_us = stats_of(host_whole);
  s.whole_us = device ? stats_of(whole) : s.host_whole_us;
  s.first_us = stats_of(first);
  s.single_us = stats_of(wall);
  s.single_events_us = stats_of(by_events);
  s.timer_suspect = device && device_time_suspect(s.whole_us.median, s.host_whole_us.median, s.batch);
  return s;
}

bool device_time_suspect(double device_us_per_unit, double host_us_per_unit, unsigned batch) {
  return host_us_per_unit * batch >= 1000 && device_us_per_unit < host_us_per_unit / 10;
}

}  // namespace clreduce
