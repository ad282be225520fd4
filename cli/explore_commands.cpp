// `clreduce sweep` (every point of a grid of launch parameters, one input), `clreduce tune`
// (the grid at a few sizes, the best configuration per variant written to the tuning database)
// and `clreduce tune axis` (axis launches per shape class, benchmarks/axis_tune.hpp).
#include "cli.hpp"
#include "clreduce/introspect.hpp"

#include "benchmarks/family.hpp"
#include "benchmarks/grid.hpp"
#include "benchmarks/axis_tune.hpp"
#include "benchmarks/tune.hpp"
#include "measure/engine.hpp"
#include "parse.hpp"
#include "printers/grid_printer.hpp"
#include "printers/result_charts.hpp"
#include "printers/axis_tune_printer.hpp"
#include "printers/tune_printer.hpp"

#include <ctime>
#include <iostream>
#include <limits>

namespace clreduce::cli {

namespace {
// The grid as typed: lists or ranges (parse_size_list).
struct GridTexts {
  std::optional<std::string> wg, times, groups_per_cu, vec;
};

void add_grid_options(CLI::App* c, GridTexts& g) {
  c->add_option("--wg", g.wg, "work-group sizes: a list or range, e.g. 64,256 or 32..1024 "
                "(default: 32 up to the device maximum)");
  c->add_option("--times", g.times, "TIMES values, e.g. 1..64 (default 1..64)");
  c->add_option("--groups-per-cu", g.groups_per_cu,
                "groups per compute unit, e.g. 1..16 (default: up to twice the occupancy)");
  c->add_option("--vec", g.vec, "vector widths, e.g. 4,8 (default 2,4,8,16)");
}

// A list of positive parameter values from `--option TEXT`.
template <class T>
std::vector<T> values_of(const std::optional<std::string>& text, const std::string& option) {
  std::vector<T> out;
  if (!text) return out;
  for (std::uint64_t x : parse_size_list(*text)) {
    if (x == 0 || x > std::numeric_limits<T>::max())
      throw Error(option + " " + std::to_string(x) + " is out of range; values are 1 to " +
                  std::to_string(std::numeric_limits<T>::max()));
    out.push_back(static_cast<T>(x));
  }
  return out;
}

GridAxes axes_of(const GridTexts& g) {
  GridAxes a;
  a.wg = values_of<std::size_t>(g.wg, "--wg");
  a.times = values_of<unsigned>(g.times, "--times");
  a.groups_per_cu = values_of<unsigned>(g.groups_per_cu, "--groups-per-cu");
  a.vec = values_of<unsigned>(g.vec, "--vec");
  // Naming one launch mode sweeps that mode alone.
  a.no_times = !a.groups_per_cu.empty() && a.times.empty();
  a.no_groups_per_cu = !a.times.empty() && a.groups_per_cu.empty();
  return a;
}

struct ExploreTexts {
  std::string type = "uint", op = "sum";
  std::vector<std::string> variants;
  GridTexts grid;
  std::vector<std::string> defines;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  LongRunTexts long_run;
};

Design design_of(const ExploreTexts& o) {
  Design d;
  d.type = variants_type(o.type);
  d.op = whole_array_op(o.op);
  d.variants = variant_names_of(o.variants);
  d.defines = defines_of(o.defines);
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  d.tuning.enabled = false;  // every point is the grid's own
  return d;  // the outputs are checked by the caller, against its own inputs too
}

struct SweepTexts : ExploreTexts {
  std::optional<std::string> n, input, chart, chart_variant;
  std::string chart_x = "wg", chart_y = "times";
};

int sweep(const GlobalOptions& g, const SweepTexts& o) {
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  Design d = design_of(o);
  const GridAxes axes = grid_defaults(axes_of(o.grid), dev);
  d.points = grid_points(axes);
  const GridParam cx = parse_grid_param(o.chart_x), cy = parse_grid_param(o.chart_y);
  if (o.chart) {
    check_heat_map_axes(cx, cy);
    check_heat_map_variants(d.variants, cx, cy, o.chart_variant.value_or(""));
  } else if (o.chart_variant) {
    throw Error("--chart-variant needs --chart FILE.svg");
  }
  check_outputs(o.output, named("--chart", o.chart), named("--input", o.input));
  const HostData data = input_of(o.n, o.input, o.data, d.type, dev, default_bench_n(dev), false);
  d.input = &data;
  const Run run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure(session, d, watch_of(o.long_run, progress, "a smaller grid (--wg, --times, --vec...), --n or --iterations"));
  }();
  if (o.long_run.estimate) return 0;
  emit(grid_sweep_text(run, axes, dev), grid_sweep_csv(run), grid_sweep_json(run, axes, dev), o.output);
  if (o.chart)
    write_chart(o.output, *o.chart, render_svg(grid_heat_map(run, axes, dev, cx, cy, o.chart_variant.value_or(""))));
  return run.all_ok() ? 0 : 1;
}

struct TuneTexts : ExploreTexts {
  std::vector<std::string> sizes;
  std::optional<std::string> db;
  bool dry_run = false;  // measure and print, write nothing
};

int tune(const GlobalOptions& g, const TuneTexts& o) {
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  Design d = design_of(o);
  d.sizes = o.sizes.empty() ? default_tune_sizes(dev) : sizes_of(o.sizes);
  d.points = grid_points(grid_defaults(axes_of(o.grid), dev));
  const std::string path = tuning_db_path(o.db);
  check_outputs(o.output, {}, {{"--db", path}});
  if (!o.dry_run) check_tuning_db_writable(path);  // before the measurement, not after it
  const Run run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure(session, d, watch_of(o.long_run, progress, "fewer --sizes, a smaller grid (--wg, --times, --vec...) or --iterations"));
  }();
  if (o.long_run.estimate) return 0;
  const TuneReport r = choose_tuning(run);
  emit(tune_text(r, dev), tune_csv(r), tune_json(r, dev), o.output);
  if (!r.all_ok()) {
    std::cerr << "clreduce: some points failed their check; the tuning database is not written\n";
    return 1;
  }
  if (o.dry_run) {
    std::cerr << "clreduce: --dry-run: the tuning database " << path << " is not written\n";
    return 0;
  }
  std::vector<std::string> warnings;
  save_tuning_entry(path, device_key(dev), r.entry, warnings);
  for (const auto& w : warnings) warn(w);
  std::cerr << "clreduce: tuning database " << path << " updated: " << describe(device_key(dev)) << ", "
            << name_of(r.type) << " " << name_of(r.op) << ", " << r.entry.variants.size() << " variants tuned\n";
  return 0;
}

