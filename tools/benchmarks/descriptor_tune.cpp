// `clreduce tune descriptors` (benchmarks/descriptor_tune.hpp): the tune axes of the descriptor
// kernels' tunable parameters, the grid per family, its measurement through the descriptor
// benchmark and the per-class choice.
#include "benchmarks/descriptor_tune.hpp"

#include "benchmarks/axis_tune.hpp"
#include "benchmarks/tune.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "parse.hpp"
#include "format.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace clreduce {

namespace {
using BenchFamily = DescriptorJob::Family;

BenchFamily bench_family(DescriptorFamily f) {
  return f == DescriptorFamily::Whole ? BenchFamily::Whole : f == DescriptorFamily::Rows ? BenchFamily::Rows
                                                                                          : BenchFamily::Cols;
}

std::vector<std::uint64_t> at_most(std::vector<std::uint64_t> v, std::uint64_t most) {
  if (most) v.erase(std::remove_if(v.begin(), v.end(), [&](std::uint64_t x) { return x > most; }), v.end());
  if (v.empty()) v.push_back(1);
  return v;
}

// VEC: the widths whose loads are lo..hi bytes of the widest input.
std::vector<std::uint64_t> vec_axis(std::size_t widest, std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t v : {1, 2, 4, 8, 16})
    if (v * widest >= lo && v * widest <= hi) out.push_back(v);
  if (out.empty()) out.push_back(1);
  return out;
}

// The tunable parameters of the family's kernel, for messages: "WG_SIZE, ITEMS, VEC".
std::string tunables(DescriptorFamily f) {
  std::vector<std::string> names;
  for (const KernelParam& p : kernel_of(f).params)
    if (p.tunable) names.push_back(p.define);
  return join(names, ", ");
}

bool tunes(DescriptorFamily f, const std::string& define) {
  const KernelParam* p = kernel_of(f).find(define);
  return p && p->tunable;
}

// "f32 x f32" -> {F32, F32}.
std::vector<Scalar> scalars_of(const std::string& types) {
  std::vector<Scalar> out;
  for (std::size_t start = 0;;) {
    const std::size_t sep = types.find(" x ", start);
    out.push_back(parse_scalar(types.substr(start, sep == std::string::npos ? std::string::npos : sep - start)));
    if (sep == std::string::npos) return out;
    start = sep + 3;
  }
}

// What a launch runs: two points with the same signature are one launch measured twice.
std::string signature_of(const DescriptorLaunch& l) {
  return l.kernel + "/" + l.options + "/" + std::to_string(l.wg) + "/" + std::to_string(l.groups) + "/" +
         std::to_string(l.chunks) + "/" + std::to_string(l.rows_per_chunk);
}

bool row_ok(const DescriptorBenchRow& r) { return r.report && r.report->ok() && r.report->timing.whole_us.median > 0; }
double row_us(const DescriptorBenchRow& r) { return r.report ? r.report->timing.whole_us.median : 0; }
}  // namespace

