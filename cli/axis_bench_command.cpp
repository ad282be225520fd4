// `clreduce bench axis`: the axis reductions at a list of shapes, each launch beside the
// read peak and the scalar family's whole-array reduction of the same bytes. Every option is
// checked before anything is measured.
#include "cli.hpp"

#include "benchmarks/axis_bench.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/introspect.hpp"
#include "parse.hpp"
#include "printers/axis_bench_printer.hpp"

#include <algorithm>

namespace clreduce::cli {

namespace {
struct AxisBenchTexts {
  std::string type = "float", op = "sum";
  std::optional<std::string> op_file;
  CLI::Option *type_option = nullptr, *op_option = nullptr;
  std::vector<std::string> shapes, variants;
  std::optional<std::string> axis;
  unsigned rounds = 1;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  TuningTexts tuning;
  LongRunTexts long_run;
};

std::string shapes_text(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& shapes) {
  std::vector<std::string> labels;
  for (const auto& [m, n] : shapes) labels.push_back(shape_label(m, n));
  return join(labels, ",");
}

// The design as typed, every value checked (the shapes against the device after, in bench_axis).
AxisBenchDesign design_of(const AxisBenchTexts& o) {
  AxisBenchDesign d;
  if (!o.op_file) {  // a descriptor's type or built-in: refused with where it runs
    variants_type(o.type);
    variants_op(o.op);
  }
  refuse_descriptor_file(o.op_file);
  const OpChoice choice = op_choice(o.type, o.type_option, o.op, o.op_option, o.op_file);
  d.type = choice.type;
  d.op = choice.op;
  d.user_op = choice.user_op;
  if (o.axis) d.axes = {parse_axis(*o.axis)};
  d.shapes = shapes_of("--shapes", o.shapes);
  for (const auto& text : o.variants) {
    const AxisVariant* v = nullptr;
    try {
      v = &find_axis_variant(text);
    } catch (const Error& e) {
      throw Error("--variants: " + std::string(e.what()));
    }
    if (o.axis && v->axis != d.axes.front()) {
      std::vector<std::string> fitting;
      for (const auto& x : axis_variants())
        if (x.axis == d.axes.front()) fitting.push_back(x.name);
      throw Error("--variants: axis variant " + v->name + " reduces " + std::string(name_of(v->axis)) + ", not " +
                  std::string(name_of(d.axes.front())) + " (--axis " + *o.axis + "); valid for " +
                  std::string(name_of(d.axes.front())) + ": " + join(fitting));
    }
    if (std::find(d.variants.begin(), d.variants.end(), v->name) == d.variants.end()) d.variants.push_back(v->name);
  }
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  if (o.rounds < 1 || o.rounds > 100)
    throw Error("--rounds " + std::to_string(o.rounds) + ": valid: 1..100 rounds");
  d.rounds = o.rounds;
  check_outputs(o.output, {}, named("--op-file", o.op_file));
  d.tuning = tuning_of(o.tuning);
  return d;
}

// Each shape against the device (rows and columns in range, one allocation, the type), through
// the default launch of each axis; a launch refused for another reason is the run's to report.
void check_shapes(const Session& session, const AxisBenchDesign& d) {
  const auto shapes = d.shapes.empty() ? default_axis_bench_shapes(session.device()) : d.shapes;
  const std::vector<Axis> axes = d.axes.empty() ? std::vector<Axis>{Axis::Rows, Axis::Cols} : d.axes;
  AxisReducerOptions opt;
  opt.device = session.device();
  opt.kernel_dir = session.kernel_dir();
  AxisReducer reducer(session.queue(), opt);
  for (const auto& [m, n] : shapes)
    for (Axis a : axes) {
      try {
        introspect::prepare(reducer, d.type, d.op, a, m, n);
      } catch (const ConfigError& e) {
        if (e.param() == Param::Shape) throw Error("--shapes: " + std::string(e.what()));
        if (e.param() == Param::Type) throw;
      } catch (const Error&) {
        // A kernel that does not build: the run keeps the error with its point.
      }
    }
}

int bench_axis(const GlobalOptions& g, const AxisBenchTexts& o) {
  const AxisBenchDesign d = design_of(o);
  const Session session = make_session(g);
  check_shapes(session, d);
  const AxisBenchRun r = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure_axis_bench(session, d, std::ref(progress));
  }();
  for (const auto& s : r.shapes)
    if (s.scalar) warn_once(s.scalar->warnings);
  const DeviceInfo& dev = session.device();
  emit(axis_bench_text(r, dev), axis_bench_csv(r), axis_bench_json(r, dev), o.output);
  return r.all_ok() ? 0 : 1;
}
}  // namespace

void register_axis_bench_command(Cli& cli) {
  CLI::App* bench = cli.find("bench");
  auto o = std::make_shared<AxisBenchTexts>();
  CLI::App* c = cli.add(
      "axis",
      "benchmark the axis reductions (one value per row or column) at a list of shapes beside the read peak "
      "and the whole-array reduction of the same bytes",
      [&cli, bench, o] {
        refuse_parent_options(bench, "the reduction benchmark", "axis");
        return bench_axis(cli.global(), *o);
      },
      bench);
  DeviceInfo gpu;
  gpu.is_gpu = true;
  c->add_option("--shapes", o->shapes,
                "MxN shapes, comma-separated (default on a GPU " + shapes_text(default_axis_bench_shapes(gpu)) +
                    "; elsewhere " + shapes_text(default_axis_bench_shapes(DeviceInfo{})) + ")")
      ->delimiter(',');
  c->add_option("--axis", o->axis, "rows or cols (default: both)");
  c->add_option("--variants", o->variants,
                "axis variants run after each axis's default launch, comma-separated (default: every variant of "
                "the axis; see `clreduce variants`)")
      ->delimiter(',');
  c->add_option("--rounds", o->rounds,
                "measure each shape's launches of an axis this many times in turn, each round starting one "
                "launch later, and keep each launch's fastest round (1 to 100)")
      ->capture_default_str()
      ->check(whole_number(100, "1..100 rounds"));
  o->type_option = c->add_option("--type", o->type, "element type: float, uint, int, double")->capture_default_str();
  o->op_option = c->add_option("--op", o->op, "operator: sum, min, max, argmin, argmax")->capture_default_str();
  c->add_option("--op-file", o->op_file, kOpFileHelp);
  add_data_options(c, o->data);
  add_timing_options(c, o->timing);
  add_output_options(c, o->output);
  add_tuning_options(c, o->tuning);
  add_long_run_options(c, o->long_run, /*with_estimate=*/false);
}

}  // namespace clreduce::cli
