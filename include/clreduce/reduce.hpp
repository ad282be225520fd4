// Reducer: runs a planned whole reduction (all passes, to one value on the device, one read-back)
// and times it with OpenCL profiling events.
#pragma once

#include "clreduce/opencl.hpp"
#include "data/host_data.hpp"
#include "reduce/plan.hpp"
#include "core/runtime.hpp"

#include <functional>
#include <vector>

namespace clreduce {

struct Stats {
  double min = 0, median = 0, max = 0;
};
Stats stats_of(std::vector<double> xs);

// A back-to-back sample spans at least this many timer ticks and this long, so the timer's
// resolution (NVIDIA: 1 us) and the cost of the two profiled commands that bound a sample (a few
// us each on NVIDIA's OpenCL; bench/NOTES.md, issue 4) stay under ~0.5% of it.
inline constexpr double kSampleTicks = 2000;
inline constexpr double kSampleMinUs = 1000;

struct TimingOptions {
  unsigned warmup = 2;        // whole reductions run and discarded first
  unsigned repetitions = 10;  // timed samples
  // Reductions enqueued back-to-back per sample (first start to last end, divided). 0: chosen
  // so that a sample spans kSampleTicks timer ticks and kSampleMinUs (at most 4096 units).
  unsigned batch = 0;
};

struct Timed {
  Value value;                    // the result of the last reduction
  bool consistent = true;         // every sample gave the same value
  Stats whole_us;                 // the whole reduction, all passes, back-to-back (per reduction)
  Stats first_pass_us;            // the first pass alone
  // One call at a time: one whole reduction enqueued alone and waited for, the device idle
  // before it. single_us is the host clock from the first enqueue to the end of the wait, on the
  // queue without profiling: the latency a user sees (CUDA's equivalent: the host clock around
  // the call and a stream synchronize). single_events_us is the device clock on the profiling
  // queue, from a marker enqueued just before the call to its last END, as CUDA events recorded
  // around one call; on NVIDIA's OpenCL it carries the profiling queue's own per-command cost.
  Stats single_us;
  Stats single_events_us;
  unsigned batch = 1;
  unsigned repetitions = 0;
};

struct Sampled {
  Stats whole_us;       // per unit of work (all its events), divided over the batch
  Stats first_us;       // the first event of a unit alone (from the one-at-a-time samples)
  Stats single_us;         // one unit alone: host clock of its enqueue and the wait (plain queue)
  Stats single_events_us;  // one unit alone, profiling queue: a marker before it to its last END
  unsigned batch = 1;
  unsigned repetitions = 0;
};

// Times a unit of device work (one call of enqueue_one on the queue it is given, which returns
// its events in order, or none when asked for none): warm-ups, then samples of `batch` units
// back-to-back on the profiling queue, first START to last END, then as many samples of one
// unit at a time (enqueue, wait): by the host clock on rt.plain_queue() and by a marker on
// rt.queue(). Inside a back-to-back batch only the first and last units carry events, as a
// CUDA-event measurement around a loop of calls would: profiling events cost the driver time
// per command. after_sample runs after each sample of any kind (e.g. to read and check a
// result); the device is idle when it returns.
using EnqueueUnit = std::function<std::vector<cl::Event>(const cl::CommandQueue& q, bool with_events)>;
Sampled time_enqueues(const Runtime& rt, const EnqueueUnit& enqueue_one, const TimingOptions& opt,
                      const std::function<void()>& after_sample = {});

// time_enqueues for a whole reduction: read_value runs after every sample; the value of the last
// sample is kept and `consistent` says whether every sample gave the same one.
Timed time_reduction(const Runtime& rt, const EnqueueUnit& enqueue_one,
                     const std::function<Value()>& read_value, const TimingOptions& opt);

// A read-only device buffer holding the data; throws Error when it is over the device's largest
// allocation.
cl::Buffer upload_data(Runtime& rt, const HostData& data);

class Reducer {
 public:
  // Plans, validates, builds every pass's kernel (checking the kernel's own limits) and
  // allocates the partial buffers. Throws Error on any invalid configuration.
  Reducer(Runtime& rt, const ReduceConfig& cfg, std::uint64_t n);

  const Plan& plan() const { return plan_; }
  const ReduceConfig& config() const { return cfg_; }
  std::uint64_t n() const { return n_; }

  // An input buffer holding the data (n elements of the configured type).
  cl::Buffer upload(const HostData& data) const;

  // Enqueues one whole reduction (on the runtime's queue, or on `on`, a queue of the same
  // context); returns one event per pass. Nothing waits.
  std::vector<cl::Event> enqueue(const cl::Buffer& input, bool with_events = true,
                                 const cl::CommandQueue* on = nullptr);
  // Blocking read of the final value.
  Value read_result() const;
  // One reduction, waited for: the value, and each pass's device time in microseconds.
  Value run(const cl::Buffer& input, std::vector<double>* pass_us = nullptr);
  // Warm-ups, then timed samples; reads and compares the value after every sample.
  Timed time(const cl::Buffer& input, const TimingOptions& opt);
  // The buffer whose element 0 holds the result after a whole reduction.
  const cl::Buffer& result_buffer() const;
  // single_pass: the ticket counter, or (SP_FINISH 1) the epoch in word 0 and the groups' 64-bit
  // slots from byte 16; empty for other variants. The tests check its state between launches.
  const cl::Buffer& counter_buffer() const { return counter_; }

 private:
  Runtime& rt_;
  ReduceConfig cfg_;
  std::uint64_t n_;
  Plan plan_;
  std::vector<cl::Kernel> kernels_;  // one per pass
  cl::Buffer partials_[2];
  // single_pass variants: the ticket counter (or the epoch and the groups' slots), zeroed once
  // here; each launch leaves it ready for the next, so launches may follow each other with no
  // host work between them.
  cl::Buffer counter_;
};

// Microseconds between two events' START/END (profiling) times.
double event_span_us(const cl::Event& first, const cl::Event& last);

}  // namespace clreduce
