// The `bench multi` runs: a MultiReducer per device count (its own contexts, so each count starts
// from the same state), warm-ups that also build the kernels, then timed iterations; each result
// is checked against the host reference and against the first iteration's bits.
#include "benchmarks/multi_bench.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <functional>

namespace clreduce {

bool MultiBenchRun::all_ok() const {
  return !rows.empty() && std::all_of(rows.begin(), rows.end(), [](const MultiBenchRow& r) { return r.ok(); }) &&
         (!api_call || api_call->check.ok);
}

namespace {
// Resident input: each device's part written into a buffer of its own context, outside the timing.
std::vector<cl::Buffer> upload_parts(const MultiReducer& mr, const HostData& data, const std::vector<std::uint64_t>& counts) {
  std::vector<cl::Buffer> out;
  const std::uint64_t es = size_of(data.type);
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::uint64_t bytes = std::max<std::uint64_t>(counts[i] * es, es);
    out.push_back(with_cl_context("writing the part of device " + std::to_string(i) + " (" + mr.devices()[i].name + ")", [&] {
      cl::Buffer b(mr.context(i), CL_MEM_READ_ONLY, bytes);
      if (counts[i] > 0) mr.queue(i).enqueueWriteBuffer(b, CL_TRUE, 0, counts[i] * es, data.bytes.data() + offset * es);
      return b;
    }));
    offset += counts[i];
  }
  return out;
}


// Every device count's rows: `make(mr)` gives the call to time on a MultiReducer, `same` says
// whether two results carry the same bits, `check` checks the last one.
template <class Make, class Same, class CheckLast>
MultiBenchRun run_rows(const MultiBenchDesign& d, MultiBenchRun run, Make&& make, Same&& same, CheckLast&& check) {
  run.design = d;
  ProgressStep step;
  step.total = d.devices.size();
  for (std::size_t k = 1; k <= d.devices.size(); ++k) {
    step.begin(std::to_string(k) + (k == 1 ? " device" : " devices"), 1.0, d.progress);
    MultiDeviceOptions opt;
    opt.split = d.split;
    if (opt.split.kind == SplitKind::Weights) {
      opt.split.weights.resize(k);
      // The first k weights may all be 0 (e.g. 0,1): that count has no device to run on.
      if (std::all_of(opt.split.weights.begin(), opt.split.weights.end(), [](double w) { return w == 0; })) {
        run.skipped.push_back(k);
        continue;
      }
    }
    opt.chunk_elements = d.chunk_elements;
    opt.host_path = d.host_path;
    opt.copy_threads = d.copy_threads;
    opt.reducer = d.reducer;
    MultiReducer mr(std::vector<DeviceInfo>(d.devices.begin(), d.devices.begin() + static_cast<std::ptrdiff_t>(k)), opt);
    const std::function<MultiResult()> once = make(mr);
    MultiBenchRow row;
    row.devices = k;
    for (unsigned w = 0; w < std::max(1u, d.warmup); ++w) row.last = once();
    const MultiResult first = row.last;
    std::vector<double> whole, tails;
    std::vector<std::vector<double>> parts(k), starts(k);
    for (unsigned it = 0; it < std::max(1u, d.iterations); ++it) {
      row.last = once();
      whole.push_back(row.last.us);
      tails.push_back(row.last.tail_us);
      for (std::size_t i = 0; i < k; ++i) {
        parts[i].push_back(row.last.shares[i].us);
        starts[i].push_back(row.last.shares[i].start_us);
      }
      if (!same(row.last, first)) row.repeatable = false;
    }
    row.us = stats_of(whole);
    row.tail_us = stats_of(tails);
    for (auto& p : parts) row.device_us.push_back(stats_of(p));
    for (auto& st : starts) row.device_start_us.push_back(stats_of(st));
    row.check = check(row.last);
    row.gbps = row.us.median > 0 ? static_cast<double>(run.n * run.element_bytes) / (row.us.median * 1e3) : 0;
    run.rows.push_back(std::move(row));
  }
  if (!run.rows.empty()) {
    const double one = run.rows.front().us.median;
    const std::size_t base = run.rows.front().devices;
    for (MultiBenchRow& r : run.rows) {
      r.speedup = r.us.median > 0 ? one / r.us.median : 0;
      r.efficiency_pct = 100.0 * r.speedup * static_cast<double>(base) / static_cast<double>(r.devices);
    }
  }
  return run;
}
}  // namespace

namespace {
MultiBenchRun with_anchors(MultiBenchRun run, const void* data, Scalar type, std::uint64_t bytes) {
  if (!run.design.resident && !run.rows.empty())
    run.anchors = measure_host_anchors(data, type, bytes, run.design.devices.front(), run.design.iterations);
  return run;
}
}  // namespace

