// The host data anchors (host_anchors.hpp). The host sum gives each thread a contiguous slice and
// eight running sums, so that no thread waits on one chain of additions: its speed is the memory's,
// as a well-written host sum's is (NumPy's pairwise sum unrolls by eight for the same reason).
#include "measure/host_anchors.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

namespace clreduce {

namespace {
using Clock = std::chrono::steady_clock;
volatile double anchor_sink = 0;  // the sums are stored, so no pass is optimised away

template <class T, class Acc>
Acc slice_sum(const unsigned char* p, std::uint64_t count) {
  Acc s[8] = {};
  std::uint64_t i = 0;
  for (; i + 8 <= count; i += 8)
    for (int k = 0; k < 8; ++k) {
      T v;
      std::memcpy(&v, p + (i + k) * sizeof(T), sizeof(T));
      s[k] += static_cast<Acc>(v);
    }
  for (; i < count; ++i) {
    T v;
    std::memcpy(&v, p + i * sizeof(T), sizeof(T));
    s[0] += static_cast<Acc>(v);
  }
  Acc total = 0;
  for (Acc x : s) total += x;
  return total;
}

// One threaded pass; returns its seconds (the sums are kept in `sink` so no pass is optimised away).
template <class T, class Acc>
double threaded_sum(const unsigned char* data, std::uint64_t bytes, unsigned threads, double& sink) {
  const std::uint64_t n = bytes / sizeof(T);
  std::vector<Acc> part(threads, 0);
  const auto t0 = Clock::now();
  std::vector<std::thread> pool;
  const std::uint64_t per = (n + threads - 1) / threads;
  const auto slice = [&](unsigned t) {
    const std::uint64_t from = std::min(n, t * per), to = std::min(n, from + per);
    part[t] = slice_sum<T, Acc>(data + from * sizeof(T), to - from);
  };
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(slice, t);
  slice(0);  // the calling thread takes the first slice: one thread starts none
  for (std::thread& th : pool) th.join();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  for (Acc x : part) sink += static_cast<double>(x);
  return s;
}
}  // namespace

HostAnchors measure_host_anchors(const void* data, Scalar type, std::uint64_t bytes, const DeviceInfo& dev,
                                 unsigned runs, unsigned threads) {
  HostAnchors a;
  const unsigned most = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  a.device = dev.name;
  const auto* p = static_cast<const unsigned char*>(data);
  // The best over 1, 2, 4, ... threads and `most`: a small input is summed fastest by fewer
  // threads than a large one (starting a thread costs tens of microseconds), and the anchor is
  // the host at its best.
  std::vector<unsigned> counts;
  for (unsigned t = 1; t < most; t *= 2) counts.push_back(t);
  counts.push_back(most);
  double best = 0, sink = 0;
  for (unsigned t : counts)
  for (unsigned r = 0; r <= std::max(1u, runs); ++r) {
    double s = 0;
    switch (type) {
      case Scalar::F32: s = threaded_sum<float, double>(p, bytes, t, sink); a.sum_what = "f32 sum into f64"; break;
      case Scalar::F64: s = threaded_sum<double, double>(p, bytes, t, sink); a.sum_what = "f64 sum"; break;
      case Scalar::U32: s = threaded_sum<std::uint32_t, std::uint64_t>(p, bytes, t, sink); a.sum_what = "u32 sum into u64"; break;
      case Scalar::I32: s = threaded_sum<std::int32_t, std::int64_t>(p, bytes, t, sink); a.sum_what = "i32 sum into i64"; break;
      case Scalar::U64: s = threaded_sum<std::uint64_t, std::uint64_t>(p, bytes, t, sink); a.sum_what = "u64 sum"; break;
      case Scalar::I64: s = threaded_sum<std::int64_t, std::int64_t>(p, bytes, t, sink); a.sum_what = "i64 sum"; break;
      default: s = threaded_sum<std::uint64_t, std::uint64_t>(p, bytes, t, sink); a.sum_what = "bytes as u64 words"; break;
    }
    if (r > 0 && s > 0 && static_cast<double>(bytes) / s / 1e9 > best) {
      best = static_cast<double>(bytes) / s / 1e9;
      a.threads = t;
    }
  }
  a.sum_what += " over " + std::to_string(a.threads) + (a.threads == 1 ? " thread" : " threads") +
                " (the best of 1 to " + std::to_string(most) + ")";
  anchor_sink = sink;
  a.host_sum_gbps = best;
  a.write_bytes = std::min(bytes, kAnchorWriteBytes);
  with_cl_context("measuring host writes to " + dev.name, [&] {
    cl::Context ctx(dev.device);
    cl::CommandQueue q(ctx, dev.device);
    cl::Buffer dst(ctx, CL_MEM_READ_ONLY, a.write_bytes);
    cl::Buffer pinned(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, a.write_bytes);
    void* mapped = q.enqueueMapBuffer(pinned, CL_TRUE, CL_MAP_WRITE, 0, a.write_bytes);
    std::memcpy(mapped, p, a.write_bytes);
    const auto rate = [&](const void* src) {
      double top = 0;
      for (unsigned r = 0; r <= std::max(1u, runs); ++r) {
        const auto t0 = Clock::now();
        q.enqueueWriteBuffer(dst, CL_TRUE, 0, a.write_bytes, src);
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        if (r > 0 && s > 0) top = std::max(top, static_cast<double>(a.write_bytes) / s / 1e9);
      }
      return top;
    };
    a.pageable_write_gbps = rate(p);
    a.pinned_write_gbps = rate(mapped);
    q.enqueueUnmapMemObject(pinned, mapped);
    q.finish();
  });
  return a;
}

}  // namespace clreduce
