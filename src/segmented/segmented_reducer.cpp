// The SegmentedReducer: the offsets' validation, the plan of segments_group (work-group, groups,
// option string), launches resolved once per (type, op, n, S) and cached, enqueued on the queue;
// host offsets go through a buffer the reducer keeps and reuses.
#include "reduce/tuning_source.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/introspect/segmented.hpp"

#include "clreduce/kernel_spec.hpp"
#include "core/bound_queue.hpp"
#include "core/introspect_access.hpp"
#include "descriptor/families.hpp"
#include "descriptor/kernel_params.hpp"
#include "core/matrix.hpp"
#include "segmented/segmented_kernels.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

namespace clreduce {

namespace {
// Groups launched at most: they loop over the segments beyond (as the axis kernels loop over rows).
constexpr std::uint64_t kMaxGroups = 1u << 20;
// segments_split runs the segments along the grid's second dimension, which NVIDIA caps at 65535.
constexpr std::uint64_t kMaxGroupsY = 65535;
constexpr std::uint64_t kMaxParts = 65535;
constexpr std::size_t kDefaultWg = 256;
// The planner's rule (as the axis planner's for rows_split): one group per segment once there are
// kFewPerCu segments per compute unit; else parts enough for kGroupsPerCu groups per compute unit,
// each work-item folding at least kMinPerItem elements of an average segment. On the H100 (2^26
// floats, bench/results/2026-11-25_h100_axis_ops/segments) 100 segments took 121.6 µs in 11 parts
// each (8 groups per compute unit) and 99.8 µs in 64 (48 per compute unit): more, shorter groups.
constexpr std::uint64_t kFewPerCu = 4;
constexpr std::uint64_t kGroupsPerCu = 32;
constexpr std::uint64_t kMinPerItem = 16;
constexpr unsigned kItems = 4;  // segments_split's ITEMS
// Segments of at most this many elements on average (no slice or parts named, one group per
// segment planned) go to segments_sliced, a slice of about one work-item per kSliceElementsPerItem
// elements, a power of two from kMinAutoSlice to kMaxAutoSlice. On the H100 (2^26 floats,
// bench/results/2026-11-26_h100_segments_sliced and the run before it for 671): length 32 took 104.3 µs at a
// slice of 4 against segments_group's 2585.6; 128: 97.8 at 16 against 737.8; 512: 92.7 at 32
// against 197.9; 671: 98.5 at 16 and 98.8 at 32 against 157.5; 2048: 91.8 at 32 against 94.2;
// 8192: segments_group's 91.0 against 95.0 at 32. The best slice was the one giving each
// work-item 8 to 64 elements, narrower ones leaving the group's slices too long.
constexpr std::uint64_t kSlicedMaxAverage = 2048;
constexpr std::uint64_t kSliceElementsPerItem = 8;
constexpr unsigned kMinAutoSlice = 4, kMaxAutoSlice = 32;

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
  // WG_SIZE, SLICE and ITEMS are declared parameters (segmented_kernels.cpp): --wg, --row-width or
  // a -D of the caller, never both with different values.
  const std::optional<std::uint64_t> wg_given =
      caller_value(segments_group_kernel(), "WG_SIZE",
                   params.wg ? std::optional<std::uint64_t>(*params.wg) : std::nullopt, "the work-group size",
                   params.defines);
  const std::optional<std::uint64_t> slice_given =
      caller_value(segments_sliced_kernel(), "SLICE",
                   params.slice ? std::optional<std::uint64_t>(*params.slice) : std::nullopt, "the slice",
                   params.defines);
  const std::optional<std::uint64_t> items_given = given_value(segments_split_kernel(), "ITEMS", params.defines);
  p.wg = static_cast<std::size_t>(wg_given.value_or(std::min<std::size_t>(kDefaultWg, dev.max_work_group_size)));
  if (!power_of_two(p.wg) || p.wg > dev.max_work_group_size)
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(p.wg) + " is not a power of two up to the device maximum " +
                          std::to_string(dev.max_work_group_size) + " of " + dev.name,
                      "1, 2, 4, ... " + std::to_string(dev.max_work_group_size), dev.name);
  const std::uint64_t cus = std::max<std::uint64_t>(dev.compute_units, 1);
  if (params.parts) {
    if (*params.parts == 0 || *params.parts > kMaxParts)
      throw ConfigError(Param::Chunks, "parts per segment " + std::to_string(*params.parts) + "; valid: 1.." +
                                           std::to_string(kMaxParts) + " (1: one work-group per segment)",
                        "1.." + std::to_string(kMaxParts));
    p.parts = *params.parts;
  } else if (segments < kFewPerCu * cus && !(slice_given && *slice_given != p.wg)) {  // a slice: one pass
    const std::uint64_t average = n / segments;
    const std::uint64_t most = std::max<std::uint64_t>(1, average / (p.wg * kMinPerItem));
    p.parts = std::clamp<std::uint64_t>((kGroupsPerCu * cus + segments - 1) / segments, 1, std::min(most, kMaxParts));
  }
  // The loops a slice's work-items may run in all: up to n / slice trips (every segment it meets,
  // one element per trip at most) plus the trips over its segments and their trees.
  const auto sliced_groups = [&](unsigned sl) { return std::min((segments + p.wg / sl - 1) / (p.wg / sl), kMaxGroups); };
  const auto sliced_loops = [&](unsigned sl) {
    const std::uint64_t per_group = p.wg / sl;
    const std::uint64_t trips = (segments + sliced_groups(sl) * per_group - 1) / (sliced_groups(sl) * per_group);
    return (n + sl - 1) / sl + trips * (2 + log2_of(sl));
  };
  // No slice or parts named, one group per segment planned, and short segments on average: a
  // slice of work-items per segment (see kSlicedMaxAverage), unless the device would end its loops.
  std::optional<unsigned> slice;
  if (slice_given) slice = static_cast<unsigned>(*slice_given);
  if (!slice && !params.parts && p.parts <= 1 && n / segments <= kSlicedMaxAverage) {
    unsigned sl = kMinAutoSlice;  // and at most half the group, so that a group holds two segments or more
    while (2 * sl * kSliceElementsPerItem <= n / segments && 2 * sl <= kMaxAutoSlice && 4 * sl <= p.wg) sl *= 2;
    if (2 * sl <= p.wg && !(dev.loop_trip_limit && sliced_loops(sl) > dev.loop_trip_limit)) slice = sl;
  }
  if (slice && *slice != p.wg) {
    const unsigned sl = *slice;
    if (!power_of_two(sl) || sl > p.wg)
      throw ConfigError(Param::RowWidth,
                        "slice " + std::to_string(sl) + " must be a power of two up to the work-group size " +
                            std::to_string(p.wg) + " (work-items per segment)",
                        "1, 2, 4, ... " + std::to_string(p.wg));
    if (p.parts > 1)
      throw ConfigError(Param::RowWidth,
                        "a slice of " + std::to_string(sl) + " work-items per segment and " + std::to_string(p.parts) +
                            " parts per segment contradict each other: slices share a group among segments, parts "
                            "give a segment several groups",
                        "a slice, or parts, not both");
    p.slice = sl;
    p.file = "segments_sliced.cl";
    p.kernel = "segments_sliced";
    p.groups = sliced_groups(sl);
    // A device that ends long loops (llvmpipe): refused when the slice's work-items may loop past it.
    if (dev.loop_trip_limit) {
      const std::uint64_t worst = sliced_loops(sl);
      if (worst > dev.loop_trip_limit)
        throw ConfigError(Param::RowWidth,
                          "a slice of " + std::to_string(sl) + " work-items per segment may loop " +
                              std::to_string(worst) + " times over " + std::to_string(n) + " elements, and " +
                              dev.name + " ends a kernel's loops after " + std::to_string(dev.loop_trip_limit) +
                              " iterations; give a slice of at least " +
                              std::to_string(std::uint64_t{1} << log2_of((n + dev.loop_trip_limit / 2 - 1) / (dev.loop_trip_limit / 2))) +
                              ", or no slice (one group per segment, or parts)",
                          "a wider slice, or none", dev.name);
    }
  } else if (p.parts > 1) {
    p.file = "segments_split.cl";
    p.kernel = "segments_split";
    p.finish_kernel = "segments_split_finish";
    p.items = static_cast<unsigned>(items_given.value_or(kItems));
    p.groups = std::min(segments, kMaxGroupsY);
  } else {
    p.groups = std::min(segments, kMaxGroups);
  }
  // Every declared parameter of the chosen kernel, resolved; options_for writes them in
  // declaration order, then the caller's other -D defines.
  const bool lockstep = !is_arg_op(op);
  ParamValues values = {{"TYPE_ID", static_cast<std::uint64_t>(type)},
                        {"OP_ID", static_cast<std::uint64_t>(op)},
                        {"FIRST_PASS", 1},
                        {"WG_SIZE", p.wg},
                        {"LOCKSTEP", lockstep ? dev.lockstep_width : 0},
                        {"NV_WARP_SYNC", lockstep && dev.is_nvidia ? 1 : 0}};
  const KernelSpec* spec = &segments_group_kernel();
  if (p.slice) {
    spec = &segments_sliced_kernel();
    p.items = static_cast<unsigned>(items_given.value_or(is_arg_op(op) ? 1U : kItems));  // as the axis kernels: pairs fold best one at a time
    values.push_back({"SLICE", p.slice});
    values.push_back({"ITEMS", p.items});
  } else if (p.parts > 1) {
    spec = &segments_split_kernel();
    values.push_back({"ITEMS", p.items});
  }
  p.options = options_for(*spec, values, params.defines);
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
  if (descriptor) return descriptor->depth_of(length);
  if (slice) return static_cast<unsigned>(std::min<std::uint64_t>((length + slice - 1) / slice + log2_of(slice), 0xffffffffu));
  const std::uint64_t part = (length + parts - 1) / parts;
  std::uint64_t d = (part + wg - 1) / wg + log2_of(wg);
  if (parts > 1) d += items + (parts + wg - 1) / wg + log2_of(wg);
  return static_cast<unsigned>(std::min<std::uint64_t>(d, 0xffffffffu));
}

