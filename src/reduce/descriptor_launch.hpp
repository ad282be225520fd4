// The whole-array reduction of a descriptor (clreduce/reduction.hpp): its launch planned from n
// and the device, and the reducer's part that builds, caches and enqueues it
// (kernels_cl/reduce_descriptor.cl). The Reducer forwards its descriptor calls here.
// Thread-safety: as the Reducer that owns it (one thread at a time).
#pragma once

#include "clreduce/introspect/reduce.hpp"
#include "core/bound_queue.hpp"
#include "descriptor/common.hpp"
#include "descriptor/tuned.hpp"

#include <functional>
#include <map>
#include <string>

namespace clreduce {

// The launch for n elements: the work-group size (the caller's, else 256, never above
// `kernel_max_wg` when that is known, i.e. not 0), VEC (the caller's, else 16 bytes of the widest
// input), ITEMS (a -D ITEMS of the caller's, else 4), the groups (enough for every work-item to
// have ITEMS vectors, at most groups_per_cu (default 8) per compute unit), the option string
// (ALIGNED: whether every input's offset is a multiple of VEC; PARTIAL: `partial`) and the depth. Throws ConfigError (Param::N for n = 0, Param::WorkGroupSize, Param::GroupsPerCu,
// Param::Variant for a variant other than "descriptor", Param::Type for f64 without cl_khr_fp64).
DescriptorLaunch plan_descriptor(const Reduction& r, std::uint64_t n, const ReduceParams& params,
                                 const DeviceInfo& dev, std::size_t kernel_max_wg = 0, bool aligned = true,
                                 bool partial = false);

// Whether the whole-array launch can take EXACT_GROUP (exact_group.clh) for r on dev: an exact
// descriptor on a device with fp64 and cl_khr_int64_base_atomics. plan_descriptor takes it there
// by default (-D EXACT_GROUP=0 refuses it; -D EXACT_EXPANSION=0 too).
bool exact_group_available(const Reduction& r, const DeviceInfo& dev);

// A part of a larger reduction (DescriptorReducer::enqueue_part): where its input starts in the
// whole input (the index the map and the lift see for its first element).
struct DescriptorPart {
  std::uint64_t index_base = 0;
};

class DescriptorReducer {
 public:
  // `tuning`: the owner's tuning database (null or empty: none), whose descriptor entries fill the
  // parameters `params` leaves unset (src/descriptor/tuned.hpp).
  DescriptorReducer(BoundQueue& bound, const ReduceParams& params,
                    std::function<const LoadedTuningDb*()> tuning = {})
      : bound_(bound), params_(params), tuning_(std::move(tuning)) {}

  // The launch for n elements, its kernel built; `part`: as a part of a larger reduction
  // (enqueue_part's launch, PARTIAL 1).
  DescriptorLaunch prepare(const Reduction& r, std::uint64_t n, bool part = false);
  // Enqueues the reduction; the result lands at byte out_index * r.out.bytes() of `out`.
  // On `on` (null: the bound queue; another in-order queue of the same context and device).
  // with_event false: no event is made and an empty one returned (an event costs the launch time
  // on NVIDIA: bench/NOTES.md, "One launch for float exact sums"); the last launch's event else.
  cl::Event enqueue(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n, const cl::Buffer& out,
                    std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                    const std::vector<cl::Event>& wait, const cl::CommandQueue* on = nullptr, bool with_event = true);
  Result reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                const std::vector<ScalarArg>& scalars);

  // A part of a larger reduction: the n elements of `inputs` reduced as elements
  // [part.index_base, part.index_base + n) of the whole input, the accumulator left unfinished
  // (r.acc_bytes bytes) at index out_index of `out` (a buffer of accumulators). On `on` as enqueue.
  // `used` (when not null) receives the launch it ran: its kernel, groups and depth.
  cl::Event enqueue_part(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                         const DescriptorPart& part, const cl::Buffer& out, std::uint64_t out_index,
                         const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                         const cl::CommandQueue* on = nullptr, DescriptorLaunch* used = nullptr);
  // The `count` accumulators at the start of `parts` (from enqueue_part, in the order of their
  // parts) folded in order by one work-item, finished for n elements in all, written as result
  // out_index of `out`. Throws Error (Param::N) for count 0 or above 2^32 - 1.
  cl::Event fold_parts(const Reduction& r, const cl::Buffer& parts, std::uint64_t count, std::uint64_t n,
                       const cl::Buffer& out, std::uint64_t out_index, const std::vector<cl::Event>& wait);
  std::size_t allocations() const { return allocations_; }

 private:
  // The launch for (r, n) and its kernel, built once per (descriptor source, option string).
  // `offsets`: the inputs' element offsets (empty: all 0), which decide ALIGNED.
  // The tuning database's entry first (where it fills anything and has not been refused here),
  // then `params_` alone.
  DescriptorLaunch launch_for(const Reduction& r, std::uint64_t n, cl::Kernel* kernel,
                              const std::vector<std::uint64_t>& offsets, bool partial = false);
  DescriptorLaunch launch_with(const ReduceParams& params, const Reduction& r, std::uint64_t n, cl::Kernel* kernel,
                               const std::vector<std::uint64_t>& offsets, bool partial);
  cl::Event launch(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n, const cl::Buffer& out,
                   std::uint64_t out_index, const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait,
                   const cl::CommandQueue* on, const DescriptorPart* part, DescriptorLaunch* used, bool with_event);
  cl::Buffer allocate(std::uint64_t bytes, const std::string& what);

  BoundQueue& bound_;
  const ReduceParams& params_;
  DescriptorTuningCache tuning_;
  struct Built {
    cl::Kernel kernel;
    cl::Program program;
    std::uint64_t private_bytes = 0;  // KernelLimits::private_mem_bytes
  };
  std::map<std::pair<std::string, std::string>, Built> kernels_;  // (source, options) -> its build
  std::map<std::string, cl::Kernel> fold_kernels_;  // source -> reduce_descriptor_fold_parts
  std::map<cl_program, cl::Kernel> exact_finish_kernels_;  // a kernels_ program -> its reduce_descriptor_exact_finish
  std::map<std::string, std::size_t> kernel_max_wg_;                // source -> CL_KERNEL_WORK_GROUP_SIZE
  SourceCache sources_;
  cl::Buffer partials_, ticket_, result_;
  std::uint64_t partial_bytes_ = 0;
  cl::Buffer exact_total_;  // EXACT_GROUP launches' digits (zero between launches)
  std::uint64_t exact_total_bytes_ = 0;
  std::size_t allocations_ = 0;
};

}  // namespace clreduce
