// The SegmentedReducer: the offsets' validation, the plan of segments_group (work-group, groups,
// option string), launches resolved once per (type, op, n, S) and cached, enqueued on the queue;
// host offsets go through a buffer the reducer keeps and reuses.
#include "clreduce/segmented.hpp"

#include "core/bound_queue.hpp"
#include "core/matrix.hpp"

#include <algorithm>
#include <tuple>

namespace clreduce {

namespace {
// Groups launched at most: they loop over the segments beyond (as the axis kernels loop over rows).
constexpr std::uint64_t kMaxGroups = 1u << 20;
constexpr std::size_t kDefaultWg = 256;

bool power_of_two(std::uint64_t x) { return x && !(x & (x - 1)); }
unsigned log2_of(std::uint64_t x) {
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < x) ++l;
  return l;
}

const char* kValidOffsets = "S + 1 non-decreasing offsets, the first 0, the last n";

SegmentedPlan plan_segments(ElemType type, Op op, const SegmentedParams& params, const DeviceInfo& dev,
                            std::uint64_t n, std::uint64_t segments) {
  if (segments == 0)
    throw ConfigError(Param::Segments, "no segments: a segmented reduction needs at least one (S + 1 >= 2 offsets)",
                      kValidOffsets);
  check_type_on_device(dev, type);
  const std::uint64_t es = size_of(type);
  if (n > dev.max_alloc_bytes / es)
    throw ConfigError(Param::N,
                      std::to_string(n) + " " + std::string(name_of(type)) + " elements are over the largest single "
                          "allocation of " + dev.name + ", " + std::to_string(dev.max_alloc_bytes) +
                          " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                      "n * element size <= " + std::to_string(dev.max_alloc_bytes), dev.name);
  if (segments > dev.max_alloc_bytes / 8 - 1)
    throw ConfigError(Param::Segments,
                      std::to_string(segments) + " segments: their " + std::to_string(segments) +
                          " + 1 offsets of 8 bytes are over the largest single allocation of " + dev.name + ", " +
                          std::to_string(dev.max_alloc_bytes) + " bytes",
                      "(S + 1) * 8 <= " + std::to_string(dev.max_alloc_bytes), dev.name);
  SegmentedPlan p;
  p.n = n;
  p.segments = segments;
  p.wg = params.wg.value_or(std::min<std::size_t>(kDefaultWg, dev.max_work_group_size));
  if (!power_of_two(p.wg) || p.wg > dev.max_work_group_size)
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(p.wg) + " is not a power of two up to the device maximum " +
                          std::to_string(dev.max_work_group_size) + " of " + dev.name,
                      "1, 2, 4, ... " + std::to_string(dev.max_work_group_size), dev.name);
  p.groups = std::min(segments, kMaxGroups);
  BuildOptions o;
  o.set("TYPE_ID", static_cast<unsigned long long>(type));
  o.set("OP_ID", static_cast<unsigned long long>(op));
  o.set("FIRST_PASS", 1ULL);
  o.set("WG_SIZE", p.wg);
  o.set("LOCKSTEP", dev.lockstep_width);
  if (dev.is_nvidia) o.set("NV_WARP_SYNC", 1ULL);
  o.add_user(params.defines);
  p.options = o.str();
  return p;
}
}  // namespace

void validate_segment_offsets(const std::uint64_t* offsets, std::size_t count, std::uint64_t n) {
  if (count < 2)
    throw ConfigError(Param::Segments,
                      std::to_string(count) + (count == 1 ? " offset" : " offsets") +
                          " given: segments need S + 1 >= 2 offsets (" + kValidOffsets + ")",
                      kValidOffsets);
  if (offsets[0] != 0)
    throw ConfigError(Param::Segments,
                      "offset 0 is " + std::to_string(offsets[0]) + ", not 0 (" + kValidOffsets + ")", kValidOffsets);
  for (std::size_t i = 1; i < count; ++i)
    if (offsets[i] < offsets[i - 1])
      throw ConfigError(Param::Segments,
                        "offset " + std::to_string(i) + " is " + std::to_string(offsets[i]) +
                            ", less than offset " + std::to_string(i - 1) + " (" + std::to_string(offsets[i - 1]) +
                            "): offsets must not decrease (" + kValidOffsets + ")",
                        kValidOffsets);
  if (offsets[count - 1] != n)
    throw ConfigError(Param::Segments,
                      "the last offset (offset " + std::to_string(count - 1) + ") is " +
                          std::to_string(offsets[count - 1]) + ", not n = " + std::to_string(n) + " (" +
                          kValidOffsets + ")",
                      kValidOffsets);
}

