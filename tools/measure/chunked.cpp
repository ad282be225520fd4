// Chunked reductions.
#include "measure/chunked.hpp"

#include "clreduce/error.hpp"

#include <algorithm>

namespace clreduce {

Value fold_values(const std::vector<Value>& values, Op op) {
  if (values.empty()) throw Error("no values to fold");
  Value acc = values.front();
  for (std::size_t i = 1; i < values.size(); ++i) {
    std::visit(
        [&](auto& a) {
          using T = std::decay_t<decltype(a)>;
          const T b = std::get<T>(values[i].v);
          if (op == Op::Min) a = std::min(a, b);
          else if (op == Op::Max) a = std::max(a, b);
          else if constexpr (std::is_integral_v<T>)  // wraps modulo 2^32, as on the device
            a = static_cast<T>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
          else
            a = a + b;
        },
        acc.v);
  }
  return acc;
}

ReduceReport run_reduce_chunked(Runtime& rt, const ReduceConfig& cfg, const HostData& data,
                                const TimingOptions& timing) {
  const DeviceInfo& dev = rt.device();
  const std::uint64_t es = size_of(cfg.type);
  const std::uint64_t chunk = chunk_elements(cfg.type, dev);
  const std::uint64_t count = (data.n + chunk - 1) / chunk;
  check_device_memory(data.n, cfg.type, dev);
  Reducer whole(rt, cfg, std::min(chunk, data.n));
  std::optional<Reducer> tail;
  if (data.n % chunk != 0 && count > 1) tail.emplace(rt, cfg, data.n % chunk);

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
      Reducer& r = (i + 1 == count && tail) ? *tail : whole;
      const std::vector<cl::Event> e = r.enqueue(inputs[i], with_events && i == 0, &q);
      if (!e.empty()) ev.push_back(e.front());
      cl::Event copied;
      with_cl_context("copying chunk " + std::to_string(i + 1) + "'s value", [&] {
        q.enqueueCopyBuffer(r.result_buffer(), results, 0, i * es, es, nullptr,
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
    for (std::uint64_t i = 0; i < count; ++i) values.push_back(Value::from_bytes(cfg.type, &bytes[i * es]));
    return fold_values(values, cfg.op);
  };

  ReduceReport r;
  r.config = cfg;
  r.n = data.n;
  r.data_origin = data.origin;
  r.plan = whole.plan();
  r.plan.depth += static_cast<unsigned>(std::min<std::uint64_t>(count, 1u << 30));  // the host fold
  r.chunks = count;
  r.chunk_elements = chunk;
  r.timed = time_reduction(rt, enqueue_all, read_value, timing);
  r.reference = host_reference(data, cfg.op);
  r.check = check_result(r.timed.value, r.reference, cfg.op, r.plan.depth);
  if (!r.timed.consistent) r.check.detail += "; results differed between repetitions (a race?)";
  r.gbps = r.timed.whole_us.median > 0
               ? static_cast<double>(data.bytes.size()) / (r.timed.whole_us.median * 1e3)
               : 0;
  return r;
}

}  // namespace clreduce
