// CUB beside the reduction descriptors' table (bench/gpu_descriptors.sh, PEERS=1): the whole-array
// reductions CUB's DeviceReduce offers for the built-ins, over inputs of BYTES bytes each (default
// 256 MiB, as the script's): Sum, Min, Max and ArgMax of float; TransformReduce of a half-precision
// sum into float (clreduce's f16 sum), of float squares (sumsq, l2 before its root) and of float
// absolute values (l1). Each: warm-up calls, then R calls back to back between two CUDA events
// (the mean per call: the method of bench/cub_reduce_modes.cu), temporary storage allocated once
// outside the timing. One CSV row each, as descriptor_peers.py writes torch's:
// reduction,dtype,n,cub call,us,GB/s of the input's bytes.
// Build on the GPU machine (CCCL from CuPy's site-packages, as bench/gpu_exact.sh does):
//   nvcc -O3 -std=c++17 -arch=sm_90 -I$CCCL/libcudacxx -I$CCCL/cub -I$CCCL/thrust \
//        bench/cub_descriptor_peers.cu -o cub_descriptor_peers
// Usage: cub_descriptor_peers [BYTES]
#include <cub/device/device_reduce.cuh>
#include <cuda_fp16.h>

#include "cub_common.cuh"

#include <cstdio>
#include <cstdlib>

template <class T>
__global__ void fill(T* p, size_t n) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] = T(float(uniform_at(i)));
}

struct HalfToFloat {
  __device__ float operator()(__half h) const { return __half2float(h); }
};
struct Square {
  __device__ float operator()(float x) const { return x * x; }
};
struct Abs {
  __device__ float operator()(float x) const { return fabsf(x); }
};

// One row: `call(temp, bytes)` is the CUB call in its two-phase form (null temp: the size query).
template <class Call>
void row(const char* reduction, const char* dtype, size_t n, size_t elem_bytes, const char* what, Call call) {
  size_t temp_bytes = 0;
  CK(call(nullptr, temp_bytes));
  void* temp = nullptr;
  CK(cudaMalloc(&temp, temp_bytes > 0 ? temp_bytes : 1));
  for (int w = 0; w < 5; ++w) CK(call(temp, temp_bytes));
  CK(cudaDeviceSynchronize());
  const int reps = 100;
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int r = 0; r < reps; ++r) CK(call(temp, temp_bytes));
  cudaEventRecord(b);
  CK(cudaEventSynchronize(b));
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  const double us = ms * 1e3 / reps;
  std::printf("%s,%s,%zu,%s,%.2f,%.1f\n", reduction, dtype, n, what, us, double(n) * elem_bytes / us / 1e3);
  std::fflush(stdout);
  cudaFree(temp);
}

int main(int argc, char** argv) {
  const size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t(1) << 28);
  const size_t nf = bytes / 4, nh = bytes / 2;
  const int inf = static_cast<int>(nf), inh = static_cast<int>(nh);
  float* xf = nullptr;
  __half* xh = nullptr;
  float* out = nullptr;
  cub::KeyValuePair<int, float>* kv = nullptr;
  CK(cudaMalloc(&xf, nf * 4));
  CK(cudaMalloc(&xh, nh * 2));
  CK(cudaMalloc(&out, sizeof(float)));
  CK(cudaMalloc(&kv, sizeof(*kv)));
  fill<<<(nf + 255) / 256, 256>>>(xf, nf);
  fill<<<(nh + 255) / 256, 256>>>(xh, nh);
  CK(cudaDeviceSynchronize());
  std::printf("reduction,dtype,n,cub_call,cub_us,GB_per_s\n");
  row("sum", "float32", nf, 4, "DeviceReduce::Sum",
      [&](void* t, size_t& s) { return cub::DeviceReduce::Sum(t, s, xf, out, inf); });
  row("min", "float32", nf, 4, "DeviceReduce::Min",
      [&](void* t, size_t& s) { return cub::DeviceReduce::Min(t, s, xf, out, inf); });
  row("max", "float32", nf, 4, "DeviceReduce::Max",
      [&](void* t, size_t& s) { return cub::DeviceReduce::Max(t, s, xf, out, inf); });
  row("argmax", "float32", nf, 4, "DeviceReduce::ArgMax",
      [&](void* t, size_t& s) { return cub::DeviceReduce::ArgMax(t, s, xf, kv, inf); });
  row("argmin", "float32", nf, 4, "DeviceReduce::ArgMin",
      [&](void* t, size_t& s) { return cub::DeviceReduce::ArgMin(t, s, xf, kv, inf); });
  row("sum", "float16", nh, 2, "TransformReduce(half->float; +)", [&](void* t, size_t& s) {
    return cub::DeviceReduce::TransformReduce(t, s, xh, out, inh, cuda::std::plus<float>{}, HalfToFloat{}, 0.0f);
  });
  row("sumsq", "float32", nf, 4, "TransformReduce(x*x; +)", [&](void* t, size_t& s) {
    return cub::DeviceReduce::TransformReduce(t, s, xf, out, inf, cuda::std::plus<float>{}, Square{}, 0.0f);
  });
  row("l1", "float32", nf, 4, "TransformReduce(|x|; +)", [&](void* t, size_t& s) {
    return cub::DeviceReduce::TransformReduce(t, s, xf, out, inf, cuda::std::plus<float>{}, Abs{}, 0.0f);
  });
  return 0;
}