struct TuneAxisTexts {
  std::string type = "float", op = "sum";
  std::optional<std::string> axis, wg, row_width, groups_per_cu, db;
  std::vector<std::string> shapes, variants;
  double min_gain_pct = 3;
  bool dry_run = false;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  LongRunTexts long_run;
};

// A list of powers of two from 1 to `most` from `--option TEXT`.
template <class T>
std::vector<T> powers_of_two_of(const std::optional<std::string>& text, const std::string& option, std::uint64_t most) {
  std::vector<T> out;
  for (T x : values_of<T>(text, option)) {
    if ((x & (x - 1)) != 0 || x > most)
      throw Error(option + " " + std::to_string(x) + " is not a power of two from 1 to " + std::to_string(most));
    out.push_back(x);
  }
  return out;
}

// The design as typed, every value checked before a device is opened.
AxisTuneDesign axis_tune_design_of(const TuneAxisTexts& o) {
  AxisTuneDesign d;
  d.type = variants_type(o.type);
  d.op = variants_op(o.op);
  if (d.op == Op::User)
    throw Error(Param::Op, "tune axis tunes the built-in operators: sum, min, max, argmin, argmax", "sum, min, max, argmin, argmax");
  if (o.axis) d.axes = {parse_axis(*o.axis)};
  d.shapes = shapes_of("--shapes", o.shapes);
  for (const auto& text : o.variants) {
    const AxisVariant* v = nullptr;
    try {
      v = &find_axis_variant(text);
    } catch (const Error& e) {
      throw Error("--variants: " + std::string(e.what()));
    }
    if (o.axis && v->axis != d.axes.front())
      throw Error("--variants: axis variant " + v->name + " reduces " + std::string(name_of(v->axis)) + ", not " +
                  std::string(name_of(d.axes.front())) + " (--axis " + *o.axis + ")");
    d.variants.push_back(v->name);
  }
  d.wg = powers_of_two_of<std::size_t>(o.wg, "--wg", kTuningDbMaxAxisWg);
  d.row_width = powers_of_two_of<unsigned>(o.row_width, "--row-width", kTuningDbMaxRowWidth);
  d.groups_per_cu = values_of<unsigned>(o.groups_per_cu, "--groups-per-cu");
  for (unsigned g : d.groups_per_cu)
    if (g > kTuningDbMaxAxisGroupsPerCu)
      throw Error("--groups-per-cu " + std::to_string(g) + " is out of range; values are 1 to " +
                  std::to_string(kTuningDbMaxAxisGroupsPerCu));
  if (!(o.min_gain_pct >= 0 && o.min_gain_pct <= 100))
    throw Error("--min-gain " + fixed(o.min_gain_pct, 2) + " is out of range; give a percentage from 0 to 100");
  d.min_gain = o.min_gain_pct / 100;
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  return d;  // the outputs are checked by the caller, against --db too
}

