// `clreduce tune axis`: candidates, their verified measurement and the per-class choice. Every
// point is a run_axis (the one path that times and checks an axis launch), so a tuned launch was
// verified against the host reference at every shape that chose it.
#include "benchmarks/axis_tune.hpp"

#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "data/host_data.hpp"
#include "format.hpp"
#include "parse.hpp"

#include <algorithm>
#include <stdexcept>
#include <cmath>
#include <map>

namespace clreduce {

namespace {
std::uint64_t floor_pow2(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}
std::uint64_t ceil_pow2(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

// What a launch runs, pass by pass: two candidates with the same signature are one measurement.
std::string signature_of(const AxisPlan& p) {
  std::string s;
  for (const AxisPassPlan& a : p.passes)
    s += a.kernel + "/" + std::to_string(a.groups_x) + "x" + std::to_string(a.groups_y) + "/" + std::to_string(a.wg_x) +
         "x" + std::to_string(a.wg_y) + "/" + std::to_string(a.chunk_len) + "/" + a.options + ";";
  return s;
}

std::string plan_label(const AxisPlan& p) { return p.variant->name + " " + p.launch_label(); }

AxisConfig config_of(const AxisTuneDesign& d, Axis axis, const AxisCandidate* c, const DeviceInfo& dev,
                     std::uint64_t m, std::uint64_t n) {
  AxisConfig cfg;
  cfg.type = d.type;
  cfg.op = d.op;
  cfg.axis = axis;
  if (!c) return cfg;  // the default launch
  cfg.variant = c->variant;
  cfg.wg = c->wg;
  cfg.row_width = c->row_width;
  if (c->groups_per_cu) {
    const AxisVariant& v = find_axis_variant(c->variant);
    const std::size_t wg = c->wg.value_or(std::min<std::size_t>(v.default_wg(), dev.max_work_group_size));
    cfg.chunks = axis_chunks_for(v, dev, d.type, d.op, m, n, wg, *c->groups_per_cu);
  }
  return cfg;
}

TuningSource no_tuning() {
  TuningSource t;
  t.enabled = false;  // the default launch is the planner's rules, never an older tuning
  return t;
}
}  // namespace

std::vector<std::pair<std::uint64_t, std::uint64_t>> axis_tune_default_shapes(const DeviceInfo& dev, ElemType type,
                                                                               Axis axis) {
  return axis_tune_default_shapes(dev, size_of(type), axis);
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> axis_tune_default_shapes(const DeviceInfo& dev,
                                                                               std::size_t elem_bytes, Axis axis) {
  const std::uint64_t e = std::max<std::size_t>(elem_bytes, 1);
  const std::uint64_t cu = std::max(dev.compute_units, 1u);
  std::uint64_t total = dev.is_gpu ? (1ULL << 24) : (1ULL << 20);
  if (dev.max_alloc_bytes) total = std::min<std::uint64_t>(total, floor_pow2(std::max<std::uint64_t>(dev.max_alloc_bytes / e / 4, 1)));
  const std::uint64_t narrow = std::max<std::uint64_t>(1, 128 / e), shrt = std::max<std::uint64_t>(1, 2048 / e);
  std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> want;
  if (axis == Axis::Rows) {
    want = {{"rows.narrow.few", {2 * cu, narrow}},
            {"rows.narrow.many", {std::max<std::uint64_t>(total / narrow, 4 * cu), narrow}},
            {"rows.short.few", {2 * cu, shrt}},
            {"rows.short.many", {std::max<std::uint64_t>(total / shrt, 4 * cu), shrt}},
            {"rows.long.few", {2 * cu, std::max<std::uint64_t>(total / (2 * cu), 2 * shrt)}},
            {"rows.long.many", {16 * cu, std::max<std::uint64_t>(total / (16 * cu), 2 * shrt)}}};
  } else {
    const std::uint64_t wide = ceil_pow2(kClassWideColsPerCu * cu);
    const std::uint64_t square = std::min<std::uint64_t>(floor_pow2(static_cast<std::uint64_t>(std::sqrt(double(total)))),
                                                         std::max<std::uint64_t>(wide / 2, 1));
    want = {{"cols.thin", {std::max<std::uint64_t>(total / narrow, 1), narrow}},
            {"cols.square", {std::max<std::uint64_t>(total / square, 1), square}},
            {"cols.wide", {std::max<std::uint64_t>(total / wide, 16), wide}}};
  }
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const auto& [cls, shape] : want) {
    const auto [m, n] = shape;
    if (m * n * e > dev.max_alloc_bytes && dev.max_alloc_bytes) continue;
    if (shape_class_of(axis, m, n, e, dev.compute_units) == cls) out.push_back(shape);
  }
  return out;
}

std::string AxisCandidate::label() const {
  std::string s = variant;
  if (wg) s += " wg " + std::to_string(*wg);
  if (row_width) s += " rw " + std::to_string(*row_width);
  if (groups_per_cu) s += " gpc " + std::to_string(*groups_per_cu);
  return s;
}

std::vector<AxisCandidate> axis_tune_candidates(const AxisTuneDesign& d, const DeviceInfo& dev, Axis axis) {
  std::vector<std::size_t> wgs;
  for (std::size_t w : d.wg.empty() ? std::vector<std::size_t>{64, 128, 256, 512} : d.wg)
    if (w <= dev.max_work_group_size) wgs.push_back(w);
  const std::vector<unsigned> rws = d.row_width.empty() ? std::vector<unsigned>{1, 2, 4, 8, 16, 32} : d.row_width;
  const std::vector<unsigned> gpcs = d.groups_per_cu.empty() ? std::vector<unsigned>{2, 4, 8, 16, 32} : d.groups_per_cu;
  std::vector<AxisCandidate> out;
  for (const AxisVariant& v : axis_variants()) {
    if (v.axis != axis) continue;
    if (!d.variants.empty() && std::find(d.variants.begin(), d.variants.end(), v.name) == d.variants.end()) continue;
    if (!v.takes(d.op)) continue;  // refused for argmin/argmax or a user's operator: nothing to measure
    if (v.runs_descriptor()) {
      // Its family's table is tuned by `clreduce tune descriptors`: here its planner's launch.
      out.push_back({v.name, std::nullopt, std::nullopt, std::nullopt});
      continue;
    }
    // The axes are the -Ds the kernel's table marks tunable (WG_SIZE; ROW_WIDTH, at most
    // WG_SIZE), and the chunks where the variant's launch takes them (no -D names those).
    bool tune_wg = false, tune_row_width = false;
    for (const KernelParam& p : v.spec.params) {
      if (!p.tunable) continue;
      if (p.define == "WG_SIZE") tune_wg = true;
      else if (p.define == "ROW_WIDTH") tune_row_width = true;
      else throw std::logic_error("axis variant " + v.name + ": tunable parameter " + p.define + " has no tune axis");
    }
    std::vector<std::optional<std::size_t>> ws{std::nullopt};
    if (tune_wg) ws.assign(wgs.begin(), wgs.end());
    for (const std::optional<std::size_t>& w : ws) {
      std::vector<std::optional<unsigned>> rs{std::nullopt};
      if (tune_row_width) {
        rs.clear();
        for (unsigned r : rws)
          if (!w || r <= *w) rs.push_back(r);
      }
      for (const std::optional<unsigned>& r : rs) {
        if (!v.takes_chunks()) {
          out.push_back({v.name, w, r, std::nullopt});
          continue;
        }
        for (unsigned g : gpcs) out.push_back({v.name, w, r, g});
      }
    }
  }
  return out;
}

bool AxisTuneRun::all_ok() const {
  for (const auto& s : shapes)
    for (const auto& p : s.points)
      if (!p.error.empty() || (p.report && !p.report->ok())) return false;
  return true;
}

AxisTuneRun measure_axis_tune(const Session& session, const AxisTuneDesign& d,
                              const std::function<void(const ProgressStep&)>& progress) {
  AxisTuneRun run;
  run.type = d.type;
  run.op = d.op;
  const DeviceInfo& dev = session.device();
  const std::vector<Axis> axes = d.axes.empty() ? std::vector<Axis>{Axis::Rows, Axis::Cols} : d.axes;
  // The work: per axis and shape, the default launch and every candidate.
  struct Job {
    Axis axis;
    std::uint64_t m, n;
  };
  std::vector<Job> jobs;
  for (Axis a : axes)
    for (const auto& [m, n] : d.shapes.empty() ? axis_tune_default_shapes(dev, d.type, a) : d.shapes)
      jobs.push_back({a, m, n});
  ProgressStep step;
  for (const Job& j : jobs) {
    const std::size_t k = 1 + axis_tune_candidates(d, dev, j.axis).size();
    step.total += k;
    step.work_total += static_cast<double>(j.m * j.n) * static_cast<double>(k);
  }
  for (const Job& j : jobs) {
    AxisTuneShape s;
    s.axis = j.axis;
    s.m = j.m;
    s.n = j.n;
    s.shape_class = shape_class_of(j.axis, j.m, j.n, size_of(d.type), dev.compute_units);
    const HostData data = generate_data(d.type, j.m * j.n, d.data, d.seed);
    const std::vector<AxisCandidate> candidates = axis_tune_candidates(d, dev, j.axis);
    std::map<std::string, std::string> measured;  // launch signature -> the first label measured with it
    for (std::size_t i = 0; i <= candidates.size(); ++i) {
      AxisTunePoint p;
      if (i > 0) p.candidate = candidates[i - 1];
      const std::string label = p.candidate ? p.candidate->label() : "default";
      step.begin(shape_label(j.m, j.n) + " " + std::string(name_of(j.axis)) + ": " + label,
                 static_cast<double>(j.m * j.n), progress);
      try {
        const AxisConfig cfg = config_of(d, j.axis, p.candidate ? &*p.candidate : nullptr, dev, j.m, j.n);
        AxisReducerOptions opt;
        opt.params = cfg;
        opt.device = dev;
        opt.kernel_dir = session.kernel_dir();
        opt.tuning = no_tuning();
        const auto launch = introspect::prepare(AxisReducer(session.queue(), opt), cfg.type, cfg.op, cfg.axis, j.m, j.n);
        p.launch = plan_label(launch->plan);
        const std::string sig = signature_of(launch->plan);
        if (const auto it = measured.find(sig); it != measured.end()) {
          p.same_as = it->second;
        } else {
          measured.emplace(sig, label);
          p.report = run_axis(session, cfg, data, j.m, j.n, d.timing, nullptr, no_tuning());
        }
      } catch (const ConfigError& e) {
        p.refused = e.what();
      } catch (const Error& e) {
        p.error = e.what();
      }
      s.points.push_back(std::move(p));
    }
    run.shapes.push_back(std::move(s));
  }
  step.what = "done";
  if (progress) progress(step);
  return run;
}

void choose_axis_tuning(AxisTuneRun& run, const AxisTuneDesign& d, const std::string& date) {
  run.classes.clear();
  // The classes in the order of their first shape.
  std::vector<std::pair<Axis, std::string>> order;
  for (const auto& s : run.shapes)
    if (std::find(order.begin(), order.end(), std::make_pair(s.axis, s.shape_class)) == order.end())
      order.emplace_back(s.axis, s.shape_class);
  for (const auto& [axis, cls] : order) {
    AxisTuneClass c;
    c.axis = axis;
    c.shape_class = cls;
    std::vector<const AxisTuneShape*> shapes;
    for (const auto& s : run.shapes)
      if (s.axis == axis && s.shape_class == cls) shapes.push_back(&s);
    // Per candidate label: the point at each shape (a point measured as another launch counts
    // with that launch's times).
    std::map<std::string, std::vector<const AxisTunePoint*>> by_label;
    std::map<std::string, AxisCandidate> candidate_of;
    // The labels in the order they were measured: of candidates tied because they launch alike
    // here (gpc 2 and gpc 16 both one chunk), the first measured is the one kept.
    std::vector<std::string> label_order;
    bool defaults_ok = true;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const AxisTuneShape& s = *shapes[k];
      if (s.points.empty() || !s.points[0].ok()) defaults_ok = false;
      for (const AxisTunePoint& p : s.points) {
        if (!p.candidate) continue;
        const std::string label = p.candidate->label();
        const AxisTunePoint* timed = &p;
        if (!p.same_as.empty())
          for (const AxisTunePoint& q : s.points)
            if ((q.candidate ? q.candidate->label() : "default") == p.same_as) timed = &q;
        auto& v = by_label[label];
        v.resize(shapes.size(), nullptr);
        v[k] = timed->ok() ? timed : nullptr;
        if (candidate_of.emplace(label, *p.candidate).second) label_order.push_back(label);
      }
    }
    if (!defaults_ok) {
      c.note = "the default launch did not run and verify at every shape of the class; nothing is tuned";
      run.classes.push_back(std::move(c));
      continue;
    }
    double best_score = 0;
    for (const std::string& label : label_order) {
      const std::vector<const AxisTunePoint*>& pts = by_label[label];
      if (std::any_of(pts.begin(), pts.end(), [](const AxisTunePoint* p) { return !p; })) continue;
      // A launch identical to the default at every shape is the default measured twice.
      bool differs = false;
      double log_sum = 0;
      for (std::size_t k = 0; k < shapes.size(); ++k) {
        const AxisTunePoint& def = shapes[k]->points[0];
        differs = differs || pts[k] != &def;
        log_sum += std::log(pts[k]->us() / def.us());
      }
      if (!differs) continue;
      const double score = std::exp(log_sum / static_cast<double>(shapes.size()));
      if (c.best.empty() || score < best_score) {
        c.best = label;
        best_score = score;
      }
    }
    if (c.best.empty()) {
      c.note = "no candidate launching otherwise than the default was verified at every shape; the default rule is kept";
      run.classes.push_back(std::move(c));
      continue;
    }
    c.gain = 1 / best_score;
    const auto& pts = by_label[c.best];
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      const Stats& t = pts[k]->report->timing.whole_us;
      const Stats& def = shapes[k]->points[0].report->timing.whole_us;
      c.noise = std::max(c.noise, ((t.q3 - t.q1) + (def.q3 - def.q1)) / 2 / def.median);
    }
    const double need = 1 + std::max(d.min_gain, c.noise);
    if (!(c.gain > need)) {
      c.note = "the default rule is kept: the best, " + c.best + ", gains " + fixed(c.gain, 3) + "x, not more than " +
               fixed(need, 3) + "x (min gain " + fixed(d.min_gain * 100, 1) + "%, noise " + fixed(c.noise * 100, 1) + "%)";
      run.classes.push_back(std::move(c));
      continue;
    }
    const AxisCandidate& best = candidate_of.at(c.best);
    TunedAxisEntry e;
    e.type = run.type;
    e.op = run.op;
    e.axis = axis;
    e.shape_class = cls;
    e.date = date;
    e.variant = best.variant;
    e.wg = best.wg;
    e.row_width = best.row_width;
    e.groups_per_cu = best.groups_per_cu;
    e.gain_over_default = c.gain;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
      TunedAxisMeasurement mm;
      mm.m = shapes[k]->m;
      mm.n = shapes[k]->n;
      mm.tuned_us = pts[k]->us();
      mm.default_us = shapes[k]->points[0].us();
      mm.gbps = pts[k]->report->gbps;
      e.measurements.push_back(mm);
    }
    c.entry = e;
    run.classes.push_back(std::move(c));
  }
}

}  // namespace clreduce
