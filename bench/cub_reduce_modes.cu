// Anchor for exact summation (bench/gpu_exact.sh): CUB's DeviceReduce::Sum of f32 and f64 in its
// determinism modes (CCCL 3.1's environment API): run_to_run (its default, the two-pass reduction)
// and gpu_to_gpu (the reproducible one, the same bits on every NVIDIA GPU), and not_guaranteed for
// reference. Inputs uniform in [-1, 1) (a hash of the index), as clreduce's generated data are.
// n as an int: gpu_to_gpu takes 4-byte offsets (a static assertion of CCCL 3.1), so 2^30 at most.
// Each size: warm-up calls, then R calls back to back between two CUDA events (the mean per call),
// and the result's bits in hex. Build against CCCL 3.1 (CuPy's copy on the GPU machine):
//   nvcc -O3 -std=c++17 -arch=sm_90 -I$CCCL/libcudacxx -I$CCCL/cub -I$CCCL/thrust \
//        bench/cub_reduce_modes.cu -o cub_reduce_modes
// Usage: cub_reduce_modes f32|f64 LOG2N...
#include <cub/device/device_reduce.cuh>
#include <cuda/std/execution>

#include "cub_common.cuh"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

template <class T>
__global__ void fill(T* p, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] = T(uniform_at(i));
}

template <class T, class Env>
double time_mode(const T* in, T* out, size_t n, Env env) {
  for (int w = 0; w < 5; ++w) CK(cub::DeviceReduce::Sum(in, out, static_cast<int>(n), env));
  CK(cudaDeviceSynchronize());
  const int reps = n >= (size_t(1) << 28) ? 50 : 200;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) CK(cub::DeviceReduce::Sum(in, out, static_cast<int>(n), env));
  cudaEventRecord(b);
  CK(cudaEventSynchronize(b));
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms * 1e3 / reps;
}

template <class T>
std::string hex_of(const T* out) {
  T v;
  CK(cudaMemcpy(&v, out, sizeof(T), cudaMemcpyDeviceToHost));
  char buf[64];
  if (sizeof(T) == 8) {
    unsigned long long u;
    std::memcpy(&u, &v, 8);
    std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", double(v), u);
  } else {
    unsigned u;
    std::memcpy(&u, &v, 4);
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", double(v), u);
  }
  return buf;
}

template <class T>
void run(const char* type, int lg) {
  const size_t n = size_t(1) << lg;
  T *in = nullptr, *out = nullptr;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, sizeof(T)));
  fill<<<(n + 255) / 256, 256>>>(in, n);
  CK(cudaDeviceSynchronize());
  namespace ex = cuda::execution;
  const double bytes = double(n) * sizeof(T);
  const double rr = time_mode(in, out, n, ex::require(ex::determinism::run_to_run));
  const std::string rr_bits = hex_of(out);
  const double g2g = time_mode(in, out, n, ex::require(ex::determinism::gpu_to_gpu));
  const std::string g2g_bits = hex_of(out);
  const double ng = time_mode(in, out, n, ex::require(ex::determinism::not_guaranteed));
  std::printf("cub %s 2^%d run_to_run %.2f us %.0f GB/s %s | gpu_to_gpu %.2f us %.0f GB/s %s | not_guaranteed %.2f us\n",
              type, lg, rr, bytes / rr / 1e3, rr_bits.c_str(), g2g, bytes / g2g / 1e3, g2g_bits.c_str(), ng);
  std::fflush(stdout);
  cudaFree(in);
  cudaFree(out);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::printf("usage: %s f32|f64 LOG2N...\n", argv[0]);
    return 2;
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs, CCCL %d.%d.%d\n", p.name, p.multiProcessorCount, CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION,
              CCCL_PATCH_VERSION);
  const bool f64 = std::strcmp(argv[1], "f64") == 0;
  for (int k = 2; k < argc; ++k) {
    const int lg = std::atoi(argv[k]);
    if (f64) run<double>("f64", lg);
    else run<float>("f32", lg);
  }
}