std::vector<std::uint64_t> descriptor_tune_axis(DescriptorFamily family, const std::string& define,
                                                const DeviceInfo& dev, std::size_t widest_bytes) {
  const bool gpu = dev.is_gpu;
  const std::uint64_t wg_max = dev.max_work_group_size;
  const std::size_t widest = std::max<std::size_t>(widest_bytes, 1);
  std::optional<std::vector<std::uint64_t>> v;
  switch (family) {
    case DescriptorFamily::Whole:
      if (define == "WG_SIZE") v = at_most(gpu ? std::vector<std::uint64_t>{64, 128, 256, 512}
                                               : std::vector<std::uint64_t>{8, 32, 128}, wg_max);
      else if (define == "ITEMS") v = gpu ? std::vector<std::uint64_t>{1, 2, 4, 8} : std::vector<std::uint64_t>{2, 4, 8};
      else if (define == "VEC") v = gpu ? vec_axis(widest, 8, 32) : vec_axis(widest, 16, 64);
      break;
    case DescriptorFamily::Rows:
      if (define == "WG_SIZE") v = at_most(gpu ? std::vector<std::uint64_t>{128, 256, 512}
                                               : std::vector<std::uint64_t>{8, 64}, wg_max);
      else if (define == "ROW_WIDTH") v = gpu ? std::vector<std::uint64_t>{1, 4, 16, 64} : std::vector<std::uint64_t>{1, 8};
      else if (define == "ITEMS") v = gpu ? std::vector<std::uint64_t>{1, 2, 4} : std::vector<std::uint64_t>{2, 4};
      else if (define == "VEC") v = gpu ? vec_axis(widest, 8, 32) : vec_axis(widest, 16, 64);
      break;
    case DescriptorFamily::Cols:
      if (define == "TILE_X") v = at_most(gpu ? std::vector<std::uint64_t>{32, 64, 128, 256}
                                              : std::vector<std::uint64_t>{8, 16}, wg_max);
      else if (define == "ROWS_Y") v = gpu ? std::vector<std::uint64_t>{1, 2, 8} : std::vector<std::uint64_t>{1, 2};
      else if (define == "ITEMS") v = gpu ? std::vector<std::uint64_t>{2, 4, 8} : std::vector<std::uint64_t>{2, 4};
      else if (define == "BLOCK") v = std::vector<std::uint64_t>{0, 1};
      break;
  }
  if (!tunes(family, define))
    throw std::logic_error("descriptor_tune_axis: " + define + " is not a tunable parameter of " +
                           kernel_of(family).file);
  if (!v)
    throw std::logic_error(kernel_of(family).file + ": tunable parameter " + define + " has no tune axis");
  return *v;
}

DescriptorTuneDesign with_defaults(DescriptorTuneDesign d) {
  if (d.ops.empty()) d.ops = {Builtin::Sum, Builtin::ArgMax, Builtin::VarPop};
  if (d.types.empty()) d.types = {Scalar::F32};
  if (d.families.empty()) d.families = {DescriptorFamily::Whole, DescriptorFamily::Rows, DescriptorFamily::Cols};
  return d;
}

void check_descriptor_tune_grid(const DescriptorTuneDesign& d, const DeviceInfo& dev) {
  const DescriptorTuneDesign full = with_defaults(d);
  std::vector<std::string> valid;
  for (DescriptorFamily f : full.families) valid.push_back(std::string(name_of(f)) + ": " + tunables(f));
  const bool lines_or_cols = std::any_of(full.families.begin(), full.families.end(),
                                         [](DescriptorFamily f) { return f != DescriptorFamily::Whole; });
  for (std::size_t i = 0; i < full.grid.size(); ++i) {
    const LaunchAxis& a = full.grid[i];
    for (std::size_t j = 0; j < i; ++j)
      if (full.grid[j].name == a.name)
        throw Error(Param::Define, "--grid " + a.name + " is given twice: give its values once", "NAME=V1,V2,... once");
    if (a.name == "wg")
      throw Error(Param::WorkGroupSize,
                  "--grid wg: tune descriptors searches the kernels' own parameters; give WG_SIZE (whole, rows) or "
                  "TILE_X and ROWS_Y (cols)",
                  "WG_SIZE, TILE_X, ROWS_Y");
    if (a.name == "chunks") {
      if (!lines_or_cols)
        throw Error(Param::Chunks, "--grid chunks: the whole array is not cut into chunks; add rows or cols to --families",
                    "chunks with rows or cols");
      continue;
    }
    const bool anywhere = std::any_of(full.families.begin(), full.families.end(),
                                      [&](DescriptorFamily f) { return tunes(f, a.name); });
    if (!anywhere)
      throw Error(Param::Define, "--grid " + a.name + ": not a tunable parameter of the families tuned; valid: " +
                                     join(valid, "; ") + (lines_or_cols ? "; and chunks (rows, cols)" : ""),
                  join(valid, "; "));
  }
  for (DescriptorFamily f : full.families)
    for (Scalar t : full.types) descriptor_tune_points(full, f, dev, size_of(t));
}

