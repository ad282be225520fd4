// The size sweep: candidates, measurement and the choice of the best.
#include "benchmarks/sizes.hpp"

#include "clreduce/error.hpp"
#include "core/occupancy.hpp"

#include <algorithm>
#include <set>

namespace clreduce {

std::vector<ReduceConfig> sweep_candidates(const Variant& v, const DeviceInfo& dev, ElemType type,
                                           Op op, std::size_t wg) {
  const std::uint64_t es = size_of(type);
  const bool has_occupancy = dev.resident_items_per_cu > 0;
  std::vector<std::size_t> wgs;
  if (wg) {
    wgs = {wg};
  } else if (has_occupancy) {
    for (std::size_t w : {128, 256, 512, 1024})
      if (w <= dev.max_work_group_size && w * es <= dev.local_mem_bytes) wgs.push_back(w);
  }
  if (wgs.empty()) {
    ReduceConfig probe;
    wgs = {effective_wg(probe, dev)};
  }
  std::vector<ReduceConfig> out;
  for (std::size_t w : wgs) {
    ReduceConfig base;
    base.variant = v.name;
    base.type = type;
    base.op = op;
    base.wg = w;
    if (v.uses_vec) base.vec = static_cast<unsigned>(std::max<std::uint64_t>(2, 16 / es));
    if (!v.uses_times) {
      out.push_back(base);
      continue;
    }
    if (!v.default_fills_device) out.push_back(base);  // the default TIMES
    if (v.single_pass && has_occupancy) {
      // Also grids of many short groups (TIMES fixed, groups from n): they stream faster than a
      // device-filling grid on the H100, at the price of more partials for the last group; with
      // 16- and 32-byte vectors (two loads in flight per step: `tune` picked VEC 8 at 2^26).
      for (unsigned t : {4u, 8u, 16u})
        for (unsigned vec : {*base.vec, 2 * *base.vec}) {
          ReduceConfig c = base;
          c.times = t;
          c.vec = vec;
          out.push_back(c);
        }
    }
    const unsigned r = resident_groups_per_cu(dev, w, w * es);
    std::set<unsigned> gpcs{r};
    if (has_occupancy) gpcs.insert({std::max(1u, r / 2), 2 * r});
    for (unsigned g : gpcs) {
      ReduceConfig c = base;
      c.groups_per_cu = g;
      out.push_back(c);
    }
  }
  return out;
}

bool SweepRow::ok() const {
  if (!skipped.empty()) return true;
  for (const auto& c : tried) {
    if (!c.error.empty()) return false;
    if (c.report && !c.report->ok()) return false;
  }
  return measured() > 0;
}

std::size_t SweepRow::measured() const {
  return static_cast<std::size_t>(
      std::count_if(tried.begin(), tried.end(), [](const SweepCandidate& c) { return c.report.has_value(); }));
}

bool SweepReport::all_ok() const {
  for (const auto& s : sizes)
    for (const auto& row : s.rows)
      if (!row.ok()) return false;
  return true;
}

SweepReport run_sweep(Runtime& rt, const SweepOptions& opt,
                      const std::function<void(const std::string&)>& progress) {
  if (opt.sizes.empty()) throw Error("--sizes needs at least one size");
  const std::vector<const Variant*> chosen = select_variants(opt.variants);
  for (std::uint64_t n : opt.sizes) check_allocation(n, opt.type, rt.device());

  SweepReport rep;
  rep.type = opt.type;
  rep.op = opt.op;
  for (std::uint64_t n : opt.sizes) {
    SweepSize sz;
    sz.n = n;
    const std::string at = "n=" + std::to_string(n);
    if (progress) progress(at + ", generating data");
    const HostData data = generate_data(opt.type, n, opt.data, opt.seed);
    sz.data_origin = data.origin;
    const cl::Buffer input = upload_data(rt, data);
    if (progress) progress(at + ", read bandwidth");
    sz.peak = measure_read_bandwidth(rt, input, data.bytes.size(), opt.timing);
    const Reference reference = host_reference(data, opt.op);
    for (const Variant* v : chosen) {
      SweepRow row;
      row.variant = v->name;
      row.skipped = v->unavailable_reason(rt.device());
      if (!row.skipped.empty()) {
        sz.rows.push_back(row);
        continue;
      }
      if (progress) progress(at + ", " + v->name);
      std::vector<ReduceConfig> candidates = sweep_candidates(*v, rt.device(), opt.type, opt.op, opt.wg);
      std::vector<std::string> tuned_params;  // filled: the last candidate is the tuned one
      if (auto t = opt.tuned.find(v->name); t != opt.tuned.end()) {
        ReduceConfig tuned = candidates.front();
        tuned.wg = opt.wg;
        tuned.times.reset();
        tuned.groups_per_cu.reset();
        tuned.vec.reset();
        tuned_params = apply_tuned_checked(t->second, tuned, rt.device(), n, nullptr);
        if (!tuned_params.empty()) candidates.push_back(tuned);
      }
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        ReduceConfig cfg = candidates[i];
        cfg.defines = opt.defines;
        SweepCandidate c;
        c.config = cfg;
        try {
          Reducer reducer(rt, cfg, n);
          c.report = measure_reduction(reducer, input, data, reference, opt.timing);
          if (!tuned_params.empty() && i + 1 == candidates.size()) {
            c.report->tuned = tuned_params;
            c.report->tuned_from = opt.tuned_from;
          }
        } catch (const LimitError& e) {
          c.refused = e.what();
        } catch (const Error& e) {
          c.error = e.what();
        }
        row.tried.push_back(std::move(c));
      }
      for (std::size_t i = 0; i < row.tried.size(); ++i) {
        const auto& r = row.tried[i].report;
        if (!r) continue;
        if (row.best < 0 || r->timed.whole_us.median < row.best_report()->timed.whole_us.median)
          row.best = static_cast<int>(i);
        if (row.best_single < 0 ||
            r->timed.single_us.median < row.tried[row.best_single].report->timed.single_us.median)
          row.best_single = static_cast<int>(i);
      }
      if (const ReduceReport* b = row.best_report(); b && sz.peak.gbps > 0)
        row.pct_of_peak = 100.0 * b->gbps / sz.peak.gbps;
      sz.rows.push_back(std::move(row));
    }
    rep.sizes.push_back(std::move(sz));
  }
  return rep;
}

}  // namespace clreduce
