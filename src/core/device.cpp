// Device listing, facts, selection and occupancy.
#include "clreduce/device.hpp"

#include "clreduce/error.hpp"
#include "clreduce/types.hpp"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdlib>
#include <sstream>

namespace clreduce {

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string trim_nul(std::string s) {
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string type_name_of(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

// A vendor query (0x4003, 0x4043, ...) answered with one cl_uint, or 0 if refused.
unsigned query_uint(const cl::Device& d, cl_device_info what) {
  cl_uint v = 0;
  if (clGetDeviceInfo(d(), what, sizeof v, &v, nullptr) != CL_SUCCESS) return 0;
  return v;
}

// CUDA's resident-thread and resident-block limits per SM by compute capability.
void nvidia_occupancy(unsigned major, unsigned minor, unsigned& items, unsigned& groups) {
  items = 2048;
  groups = 32;
  if (major == 7 && minor == 5) items = 1024, groups = 16;
  if (major == 8 && minor == 6) items = 1536, groups = 16;
  if (major == 8 && minor == 7) groups = 16;
  if (major == 8 && minor == 9) items = 1536, groups = 24;
  if (major == 12) items = 1536;
}

constexpr const char* kNoPlatformHint =
    "no OpenCL platform found. The ICD loader reads vendor files from /etc/OpenCL/vendors/*.icd "
    "(or the directory in OCL_ICD_VENDORS); install a driver that provides one, e.g. "
    "'apt-get install pocl-opencl-icd' for the CPU, or point OCL_ICD_VENDORS at a directory "
    "whose .icd file names your vendor library (for NVIDIA: libnvidia-opencl.so.1)";
}  // namespace

bool DeviceInfo::has_extension(const std::string& ext) const {
  std::istringstream in(extensions);
  std::string word;
  while (in >> word)
    if (word == ext) return true;
  return false;
}

std::string DeviceInfo::label() const {
  return name + " (" + platform_name + ", driver " + driver_version + ")";
}

namespace {
// PoCL's major version from its platform version ("OpenCL 3.0 PoCL 3.1+debian  Linux, ..."), 0
// for another implementation. Before 7.0 its CPU devices release a finished launch's loaded
// kernel by the program's hash and work-group size alone, not the entry the launch took
// (pocl/pocl c9ac4c0c3, "fix dlhandle cache").
unsigned pocl_major_version(const std::string& platform_version) {
  const std::size_t at = platform_version.find("PoCL ");
  if (at == std::string::npos) return 0;
  unsigned major = 0;
  const char* first = platform_version.data() + at + 5;
  const auto [end, ec] = std::from_chars(first, platform_version.data() + platform_version.size(), major);
  return ec == std::errc() && end != first ? major : 0;
}
}  // namespace

DeviceInfo describe_device(const cl::Platform& p, const cl::Device& d, std::size_t pi,
                           std::size_t di) {
  DeviceInfo info;
  info.platform = p;
  info.device = d;
  info.platform_index = pi;
  info.device_index = di;
  info.platform_name = trim_nul(p.getInfo<CL_PLATFORM_NAME>());
  info.platform_vendor = trim_nul(p.getInfo<CL_PLATFORM_VENDOR>());
  info.platform_version = trim_nul(p.getInfo<CL_PLATFORM_VERSION>());
  info.name = trim_nul(d.getInfo<CL_DEVICE_NAME>());
  info.vendor = trim_nul(d.getInfo<CL_DEVICE_VENDOR>());
  info.driver_version = trim_nul(d.getInfo<CL_DRIVER_VERSION>());
  info.device_version = trim_nul(d.getInfo<CL_DEVICE_VERSION>());
  info.opencl_c_version = trim_nul(d.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
  info.extensions = trim_nul(d.getInfo<CL_DEVICE_EXTENSIONS>());
  const cl_device_type type = d.getInfo<CL_DEVICE_TYPE>();
  info.type_name = type_name_of(type);
  info.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  info.compute_units = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  info.max_work_group_size = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  info.local_mem_bytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  info.max_work_item_sizes = d.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  info.timer_resolution_ns = d.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>();
  info.fp64 = info.has_extension("cl_khr_fp64");
  {
    // Deprecated by OpenCL 2.0 but answered by every implementation we meet; where it is not, a
    // device that is not a GPU is taken to share the host's memory.
    cl_bool unified = CL_FALSE;
    info.host_unified_memory = clGetDeviceInfo(d(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, nullptr) == CL_SUCCESS
                                   ? unified == CL_TRUE
                                   : !info.is_gpu;
  }
  info.base_align_bytes = d.getInfo<CL_DEVICE_MEM_BASE_ADDR_ALIGN>() / 8;
  info.is_nvidia = lower(info.platform_vendor).find("nvidia") != std::string::npos;
  info.lockstep_source = "none reported";
  if (info.has_extension("cl_nv_device_attribute_query")) {
    if (unsigned w = query_uint(d, CL_DEVICE_WARP_SIZE_NV)) {
      info.lockstep_width = w;
      info.lockstep_source = "CL_DEVICE_WARP_SIZE_NV";
    }
  } else if (info.has_extension("cl_amd_device_attribute_query")) {
    if (unsigned w = query_uint(d, CL_DEVICE_WAVEFRONT_WIDTH_AMD)) {
      info.lockstep_width = w;
      info.lockstep_source = "CL_DEVICE_WAVEFRONT_WIDTH_AMD";
    }
  }
  if (lower(info.name).find("llvmpipe") != std::string::npos) info.loop_trip_limit = 65535;
  const unsigned pocl = pocl_major_version(info.platform_version);
  info.kernel_code_shared_across_devices = !info.is_gpu && pocl > 0 && pocl < 7;
  info.occupancy_source = "none (not a GPU: one group per core at a time)";
  if (info.is_gpu) {
    const unsigned major = info.has_extension("cl_nv_device_attribute_query")
                               ? query_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV)
                               : 0;
    if (major) {
      const unsigned minor = query_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
      nvidia_occupancy(major, minor, info.resident_items_per_cu, info.resident_groups_limit);
      info.occupancy_source = "compute capability " + std::to_string(major) + "." +
                              std::to_string(minor) + " (CL_DEVICE_COMPUTE_CAPABILITY_*_NV)";
    } else {
      info.resident_items_per_cu = 2048;
      info.resident_groups_limit = 32;
      info.occupancy_source = "assumed (the device reports no occupancy)";
    }
  }
  return info;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<cl::Platform> platforms;
  cl_int status = CL_SUCCESS;
  try {
    status = cl::Platform::get(&platforms);
  } catch (const cl::Error& e) {
    status = e.err();
  }
  if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && platforms.empty()))
    throw Error(kNoPlatformHint);
  if (status != CL_SUCCESS)
    throw Error(std::string("clGetPlatformIDs failed: ") + cl_status_name(status) + "; " +
                kNoPlatformHint);
  std::vector<DeviceInfo> all;
  for (std::size_t pi = 0; pi < platforms.size(); ++pi) {
    std::vector<cl::Device> devices;
    try {
      platforms[pi].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error& e) {
      if (e.err() == CL_DEVICE_NOT_FOUND) continue;  // a platform with no device
      throw Error("listing devices of platform " + std::to_string(pi) + ": " + describe(e));
    }
    for (std::size_t di = 0; di < devices.size(); ++di)
      all.push_back(with_cl_context("reading device facts",
                                    [&] { return describe_device(platforms[pi], devices[di], pi, di); }));
  }
  if (all.empty()) throw Error(std::string("OpenCL platforms exist but offer no device; ") + kNoPlatformHint);
  return all;
}

DeviceInfo describe_device(const cl::Device& d) {
  return with_cl_context("reading the facts of the queue's device", [&] {
    const cl::Platform p(d.getInfo<CL_DEVICE_PLATFORM>());
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    for (std::size_t pi = 0; pi < platforms.size(); ++pi) {
      if (platforms[pi]() != p()) continue;
      std::vector<cl::Device> devices;
      platforms[pi].getDevices(CL_DEVICE_TYPE_ALL, &devices);
      for (std::size_t di = 0; di < devices.size(); ++di)
        if (devices[di]() == d()) return describe_device(p, d, pi, di);
      return describe_device(p, d, pi, 0);
    }
    return describe_device(p, d, 0, 0);  // a device of a platform the loader does not list
  });
}

unsigned resident_groups_per_cu(const DeviceInfo& dev, std::size_t wg, std::uint64_t local_bytes) {
  if (dev.resident_items_per_cu == 0 || wg == 0) return kCpuGroupsPerCu;
  std::uint64_t g = dev.resident_items_per_cu / wg;
  if (dev.resident_groups_limit) g = std::min<std::uint64_t>(g, dev.resident_groups_limit);
  if (local_bytes) g = std::min<std::uint64_t>(g, dev.local_mem_bytes / local_bytes);
  return static_cast<unsigned>(std::max<std::uint64_t>(1, g));
}

DeviceInfo select_device(const DeviceSelector& sel) { return select_device(list_devices(), sel); }

DeviceInfo select_device(const std::vector<DeviceInfo>& all, const DeviceSelector& sel_in) {
  DeviceSelector sel = sel_in;
  if (!sel.device) {
    if (const char* env = std::getenv("CLREDUCE_DEVICE"); env && *env) sel.device = std::string(env);
  }
  std::vector<DeviceInfo> pool;
  for (const auto& d : all)
    if (!sel.platform || d.platform_index == *sel.platform) pool.push_back(d);
  auto available = [&] {
    std::vector<std::string> items;
    for (const auto& d : all)
      items.push_back("[" + std::to_string(d.platform_index) + ":" + std::to_string(d.device_index) +
                      "] " + d.name);
    return join(items, "; ");
  };
  if (pool.empty())
    throw Error(Param::Platform, "no platform with index " + std::to_string(*sel.platform) +
                "; available devices: " + available(), available());
  if (!sel.device) {
    auto gpu = std::find_if(pool.begin(), pool.end(), [](const DeviceInfo& d) { return d.is_gpu; });
    return gpu != pool.end() ? *gpu : pool.front();
  }
  const std::string& want = *sel.device;
  const bool numeric = !want.empty() && std::all_of(want.begin(), want.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (numeric) {
    // Digits past what a size_t holds name no device either (not an abort in stoul).
    std::size_t idx = 0;
    const auto [end, ec] = std::from_chars(want.data(), want.data() + want.size(), idx);
    if (ec != std::errc() || end != want.data() + want.size())
      throw Error(Param::Device, "no device with index " + (want.size() > 40 ? want.substr(0, 40) + "..." : want) + "; available devices: " + available(),
                  available());
    // With a platform: index within it. Without: index into the flat list of all devices.
    if (sel.platform) {
      for (const auto& d : pool)
        if (d.device_index == idx) return d;
    } else if (idx < pool.size()) {
      return pool[idx];
    }
    throw Error(Param::Device, "no device with index " + want + "; available devices: " + available(),
                available());
  }
  for (const auto& d : pool)
    if (lower(d.name).find(lower(want)) != std::string::npos ||
        lower(d.platform_name + " " + d.name).find(lower(want)) != std::string::npos)
      return d;
  throw Error(Param::Device, "no device whose name contains '" + want + "'; available devices: " + available(),
              available());
}

}  // namespace clreduce
