// `clreduce bench descriptors`: reduction descriptors x types x families x launches in
// one process (benchmarks/descriptor_bench.hpp). Every option is checked, and every shape and
// size against the device, before anything is generated or measured.
#include "cli.hpp"

#include "benchmarks/axis_bench.hpp"
#include "benchmarks/descriptor_bench.hpp"
#include "clreduce/error.hpp"
#include "parse.hpp"
#include "printers/descriptor_bench_printer.hpp"

#include <algorithm>

namespace clreduce::cli {

// A comma-separated list as typed (the option may be repeated): every item, none empty, none twice.
std::vector<std::string> list_of(const std::string& option, const std::vector<std::string>& texts) {
  std::vector<std::string> items;
  for (const std::string& text : texts)
    for (std::size_t start = 0;;) {
      const std::size_t comma = text.find(',', start);
      const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (item.empty())
        throw Error(Param::None, option + " '" + printable(text) + "': an empty item; give a comma-separated list",
                    "NAME,NAME,...");
      if (std::find(items.begin(), items.end(), item) != items.end())
        throw Error(Param::None, option + " names " + printable(item) + " twice", "each once");
      items.push_back(item);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  return items;
}

// MxN shapes as typed (comma-separated, the option repeatable): each a matrix of at least one row
// and one column, none twice (by value: 8Kix8 and 8192x8 are one shape).
std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes_of(const std::string& option,
                                                               const std::vector<std::string>& texts) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes;
  for (const std::string& text : list_of(option, texts)) {
    const auto shape = as_option(option, [&] { return parse_shape(text); });
    if (shape.first == 0 || shape.second == 0)
      throw Error(Param::None, option + " " + printable(text) + ": a matrix needs at least one row and one column",
                  "M >= 1 and N >= 1");
    if (std::find(shapes.begin(), shapes.end(), shape) != shapes.end())
      throw Error(Param::None, option + " names " + shape_label(shape.first, shape.second) + " twice", "each shape once");
    shapes.push_back(shape);
  }
  return shapes;
}

// "NAME=V1,V2,...": one axis of the launch grid (its values checked by launch_grid).
LaunchAxis grid_axis_of(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw Error(Param::None, "--grid '" + printable(text) + "': expected NAME=V1,V2,... (e.g. TILE_X=32,64 or chunks=4,8)",
                "NAME=V1,V2,...");
  LaunchAxis a;
  a.name = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  for (std::size_t start = 0;;) {
    const std::size_t comma = rest.find(',', start);
    const std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    try {
      a.values.push_back(parse_size(item));
    } catch (const Error& e) {
      throw Error(Param::None, "--grid " + a.name + ": " + e.what(), "whole numbers");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return a;
}

namespace {
struct DescriptorBenchTexts {
  std::vector<std::string> ops, types, families, shapes, grid;
  std::optional<std::string> op_file, accumulate, bytes;
  bool exact = false;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  LongRunTexts long_run;
};

std::vector<DescriptorJob::Family> families_of(const std::vector<std::string>& texts) {
  using F = DescriptorJob::Family;
  std::vector<F> out;
  for (const std::string& t : list_of("--families", texts)) {
    F f;
    if (t == "whole") f = F::Whole;
    else if (t == "rows") f = F::Rows;
    else if (t == "cols") f = F::Cols;
    else
      throw Error(Param::None, "--families: '" + printable(t) + "' is not a family; valid: whole, rows, cols",
                  "whole, rows, cols");
    if (std::find(out.begin(), out.end(), f) != out.end())
      throw Error(Param::None, "--families names " + t + " twice", "each of whole, rows, cols once");
    out.push_back(f);
  }
  if (out.empty()) out = {F::Whole, F::Rows, F::Cols};
  return out;
}

DescriptorBenchDesign design_of(const DescriptorBenchTexts& o) {
  DescriptorBenchDesign d;
  if (o.op_file) {
    if (!o.ops.empty() || !o.types.empty() || o.accumulate || o.exact)
      throw Error(Param::None, "--op-file " + *o.op_file + " says what is reduced itself: leave out " +
                                     std::string(!o.ops.empty()     ? "--ops"
                                                 : !o.types.empty() ? "--types"
                                                 : o.accumulate     ? "--accumulate"
                                                                    : "--exact"),
                  "--op-file alone, or --ops/--types");
    if (!is_reduction_file(*o.op_file))
      throw Error(Param::None, "--op-file " + *o.op_file + " is not a reduction descriptor (a descriptor file "
                                 "#defines INPUTS, RESULT, ACC_TYPE, IDENTITY and COMBINE); bench descriptors runs "
                                 "descriptors only", "a descriptor file");
    d.user = load_reduction(*o.op_file);
    if (!d.user->scalars.empty())
      throw Error(Param::None, "--op-file " + *o.op_file + " declares run-time scalars, which bench descriptors "
                                  "does not set; run it with `clreduce reduce --scalar ...`", "a descriptor without SCALARS");
  } else {
    for (const std::string& t : list_of("--ops", o.ops)) {
      const Builtin b = as_option("--ops", [&] { return parse_builtin(t); });
      if (std::find(d.ops.begin(), d.ops.end(), b) != d.ops.end())
        throw Error(Param::None, "--ops names " + t + " twice", "each built-in once");
      d.ops.push_back(b);
    }
    if (d.ops.empty()) d.ops = all_builtins();
    for (const std::string& t : list_of("--types", o.types)) {
      const Scalar s = as_option("--types", [&] { return parse_scalar(t); });
      if (std::find(d.types.begin(), d.types.end(), s) != d.types.end())
        throw Error(Param::None, "--types names " + t + " twice", "each type once");
      d.types.push_back(s);
    }
    if (d.types.empty()) d.types = {Scalar::F32};
    if (o.accumulate) d.accumulate = as_option("--accumulate", [&] { return parse_scalar(*o.accumulate); });
    if (o.exact) d.summation = Summation::Exact;
  }
  d.families = families_of(o.families);
  const bool matrices = std::any_of(d.families.begin(), d.families.end(),
                                    [](DescriptorJob::Family f) { return f != DescriptorJob::Family::Whole; });
  if (!o.shapes.empty() && !matrices)
    throw Error(Param::None, "--shapes is for the rows and cols families; --families " + join(o.families, ",") +
                                  " has neither", "--families with rows or cols");
  d.shapes = shapes_of("--shapes", o.shapes);
  if (o.bytes) {
    if (std::find(d.families.begin(), d.families.end(), DescriptorJob::Family::Whole) == d.families.end())
      throw Error(Param::None, "--bytes sizes the whole array; --families " + join(o.families, ",") + " leaves it out",
                  "--families with whole");
    d.bytes = as_option("--bytes", [&] { return parse_size(*o.bytes); });
    if (d.bytes == 0) throw Error(Param::None, "--bytes 0: nothing to reduce", "1 or more bytes");
    // Whole elements of every input: a size that is not is refused, not cut short.
    std::vector<Scalar> inputs = d.user ? d.user->inputs : d.types;
    for (Scalar s : inputs)
      if (d.bytes % size_of(s) != 0)
        throw Error(Param::None, "--bytes " + *o.bytes + " is not a whole number of " + std::string(name_of(s)) +
                                     " elements (" + std::to_string(size_of(s)) + " bytes each)",
                    "a multiple of " + std::to_string(size_of(s)));
  }
  std::vector<LaunchAxis> axes;
  for (const std::string& g : o.grid) axes.push_back(grid_axis_of(g));
  d.launches = as_option("--grid", [&] { return launch_grid(axes, d.families); });
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  check_outputs(o.output, {}, named("--op-file", o.op_file));
  return d;
}

// Every input of every point within one allocation of the device, before any data is made.
void check_sizes(const DescriptorBenchDesign& d, const DeviceInfo& dev) {
  std::vector<Scalar> types = d.user ? d.user->inputs : d.types;
  std::uint64_t widest = 1;
  for (Scalar s : types) widest = std::max<std::uint64_t>(widest, size_of(s));
  if (!d.user)
    for (Builtin b : d.ops)
      for (Scalar s : d.types) try {
          for (Scalar in : builtin(b, s, d.accumulate, exact_available(b, s) ? d.summation : Summation::Default).inputs) widest = std::max<std::uint64_t>(widest, size_of(in));
        } catch (const Error&) {
          // refused at its point, with the reason
        }
  const std::uint64_t most = dev.max_alloc_bytes;
  for (DescriptorJob::Family f : d.families) {
    if (f == DescriptorJob::Family::Whole) {
      const std::uint64_t bytes = d.bytes ? d.bytes : default_descriptor_bench_bytes(dev);
      if (bytes > most)
        throw Error(Param::None, "--bytes " + std::to_string(bytes) + " is over " + dev.name + "'s largest allocation (" +
                                  std::to_string(most) + " bytes)",
                    "--bytes <= " + std::to_string(most), dev.name);
      continue;
    }
    for (const auto& [m, n] : d.shapes)
      if (m > most / n / widest)
        throw Error(Param::None, "--shapes " + shape_label(m, n) + ": " + std::to_string(widest) +
                                      "-byte elements are over " + dev.name + "'s largest allocation (" +
                                      std::to_string(most) + " bytes)",
                    "M x N x element <= " + std::to_string(most), dev.name);
  }
}

int bench_descriptors(const GlobalOptions& g, const DescriptorBenchTexts& o) {
  DescriptorBenchDesign d = design_of(o);
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  if (d.shapes.empty()) d.shapes = default_axis_bench_shapes(dev);
  check_sizes(d, dev);
  // CSV goes out row by row as the points are measured, so a run stopped early keeps what it did.
  const bool stream = parse_format(o.output.format) == Format::Csv;
  if (stream) std::cout << descriptor_bench_csv_header() << std::flush;
  const DescriptorBenchRun r = [&] {
    ProgressReporter progress(o.long_run.quiet);
    std::function<void(const DescriptorBenchRow&)> on_row;
    if (stream) on_row = [](const DescriptorBenchRow& row) { std::cout << descriptor_bench_csv_line(row) << std::flush; };
    return measure_descriptor_bench(session, d, std::ref(progress), on_row);
  }();
  emit(descriptor_bench_text(r, dev), descriptor_bench_csv(r), descriptor_bench_json(r, dev), o.output, stream);
  return r.all_ok() ? 0 : 1;
}

}  // namespace

void register_descriptor_bench_command(Cli& cli) {
  CLI::App* bench = cli.find("bench");
  auto o = std::make_shared<DescriptorBenchTexts>();
  CLI::App* c = cli.add(
      "descriptors",
      "benchmark reduction descriptors (built-ins x types, or a descriptor file) over the whole array, rows and "
      "columns, each result verified, beside the read peak; --grid sweeps the kernels' launch parameters",
      [&cli, bench, o] {
        refuse_parent_options(bench, "the reduction benchmark", "descriptors");
        return bench_descriptors(cli.global(), *o);
      },
      bench);
  std::vector<std::string> names;
  for (Builtin b : all_builtins()) names.emplace_back(name_of(b));
  DeviceInfo gpu;
  gpu.is_gpu = true;
  std::vector<std::string> shapes;
  for (const auto& [m, n] : default_axis_bench_shapes(gpu)) shapes.push_back(shape_label(m, n));
  c->add_option("--ops", o->ops, "built-ins, comma-separated (default all: " + join(names, ",") + ")")->allow_extra_args(false);
  c->add_option("--types", o->types,
                "input types, comma-separated: u8, i8, u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64 (default f32)")
      ->allow_extra_args(false);
  c->add_option("--accumulate", o->accumulate, "the built-ins' accumulator where they have a choice (f64)");
  c->add_flag("--exact", o->exact,
              "exact summation of the built-ins that take it (sum, mean, dot, sumsq, l2 of f16, bf16, f32, f64; the "
              "others are refused in the table)");
  c->add_option("--op-file", o->op_file, "FILE.clh: a reduction descriptor instead of --ops and --types");
  c->add_option("--families", o->families, "whole, rows, cols, comma-separated (default all three)")->allow_extra_args(false);
  c->add_option("--shapes", o->shapes,
                "rows and cols: MxN shapes, comma-separated (default on a GPU " + join(shapes, ",") +
                    "; elsewhere those of bench axis)")
      ->allow_extra_args(false);
  c->add_option("--bytes", o->bytes, "the whole array's bytes per input (default 256Mi on a GPU, 16Mi elsewhere)");
  c->add_option("--grid", o->grid,
                "NAME=V1,V2,...: a launch grid axis (repeat it): a -D parameter of the families' kernels (see "
                "`clreduce variants --params`: whole, lines, columns), chunks (rows, cols), groups_per_cu (whole) or "
                "wg; every point "
                "runs after its default launch");
  add_data_options(c, o->data);
  add_timing_options(c, o->timing);
  add_output_options(c, o->output);
  add_long_run_options(c, o->long_run, /*with_estimate=*/false);
}

}  // namespace clreduce::cli
