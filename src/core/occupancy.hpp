// Occupancy: how many work-groups of a given size and local-memory use one compute unit holds at
// once, from the facts the device gives (DeviceInfo::resident_*). The launch that fills every
// compute unit once has resident_groups_per_cu(...) * compute_units groups.
#pragma once

#include "clreduce/device.hpp"

#include <cstdint>

namespace clreduce {

// At least 1. GPUs: min(resident work-items / wg, resident group limit, local memory / the
// group's local bytes). Devices without occupancy facts (CPUs): kCpuGroupsPerCu, enough groups
// per core to balance uneven finishing times.
constexpr unsigned kCpuGroupsPerCu = 4;
unsigned resident_groups_per_cu(const DeviceInfo& dev, std::size_t wg, std::uint64_t local_bytes);

}  // namespace clreduce
