// One measured reduction: a prepared launch timed both ways (back-to-back and one call at a time,
// clreduce/timing.hpp), its value read after every sample and checked against the host
// reference. Everything a benchmark reports about one configuration is a ReduceReport.
#pragma once

#include "clreduce/introspect/reduce.hpp"
#include "clreduce/timing.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/session.hpp"

#include <functional>
#include <string>
#include <vector>

namespace clreduce {

struct Timed {
  Value value;             // the result of the last reduction
  bool consistent = true;  // every sample gave the same value (the same bits)
  Stats whole_us;          // the whole reduction, all passes, back-to-back (per reduction)
  Stats first_pass_us;     // the first pass alone
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
  TimeSource clock = TimeSource::DeviceEvents;  // what timed whole_us (the host clock where the device's cannot)
  std::string clock_note;       // with the host clock: why the device's timer was not used
  Stats host_whole_us;          // the back-to-back batches by the host clock, per reduction
  bool timer_suspect = false;   // the device clock fell far below the host clock (Sampled)
  bool noise_reached = true;    // the noise target was met (Sampled; true without one)
  double noise_target_pct = 0;  // TimingOptions::max_noise_pct (0: none)
  bool cold = false;            // the last-level cache was evicted before every sample
};

// time_enqueues on the session's two queues for a whole reduction: read_value runs after every
// sample; the value of the last sample is kept and `consistent` says whether every sample gave
// the same one.
Timed time_reduction(const Session& session, const EnqueueUnit& enqueue_one,
                     const std::function<Value()>& read_value, const TimingOptions& opt);

// What one measured reduction gave.
struct ReduceReport {
  ReduceConfig config;  // as launched (the variant, each parameter given or tuned)
  std::uint64_t n = 0;
  std::string data_origin;
  Plan plan;
  Timed timed;
  Reference reference;
  Check check;
  double gbps = 0;                   // n * sizeof(T) / median whole-reduction time
  std::uint64_t chunks = 1;          // input buffers (n over one allocation: several)
  std::uint64_t chunk_elements = 0;  // elements per chunk when chunks > 1
  std::string chosen_by;             // how the variant was chosen (Launch::chosen_by)
  std::vector<std::string> tuned;    // parameters from the tuning database ("wg=256", ...)
  std::string tuned_from;            // the database's path
  std::vector<std::string> warnings; // the launch's warnings
  bool ok() const { return check.ok && timed.consistent; }
};

// A report's fields that come from the launch and the data (the rest are the measurement's).
ReduceReport report_of(const Launch& launch, const HostData& data);

// A read-only device buffer holding the data; throws Error when it is over the device's largest
// allocation.
cl::Buffer upload_data(const Session& session, const HostData& data);

// Times a launch the reducer prepared on an uploaded input and checks its value.
ReduceReport measure_reduction(const Session& session, Reducer& reducer, const Launch& launch,
                               const cl::Buffer& input, const HostData& data, const Reference& reference,
                               const TimingOptions& timing);

// One verified reduction of `data` with `reducer` (made on the session): prepared, uploaded,
// timed and checked; data over one allocation goes through run_reduce_chunked (chunked.hpp).
// Op::User: `user_op` (the reducer's) gives the device's in-order reference; a user operator
// over one allocation is refused (ConfigError, Param::N).
ReduceReport run_reduce(const Session& session, Reducer& reducer, const HostData& data, Op op,
                        const TimingOptions& timing, const UserOperator* user_op = nullptr);

}  // namespace clreduce
