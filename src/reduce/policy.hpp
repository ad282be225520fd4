// Default policies: the variant a Reducer launches where neither the caller nor the tuning
// database names one, per kind of device, each annotated with what it achieved where it was
// measured (as CUB's tuning policies are). The variant's own parameters then come from the
// planner's defaults (TIMES, VEC, the device-filling grid), which the tuning database refines.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/types.hpp"

namespace clreduce {

struct ReducePolicy {
  const char* name;      // e.g. "NvidiaGpuPolicy"
  const char* variant;   // a registered variant
  const char* measured;  // what it achieved, where, and the file that holds the run
};

// NVIDIA GPUs (inline PTX, warps of 32, in-order dispatch of work-groups).
inline constexpr ReducePolicy kNvidiaGpuPolicy{
    "NvidiaGpuPolicy", "single_pass",
    "H100 80GB HBM3, driver 580.159.04, 2026-11-22: uint sum of 2^26 in 90.62 us back-to-back, "
    "98.8% of the 2997 GB/s read peak; ahead of CUB DeviceReduce::Sum back-to-back from 2^20 to "
    "2^30 (bench/results/2026-11-22_h100_whole_vs_cub.md)"};
// Other GPUs: not measured here; the vector loads and a second pass need nothing of the device.
inline constexpr ReducePolicy kGpuPolicy{
    "GpuPolicy", "vector", "not measured on a non-NVIDIA GPU; the portable two-pass vector kernel"};
// CPUs and other devices (PoCL): the fastest of the family measured there.
// (Before contiguous_blocks: vector, 9.6 GB/s for the same sum on the same machine, 2026-11-23.)
inline constexpr ReducePolicy kCpuPolicy{
    "CpuPolicy", "contiguous_blocks",
    "PoCL 3.1 on 2 cores of an AMD EPYC, 2026-11-24: sum of 2^26 at 61.5 GB/s (uint) and 60.1 "
    "(float), vector 17.4 and 17.2, clpeak 48.9-50.2 (bench/results/2026-11-24_cpu.md)"};

// The policy for the device and element type (single_pass's slot finish is for 32-bit types, but
// its ticket finish serves doubles, so the NVIDIA policy holds for every type).
const ReducePolicy& default_policy(const DeviceInfo& dev, ElemType type);

}  // namespace clreduce
