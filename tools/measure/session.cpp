// The measuring session: one context and its two queues.
#include "measure/session.hpp"

#include "clreduce/error.hpp"

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
