// The measuring session: one context and its two queues.
#include "measure/session.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <memory>

namespace clreduce {

Session::Session(DeviceInfo device, const std::filesystem::path& kernel_dir)
    : device_(std::move(device)), kernel_dir_(find_kernel_dir(kernel_dir)) {
  with_cl_context("creating a context and its queues on " + device_.name, [&] {
    context_ = cl::Context(device_.device);
    queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
    plain_queue_ = cl::CommandQueue(context_, device_.device, cl_command_queue_properties{0});
  });
  timer_ = check_device_timer(context_, queue_, device_);
}

Sampled Session::time(const EnqueueUnit& enqueue_one, const TimingOptions& opt,
                      const std::function<void()>& after_sample) const {
  TimingOptions o = opt;
  o.clock = clock();
  return time_enqueues(queue_, plain_queue_, device_.timer_resolution_ns, enqueue_one, o, after_sample);
}

Session::CacheEvictor Session::cache_evictor() const {
  CacheEvictor c;
  const cl_ulong reported = with_cl_context("reading the device's cache size", [&] {
    return device_.device.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
  });
  c.cache_bytes = reported ? reported : kFallbackCacheBytes;
  const std::uint64_t wanted = std::max<std::uint64_t>(2 * c.cache_bytes, kMinEvictBytes);
  c.scratch_bytes = std::min<std::uint64_t>(wanted, device_.max_alloc_bytes) / 64 * 64;
  c.note = "cold: " + std::to_string(c.scratch_bytes >> 20) + " MiB written before every sample: " +
           (reported ? "the device reports a " + std::to_string(c.cache_bytes >> 10) +
                           " KiB global memory cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE)"
                     : "the device reports no cache size (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE 0), taken as " +
                           std::to_string(kFallbackCacheBytes >> 20) + " MiB") +
           "; written: the larger of twice that and " + std::to_string(kMinEvictBytes >> 20) + " MiB";
  if (c.scratch_bytes < wanted) c.note += ", capped at the device's largest allocation";
  const std::uint64_t bytes = c.scratch_bytes;
  cl::Buffer scratch = with_cl_context("allocating " + std::to_string(bytes) + " bytes to evict the cache", [&] {
    return cl::Buffer(context_, CL_MEM_READ_WRITE, bytes);
  });
  auto pattern = std::make_shared<cl_uint>(0);
  c.evict = [scratch, bytes, pattern](const cl::CommandQueue& q) {
    ++*pattern;  // a new value each time: nothing a driver could skip
    with_cl_context("evicting the cache (clEnqueueFillBuffer)", [&] {
      q.enqueueFillBuffer(scratch, *pattern, 0, bytes);
    });
  };
  return c;
}

Reducer Session::reducer(ReducerOptions options) const {
  if (!options.device) options.device = device_;
  if (options.kernel_dir.empty()) options.kernel_dir = kernel_dir_.path;
  return Reducer(queue_, std::move(options));
}

Transposer Session::transposer(TransposerOptions options) const {
  if (!options.device) options.device = device_;
  if (options.kernel_dir.empty()) options.kernel_dir = kernel_dir_.path;
  return Transposer(queue_, std::move(options));
}

cl::Program Session::program(const std::string& file, const std::string& options) const {
  return ProgramCache::shared().program(context_, device_, kernel_dir_.path, file, options);
}

cl::Kernel Session::kernel(const std::string& file, const std::string& kernel_name,
                           const std::string& options) const {
  return ProgramCache::shared().kernel(context_, device_, kernel_dir_.path, file, kernel_name, options);
}

Session::FittedKernel Session::fitted_kernel(const std::string& file, const std::string& kernel_name, std::size_t wg,
                                             const std::function<std::string(std::size_t)>& options_for) const {
  for (;;) {
    cl::Kernel k = kernel(file, kernel_name, options_for(wg));
    const KernelLimits lim = kernel_limits(k, device_.device);
    if (wg <= lim.max_work_group_size || lim.max_work_group_size == 0) {
      check_kernel_limits(kernel_name, wg, lim, device_);
      return {k, wg};
    }
    std::size_t fit = 1;
    while (fit * 2 <= lim.max_work_group_size) fit *= 2;
    wg = fit;
  }
}

}  // namespace clreduce
