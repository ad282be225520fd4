// The variant registry: one entry per reduction kernel, in the order the literature takes them.
// The library's planner, the tools and the tests iterate this table, so a new variant is one
// entry in src/reduce/variants.cpp plus its .cl file in kernels_cl/. The registry is built once
// and never changes: safe to read from any thread.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/kernel_spec.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// TIMES (elements each work-item accumulates before the tree) may be any value in this range.
constexpr unsigned kMinTimes = 1;
constexpr unsigned kMaxTimes = 1024;
// contiguous_blocks: the least a work-item's block holds, so that small inputs use few work-items.
constexpr unsigned kMinBlockElements = 4096;
// VEC (vector width of each load) is one of these.
const std::vector<unsigned>& allowed_vec_widths();

struct Variant {
  std::string name;        // CLI name, e.g. "divergence_free"
  std::string file;        // kernel file in kernels_cl/
  std::string kernel;      // kernel function name
  std::string summary;     // one line: what it does
  std::string literature;  // the names this step has in the literature
  std::string tradeoff;    // what it gains and what it costs
  // The variant this one is one teaching step after ("" for the first), and that step: what
  // changes from the predecessor's kernel file and why it should help (`clreduce explain`).
  std::string predecessor;
  std::string step;
  unsigned items_per_work_item = 1;  // elements each work-item loads when TIMES is not used
  // The kernel's launch parameters as data (clreduce/kernel_spec.hpp), in the order of its option
  // string: what the planner resolves and options_for writes, what `clreduce variants` prints,
  // what the CLI refuses in a -D where an option or the host sets it. The planner asks the table,
  // not the variant's name: a variant takes TIMES (and --groups-per-cu), VEC, LOCKSTEP (drops the
  // barriers below the device's lockstep width) or NV_PTX/WARP (inline PTX, the warp shuffle)
  // exactly when its spec declares them.
  KernelSpec spec;
  bool uses_times() const { return spec.find("TIMES") != nullptr; }
  bool uses_vec() const { return spec.find("VEC") != nullptr; }
  bool uses_lockstep() const { return spec.find("LOCKSTEP") != nullptr; }
  bool uses_nv_ptx() const { return spec.find("NV_PTX") != nullptr; }
  // The declared fallback of TIMES and VEC (1 where the kernel takes none).
  unsigned default_times() const;
  unsigned default_vec() const;
  // One launch: each group writes a partial, takes a ticket from a global counter (kernel
  // argument 3, a buffer the Reducer owns and zeroes once), and the group that draws the last
  // ticket reduces the partials and resets the counter. The plan has one pass.
  bool single_pass = false;
  // The default launch (no --times, no --groups-per-cu) fills every compute unit once
  // (groups per CU from occupancy.hpp) instead of fixing TIMES.
  bool default_fills_device = false;
  // Each work-item reduces one contiguous block, sized in the kernel from n; the grid is
  // groups per compute unit (default: the occupancy, kCpuGroupsPerCu on a CPU), at most one
  // work-item per kMinBlockElements elements. Takes VEC and groups per CU, no TIMES.
  bool contiguous_blocks = false;
  // When no work-group size is chosen: planned at 1, then, once built, at the kernel's preferred
  // work-group multiple (KernelLimits::preferred_multiple, a power of two within its limit), so
  // that an implementation that packs work-items into SIMD lanes has no idle lane. false: the
  // planner's 256, or less where the device or the built kernel allows less.
  bool wg_from_kernel = false;
  // Extra compiler flags the kernel needs on the device (e.g. -cl-std=CL2.0).
  std::function<std::string(const DeviceInfo&)> flags = [](const DeviceInfo&) { return std::string(); };
  // Empty when the variant runs on the device; otherwise why it does not.
  std::function<std::string(const DeviceInfo&)> unavailable_reason = [](const DeviceInfo&) {
    return std::string();
  };

  // Takes a grid of groups per compute unit (--groups-per-cu): the TIMES variants and contiguous_blocks.
  bool takes_groups_per_cu() const { return uses_times() || contiguous_blocks; }

  // Elements one work-item consumes in a pass with the given TIMES and VEC.
  unsigned long long items(unsigned times, unsigned vec) const {
    return uses_times() || contiguous_blocks ? static_cast<unsigned long long>(times) * (uses_vec() ? vec : 1)
                                           : items_per_work_item;
  }
};

// True where warp shuffles by inline PTX (shfl.sync.down.b32) work: an NVIDIA platform whose
// device reports CL_DEVICE_WARP_SIZE_NV = 32.
bool has_nv_shuffle(const DeviceInfo& dev);

const std::vector<Variant>& variants();
std::vector<std::string> variant_names();
// Throws Error "unknown variant 'x'; valid variants: naive, ...".
const Variant& find_variant(std::string_view name);
// The variants named (each through find_variant), or every registered variant when none is.
std::vector<const Variant*> select_variants(const std::vector<std::string>& names);

}  // namespace clreduce
