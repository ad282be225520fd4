// What the descriptor families (whole array, lines, columns) share on the host: the checks of a
// call's inputs and scalars, the setting of kernel arguments, the build-once cache of their
// kernels and scratch buffers.
// Thread-safety: a DescriptorPrograms and a Scratch belong to one reducer (one thread at a time).
#pragma once

#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "core/bound_queue.hpp"
#include "core/int_math.hpp"
#include "descriptor/kernel_params.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace clreduce {

std::uint64_t buffer_bytes(const cl::Buffer& b);

// Throws Error (Param::Buffer, Param::Op) unless there is one Input per r.inputs and one scalar
// per r.scalars.
void check_call(const Reduction& r, const std::vector<Input>& inputs, const std::vector<ScalarArg>& scalars);
// The counts alone (a call with host pointers): Error (Param::Buffer) for the inputs, (Param::Op)
// for the scalars, each naming the count the reduction takes.
void check_counts(const Reduction& r, std::size_t inputs, std::size_t scalars);
// Throws Error (Param::Buffer) unless input j's buffer holds `elements` elements of its type after
// its offset; `what` says what needs them ("a 1000 x 24 matrix with ld 32").
void check_input_span(const Reduction& r, const std::vector<Input>& inputs, std::size_t j, std::uint64_t elements,
                      const std::string& what);
// Throws Error (Param::Buffer) unless `out` holds results [out_index, out_index + count) of r.out.
void check_output(const Reduction& r, const cl::Buffer& out, std::uint64_t out_index, std::uint64_t count);
// The same for a buffer of unfinished accumulators (r.acc_bytes each): a reduction's parts.
void check_accumulators(const Reduction& r, const cl::Buffer& out, std::uint64_t out_index, std::uint64_t count);
// Throws ConfigError (Param::Type) when r needs fp64 and the device has none.
void check_fp64(const Reduction& r, const DeviceInfo& dev);

// The largest work-group whose tree of accumulators (one of r.acc_bytes per work-item, plus a
// few words) fits the device's local memory: a power of two, at most `cap` (no limit known: cap).
// The exact accumulators are 100 to 1100 bytes (an f64 dot's at most 32 work-items in 48 KiB).
std::size_t local_wg_limit(const Reduction& r, const DeviceInfo& dev, std::size_t cap);
// The exact accumulators on a device that is no GPU: PoCL keeps a work-group's private values (each
// work-item's accumulators, and the copies that folding a vector inlines) on one thread's stack,
// and a work-group of 256 exact f64 dot accumulators at VEC 16 overflowed it (a crash). So there,
// wg x acc_bytes x `copies` (a launch's accumulators and folds in flight per work-item) stays
// within kCpuPrivateBudget: a wg not `chosen` is halved until it does, a chosen one is refused
// (ConfigError, Param::WorkGroupSize, naming the largest that fits). Other descriptors: unchanged.
inline constexpr std::uint64_t kCpuPrivateBudget = std::uint64_t{2} << 20;
void fit_private_footprint(const Reduction& r, std::size_t& wg, bool chosen, std::uint64_t copies, const DeviceInfo& dev,
                           const std::string& launch);

// The work-items' independent accumulators (ITEMS) where the caller gives none: one for the exact
// accumulators (each holds its digits in private memory), else `usual`.
unsigned default_items(const Reduction& r, unsigned usual);

// The bytes of the widest of r's inputs (VEC rules load that many per element).
std::size_t widest_input_bytes(const Reduction& r);

// Whether the descriptor planners take CPU shapes on `dev` (contiguous runs, a line per work-item,
// 8-wide column groups, 64-byte loads): a device that is no GPU, and not llvmpipe, whose loops end
// after 65535 trips (DeviceInfo::loop_trip_limit), where one work-item per row or run would loop
// past it (bench/NOTES.md, the descriptor families on a CPU device).
bool cpu_shapes(const DeviceInfo& dev);
// VEC in the CPU shapes: 64 bytes (a cache line) of the widest input, at most 16 elements.
unsigned cpu_vec(const Reduction& r);
// Whether the CPU shapes fold a vector's elements lane by lane (the kernels' LANES): an accumulator
// of at most 8 bytes without a vector lift (sums, dots, integer min/max), which the compiler keeps
// as one SIMD register of VEC lanes; and a descriptor's lanes state (lanes_state: argmin/argmax's
// values and indices as vectors). Not the other structs (Welford's) nor the lifts (float min/max's
// tree, narrow sums): lanes measured slower for them on PoCL (bench/NOTES.md, lanes on a CPU), but
// for f16's min and max, which lanes made 3-9x faster. Never for an exact summation.
bool cpu_lanes(const Reduction& r);
// Throws ConfigError (Param::Define) where `lanes` folds a descriptor's lanes state (lanes_state,
// no vector lanes) on Mesa's llvmpipe (Rusticl's CPU device; its loop_trip_limit marks it): there
// argmin/argmax's lanes read wrong values on data with ties (tests/test_descriptor.cpp, lanes as
// vectors), where PoCL, Oclgrind and NVIDIA read them right. The planners never take them there.
void refuse_lanes_state_on_llvmpipe(const Reduction& r, bool lanes, const DeviceInfo& dev, const std::string& kernel);

