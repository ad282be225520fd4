// Planning a whole reduction: validating a configuration against the device, and splitting n
// elements into passes (each pass writes one partial per work-group) until one value remains,
// with each pass's -D option string. Pure functions of (configuration, device facts, n):
// testable without a device.
//
// Launch modes of the TIMES variants: a fixed TIMES (groups follow from n), or a fixed number of
// groups per compute unit (TIMES follows from n). In the second mode a pass after the first
// collapses to one group when one group can take its input with TIMES <= kCollapseTimes, so a
// grid that fills the device needs two passes, never three. Variants that fill the device by
// default (single_pass) take the groups per CU from the occupancy when given neither.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/introspect/reduce.hpp"

#include <cstdint>
#include <string>

namespace clreduce {

constexpr unsigned kCollapseTimes = 64;

// Throws ConfigError naming the parameter, its valid values and the device: unknown variant
// (Error), variant unavailable on the device, n = 0, n too large for one allocation, work-group
// size not a power of two or over the device maximum, local memory over the device's, TIMES / VEC
// outside the allowed set or given to a variant that takes none, double without cl_khr_fp64.
// `cfg.variant` must be set. `offset`: the first element's index in the input buffer; where it is
// not a multiple of VEC the first pass loads its vectors unaligned (-D INPUT_ALIGNED=0).
Plan plan_reduction(const ReduceConfig& cfg, const DeviceInfo& dev, std::uint64_t n,
                    std::uint64_t offset = 0);

// The caller's work-group size, TIMES and VEC, each given as an option of the configuration or as
// a -D of the parameter the variant declares (Variant::spec), moved into the configuration's
// fields (the -D's taken out of its defines). Throws ConfigError (Param::Define) where the two
// differ or the value is not one the parameter takes. plan_reduction starts with it; the Reducer
// calls it as soon as the variant is known, so that a -D choice is a choice before the tuning
// database or the kernel's limits fill what the caller left open.
ReduceConfig with_caller_values(const Variant& v, const ReduceConfig& given);

// The work-group size a configuration uses on the device (validated): cfg.wg, or 0 -> 256 (the
// device maximum if smaller).
std::size_t effective_wg(const ReduceConfig& cfg, const DeviceInfo& dev);

}  // namespace clreduce
