// Streaming-read bandwidth measurement.
#include "measure/read_bandwidth.hpp"

#include "clreduce/kernels.hpp"
#include "clreduce/error.hpp"

#include <algorithm>

namespace clreduce {

ReadBandwidth measure_read_bandwidth(const Session& rt, const cl::Buffer& buffer, std::uint64_t bytes,
                                     const TimingOptions& opt) {
  const DeviceInfo& dev = rt.device();
  ReadBandwidth r;
  // 256 work-items a group, or fewer where the device or the built kernel allows fewer.
  std::size_t wg = 256;
  while (wg > 1 && wg > dev.max_work_group_size) wg /= 2;
  const Session::FittedKernel fitted = rt.fitted_kernel(
      "stream_read.cl", "stream_read", wg, [](std::size_t w) { return BuildOptions().set("WG_SIZE", w).str(); });
  cl::Kernel k = fitted.kernel;
  r.wg = fitted.wg;
  const std::uint64_t words = bytes / 4;
  const std::uint64_t vectors = std::max<std::uint64_t>(1, words / 4);
  // Enough groups to fill every compute unit several times over; each loops over the rest.
  r.groups = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>((vectors + r.wg - 1) / r.wg, std::uint64_t{dev.compute_units} * 32));
  cl::Buffer sink = with_cl_context("allocating the read kernel's output", [&] {
    return cl::Buffer(rt.context(), CL_MEM_WRITE_ONLY, sizeof(cl_uint));
  });
  with_cl_context("setting stream_read arguments", [&] {
    k.setArg(0, buffer);
    k.setArg(1, static_cast<cl_ulong>(words));
    k.setArg(2, cl_uint{0x9E3779B9u});
    k.setArg(3, sink);
  });
  const Sampled s = rt.time(
      [&](const cl::CommandQueue& q, bool with_event) {
        std::vector<cl::Event> ev(with_event ? 1 : 0);
        with_cl_context("enqueueing stream_read", [&] {
          q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(r.groups * r.wg),
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

}  // namespace clreduce
