// boost_compute_reduce: Boost.Compute's reduce (boost::compute::reduce with plus<T>) beside
// clreduce on the same OpenCL device, for the CPU table of bench/NOTES.md. On a CPU device
// Boost.Compute runs one work-item per compute unit over a contiguous block (reduce_on_cpu), the
// lesson clreduce's contiguous_blocks variant follows. Times one reduce at a time by the host clock
// (the call returns the value, so it includes the read-back), median of R after a warm-up, and
// checks the value against a host sum (uint exactly; float within n * 2^-24 * sum|x|).
// Built with the project when Boost's headers are found (libboost-dev); not part of the product.
// Usage: boost_compute_reduce [N] [R] [DEVICE]   (N elements of uint and of float, default 2^24;
//        R samples, default 21; DEVICE: a substring of the device name, default the first device)
#include <boost/compute/algorithm/copy.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/functional.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace compute = boost::compute;

template <class T>
int run(const compute::device& dev, std::size_t n, int reps) {
  compute::context ctx(dev);
  compute::command_queue q(ctx, dev);
  std::vector<T> host(n);
  std::mt19937_64 rng(42);
  long double expect = 0, sum_abs = 0;
  for (auto& x : host) {
    if constexpr (std::is_integral_v<T>) x = static_cast<T>(rng() & 0xff);
    else x = std::uniform_real_distribution<float>(-1, 1)(rng);
    expect += x;
    sum_abs += std::fabs(static_cast<long double>(x));
  }
  compute::vector<T> d(n, ctx);
  compute::copy(host.begin(), host.end(), d.begin(), q);
  T result{};
  compute::reduce(d.begin(), d.end(), &result, compute::plus<T>(), q);  // warm-up (builds the program)
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    compute::reduce(d.begin(), d.end(), &result, compute::plus<T>(), q);
    q.finish();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  const double median = us[us.size() / 2];
  bool ok;
  if constexpr (std::is_integral_v<T>) ok = result == static_cast<T>(static_cast<std::uint64_t>(expect));
  else ok = std::fabs(static_cast<long double>(result) - expect) <= n * 0x1p-24L * sum_abs;
  std::cout << (std::is_integral_v<T> ? "uint " : "float") << " n=" << n << ": median " << median << " us, min "
            << us.front() << " us, " << n * sizeof(T) / (median * 1e3) << " GB/s, " << (ok ? "ok" : "WRONG") << "\n";
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t{1} << 24);
  const int reps = argc > 2 ? std::atoi(argv[2]) : 21;
  const std::string want = argc > 3 ? argv[3] : "";
  if (n == 0 || reps <= 0) {
    std::cerr << "usage: boost_compute_reduce [N >= 1] [R >= 1] [DEVICE]\n";
    return 2;
  }
  for (const auto& dev : compute::system::devices())
    if (want.empty() || dev.name().find(want) != std::string::npos) {
      std::cout << "Boost.Compute " << BOOST_COMPUTE_VERSION_MAJOR << "." << BOOST_COMPUTE_VERSION_MINOR << "."
                << BOOST_COMPUTE_VERSION_PATCH << ", reduce on " << dev.name() << " (" << dev.compute_units()
                << " compute units), host clock around each call, median of " << reps << "\n";
      return run<std::uint32_t>(dev, n, reps) | run<float>(dev, n, reps);
    }
  std::cerr << "boost_compute_reduce: no OpenCL device matches '" << want << "'\n";
  return 2;
}
