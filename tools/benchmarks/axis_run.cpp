// run_axis.
#include "benchmarks/axis_run.hpp"

#include "benchmarks/transpose_bench.hpp"  // kPoisonByte
#include "clreduce/fill.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "measure/user_reference.hpp"

namespace clreduce {

AxisReport run_axis(const Session& rt, const AxisConfig& cfg, const HostData& data, std::uint64_t m,
                    std::uint64_t n, const TimingOptions& timing, const std::shared_ptr<const UserOperator>& user_op,
                    const TuningSource& tuning) {
  AxisReducerOptions opt;
  opt.params = cfg;
  opt.tuning = tuning;
  opt.user_op = user_op;
  opt.device = rt.device();
  opt.kernel_dir = rt.kernel_dir();
  AxisReducer reducer(rt.queue(), opt);
  const std::shared_ptr<const AxisLaunch> l = introspect::prepare(reducer, cfg.type, cfg.op, cfg.axis, m, n);
  if (data.type != cfg.type || data.n != m * n)
    throw Error(Param::Shape, "input data (" + std::to_string(data.n) + " " + std::string(name_of(data.type)) +
                                  ") does not match a " + std::to_string(m) + "x" + std::to_string(n) +
                                  " matrix of " + std::string(name_of(cfg.type)));
  AxisReport r;
  r.config = l->config;
  r.plan = l->plan;
  r.data_origin = data.origin;
  r.clock_note = rt.timer().reason;
  r.chosen_by = l->chosen_by;
  r.shape_class = l->shape_class;
  r.tuned = l->tuned;
  r.tuned_date = l->tuned_date;
  r.tuned_from = l->tuned_from;
  r.warnings = l->warnings;
  const std::uint64_t rs = result_size(cfg.type, cfg.op);
  const std::uint64_t outputs = l->plan.outputs();
  std::vector<unsigned char> got(outputs * rs);
  cl::Buffer in, out;  // not a structured binding: lambdas below capture them (C++17)
  with_cl_context("allocating and uploading the matrix and its outputs", [&] {
    in = cl::Buffer(rt.context(), CL_MEM_READ_ONLY, data.bytes.size());
    out = cl::Buffer(rt.context(), CL_MEM_READ_WRITE, outputs * rs);
    rt.queue().enqueueWriteBuffer(in, CL_TRUE, 0, data.bytes.size(), data.data());
  });
  with_cl_context("poisoning the output, reducing and reading back", [&] {
    enqueue_fill_bytes(rt.queue(), out, kPoisonByte, 0, outputs * rs);
    introspect::enqueue(reducer, *l, in, out, nullptr, false);
    rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, outputs * rs, got.data());
  });
  r.outputs = read_outputs(got.data(), outputs, cfg.type, cfg.op);
  r.check = check_axis(r.outputs, axis_reference_for(rt, data, m, n, cfg.axis, cfg.op, user_op.get()), cfg.axis,
                       cfg.op, l->plan.depth);
  r.timing = rt.time([&](const cl::CommandQueue& q, bool ev) { return introspect::enqueue(reducer, *l, in, out, &q, ev); }, timing);
  r.gbps = r.timing.whole_us.median > 0 ? static_cast<double>(data.bytes.size()) / (r.timing.whole_us.median * 1e3) : 0;
  return r;
}

}  // namespace clreduce
