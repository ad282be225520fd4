// cuda_latency: the CUDA side of bench/tools/launch_latency.cpp, on the same machine. For an empty
// kernel (one block of 32) and CUB's DeviceReduce::Sum (uint32 and float, 2^20 to 2^30), each called
// alone with the device idle before it (a 4-byte device-to-host copy, as clreduce's one-call
// samples read the result), the median of R trials of:
//   events      cudaEventRecord(a), the call, cudaEventRecord(b), cudaEventSynchronize(b): a -> b
//               (how ../shared/gpu/cub_bench.cu times "one call")
//   wall_sync   host clock around the call + cudaStreamSynchronize
//   wall_events host clock around the whole events sequence above
//   b2b         100 calls between two events, divided (cub_bench's back-to-back)
// Build: nvcc -O3 -std=c++17 -arch=sm_90 bench/tools/cuda_latency.cu -o cuda_latency
// Usage: cuda_latency [reps] [log2 sizes...]   (default 41; 20 24 26 28 30)
#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1); } } while (0)

__global__ void empty(unsigned* o) { if (threadIdx.x == 1234567u) o[0] = 1u; }

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

static void measure(const char* name, const std::function<void()>& call, unsigned* sink, int reps) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  unsigned word = 0;
  auto idle = [&] { CK(cudaMemcpy(&word, sink, 4, cudaMemcpyDeviceToHost)); };
  for (int i = 0; i < 3; ++i) call();
  CK(cudaDeviceSynchronize());
  std::vector<double> ev, ws, we;
  for (int r = 0; r < reps; ++r) {
    float ms = 0;
    idle();
    CK(cudaEventRecord(a));
    call();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaEventElapsedTime(&ms, a, b));
    ev.push_back(ms * 1e3);
    idle();
    auto t0 = std::chrono::steady_clock::now();
    call();
    CK(cudaStreamSynchronize(0));
    ws.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    idle();
    t0 = std::chrono::steady_clock::now();
    CK(cudaEventRecord(a));
    call();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    we.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  float ms = 0;
  CK(cudaEventRecord(a));
  for (int r = 0; r < 100; ++r) call();
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  CK(cudaEventElapsedTime(&ms, a, b));
  std::printf("== %s (median of %d, microseconds)\n  events      %9.2f\n  wall_sync   %9.2f\n  wall_events %9.2f\n  b2b         %9.2f\n",
              name, reps, median(ev), median(ws), median(we), ms * 1e3 / 100);
  std::fflush(stdout);
}

template <class T>
static void run_cub(const char* type, int lg, size_t n, unsigned* sink, int reps) {
  T *in, *out;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMalloc(&out, sizeof(T)));
  CK(cudaMemset(in, 0, n * sizeof(T)));
  void* tmp = nullptr;
  size_t tb = 0;
  cub::DeviceReduce::Sum(tmp, tb, in, out, (int)n);
  CK(cudaMalloc(&tmp, tb));
  char name[64];
  std::snprintf(name, sizeof name, "CUB DeviceReduce::Sum %s n=2^%d", type, lg);
  measure(name, [&] { cub::DeviceReduce::Sum(tmp, tb, in, out, (int)n); }, sink, reps);
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(tmp));
}

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 41;
  std::vector<int> lgs;
  for (int i = 2; i < argc; ++i) lgs.push_back(std::atoi(argv[i]));
  if (lgs.empty()) lgs = {20, 24, 26, 28, 30};
  unsigned* sink;
  CK(cudaMalloc(&sink, 4));
  measure("empty kernel, 1 block of 32", [&] { empty<<<1, 32>>>(sink); }, sink, reps);
  for (int lg : lgs) {
    const size_t n = size_t(1) << lg;
    run_cub<unsigned>("uint", lg, n, sink, reps);
    run_cub<float>("float", lg, n, sink, reps);
  }
}
