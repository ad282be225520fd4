// clreduce::reduce() of host data on the default device, and the host fold of chunk values.
#include "clreduce/multi_device.hpp"
#include "clreduce/reduce.hpp"
#include "descriptor/common.hpp"
#include "multi_device/host_staging.hpp"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <mutex>
#include <type_traits>

namespace clreduce {

Value fold_values(const std::vector<Value>& values, Op op) {
  if (values.empty()) throw Error("no values to fold");
  Value acc = values.front();
  for (std::size_t i = 1; i < values.size(); ++i) {
    std::visit(
        [&](auto& a) {
          using T = std::decay_t<decltype(a)>;
          const T b = std::get<T>(values[i].v);
          if constexpr (std::is_floating_point_v<T>) {  // fmin/fmax, as the kernels: NaN passed over
            if (op == Op::Min) { a = std::fmin(a, b); return; }
            if (op == Op::Max) { a = std::fmax(a, b); return; }
          }
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

namespace {
std::unique_ptr<MultiReducer> host_reducer_on(const DeviceInfo& dev) {
  MultiDeviceOptions o;
  o.reducer.device = dev;
  return std::make_unique<MultiReducer>(std::vector<DeviceInfo>{dev}, o);
}

// GB/s of a uint sum of kHostProbeElements host elements through mr (its host path and default
// chunks), the best of 3 after one untimed run (which builds its kernels).
constexpr std::uint64_t kHostProbeElements = std::uint64_t{1} << 24;
double host_probe_gbps(MultiReducer& mr) {
  const std::vector<std::uint32_t> ones(kHostProbeElements, 1u);
  double best = 0;
  for (int k = 0; k < 4; ++k) {
    const MultiResult r = mr.reduce(ones.data(), ElemType::Uint, ones.size(), Op::Sum);
    if (k > 0) best = std::max(best, r.gbps);
  }
  return best;
}

std::unique_ptr<MultiReducer> choose_host_reducer(const DeviceInfo& dev, bool named) {
  std::vector<DeviceInfo> all;
  if (!named) try {
      all = list_devices();
    } catch (const std::exception&) {
    }
  return host_reducer_for(dev, named, all);
}
}  // namespace

std::unique_ptr<MultiReducer> host_reducer_for(const DeviceInfo& dev, bool named, const std::vector<DeviceInfo>& all) {
  std::unique_ptr<MultiReducer> own = host_reducer_on(dev);
  if (named) return own;
  const std::vector<DeviceInfo> others = host_data_candidates(dev, all);
  if (others.empty()) return own;
  const double own_gbps = host_probe_gbps(*own);
  try {
    std::unique_ptr<MultiReducer> cpu = host_reducer_on(others.front());
    if (host_probe_gbps(*cpu) > own_gbps) return cpu;
  } catch (const std::exception&) {
  }
  return own;
}

namespace {

// Small host inputs are reduced by the calling thread: any OpenCL path costs a launch of tens of
// microseconds (a 256 KiB float sum: 73 us on PoCL's CPU in place, 110 us through the H100), while
// one thread reads that from cache in a few (29.7 GB/s on the 2-core development machine; bench/
// NOTES.md, "The anchor made fair at small sizes"). 1 MiB: below every crossover measured (4-16 MiB
// there).
constexpr std::uint64_t kHostLoopBytes = std::uint64_t{1} << 20;

// One operator over n elements of T, eight running values (so no chain of dependent adds holds
// the loop) met in order at the end; the device's semantics: integer sums wrap modulo 2^32 (T is
// 32 bits), floats sum in their own precision, fmin/fmax pass a NaN over.
template <class T>
T host_fold(const T* x, std::uint64_t n, Op op) {
  const auto meet = [op](T a, T b) -> T {
    if constexpr (std::is_floating_point_v<T>) {
      if (op == Op::Min) return std::fmin(a, b);
      if (op == Op::Max) return std::fmax(a, b);
      return a + b;
    } else {
      if (op == Op::Min) return std::min(a, b);
      if (op == Op::Max) return std::max(a, b);
      return static_cast<T>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
    }
  };
  T acc[8];
  const std::uint64_t lanes = std::min<std::uint64_t>(8, n);
  for (std::uint64_t k = 0; k < lanes; ++k) acc[k] = x[k];
  std::uint64_t i = lanes;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] = meet(acc[k], x[i + k]);
  for (std::uint64_t k = 0; i < n; ++i, ++k) acc[k] = meet(acc[k], x[i]);
  T out = acc[0];
  for (std::uint64_t k = 1; k < lanes; ++k) out = meet(out, acc[k]);
  return out;
}

Value host_loop(const void* data, ElemType type, std::uint64_t n, Op op) {
  switch (type) {
    case ElemType::Uint: return Value{host_fold(static_cast<const std::uint32_t*>(data), n, op)};
    case ElemType::Int: return Value{host_fold(static_cast<const std::int32_t*>(data), n, op)};
    case ElemType::Float: return Value{host_fold(static_cast<const float*>(data), n, op)};
    case ElemType::Double: return Value{host_fold(static_cast<const double*>(data), n, op)};
  }
  throw Error(Param::Type, "unknown element type", "uint, int, float, double");
}

// The default device's context, queue and reducer, made on first use and kept for the process.
struct DefaultDevice {
  DeviceInfo device;
  cl::Context context;
  cl::CommandQueue queue;
  std::optional<Reducer> reducer;
  // Host data's path (sum, min, max and descriptors): the MultiReducer's over one device, so it
  // is staged as the multi-device path stages it (pinned on a GPU, in place on a CPU: the HostPath
  // of multi_device.hpp), chunk copies overlapped with the reductions. The device is this one, or a
  // CPU device that reads host data faster (host_data_device()). Made on first use.
  std::unique_ptr<MultiReducer> host;
  MultiReducer& host_path() {
    if (!host) host = choose_host_reducer(device, std::getenv("CLREDUCE_DEVICE") && *std::getenv("CLREDUCE_DEVICE"));
    return *host;
  }
};

DefaultDevice& default_device() {
  static DefaultDevice d = [] {
    DefaultDevice out;
    out.device = select_device({});
    with_cl_context("creating a context and queue on " + out.device.name, [&] {
      out.context = cl::Context(out.device.device);
      out.queue = cl::CommandQueue(out.context, out.device.device);
    });
    ReducerOptions opt;
    opt.device = out.device;
    out.reducer.emplace(out.queue, opt);
    return out;
  }();
  return d;
}
// Calls on the default device are serialised (one reducer serves one thread at a time).
std::mutex& default_device_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

Value reduce(const void* data, ElemType type, std::uint64_t n, Op op) {
  if (n == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");
  if (!data) throw Error(Param::Buffer, "the host data pointer is null", "a pointer to n elements");
  std::lock_guard<std::mutex> lock(default_device_mutex());
  DefaultDevice& d = default_device();
  // double where the device host data goes to has fp64, at every size (the host loop could, but a
  // call's validity should not change with its size).
  if (type == ElemType::Double && !d.host_path().devices().front().fp64)
    throw Error(Param::Type, "double needs cl_khr_fp64, which " + d.host_path().devices().front().name +
                                 " (the device host data goes to) lacks; valid types there: uint, int, float",
                "uint, int, float", d.host_path().devices().front().name);
  if ((op == Op::Sum || op == Op::Min || op == Op::Max) && n * size_of(type) <= kHostLoopBytes)
    return host_loop(data, type, n, op);
  if (op == Op::Sum || op == Op::Min || op == Op::Max) return d.host_path().reduce(data, type, n, op).value;
  // argmin, argmax and user operators: one launch per allocation-sized chunk (one chunk in practice).
  check_device_memory(n, type, d.device);
  const std::uint64_t es = size_of(type);
  const std::uint64_t chunk = chunk_elements(type, d.device);
  std::vector<Value> values;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::uint64_t first = 0; first < n; first += chunk) {
    const std::uint64_t count = std::min(chunk, n - first);
    const cl::Buffer in = with_cl_context("uploading " + std::to_string(count * es) + " bytes", [&] {
      cl::Buffer b(d.context, CL_MEM_READ_ONLY, count * es);
      d.queue.enqueueWriteBuffer(b, CL_FALSE, 0, count * es, bytes + first * es);
      return b;
    });
    values.push_back(d.reducer->reduce(in, type, count, op));
  }
  return fold_values(values, op);
}

Result reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
              const std::vector<ScalarArg>& scalars) {
  if (n == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");
  check_counts(r, inputs.size(), scalars.size());
  std::lock_guard<std::mutex> lock(default_device_mutex());
  DefaultDevice& d = default_device();
  return d.host_path().reduce(r, inputs, n, scalars).result;
}

std::vector<DeviceInfo> host_data_candidates(const DeviceInfo& dev, const std::vector<DeviceInfo>& all) {
  std::vector<DeviceInfo> out;
  if (dev.host_unified_memory) return out;
  for (const DeviceInfo& d : all)
    if (d.host_unified_memory && !d.is_gpu && !(d.device() == dev.device())) out.push_back(d);
  return out;
}

DeviceInfo host_data_device() {
  std::lock_guard<std::mutex> lock(default_device_mutex());
  return default_device().host_path().devices().front();
}

cl::Buffer upload(const cl::Context& context, const cl::CommandQueue& queue, const DeviceInfo& dev, const void* data,
                  std::uint64_t bytes) {
  if (bytes && !data) throw Error(Param::Buffer, "the host data pointer is null", "a pointer to the bytes");
  return with_cl_context("copying " + std::to_string(bytes) + " bytes of host memory to " + dev.name, [&] {
    cl::Buffer b(context, CL_MEM_READ_ONLY, std::max<std::uint64_t>(bytes, 1));
    upload_host(context, queue, dev, b, data, bytes);
    return b;
  });
}

}  // namespace clreduce
