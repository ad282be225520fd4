// `clreduce tune descriptors` (benchmarks/descriptor_tune.hpp): the reduction-descriptor kernels'
// launches tuned per (built-in, input type, family, shape class) into the tuning database that
// reduce then uses for descriptors. Every option is checked, and every size and shape against the
// device, before anything is generated or measured.
#include "benchmarks/tune.hpp"
#include "cli.hpp"

#include "benchmarks/descriptor_tune.hpp"
#include "clreduce/error.hpp"
#include "parse.hpp"
#include "printers/descriptor_tune_printer.hpp"

#include <algorithm>
#include <ctime>
#include <iostream>
#include <set>

namespace clreduce::cli {

namespace {
struct DescriptorTuneTexts {
  std::vector<std::string> ops, types, families, sizes, shapes, grid;
  std::optional<std::string> db;
  double min_gain_pct = 3;
  bool dry_run = false;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  LongRunTexts long_run;
};

std::vector<DescriptorFamily> families_of(const std::vector<std::string>& texts) {
  std::vector<DescriptorFamily> out;
  for (const std::string& t : list_of("--families", texts)) {
    if (t == "segments")
      throw Error(Param::None, "--families: segments run on the lines kernel, as rows do, and take the rows' entries "
                               "(by the rows class of their segments); tune rows",
                  "whole, rows, cols");
    out.push_back(as_option("--families", [&] { return parse_descriptor_family(t); }));
  }
  return out;
}

// The design as typed, every value checked before a device is opened.
DescriptorTuneDesign design_of(const DescriptorTuneTexts& o) {
  DescriptorTuneDesign d;
  for (const std::string& t : list_of("--ops", o.ops)) d.ops.push_back(as_option("--ops", [&] { return parse_builtin(t); }));
  for (const std::string& t : list_of("--types", o.types))
    d.types.push_back(as_option("--types", [&] { return parse_scalar(t); }));
  {
    std::set<Builtin> ops(d.ops.begin(), d.ops.end());
    if (ops.size() != d.ops.size()) throw Error(Param::None, "--ops names a built-in twice (by two names)", "each once");
    std::set<Scalar> types(d.types.begin(), d.types.end());
    if (types.size() != d.types.size()) throw Error(Param::None, "--types names a type twice (by two names)", "each once");
  }
  d.families = families_of(o.families);
  const DescriptorTuneDesign full = with_defaults(d);
  const bool whole = std::find(full.families.begin(), full.families.end(), DescriptorFamily::Whole) != full.families.end();
  const bool matrices = std::any_of(full.families.begin(), full.families.end(),
                                    [](DescriptorFamily f) { return f != DescriptorFamily::Whole; });
  if (!o.sizes.empty()) {
    if (!whole)
      throw Error(Param::None, "--sizes sizes the whole array; --families " + join(o.families, ",") + " leaves it out",
                  "--families with whole");
    d.sizes = sizes_of(o.sizes);
    for (std::uint64_t n : d.sizes)
      if (n == 0) throw Error(Param::N, "--sizes 0: nothing to reduce", "1 or more elements");
  }
  if (!o.shapes.empty() && !matrices)
    throw Error(Param::None, "--shapes is for the rows and cols families; --families " + join(o.families, ",") +
                                 " has neither",
                "--families with rows or cols");
  d.shapes = shapes_of("--shapes", o.shapes);
  for (const std::string& g : o.grid) d.grid.push_back(grid_axis_of(g));
  if (!(o.min_gain_pct >= 0 && o.min_gain_pct <= 100))
    throw Error("--min-gain " + fixed(o.min_gain_pct, 2) + " is out of range; give a percentage from 0 to 100");
  d.min_gain = o.min_gain_pct / 100;
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  return d;
}

// Every input of every size and shape within one allocation of the device, before any data is made.
void check_sizes(const DescriptorTuneDesign& d, const DeviceInfo& dev) {
  const std::uint64_t most = dev.max_alloc_bytes;
  if (!most) return;
  for (Scalar t : d.types) {
    const std::uint64_t e = size_of(t);
    for (DescriptorFamily f : d.families) {
      if (f == DescriptorFamily::Whole) {
        for (std::uint64_t n : descriptor_tune_sizes(d, dev))
          if (n > most / e)
            throw Error(Param::N, "--sizes " + std::to_string(n) + ": " + std::to_string(n) + " elements of " +
                                      std::string(name_of(t)) + " are over " + dev.name + "'s largest allocation (" +
                                      std::to_string(most) + " bytes)",
                        "n <= " + std::to_string(most / e), dev.name);
        continue;
      }
      for (const auto& [m, n] : descriptor_tune_shapes(d, f, dev, t))
        if (m > most / n / e)
          throw Error(Param::None, "--shapes " + shape_label(m, n) + ": " + std::to_string(e) + "-byte elements are over " +
                                       dev.name + "'s largest allocation (" + std::to_string(most) + " bytes)",
                      "M x N x element <= " + std::to_string(most), dev.name);
    }
  }
}

// How long the run takes at least (measure/estimate.hpp): every run reading its inputs at the
// calibrated rate, one build per point of each (family, type, built-in), the inputs made and
// checked on the host.
RunEstimate estimate_of(const Session& session, const DescriptorTuneDesign& d) {
  const DeviceInfo& dev = session.device();
  std::uint64_t largest = 1;
  for (Scalar t : d.types) {
    for (std::uint64_t n : descriptor_tune_sizes(d, dev)) largest = std::max(largest, n * size_of(t));
    for (DescriptorFamily f : d.families)
      if (f != DescriptorFamily::Whole)
        for (const auto& [m, n] : descriptor_tune_shapes(d, f, dev, t)) largest = std::max(largest, m * n * size_of(t));
  }
  RunEstimate e;
  e.calibration = calibrate(session, ElemType::Uint, Op::Sum, d.data, largest / 4 + 1, true);
  for (DescriptorFamily f : d.families)
    for (Scalar t : d.types) {
      const std::size_t points = descriptor_tune_points(d, f, dev, size_of(t)).size();
      std::vector<std::uint64_t> bytes;
      if (f == DescriptorFamily::Whole)
        for (std::uint64_t n : descriptor_tune_sizes(d, dev)) bytes.push_back(n * size_of(t));
      else
        for (const auto& [m, n] : descriptor_tune_shapes(d, f, dev, t)) bytes.push_back(m * n * size_of(t));
      e.sizes += bytes.size();  // the sizes (or shapes) of this family and type, whatever the built-ins
      for (Builtin b : d.ops) {
        const double inputs = builtin_inputs(b);
        e.builds += points;
        for (std::uint64_t by : bytes) {
          e.points += points;
          e.device_bytes += static_cast<double>(points) * point_passes(d.timing, session.clock()) * inputs * static_cast<double>(by);
          e.seconds += static_cast<double>(points) * point_seconds(e.calibration, d.timing, session.clock(),
                                                                     static_cast<std::uint64_t>(inputs * static_cast<double>(by)));
          e.host_bytes += inputs * static_cast<double>(by);
          e.seconds += host_seconds(e.calibration, static_cast<std::uint64_t>(inputs * static_cast<double>(by))) * static_cast<double>(points);
        }
      }
    }
  e.seconds += static_cast<double>(e.builds) * e.calibration.build_s + e.calibration.seconds;
  return e;
}

int tune_descriptors(const GlobalOptions& g, const DescriptorTuneTexts& o) {
  const DescriptorTuneDesign d = with_defaults(design_of(o));
  const std::string path = tuning_db_path(o.db);
  check_outputs(o.output, {}, {{"--db", path}});
  if (!o.dry_run && !o.long_run.estimate) check_tuning_db_writable(path);  // before the measurement, not after it
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  check_sizes(d, dev);
  check_descriptor_tune_grid(d, dev);
  if (!announce(estimate_of(session, d), o.long_run,
                "fewer --ops, --types, --families, --sizes or --shapes, a smaller --grid or --iterations"))
    return 0;
  DescriptorTuneRun run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure_descriptor_tune(session, d, std::ref(progress));
  }();
  choose_descriptor_tuning(run, d, dev, utc_now());
  emit(descriptor_tune_text(run, dev), descriptor_tune_csv(run), descriptor_tune_json(run, dev), o.output);
  if (!run.all_ok()) {
    std::cerr << "clreduce: some launches failed their check or did not run; the tuning database is not written\n";
    return 1;
  }
  if (o.dry_run) {
    std::cerr << "clreduce: --dry-run: the tuning database " << path << " is not written\n";
    return 0;
  }
  std::vector<TunedDescriptorEntry> entries;
  std::vector<DescriptorEntryKey> cleared;
  for (const DescriptorTuneClass& c : run.classes) {
    if (c.entry) entries.push_back(*c.entry);
    else cleared.push_back({c.reduction, c.inputs, c.family, c.shape_class});
  }
  std::vector<std::string> warnings;
  save_tuning_descriptor_entries(path, device_key(dev), entries, cleared, warnings);
  for (const auto& w : warnings) warn(w);
  std::cerr << "clreduce: tuning database " << path << " updated: " << describe(device_key(dev)) << ", "
            << entries.size() << " of " << run.classes.size()
            << " descriptor classes tuned, the default launch kept for the others\n";
  return 0;
}
}  // namespace