int tune_axis(const GlobalOptions& g, const TuneAxisTexts& o) {
  const AxisTuneDesign d = axis_tune_design_of(o);
  const std::string path = tuning_db_path(o.db);
  check_outputs(o.output, {}, {{"--db", path}});
  if (!o.dry_run) check_tuning_db_writable(path);  // before the measurement, not after it
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  {  // Each shape against the device (rows and columns in range, one allocation, the type) first.
    const std::vector<Axis> axes = d.axes.empty() ? std::vector<Axis>{Axis::Rows, Axis::Cols} : d.axes;
    AxisReducerOptions opt;
    opt.device = dev;
    opt.kernel_dir = session.kernel_dir();
    opt.tuning.enabled = false;
    AxisReducer reducer(session.queue(), opt);
    for (Axis a : axes) {
      const auto shapes = d.shapes.empty() ? axis_tune_default_shapes(dev, d.type, a) : d.shapes;
      for (const auto& [m, n] : shapes) {
        try {
          introspect::prepare(reducer, d.type, d.op, a, m, n);
        } catch (const ConfigError& e) {
          if (e.param() == Param::Shape) throw Error("--shapes: " + std::string(e.what()));
          if (e.param() == Param::Type) throw;
        }
      }
    }
  }
  AxisTuneRun run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure_axis_tune(session, d, std::ref(progress));
  }();
  choose_axis_tuning(run, d, utc_now());
  emit(axis_tune_text(run, dev), axis_tune_csv(run), axis_tune_json(run, dev), o.output);
  if (!run.all_ok()) {
    std::cerr << "clreduce: some launches failed their check or did not run; the tuning database is not written\n";
    return 1;
  }
  if (o.dry_run) {
    std::cerr << "clreduce: --dry-run: the tuning database " << path << " is not written\n";
    return 0;
  }
  std::vector<TunedAxisEntry> entries;
  std::vector<AxisEntryKey> cleared;
  for (const AxisTuneClass& c : run.classes) {
    if (c.entry) entries.push_back(*c.entry);
    else cleared.push_back({d.type, d.op, c.axis, c.shape_class});
  }
  std::vector<std::string> warnings;
  save_tuning_axis_entries(path, device_key(dev), entries, cleared, warnings);
  for (const auto& w : warnings) warn(w);
  std::cerr << "clreduce: tuning database " << path << " updated: " << describe(device_key(dev)) << ", "
            << name_of(d.type) << " " << name_of(d.op) << ", " << entries.size() << " of " << run.classes.size()
            << " shape classes tuned, the default rule kept for the others\n";
  return 0;
}


void add_explore_options(CLI::App* c, ExploreTexts& o) {
  c->add_option("--variants", o.variants, "only these variants (comma-separated; default all)")->delimiter(',');
  c->add_option("--type", o.type, "element type: uint, int, float, double")->capture_default_str();
  c->add_option("--op", o.op, "operator: sum, min, max")->capture_default_str();
  add_grid_options(c, o.grid);
  c->add_option("-D,--define", o.defines, "NAME[=VALUE] passed to the kernel compiler");
  add_long_run_options(c, o.long_run);
  add_data_options(c, o.data);
  add_timing_options(c, o.timing);
  add_output_options(c, o.output);
}
}  // namespace

