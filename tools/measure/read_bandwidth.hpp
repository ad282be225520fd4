// The device's measured read bandwidth: a plain streaming-read kernel (kernels_cl/stream_read.cl)
// over the same buffer the reductions read, timed like them, in the access pattern the device
// streams best (a GPU: grid-stride, coalesced; other devices: the faster of grid-stride and a
// contiguous block per work-item, both measured). The "% of peak" of every benchmark row is
// relative to this figure.
#pragma once

#include "clreduce/timing.hpp"

#include <string>
#include "measure/session.hpp"

namespace clreduce {

struct ReadBandwidth {
  std::string kernel;   // the faster kernel: stream_read (grid-stride) or stream_read_blocks (contiguous blocks)
  Stats us;             // one full read of the buffer
  double gbps = 0;      // bytes / median time
  std::uint64_t groups = 0;
  std::size_t wg = 0;
  unsigned batch = 1;
};

ReadBandwidth measure_read_bandwidth(const Session& rt, const cl::Buffer& buffer, std::uint64_t bytes,
                                     const TimingOptions& opt);

}  // namespace clreduce
