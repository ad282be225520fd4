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

}  // namespace clreduce