// A device that ends a kernel's loops (llvmpipe: DeviceInfo::loop_trip_limit, 65535 iterations in
// all) returns wrong values from a work-item that loops longer: on Rusticl a column of 200000 ones
// summed to 65536. loop_trips_allowed: the most a planner's estimate of a work-item's loop trips
// may reach (an eighth of the limit kept for what the estimate leaves out, as the axis planner
// does); no limit: the largest uint64. check_loop_trips throws ConfigError (`param`) naming the
// launch, the trips, the device and its limit, and `fix` (what to give instead), when `trips` is
// over it.
std::uint64_t loop_trips_allowed(const DeviceInfo& dev);
void check_loop_trips(const DeviceInfo& dev, std::uint64_t trips, const std::string& launch, Param param,
                      const std::string& fix);
// The work-group of the CPU shapes that give each work-item one contiguous run (the whole array's
// BLOCKED, the lines' BLOCKED): contiguous_blocks' best on PoCL.
inline constexpr std::size_t kCpuRunWg = 8;

// The host forms' inputs: one pointer per input of r (the count checked, none null), each holding
// `elements` elements of its type, copied into new buffers of `context` by blocking writes on
// `queue` (so the caller's memory may change or go once this returns, whatever fails later).
// 0 elements: a buffer of one element, nothing copied. Throws Error: Param::Buffer (a count
// other than r's, a null pointer), Param::N (more elements than the device's largest allocation).
std::vector<Input> upload_host_inputs(const cl::Context& context, const cl::CommandQueue& queue,
                                      const DeviceInfo& dev, const Reduction& r,
                                      const std::vector<const void*>& host, std::uint64_t elements);

// The arguments every descriptor kernel starts with (each input's buffer and element offset) and
// ends with (the scalars, converted to their declared types).
cl_uint set_input_args(cl::Kernel& k, const std::vector<Input>& inputs);
void set_scalar_args(cl::Kernel& k, cl_uint first, const Reduction& r, const std::vector<ScalarArg>& scalars);

// Kernels built once per (kernel, descriptor source, option string), and the work-group size each
// descriptor's build of a kernel allows (known after its first build).
class DescriptorPrograms {
 public:
  explicit DescriptorPrograms(BoundQueue& bound) : bound_(bound) {}
  // The built kernel; its CL_KERNEL_WORK_GROUP_SIZE is remembered for (k, source).
  cl::Kernel get(const KernelSpec& k, const std::string& source, const std::string& name,
                 const std::string& options);
  // 0 until `k` has been built for `source` once.
  std::size_t max_wg(const KernelSpec& k, const std::string& source) const;
  const BoundQueue& bound() const { return bound_; }

 private:
  BoundQueue& bound_;
  std::map<std::tuple<std::string, std::string, std::string>, cl::Kernel> kernels_;
  std::map<std::pair<std::string, std::string>, std::size_t> max_wg_;
};

// The generated header (reduction_source) of each descriptor a reducer has seen lately: making it
// costs about 20 µs for a built-in (7 KB of text; measured on this project's 2-core CI machine),
// more than a small reduction's whole launch, where comparing a descriptor with the one before
// costs well under a microsecond. Keeps the 16 most recently used. Throws what reduction_source
// throws (a malformed descriptor), every time it is asked for one.
class SourceCache {
 public:
  std::shared_ptr<const std::string> of(const Reduction& r);

 private:
  std::vector<std::pair<Reduction, std::shared_ptr<const std::string>>> entries_;  // most recent first
};

// A device buffer that grows to the largest size asked of it. zeroed: new storage is filled with
// zeros (ticket counters, which the kernels leave at 0 after each launch).
class Scratch {
 public:
  const cl::Buffer& at_least(BoundQueue& bound, std::uint64_t bytes, const std::string& what, bool zeroed,
                             std::size_t* allocations);

 private:
  cl::Buffer buffer_;
  std::uint64_t bytes_ = 0;
};

}  // namespace clreduce
