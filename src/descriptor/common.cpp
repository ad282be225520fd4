// The descriptor families' shared host helpers (src/descriptor/common.hpp).
#include "descriptor/common.hpp"
#include "multi_device/host_staging.hpp"

#include "clreduce/fill.hpp"
#include "clreduce/error.hpp"

#include <algorithm>

namespace clreduce {

std::uint64_t buffer_bytes(const cl::Buffer& b) {
  return with_cl_context("querying a buffer's size", [&] { return b.getInfo<CL_MEM_SIZE>(); });
}

void check_counts(const Reduction& r, std::size_t inputs, std::size_t scalars) {
  if (inputs != r.inputs.size())
    throw Error(Param::Buffer,
                "reduction '" + r.name + "' takes " + std::to_string(r.inputs.size()) + " input(s); " +
                    std::to_string(inputs) + " given",
                std::to_string(r.inputs.size()) + " inputs");
  if (scalars != r.scalars.size())
    throw Error(Param::Op,
                "reduction '" + r.name + "' takes " + std::to_string(r.scalars.size()) + " scalar argument(s); " +
                    std::to_string(scalars) + " given",
                std::to_string(r.scalars.size()) + " scalars");
}

void check_call(const Reduction& r, const std::vector<Input>& inputs, const std::vector<ScalarArg>& scalars) {
  check_counts(r, inputs.size(), scalars.size());
  for (std::size_t j = 0; j < inputs.size(); ++j)
    if (!inputs[j].buffer())
      throw Error(Param::Buffer, "input " + std::to_string(j) + " of reduction '" + r.name + "' is an empty cl::Buffer",
                  "a buffer");
}

std::vector<Input> upload_host_inputs(const cl::Context& context, const cl::CommandQueue& queue,
                                      const DeviceInfo& dev, const Reduction& r,
                                      const std::vector<const void*>& host, std::uint64_t elements) {
  if (host.size() != r.inputs.size())
    throw Error(Param::Buffer,
                "reduction '" + r.name + "' takes " + std::to_string(r.inputs.size()) + " input(s); " +
                    std::to_string(host.size()) + " given",
                std::to_string(r.inputs.size()) + " inputs");
  for (std::size_t j = 0; j < host.size(); ++j) {
    if (!host[j])
      throw Error(Param::Buffer, "the host pointer of input " + std::to_string(j) + " of reduction '" + r.name +
                                     "' is null", "a pointer to " + std::to_string(elements) + " elements");
    const std::uint64_t es = size_of(r.inputs[j]);
    if (elements > dev.max_alloc_bytes / es)
      throw Error(Param::N,
                  std::to_string(elements) + " elements of " + std::string(name_of(r.inputs[j])) + " (input " +
                      std::to_string(j) + ") are over " + dev.name + "'s largest allocation (" +
                      std::to_string(dev.max_alloc_bytes) + " bytes)",
                  "at most " + std::to_string(dev.max_alloc_bytes / es) + " elements", dev.name);
  }
  std::vector<Input> in;
  for (std::size_t j = 0; j < host.size(); ++j) {
    const std::uint64_t bytes = elements * size_of(r.inputs[j]);
    // 0 elements: a buffer of one element, nothing read from the caller's memory.
    in.push_back(Input{bytes ? upload(context, queue, dev, host[j], bytes)
                             : with_cl_context("making an empty input's buffer",
                                               [&] { return cl::Buffer(context, CL_MEM_READ_ONLY, size_of(r.inputs[j])); }),
                       0});
  }
  return in;
}

void check_input_span(const Reduction& r, const std::vector<Input>& inputs, std::size_t j, std::uint64_t elements,
                      const std::string& what) {
  const std::uint64_t es = size_of(r.inputs[j]);
  const std::uint64_t have = buffer_bytes(inputs[j].buffer) / es;
  if (inputs[j].offset > have || elements > have - inputs[j].offset)
    throw Error(Param::Buffer,
                "input " + std::to_string(j) + " of reduction '" + r.name + "' holds " + std::to_string(have) +
                    " elements of " + std::string(name_of(r.inputs[j])) + ", too few for offset " +
                    std::to_string(inputs[j].offset) + " + " + std::to_string(elements) + " elements (" + what + ")",
                "a buffer of at least offset + " + std::to_string(elements) + " elements");
}

void check_output(const Reduction& r, const cl::Buffer& out, std::uint64_t out_index, std::uint64_t count) {
  const std::uint64_t rb = r.out.bytes();
  if (!out()) throw Error(Param::Buffer, "the output buffer is an empty cl::Buffer", "a buffer");
  const std::uint64_t have = buffer_bytes(out) / rb;
  if (out_index > have || count > have - out_index)
    throw Error(Param::Buffer,
                "the output buffer holds " + std::to_string(have) + " results of " + r.out.str() + " (" +
                    std::to_string(rb) + " bytes each), too few for results " + std::to_string(out_index) + " .. " +
                    std::to_string(out_index + count - 1),
                "an output buffer of at least out_index + " + std::to_string(count) + " results");
}

void check_accumulators(const Reduction& r, const cl::Buffer& out, std::uint64_t out_index, std::uint64_t count) {
  const std::uint64_t ab = r.acc_bytes;
  if (!out()) throw Error(Param::Buffer, "the buffer of parts is an empty cl::Buffer", "a buffer");
  const std::uint64_t have = buffer_bytes(out) / ab;
  if (out_index > have || count > have - out_index)
    throw Error(Param::Buffer,
                "the buffer of parts holds " + std::to_string(have) + " accumulators of " + std::to_string(ab) +
                    " bytes, too few for parts " + std::to_string(out_index) + " .. " +
                    std::to_string(out_index + count - 1),
                "a buffer of at least out_index + " + std::to_string(count) + " accumulators");
}

std::size_t local_wg_limit(const Reduction& r, const DeviceInfo& dev, std::size_t cap) {
  if (!dev.local_mem_bytes || r.acc_bytes == 0) return cap;
  const std::uint64_t room = dev.local_mem_bytes > 64 ? dev.local_mem_bytes - 64 : 0;  // is_last and the like
  std::size_t w = 1;
  while (w * 2 <= cap && (w * 2) * r.acc_bytes <= room) w *= 2;
  return w;
}

void fit_private_footprint(const Reduction& r, std::size_t& wg, bool chosen, std::uint64_t copies, const DeviceInfo& dev,
                           const std::string& launch) {
  if (r.summation != Summation::Exact || dev.is_gpu) return;
  const auto fits = [&](std::size_t w) { return std::uint64_t{w} * r.acc_bytes * copies <= kCpuPrivateBudget; };
  if (fits(wg)) return;
  std::size_t most = 1;
  while (fits(most * 2)) most *= 2;
  if (chosen)
    throw ConfigError(Param::WorkGroupSize,
                      "work-group size " + std::to_string(wg) + " for " + launch + " on " + dev.name + ": its " +
                          std::to_string(r.acc_bytes) + "-byte exact accumulators need more than the " +
                          std::to_string(kCpuPrivateBudget >> 20) +
                          " MiB a CPU device's work-group keeps on its stack; valid: a power of two up to " +
                          std::to_string(most),
                      "a power of two up to " + std::to_string(most), dev.name);
  wg = std::max<std::size_t>(1, std::min(wg, most));
}

unsigned default_items(const Reduction& r, unsigned usual) {
  return r.summation == Summation::Exact ? 1u : usual;
}

std::size_t widest_input_bytes(const Reduction& r) {
  std::size_t widest = 1;
  for (Scalar s : r.inputs) widest = std::max(widest, size_of(s));
  return widest;
}

bool cpu_shapes(const DeviceInfo& dev) { return !dev.is_gpu && !dev.loop_trip_limit; }

bool cpu_lanes(const Reduction& r) {
  // A descriptor's lanes state (argmin/argmax: values and indices as vectors, compared lane-wise),
  // where a pair's vector lift stayed scalar code (bench/results/2026-12-07_pocl_struct_lanes).
  if (lanes_state(r)) return r.summation != Summation::Exact;
  // Float min and max of f16 in spite of their vector lift (a lane-wise tree of fmax): on PoCL (2
  // cores, one round, LANES 0 against 1) f16 max, nanmin over 2^23 elements 3626 -> 733 and 3595 ->
  // 1240 us, rows of 1024 and 32 3.5-9x faster; bf16's mixed (whole nanmin 709 -> 941, rows
  // 1.2-2.9x faster), so not taken (bench/results/2026-12-07_pocl_struct_lanes, half_minmax.csv).
  if (r.builtin && r.inputs.size() == 1 && r.inputs[0] == Scalar::F16 && r.summation != Summation::Exact &&
      (*r.builtin == Builtin::Min || *r.builtin == Builtin::Max || *r.builtin == Builtin::NanMin ||
       *r.builtin == Builtin::NanMax))
    return true;
  return r.acc_bytes <= 8 && r.lift_vector.empty() && r.lift_input_vector.empty() && r.summation != Summation::Exact;
}

void refuse_lanes_state_on_llvmpipe(const Reduction& r, bool lanes, const DeviceInfo& dev, const std::string& kernel) {
  if (!lanes || !lanes_state(r) || lanes_vector(r) || !dev.loop_trip_limit) return;
  throw ConfigError(Param::Define,
                    "LANES=1 for " + kernel + " with reduction '" + r.name +
                        "', whose lanes are a struct of vectors: Mesa's llvmpipe reads them wrong; valid on " +
                        dev.name + ": LANES=0",
                    "LANES=0", dev.name);
}

unsigned cpu_vec(const Reduction& r) { return static_cast<unsigned>(std::min<std::size_t>(16, 64 / widest_input_bytes(r))); }

std::uint64_t loop_trips_allowed(const DeviceInfo& dev) {
  return dev.loop_trip_limit ? dev.loop_trip_limit - dev.loop_trip_limit / 8 : ~std::uint64_t{0};
}

void check_loop_trips(const DeviceInfo& dev, std::uint64_t trips, const std::string& launch, Param param,
                      const std::string& fix) {
  if (trips <= loop_trips_allowed(dev)) return;
  throw ConfigError(param,
                    launch + " would loop about " + std::to_string(trips) + " times in a work-item, and " + dev.name +
                        " ends a kernel's loops after " + std::to_string(dev.loop_trip_limit) + " iterations; " + fix,
                    "a launch whose work-items loop at most " + std::to_string(loop_trips_allowed(dev)) + " times",
                    dev.name);
}

void check_fp64(const Reduction& r, const DeviceInfo& dev) {
  if (r.needs_fp64() && !dev.fp64)
    throw ConfigError(Param::Type,
                      "reduction '" + r.name + "' needs f64, which " + dev.name + " does not have (no cl_khr_fp64)",
                      "types other than f64", dev.name);
}

cl_uint set_input_args(cl::Kernel& k, const std::vector<Input>& inputs) {
  cl_uint a = 0;
  for (const Input& in : inputs) {
    k.setArg(a++, in.buffer);
    k.setArg(a++, static_cast<cl_ulong>(in.offset));
  }
  return a;
}

void set_scalar_args(cl::Kernel& k, cl_uint first, const Reduction& r, const std::vector<ScalarArg>& scalars) {
  for (std::size_t j = 0; j < scalars.size(); ++j)
    set_scalar_kernel_arg(k, first + static_cast<cl_uint>(j), r.scalars[j], scalars[j]);
}

void set_scalar_kernel_arg(cl::Kernel& k, cl_uint index, Scalar type, const ScalarArg& value) {
  auto as = [&](auto tag) {
    using X = decltype(tag);
    return std::visit([](auto v) { return static_cast<X>(v); }, value);
  };
  switch (type) {
    case Scalar::U8: k.setArg(index, as(cl_uchar{})); break;
    case Scalar::I8: k.setArg(index, as(cl_char{})); break;
    case Scalar::U16: k.setArg(index, as(cl_ushort{})); break;
    case Scalar::I16: k.setArg(index, as(cl_short{})); break;
    case Scalar::U32: k.setArg(index, as(cl_uint{})); break;
    case Scalar::I32: k.setArg(index, as(cl_int{})); break;
    case Scalar::U64: k.setArg(index, as(cl_ulong{})); break;
    case Scalar::I64: k.setArg(index, as(cl_long{})); break;
    case Scalar::F16:
    case Scalar::BF16:
    case Scalar::F32: k.setArg(index, as(cl_float{})); break;
    case Scalar::F64: k.setArg(index, as(cl_double{})); break;
  }
}

cl::Kernel DescriptorPrograms::get(const KernelSpec& k, const std::string& source, const std::string& name,
                                   const std::string& options) {
  auto key = std::make_tuple(k.file, source, options);
  if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
  const UserOperator text{name, {}, source, std::nullopt};
  cl::Kernel built =
      bound_.programs->kernel(bound_.context, bound_.device, bound_.kernel_dir.path, k.file, k.kernel, options, &text);
  max_wg_[{k.file, source}] = kernel_limits(built, bound_.device.device).max_work_group_size;
  kernels_.emplace(std::move(key), built);
  return built;
}

std::size_t DescriptorPrograms::max_wg(const KernelSpec& k, const std::string& source) const {
  auto it = max_wg_.find({k.file, source});
  return it == max_wg_.end() ? 0 : it->second;
}

std::shared_ptr<const std::string> SourceCache::of(const Reduction& r) {
  for (std::size_t k = 0; k < entries_.size(); ++k)
    if (entries_[k].first == r) {
      if (k) std::rotate(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(k),
                         entries_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
      return entries_.front().second;
    }
  auto source = std::make_shared<const std::string>(reduction_source(r));
  if (entries_.size() == 16) entries_.pop_back();
  entries_.insert(entries_.begin(), {r, source});
  return source;
}

const cl::Buffer& Scratch::at_least(BoundQueue& bound, std::uint64_t bytes, const std::string& what, bool zeroed,
                                    std::size_t* allocations) {
  bytes = std::max<std::uint64_t>(bytes, 16);
  if (bytes <= bytes_) return buffer_;
  buffer_ = with_cl_context("allocating " + what, [&] { return cl::Buffer(bound.context, CL_MEM_READ_WRITE, bytes); });
  bytes_ = bytes;
  if (allocations) ++*allocations;
  if (zeroed)
    with_cl_context("zeroing " + what, [&] {
      enqueue_fill_bytes(bound.queue, buffer_, 0, 0, bytes);
      bound.queue.finish();
    });
  return buffer_;
}

}  // namespace clreduce
