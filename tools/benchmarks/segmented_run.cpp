// run_segmented.
#include "benchmarks/segmented_run.hpp"

#include "benchmarks/transpose_bench.hpp"  // kPoisonByte
#include "clreduce/fill.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "measure/user_reference.hpp"

#include <algorithm>

namespace clreduce {

SegmentedReport run_segmented(const Session& rt, const SegmentedConfig& cfg, const HostData& data,
                              const std::vector<std::uint64_t>& offsets, const TimingOptions& timing,
                              const std::string& segments_origin,
                              const std::shared_ptr<const UserOperator>& user_op) {
  if (data.type != cfg.type)
    throw Error(Param::Type, "input data of " + std::string(name_of(data.type)) + " for a segmented reduction of " +
                                 std::string(name_of(cfg.type)));
  validate_segment_offsets(offsets, data.n);
  SegmentedReducerOptions opt;
  opt.params = cfg;
  opt.user_op = user_op;
  opt.device = rt.device();
  opt.kernel_dir = rt.kernel_dir();
  SegmentedReducer reducer(rt.queue(), opt);
  const std::uint64_t segments = offsets.size() - 1;
  const std::shared_ptr<const SegmentedLaunch> l = introspect::prepare(reducer, cfg.type, cfg.op, data.n, segments);
  SegmentedReport r;
  r.config = cfg;
  r.plan = l->plan;
  r.data_origin = data.origin;
  r.segments_origin = segments_origin;
  for (std::uint64_t s = 0; s < segments; ++s) {
    const std::uint64_t len = offsets[s + 1] - offsets[s];
    r.empty_segments += len == 0;
    r.longest_segment = std::max(r.longest_segment, len);
  }
  r.clock_note = rt.timer().reason;
  const std::uint64_t es = size_of(cfg.type);
  const std::uint64_t rs = result_size(cfg.type, cfg.op);
  std::vector<unsigned char> got(segments * rs);
  cl::Buffer in, offs, out;  // not a structured binding: lambdas below capture them (C++17)
  with_cl_context("allocating and uploading the data, its offsets and the outputs", [&] {
    // A buffer cannot be empty: n == 0 (every segment empty) gets one element nobody reads.
    in = cl::Buffer(rt.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(data.bytes.size(), es));
    offs = cl::Buffer(rt.context(), CL_MEM_READ_ONLY, offsets.size() * sizeof(std::uint64_t));
    out = cl::Buffer(rt.context(), CL_MEM_READ_WRITE, segments * rs);
    if (!data.bytes.empty()) rt.queue().enqueueWriteBuffer(in, CL_TRUE, 0, data.bytes.size(), data.data());
    rt.queue().enqueueWriteBuffer(offs, CL_TRUE, 0, offsets.size() * sizeof(std::uint64_t), offsets.data());
  });
  with_cl_context("poisoning the output, reducing and reading back", [&] {
    enqueue_fill_bytes(rt.queue(), out, kPoisonByte, 0, segments * rs);
    introspect::enqueue(reducer, *l, in, offs, out, nullptr, false);
    rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, segments * rs, got.data());
  });
  r.outputs = read_outputs(got.data(), segments, cfg.type, cfg.op);
  const SegmentedPlan plan = l->plan;
  r.check = check_segments(r.outputs, segment_reference_for(rt, data, offsets, cfg.op, user_op.get()), offsets, cfg.op,
                           [&plan](std::uint64_t len) { return plan.depth_of(len); });
  r.timing = rt.time([&](const cl::CommandQueue& q, bool ev) { return introspect::enqueue(reducer, *l, in, offs, out, &q, ev); },
                     timing);
  r.gbps = r.timing.whole_us.median > 0 ? static_cast<double>(r.bytes_read()) / (r.timing.whole_us.median * 1e3) : 0;
  return r;
}

}  // namespace clreduce
