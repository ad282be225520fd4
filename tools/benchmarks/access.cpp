// The access-pattern study (sum of cubes, contiguous vs interleaved).
#include "benchmarks/access.hpp"

#include "core/build_options.hpp"
#include "clreduce/error.hpp"
#include "reduce/plan.hpp"

#include <algorithm>

namespace clreduce {

const std::vector<AccessPattern>& access_patterns() {
  static const std::vector<AccessPattern> p{
      {"contiguous", "sum_of_cubes_contiguous",
       "work-item g reads elements [g*chunk, (g+1)*chunk): neighbours are a chunk apart"},
      {"interleaved", "sum_of_cubes_interleaved",
       "work-item g reads g, g+G, g+2G, ... (G work-items): neighbours read neighbouring words"},
  };
  return p;
}

std::uint32_t host_sum_of_cubes(const HostData& data) {
  const std::uint32_t* x = data.as<std::uint32_t>();
  std::uint32_t s = 0;
  for (std::uint64_t i = 0; i < data.n; ++i) s += x[i] * x[i] * x[i];
  return s;
}

bool AccessReport::all_ok() const {
  for (const auto& r : rows)
    if (!r.ok) return false;
  return !rows.empty();
}

AccessReport run_access(Runtime& rt, const HostData& data, const AccessOptions& opt) {
  if (data.type != ElemType::Uint)
    throw Error("the access-pattern study sums cubes of uint data; got " +
                std::string(name_of(data.type)));
  const DeviceInfo& dev = rt.device();
  AccessReport rep;
  rep.n = data.n;
  rep.data_origin = data.origin;
  ReduceConfig wg_cfg;  // the same work-group rules as the reductions (power of two, limits)
  wg_cfg.wg = opt.wg;
  rep.wg = effective_wg(wg_cfg, dev);
  if (rep.wg * sizeof(cl_uint) > dev.local_mem_bytes)
    throw Error("work-group size " + std::to_string(rep.wg) + " needs more local memory than the " +
                std::to_string(dev.local_mem_bytes) + " bytes of " + dev.name);
  const std::uint64_t fill = std::max<std::uint64_t>(1, std::uint64_t{dev.compute_units} * 2048 / rep.wg);
  const std::uint64_t most = (data.n + rep.wg - 1) / rep.wg;  // no group without an element
  if (opt.groups && *opt.groups == 0) throw Error("--groups must be at least 1");
  rep.groups = opt.groups ? *opt.groups : std::min(fill, most);
  const std::uint64_t threads = rep.groups * rep.wg;
  rep.chunk = (data.n + threads - 1) / threads;
  rep.reference = host_sum_of_cubes(data);

  const cl::Buffer input = upload_data(rt, data);
  const cl::Buffer partials = with_cl_context("allocating the per-group partials", [&] {
    return cl::Buffer(rt.context(), CL_MEM_READ_WRITE, rep.groups * sizeof(cl_uint));
  });
  // The partials are summed by a reduction variant (uint sum, exact in any order).
  ReduceConfig fold;
  fold.variant = "stride_local";
  Reducer reducer(rt, fold, rep.groups);

  BuildOptions o;
  o.set("WG_SIZE", rep.wg);
  o.set("LOCKSTEP", dev.lockstep_width);
  if (dev.is_nvidia) o.set("NV_WARP_SYNC", 1ULL);
  for (const auto& p : access_patterns()) {
    AccessRow row;
    row.pattern = p;
    cl::Kernel k = rt.kernel("sum_of_cubes.cl", p.kernel, o.str());
    const KernelLimits lim = rt.limits(k);
    check_kernel_limits(p.kernel, rep.wg, lim.max_work_group_size, lim.local_mem_bytes, dev);
    with_cl_context("setting " + p.kernel + " arguments", [&] {
      k.setArg(0, input);
      k.setArg(1, partials);
      k.setArg(2, static_cast<cl_ulong>(data.n));
    });
    std::optional<std::uint32_t> seen;
    row.timing = time_enqueues(
        rt,
        [&](const cl::CommandQueue& q, bool with_events) {
          std::vector<cl::Event> ev(with_events ? 1 : 0);
          with_cl_context("enqueueing " + p.kernel, [&] {
            q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(threads), cl::NDRange(rep.wg),
                                            nullptr, with_events ? &ev[0] : nullptr);
          });
          for (auto& e : reducer.enqueue(partials, with_events, &q)) ev.push_back(e);
          return ev;
        },
        opt.timing, [&] {
          const auto v = std::get<std::uint32_t>(reducer.read_result().v);
          if (seen && v != *seen) row.consistent = false;
          seen = v;
        });
    row.value = *seen;
    row.ok = row.consistent && row.value == rep.reference;
    const double bytes = static_cast<double>(data.bytes.size());
    if (row.timing.whole_us.median > 0) row.gbps = bytes / (row.timing.whole_us.median * 1e3);
    if (row.timing.first_us.median > 0) row.first_pass_gbps = bytes / (row.timing.first_us.median * 1e3);
    rep.rows.push_back(row);
  }
  if (rep.rows.size() == 2 && rep.rows[0].gbps > 0) rep.ratio = rep.rows[1].gbps / rep.rows[0].gbps;
  return rep;
}

}  // namespace clreduce
