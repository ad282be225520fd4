// Whole-reduction execution and event timing.
#include "clreduce/reduce.hpp"

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

Reducer::Reducer(Runtime& rt, const ReduceConfig& cfg, std::uint64_t n)
    : rt_(rt), cfg_(cfg), n_(n), plan_(plan_reduction(cfg, rt.device(), n)) {
  const DeviceInfo& dev = rt_.device();
  const std::size_t es = size_of(cfg_.type);
  std::uint64_t sizes[2] = {1, 1};
  for (std::size_t p = 0; p < plan_.passes.size(); ++p) {
    const PassPlan& pass = plan_.passes[p];
    cl::Kernel k = rt_.kernel(plan_.variant->file, plan_.variant->kernel, pass.options);
    const KernelLimits lim = rt_.limits(k);
    check_kernel_limits(plan_.variant->name, pass.wg, lim.max_work_group_size, lim.local_mem_bytes, dev);
    kernels_.push_back(k);
    sizes[p % 2] = std::max(sizes[p % 2], pass.groups);
  }
  with_cl_context("allocating partial-result buffers", [&] {
    for (int i = 0; i < 2; ++i)
      partials_[i] = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, sizes[i] * es);
  });
  if (plan_.variant->single_pass)
    with_cl_context("allocating and zeroing the counter and slots", [&] {
      // The ticket counter (SP_FINISH 0), or the epoch, padding to 16 bytes, and one 64-bit slot
      // per group (SP_FINISH 1).
      const std::vector<cl_ulong> zero(2 + plan_.passes.front().groups, 0);
      counter_ = cl::Buffer(rt_.context(), CL_MEM_READ_WRITE, zero.size() * sizeof(cl_ulong));
      rt_.queue().enqueueWriteBuffer(counter_, CL_TRUE, 0, zero.size() * sizeof(cl_ulong), zero.data());
    });
}

cl::Buffer Reducer::upload(const HostData& data) const {
  if (data.type != cfg_.type || data.n != n_)
    throw Error("input data (" + std::to_string(data.n) + " " + std::string(name_of(data.type)) +
                ") does not match the reducer (" + std::to_string(n_) + " " +
                std::string(name_of(cfg_.type)) + ")");
  return upload_data(rt_, data);
}

cl::Buffer upload_data(Runtime& rt, const HostData& data) {
  check_allocation(data.n, data.type, rt.device());
  return with_cl_context("uploading " + std::to_string(data.bytes.size()) + " bytes of input", [&] {
    cl::Buffer b(rt.context(), CL_MEM_READ_ONLY, data.bytes.size());
    rt.queue().enqueueWriteBuffer(b, CL_TRUE, 0, data.bytes.size(), data.data());
    return b;
  });
}

std::vector<cl::Event> Reducer::enqueue(const cl::Buffer& input, bool with_events,
                                       const cl::CommandQueue* on) {
  const cl::CommandQueue& queue = on ? *on : rt_.queue();
  return with_cl_context("enqueueing " + plan_.variant->name, [&] {
    std::vector<cl::Event> events(with_events ? plan_.passes.size() : 0);
    for (std::size_t p = 0; p < plan_.passes.size(); ++p) {
      const PassPlan& pass = plan_.passes[p];
      cl::Kernel& k = kernels_[p];
      k.setArg(0, p == 0 ? input : partials_[(p - 1) % 2]);
      k.setArg(1, partials_[p % 2]);
      k.setArg(2, static_cast<cl_ulong>(pass.count));
      if (pass.last_group_finishes) k.setArg(3, counter_);
      queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(pass.groups * pass.wg),
                                       cl::NDRange(pass.wg), nullptr,
                                       with_events ? &events[p] : nullptr);
    }
    return events;
  });
}

Value Reducer::read_result() const {
  return with_cl_context("reading the result", [&] {
    unsigned char bytes[8] = {};
    rt_.queue().enqueueReadBuffer(partials_[(plan_.passes.size() - 1) % 2], CL_TRUE, 0,
                                  size_of(cfg_.type), bytes);
    return Value::from_bytes(cfg_.type, bytes);
  });
}

Value Reducer::run(const cl::Buffer& input, std::vector<double>* pass_us) {
  std::vector<cl::Event> ev = enqueue(input);
  Value v = read_result();  // blocking read on the in-order queue: every pass has finished
  if (pass_us) {
    pass_us->clear();
    for (auto& e : ev) pass_us->push_back(event_span_us(e, e));
  }
  return v;
}

Sampled time_enqueues(const Runtime& rt, const EnqueueUnit& enqueue_one, const TimingOptions& opt,
                      const std::function<void()>& after_sample) {
  const cl::CommandQueue& queue = rt.queue();
  const cl::CommandQueue& plain = rt.plain_queue();
  const std::uint64_t timer_resolution_ns = rt.device().timer_resolution_ns;
  Sampled s;
  std::vector<double> warm;
  for (unsigned w = 0; w < std::max(1u, opt.warmup); ++w) {
    std::vector<cl::Event> ev = enqueue_one(queue, true);
    with_cl_context("waiting for a warm-up", [&] { queue.finish(); });
    enqueue_one(plain, false);  // the plain queue's first use pays its own set-up here
    with_cl_context("waiting for a warm-up", [&] { plain.finish(); });
    warm.push_back(event_span_us(ev.front(), ev.back()));
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
    whole.push_back(event_span_us(head.front(), tail.back()) / s.batch);
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
    // From the marker; from the first command where a driver gives a marker no usable time.
    const cl_ulong m = marker.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong k = ev.front().getProfilingInfo<CL_PROFILING_COMMAND_START>();
    by_events.push_back(m > 0 && m <= k ? event_span_us(marker, ev.back()) : event_span_us(ev.front(), ev.back()));
    first.push_back(event_span_us(ev.front(), ev.front()));
  }
  s.whole_us = stats_of(whole);
  s.first_us = stats_of(first);
  s.single_us = stats_of(wall);
  s.single_events_us = stats_of(by_events);
  return s;
}

Timed Reducer::time(const cl::Buffer& input, const TimingOptions& opt) {
  return time_reduction(
      rt_, [&](const cl::CommandQueue& q, bool ev) { return enqueue(input, ev, &q); },
      [&] { return read_result(); }, opt);
}

const cl::Buffer& Reducer::result_buffer() const {
  return partials_[(plan_.passes.size() - 1) % 2];
}

Timed time_reduction(const Runtime& rt, const EnqueueUnit& enqueue_one,
                     const std::function<Value()>& read_value, const TimingOptions& opt) {
  Timed t;
  std::optional<Value> seen;
  const Sampled s = time_enqueues(rt, enqueue_one, opt, [&] {
    const Value v = read_value();
    if (seen && !(v == *seen)) t.consistent = false;
    seen = v;
  });
  t.value = *seen;
  t.whole_us = s.whole_us;
  t.first_pass_us = s.first_us;
  t.single_us = s.single_us;
  t.single_events_us = s.single_events_us;
  t.batch = s.batch;
  t.repetitions = s.repetitions;
  return t;
}

}  // namespace clreduce
