// The checks a job makes before it plans: the element type on the device (every job), and for
// the M x N matrix jobs (the transposes, the axis reductions) the shape the 32-bit kernels take
// and one allocation; and the lockstep options the axis and segmented kernels share.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <string>

namespace clreduce {

// "8192x8192".
std::string shape_text(std::uint64_t m, std::uint64_t n);

// Throws ConfigError (Param::Type) for double on a device without cl_khr_fp64.
void check_type_on_device(const DeviceInfo& dev, ElemType type);

// Throws ConfigError: Param::Shape when M or N is outside 1..2^32-1 or the matrix is over the
// largest single allocation, Param::Type for double without cl_khr_fp64.
void check_matrix(const DeviceInfo& dev, ElemType type, std::uint64_t m, std::uint64_t n);

// The barrier-free tail of reduce_tree.clh for the kernels that take every operator (axis,
// segmented): LOCKSTEP from the device's report (and NV_WARP_SYNC on NVIDIA), except for
// argmin/argmax, whose pairs keep every barrier (reduce_common.clh).
void set_lockstep(BuildOptions& o, Op op, const DeviceInfo& dev);

}  // namespace clreduce
