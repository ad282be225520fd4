// Chunked reductions.
#include "measure/chunked.hpp"

#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"

#include <algorithm>

namespace clreduce {

ReduceReport run_reduce_chunked(const Session& rt, Reducer& reducer, const HostData& data, Op op,
                                const TimingOptions& timing) {
  const DeviceInfo& dev = rt.device();
  const ElemType type = data.type;
  const std::uint64_t es = size_of(type);
  const std::uint64_t chunk = chunk_elements(type, dev);
  const std::uint64_t count = (data.n + chunk - 1) / chunk;
  check_device_memory(data.n, type, dev);
  const std::shared_ptr<const Launch> whole = introspect::prepare(reducer, type, op, std::min(chunk, data.n));
  std::shared_ptr<const Launch> tail;
  if (data.n % chunk != 0 && count > 1) tail = introspect::prepare(reducer, type, op, data.n % chunk);

  std::vector<cl::Buffer> inputs;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t first = i * chunk, elems = std::min(chunk, data.n - first);
    inputs.push_back(with_cl_context("uploading input chunk " + std::to_string(i + 1) + " of " +
                                         std::to_string(count) + " (" + std::to_string(elems * es) +
                                         " bytes)",
                                     [&] {
                                       cl::Buffer b(rt.context(), CL_MEM_READ_ONLY, elems * es);
                                       rt.queue().enqueueWriteBuffer(b, CL_TRUE, 0, elems * es,
                                                                     data.bytes.data() + first * es);
                                       return b;
                                     }));
  }
  const cl::Buffer results = with_cl_context("allocating the chunks' results", [&] {
    return cl::Buffer(rt.context(), CL_MEM_READ_WRITE, count * es);
  });

  // One unit: every chunk reduced and its value copied out, in order on the in-order queue.
  const EnqueueUnit enqueue_all = [&](const cl::CommandQueue& q, bool with_events) {
    std::vector<cl::Event> ev;
    for (std::uint64_t i = 0; i < count; ++i) {
      const Launch& l = (i + 1 == count && tail) ? *tail : *whole;
      const std::vector<cl::Event> e = introspect::enqueue(reducer, l, inputs[i], 0, &q, with_events && i == 0);
      if (!e.empty()) ev.push_back(e.front());
      cl::Event copied;
      with_cl_context("copying chunk " + std::to_string(i + 1) + "'s value", [&] {
        q.enqueueCopyBuffer(introspect::result_buffer(reducer, l), results, 0, i * es, es, nullptr,
                                     with_events && i + 1 == count ? &copied : nullptr);
      });
      if (with_events && i + 1 == count) ev.push_back(copied);
    }
    return ev;
  };
  const auto read_value = [&] {
    std::vector<unsigned char> bytes(count * es);
    with_cl_context("reading the chunks' values", [&] {
      rt.queue().enqueueReadBuffer(results, CL_TRUE, 0, bytes.size(), bytes.data());
    });
    std::vector<Value> values;
    for (std::uint64_t i = 0; i < count; ++i) values.push_back(Value::from_bytes(type, &bytes[i * es]));
    return fold_values(values, op);
  };

  ReduceReport r = report_of(*whole, data);
  r.plan.depth += static_cast<unsigned>(std::min<std::uint64_t>(count, 1u << 30));  // the host fold
  r.chunks = count;
  r.chunk_elements = chunk;
  r.timed = time_reduction(rt, enqueue_all, read_value, timing);
  r.reference = host_reference(data, op);
  r.check = check_result(r.timed.value, r.reference, op, r.plan.depth);
  if (!r.timed.consistent) r.check.detail += "; results differed between repetitions (a race?)";
  r.gbps = r.timed.whole_us.median > 0
               ? static_cast<double>(data.bytes.size()) / (r.timed.whole_us.median * 1e3)
               : 0;
  return r;
}

}  // namespace clreduce
