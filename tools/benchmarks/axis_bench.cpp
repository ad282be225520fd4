// measure_axis_bench: the read peak, the scalar whole-array reduction and every axis point of each
// shape.
#include "benchmarks/axis_bench.hpp"

#include "measure/user_reference.hpp"

#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "data/reference.hpp"
#include "parse.hpp"

#include <algorithm>

namespace clreduce {

std::vector<std::pair<std::uint64_t, std::uint64_t>> default_axis_bench_shapes(const DeviceInfo& dev) {
  if (dev.is_gpu)
    return {{8192, 8192},   {16384, 16384}, {1048576, 32}, {32, 1048576},
            {65536, 1024}, {1024, 65536},  {4096, 4096}};
  return {{1024, 1024}, {65536, 32}, {32, 65536}, {4096, 256}};
}

bool AxisBenchRun::all_ok() const {
  for (const auto& s : shapes) {
    if (s.scalar_failed()) return false;
    for (const auto& row : s.rows)
      if (row.failed()) return false;
  }
  return true;
}

std::vector<std::string> axis_bench_variants(const AxisBenchDesign& design, Axis axis) {
  std::vector<std::string> names;
  if (design.variants.empty()) {
    for (const auto& v : axis_variants())  // every one that takes the operator
      if (v.axis == axis && v.takes(design.op)) names.push_back(v.name);
  } else {
    for (const auto& name : design.variants)
      if (find_axis_variant(name).axis == axis) names.push_back(name);
  }
  return names;
}

Op scalar_op_of(Op op) { return op == Op::ArgMin ? Op::Min : op == Op::ArgMax ? Op::Max : op; }

namespace {
std::vector<Axis> axes_of(const AxisBenchDesign& d) {
  return d.axes.empty() ? std::vector<Axis>{Axis::Rows, Axis::Cols} : d.axes;
}

// The scalar family's whole-array reduction of the shape's elements on the uploaded input, with
// the launch the Reducer resolves by itself (no parameter given). For argmin/argmax, which that
// family does not compute, its min/max of the same bytes (scalar_op_of).
void measure_scalar(const Session& session, const AxisBenchDesign& design, const HostData& data,
                    const cl::Buffer& input, AxisBenchShape& s) {
  ReducerOptions opt;
  opt.tuning = design.tuning;
  opt.device = session.device();
  opt.kernel_dir = session.kernel_dir();
  opt.user_op = design.user_op;
  try {
    Reducer reducer(session.queue(), opt);
    const Op op = scalar_op_of(design.op);
    const std::shared_ptr<const Launch> launch = introspect::prepare(reducer, design.type, op, data.n);
    s.scalar = measure_reduction(session, reducer, *launch, input, data,
                                 reference_for(session, data, op, design.user_op.get()), design.timing);
  } catch (const ConfigError& e) {
    s.scalar_refused = e.what();
  } catch (const Error& e) {
    s.scalar_error = e.what();
  }
}
}  // namespace

AxisBenchRun measure_axis_bench(const Session& session, const AxisBenchDesign& design,
                                const std::function<void(const ProgressStep&)>& progress) {
  AxisBenchRun run;
  run.type = design.type;
  run.op = design.op;
  run.clock = session.clock();
  run.clock_note = session.timer().reason;
  run.tuning = design.tuning.enabled;
  run.rounds = std::max(1u, design.rounds);
  const DeviceInfo& dev = session.device();
  const auto shapes = design.shapes.empty() ? default_axis_bench_shapes(dev) : design.shapes;
  const std::vector<Axis> axes = axes_of(design);

  // The steps of a shape: its input, the read peak, the scalar reduction, then each point; each
  // weighed by the elements it reads.
  ProgressStep step;
  for (const auto& [m, n] : shapes) {
    std::size_t points = 0;
    for (Axis a : axes) points += (1 + axis_bench_variants(design, a).size()) * run.rounds;
    step.total += 3 + points;
    step.work_total += static_cast<double>(m * n) * static_cast<double>(3 + points);
  }
  const auto next = [&](const std::string& what, std::uint64_t elements) {
    step.begin(what, static_cast<double>(elements), progress);
  };

  for (const auto& [m, n] : shapes) {
    const std::string shape = shape_label(m, n);
    AxisBenchShape s;
    s.m = m;
    s.n = n;
    s.bytes = m * n * size_of(design.type);
    next(shape + ": input", m * n);
    const HostData data = generate_data(design.type, m * n, design.data, design.seed);
    s.data_origin = data.origin;
    {  // One upload for the read peak and the scalar reduction, released before the axis points.
      next(shape + ": read bandwidth", m * n);
      cl::Buffer input;
      try {
        input = upload_data(session, data);
        s.peak = measure_read_bandwidth(session, input, s.bytes, design.timing);
      } catch (const Error& e) {
        s.error = e.what();
      }
      next(shape + ": whole-array reduction", m * n);
      if (input())
        measure_scalar(session, design, data, input, s);
      else
        s.scalar_error = "not measured: " + s.error;
    }
    const double scalar_us = s.scalar ? s.scalar->timed.whole_us.median : 0;
    for (Axis axis : axes) {
      std::vector<std::string> chosen{std::string()};  // "": the default launch
      for (auto& name : axis_bench_variants(design, axis)) chosen.push_back(std::move(name));
      std::vector<AxisBenchRow> rows(chosen.size());
      for (std::size_t k = 0; k < chosen.size(); ++k) {
        rows[k].axis = axis;
        rows[k].chosen_by = chosen[k].empty() ? "default" : chosen[k];
        rows[k].variant =
            chosen[k].empty() ? default_axis_variant(axis, design.type, design.op, m, n, dev).name : chosen[k];
      }
      for (unsigned round = 0; round < run.rounds; ++round)
        for (std::size_t i = 0; i < chosen.size(); ++i) {
          const std::size_t k = (i + round) % chosen.size();  // each round one launch later, cyclically
          AxisBenchRow& row = rows[k];
          next(shape + " " + std::string(name_of(axis)) + ": " + row.chosen_by +
                   (run.rounds > 1 ? " (round " + std::to_string(round + 1) + ")" : std::string()),
               m * n);
          if (!row.refused.empty() || row.failed()) continue;  // said once; a failure is kept
          AxisConfig cfg;
          cfg.variant = chosen[k];
          cfg.type = design.type;
          cfg.op = design.op;
          cfg.axis = axis;
          try {
            // The default launch takes the tuning database's launch for the shape's class (as reduce
            // --axis does); a named variant is the caller's.
            AxisReport report = run_axis(session, cfg, data, m, n, design.timing, design.user_op, design.tuning);
            if (!row.report || !report.ok() ||
                report.timing.whole_us.median < row.report->timing.whole_us.median) {
              row.report = std::move(report);
              row.round = round + 1;
            }
            row.variant = row.report->plan.variant->name;
          } catch (const ConfigError& e) {
            row.refused = e.what();
          } catch (const Error& e) {
            row.error = e.what();
          }
        }
      for (AxisBenchRow& row : rows) {
        if (row.report) {
          const double us = row.report->timing.whole_us.median;
          if (s.peak && s.peak->gbps > 0) row.pct_of_peak = 100.0 * row.report->gbps / s.peak->gbps;
          if (scalar_us > 0 && us > 0) row.speedup = scalar_us / us;
        }
        s.rows.push_back(std::move(row));
      }
    }
    run.shapes.push_back(std::move(s));
  }
  step.what = "done";
  if (progress) progress(step);
  return run;
}

}  // namespace clreduce
