// Timing and checking one reduction.
#include "measure/measure.hpp"

#include "measure/user_reference.hpp"

#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "measure/chunked.hpp"

#include <optional>

namespace clreduce {

Timed time_reduction(const Session& session, const EnqueueUnit& enqueue_one,
                     const std::function<Value()>& read_value, const TimingOptions& opt) {
  Timed t;
  std::optional<Value> seen;
  const Sampled s = session.time(enqueue_one, opt, [&] {
    const Value v = read_value();
    if (seen && !same_result(v, *seen)) t.consistent = false;
    seen = v;
  });
  t.value = *seen;
  t.whole_us = s.whole_us;
  t.first_pass_us = s.first_us;
  t.single_us = s.single_us;
  t.single_events_us = s.single_events_us;
  t.batch = s.batch;
  t.repetitions = s.repetitions;
  t.clock = s.clock;
  t.clock_note = session.timer().reason;
  t.host_whole_us = s.host_whole_us;
  t.timer_suspect = s.timer_suspect;
  t.noise_reached = s.noise_reached;
  t.noise_target_pct = opt.max_noise_pct;
  t.cold = s.cold;
  return t;
}

cl::Buffer upload_data(const Session& session, const HostData& data) {
  check_allocation(data.n, data.type, session.device());
  return with_cl_context("uploading " + std::to_string(data.bytes.size()) + " bytes of input", [&] {
    cl::Buffer b(session.context(), CL_MEM_READ_ONLY, data.bytes.size());
    session.queue().enqueueWriteBuffer(b, CL_TRUE, 0, data.bytes.size(), data.data());
    return b;
  });
}

ReduceReport report_of(const Launch& launch, const HostData& data) {
  ReduceReport r;
  r.config = launch.config;
  r.n = data.n;
  r.data_origin = data.origin;
  r.plan = launch.plan;
  r.chosen_by = launch.chosen_by;
  r.tuned = launch.tuned;
  r.tuned_from = launch.tuned_from;
  r.warnings = launch.warnings;
  return r;
}

ReduceReport measure_reduction(const Session& session, Reducer& reducer, const Launch& launch,
                               const cl::Buffer& input, const HostData& data, const Reference& reference,
                               const TimingOptions& timing) {
  ReduceReport r = report_of(launch, data);
  r.timed = time_reduction(
      session, [&](const cl::CommandQueue& q, bool ev) { return introspect::enqueue(reducer, launch, input, 0, &q, ev); },
      [&] { return introspect::read_result(reducer, launch); }, timing);
  r.reference = reference;
  r.check = check_result(r.timed.value, reference, r.config.op, r.plan.depth);
  if (!r.timed.consistent) r.check.detail += "; results differed between repetitions (a race?)";
  r.gbps = r.timed.whole_us.median > 0
               ? static_cast<double>(data.bytes.size()) / (r.timed.whole_us.median * 1e3)
               : 0;
  return r;
}

ReduceReport run_reduce(const Session& session, Reducer& reducer, const HostData& data, Op op,
                        const TimingOptions& timing, const UserOperator* user_op) {
  if (data.n > session.device().max_alloc_bytes / size_of(data.type)) {
    if (op == Op::User)
      throw ConfigError(Param::N, "n = " + std::to_string(data.n) + " is over one allocation of " +
                                      session.device().name + ": a user operator's chunks would be folded on the host, "
                                      "which cannot run the user's OpenCL C; use n <= " +
                                      std::to_string(session.device().max_alloc_bytes / size_of(data.type)),
                        "1.." + std::to_string(session.device().max_alloc_bytes / size_of(data.type)),
                        session.device().name);
    return run_reduce_chunked(session, reducer, data, op, timing);
  }
  const std::shared_ptr<const Launch> launch = introspect::prepare(reducer, data.type, op, data.n);
  const cl::Buffer input = upload_data(session, data);
  return measure_reduction(session, reducer, *launch, input, data, reference_for(session, data, op, user_op), timing);
}

}  // namespace clreduce
