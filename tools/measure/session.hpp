// A measuring session on one device: its own context, an in-order queue with profiling and one
// without (one-call timings by the host clock: NVIDIA's OpenCL adds microseconds to every
// profiled command), the kernel directory, and whether the device's timer can time (if not, every
// measurement falls back to the host clock and says so). Kernels and reducers made here go
// through the process's program cache (clreduce/kernels.hpp), so a program is built once.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/timing.hpp"
#include "clreduce/transpose.hpp"

#include <filesystem>
#include <functional>
#include <string>

namespace clreduce {

class Session {
 public:
  // kernel_dir empty: find_kernel_dir(). Throws Error when the directory is missing or the
  // context cannot be made.
  explicit Session(DeviceInfo device, const std::filesystem::path& kernel_dir = {});

  const DeviceInfo& device() const { return device_; }
  const cl::Context& context() const { return context_; }
  const cl::CommandQueue& queue() const { return queue_; }              // in order, profiling
  const cl::CommandQueue& plain_queue() const { return plain_queue_; }  // in order, no profiling
  const KernelDir& kernels() const { return kernel_dir_; }
  // Whether the device's timer can time (checked when the session starts), and so which clock
  // every measurement of this session uses: the device's events, or the host clock.
  const TimerCheck& timer() const { return timer_; }
  TimeSource clock() const { return timer_.usable ? TimeSource::DeviceEvents : TimeSource::HostClock; }
  // time_enqueues on the session's two queues with the session's clock.
  Sampled time(const EnqueueUnit& enqueue_one, const TimingOptions& opt,
               const std::function<void()>& after_sample = {}) const;
  const std::filesystem::path& kernel_dir() const { return kernel_dir_.path; }

  // A reducer on the profiling queue; the session's device facts and kernel directory fill what
  // `options` leaves unset.
  Reducer reducer(ReducerOptions options = {}) const;
  // A transposer on the profiling queue, likewise.
  Transposer transposer(TransposerOptions options = {}) const;
  // A program of a file in the kernel directory, built through the program cache.
  cl::Program program(const std::string& file, const std::string& options) const;
  // A kernel of a file in the kernel directory, built through the program cache.
  cl::Kernel kernel(const std::string& file, const std::string& kernel_name, const std::string& options) const;
  // A kernel built for work-groups of `wg` work-items (options_for(wg) gives its option string),
  // or, where the built kernel allows fewer (CL_KERNEL_WORK_GROUP_SIZE), built again for the
  // largest power of two it allows; the work-group size used comes back with it. Throws
  // LimitError when the kernel allows none, or more local memory than the device has is needed.
  struct FittedKernel {
    cl::Kernel kernel;
    std::size_t wg = 0;
  };
  FittedKernel fitted_kernel(const std::string& file, const std::string& kernel_name, std::size_t wg,
                             const std::function<std::string(std::size_t)>& options_for) const;
  // Cold-cache timing: a scratch buffer of twice the device's global memory cache as reported
  // (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE; kFallbackCacheBytes where the device reports 0), and at least
  // kMinEvictBytes (a driver may report a cache smaller than the last level; what NVIDIA's
  // OpenCL reports on the H100, whose L2 holds 50 MB, is not yet checked: the note prints it), at
  // most the device's largest allocation; and a hook (TimingOptions::before_sample) that fills it with
  // clEnqueueFillBuffer before every sample, so that the sample reads its input from memory.
  // `note` says the cache size, where it came from and the bytes written. Throws Error when the
  // buffer cannot be allocated.
  static constexpr std::uint64_t kFallbackCacheBytes = 256ull << 20;
  static constexpr std::uint64_t kMinEvictBytes = 256ull << 20;
  struct CacheEvictor {
    std::function<void(const cl::CommandQueue&)> evict;
    std::uint64_t cache_bytes = 0, scratch_bytes = 0;
    std::string note;
  };
  CacheEvictor cache_evictor() const;
  std::string load_source(const std::string& file) const { return load_kernel_source(kernel_dir(), file); }
  std::size_t builds() const { return ProgramCache::shared().builds(); }

 private:
  DeviceInfo device_;
  KernelDir kernel_dir_;
  cl::Context context_;
  cl::CommandQueue queue_;
  cl::CommandQueue plain_queue_;
  TimerCheck timer_;
};

}  // namespace clreduce