std::string SegmentedPlan::launch_label() const {
  if (descriptor) return "descriptor lines: " + descriptor->label();
  if (parts > 1)
    return "wg " + std::to_string(wg) + ", " + std::to_string(parts) + " parts x " + std::to_string(groups) +
           (groups == 1 ? " segment group" : " segment groups") + ", items " + std::to_string(items);
  return "wg " + std::to_string(wg) + (slice ? ", slice " + std::to_string(slice) : std::string()) + ", " +
         std::to_string(groups) + (groups == 1 ? " group" : " groups");
}

struct SegmentedReducer::State : BoundQueue {
  using Key = std::tuple<ElemType, Op, std::uint64_t, std::uint64_t>;
  SegmentedReducerOptions options;
  LaunchCache<Key, SegmentedLaunch> launches;
  cl::Buffer offsets;  // host offsets, copied for the kernel
  std::uint64_t offsets_bytes = 0;
  cl::Buffer partials;  // segments_split's S x parts partial values
  std::uint64_t partials_bytes = 0;
  std::unique_ptr<FamilyReducer> families;  // the descriptor path, made on its first use

  TuningLookup tuning;  // the database, read on first use when enabled (reduce/tuning_source.hpp)

  FamilyReducer& family() {
    if (!families) families = std::make_unique<FamilyReducer>(*this, [this] { return tuning_db(); });
    return *families;
  }
  // As the Reducer's: the shared database when the caller gave one, else read once.
  const LoadedTuningDb* tuning_db() { return tuning.get(options.tuning); }
  // The lines kernel's parameters from the reducer's SegmentedParams (slice: ROW_WIDTH, parts).
  FamilyParams family_params() const {
    const SegmentedParams& p = options.params;
    return FamilyParams{p.wg, p.slice, p.parts, p.defines};
  }