unsigned SegmentedPlan::depth_of(std::uint64_t length) const {
  const std::uint64_t d = (length + wg - 1) / wg + log2_of(wg);
  return static_cast<unsigned>(std::min<std::uint64_t>(d, 0xffffffffu));
}

std::string SegmentedPlan::launch_label() const {
  return "wg " + std::to_string(wg) + ", " + std::to_string(groups) + (groups == 1 ? " group" : " groups");
}

struct SegmentedReducer::State : BoundQueue {
  using Key = std::tuple<ElemType, Op, std::uint64_t, std::uint64_t>;
  SegmentedReducerOptions options;
  LaunchCache<Key, SegmentedLaunch> launches;
  cl::Buffer offsets;  // host offsets, copied for the kernel
  std::uint64_t offsets_bytes = 0;
};

SegmentedReducer::SegmentedReducer(const cl::CommandQueue& queue, SegmentedReducerOptions options)
    : s_(std::make_unique<State>()) {
  static_cast<BoundQueue&>(*s_) =
      bind_queue(queue, options.device, options.kernel_dir, options.programs, "segmented reducer");
  s_->options = std::move(options);
}

SegmentedReducer::SegmentedReducer(cl_command_queue queue, SegmentedReducerOptions options)
    : SegmentedReducer(cl::CommandQueue(queue, /*retainObject=*/true), std::move(options)) {}

SegmentedReducer::SegmentedReducer(SegmentedReducer&&) noexcept = default;
SegmentedReducer& SegmentedReducer::operator=(SegmentedReducer&&) noexcept = default;
SegmentedReducer::~SegmentedReducer() = default;

std::shared_ptr<const SegmentedLaunch> SegmentedReducer::prepare(ElemType type, Op op, std::uint64_t n,
                                                                 std::uint64_t segments) {
  const State::Key key{type, op, n, segments};
  if (std::shared_ptr<SegmentedLaunch> cached = s_->launches.find(key)) return cached;
  auto l = std::make_shared<SegmentedLaunch>();
  l->type = type;
  l->op = op;
  DeviceInfo dev = s_->device;  // its work-group limit shrinks below when the built kernel allows fewer
  // A work-group nobody chose follows the built kernel (it halves until it fits); a chosen one
  // over the kernel's limit is refused.
  for (;;) {
    l->plan = plan_segments(type, op, s_->options.params, dev, n, segments);
    l->kernel_ = s_->programs->kernel(s_->context, s_->device, s_->kernel_dir.path, l->plan.file, l->plan.kernel,
                                      l->plan.options);
    const KernelLimits limits = kernel_limits(l->kernel_, s_->device.device);
    l->kernel_max_wg = std::min(dev.max_work_group_size, limits.max_work_group_size);
    if (l->plan.wg <= l->kernel_max_wg || s_->options.params.wg || l->plan.wg == 1) {
      check_kernel_limits(l->plan.kernel + " (" + l->plan.launch_label() + ")", l->plan.wg, limits, s_->device);
      break;
    }
    dev.max_work_group_size = l->plan.wg / 2;
  }
  l->owner_ = s_.get();
  s_->launches.insert(key, l);
  return l;
}

