// The access-pattern study (sum of cubes, contiguous vs interleaved).
#include "benchmarks/access.hpp"

#include "clreduce/introspect.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/error.hpp"
#include "measure/measure.hpp"
#include "clreduce/watchdog.hpp"

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

RunEstimate estimate_access(const Calibration& c, std::uint64_t n, const TimingOptions& timing, TimeSource clock) {
  RunEstimate e;
  e.calibration = c;
  const std::uint64_t bytes = n * sizeof(cl_uint);
  const std::size_t patterns = access_patterns().size();
  e.sizes = 1;
  e.points = e.builds = patterns;
  e.host_bytes = static_cast<double>(bytes);
  e.device_bytes = static_cast<double>(bytes) * point_passes(timing, clock) * static_cast<double>(patterns);
  e.seconds = host_seconds(c, bytes) + point_seconds(c, timing, clock, bytes) * static_cast<double>(patterns) +
              c.build_s * static_cast<double>(e.builds);
  return e;
}

AccessReport run_access(const Session& rt, const HostData& data, const AccessOptions& opt,
                        const std::function<void(const ProgressStep&)>& progress) {
  if (data.type != ElemType::Uint)
    throw Error("the access-pattern study sums cubes of uint data; got " +
                std::string(name_of(data.type)));
  const DeviceInfo& dev = rt.device();
  AccessReport rep;
  rep.clock = rt.clock();
  rep.clock_note = rt.timer().reason;
  rep.n = data.n;
  rep.data_origin = data.origin;
  // The same work-group rules as the reductions: a power of two within the device's limits.
  rep.wg = opt.wg ? opt.wg : std::min<std::size_t>(256, dev.max_work_group_size);
  if (rep.wg & (rep.wg - 1))
    throw Error(Param::WorkGroupSize, "work-group size " + std::to_string(rep.wg) +
                " is not a power of two; the group's tree halves it at each level", "a power of two");
  if (rep.wg > dev.max_work_group_size)
    throw Error(Param::WorkGroupSize, "work-group size " + std::to_string(rep.wg) + " is over the device maximum " +
                std::to_string(dev.max_work_group_size) + " of " + dev.name + " (CL_DEVICE_MAX_WORK_GROUP_SIZE)",
                "at most " + std::to_string(dev.max_work_group_size), dev.name);
  if (rep.wg * sizeof(cl_uint) > dev.local_mem_bytes)
    throw Error(Param::WorkGroupSize, "work-group size " + std::to_string(rep.wg) + " needs more local memory than the " +
                std::to_string(dev.local_mem_bytes) + " bytes of " + dev.name);
  const auto options_for = [&](std::size_t wg) {
    BuildOptions o;
    o.set("WG_SIZE", wg);
    o.set("LOCKSTEP", dev.lockstep_width);
    if (dev.is_nvidia) o.set("NV_WARP_SYNC", 1ULL);
    return o.str();
  };
  // A default work-group size follows the built kernels (both patterns launch the same shape).
  if (!opt.wg)
    for (const auto& p : access_patterns())
      rep.wg = rt.fitted_kernel("sum_of_cubes.cl", p.kernel, rep.wg, options_for).wg;
  const std::uint64_t fill = std::max<std::uint64_t>(1, std::uint64_t{dev.compute_units} * 2048 / rep.wg);
  const std::uint64_t most = (data.n + rep.wg - 1) / rep.wg;  // no group without an element
  if (opt.groups && *opt.groups == 0) throw Error("--groups must be at least 1");
  // Groups past one per wg elements only idle; a few are allowed (uneven chunks), an absurd
  // count (10^8 groups: 10^10 work-items) is refused before anything is allocated.
  const std::uint64_t group_limit = std::max<std::uint64_t>(most, 65536);
  if (opt.groups && *opt.groups > group_limit)
    throw Error("--groups " + std::to_string(*opt.groups) + " is over the limit of " + std::to_string(group_limit) +
                " work-groups (65536, or one per " + std::to_string(rep.wg) + " elements of n = " +
                std::to_string(data.n) + " where that is more); valid: 1.." + std::to_string(group_limit));
  rep.groups = opt.groups ? *opt.groups : std::min(fill, most);
  const std::uint64_t threads = rep.groups * rep.wg;
  rep.chunk = (data.n + threads - 1) / threads;
  rep.reference = host_sum_of_cubes(data);

  const cl::Buffer input = upload_data(rt, data);
  const cl::Buffer partials = with_cl_context("allocating the per-group partials", [&] {
    return cl::Buffer(rt.context(), CL_MEM_READ_WRITE, rep.groups * sizeof(cl_uint));
  });
  // The partials are summed by a reduction variant (uint sum, exact in any order).
  ReducerOptions fold;
  fold.params.variant = "stride_local";
  fold.tuning.enabled = false;
  Reducer reducer = rt.reducer(fold);
  const std::shared_ptr<const Launch> folding = introspect::prepare(reducer, ElemType::Uint, Op::Sum, rep.groups);

  ProgressStep step;
  step.total = access_patterns().size();
  for (const auto& p : access_patterns()) {
    step.what = p.name;
    if (progress) progress(step);
    ++step.done;
    AccessRow row;
    row.pattern = p;
    cl::Kernel k = rt.kernel("sum_of_cubes.cl", p.kernel, options_for(rep.wg));
    check_kernel_limits(p.kernel, rep.wg, kernel_limits(k, dev.device), dev);
    with_cl_context("setting " + p.kernel + " arguments", [&] {
      k.setArg(0, input);
      k.setArg(1, partials);
      k.setArg(2, static_cast<cl_ulong>(data.n));
    });
    std::optional<std::uint32_t> seen;
    row.timing = rt.time(
        [&](const cl::CommandQueue& q, bool with_events) {
          std::vector<cl::Event> ev(with_events ? 1 : 0);
          with_cl_context("enqueueing " + p.kernel, [&] {
            enqueue_kernel(q, k, cl::NullRange, cl::NDRange(threads), cl::NDRange(rep.wg),
                                            nullptr, with_events ? &ev[0] : nullptr);
          });
          for (auto& e : introspect::enqueue(reducer, *folding, partials, 0, &q, with_events)) ev.push_back(e);
          return ev;
        },
        opt.timing, [&] {
          const auto v = std::get<std::uint32_t>(introspect::read_result(reducer, *folding).v);
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