std::vector<DescriptorLaunchPoint> descriptor_tune_points(const DescriptorTuneDesign& d, DescriptorFamily family,
                                                          const DeviceInfo& dev, std::size_t widest_bytes) {
  const auto given = [&](const std::string& name) -> const LaunchAxis* {
    for (const LaunchAxis& a : d.grid)
      if (a.name == name) return &a;
    return nullptr;
  };
  std::vector<LaunchAxis> axes;
  for (const KernelParam& p : kernel_of(family).params) {
    if (!p.tunable) continue;
    if (const LaunchAxis* a = given(p.define)) axes.push_back(*a);
    else axes.push_back(LaunchAxis{p.define, descriptor_tune_axis(family, p.define, dev, widest_bytes)});
  }
  if (const LaunchAxis* a = given("chunks"); a && family != DescriptorFamily::Whole) axes.push_back(*a);
  std::vector<DescriptorLaunchPoint> points;
  try {
    points = launch_grid(axes, {bench_family(family)});
  } catch (const Error& e) {
    throw Error(e.param(), "--grid (" + std::string(name_of(family)) + "): " + e.what(), e.valid());
  }
  const auto value = [](const DescriptorLaunchPoint& p, const char* name) -> std::optional<std::uint64_t> {
    for (const Define& x : p.defines)
      if (x.name == name && x.value) return std::stoull(*x.value);
    return std::nullopt;
  };
  points.erase(std::remove_if(points.begin() + 1, points.end(),
                              [&](const DescriptorLaunchPoint& p) {
                                const auto wg = value(p, "WG_SIZE"), rw = value(p, "ROW_WIDTH");
                                const auto tx = value(p, "TILE_X"), ry = value(p, "ROWS_Y");
                                if (wg && rw && *rw > *wg) return true;
                                return tx && ry && dev.max_work_group_size && *tx * *ry > dev.max_work_group_size;
                              }),
               points.end());
  return points;
}

