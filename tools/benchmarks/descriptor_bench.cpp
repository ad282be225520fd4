// measure_descriptor_bench and its launch grid (benchmarks/descriptor_bench.hpp).
#include "benchmarks/descriptor_bench.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernel_spec.hpp"
#include "data/descriptor_reference.hpp"
#include "parse.hpp"
#include "format.hpp"

#include <algorithm>
#include <map>

namespace clreduce {

namespace {
using Family = DescriptorJob::Family;

// The kernel a family's launches build (its table in clreduce/kernel_spec.hpp's kernel_specs()).
const KernelSpec& kernel_of(Family f) {
  const std::string family = f == Family::Whole ? "whole" : f == Family::Cols ? "columns" : "lines";
  for (const KernelSpec* k : kernel_specs())
    if (k->family == family) return *k;
  throw Error("no descriptor kernel for the " + std::string(name_of(f)) + " family");  // a table's bug
}

std::string family_text(const std::vector<Family>& families) {
  std::vector<std::string> names;
  for (Family f : families) names.emplace_back(name_of(f));
  return join(names, ",");
}

// The -D parameters of kernel k that a caller may set, for a message.
std::string settable(const KernelSpec& k) {
  std::vector<std::string> names;
  for (const KernelParam& p : k.params)
    if (p.caller_may_set) names.push_back(p.define);
  return join(names, ", ");
}

void check_axis(const LaunchAxis& a, const std::vector<Family>& families) {
  if (a.values.empty()) throw Error(Param::Define, "launch grid axis " + a.name + " has no values", "NAME=V1,V2,...");
  for (std::size_t i = 0; i < a.values.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (a.values[i] == a.values[j])
        throw Error(Param::Define, "launch grid axis " + a.name + " names " + std::to_string(a.values[i]) + " twice",
                    "each value once");
  if (a.name == "wg") {
    for (std::uint64_t v : a.values)
      if (v == 0 || (v & (v - 1)))
        throw Error(Param::WorkGroupSize, "launch grid axis wg: " + std::to_string(v) + " is not a power of two",
                    "powers of two (the device's limit is checked at each point)");
    return;
  }
  if (a.name == "groups_per_cu") {
    for (Family f : families)
      if (f != Family::Whole)
        throw Error(Param::GroupsPerCu, "launch grid axis groups_per_cu: only the whole array's grid is sized in groups "
                                            "per compute unit (families " + family_text(families) + "); valid: --families whole",
                    "groups_per_cu with whole alone");
    for (std::uint64_t v : a.values)
      if (v == 0 || v > 1024)
        throw Error(Param::GroupsPerCu,
                    "launch grid axis groups_per_cu: " + std::to_string(v) + " groups per compute unit; valid: 1..1024",
                    "1..1024");
    return;
  }
  if (a.name == "chunks") {
    for (Family f : families)
      if (f == Family::Whole)
        throw Error(Param::Chunks, "launch grid axis chunks: the whole array is not cut into chunks (families " +
                                       family_text(families) + ")",
                    "chunks with rows or cols alone");
    for (std::uint64_t v : a.values)
      if (v == 0) throw Error(Param::Chunks, "launch grid axis chunks: 0 chunks", "1 or more");
    return;
  }
  for (Family f : families) {
    const KernelSpec& k = kernel_of(f);
    const KernelParam* p = k.find(a.name);
    if (!p || !p->caller_may_set) {
      // The grid's own axes this family takes: chunks for rows and columns, groups_per_cu for the
      // whole array (each refused for the others above).
      const std::string own = f == Family::Whole ? "groups_per_cu, wg" : "chunks, wg";
      throw Error(Param::Define, "launch grid axis " + a.name + ": not a parameter a caller sets in " + k.file + " (" +
                                     std::string(name_of(f)) + "); its parameters: " + settable(k) + ", and " + own,
                  settable(k) + ", " + own);
    }
    for (std::uint64_t v : a.values)
      if (!p->valid_value(v))
        throw Error(Param::Define, "launch grid axis " + a.name + ": " + std::to_string(v) + " is not valid for " +
                                       k.file + "; valid: " + p->valid_text(),
                    p->valid_text());
  }
}

std::string types_of(const Reduction& r) {
  std::vector<std::string> names;
  for (Scalar s : r.inputs) names.emplace_back(name_of(s));
  return join(names, " x ");
}
}  // namespace

std::vector<DescriptorLaunchPoint> launch_grid(const std::vector<LaunchAxis>& axes, const std::vector<Family>& families) {
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (axes[i].name == axes[j].name)
        throw Error(Param::Define, "launch grid axis " + axes[i].name + " is given twice: give its values once",
                    "NAME=V1,V2,... once per name");
    check_axis(axes[i], families);
  }
  std::vector<DescriptorLaunchPoint> points{DescriptorLaunchPoint{}};
  points.front().label = "default";
  if (axes.empty()) return points;
  std::vector<DescriptorLaunchPoint> grid{DescriptorLaunchPoint{}};
  for (const LaunchAxis& a : axes) {
    std::vector<DescriptorLaunchPoint> next;
    for (const DescriptorLaunchPoint& p : grid)
      for (std::uint64_t v : a.values) {
        DescriptorLaunchPoint q = p;
        q.label += (q.label.empty() ? "" : " ") + a.name + "=" + std::to_string(v);
        if (a.name == "chunks") q.chunks = v;
        else if (a.name == "wg") q.wg = static_cast<std::size_t>(v);
        else if (a.name == "groups_per_cu") q.groups_per_cu = static_cast<unsigned>(v);
        else q.defines.push_back(Define{a.name, std::to_string(v)});
        next.push_back(std::move(q));
      }
    grid = std::move(next);
  }
  points.insert(points.end(), grid.begin(), grid.end());
  return points;
}

std::uint64_t default_descriptor_bench_bytes(const DeviceInfo& dev) {
  return dev.is_gpu ? std::uint64_t{256} << 20 : std::uint64_t{16} << 20;
}

bool DescriptorBenchRun::all_ok() const {
  return std::none_of(rows.begin(), rows.end(), [](const DescriptorBenchRow& r) { return r.failed(); });
}

DescriptorBenchRun measure_descriptor_bench(const Session& session, const DescriptorBenchDesign& design,
                                            const std::function<void(const ProgressStep&)>& progress,
                                            const std::function<void(const DescriptorBenchRow&)>& on_row) {
  DescriptorBenchRun run;
  run.clock = session.clock();
  run.clock_note = session.timer().reason;
  const DeviceInfo& dev = session.device();
  const std::uint64_t bytes = design.bytes ? design.bytes : default_descriptor_bench_bytes(dev);
  const std::vector<DescriptorLaunchPoint> launches =
      design.launches.empty() ? launch_grid({}, design.families) : design.launches;

  // The reductions of one type (a user's descriptor: its own, once).
  struct Planned {
    std::string name;
    std::optional<Reduction> r;
    std::string refused;
  };
  const std::vector<Scalar> types = design.user ? std::vector<Scalar>{design.user->inputs.front()} : design.types;
  const auto reductions_of = [&](Scalar type) {
    std::vector<Planned> out;
    if (design.user) {
      out.push_back(Planned{design.user->name, design.user, {}});
      return out;
    }
    for (Builtin b : design.ops) {
      Planned p;
      // "sum exact": the table's reduction column says the mode (the accumulator column of CSV and
      // JSON says it too).
      p.name = std::string(name_of(b)) + (design.summation == Summation::Exact ? " exact" : "");
      try {
        p.r = builtin(b, type, design.accumulate, design.summation);
      } catch (const Error& e) {  // a type or an accumulator this built-in does not take
        p.refused = e.what();
      }
      out.push_back(std::move(p));
    }
    return out;
  };
  // The elements of one input at a (family, shape): the whole array's from the bytes, a matrix's M x N.
  struct Where {
    Family family;
    std::uint64_t m, n;
  };
  std::vector<Where> wheres;
  for (Family f : design.families) {
    if (f == Family::Whole) wheres.push_back({f, 0, 0});
    else
      for (const auto& [m, n] : design.shapes) wheres.push_back({f, m, n});
  }
  const auto elements = [&](const Where& w, const Reduction* r, Scalar type) {
    if (w.family != Family::Whole) return w.m * w.n;
    std::uint64_t widest = size_of(type);
    if (r)
      for (Scalar s : r->inputs) widest = std::max<std::uint64_t>(widest, size_of(s));
    return std::max<std::uint64_t>(1, bytes / widest);
  };

  ProgressStep step;
  for (Scalar type : types)
    for (const Where& w : wheres)
      for (const Planned& p : reductions_of(type)) {
        const std::uint64_t count = p.r ? launches.size() : 1;
        step.total += count;
        step.work_total += static_cast<double>(count) * static_cast<double>(elements(w, p.r ? &*p.r : nullptr, type)) *
                           static_cast<double>(p.r ? p.r->inputs.size() : 1);
      }

  for (Scalar type : types) {
    const std::vector<Planned> planned = reductions_of(type);
    for (const Where& w : wheres) {
      std::vector<ScalarData> data;  // the inputs at this point, made as the reductions ask for them
      std::map<std::size_t, ScalarData> parked;
      std::uint64_t data_n = 0;
      for (const Planned& p : planned) {
        DescriptorBenchRow base;
        base.reduction = p.name;
        base.types = p.r ? types_of(*p.r) : std::string(name_of(type));
        base.family = w.family;
        base.m = w.m;
        const std::uint64_t n = elements(w, p.r ? &*p.r : nullptr, type);
        base.n = w.family == Family::Whole ? n : w.n;
        const std::string where = w.family == Family::Whole ? "whole " + size_label(n)
                                                            : std::string(name_of(w.family)) + " " + shape_label(w.m, w.n);
        if (!p.r) {
          step.begin(p.name + " " + base.types + " " + where, static_cast<double>(n), progress);
          base.refused = p.refused;
          if (on_row) on_row(base);
          run.rows.push_back(std::move(base));
          continue;
        }
        const Reduction& r = *p.r;
        if (data_n != n) {
          data.clear();
          parked.clear();
          data_n = n;
        }
        // Exactly r's inputs in `data` (input j from random stream j); the others parked for the
        // next reduction that reads them, so no input is generated twice at one point.
        while (data.size() > r.inputs.size()) {
          parked[data.size() - 1] = std::move(data.back());
          data.pop_back();
        }
        for (std::size_t j = 0; j < r.inputs.size(); ++j) {
          if (j < data.size() && data[j].type == r.inputs[j]) continue;
          ScalarData d;
          const auto it = parked.find(j);
          if (it != parked.end() && it->second.type == r.inputs[j]) {
            d = std::move(it->second);
            parked.erase(it);
          } else {
            d = generate_scalar_data(r.inputs[j], n, design.data, design.seed, static_cast<unsigned>(j));
          }
          if (j < data.size()) data[j] = std::move(d);
          else data.push_back(std::move(d));
        }
        const std::vector<ScalarData>& inputs = data;
        for (const DescriptorLaunchPoint& l : launches) {
          DescriptorBenchRow row = base;
          row.launch = l.label;
          step.begin(r.name + " " + row.types + " " + where + " " + l.label,
                     static_cast<double>(n) * static_cast<double>(r.inputs.size()), progress);
          DescriptorJob job;
          job.family = w.family;
          job.shape = MatrixShape{w.m, w.n, 0};
          job.whole.defines = l.defines;
          if (l.wg) job.whole.wg = *l.wg;
          job.whole.groups_per_cu = l.groups_per_cu;
          job.axis.defines = l.defines;
          job.axis.wg = l.wg;
          job.axis.chunks = l.chunks;
          job.read_peak = design.read_peak;
          try {
            row.report = run_descriptor(session, r, inputs, job, design.timing);
          } catch (const ConfigError& e) {
            row.refused = e.what();
          } catch (const Error& e) {
            row.error = e.what();
          }
          if (on_row) on_row(row);
          run.rows.push_back(std::move(row));
        }
      }
    }
  }
  step.what = "done";
  if (progress) progress(step);
  return run;
}

}  // namespace clreduce
