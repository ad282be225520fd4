// The host's own reduction of the same data, for a CPU device's tables: std::reduce over one
// contiguous block per thread, as many threads as the device has compute units (PoCL's CPU device
// runs on those same cores), the blocks' values folded in order. What a CPU reaches without
// OpenCL; a variant near it runs at the CPU's own limit.
#pragma once

#include "clreduce/timing.hpp"
#include "clreduce/types.hpp"
#include "data/host_data.hpp"

namespace clreduce {

struct HostReduceRate {
  unsigned threads = 0;  // 0: not measured
  Stats us;              // one whole reduction, wall clock (threads started to joined)
  double gbps = 0;       // input bytes / median time
};

// Reduces `data` with `op` `repetitions` times after `warmup` discarded runs (TimingOptions),
// each sample on `threads` fresh std::threads. A speed reference only: its value is not printed
// (int sums run on the uint bits, as the kernels' do).
HostReduceRate measure_host_reduce(const HostData& data, Op op, unsigned threads, const TimingOptions& timing);

}  // namespace clreduce
