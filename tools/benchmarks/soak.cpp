// clreduce soak.
#include "benchmarks/soak.hpp"

#include "clreduce/error.hpp"
#include "data/host_data.hpp"
#include "clreduce/introspect.hpp"
#include "clreduce/reduce.hpp"
#include "measure/measure.hpp"
#include "clreduce/variants.hpp"
#include "data/reference.hpp"

#include <chrono>
#include <random>
#include <sstream>

namespace clreduce {

namespace {
// A reason's first clause, so refusals group ("work-group size 1024 is over the limit of kernel
// naive" for every device and size).
std::string reason_key(const std::string& what) {
  std::string k = what.substr(0, std::min(what.find_first_of(";:("), what.find(" on ")));
  return k.substr(0, k.find_last_not_of(' ') + 1);
}

std::string command_line(const ReduceConfig& c, std::uint64_t n, std::uint64_t data_seed,
                         const Session& rt) {
  const DeviceInfo& dev = rt.device();
  std::ostringstream s;
  s << "clreduce --platform " << dev.platform_index << " --device " << dev.device_index;
  if (rt.kernels().origin == "given") s << " --kernel-dir " << rt.kernel_dir().string();
  s << " reduce --variant " << c.variant << " --type " << name_of(c.type) << " --op "
    << name_of(c.op) << " --n " << n << " --wg " << c.wg;
  if (c.times) s << " --times " << *c.times;
  if (c.groups_per_cu) s << " --groups-per-cu " << *c.groups_per_cu;
  if (c.vec) s << " --vec " << *c.vec;
  s << " --data random --seed " << data_seed << " --no-tuning";
  return s.str();
}
}  // namespace

SoakReport run_soak(const Session& rt, const SoakOptions& opt,
                    const std::function<void(const SoakReport&)>& progress) {
  const DeviceInfo& dev = rt.device();
  SoakReport r;
  r.seed = opt.seed;
  std::mt19937_64 rng(opt.seed);
  const std::uint64_t max_n = opt.max_n ? opt.max_n : (dev.is_gpu ? (1ULL << 24) : (1ULL << 20));
  std::vector<const Variant*> usable;
  for (const auto& v : variants())
    if (v.unavailable_reason(dev).empty()) usable.push_back(&v);
  std::vector<ElemType> types{ElemType::Uint, ElemType::Int, ElemType::Float};
  if (dev.fp64) types.push_back(ElemType::Double);
  auto pick = [&](auto& xs) { return xs[std::uniform_int_distribution<std::size_t>(0, xs.size() - 1)(rng)]; };
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  while (elapsed() < opt.seconds) {
    ReduceConfig c;
    const Variant* v = pick(usable);
    c.variant = v->name;
    c.type = pick(types);
    c.op = pick(all_ops());
    // n log-uniform over 1 .. max_n, so edge sizes and large ones both come up.
    const double lg = std::uniform_real_distribution<double>(0, std::log2(static_cast<double>(max_n)))(rng);
    std::uint64_t n = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::exp2(lg)));
    std::vector<std::size_t> wgs;
    const std::size_t wg_cap = opt.max_wg ? std::min<std::size_t>(opt.max_wg, 4096) : 4096;
    for (std::size_t w = 1; w <= dev.max_work_group_size && w <= wg_cap; w *= 2) wgs.push_back(w);
    c.wg = pick(wgs);
    if (v->contiguous_blocks) {
      if (std::uniform_int_distribution<int>(0, 1)(rng) == 0)
        c.groups_per_cu = std::uniform_int_distribution<unsigned>(1, 32)(rng);
    } else if (v->uses_times()) {
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
        c.groups_per_cu = std::uniform_int_distribution<unsigned>(1, 32)(rng);
      } else {
        c.times = std::uniform_int_distribution<unsigned>(1, 64)(rng);
      }
    }
    if (v->uses_vec()) c.vec = pick(allowed_vec_widths());
    // On a CPU device every work-group is a loop trip of the runtime: tiny groups over a large n
    // (2^20 groups of 1) cost minutes, so n is capped there at 65536 groups' worth.
    if (!dev.is_gpu && !c.groups_per_cu)
      n = std::min<std::uint64_t>(n, std::uint64_t{65536} * c.wg * v->items(c.times.value_or(1), c.vec.value_or(1)));
    const std::uint64_t data_seed = rng();
    if (progress) {
      r.seconds = elapsed();
      r.current = command_line(c, n, data_seed, rt);
      progress(r);
    }
    try {
      ReducerOptions options;
      options.params = c;
      options.tuning.enabled = false;
      Reducer reducer = rt.reducer(options);
      const std::shared_ptr<const Launch> launch = introspect::prepare(reducer, c.type, c.op, n);
      const HostData data = generate_data(c.type, n, DataKind::Random, data_seed);
      const Value got = reducer.reduce(upload_data(rt, data), c.type, n, c.op);
      const Check check = check_result(got, host_reference(data, c.op), c.op, launch->plan.depth);
      ++r.checked;
      ++r.per_variant[c.variant];
      if (!check.ok) {
        r.failed = true;
        r.failure = check.detail;
        r.reproduce = command_line(c, n, data_seed, rt);
        break;
      }
    } catch (const Error& e) {
      ++r.skipped;
      ++r.skip_reasons[reason_key(e.what())];
    }
  }
  r.seconds = elapsed();
  return r;
}

std::string soak_text(const SoakReport& r, const DeviceInfo& dev) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "device: " << dev.label() << "\n"
      << "soak:   " << r.seconds << " s, seed " << r.seed << " (--seed " << r.seed
      << " repeats this sequence), " << r.checked << " reductions checked against the host, "
      << r.skipped << " configurations refused by the device and skipped\n";
  for (const auto& [v, k] : r.per_variant) out << "  " << v << ": " << k << "\n";
  for (const auto& [why, k] : r.skip_reasons) out << "  skipped " << k << "x: " << why << "\n";
  if (r.failed)
    out << "FAILED: " << r.failure << "\nreproduce: " << r.reproduce << "\n";
  else
    out << "no mismatch\n";
  return out.str();
}

}  // namespace clreduce
