// Planning an axis reduction: validating a configuration against the device, the launch shape,
// the row chunks of cols_tile and the -D option string of each pass. A pure function of
// (configuration, device facts, shape): testable without a device.
#pragma once

#include "clreduce/introspect/axis.hpp"
#include "descriptor/families.hpp"

namespace clreduce {

// `cfg` with a caller's -D WG_SIZE and -D ROW_WIDTH taken into its wg and row_width (and removed
// from its defines), so the tuning database and the planner see them as the caller's choices.
// Throws ConfigError (Param::Define) for a value that is not a number, or one that differs from
// the field's. Idempotent.
AxisConfig with_caller_options(const AxisConfig& cfg);

// Throws ConfigError naming the parameter (see introspect::prepare in clreduce/introspect/axis.hpp), also for a launch whose
// work-items would loop past the device's loop_trip_limit (llvmpipe). An empty cfg.variant plans
// default_axis_variant(cfg.axis, cfg.type, cfg.op, m, n, dev).
AxisPlan plan_axis(const AxisConfig& cfg, const DeviceInfo& dev, std::uint64_t m, std::uint64_t n);

// The descriptor family's parameters of `cfg` (rows_descriptor, cols_descriptor): its wg, row
// width, chunks and -Ds after with_caller_options. Throws as with_caller_options.
FamilyParams family_params_of(const AxisConfig& cfg);

// The plan of a descriptor variant (rows_descriptor, cols_descriptor) from its family's launch:
// one pass of that kernel, its label, depth and grid.
AxisPlan axis_plan_of(const AxisVariant& v, std::uint64_t m, std::uint64_t n, const DescriptorLaunch& l);

// The lookup hook: `cfg` with a tuned axis entry applied, when it applies. It applies when cfg
// names no variant or names the entry's variant, and every parameter cfg gives is one the entry's
// variant takes (a caller's --wg with a tuned cols_tile: the caller's launch, not the entry's).
// Then the variant and each parameter cfg leaves unset come from the entry (groups_per_cu turned
// into chunks for this shape by axis_chunks_for) and `filled` names them ("variant=rows_sliced",
// "wg=128", "row_width=8", "chunks=4 (16 groups per CU)"). Else returns nullopt.
std::optional<AxisConfig> tuned_axis_config(const AxisConfig& cfg, const TunedAxisEntry& e, const DeviceInfo& dev,
                                            std::uint64_t m, std::uint64_t n, std::vector<std::string>& filled);

}  // namespace clreduce