std::vector<cl::Event> SegmentedReducer::enqueue(const SegmentedLaunch& launch, const cl::Buffer& in,
                                                 const cl::Buffer& offsets, const cl::Buffer& out,
                                                 const cl::CommandQueue* on, bool with_events,
                                                 const std::vector<cl::Event>* wait) {
  if (launch.owner_ != s_.get())
    throw Error("this segmented launch was prepared by another segmented reducer; prepare it with the one that enqueues it");
  const SegmentedPlan& p = launch.plan;
  const std::uint64_t es = size_of(launch.type);
  const std::string type = std::string(name_of(launch.type));
  with_cl_context("querying the buffers' sizes", [&] {
    if (in.getInfo<CL_MEM_SIZE>() < p.n * es)
      throw Error(Param::Buffer,
                  "the input buffer holds " + std::to_string(in.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(p.n * es) + " of " + std::to_string(p.n) + " " + type + " elements",
                  "a buffer of at least n elements");
    if (offsets.getInfo<CL_MEM_SIZE>() < (p.segments + 1) * 8)
      throw Error(Param::Buffer,
                  "the offsets buffer holds " + std::to_string(offsets.getInfo<CL_MEM_SIZE>()) +
                      " bytes, fewer than the " + std::to_string((p.segments + 1) * 8) + " of " +
                      std::to_string(p.segments + 1) + " ulong offsets (S + 1 for " + std::to_string(p.segments) +
                      " segments)",
                  "a buffer of at least S + 1 cl_ulong values");
    if (out.getInfo<CL_MEM_SIZE>() < p.segments * es)
      throw Error(Param::Buffer,
                  "the output buffer holds " + std::to_string(out.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(p.segments * es) + " of " + std::to_string(p.segments) + " " + type +
                      " values (one per segment)",
                  "a buffer of at least S elements");
  });
  return with_cl_context("enqueueing segmented reduction", [&] {
    std::vector<cl::Event> events;
    const cl::CommandQueue& q = on ? *on : s_->queue;
    cl::Kernel& k = launch.kernel_;
    k.setArg(0, in);
    k.setArg(1, offsets);
    k.setArg(2, out);
    k.setArg(3, static_cast<cl_ulong>(p.n));
    k.setArg(4, static_cast<cl_ulong>(p.segments));
    cl::Event ev;
    q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(p.groups * p.wg), cl::NDRange(p.wg), wait,
                           with_events ? &ev : nullptr);
    if (with_events) events.push_back(ev);
    return events;
  });
}

cl::Event SegmentedReducer::reduce(const cl::Buffer& in, const cl::Buffer& offsets, const cl::Buffer& out,
                                   ElemType type, Op op, std::uint64_t n, std::uint64_t segments,
                                   const std::vector<cl::Event>& wait) {
  const std::shared_ptr<const SegmentedLaunch> l = prepare(type, op, n, segments);
  return enqueue(*l, in, offsets, out, nullptr, true, wait.empty() ? nullptr : &wait).back();
}

cl::Event SegmentedReducer::reduce(const cl::Buffer& in, const std::vector<std::uint64_t>& offsets,
                                   const cl::Buffer& out, ElemType type, Op op, std::uint64_t n,
                                   const std::vector<cl::Event>& wait) {
  validate_segment_offsets(offsets, n);
  const std::shared_ptr<const SegmentedLaunch> l = prepare(type, op, n, offsets.size() - 1);
  const std::uint64_t bytes = offsets.size() * sizeof(std::uint64_t);
  with_cl_context("copying " + std::to_string(offsets.size()) + " segment offsets to the device", [&] {
    if (bytes > s_->offsets_bytes) {
      s_->offsets = cl::Buffer(s_->context, CL_MEM_READ_ONLY, bytes);
      s_->offsets_bytes = bytes;
    }
    // Blocking: the caller's vector may go away on return; the wait list orders it after `wait`.
    s_->queue.enqueueWriteBuffer(s_->offsets, CL_TRUE, 0, bytes, offsets.data(), wait.empty() ? nullptr : &wait);
  });
  return enqueue(*l, in, s_->offsets, out, nullptr, true, nullptr).back();
}

void SegmentedReducer::reduce_host(ElemType type, Op op, const void* data, std::uint64_t n,
                                   const std::vector<std::uint64_t>& offsets, void* out) {
  validate_segment_offsets(offsets, n);
  const std::uint64_t es = size_of(type);
  const std::uint64_t segments = offsets.size() - 1;
  prepare(type, op, n, segments);  // refusals before any buffer is made
  cl::Buffer in, result;
  with_cl_context("allocating and uploading the segmented reduction's data", [&] {
    // A buffer cannot be empty: n == 0 (every segment empty) gets one element nobody reads.
    in = cl::Buffer(s_->context, CL_MEM_READ_ONLY, std::max<std::uint64_t>(n, 1) * es);
    result = cl::Buffer(s_->context, CL_MEM_WRITE_ONLY, segments * es);
    if (n) s_->queue.enqueueWriteBuffer(in, CL_FALSE, 0, n * es, data);
  });
  reduce(in, offsets, result, type, op, n);
  with_cl_context("reading the segments' values back",
                  [&] { s_->queue.enqueueReadBuffer(result, CL_TRUE, 0, segments * es, out); });
}

const DeviceInfo& SegmentedReducer::device() const { return s_->device; }
const cl::Context& SegmentedReducer::context() const { return s_->context; }
const cl::CommandQueue& SegmentedReducer::queue() const { return s_->queue; }

}  // namespace clreduce
