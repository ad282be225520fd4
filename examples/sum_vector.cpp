// The smallest use of clreduce: the sum of a std::vector<float> on the default device.
#include <clreduce/clreduce.hpp>

#include <cstdio>
#include <vector>

int main() {
  try {
    // 3 million quarters: every partial sum is a multiple of 0.25 below 2^24, so the float sum is
    // exact in any order and the check can be ==.
    const std::vector<float> data(3'000'000, 0.25f);
    const float sum = clreduce::reduce(data, clreduce::Op::Sum);
    const clreduce::KernelDir kernels = clreduce::find_kernel_dir();
    std::printf("sum of %zu floats: %.2f (expected 750000.00); kernels: %s (%s)\n", data.size(), sum,
                kernels.path.c_str(), kernels.origin.c_str());
    return sum == 750000.0f ? 0 : 1;
  } catch (const clreduce::Error& e) {
    std::fprintf(stderr, "sum_vector: %s\n", e.what());
    return 2;
  }
}