std::vector<std::uint64_t> descriptor_tune_sizes(const DescriptorTuneDesign& d, const DeviceInfo& dev) {
  return d.sizes.empty() ? default_tune_sizes(dev) : d.sizes;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> descriptor_tune_shapes(const DescriptorTuneDesign& d,
                                                                            DescriptorFamily family,
                                                                            const DeviceInfo& dev, Scalar type) {
  if (!d.shapes.empty()) return d.shapes;
  return axis_tune_default_shapes(dev, size_of(type), family == DescriptorFamily::Cols ? Axis::Cols : Axis::Rows);
}

std::uint64_t descriptor_tune_runs(const DescriptorTuneDesign& design, const DeviceInfo& dev) {
  const DescriptorTuneDesign d = with_defaults(design);
  std::uint64_t runs = 0;
  for (DescriptorFamily f : d.families)
    for (Scalar t : d.types) {
      const std::uint64_t where = f == DescriptorFamily::Whole ? descriptor_tune_sizes(d, dev).size()
                                                               : descriptor_tune_shapes(d, f, dev, t).size();
      runs += where * d.ops.size() * descriptor_tune_points(d, f, dev, size_of(t)).size();
    }
  return runs;
}

DescriptorTuneRun measure_descriptor_tune(const Session& session, const DescriptorTuneDesign& design,
                                          const std::function<void(const ProgressStep&)>& progress) {
  const DescriptorTuneDesign d = with_defaults(design);
  const DeviceInfo& dev = session.device();
  DescriptorTuneRun run;
  run.bench.clock = session.clock();
  run.bench.clock_note = session.timer().reason;
  // One progress over every call of the benchmark: each call's steps after the ones before.
  const std::size_t total = static_cast<std::size_t>(descriptor_tune_runs(d, dev));
  std::size_t before = 0, in_call = 0;
  const auto forward = [&](const ProgressStep& s) {
    if (!progress || s.what == "done") return;
    ProgressStep out = s;
    out.done = before + s.done;
    out.total = total;
    out.work_done = out.work_total = 0;  // the calls weigh their points differently: counted
    progress(out);
    in_call = s.total;
  };
  for (DescriptorFamily f : d.families)
    for (Scalar t : d.types) {
      DescriptorBenchDesign b;
      b.ops = d.ops;
      b.types = {t};
      b.families = {bench_family(f)};
      b.launches = descriptor_tune_points(d, f, dev, size_of(t));
      b.data = d.data;
      b.seed = d.seed;
      b.timing = d.timing;
      b.read_peak = false;
      std::vector<DescriptorBenchDesign> calls;
      if (f == DescriptorFamily::Whole) {
        for (std::uint64_t n : descriptor_tune_sizes(d, dev)) {
          b.bytes = n * size_of(t);
          calls.push_back(b);
        }
      } else {
        b.shapes = descriptor_tune_shapes(d, f, dev, t);
        calls.push_back(b);
      }
      for (const DescriptorBenchDesign& c : calls) {
        in_call = 0;
        DescriptorBenchRun r = measure_descriptor_bench(session, c, forward);
        before += in_call;
        for (auto& row : r.rows) run.bench.rows.push_back(std::move(row));
      }
    }
  if (progress) {
    ProgressStep done;
    done.done = done.total = total;
    done.what = "done";
    progress(done);
  }
  return run;
}

std::string DescriptorTuneClass::types() const {
  std::vector<std::string> names;
  for (Scalar s : inputs) names.emplace_back(name_of(s));
  return join(names, " x ");
}

void choose_descriptor_tuning(DescriptorTuneRun& run, const DescriptorTuneDesign& d, const DeviceInfo& dev,
                              const std::string& date) {
  run.classes.clear();
  const std::vector<DescriptorBenchRow>& rows = run.bench.rows;
  // The classes in the order of their first row; each row's class.
  const auto family_of = [](BenchFamily f) {
    return f == BenchFamily::Whole ? DescriptorFamily::Whole : f == BenchFamily::Cols ? DescriptorFamily::Cols
                                                                                      : DescriptorFamily::Rows;
  };
  std::vector<std::size_t> class_of(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DescriptorBenchRow& r = rows[i];
    DescriptorTuneClass c;
    c.reduction = r.reduction;
    c.inputs = scalars_of(r.types);
    c.family = family_of(r.family);
    std::size_t widest = 1;
    for (Scalar s : c.inputs) widest = std::max(widest, size_of(s));
    c.shape_class = descriptor_shape_class(c.family, r.m, r.n, widest, dev.compute_units);
    std::size_t k = 0;
    while (k < run.classes.size() &&
           !(run.classes[k].reduction == c.reduction && run.classes[k].inputs == c.inputs &&
             run.classes[k].family == c.family && run.classes[k].shape_class == c.shape_class))
      ++k;
    if (k == run.classes.size()) run.classes.push_back(std::move(c));
    class_of[i] = k;
    // A where per (m, n) of the class, from its default row.
    DescriptorTuneClass& cls = run.classes[k];
    if (r.launch == "default") cls.wheres.push_back({r.m, r.n, i, i});
  }
  for (std::size_t k = 0; k < run.classes.size(); ++k) {
    DescriptorTuneClass& c = run.classes[k];
    std::vector<const DescriptorBenchRow*> defaults;
    bool defaults_ok = true;
    std::string refused;
    for (const auto& w : c.wheres) {
      defaults.push_back(&rows[w.default_row]);
      if (!row_ok(rows[w.default_row])) defaults_ok = false;
      if (!rows[w.default_row].refused.empty() && refused.empty()) refused = rows[w.default_row].refused;
    }
    if (!defaults_ok) {
      c.note = !refused.empty() ? "refused here: " + refused
                                : "the default launch did not run and verify at every size or shape of the class; "
                                  "nothing is tuned";
      continue;
    }
    // Per point label: its row at each where (the rows of one class at one (m, n), in order).
    std::map<std::string, std::vector<std::size_t>> by_label;
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (class_of[i] != k || rows[i].launch == "default") continue;
      std::size_t w = 0;
      while (w < c.wheres.size() && !(c.wheres[w].m == rows[i].m && c.wheres[w].n == rows[i].n)) ++w;
      if (w == c.wheres.size()) continue;
      auto& v = by_label[rows[i].launch];
      if (v.empty()) {
        v.assign(c.wheres.size(), rows.size());
        labels.push_back(rows[i].launch);
      }
      v[w] = i;
    }
    double best_score = 0;
    for (const std::string& label : labels) {
      const std::vector<std::size_t>& at = by_label[label];
      if (std::any_of(at.begin(), at.end(), [&](std::size_t i) { return i >= rows.size() || !row_ok(rows[i]); }))
        continue;
      bool differs = false;
      double log_sum = 0;
      for (std::size_t w = 0; w < at.size(); ++w) {
        differs = differs || signature_of(rows[at[w]].report->launch) != signature_of(defaults[w]->report->launch);
        log_sum += std::log(row_us(rows[at[w]]) / row_us(*defaults[w]));
      }
      if (!differs) continue;
      const double score = std::exp(log_sum / static_cast<double>(at.size()));
      if (c.best.empty() || score < best_score) {
        c.best = label;
        best_score = score;
      }
    }
    if (c.best.empty()) {
      c.note = "no point launching otherwise than the default was verified at every size or shape of the class; the "
               "default is kept";
      continue;
    }
    c.gain = 1 / best_score;
    const std::vector<std::size_t>& best = by_label[c.best];
    for (std::size_t w = 0; w < best.size(); ++w) {
      c.wheres[w].best_row = best[w];
      const Stats& t = rows[best[w]].report->timing.whole_us;
      const Stats& def = defaults[w]->report->timing.whole_us;
      c.noise = std::max(c.noise, ((t.q3 - t.q1) + (def.q3 - def.q1)) / 2 / def.median);
    }
    const double need = 1 + std::max(d.min_gain, c.noise);
    if (!(c.gain > need)) {
      c.note = "the default is kept: the best, " + c.best + ", gains " + fixed(c.gain, 3) + "x, not more than " +
               fixed(need, 3) + "x (min gain " + fixed(d.min_gain * 100, 1) + "%, noise " + fixed(c.noise * 100, 1) +
               "%)";
      continue;
    }
    TunedDescriptorEntry e;
    e.reduction = c.reduction;
    e.inputs = c.inputs;
    e.family = c.family;
    e.shape_class = c.shape_class;
    e.date = date;
    // The label's NAME=VALUE pairs, in the kernel table's order; chunks beside them.
    std::vector<std::pair<std::string, std::uint64_t>> given;
    for (std::size_t start = 0; start < c.best.size();) {
      const std::size_t space = c.best.find(' ', start);
      const std::string item = c.best.substr(start, space == std::string::npos ? std::string::npos : space - start);
      const std::size_t eq = item.find('=');
      if (eq != std::string::npos) given.emplace_back(item.substr(0, eq), std::stoull(item.substr(eq + 1)));
      if (space == std::string::npos) break;
      start = space + 1;
    }
    for (const KernelParam& p : kernel_of(c.family).params)
      for (const auto& [name, value] : given)
        if (name == p.define) e.params.emplace_back(name, value);
    for (const auto& [name, value] : given)
      if (name == "chunks") e.chunks = value;
    e.gain_over_default = c.gain;
    for (std::size_t w = 0; w < best.size(); ++w) {
      TunedAxisMeasurement m;
      m.m = c.wheres[w].m;
      m.n = c.wheres[w].n;
      m.tuned_us = row_us(rows[best[w]]);
      m.default_us = row_us(*defaults[w]);
      m.gbps = rows[best[w]].report->read_gbs();
      e.measurements.push_back(m);
    }
    c.entry = std::move(e);
  }
}

}  // namespace clreduce
