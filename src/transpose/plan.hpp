// Planning a transpose: validating a configuration against the device, the work-group shape, the
// grid (y capped at kMaxGroupsY, looped over in the kernels) and the -D option string. A pure
// function of (configuration, device facts, shape): testable without a device.
#pragma once

#include "clreduce/introspect/transpose.hpp"
#include "clreduce/kernel_spec.hpp"

namespace clreduce {

// Throws ConfigError naming the parameter (see introspect::prepare in clreduce/introspect/transpose.hpp). An empty cfg.variant plans
// kDefaultTransposeVariant.
// The launch parameters of variant v's kernel, as data (clreduce/kernel_spec.hpp): TYPE_ID, then WG_X
// and WG_Y (variants of free shape), TILE (tiles), or TILE and ROWS (local_tile_multi).
const KernelSpec& transpose_kernel_spec(const TransposeVariant& v);

TransposePlan plan_transpose(const TransposeConfig& cfg, const DeviceInfo& dev, std::uint64_t m,
                             std::uint64_t n);

}  // namespace clreduce
