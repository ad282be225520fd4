// The checks a job makes before it plans: the element type on the device (every job), and for
// the M x N matrix jobs (the transposes, the axis reductions) the shape the 32-bit kernels take
// and one allocation.
#pragma once

#include "clreduce/device.hpp"
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

}  // namespace clreduce