MultiBenchRun run_multi_bench(const MultiBenchDesign& d, const HostData& data, const Reference& ref) {
  MultiBenchRun run;
  run.n = data.n;
  run.element_bytes = size_of(data.type);
  run.data_origin = data.origin;
  MultiBenchRun out = with_anchors(run_rows(
      d, std::move(run),
      [&](MultiReducer& mr) -> std::function<MultiResult()> {
        if (!d.resident) return [&mr, &data, &d] { return mr.reduce(data.data(), data.type, data.n, d.op); };
        const std::vector<std::uint64_t> counts = mr.counts(data.n, true);
        const std::vector<cl::Buffer> buffers = upload_parts(mr, data, counts);
        return [&mr, &data, &d, counts, buffers] { return mr.reduce_resident(buffers, counts, data.type, d.op); };
      },
      [](const MultiResult& a, const MultiResult& b) { return same_result(a.value, b.value); },
      [&](const MultiResult& r) { return check_result(r.value, ref, d.op, r.depth); }),
      data.data(), to_scalar(data.type), data.bytes.size());
  if (!d.resident && !out.rows.empty()) {
    MultiBenchRun::ApiCall a;
    Value v = clreduce::reduce(data.data(), data.type, data.n, d.op);
    double best = 0;
    for (unsigned it = 0; it < std::max(1u, d.iterations); ++it) {
      const auto t0 = std::chrono::steady_clock::now();
      v = clreduce::reduce(data.data(), data.type, data.n, d.op);
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (best == 0 || us < best) best = us;
    }
    // The route after the calls: a size class past the line is measured by its first call, unless
    // CLREDUCE_DEVICE names the device.
    const HostDataRoute route = host_data_route(data.bytes.size());
    a.device = route.device.name;
    a.route = (route.host_threads == 0   ? "on " + route.device.name
               : route.host_threads == 1 ? std::string("by the calling thread")
                                         : "by " + std::to_string(route.host_threads) + " host threads") +
              "; host threads up to " + std::to_string(route.host_threads_up_to >> 20) + " MiB, past it " +
              (route.device_named ? route.device.name + " (CLREDUCE_DEVICE)"
                               : "each size class by its first call (host threads or " + route.device.name + ")");
    a.us = best;
    a.gbps = best > 0 ? static_cast<double>(data.bytes.size()) / (best * 1e3) : 0;
    a.check = check_result(v, ref, d.op, static_cast<unsigned>(std::min<std::uint64_t>(data.n, 0xffffffffu)));
    out.api_call = a;
  }
  return out;
}

MultiBenchRun run_multi_bench_descriptor(const MultiBenchDesign& d, const std::vector<ScalarData>& inputs,
                                         const ResultCheck& check) {
  const Reduction& r = d.reduction.value();
  MultiBenchRun run;
  run.n = inputs.front().n;
  for (const ScalarData& in : inputs) {
    run.element_bytes += size_of(in.type);
    run.data_origin += (run.data_origin.empty() ? "" : "; ") + in.origin;
  }
  std::vector<const void*> pointers;
  for (const ScalarData& in : inputs) pointers.push_back(in.data());
  return with_anchors(run_rows(
      d, std::move(run),
      [&](MultiReducer& mr) -> std::function<MultiResult()> {
        const std::uint64_t n = inputs.front().n;
        if (!d.resident) return [&mr, &r, &pointers, &d, n] { return mr.reduce(r, pointers, n, d.scalars); };
        // Each device's part of every input, written into buffers of its context before timing.
        const std::vector<std::uint64_t> counts = mr.counts(n, true);
        std::vector<std::vector<Input>> parts(counts.size());
        std::uint64_t offset = 0;
        for (std::size_t i = 0; i < counts.size(); ++i) {
          for (const ScalarData& in : inputs) {
            const std::uint64_t es = size_of(in.type);
            parts[i].push_back(Input{with_cl_context("writing the part of device " + std::to_string(i) + " (" +
                                                         mr.devices()[i].name + ")",
                                                     [&] {
                                                       cl::Buffer b(mr.context(i), CL_MEM_READ_ONLY,
                                                                    std::max<std::uint64_t>(counts[i], 1) * es);
                                                       if (counts[i] > 0)
                                                         mr.queue(i).enqueueWriteBuffer(b, CL_TRUE, 0, counts[i] * es,
                                                                                        in.bytes.data() + offset * es);
                                                       return b;
                                                     }),
                                     0});
          }
          offset += counts[i];
        }
        return [&mr, &r, &d, counts, parts] { return mr.reduce_resident(r, parts, counts, d.scalars); };
      },
      [](const MultiResult& a, const MultiResult& b) { return a.result.bytes == b.result.bytes; },
      [&](const MultiResult& m) { return check(m.result, m.depth); }),
      inputs.front().data(), inputs.front().type, inputs.front().bytes.size());
}

}  // namespace clreduce
