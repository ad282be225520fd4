// One measured descriptor reduction (benchmarks/descriptor_run.hpp).
#include "benchmarks/descriptor_run.hpp"

#include "clreduce/error.hpp"

namespace clreduce {

DescriptorReport run_descriptor(const Session& session, const Reduction& r, const std::vector<ScalarData>& inputs,
                                const ReduceParams& params, const TimingOptions& timing) {
  DescriptorReport rep;
  rep.reduction = r;
  rep.n = inputs.empty() ? 0 : inputs.front().n;
  ReducerOptions opt;
  opt.params = params;
  opt.tuning.enabled = false;  // the descriptor launch takes no tuning database yet
  Reducer reducer = session.reducer(opt);
  rep.launch = reducer.prepare(r, rep.n);  // refusals before any upload
  std::vector<Input> in;
  std::vector<const ScalarData*> refs;
  for (const ScalarData& d : inputs) {
    rep.input_types.push_back(d.type);
    rep.origins.push_back(d.origin);
    rep.bytes_read += d.n * size_of(d.type);
    refs.push_back(&d);
    in.push_back(Input{with_cl_context("uploading " + std::to_string(d.bytes.size()) + " bytes", [&] {
                         return cl::Buffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d.bytes.size(),
                                           const_cast<unsigned char*>(d.bytes.data()));
                       }),
                       0});
  }
  const cl::Buffer out = with_cl_context("allocating the result", [&] {
    return cl::Buffer(session.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(r.out.bytes(), 16));
  });
  // The result of the first run, checked; then every timed run's result must be the same bits.
  auto read = [&] {
    unsigned char bytes[16] = {};
    with_cl_context("reading the result", [&] { session.queue().enqueueReadBuffer(out, CL_TRUE, 0, r.out.bytes(), bytes); });
    return Result::from_bytes(r.out, bytes);
  };
  reducer.enqueue(r, in, rep.n, out, 0, {}, &session.queue()).wait();
  rep.result = read();
  const DescriptorReference ref = descriptor_reference(r, refs, rep.n, rep.launch.depth);
  rep.reference_how = ref.how;
  rep.check = check_descriptor(rep.result, ref);
  const EnqueueUnit unit = [&](const cl::CommandQueue& q, bool) {
    return std::vector<cl::Event>{reducer.enqueue(r, in, rep.n, out, 0, {}, &q)};
  };
  unsigned changed = 0;
  rep.timing = session.time(unit, timing, [&] {
    if (std::memcmp(read().bytes.data(), rep.result.bytes.data(), r.out.bytes()) != 0) ++changed;
  });
  rep.clock = rep.timing.clock;
  // The read peak over as many bytes as the reduction reads: the first input's buffer where it
  // is the only one; else one buffer of all the inputs' bytes (the same launch overhead per byte).
  if (inputs.size() == 1) {
    rep.peak = measure_read_bandwidth(session, in.front().buffer, inputs.front().bytes.size(), timing);
    rep.peak_over = "input 0";
  } else {
    const cl::Buffer all = with_cl_context("allocating the read peak's buffer", [&] {
      cl::Buffer b(session.context(), CL_MEM_READ_WRITE, rep.bytes_read);
      const cl_uint zero = 0;
      session.queue().enqueueFillBuffer(b, zero, 0, rep.bytes_read - rep.bytes_read % 4);
      return b;
    });
    rep.peak = measure_read_bandwidth(session, all, rep.bytes_read - rep.bytes_read % 4, timing);
    rep.peak_over = "one buffer of all inputs' bytes";
  }
  if (changed) {
    rep.check.ok = false;
    rep.check.detail += "; and " + std::to_string(changed) + " timed sample(s) left other bits than the first run";
  }
  return rep;
}

}  // namespace clreduce