void register_explore_commands(Cli& cli) {
  auto s = std::make_shared<SweepTexts>();
  CLI::App* sw = cli.add("sweep", "measure and verify every point of a grid of launch parameters for one variant or all",
                         [&cli, s] { return sweep(cli.global(), *s); });
  add_explore_options(sw, *s);
  sw->add_option("--n", s->n, "elements (default 2^26 on a GPU, 2^22 elsewhere)");
  sw->add_option("--input", s->input, "raw little-endian elements of --type instead");
  sw->add_option("--chart", s->chart, "write a heat map of GB/s over --chart-x and --chart-y (SVG)");
  sw->add_option("--chart-x", s->chart_x, "heat-map columns: wg, times, groups-per-cu, vec")->capture_default_str();
  sw->add_option("--chart-y", s->chart_y, "heat-map rows: wg, times, groups-per-cu, vec")->capture_default_str();
  sw->add_option("--chart-variant", s->chart_variant,
                 "the variant of the heat map (default: the fastest that takes both parameters)");

  auto t = std::make_shared<TuneTexts>();
  CLI::App* tu = cli.add("tune",
                         "find each variant's best launch parameters on this device and store them in the "
                         "tuning database that reduce and bench then use",
                         [&cli, t] { return tune(cli.global(), *t); });
  add_explore_options(tu, *t);
  tu->add_option("--sizes", t->sizes, "sizes to tune over (default 2^20,2^24,2^26 on a GPU, 2^16,2^20 elsewhere)")
      ->delimiter(',');
  tu->add_option("--db", t->db,
                 "the database file (default: env CLREDUCE_TUNING_DB, else ~/.config/clreduce/tuning.json)");
  tu->add_flag("--dry-run", t->dry_run, "measure and print; write nothing");

  auto a = std::make_shared<TuneAxisTexts>();
  CLI::App* ta = cli.add(
      "axis",
      "find the best axis launch (variant, wg, row width, chunks) per shape class on this device and store it in "
      "the tuning database that reduce --axis then uses",
      [&cli, tu, a] {
        refuse_parent_options(tu, "the whole-array variants", "axis");
        return tune_axis(cli.global(), *a);
      },
      tu);
  ta->add_option("--axis", a->axis, "rows or cols (default: both)");
  ta->add_option("--shapes", a->shapes,
                 "MxN shapes, comma-separated (default: one shape per shape class, about 2^24 elements on a GPU, 2^20 "
                 "elsewhere)")
      ->delimiter(',');
  ta->add_option("--variants", a->variants, "axis variants to try, comma-separated (default: every variant of the axis)")
      ->delimiter(',');
  ta->add_option("--type", a->type, "element type: float, uint, int, double")->capture_default_str();
  ta->add_option("--op", a->op, "operator: sum, min, max, argmin, argmax")->capture_default_str();
  ta->add_option("--wg", a->wg, "work-group sizes to try, e.g. 64,256 (default 64,128,256,512 up to the device's limit)");
  ta->add_option("--row-width", a->row_width, "rows_sliced's row widths to try (default 1,2,4,8,16,32)");
  ta->add_option("--groups-per-cu", a->groups_per_cu,
                 "rows_split's and cols_tile's chunks to try, as groups per compute unit (default 2,4,8,16,32)");
  ta->add_option("--min-gain", a->min_gain_pct,
                 "percent: the smallest gain over the default launch that is kept (beside the noise)")
      ->capture_default_str();
  ta->add_option("--db", a->db,
                 "the database file (default: env CLREDUCE_TUNING_DB, else ~/.config/clreduce/tuning.json)");
  ta->add_flag("--dry-run", a->dry_run, "measure and print; write nothing");
  add_data_options(ta, a->data);
  add_timing_options(ta, a->timing);
  add_output_options(ta, a->output);
  add_long_run_options(ta, a->long_run, /*with_estimate=*/false);
}

}  // namespace clreduce::cli
