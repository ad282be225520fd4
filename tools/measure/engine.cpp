// The measuring engine: sizes, inputs, the read peak, and every declared point measured.
#include "measure/engine.hpp"

#include "measure/user_reference.hpp"

#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"

#include <algorithm>

namespace clreduce {

namespace {
template <class Pred>
int index_of_lowest(const std::vector<Measured>& points, Pred value) {
  int best = -1;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Measured& m = points[i];
    if (!m.report || !m.report->ok()) continue;
    if (best < 0 || value(m) < value(points[best])) best = static_cast<int>(i);
  }
  return best;
}
}  // namespace

int VariantRun::best() const { return index_of_lowest(points, [](const Measured& m) { return m.us(); }); }
int VariantRun::best_single() const {
  return index_of_lowest(points, [](const Measured& m) { return m.single_us(); });
}
int VariantRun::default_point() const {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].point.is_default && points[i].report) return static_cast<int>(i);
  return -1;
}

double VariantRun::gain_over_default() const {
  const Measured* b = best_point();
  const Measured* d = default_launch();
  return b && d && b->us() > 0 ? d->us() / b->us() : 1.0;
}

std::size_t VariantRun::measured() const {
  return static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const Measured& m) { return m.report.has_value(); }));
}
std::size_t VariantRun::skipped() const {
  return static_cast<std::size_t>(
      std::count_if(points.begin(), points.end(), [](const Measured& m) { return !m.skipped.empty(); }));
}
std::size_t VariantRun::failed() const {
  return static_cast<std::size_t>(std::count_if(points.begin(), points.end(), [](const Measured& m) { return m.failed(); }));
}

double SizeRun::floor_us(ElemType t) const {
  return peak.gbps > 0 ? static_cast<double>(n * size_of(t)) / (peak.gbps * 1e3) : 0;
}

const VariantRun* SizeRun::best_variant() const {
  const VariantRun* best = nullptr;
  for (const auto& v : variants) {
    const Measured* p = v.best_point();
    if (p && (!best || p->us() < best->best_point()->us())) best = &v;
  }
  return best;
}

bool Run::all_ok() const {
  for (const auto& s : sizes)
    for (const auto& v : s.variants)
      if (!v.ok()) return false;
  return true;
}

std::size_t Run::count_points() const {
  std::size_t total = 0;
  if (!sizes.empty())
    for (const auto& v : sizes.front().variants) total += v.points.size();
  return total;
}

