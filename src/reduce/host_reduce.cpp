// clreduce::reduce() of host data on the default device, and the host fold of chunk values.
#include "clreduce/multi_device.hpp"
#include "clreduce/reduce.hpp"
#include "core/int_math.hpp"
#include "descriptor/common.hpp"
#include "multi_device/device_workers.hpp"
#include "multi_device/host_staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <utility>
#include <limits>
#include <map>
#include <mutex>
#include <thread>
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
// Larger ones, up to a line measured on first use (host_threads_line), by host threads kept for
// the process, a slice of at least kSliceBytes each. Why: at 4 MiB the H200's host read floats at
// 31.6 GB/s through PoCL in place (a launch costs ~100 us there) and at 32.4 GB/s with threads
// started for the call; threads already running took 102 GB/s on the H100's host (bench/results/
// 2026-12-06_h200_host_api_chunks). The ladder of ones stops at kLadderTop; past the line each
// power-of-two size class is measured on its first call's own data, as a ladder cannot foresee
// it: on the H100's host the threads read 256 MiB at 156.7 GB/s against PoCL's 101.7 but 1 GiB at
// 87.4 against 125.3 (same bench, same host).
constexpr std::uint64_t kSliceBytes = std::uint64_t{1} << 20;
constexpr std::uint64_t kLadderTop = std::uint64_t{64} << 20;

// Seconds of the fastest of 3 runs of each of two routes after one untimed run of each, the two
// taking turns (a, b, then b, a, ...): whatever one leaves behind on the host (a device's worker
// threads still spinning, caches, pages) weighs on both alike. Measured one after the other, a
// 256 MiB class on the H100's host was once given to the host threads, which then read 63.6 GB/s
// where PoCL's CPU read 125-134 in two other processes (bench/results/2026-12-07_h100_l2_axis).
template <class RunA, class RunB>
std::pair<double, double> best_of_3_alternated(const RunA& a, const RunB& b) {
  using Clock = std::chrono::steady_clock;
  const auto seconds = [](const auto& run) {
    const auto t0 = Clock::now();
    run();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  double best_a = 0, best_b = 0;
  for (int k = 0; k < 4; ++k) {
    double sa, sb;
    if (k % 2 == 0) {
      sa = seconds(a);
      sb = seconds(b);
    } else {
      sb = seconds(b);
      sa = seconds(a);
    }
    if (k == 0) continue;
    if (best_a == 0 || sa < best_a) best_a = sa;
    if (best_b == 0 || sb < best_b) best_b = sb;
  }
  return {best_a, best_b};
}

unsigned threads_for(std::uint64_t bytes) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::clamp<std::uint64_t>(bytes / kSliceBytes, 1, hw));
}

// host_fold's loop for one operator O, eight running values (so no chain of dependent operations
// holds the loop) met in order at the end. Float min and max run from +inf / -inf with
// `x < acc ? x : acc` (one minss/maxss an element, which passes a NaN x over), where std::fmin in
// the loop took 450-500 us for 1 MiB against the sum's 50-77 (a new user's trial, 2-core machine);
// a result still at the start value with no element equal to it means every element was NaN.
template <Op O, class T>
T fold_op(const T* x, std::uint64_t n) {
  constexpr bool fl = std::is_floating_point_v<T>;
  const auto step = [](T acc, T v) -> T {
    if constexpr (O == Op::Min) return v < acc ? v : acc;
    else if constexpr (O == Op::Max) return v > acc ? v : acc;
    else if constexpr (fl) return acc + v;
    else return static_cast<T>(static_cast<std::uint32_t>(acc) + static_cast<std::uint32_t>(v));
  };
  T start = T{};
  if constexpr (fl && O == Op::Min) start = std::numeric_limits<T>::infinity();
  if constexpr (fl && O == Op::Max) start = -std::numeric_limits<T>::infinity();
  if constexpr (!fl && O == Op::Min) start = std::numeric_limits<T>::max();
  if constexpr (!fl && O == Op::Max) start = std::numeric_limits<T>::lowest();
  T acc[8];
  for (T& a : acc) a = start;
  std::uint64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) acc[k] = step(acc[k], x[i + k]);
  for (int k = 0; i < n; ++i, ++k) acc[k] = step(acc[k], x[i]);
  T out = acc[0];
  for (int k = 1; k < 8; ++k) out = step(out, acc[k]);
  if constexpr (fl && O != Op::Sum)
    if (out == start && std::none_of(x, x + n, [&](T v) { return v == start; })) return std::numeric_limits<T>::quiet_NaN();
  return out;
}

// One operator over n >= 1 elements of T (fold_op).
template <class T>
T host_fold(const T* x, std::uint64_t n, Op op) {
  if (op == Op::Min) return fold_op<Op::Min>(x, n);
  if (op == Op::Max) return fold_op<Op::Max>(x, n);
  return fold_op<Op::Sum>(x, n);
}

// host_fold over `threads` contiguous slices on `pool` (the first on the calling thread), the
// slices' values met in slice order (fold_values, the chunk values' fold): the same bits for the
// same n and thread count.
template <class T>
Value threaded_fold(DeviceWorkers& pool, const T* x, std::uint64_t n, Op op, unsigned threads) {
  if (threads <= 1 || n < 2) return Value{host_fold(x, n, op)};
  const std::uint64_t per = (n + threads - 1) / threads;
  const std::size_t slices = static_cast<std::size_t>((n + per - 1) / per);
  std::vector<Value> part(slices);
  pool.run(std::vector<bool>(slices, true), [&](std::size_t i) {
    const std::uint64_t from = i * per;
    part[i] = Value{host_fold(x + from, std::min(per, n - from), op)};
  });
  return fold_values(part, op);
}

}  // namespace

