// Planning an axis reduction: validating a configuration against the device, the launch shape,
// the row chunks of cols_tile and the -D option string of each pass. A pure function of
// (configuration, device facts, shape): testable without a device.
#pragma once

#include "clreduce/axis.hpp"

namespace clreduce {

// Throws ConfigError naming the parameter (see AxisReducer::prepare). An empty cfg.variant plans
// default_axis_variant(cfg.axis, m, n).
AxisPlan plan_axis(const AxisConfig& cfg, const DeviceInfo& dev, std::uint64_t m, std::uint64_t n);

}  // namespace clreduce