Run measure(const Session& session, const Design& design, const Watch& watch) {
  const DeviceInfo& dev = session.device();
  const std::vector<const Variant*> chosen = select_variants(design.variants);
  std::vector<std::uint64_t> sizes = design.sizes;
  if (design.input) {
    if (design.input->type != design.type)
      throw Error(Param::Type, "the input holds " + std::string(name_of(design.input->type)) +
                                   " elements, but the reduction is of " + std::string(name_of(design.type)));
    sizes = {design.input->n};
  }
  if (sizes.empty()) throw Error(Param::N, "no size to measure; give at least one", "at least one size");
  if (!design.warm && !design.cold) throw Error("neither warm nor cold: nothing to measure");
  if (design.cold && !design.evict.evict) throw Error("cold timing needs a cache evictor (Session::cache_evictor)");
  for (std::uint64_t n : sizes) check_allocation(n, design.type, dev);

  // Every point of every size first, so that the progress knows the total.
  Run run;
  run.type = design.type;
  run.op = design.op;
  run.clock = session.clock();
  run.clock_note = session.timer().reason;
  if (design.cold) run.cache_note = design.evict.note;
  run.noise_target_pct = design.timing.max_noise_pct;
  std::vector<std::pair<std::uint64_t, bool>> runs;  // (n, cold) in the order measured
  for (std::uint64_t n : sizes) {
    if (design.warm) runs.emplace_back(n, false);
    if (design.cold) runs.emplace_back(n, true);
  }
  for (const auto& [n, cold] : runs) {
    SizeRun s;
    s.n = n;
    s.cold = cold;
    for (const Variant* v : chosen) {
      VariantRun vr;
      vr.variant = v->name;
      vr.unavailable = v->unavailable_reason(dev);
      if (vr.unavailable.empty())
        for (Point p : design.points(*v, n)) {
          p.params.variant = v->name;
          p.params.defines.insert(p.params.defines.end(), design.defines.begin(), design.defines.end());
          vr.points.push_back(Measured{p, std::nullopt, {}, {}});
        }
      s.variants.push_back(std::move(vr));
    }
    run.sizes.push_back(std::move(s));
  }

  // Each step weighed by its estimated seconds: calibrated when the caller wants the estimate,
  // else by the bytes it reads (any unit serves for the progress's proportions).
  Calibration cal;
  if (watch.estimated) {
    const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());
    cal = calibrate(session, design.type, design.op, design.data, largest, design.input == nullptr);
  } else {
    cal.device_gbps = cal.host_gbps = 1;
  }
  const TimeSource clock = session.clock();
  RunEstimate est;
  est.calibration = cal;
  est.sizes = run.sizes.size();
  std::vector<double> input_w, peak_w, host_w, point_w;  // per size; point_w: one point (+ its build)
  for (std::size_t i = 0; i < run.sizes.size(); ++i) {
    const SizeRun& s = run.sizes[i];
    const std::uint64_t bytes = s.n * size_of(design.type);
    std::size_t points = 0;
    for (const auto& v : s.variants) points += v.points.size();
    input_w.push_back(host_seconds(cal, bytes));
    peak_w.push_back(point_seconds(cal, design.timing, clock, bytes) * (dev.is_gpu ? 1 : 2));
    host_w.push_back(dev.is_gpu ? 0 : point_seconds(cal, design.timing, TimeSource::HostClock, bytes));
    point_w.push_back(point_seconds(cal, design.timing, clock, bytes));
    est.points += points;
    est.builds = std::max(est.builds, points);
    est.host_bytes += static_cast<double>(bytes);
    est.device_bytes += static_cast<double>(bytes) * point_passes(design.timing, clock) *
                        static_cast<double>(points + (dev.is_gpu ? 1 : 3));
    est.seconds += input_w.back() + peak_w.back() + host_w.back() + point_w.back() * static_cast<double>(points);
  }
  est.seconds += cal.build_s * static_cast<double>(est.builds);
  if (watch.estimated && !watch.estimated(est)) {
    run.sizes.clear();
    return run;
  }

  std::size_t total = 0;
  for (const SizeRun& s : run.sizes) {
    total += dev.is_gpu || design.op == Op::User ? 2 : 3;  // the input, the read peak (on a CPU the host's std::reduce)
    for (const auto& v : s.variants) total += v.points.size();
  }
  ProgressStep step_state;
  step_state.total = total;
  step_state.work_total = est.seconds;
  const auto step = [&](const std::string& what, double weight) {
    step_state.what = what;
    if (watch.progress) watch.progress(step_state);
    ++step_state.done;
    step_state.work_done += weight;
  };
  std::optional<HostData> generated;  // the input of the size measured last (warm and cold share it)
  cl::Buffer input;
  std::optional<Reference> reference;
  for (std::size_t i = 0; i < run.sizes.size(); ++i) {
    SizeRun& s = run.sizes[i];
    const std::string at = "n=" + std::to_string(s.n) + (s.cold ? " cold" : "") + ": ";
    step(at + "input", input_w[i]);
    const bool fresh = i == 0 || run.sizes[i - 1].n != s.n;
    if (fresh && !design.input) {
      generated.reset();
      generated = generate_data(design.type, s.n, design.data, design.seed);
    }
    const HostData& data = design.input ? *design.input : *generated;
    s.data_origin = data.origin;
    if (fresh) {
      input = cl::Buffer();
      input = upload_data(session, data);
      reference = reference_for(session, data, design.op, design.user_op.get());
    }
    TimingOptions timing = design.timing;
    if (s.cold) timing.before_sample = design.evict.evict;
    step(at + "read bandwidth", peak_w[i]);
    s.peak = measure_read_bandwidth(session, input, data.bytes.size(), timing);
    if (!dev.is_gpu && design.op != Op::User) {  // no host std::reduce of a user's OpenCL C
      step(at + "host std::reduce", host_w[i]);
      s.host = measure_host_reduce(data, design.op, dev.compute_units, design.timing);
    }
    for (VariantRun& vr : s.variants) {
      std::vector<Measured> kept;
      for (Measured& m : vr.points) {
        step(at + vr.variant, point_w[i] + (i == 0 ? cal.build_s : 0));
        ReducerOptions opt;
        opt.params = m.point.params;
        opt.tuning = design.tuning;
        opt.tuning.enabled = design.tuning.enabled && m.point.use_tuning;
        opt.device = dev;
        opt.kernel_dir = session.kernel_dir();
        opt.user_op = design.user_op;
        try {
          Reducer reducer(session.queue(), opt);  // resolves the point's launch (prepare, below)
          const std::shared_ptr<const Launch> launch = introspect::prepare(reducer, design.type, design.op, s.n);
          if (m.point.only_if_tuned && launch->tuned.empty()) continue;
          m.report = measure_reduction(session, reducer, *launch, input, data, *reference, timing);
        } catch (const ConfigError& e) {
          if (m.point.only_if_tuned) continue;
          m.skipped = e.what();
        } catch (const Error& e) {
          m.error = e.what();
        }
        kept.push_back(std::move(m));
      }
      vr.points = std::move(kept);
    }
  }
  step_state.what = "done";
  if (watch.progress) watch.progress(step_state);
  return run;
}

}  // namespace clreduce
