// The host's std::reduce over the same data, one contiguous block per thread.
#include "measure/host_reduce.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <thread>
#include <vector>

namespace clreduce {

namespace {

template <class T>
T fold(Op op, T a, T b) {
  switch (op) {
    case Op::Sum: return a + b;
    case Op::Min: return std::min(a, b);
    case Op::Max: return std::max(a, b);
    case Op::ArgMin:
    case Op::ArgMax:
    case Op::User: break;  // no host std::reduce peer for these (measure_host_reduce is not run)
  }
  return a;
}

template <class T>
T identity_of(Op op) {
  switch (op) {
    case Op::Sum: return T(0);
    case Op::Min: return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                              : std::numeric_limits<T>::max();
    case Op::Max: return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                              : std::numeric_limits<T>::lowest();
    case Op::ArgMin:
    case Op::ArgMax:
    case Op::User: break;
  }
  return T(0);
}

// One reduction on `threads` threads; the result goes to `sink` so that it cannot be optimised away.
template <class T>
double timed_reduce(const T* x, std::uint64_t n, Op op, unsigned threads, volatile T& sink) {
  std::vector<T> part(threads, identity_of<T>(op));
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  const std::uint64_t per = (n + threads - 1) / threads;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const std::uint64_t a = std::min<std::uint64_t>(n, t * per), b = std::min<std::uint64_t>(n, a + per);
      part[t] = std::reduce(x + a, x + b, identity_of<T>(op), [op](T u, T v) { return fold(op, u, v); });
    });
  for (auto& th : pool) th.join();
  T r = identity_of<T>(op);
  for (T p : part) r = fold(op, r, p);
  const auto end = std::chrono::steady_clock::now();
  sink = r;
  return std::chrono::duration<double, std::micro>(end - start).count();
}

template <class T>
Stats sample(const HostData& data, Op op, unsigned threads, const TimingOptions& timing) {
  volatile T sink{};
  const T* x = data.as<T>();
  for (unsigned i = 0; i < std::max(1u, timing.warmup); ++i) timed_reduce(x, data.n, op, threads, sink);
  std::vector<double> us;
  for (unsigned i = 0; i < std::max(1u, timing.repetitions); ++i) us.push_back(timed_reduce(x, data.n, op, threads, sink));
  return stats_of(us);
}

}  // namespace

HostReduceRate measure_host_reduce(const HostData& data, Op op, unsigned threads, const TimingOptions& timing) {
  HostReduceRate r;
  r.threads = std::max(1u, threads);
  switch (data.type) {
    case ElemType::Uint: r.us = sample<std::uint32_t>(data, op, r.threads, timing); break;
    case ElemType::Int:  // sums on the uint bits (wrapping, defined), min and max signed
      r.us = op == Op::Sum ? sample<std::uint32_t>(data, op, r.threads, timing)
                           : sample<std::int32_t>(data, op, r.threads, timing);
      break;
    case ElemType::Float: r.us = sample<float>(data, op, r.threads, timing); break;
    case ElemType::Double: r.us = sample<double>(data, op, r.threads, timing); break;
  }
  r.gbps = r.us.median > 0 ? static_cast<double>(data.bytes.size()) / (r.us.median * 1e3) : 0;
  return r;
}

}  // namespace clreduce
