// What the CUB anchors of bench/ share (cub_reduce_modes.cu, cub_descriptor_peers.cu): a CUDA
// call checked (the error and its line, then exit 1), and the generated data: element i is
// uniform in [-1, 1) by a hash of i (splitmix64), as clreduce's generated data are.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                      \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

__device__ inline double uniform_at(size_t i) {
  unsigned long long h = i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;  // splitmix64
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  return double(h >> 11) * 0x1p-52 - 1.0;  // [-1, 1)
}
