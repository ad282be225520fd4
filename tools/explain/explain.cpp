// `clreduce explain`: the registry's account of a step, the diff of the two kernel files as they
// are now, the options the planner gives the variant on a device, and the pair measured. The
// measurements go through the same engines as `bench` and `bench transpose`, so a step's figures
// here and in a benchmark table mean the same thing.
#include "explain/explain.hpp"

#include "benchmarks/axis_bench.hpp"
#include "benchmarks/transpose_bench.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"
#include "measure/engine.hpp"
#include "printers/table.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

namespace clreduce {

namespace {
// "-D RT=4": the -D values a variant fixes, as its build options say them.
std::string defines_text(const std::vector<std::pair<std::string, std::uint64_t>>& fixed) {
  std::string s;
  for (const auto& [define, value] : fixed) s += (s.empty() ? "-D " : " -D ") + define + "=" + std::to_string(value);
  return s;
}

std::string read_kernel_file(const std::filesystem::path& dir, const std::string& file) {
  const std::filesystem::path path = dir / file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Param::KernelDir, "kernel file '" + path.string() + "' cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
}  // namespace

bool StepMeasurement::ok() const {
  for (const auto& r : rows)
    if (!r.ok && r.note.rfind("not available", 0) != 0) return false;  // unavailable is no failure
  return true;
}

Explanation explain_variant(Family family, const std::string& name, const std::filesystem::path& kernel_dir) {
  Explanation e;
  e.family = family;
  e.kernel_dir = kernel_dir;
  if (family == Family::Reduction) {
    const Variant& v = find_variant(name);
    e.name = v.name, e.file = v.file, e.kernel = v.kernel;
    e.summary = v.summary, e.literature = v.literature, e.tradeoff = v.tradeoff;
    e.predecessor = v.predecessor, e.step = v.step;
    if (!v.predecessor.empty()) e.predecessor_file = find_variant(v.predecessor).file;
  } else if (family == Family::Axis) {
    const AxisVariant& v = find_axis_variant(name);
    e.name = v.name, e.file = v.file, e.kernel = v.kernel;
    e.summary = v.summary, e.literature = v.literature, e.tradeoff = v.tradeoff;
    e.predecessor = v.predecessor, e.step = v.step;
    if (!v.predecessor.empty()) e.predecessor_file = find_axis_variant(v.predecessor).file;
  } else {
    const TransposeVariant& v = find_transpose_variant(name);
    e.name = v.name, e.file = v.file, e.kernel = v.kernel;
    e.summary = v.summary, e.literature = v.literature, e.tradeoff = v.tradeoff;
    e.predecessor = v.predecessor, e.step = v.step;
    e.fixed = transpose_fixed_defines(v);  // the register tiles' block edge: one file for two variants
    if (!v.predecessor.empty()) {
      e.predecessor_file = find_transpose_variant(v.predecessor).file;
      e.predecessor_fixed = transpose_fixed_defines(find_transpose_variant(v.predecessor));
    }
  }
  const std::string text = as_built(read_kernel_file(kernel_dir, e.file), e.fixed);
  if (!e.predecessor.empty()) {
    const std::string before = as_built(read_kernel_file(kernel_dir, e.predecessor_file), e.predecessor_fixed);
    const auto label = [](const std::string& file, const auto& fixed) {
      return fixed.empty() ? file : file + " " + defines_text(fixed);
    };
    e.diff = unified_diff(label(e.predecessor_file, e.predecessor_fixed), before, label(e.file, e.fixed), text);
    e.counts = diff_counts(before, text);
  }
  return e;
}

std::string as_built(const std::string& text, const std::vector<std::pair<std::string, std::uint64_t>>& values) {
  if (values.empty()) return text;
  const auto value_of = [&](const std::string& name) -> std::optional<std::uint64_t> {
    for (const auto& [n, v] : values)
      if (n == name) return v;
    return std::nullopt;
  };
  // A directive's words: "#  elif RT == 4" -> {"elif", "RT", "==", "4"}.
  const auto words = [](const std::string& line) {
    std::vector<std::string> w;
    std::string body = line.substr(line.find('#') + 1);
    body = body.substr(0, std::min(body.find("//"), body.find("/*")));  // a directive's comment is no word
    std::istringstream in(body);
    for (std::string x; in >> x;) w.push_back(x);
    return w;
  };
  // `NAME == V` of a given NAME: whether the values select it; not such a test: none.
  const auto test = [&](const std::vector<std::string>& w) -> std::optional<bool> {
    if (w.size() != 4 || w[2] != "==") return std::nullopt;
    const std::optional<std::uint64_t> v = value_of(w[1]);
    if (!v || w[3].find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return *v == std::stoull(w[3]);
  };
  struct Frame {
    bool resolved;   // a chain the values decide (its directives dropped)
    bool ifndef;     // `#ifndef NAME` of a given NAME
    bool taking = true, taken = false;
    std::string name;
  };
  std::vector<Frame> stack;
  std::ostringstream out;
  std::istringstream in(text);
  const bool newline_at_end = !text.empty() && text.back() == '\n';
  bool first = true;
  for (std::string line; std::getline(in, line);) {
    const std::size_t lead = line.find_first_not_of(" \t");
    const bool directive = lead != std::string::npos && line[lead] == '#';
    const std::vector<std::string> w = directive ? words(line) : std::vector<std::string>{};
    const std::string d = w.empty() ? "" : w[0];
    bool emit = true;
    const std::optional<bool> tested = d == "if" ? test(w) : std::nullopt;
    if (tested) {
      stack.push_back({true, false, *tested, *tested, ""});
      emit = false;
    } else if (d == "ifndef" && w.size() == 2 && value_of(w[1])) {
      stack.push_back({true, true, true, true, w[1]});
      emit = false;
    } else if ((d == "elif" || d == "else" || d == "endif") && !stack.empty() && stack.back().resolved) {
      Frame& f = stack.back();
      if (d == "elif") {
        const std::optional<bool> t = test(w);
        if (!t) throw Error("as_built: an #elif that does not test a given value after one that does: " + line);
        f.taking = !f.taken && *t;
        f.taken = f.taken || *t;
      } else if (d == "else" && f.ifndef) {  // NAME is given, so the build compiles the #else branch
        f.ifndef = false;
        f.taking = true;
      } else if (d == "else") {
        f.taking = !f.taken;
        f.taken = true;
      } else {
        stack.pop_back();
      }
      emit = false;
    } else if (d == "if" || d == "ifdef" || d == "ifndef") {
      stack.push_back({false, false, true, false, ""});
    } else if (d == "endif" && !stack.empty()) {
      stack.pop_back();
    }
    if (!emit) continue;
    bool on = true;
    for (const Frame& f : stack) on = on && f.taking;
    if (!on) continue;
    // Inside `#ifndef NAME` of a given NAME the build compiles nothing; its `#define NAME default //
    // meaning` stays, with the given value, to show what the build has.
    const Frame* ifndef = nullptr;
    for (const Frame& f : stack)
      if (f.ifndef) ifndef = &f;
    if (ifndef) {
      if (d != "define" || w.size() < 3 || w[1] != ifndef->name) continue;
      const std::size_t comment = line.find("//");
      line = "#define " + w[1] + " " + std::to_string(*value_of(w[1])) +
             (comment == std::string::npos ? "" : " " + line.substr(comment));
    }
    out << (first ? "" : "\n") << line;
    first = false;
  }
  if (newline_at_end) out << "\n";
  return out.str();
}

DeviceOptions reduction_options(const Session& s, const std::string& name, ElemType type, Op op, std::uint64_t n) {
  DeviceOptions o;
  o.device = s.device().name;
  o.what = std::string(name_of(type)) + " " + std::string(name_of(op)) + ", n = " + std::to_string(n);
  const Variant& v = find_variant(name);
  o.unavailable = v.unavailable_reason(s.device());
  if (!o.unavailable.empty()) return o;
  ReducerOptions ro;
  ro.params.variant = v.name;
  ro.tuning.enabled = false;  // the variant's own defaults: what the step is about
  Reducer reducer = s.reducer(ro);
  const auto launch = introspect::prepare(reducer, type, op, n);
  for (const auto& pass : launch->plan.passes) o.passes.push_back(pass.options);
  return o;
}

DeviceOptions transpose_options(const Session& s, const std::string& name, ElemType type, std::uint64_t m,
                                std::uint64_t n) {
  DeviceOptions o;
  o.device = s.device().name;
  o.what = std::string(name_of(type)) + " " + std::to_string(m) + "x" + std::to_string(n);
  TransposerOptions to;
  to.params.variant = find_transpose_variant(name).name;
  Transposer transposer = s.transposer(to);
  o.passes.push_back(introspect::prepare(transposer, type, m, n)->plan.options);
  return o;
}

DeviceOptions axis_options(const Session& s, const std::string& name, ElemType type, Op op, std::uint64_t m,
                           std::uint64_t n) {
  DeviceOptions o;
  o.device = s.device().name;
  o.what = std::string(name_of(type)) + " " + std::string(name_of(op)) + ", " + std::to_string(m) + "x" +
           std::to_string(n);
  const AxisVariant& v = find_axis_variant(name);
  AxisReducerOptions ao;
  ao.params.variant = v.name;
  ao.tuning.enabled = false;
  ao.device = s.device();
  ao.kernel_dir = s.kernel_dir();
  try {
    AxisReducer reducer(s.queue(), ao);
    for (const auto& pass : introspect::prepare(reducer, type, op, v.axis, m, n)->plan.passes) o.passes.push_back(pass.options);
  } catch (const ConfigError& refused) {  // the variant refusing the operator (cols_stream_fused
    if (refused.param() != Param::Variant) throw;  // for argmin/argmax); a bad shape is the caller's error
    o.unavailable = refused.what();
  }
  return o;
}

std::vector<unsigned char> program_binary(const Session& s, const Explanation& e, const DeviceOptions& o) {
  if (o.passes.empty())
    throw Error(Param::Variant, e.name + " is not available on " + s.device().name + ": " + o.unavailable);
  const cl::Program program = s.program(e.file, o.passes.front());
  return with_cl_context("reading the program binary of " + e.file, [&] {
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty() || binaries.front().empty())
      throw Error(Param::Variant, "the OpenCL implementation of " + s.device().name +
                                      " returned no program binary for " + e.file);
    return std::vector<unsigned char>(binaries.front().begin(), binaries.front().end());
  });
}

StepMeasurement measure_reduction_step(const Session& s, const Explanation& e, ElemType type, Op op,
                                       std::uint64_t n, const TimingOptions& timing) {
  Design d;
  d.type = type;
  d.op = op;
  d.sizes = {n};
  if (!e.predecessor.empty()) d.variants.push_back(e.predecessor);
  d.variants.push_back(e.name);
  d.timing = timing;
  d.tuning.enabled = false;
  d.points = [](const Variant& v, std::uint64_t) {
    Point p;
    p.params.variant = v.name;
    p.is_default = true;
    return std::vector<Point>{p};
  };
  const Run run = measure(s, d);
  StepMeasurement m;
  const SizeRun& size = run.sizes.front();
  m.what = "n = " + std::to_string(n) + " " + std::string(name_of(type)) + " " + std::string(name_of(op)) + " (" +
           size.data_origin + ")";
  m.how = "each variant's default launch, median of " + std::to_string(timing.repetitions) +
          " back-to-back samples (" + (run.clock == TimeSource::DeviceEvents ? "device events" : "host clock") +
          "); GB/s = input bytes / median; % of the read peak measured on the same buffer (" +
          fixed(size.peak.gbps, 1) + " GB/s)";
  double before_us = 0;
  for (const VariantRun& vr : size.variants) {
    StepRow r;
    r.variant = vr.variant;
    if (!vr.unavailable.empty()) {
      r.note = "not available on this device (see its options above)";
    } else if (vr.points.empty() || !vr.points.front().report) {
      r.note = vr.points.empty() ? "not measured" : vr.points.front().skipped + vr.points.front().error;
    } else {
      const Measured& p = vr.points.front();
      r.ok = !p.failed();
      if (!r.ok) r.note = "check failed";
      r.us = p.us();
      r.gbps = p.gbps();
      r.pct = size.pct_of_peak(r.gbps);
    }
    if (vr.variant == e.predecessor) before_us = r.ok ? r.us : 0;
    else if (before_us > 0 && r.ok && r.us > 0) r.speedup = before_us / r.us;
    m.rows.push_back(r);
  }
  return m;
}

StepMeasurement measure_axis_step(const Session& s, const Explanation& e, ElemType type, Op op, std::uint64_t m,
                                  std::uint64_t n, const TimingOptions& timing) {
  AxisBenchDesign d;
  d.type = type;
  d.op = op;
  d.shapes = {{m, n}};
  d.axes = {find_axis_variant(e.name).axis};
  if (!e.predecessor.empty()) d.variants.push_back(e.predecessor);
  d.variants.push_back(e.name);
  d.timing = timing;
  d.tuning.enabled = false;
  const AxisBenchRun run = measure_axis_bench(s, d, {});
  const AxisBenchShape& shape = run.shapes.front();
  StepMeasurement out;
  out.what = std::string(name_of(type)) + " " + std::string(name_of(op)) + " of every " +
             std::string(name_of(d.axes.front()) == "rows" ? "row" : "column") + " of " + std::to_string(m) + "x" +
             std::to_string(n) + " (" + shape.data_origin + ")";
  out.how = "each variant's default launch, median of " + std::to_string(timing.repetitions) +
            " back-to-back samples (" + (run.clock == TimeSource::DeviceEvents ? "device events" : "host clock") +
            "); GB/s = bytes read / median; % of the read peak of the same bytes (" +
            (shape.peak ? fixed(shape.peak->gbps, 1) : std::string("not measured")) + " GB/s)";
  double before_us = 0;
  for (const AxisBenchRow& row : shape.rows) {
    if (row.chosen_by == "default") continue;  // the planner's launch: not part of the step
    StepRow r;
    r.variant = row.variant;
    if (!row.refused.empty()) {
      r.note = "not available: " + row.refused;
    } else if (!row.error.empty() || !row.report) {
      r.note = row.error.empty() ? "not measured" : row.error;
    } else {
      r.ok = row.report->ok();
      if (!r.ok) r.note = "check failed";
      r.us = row.report->timing.whole_us.median;
      r.gbps = row.report->gbps;
      r.pct = row.pct_of_peak;
    }
    if (row.variant == e.predecessor) before_us = r.ok ? r.us : 0;
    else if (before_us > 0 && r.ok && r.us > 0) r.speedup = before_us / r.us;
    out.rows.push_back(r);
  }
  return out;
}

StepMeasurement measure_transpose_step(const Session& s, const Explanation& e, ElemType type, std::uint64_t m,
                                       std::uint64_t n, const TimingOptions& timing) {
  TransposeBenchOptions opt;
  opt.type = type;
  opt.shapes = {{m, n}};
  if (!e.predecessor.empty()) opt.variants.push_back(e.predecessor);
  opt.variants.push_back(e.name);
  opt.timing = timing;
  const TransposeBenchReport report = run_transpose_bench(s, opt);
  const TransposeShapeResult& shape = report.shapes.front();
  StepMeasurement out;
  out.what = std::string(name_of(type)) + " " + std::to_string(m) + "x" + std::to_string(n) + " (" +
             shape.data_origin + ")";
  out.how = "each variant's default launch, median of " + std::to_string(timing.repetitions) +
            " samples (" + (report.clock == TimeSource::DeviceEvents ? "device events" : "host clock") +
            "); GB/s = bytes read + written / median; % of a device-to-device copy of the same bytes (" +
            fixed(shape.copy.gbps, 1) + " GB/s)";
  double before_us = 0;
  for (const TransposeBenchRow& row : shape.rows) {
    StepRow r;
    r.variant = row.variant;
    if (!row.error.empty() || !row.report) {
      r.note = row.error.empty() ? "not measured" : row.error;
    } else {
      r.ok = row.ok();
      if (!r.ok) r.note = "check failed";
      r.us = row.report->timing.whole_us.median;
      r.gbps = row.report->gbps;
      r.pct = row.pct_of_copy;
    }
    if (row.variant == e.predecessor) before_us = r.ok ? r.us : 0;
    else if (before_us > 0 && r.ok && r.us > 0) r.speedup = before_us / r.us;
    out.rows.push_back(r);
  }
  return out;
}

std::string explanation_text(const Explanation& e, const DeviceOptions* options, const StepMeasurement* measured) {
  std::ostringstream out;
  const std::string family =
      e.family == Family::Reduction ? "reduction" : e.family == Family::Axis ? "axis" : "transpose";
  out << e.name << " (" << family << " variant; kernel " << e.kernel << " in " << e.file << ")\n";
  out << "what it is:  " << e.summary << "\n";
  out << "literature:  " << e.literature << "\n";
  if (e.predecessor.empty()) {
    out << "step:        the first of the family: " << e.step << "\n";
  } else {
    out << "step after:  " << e.predecessor << "\n";
    out << "what changes and why it should help: " << e.step << "\n";
  }
  out << "trade-off:   " << e.tradeoff << "\n";
  if (options) {
    out << "\noptions the host passes on " << options->device << " (" << options->what << ", no tuning database):\n";
    if (!options->unavailable.empty()) {
      out << "  not available on this device: " << options->unavailable << "\n";
    } else {
      for (std::size_t i = 0; i < options->passes.size(); ++i)
        out << "  " << (options->passes.size() > 1 ? "pass " + std::to_string(i + 1) + ": " : "")
            << options->passes[i] << "\n";
    }
  }
  if (measured) {
    out << "\nmeasured: " << measured->what << "\n";
    TextTable t;
    t.headers = {"variant", "median µs", "GB/s", e.family == Family::Transpose ? "% of copy" : "% of read peak",
                 "speedup", "check"};
    for (const StepRow& r : measured->rows) {
      if (!r.ok && r.us == 0) {
        t.rows.push_back({r.variant, "", "", "", "", r.note});
        continue;
      }
      t.rows.push_back({r.variant, stats_cell(r.us), fixed(r.gbps, 1), pct_of_peak_cell(r.pct, 1),
                        r.speedup > 0 ? fixed(r.speedup, 2) + "x" : "", r.ok ? "ok" : r.note});
    }
    out << t.render_text();
    out << "how: " << measured->how << "\n";
  }
  if (e.predecessor.empty()) {
    out << "\nno diff: " << e.name << " is the first step of " << (e.family == Family::Axis ? "its axis" : "the family")
        << " (" << (e.kernel_dir / e.file).string() << ")\n";
  } else if (e.predecessor_file == e.file && e.diff.empty()) {
    out << "\nno diff: " << e.name << " and " << e.predecessor << " are one kernel file, "
        << (e.kernel_dir / e.file).string() << ", built with different options (above): the parts those options "
        << "select are the step\n";
  } else {
    const auto built = [](const auto& fixed) { return fixed.empty() ? "" : " (" + defines_text(fixed) + ")"; };
    out << "\ndiff " << (e.kernel_dir / e.predecessor_file).string() << built(e.predecessor_fixed) << " "
        << (e.kernel_dir / e.file).string() << built(e.fixed) << " (" << e.counts.removed << " lines removed, "
        << e.counts.added << " added):\n";
    out << (e.diff.empty() ? std::string("  (the files are identical)\n") : e.diff);
  }
  return out.str();
}

}  // namespace clreduce
