// The device's measured read bandwidth: a plain streaming-read kernel (kernels_cl/stream_read.cl)
// over the same buffer the reductions read, timed like them. The "% of peak" of every benchmark
// row is relative to this figure.
#pragma once

#include "clreduce/timing.hpp"
#include "measure/session.hpp"

namespace clreduce {

struct ReadBandwidth {
  Stats us;             // one full read of the buffer
  double gbps = 0;      // bytes / median time
  std::uint64_t groups = 0;
  std::size_t wg = 0;
  unsigned batch = 1;
};

ReadBandwidth measure_read_bandwidth(const Session& rt, const cl::Buffer& buffer, std::uint64_t bytes,
                                     const TimingOptions& opt);

}  // namespace clreduce
