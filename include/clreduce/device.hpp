// OpenCL platforms and devices: listing, the facts clreduce keeps about each device, and the
// selection rules (index, case-insensitive name substring, default first GPU else first device).
// Thread-safety: the functions keep no state; DeviceInfo is a plain value, safe to share once made.
#pragma once

#include "clreduce/opencl.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

struct DeviceInfo {
  cl::Platform platform;
  cl::Device device;
  std::size_t platform_index = 0;
  std::size_t device_index = 0;  // within its platform
  std::string platform_name, platform_vendor, platform_version;
  std::string name, vendor, driver_version, device_version, opencl_c_version, extensions;
  std::string type_name;  // "GPU", "CPU", "accelerator", ...
  bool is_gpu = false;
  unsigned compute_units = 0;
  std::size_t max_work_group_size = 0;
  std::vector<std::size_t> max_work_item_sizes;  // per dimension (CL_DEVICE_MAX_WORK_ITEM_SIZES)
  std::uint64_t local_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;
  std::uint64_t global_mem_bytes = 0;
  // Width of work-items that run in lockstep, as the device reports it (CL_DEVICE_WARP_SIZE_NV,
  // CL_DEVICE_WAVEFRONT_WIDTH_AMD); 0 when the device reports none, and then no kernel may rely
  // on lockstep execution.
  unsigned lockstep_width = 0;
  std::string lockstep_source;  // the query that gave lockstep_width, or "none reported"
  std::uint64_t timer_resolution_ns = 0;
  // Occupancy: work-items and work-groups one compute unit keeps resident at once. OpenCL has no
  // query for it: on NVIDIA it follows from CL_DEVICE_COMPUTE_CAPABILITY_{MAJOR,MINOR}_NV (CUDA's
  // per-architecture limits); other GPUs are assumed to hold 2048 work-items and 32 groups; 0 on
  // CPUs and other devices (one group per core at a time).
  unsigned resident_items_per_cu = 0;
  unsigned resident_groups_limit = 0;
  std::string occupancy_source;
  bool fp64 = false;
  // The device shares the host's memory (CL_DEVICE_HOST_UNIFIED_MEMORY: CPUs, integrated GPUs), so
  // it can read host data where it lies (HostPath::InPlace) rather than through a copy.
  bool host_unified_memory = false;
  // The alignment in bytes the device's buffers start at (CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8): its
  // compiled kernels may load whole vectors at that alignment, so host memory read in place must
  // start on it.
  std::uint64_t base_align_bytes = 0;
  bool is_nvidia = false;  // platform vendor is NVIDIA (inline PTX available)
  // Loop iterations one kernel invocation may run before the implementation ends its loops
  // silently; 0 when none is known. Mesa's llvmpipe (Rusticl's CPU device) runs a group's
  // work-items in SIMD vectors and ends every loop of a kernel after 65535 iterations in all
  // (LP_MAX_TGSI_LOOP_ITERATIONS, shared by the kernel's loops): a work-item whose loops run
  // longer gives a wrong value. Not an OpenCL query: known by the device's name.
  std::uint64_t loop_trip_limit = 0;
  // The implementation keeps the loaded code of its devices' kernels in one cache, by the
  // program's hash only, and miscounts it when one kernel runs on two of its devices at once
  // (PoCL's CPU devices before 7.0: the process aborts, "found->ref_count > 0"). ProgramCache
  // then builds each device's program with options of its own. Known by the platform's version.
  bool kernel_code_shared_across_devices = false;

  bool has_extension(const std::string& ext) const;
  std::string label() const;  // "NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver 580.x)"
};

// Every device of every platform. Throws Error with a hint about ICD vendor files when the ICD
// loader finds no platform.
std::vector<DeviceInfo> list_devices();

// Facts of one device (used by list_devices).
DeviceInfo describe_device(const cl::Platform& p, const cl::Device& d, std::size_t platform_index,
                           std::size_t device_index);
// Facts of a device an application already holds (its platform and indices looked up).
DeviceInfo describe_device(const cl::Device& d);

struct DeviceSelector {
  std::optional<std::size_t> platform;  // index into the platform list
  std::optional<std::string> device;    // index within the platform(s), or a name substring
};

// The device the selector names; with neither field set, the first GPU, else the first device.
// The environment variable CLREDUCE_DEVICE fills `device` when the selector has none. Throws
// Error (Param::Device, or Param::Platform for a bad platform index) naming the available
// devices when nothing matches.
DeviceInfo select_device(const DeviceSelector& sel);
DeviceInfo select_device(const std::vector<DeviceInfo>& all, const DeviceSelector& sel);

// Occupancy: the work-groups of `wg` work-items using `local_bytes` of local memory each that one
// compute unit holds at once, at least 1. GPUs: min(resident work-items / wg, resident group
// limit, local memory / local_bytes). Devices without occupancy facts (CPUs): kCpuGroupsPerCu,
// enough groups per core to balance uneven finishing times. The launch that fills every compute
// unit once has resident_groups_per_cu(...) * compute_units groups.
constexpr unsigned kCpuGroupsPerCu = 4;
unsigned resident_groups_per_cu(const DeviceInfo& dev, std::size_t wg, std::uint64_t local_bytes);

}  // namespace clreduce
