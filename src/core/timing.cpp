// Timing units of device work: back-to-back batches by profiling events, and one unit at a time
// by the host clock and by a profiled marker.
#include "clreduce/timing.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace clreduce {

Stats stats_of(std::vector<double> xs) {
  Stats s;
  if (xs.empty()) return s;
  std::sort(xs.begin(), xs.end());
  s.min = xs.front();
  s.max = xs.back();
  const std::size_t m = xs.size() / 2;
  s.median = xs.size() % 2 ? xs[m] : 0.5 * (xs[m - 1] + xs[m]);
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
  std::vector<double> warm;
  for (unsigned w = 0; w < std::max(1u, opt.warmup); ++w) {
    std::vector<cl::Event> ev = enqueue_one(queue, true);
    with_cl_context("waiting for a warm-up", [&] { queue.finish(); });
    enqueue_one(plain, false);  // the plain queue's first use pays its own set-up here
    with_cl_context("waiting for a warm-up", [&] { plain.finish(); });
    warm.push_back(with_cl_context("reading a warm-up's events", [&] { return event_span_us(ev.front(), ev.back()); }));
  }
  s.batch = opt.batch;
  if (s.batch == 0) {
    const double tick_us = static_cast<double>(std::max<std::uint64_t>(1, timer_resolution_ns)) * 1e-3;
    const double est = std::max(*std::min_element(warm.begin(), warm.end()), tick_us / 2);
    const double span_us = std::max(kSampleTicks * tick_us, kSampleMinUs);
    s.batch = static_cast<unsigned>(std::clamp(std::ceil(span_us / est), 1.0, 4096.0));
  }
  s.repetitions = std::max(1u, opt.repetitions);
  std::vector<double> whole, first;  // back-to-back samples first, then one call at a time
  for (unsigned r = 0; r < s.repetitions; ++r) {
    std::vector<cl::Event> head, tail;
    for (unsigned b = 0; b < s.batch; ++b) {
      std::vector<cl::Event> ev = enqueue_one(queue, b == 0 || b + 1 == s.batch);
      if (b == 0) head = ev;
      if (b + 1 == s.batch) tail = ev;
    }
    with_cl_context("waiting for a timed sample", [&] { queue.finish(); });
    if (after_sample) after_sample();
    whole.push_back(with_cl_context("reading a sample's events", [&] { return event_span_us(head.front(), tail.back()); }) /
                    s.batch);
  }
  std::vector<double> wall, by_events;
  for (unsigned r = 0; r < s.repetitions; ++r) {
    // The host clock around one call on the queue without profiling.
    if (!after_sample) with_cl_context("waiting for the device to idle", [&] { queue.finish(); });
    const auto t0 = std::chrono::steady_clock::now();
    enqueue_one(plain, false);
    with_cl_context("waiting for a single timed call", [&] { plain.finish(); });
    const auto t1 = std::chrono::steady_clock::now();
    wall.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    if (after_sample) after_sample();
    // The device clock: a profiled marker before one call on the profiling queue.
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
  s.whole_us = stats_of(whole);
  s.first_us = stats_of(first);
  s.single_us = stats_of(wall);
  s.single_events_us = stats_of(by_events);
  return s;
}

}  // namespace clreduce
