// Runtime: one device's context, its profiling queue and a queue without profiling, the kernel directory that .cl sources are
// read from at run time, and the program cache keyed by (device, source text, option string).
#pragma once

#include "clreduce/opencl.hpp"
#include "clreduce/device.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <tuple>

namespace clreduce {

// The kernel directory: CLREDUCE_KERNEL_DIR from the environment if set, else the source tree's
// kernels_cl/ as configured at build time.
std::filesystem::path default_kernel_dir();

// Limits a built kernel reports for its device.
struct KernelLimits {
  std::size_t max_work_group_size = 0;  // CL_KERNEL_WORK_GROUP_SIZE
  std::uint64_t local_mem_bytes = 0;    // CL_KERNEL_LOCAL_MEM_SIZE
};

class Runtime {
 public:
  // Throws Error when kernel_dir does not exist.
  Runtime(DeviceInfo device, std::filesystem::path kernel_dir = default_kernel_dir());

  const DeviceInfo& device() const { return device_; }
  const cl::Context& context() const { return context_; }
  const cl::CommandQueue& queue() const { return queue_; }  // in order, profiling enabled
  // In order, no profiling: for one-call samples timed by the host clock. NVIDIA's OpenCL adds
  // several microseconds to every command of a profiling queue (bench/NOTES.md, issue 4).
  const cl::CommandQueue& plain_queue() const { return plain_queue_; }
  const std::filesystem::path& kernel_dir() const { return kernel_dir_; }

  // The text of `file` (relative to the kernel directory) with every `#include "x"` line replaced
  // by the text of x from the same directory, so the cache key covers headers too. Throws Error
  // naming the path when a file is missing.
  std::string load_source(const std::string& file) const;

  // The built program for (device, source of file, options); built at most once. A failed build
  // throws Error carrying the file, the option string and the build log.
  cl::Program program(const std::string& file, const std::string& options);
  cl::Kernel kernel(const std::string& file, const std::string& kernel_name,
                    const std::string& options);
  KernelLimits limits(const cl::Kernel& k) const;

  std::size_t builds() const { return builds_; }  // programs compiled so far (cache misses)

 private:
  DeviceInfo device_;
  std::filesystem::path kernel_dir_;
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::CommandQueue plain_queue_;
  std::map<std::tuple<cl_device_id, std::string, std::string>, cl::Program> cache_;
  std::size_t builds_ = 0;
};

}  // namespace clreduce