  // The hooks of clreduce/introspect/segmented.hpp (defined below), which the reducer's calls use too.
  std::shared_ptr<const SegmentedLaunch> prepare(ElemType type, Op op, std::uint64_t n, std::uint64_t segments);
  std::vector<cl::Event> enqueue(const SegmentedLaunch& launch, const cl::Buffer& in, const cl::Buffer& offsets,
                                 const cl::Buffer& out, const cl::CommandQueue* on, bool with_events,
                                 const std::vector<cl::Event>* wait);
  DescriptorLaunch prepare(const Reduction& r, std::uint64_t n, std::uint64_t segments, Scalar offset_type);
  cl::Event enqueue(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n, const Segments& segments,
                    const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                    const cl::CommandQueue* on, const std::vector<cl::Event>& wait, bool with_event = true);
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

std::shared_ptr<const SegmentedLaunch> SegmentedReducer::State::prepare(ElemType type, Op op, std::uint64_t n,
                                                                        std::uint64_t segments) {
  const State::Key key{type, op, n, segments};
  if (std::shared_ptr<SegmentedLaunch> cached = launches.find(key)) return cached;
  const UserOperator* user_op = user_operator_for(op, type, options.user_op);  // refusals first
  auto l = std::make_shared<SegmentedLaunch>();
  l->type = type;
  l->op = op;
  const SegmentedParams& given = options.params;
  if (cpu_shapes(device) && op != Op::User && !given.wg && !given.slice && !given.parts && given.defines.empty()) {
    // A CPU and nothing chosen: the descriptor's lines kernel over the operator's built-in, whose
    // CPU shape (a work-item's contiguous run of segments, no tree) segments_group and
    // segments_sliced, GPU-shaped, read at a fraction of (bench/NOTES.md, the Op path on a CPU).
    plan_segments(type, op, given, device, n, segments);  // the same refusals first
    auto r = std::make_shared<const Reduction>(builtin_of(op, type));
    const DescriptorLaunch dl = prepare(*r, n, segments, Scalar::U64);
    SegmentedPlan& p = l->plan;
    p.n = n;
    p.segments = segments;
    p.file = lines_kernel().file;
    p.kernel = lines_kernel().kernel;
    p.wg = dl.wg;
    p.parts = dl.chunks;
    p.items = dl.items;
    p.groups = dl.groups;
    p.options = dl.options;
    p.descriptor = std::make_shared<const DescriptorLaunch>(dl);
    l->kernel_max_wg = dl.wg;
    l->descriptor_ = std::move(r);
    l->owner_ = serial;
    launches.insert(key, l);
    return l;
  }
  DeviceInfo dev = device;  // its work-group limit shrinks below when the built kernel allows fewer
  // A work-group nobody chose follows the built kernel (it halves until it fits); a chosen one
  // over the kernel's limit is refused.
  for (;;) {
    l->plan = plan_segments(type, op, options.params, dev, n, segments);
    l->kernel_ = programs->kernel(context, device, kernel_dir.path, l->plan.file, l->plan.kernel,
                                      l->plan.options, user_op);
    KernelLimits limits = kernel_limits(l->kernel_, device.device);
    if (!l->plan.finish_kernel.empty()) {
      l->finish_ = programs->kernel(context, device, kernel_dir.path, l->plan.file,
                                        l->plan.finish_kernel, l->plan.options, user_op);
      const KernelLimits f = kernel_limits(l->finish_, device.device);
      limits.max_work_group_size = std::min(limits.max_work_group_size, f.max_work_group_size);
      limits.local_mem_bytes = std::max(limits.local_mem_bytes, f.local_mem_bytes);
    }
    l->kernel_max_wg = std::min(dev.max_work_group_size, limits.max_work_group_size);
    const bool wg_chosen =
        options.params.wg || given_value(segments_group_kernel(), "WG_SIZE", options.params.defines);
    if (l->plan.wg <= l->kernel_max_wg || wg_chosen || l->plan.wg == 1) {
      check_kernel_limits(l->plan.kernel + " (" + l->plan.launch_label() + ")", l->plan.wg, limits, device);
      break;
    }
    dev.max_work_group_size = l->plan.wg / 2;
  }
  l->owner_ = serial;
  launches.insert(key, l);
  return l;
}

std::vector<cl::Event> SegmentedReducer::State::enqueue(const SegmentedLaunch& launch, const cl::Buffer& in,
                                                        const cl::Buffer& offsets_buf, const cl::Buffer& out,
                                                        const cl::CommandQueue* on, bool with_events,
                                                        const std::vector<cl::Event>* wait) {
  check_owner(launch.owner_, "segmented reducer");
  const SegmentedPlan& p = launch.plan;
  const std::uint64_t es = size_of(launch.type);
  const std::uint64_t rs = result_size(launch.type, launch.op);  // an output value (or ArgValue)
  const std::string type = std::string(name_of(launch.type));
  with_cl_context("querying the buffers' sizes", [&] {
    if (in.getInfo<CL_MEM_SIZE>() < p.n * es)
      throw Error(Param::Buffer,
                  "the input buffer holds " + std::to_string(in.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(p.n * es) + " of " + std::to_string(p.n) + " " + type + " elements",
                  "a buffer of at least n elements");
    if (offsets_buf.getInfo<CL_MEM_SIZE>() < (p.segments + 1) * 8)
      throw Error(Param::Buffer,
                  "the offsets buffer holds " + std::to_string(offsets_buf.getInfo<CL_MEM_SIZE>()) +
                      " bytes, fewer than the " + std::to_string((p.segments + 1) * 8) + " of " +
                      std::to_string(p.segments + 1) + " ulong offsets (S + 1 for " + std::to_string(p.segments) +
                      " segments)",
                  "a buffer of at least S + 1 cl_ulong values");
    if (out.getInfo<CL_MEM_SIZE>() < p.segments * rs)
      throw Error(Param::Buffer,
                  "the output buffer holds " + std::to_string(out.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(p.segments * rs) + " of " + std::to_string(p.segments) + " " + type +
                      (is_arg_op(launch.op) ? " (value, index) pairs of 16 bytes (one per segment)"
                                            : " values (one per segment)"),
                  is_arg_op(launch.op) ? "a buffer of at least S ArgValue<T>" : "a buffer of at least S elements");
  });
  if (launch.descriptor_) {
    // The descriptor API's enqueue of the built-in over `in` (offset 0), the offsets as CSR ulongs.
    const std::vector<cl::Event> none;
    cl::Event ev = enqueue(*launch.descriptor_, {Input{in, 0}}, p.n,
                           Segments::offsets<std::uint64_t>(offsets_buf, p.segments), out, 0, {}, on,
                           wait ? *wait : none, with_events);
    std::vector<cl::Event> events;
    if (with_events) events.push_back(ev);
    return events;
  }
  if (p.parts > 1) {
    const std::uint64_t bytes = p.segments * p.parts * rs;
    if (bytes > partials_bytes)
      with_cl_context("allocating " + std::to_string(bytes) + " bytes for the segments' partial values", [&] {
        partials = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
        partials_bytes = bytes;
      });
  }
  return with_cl_context("enqueueing segmented reduction", [&] {
    std::vector<cl::Event> events;
    const cl::CommandQueue& q = on ? *on : queue;
    cl::Kernel& k = launch.kernel_;
    const bool split = p.parts > 1;
    k.setArg(0, in);
    k.setArg(1, offsets_buf);
    k.setArg(2, split ? partials : out);
    k.setArg(3, static_cast<cl_ulong>(p.n));
    k.setArg(4, static_cast<cl_ulong>(p.segments));
    cl::Event ev;
    // segments_group: its groups along x; segments_split: the parts along x, the segments along y.
    const cl::NDRange global = split ? cl::NDRange(p.parts * p.wg, p.groups) : cl::NDRange(p.groups * p.wg);
    const cl::NDRange local = split ? cl::NDRange(p.wg, 1) : cl::NDRange(p.wg);
    enqueue_kernel(q, k, cl::NullRange, global, local, wait, with_events ? &ev : nullptr);
    if (with_events) events.push_back(ev);
    if (!split) return events;
    cl::Kernel& f = launch.finish_;
    f.setArg(0, partials);
    f.setArg(1, offsets_buf);
    f.setArg(2, out);
    f.setArg(3, static_cast<cl_ulong>(p.n));
    f.setArg(4, static_cast<cl_ulong>(p.segments));
    f.setArg(5, static_cast<cl_uint>(p.parts));
    cl::Event ev2;
    enqueue_kernel(q, f, cl::NullRange, cl::NDRange(std::min(p.segments, kMaxGroups) * p.wg),
                           cl::NDRange(p.wg), nullptr, with_events ? &ev2 : nullptr);
    if (with_events) events.push_back(ev2);
    return events;
  });
}

cl::Event SegmentedReducer::reduce(const cl::Buffer& in, const cl::Buffer& offsets, const cl::Buffer& out,
                                   ElemType type, Op op, std::uint64_t n, std::uint64_t segments,
                                   const std::vector<cl::Event>& wait) {
  const std::shared_ptr<const SegmentedLaunch> l = s_->prepare(type, op, n, segments);
  return s_->enqueue(*l, in, offsets, out, nullptr, true, wait.empty() ? nullptr : &wait).back();
}

cl::Event SegmentedReducer::reduce(const cl::Buffer& in, const std::vector<std::uint64_t>& offsets,
                                   const cl::Buffer& out, ElemType type, Op op, std::uint64_t n,
                                   const std::vector<cl::Event>& wait) {
  validate_segment_offsets(offsets, n);
  const std::shared_ptr<const SegmentedLaunch> l = s_->prepare(type, op, n, offsets.size() - 1);
  const std::uint64_t bytes = offsets.size() * sizeof(std::uint64_t);
  with_cl_context("copying " + std::to_string(offsets.size()) + " segment offsets to the device", [&] {
    if (bytes > s_->offsets_bytes) {
      s_->offsets = cl::Buffer(s_->context, CL_MEM_READ_ONLY, bytes);
      s_->offsets_bytes = bytes;
    }
    // Blocking: the caller's vector may go away on return; the wait list orders it after `wait`.
    s_->queue.enqueueWriteBuffer(s_->offsets, CL_TRUE, 0, bytes, offsets.data(), wait.empty() ? nullptr : &wait);
  });
  return s_->enqueue(*l, in, s_->offsets, out, nullptr, true, nullptr).back();
}

void SegmentedReducer::reduce_host(ElemType type, Op op, const void* data, std::uint64_t n,
                                   const std::vector<std::uint64_t>& offsets, void* out, bool arg_out) {
  if (arg_out != is_arg_op(op))
    throw ConfigError(Param::Op,
                      arg_out ? "reduce_arg computes argmin or argmax, not " + std::string(name_of(op)) + "; use reduce"
                              : std::string(name_of(op)) + " gives a value and its index: use reduce_arg",
                      arg_out ? "argmin, argmax" : "sum, min, max");
  validate_segment_offsets(offsets, n);
  const std::uint64_t es = size_of(type);
  const std::uint64_t segments = offsets.size() - 1;
  s_->prepare(type, op, n, segments);  // refusals before any buffer is made
  cl::Buffer in, result;
  with_cl_context("allocating and uploading the segmented reduction's data", [&] {
    // A buffer cannot be empty: n == 0 (every segment empty) gets one element nobody reads.
    in = cl::Buffer(s_->context, CL_MEM_READ_ONLY, std::max<std::uint64_t>(n, 1) * es);
    result = cl::Buffer(s_->context, CL_MEM_WRITE_ONLY, segments * result_size(type, op));
    if (n) s_->queue.enqueueWriteBuffer(in, CL_FALSE, 0, n * es, data);
  });
  reduce(in, offsets, result, type, op, n);
  with_cl_context("reading the segments' values back",
                  [&] { s_->queue.enqueueReadBuffer(result, CL_TRUE, 0, segments * result_size(type, op), out); });
}

namespace {
LineShape segment_lines(std::uint64_t n, std::uint64_t segments, Scalar type) {
  return LineShape{LineKind::Offsets, segments, n, segments ? n / segments : 0, type};
}
}  // namespace

DescriptorLaunch SegmentedReducer::State::prepare(const Reduction& r, std::uint64_t n, std::uint64_t segments,
                                                  Scalar offset_type) {
  return family().prepare_lines(r, segment_lines(n, segments, offset_type), family_params());
}

cl::Event SegmentedReducer::reduce_to(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                      const Segments& segments, const cl::Buffer& out, std::uint64_t out_index,
                                      const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait) {
  return s_->enqueue(r, inputs, n, segments, out, out_index, scalars, nullptr, wait);
}

cl::Event SegmentedReducer::State::enqueue(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                           const Segments& segments, const cl::Buffer& out, std::uint64_t out_index,
                                           const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                                           const std::vector<cl::Event>& wait, bool with_event) {
  check_call(r, inputs, scalars);
  if (segments.count == 0)
    throw ConfigError(Param::Segments, "0 segments: a segmented reduction needs at least one", "at least 1 segment");
  const bool csr = segments.kind == Segments::Kind::Offsets;
  const std::uint64_t os = size_of(segments.type);
  const std::uint64_t need = csr ? segments.count + 1 : segments.count;
  const char* names[2] = {csr ? "offsets" : "begin", "end"};
  for (int b = 0; b < (csr ? 1 : 2); ++b) {
    const cl::Buffer& buf = b == 0 ? segments.first : segments.second;
    const std::uint64_t have = buf() ? buffer_bytes(buf) / os : 0;
    if (have < need)
      throw ConfigError(Param::Segments,
                        std::string("the ") + names[b] + " buffer holds " + std::to_string(have) + " values of " +
                            std::string(name_of(segments.type)) + ", too few for " + std::to_string(segments.count) +
                            " segments",
                        std::to_string(need) + " values of " + std::string(name_of(segments.type)));
  }
  for (std::size_t j = 0; j < inputs.size(); ++j) check_input_span(r, inputs, j, n, "n " + std::to_string(n));
  check_output(r, out, out_index, segments.count);
  LineShape shape = segment_lines(n, segments.count, segments.type);
  shape.kind = csr ? LineKind::Offsets : LineKind::BeginEnd;
  return family().lines(r, inputs, shape, n, &segments.first, csr ? nullptr : &segments.second, 0, 0, out,
                            out_index, scalars, wait, family_params(), on, with_event);
}

std::vector<Result> SegmentedReducer::reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                             const Segments& segments, const std::vector<ScalarArg>& scalars) {
  if (segments.count == 0)
    throw ConfigError(Param::Segments, "0 segments: a segmented reduction needs at least one", "at least 1 segment");
  const cl::Buffer out = s_->family().result_buffer(r, segments.count);
  s_->enqueue(r, inputs, n, segments, out, 0, scalars, nullptr, {}, false);  // the blocking read orders it
  return s_->family().read(r, out, segments.count);
}

std::vector<Result> SegmentedReducer::reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                                             const std::vector<std::uint64_t>& offsets,
                                             const std::vector<ScalarArg>& scalars) {
  check_counts(r, inputs.size(), scalars.size());
  validate_segment_offsets(offsets, n);
  const std::uint64_t segments = offsets.size() - 1;
  s_->prepare(r, n, segments, Scalar::U64);  // every refusal of the launch before any copy
  const std::vector<Input> in = upload_host_inputs(s_->context, s_->queue, s_->device, r, inputs, n);
  const cl::Buffer first = with_cl_context("copying the segment offsets to the device", [&] {
    cl::Buffer b(s_->context, CL_MEM_READ_ONLY, offsets.size() * sizeof(std::uint64_t));
    s_->queue.enqueueWriteBuffer(b, CL_TRUE, 0, offsets.size() * sizeof(std::uint64_t), offsets.data());
    return b;
  });
  return reduce(r, in, n, Segments::offsets<std::uint64_t>(first, segments), scalars);
}

const DeviceInfo& SegmentedReducer::device() const { return s_->device; }
const cl::Context& SegmentedReducer::context() const { return s_->context; }
const cl::CommandQueue& SegmentedReducer::queue() const { return s_->queue; }

// ---- clreduce/introspect/segmented.hpp ----
namespace introspect {

std::shared_ptr<const SegmentedLaunch> prepare(SegmentedReducer& r, ElemType type, Op op, std::uint64_t n,
                                               std::uint64_t segments) {
  return Access::state(r).prepare(type, op, n, segments);
}

std::vector<cl::Event> enqueue(SegmentedReducer& r, const SegmentedLaunch& launch, const cl::Buffer& in,
                               const cl::Buffer& offsets, const cl::Buffer& out, const cl::CommandQueue* on,
                               bool with_events, const std::vector<cl::Event>* wait) {
  return Access::state(r).enqueue(launch, in, offsets, out, on, with_events, wait);
}

DescriptorLaunch prepare(SegmentedReducer& r, const Reduction& d, std::uint64_t n, std::uint64_t segments,
                         Scalar offset_type) {
  return Access::state(r).prepare(d, n, segments, offset_type);
}

cl::Event enqueue(SegmentedReducer& r, const Reduction& d, const std::vector<Input>& inputs, std::uint64_t n,
                  const Segments& segments, const cl::Buffer& out, std::uint64_t out_index,
                  const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                  const std::vector<cl::Event>& wait, bool with_event) {
  return Access::state(r).enqueue(d, inputs, n, segments, out, out_index, scalars, on, wait, with_event);
}

}  // namespace introspect
}  // namespace clreduce
