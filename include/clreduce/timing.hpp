// Timing device work the way clreduce measures its kernels: warm-ups, then samples of a batch of
// units enqueued back-to-back (first START to last END by profiling events, divided by the batch),
// then the same number of samples of one unit at a time (the host clock around enqueue and wait
// on a queue without profiling, and the device clock from a profiled marker). All times in
// microseconds. Usable for any unit of work an application enqueues, not only clreduce's.
// Thread-safety: the functions keep no state; one timing at a time per queue (a second one's
// commands would land inside the first one's samples).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/opencl.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

struct Stats {
  double min = 0, median = 0, max = 0;
  // The first and third quartiles (linear interpolation between order statistics, as numpy's
  // default percentile), and every sample in the order it was taken (µs, like the rest).
  double q1 = 0, q3 = 0;
  std::vector<double> samples;
  // The relative spread: the interquartile range over the median, in percent (0 without samples
  // or with a median of 0).
  double spread_pct() const { return median > 0 ? 100.0 * (q3 - q1) / median : 0; }
};
Stats stats_of(std::vector<double> xs);  // all 0 for no samples; keeps xs as the samples

// A back-to-back sample spans at least this many timer ticks and this long, so the timer's
// resolution (NVIDIA: 1 us) and the cost of the two profiled commands that bound a sample (a few
// us each on NVIDIA's OpenCL; bench/NOTES.md, "the whole reduction at least as fast as CUB") stay under ~0.5% of it.
inline constexpr double kSampleTicks = 2000;
inline constexpr double kSampleMinUs = 1000;

// What times the samples: the device's profiling events (the default), or, where the device's
// timer cannot time (check_device_timer), the host clock around enqueue and wait.
enum class TimeSource { DeviceEvents, HostClock };
std::string_view name_of(TimeSource c);  // "device events", "host clock"

// Whether a device's profiling timer can time: it reports a resolution, a kernel that does work
// ends after it starts, and the time it gives for a few kernels agrees with the host clock around
// them (between a quarter and twice it, where the host saw at least 2 ms, in one of three tries).
// Runs a small kernel of its own
// on `profiled` (a queue with CL_QUEUE_PROFILING_ENABLE) a few times; the answer for a device is
// kept for the process. Rusticl's llvmpipe: resolution 0 and END == START, so not usable.
struct TimerCheck {
  bool usable = true;
  std::string reason;  // why not, in one sentence naming the device
};
TimerCheck check_device_timer(const cl::Context& context, const cl::CommandQueue& profiled, const DeviceInfo& dev);

struct TimingOptions {
  unsigned warmup = 2;        // units run and discarded first (at least 1 is run)
  unsigned repetitions = 10;  // timed samples of each kind
  // Units enqueued back-to-back per sample. 0: chosen so that a sample spans kSampleTicks timer
  // ticks and kSampleMinUs (at most 4096 units).
  unsigned batch = 0;
  TimeSource clock = TimeSource::DeviceEvents;
  // Noise-based stopping of the back-to-back samples: with max_noise_pct > 0, sampling goes on
  // after `repetitions` samples while the relative spread (Stats::spread_pct) of the samples so
  // far is above max_noise_pct, until max_time_s of sampling (seconds, from the first timed
  // sample). Whatever max_noise_pct, sampling lasts at least min_time_s. The one-call samples
  // keep `repetitions` (as many as given). At most kMaxNoiseSamples back-to-back samples.
  double max_noise_pct = 0;
  double min_time_s = 0;
  double max_time_s = 0;
  // Cold cache: run before every sample (back-to-back and one call) on the queue the sample runs
  // on, outside the timed span, e.g. a write over a buffer larger than the last-level cache. Set:
  // every back-to-back sample is one unit (a batch would run warm after its first unit).
  std::function<void(const cl::CommandQueue&)> before_sample;
};
inline constexpr unsigned kMaxNoiseSamples = 1000000;

struct Sampled {
  Stats whole_us;          // per unit (all its events), back-to-back, divided over the batch
  Stats first_us;          // the first event of a unit alone (from the one-at-a-time samples)
  Stats single_us;         // one unit alone: host clock of its enqueue and the wait (plain queue)
  Stats single_events_us;  // one unit alone, profiling queue: a marker before it to its last END
  unsigned batch = 1;
  unsigned repetitions = 0;
  TimeSource clock = TimeSource::DeviceEvents;
  // The back-to-back batches by the host clock too (first enqueue to the end of the wait), per
  // unit: what the device clock's figure must not fall far below. With TimeSource::HostClock whole_us is
  // this; first_us and single_events_us are then 0 (there is no device clock to read).
  Stats host_whole_us;
  // The device clock gave a back-to-back time under a tenth of the host clock's for batches the
  // host saw take 1 ms or more: a figure no device can reach, so the timer is not trusted.
  bool timer_suspect = false;
  // With TimingOptions::max_noise_pct: whether the back-to-back samples' spread fell to it
  // before max_time_s (true without a noise target).
  bool noise_reached = true;
  bool cold = false;  // before_sample ran before every sample
};

// Enqueues one unit of work on `q` and returns its commands' events in order, or none when
// with_events is false (the caller asked for no profiling of this unit).
using EnqueueUnit = std::function<std::vector<cl::Event>(const cl::CommandQueue& q, bool with_events)>;

// Times enqueue_one: `profiled` must have CL_QUEUE_PROFILING_ENABLE; `plain` is an in-order queue
// of the same context and device without profiling (NVIDIA's OpenCL adds microseconds to every
// command of a profiling queue). Inside a back-to-back batch only the first and last units carry
// events, as CUDA events recorded around a loop would. With opt.clock == TimeSource::HostClock nothing is
// profiled: batches run on `plain`, timed by the host clock. after_sample runs after each sample
// of any kind with the device idle (to read and check a result). Throws Error on any OpenCL
// failure.
Sampled time_enqueues(const cl::CommandQueue& profiled, const cl::CommandQueue& plain,
                      std::uint64_t timer_resolution_ns, const EnqueueUnit& enqueue_one,
                      const TimingOptions& opt, const std::function<void()>& after_sample = {});

// Whether a back-to-back figure by the device clock is one no device can reach: the batch of
// `batch` units took the host host_us_per_unit * batch µs (first enqueue to the end of the wait),
// at least 1 ms, and the device clock says under a tenth of that. (Not closer: a driver may hold
// enqueued commands until the wait and then run them faster than the host enqueued them.) The
// GB/s of such a figure is flagged, never printed as measured (Sampled::timer_suspect).
bool device_time_suspect(double device_us_per_unit, double host_us_per_unit, unsigned batch);

// Microseconds from first's START to last's END (profiling times); 0 if END is before START.
double event_span_us(const cl::Event& first, const cl::Event& last);

}  // namespace clreduce
