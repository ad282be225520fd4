// Planning a whole reduction: validating a configuration against the device, and splitting n
// elements into passes (each pass writes one partial per work-group) until one value remains.
// Pure functions of (configuration, device facts, n): testable without a device.
//
// Launch modes of the TIMES variants: a fixed TIMES (groups follow from n), or a fixed number of
// groups per compute unit (TIMES follows from n). In the second mode a pass after the first
// collapses to one group when one group can take its input with TIMES <= kCollapseTimes, so a
// grid that fills the device needs two passes, never three. Variants that fill the device by
// default (single_pass) take the groups per CU from occupancy.hpp when given neither.
#pragma once

#include "clreduce/device.hpp"
#include "parse.hpp"
#include "clreduce/types.hpp"
#include "clreduce/variants.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

constexpr unsigned kCollapseTimes = 64;

struct ReduceConfig {
  std::string variant = "divergence_free";
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::size_t wg = 0;                        // 0: 256, or the device maximum if smaller
  std::optional<unsigned> times;             // fixed elements per work-item (strided, vector)
  std::optional<unsigned> groups_per_cu;     // or: fix the groups, derive TIMES from n
  std::optional<unsigned> vec;               // vector width (vector variant)
  std::vector<Define> defines;               // user -D, passed through untouched
};

struct PassPlan {
  std::uint64_t count = 0;   // elements this pass reads
  std::uint64_t groups = 0;  // work-groups = partials it writes
  std::size_t wg = 0;
  unsigned times = 1;
  unsigned vec = 1;
  std::string options;       // the full build option string
  // The last group to finish reduces the groups' partials to one value (single_pass variants).
  bool last_group_finishes = false;
  // Values this pass leaves for the next: one partial per group, or the one result.
  std::uint64_t values_out() const { return last_group_finishes ? 1 : groups; }
};

struct Plan {
  const Variant* variant = nullptr;
  // Each pass reads the values the previous one left; the last leaves one value.
  std::vector<PassPlan> passes;
  // The most additions any element goes through on its way to the result: the depth that
  // bounds the rounding error of a float sum.
  unsigned depth = 0;
};

// Throws Error with the problem and the valid choices: unknown variant, variant unavailable on
// the device, n = 0, n too large for one allocation, work-group size not a power of two or over
// the device maximum, local memory over the device's, TIMES / VEC outside the allowed set or
// given to a variant that takes none, double without cl_khr_fp64.
Plan plan_reduction(const ReduceConfig& cfg, const DeviceInfo& dev, std::uint64_t n);

// Throws Error when n = 0 or n elements of t are over the device's largest single allocation.
void check_allocation(std::uint64_t n, ElemType t, const DeviceInfo& dev);

// The most elements of t one input chunk holds: the largest allocation, rounded down to a
// multiple of 4096 elements (so every chunk but the last is whole vectors and whole tiles).
std::uint64_t chunk_elements(ElemType t, const DeviceInfo& dev);
// Throws Error when n = 0 or n elements of t (in chunks) need more than 90% of the device's
// global memory.
void check_device_memory(std::uint64_t n, ElemType t, const DeviceInfo& dev);

// The work-group size a configuration uses on the device (validated).
std::size_t effective_wg(const ReduceConfig& cfg, const DeviceInfo& dev);

// Checks a built kernel's own limits for the work-group size; throws LimitError naming the limit.
void check_kernel_limits(const std::string& variant, std::size_t wg, std::size_t kernel_max_wg,
                         std::uint64_t kernel_local_bytes, const DeviceInfo& dev);

}  // namespace clreduce
