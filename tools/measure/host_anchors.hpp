// The anchors of host data (bench multi's host-copied runs): what the same bytes cost without
// clreduce, measured in the same process beside it. The host's own threaded sum (the better choice
// for a user whenever a device path is slower), and one device's write of the bytes from pageable
// and from pinned memory (the PCIe bound any device path of host data stays under).
// Units: GB/s (10^9 bytes per second). Errors: clreduce::Error (an OpenCL failure, naming the device).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/reduction.hpp"

#include <cstdint>
#include <string>

namespace clreduce {

struct HostAnchors {
  unsigned threads = 0;          // host threads of the best sum (of 1, 2, 4, ... up to the hardware's)
  std::string sum_what;          // "f32 sum into f64 over 16 threads", "bytes as u64 words over 16 threads"
  double host_sum_gbps = 0;      // the whole input's bytes over the best run's time
  std::uint64_t write_bytes = 0; // the writes' size: the input's first bytes, at most kAnchorWriteBytes
  double pageable_write_gbps = 0;  // blocking clEnqueueWriteBuffer from the input itself, best run
  double pinned_write_gbps = 0;    // the same from a mapped CL_MEM_ALLOC_HOST_PTR buffer holding the bytes
  std::string device;            // the device written to
};
inline constexpr std::uint64_t kAnchorWriteBytes = std::uint64_t{256} << 20;

// `bytes` bytes at `data`, elements of `type` (sum in the widest type of its kind: integers in 64
// bits, floats in double; 8- and 16-bit types and f16/bf16 as 64-bit words: a read rate). `runs`
// timed runs after one untimed at each thread count (1, 2, 4, ... and `threads`, 0: the hardware's),
// the best kept.
HostAnchors measure_host_anchors(const void* data, Scalar type, std::uint64_t bytes, const DeviceInfo& dev,
                                 unsigned runs, unsigned threads = 0);

}  // namespace clreduce
