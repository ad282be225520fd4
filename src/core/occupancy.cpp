// Resident work-groups per compute unit.
#include "core/occupancy.hpp"

#include <algorithm>

namespace clreduce {

unsigned resident_groups_per_cu(const DeviceInfo& dev, std::size_t wg, std::uint64_t local_bytes) {
  if (dev.resident_items_per_cu == 0 || wg == 0) return kCpuGroupsPerCu;
  std::uint64_t g = dev.resident_items_per_cu / wg;
  if (dev.resident_groups_limit) g = std::min<std::uint64_t>(g, dev.resident_groups_limit);
  if (local_bytes) g = std::min<std::uint64_t>(g, dev.local_mem_bytes / local_bytes);
  return static_cast<unsigned>(std::max<std::uint64_t>(1, g));
}

}  // namespace clreduce