void register_descriptor_tune_command(Cli& cli) {
  CLI::App* tune = cli.find("tune");
  auto o = std::make_shared<DescriptorTuneTexts>();
  CLI::App* c = cli.add(
      "descriptors",
      "find the best launch of the reduction-descriptor kernels (built-ins x types x whole, rows, cols) per shape "
      "class on this device and store it in the tuning database that reduce then uses for descriptors",
      [&cli, tune, o] {
        refuse_parent_options(tune, "the whole-array variants", "descriptors");
        return tune_descriptors(cli.global(), *o);
      },
      tune);
  std::vector<std::string> names;
  for (Builtin b : all_builtins()) names.emplace_back(name_of(b));
  c->add_option("--ops", o->ops, "built-ins, comma-separated (default sum,argmax,var_pop; any of " + join(names, ",") + ")")
      ->allow_extra_args(false);
  c->add_option("--types", o->types,
                "input types, comma-separated: u8, i8, u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64 (default f32)")
      ->allow_extra_args(false);
  c->add_option("--families", o->families,
                "whole, rows, cols, comma-separated (default all three; segments take the rows' entries)")
      ->allow_extra_args(false);
  c->add_option("--sizes", o->sizes, "the whole array's sizes in elements (default 2^20,2^24,2^26 on a GPU, 2^16,2^20 "
                "elsewhere)")
      ->allow_extra_args(false);
  c->add_option("--shapes", o->shapes,
                "rows and cols: MxN shapes, comma-separated (default: one shape per shape class, about 2^24 elements "
                "on a GPU, 2^20 elsewhere)")
      ->allow_extra_args(false);
  c->add_option("--grid", o->grid,
                "NAME=V1,V2,...: the values tried for a tunable parameter (repeat it), replacing its default axis: "
                "whole: WG_SIZE, ITEMS, VEC; rows: WG_SIZE, ROW_WIDTH, ITEMS, VEC; cols: TILE_X, ROWS_Y, ITEMS, "
                "BLOCK; and chunks (rows: parts per line, cols: row chunks; not searched unless given)");
  c->add_option("--min-gain", o->min_gain_pct,
                "percent: the smallest gain over the default launch that is kept (beside the noise)")
      ->capture_default_str();
  c->add_option("--db", o->db, "the database file (default: env CLREDUCE_TUNING_DB, else ~/.config/clreduce/tuning.json)");
  c->add_flag("--dry-run", o->dry_run, "measure and print; write nothing");
  add_data_options(c, o->data);
  add_timing_options(c, o->timing);
  add_output_options(c, o->output);
  add_long_run_options(c, o->long_run);
}

}  // namespace clreduce::cli
