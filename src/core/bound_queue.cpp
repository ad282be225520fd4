// Binding a reducer or transposer to an application's queue.
#include "core/bound_queue.hpp"

#include "clreduce/error.hpp"

namespace clreduce {

void BoundQueue::check_owner(std::uint64_t owner, const char* who) const {
  if (owner != serial)
    throw Error(Param::Launch, std::string("this launch was prepared by another ") + who + "; prepare it with the " +
                                   who + " that uses it");
}

BoundQueue bind_queue(const cl::CommandQueue& queue, const std::optional<DeviceInfo>& device,
                      const std::filesystem::path& kernel_dir, ProgramCache* programs, const char* who) {
  static std::atomic<std::uint64_t> bindings{0};
  BoundQueue b;
  b.serial = ++bindings;
  b.queue = queue;
  b.programs = programs ? programs : &ProgramCache::shared();
  with_cl_context("reading the command queue's context and device", [&] {
    if (queue.getInfo<CL_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
      throw Error(Param::Queue,
                  std::string("the command queue executes out of order; a ") + who +
                      " runs its commands in order on one queue, so give it an in-order queue "
                      "(properties without CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)",
                  "an in-order command queue");
    b.context = queue.getInfo<CL_QUEUE_CONTEXT>();
    b.device = device ? *device : describe_device(queue.getInfo<CL_QUEUE_DEVICE>());
  });
  b.kernel_dir = find_kernel_dir(kernel_dir);
  return b;
}

}  // namespace clreduce
