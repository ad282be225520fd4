// Streaming-read bandwidth measurement.
#include "measure/read_bandwidth.hpp"

#include "clreduce/kernels.hpp"
#include "clreduce/error.hpp"
#include "clreduce/variants.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>

namespace clreduce {

namespace {

// One kernel of stream_read.cl over `bytes` of `buffer`, timed like the reductions.
// grid_stride: stream_read, 16-byte loads, 256 work-items a group (fewer where the device or the
// built kernel allows fewer), enough groups to fill every compute unit 32 times over, each looping
// over the rest. Otherwise stream_read_blocks: one contiguous block per work-item, kCpuGroupsPerCu
// groups per compute unit (none with less than kMinBlockElements elements a work-item), groups as
// wide as the built kernel's preferred work-group multiple (the lanes a CPU implementation packs
// work-items into).
ReadBandwidth measure_kernel(const Session& rt, const cl::Buffer& buffer, std::uint64_t bytes, const TimingOptions& opt,
                             bool grid_stride) {
  const DeviceInfo& dev = rt.device();
  ReadBandwidth r;
  r.kernel = grid_stride ? "stream_read" : "stream_read_blocks";
  const auto options = [](std::size_t w) { return BuildOptions().set("WG_SIZE", w).str(); };
  std::size_t wg = grid_stride ? 256 : 1;
  while (wg > 1 && wg > dev.max_work_group_size) wg /= 2;
  Session::FittedKernel fitted = rt.fitted_kernel("stream_read.cl", r.kernel, wg, options);
  if (!grid_stride) {
    const KernelLimits lim = kernel_limits(fitted.kernel, dev.device);
    std::size_t w = 1;
    while (w * 2 <= std::min(lim.preferred_multiple, lim.max_work_group_size)) w *= 2;
    if (w > 1) fitted = rt.fitted_kernel("stream_read.cl", r.kernel, w, options);
  }
  cl::Kernel k = fitted.kernel;
  r.wg = fitted.wg;
  const std::uint64_t words = bytes / 4;
  const std::uint64_t vectors = std::max<std::uint64_t>(1, words / 4);
  r.groups = grid_stride
                 ? std::max<std::uint64_t>(1, std::min<std::uint64_t>((vectors + r.wg - 1) / r.wg,
                                                                      std::uint64_t{dev.compute_units} * 32))
                 : std::max<std::uint64_t>(1, std::min<std::uint64_t>(std::uint64_t{dev.compute_units} * kCpuGroupsPerCu,
                                                                      words / (kMinBlockElements * r.wg)));
  cl::Buffer sink = with_cl_context("allocating the read kernel's output", [&] {
    return cl::Buffer(rt.context(), CL_MEM_WRITE_ONLY, sizeof(cl_uint));
  });
  with_cl_context("setting " + r.kernel + " arguments", [&] {
    k.setArg(0, buffer);
    k.setArg(1, static_cast<cl_ulong>(words));
    k.setArg(2, cl_uint{0x9E3779B9u});
    k.setArg(3, sink);
  });
  const Sampled s = rt.time(
      [&](const cl::CommandQueue& q, bool with_event) {
        std::vector<cl::Event> ev(with_event ? 1 : 0);
        with_cl_context("enqueueing " + r.kernel, [&] {
          enqueue_kernel(q, k, cl::NullRange, cl::NDRange(r.groups * r.wg),
                                          cl::NDRange(r.wg), nullptr, with_event ? &ev[0] : nullptr);
        });
        return ev;
      },
      opt);
  r.us = s.whole_us;
  r.batch = s.batch;
  r.gbps = r.us.median > 0 ? static_cast<double>(bytes) / (r.us.median * 1e3) : 0;
  return r;
}

}  // namespace

ReadBandwidth measure_read_bandwidth(const Session& rt, const cl::Buffer& buffer, std::uint64_t bytes,
                                     const TimingOptions& opt) {
  // A GPU streams best by grid-stride. A CPU implementation may stream best either way (PoCL:
  // contiguous blocks; Mesa's llvmpipe, which runs 32 work-items in SIMD lanes: grid-stride), so
  // there both are measured and the faster is the peak.
  ReadBandwidth grid = measure_kernel(rt, buffer, bytes, opt, true);
  if (rt.device().is_gpu) return grid;
  ReadBandwidth blocks = measure_kernel(rt, buffer, bytes, opt, false);
  return blocks.gbps > grid.gbps ? blocks : grid;
}

}  // namespace clreduce