Value host_threads_reduce(DeviceWorkers& pool, const void* data, ElemType type, std::uint64_t n, Op op,
                          unsigned t) {
  switch (type) {
    case ElemType::Uint: return threaded_fold(pool, static_cast<const std::uint32_t*>(data), n, op, t);
    case ElemType::Int: return threaded_fold(pool, static_cast<const std::int32_t*>(data), n, op, t);
    case ElemType::Float: return threaded_fold(pool, static_cast<const float*>(data), n, op, t);
    case ElemType::Double: return threaded_fold(pool, static_cast<const double*>(data), n, op, t);
  }
  throw Error(Param::Type, "unknown element type", "uint, int, float, double");
}

namespace {

// The host threads' line (kHostLoopBytes <= line <= kLadderTop): the largest of 2, 4, ...
// kLadderTop MiB at which a uint sum of ones by host threads took no longer than through `mr`
// (best_of_3_alternated), climbing while the threads win.
std::uint64_t host_threads_line(MultiReducer& mr, DeviceWorkers& pool) {
  const std::vector<std::uint32_t> ones(kLadderTop / 4, 1u);
  std::uint64_t line = kHostLoopBytes;
  for (std::uint64_t bytes = 2 * kHostLoopBytes; bytes <= kLadderTop; bytes *= 2) {
    const std::uint64_t n = bytes / 4;
    const auto [host, dev] = best_of_3_alternated(
        [&] { host_threads_reduce(pool, ones.data(), ElemType::Uint, n, Op::Sum, threads_for(bytes)); },
        [&] { mr.reduce(ones.data(), ElemType::Uint, n, Op::Sum); });
    if (host > dev) return line;
    line = bytes;
  }
  return line;
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
  bool named = std::getenv("CLREDUCE_DEVICE") && *std::getenv("CLREDUCE_DEVICE");
  MultiReducer& host_path() {
    if (!host) host = choose_host_reducer(device, named);
    return *host;
  }
  // Sums, minima and maxima of host data up to `line` bytes are folded by host threads (one up to
  // kHostLoopBytes): measured on the first call past kHostLoopBytes (host_threads_line), unless
  // CLREDUCE_DEVICE names the device (then that device takes everything past kHostLoopBytes).
  // Each size class past the line is decided by its first call (`classes`: true where the threads
  // were faster on that call's data): past the ladder's top, which cannot foresee it, and below
  // it too, where a rung of ones is one best-of-3 near a crossover: on the H100's host the ladder
  // stopped at 32 MiB and 64 MiB of floats then read 56.3 GB/s through PoCL against the threads'
  // 63.3 (bench/results/2026-12-07_h100_ctest_transposes_axis, hostapi2).
  std::unique_ptr<DeviceWorkers> host_threads = std::make_unique<DeviceWorkers>();
  std::optional<std::uint64_t> line;
  std::map<unsigned, bool> classes;
  std::uint64_t threads_line() {
    if (named) return kHostLoopBytes;
    if (!line) line = host_threads_line(host_path(), *host_threads);
    return *line;
  }
  // Whether host threads take a sum, min or max of `bytes` bytes: known, or none for a size
  // class (floor(log2(bytes))) past the line that no call has measured yet.
  std::optional<bool> threads_known(std::uint64_t bytes) {
    if (bytes <= kHostLoopBytes) return true;
    if (named) return false;
    if (bytes <= threads_line()) return true;
    const auto it = classes.find(log2_floor(bytes));
    if (it == classes.end()) return std::nullopt;
    return it->second;
  }
  // threads_known, measuring the call's size class on this data where it is the first of it.
  bool threads_take(const void* data, ElemType type, std::uint64_t n, Op op) {
    const std::uint64_t bytes = n * size_of(type);
    if (const std::optional<bool> known = threads_known(bytes)) return *known;
    const auto [by_threads, by_device] =
        best_of_3_alternated([&] { host_threads_reduce(*host_threads, data, type, n, op, threads_for(bytes)); },
                             [&] { host_path().reduce(data, type, n, op); });
    return classes.emplace(log2_floor(bytes), by_threads <= by_device).first->second;
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
  const DeviceInfo& to = d.host_path().devices().front();
  if (type == ElemType::Double && !to.fp64)
    throw Error(Param::Type, "double needs cl_khr_fp64, which " + to.name +
                                 " (the device host data goes to) lacks; valid types there: uint, int, float",
                "uint, int, float", to.name);
  if ((op == Op::Sum || op == Op::Min || op == Op::Max) && d.threads_take(data, type, n, op))
    return host_threads_reduce(*d.host_threads, data, type, n, op, threads_for(n * size_of(type)));
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

HostDataRoute host_data_route(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(default_device_mutex());
  DefaultDevice& d = default_device();
  HostDataRoute r;
  r.device = d.host_path().devices().front();
  r.host_threads_up_to = d.threads_line();
  const std::optional<bool> known = d.threads_known(bytes);
  r.measured = known.has_value();
  r.host_threads = known.value_or(false) ? threads_for(bytes) : 0;
  r.device_named = d.named;
  return r;
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
