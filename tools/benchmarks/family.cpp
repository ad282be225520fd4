// run_reduce and run_bench.
#include "benchmarks/family.hpp"

#include "measure/chunked.hpp"
#include "clreduce/error.hpp"

#include <algorithm>

namespace clreduce {

ReduceReport measure_reduction(Reducer& reducer, const cl::Buffer& input, const HostData& data,
                               const Reference& reference, const TimingOptions& timing) {
  ReduceReport r;
  r.config = reducer.config();
  r.n = data.n;
  r.data_origin = data.origin;
  r.plan = reducer.plan();
  r.timed = reducer.time(input, timing);
  r.reference = reference;
  r.check = check_result(r.timed.value, reference, r.config.op, r.plan.depth);
  if (!r.timed.consistent) r.check.detail += "; results differed between repetitions (a race?)";
  r.gbps = r.timed.whole_us.median > 0
               ? static_cast<double>(data.bytes.size()) / (r.timed.whole_us.median * 1e3)
               : 0;
  return r;
}

ReduceReport run_reduce(Runtime& rt, const ReduceConfig& cfg, const HostData& data,
                        const TimingOptions& timing) {
  if (data.type != cfg.type)
    throw Error("input data is " + std::string(name_of(data.type)) + " but the reduction is " +
                std::string(name_of(cfg.type)));
  if (data.n > rt.device().max_alloc_bytes / size_of(cfg.type))
    return run_reduce_chunked(rt, cfg, data, timing);
  Reducer reducer(rt, cfg, data.n);
  const cl::Buffer input = reducer.upload(data);
  return measure_reduction(reducer, input, data, host_reference(data, cfg.op), timing);
}

std::vector<std::string> apply_tuned_checked(const TunedParams& tuned, ReduceConfig& cfg,
                                             const DeviceInfo& dev, std::uint64_t n,
                                             std::string* refused) {
  ReduceConfig c = cfg;
  std::vector<std::string> filled = apply_tuned(tuned, c);
  if (filled.empty()) return filled;
  try {
    plan_reduction(c, dev, std::min(n, chunk_elements(c.type, dev)));
  } catch (const Error& e) {
    if (refused) *refused = e.what();
    return {};
  }
  cfg = c;
  return filled;
}

std::uint64_t default_bench_n(const DeviceInfo& dev) {
  return dev.is_gpu ? (std::uint64_t{1} << 26) : (std::uint64_t{1} << 22);
}

bool BenchReport::all_ok() const {
  for (const auto& row : rows)
    if (row.skipped.empty() && !row.ok()) return false;
  return true;
}

BenchReport run_bench(Runtime& rt, const BenchOptions& opt, const HostData& data,
                      const std::function<void(const std::string&)>& progress) {
  BenchReport rep;
  rep.n = data.n;
  rep.type = opt.type;
  rep.op = opt.op;
  rep.data_origin = data.origin;
  const std::vector<const Variant*> chosen = select_variants(opt.variants);
  // The input buffer is shared by the read-bandwidth kernel and every variant.
  const cl::Buffer input = upload_data(rt, data);
  if (progress) progress("read bandwidth");
  rep.peak = measure_read_bandwidth(rt, input, data.bytes.size(), opt.timing);

  const Reference reference = host_reference(data, opt.op);
  double naive_us = 0;
  for (const Variant* v : chosen) {
    BenchRow row;
    row.variant = v->name;
    if (std::string why = v->unavailable_reason(rt.device()); !why.empty()) {
      row.skipped = why;
      rep.rows.push_back(row);
      continue;
    }
    if (progress) progress(v->name);
    ReduceConfig cfg;
    cfg.variant = v->name;
    cfg.type = opt.type;
    cfg.op = opt.op;
    cfg.wg = opt.wg;
    cfg.defines = opt.defines;
    if (v->uses_times) {
      cfg.times = opt.times;
      cfg.groups_per_cu = opt.groups_per_cu;
    }
    if (v->uses_vec) cfg.vec = opt.vec;
    std::vector<std::string> tuned;
    if (auto t = opt.tuned.find(v->name); t != opt.tuned.end())
      tuned = apply_tuned_checked(t->second, cfg, rt.device(), data.n, &row.tuned_refused);
    try {
      Reducer reducer(rt, cfg, data.n);
      row.report = measure_reduction(reducer, input, data, reference, opt.timing);
      row.report->tuned = tuned;
      if (!tuned.empty()) row.report->tuned_from = opt.tuned_from;
    } catch (const Error& e) {
      row.error = e.what();
    }
    if (row.report) {
      if (v->name == "naive") naive_us = row.report->timed.whole_us.median;
      row.pct_of_peak = rep.peak.gbps > 0 ? 100.0 * row.report->gbps / rep.peak.gbps : 0;
    }
    rep.rows.push_back(row);
  }
  for (auto& row : rep.rows)
    if (row.report && naive_us > 0) row.speedup = naive_us / row.report->timed.whole_us.median;
  return rep;
}

}  // namespace clreduce
