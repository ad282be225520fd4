// clreduce: the command-line front end (CLI11). Parses arguments and dispatches to commands.cpp;
// every clreduce::Error becomes one line on stderr and exit code 2.
#include "commands.hpp"
#include "clreduce/error.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

using namespace clreduce::cli;

namespace {
void add_run_options(CLI::App* c, RunOptions& o) {
  c->add_option("--type", o.type, "element type: uint, int, float, double")->capture_default_str();
  c->add_option("--op", o.op, "operator: sum, min, max")->capture_default_str();
  c->add_option("--n", o.n, "elements (suffixes: 64M, 1Gi, 2^26)");
  c->add_option("--wg", o.wg, "work-group size (power of two)");
  c->add_option("--times", o.times, "elements per work-item (strided/vector variants)");
  c->add_option("--groups-per-cu", o.groups_per_cu,
                "fix the groups at G per compute unit and derive TIMES from n");
  c->add_option("--vec", o.vec, "vector width of the vector variant: 2, 4, 8, 16");
  c->add_option("-D,--define", o.defines, "NAME[=VALUE] passed to the kernel compiler");
  c->add_option("--iterations", o.iterations, "timed samples")->capture_default_str();
  c->add_option("--warmup", o.warmup, "discarded warm-up reductions")->capture_default_str();
  c->add_option("--batch", o.batch,
                "reductions per timed sample, back-to-back (default: enough for 200 timer ticks)");
  c->add_option("--seed", o.seed, "seed of the random data")->capture_default_str();
  c->add_option("--data", o.data, "generated data: random, iota, ones, max")->capture_default_str();
  c->add_option("--input", o.input, "raw little-endian elements of --type to reduce instead");
  c->add_option("--format", o.format, "table, csv or json")->capture_default_str();
  c->add_option("--output-json", o.output_json, "also write the JSON document to FILE");
  c->add_option("--output-csv", o.output_csv, "also write the CSV to FILE");
  c->add_option("--db", o.db,
                "tuning database to use (default: env CLREDUCE_TUNING_DB, else "
                "~/.config/clreduce/tuning.json); see `clreduce tune`");
  c->add_flag("--no-tuning", o.no_tuning, "ignore the tuning database: the built-in defaults");
}
void add_grid_options(CLI::App* c, GridTexts& g) {
  c->add_option("--wg", g.wg, "work-group sizes: a list or range, e.g. 64,256 or 32..1024 "
                "(default: 32 up to the device maximum)");
  c->add_option("--times", g.times, "TIMES values, e.g. 1..64 (default 1..64)");
  c->add_option("--groups-per-cu", g.groups_per_cu,
                "groups per compute unit, e.g. 1..16 (default: up to twice the occupancy)");
  c->add_option("--vec", g.vec, "vector widths, e.g. 4,8 (default 2,4,8,16)");
}
void add_measure_options(CLI::App* c, MeasureOptions& o) {
  c->add_option("--iterations", o.iterations, "timed samples")->capture_default_str();
  c->add_option("--warmup", o.warmup, "discarded warm-up runs")->capture_default_str();
  c->add_option("--batch", o.batch,
                "runs per timed sample, back-to-back (default: enough for 200 timer ticks)");
  c->add_option("--seed", o.seed, "seed of the random data")->capture_default_str();
  c->add_option("--data", o.data, "generated data: random, iota, ones, max")->capture_default_str();
  c->add_option("--format", o.format, "table, csv or json")->capture_default_str();
  c->add_option("--output-json", o.output_json, "also write the JSON document to FILE");
  c->add_option("--output-csv", o.output_csv, "also write the CSV to FILE");
}

void add_transpose_options(CLI::App* c, TransposeShapeOptions& o) {
  c->add_option("--type", o.type, "element type: float, uint, int, double")->capture_default_str();
  c->add_option("--wg-x", o.wg_x, "work-group width (naive, naive_write_coalesced, register tiles)");
  c->add_option("--wg-y", o.wg_y, "work-group height (same variants)");
  c->add_option("--tile", o.tile, "tile edge TILE of the local-memory variants");
  c->add_option("--rows", o.rows, "work-group rows ROWS of local_tile_multi (divides TILE)");
  c->add_option("-D,--define", o.defines, "NAME[=VALUE] passed to the kernel compiler");
  add_measure_options(c, o);
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"clreduce: the OpenCL parallel reduction family, measured and verified"};
  app.require_subcommand(1);
  DeviceOptions dev;
  app.add_option("--platform", dev.platform, "platform index (see `clreduce devices`)");
  app.add_option("--device", dev.device,
                 "device index or case-insensitive name substring (default: first GPU, else first "
                 "device; env CLREDUCE_DEVICE)");
  app.add_option("--kernel-dir", dev.kernel_dir,
                 "directory of the .cl kernels (default: env CLREDUCE_KERNEL_DIR, else the source "
                 "tree's kernels_cl/)");

  std::string devices_format = "table";
  CLI::App* devices = app.add_subcommand("devices", "list platforms and devices with their facts");
  devices->add_option("--format", devices_format, "table, csv or json");

  app.add_subcommand("variants", "list the registered reduction variants");
  SoakCliOptions soak_opt;
  CLI::App* soak = app.add_subcommand(
      "soak", "random reductions against the host reference until the time is up");
  soak->add_option("--seconds", soak_opt.seconds, "how long")->capture_default_str();
  soak->add_option("--seed", soak_opt.seed, "the sequence's seed (default: from the clock; printed)");
  soak->add_option("--max-n", soak_opt.max_n, "largest n (default 2^24 on a GPU, 2^20 elsewhere)");
  soak->add_option("--max-wg", soak_opt.max_wg, "largest work-group size (default: the device's)");
  soak->add_flag("--verbose", soak_opt.verbose, "print each configuration (a command line) first");
  app.add_subcommand("doctor",
                     "explain a missing platform or GPU (ICD files, vendor libraries) and check the "
                     "event timer against the host clock");

  ReduceOptions red;
  CLI::App* reduce = app.add_subcommand("reduce", "run, time and verify one variant");
  reduce->add_option("--variant", red.variant, "variant name (see `clreduce variants`)")->required();
  add_run_options(reduce, red);

  BenchOptions ben;
  CLI::App* bench = app.add_subcommand(
      "bench", "benchmark every variant on one input beside the measured read bandwidth");
  bench->add_option("--variants", ben.variants, "only these variants (comma-separated)")->delimiter(',');
  bench->add_option("--sizes", ben.sizes,
                    "sweep these sizes (comma-separated sizes or ranges A..B[:F], e.g. 2^20,2^24 or "
                    "1K..1G:4): each variant's best "
                    "configuration at each size, timed back-to-back and one call at a time")
      ->delimiter(',');
  bench->add_option("--chart", ben.chart,
                    "write an SVG chart: GB/s per variant with the read peak, or with --sizes time "
                    "and GB/s against n");
  add_run_options(bench, ben);
  bench->require_subcommand(0, 1);

  BenchTransposeOptions btr;
  CLI::App* bench_transpose = bench->add_subcommand(
      "transpose", "benchmark every transpose variant beside a device-to-device copy");
  bench_transpose->add_option("--shapes", btr.shapes,
                              "MxN shapes, comma-separated (default 2048x512,8192x8192)")
      ->delimiter(',');
  bench_transpose->add_option("--variants", btr.variants, "only these transpose variants")
      ->delimiter(',');
  add_transpose_options(bench_transpose, btr);

  BenchAccessOptions bac;
  CLI::App* bench_access = bench->add_subcommand(
      "access", "the access-pattern study: sum of cubes, contiguous vs interleaved reads");
  bench_access->add_option("--n", bac.n, "uint elements (default 2^26 on a GPU, 2^22 elsewhere)");
  bench_access->add_option("--wg", bac.wg, "work-group size (power of two, default 256)");
  bench_access->add_option("--groups", bac.groups,
                           "work-groups (default: 2048 work-items per compute unit)");
  add_measure_options(bench_access, bac);

  SweepCliOptions swp;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "measure and verify every point of a grid of launch parameters for one variant or all");
  sweep->add_option("--variants", swp.variants, "only these variants (comma-separated; default all)")
      ->delimiter(',');
  sweep->add_option("--type", swp.type, "element type: uint, int, float, double")->capture_default_str();
  sweep->add_option("--op", swp.op, "operator: sum, min, max")->capture_default_str();
  sweep->add_option("--n", swp.n, "elements (default 2^26 on a GPU, 2^22 elsewhere)");
  sweep->add_option("--input", swp.input, "raw little-endian elements of --type instead");
  add_grid_options(sweep, swp.grid);
  sweep->add_option("-D,--define", swp.defines, "NAME[=VALUE] passed to the kernel compiler");
  sweep->add_option("--chart", swp.chart, "write a heat map of GB/s over --chart-x and --chart-y (SVG)");
  sweep->add_option("--chart-x", swp.chart_x, "heat-map columns: wg, times, groups-per-cu, vec")
      ->capture_default_str();
  sweep->add_option("--chart-y", swp.chart_y, "heat-map rows: wg, times, groups-per-cu, vec")
      ->capture_default_str();
  sweep->add_option("--chart-variant", swp.chart_variant,
                    "the variant of the heat map (default: the fastest that takes both parameters)");
  sweep->add_flag("--quiet", swp.quiet, "no progress bar (it is drawn only on a terminal anyway)");
  add_measure_options(sweep, swp);

  TuneCliOptions tun;
  CLI::App* tune = app.add_subcommand(
      "tune", "find each variant's best launch parameters on this device and store them in the "
              "tuning database that reduce and bench then use");
  tune->add_option("--sizes", tun.sizes,
                   "sizes to tune over (default 2^20,2^24,2^26 on a GPU, 2^16,2^20 elsewhere)")
      ->delimiter(',');
  tune->add_option("--variants", tun.variants, "only these variants (comma-separated)")->delimiter(',');
  tune->add_option("--type", tun.type, "element type: uint, int, float, double")->capture_default_str();
  tune->add_option("--op", tun.op, "operator: sum, min, max")->capture_default_str();
  add_grid_options(tune, tun.grid);
  tune->add_option("--db", tun.db,
                   "the database file (default: env CLREDUCE_TUNING_DB, else ~/.config/clreduce/tuning.json)");
  tune->add_flag("--dry-run", tun.dry_run, "measure and print; write nothing");
  tune->add_flag("--quiet", tun.quiet, "no progress bar");
  add_measure_options(tune, tun);

  TransposeOptions tra;
  CLI::App* transpose = app.add_subcommand(
      "transpose", "run, time and verify one matrix-transpose variant (M x N in, N x M out)");
  transpose->add_option("--variant", tra.variant, "transpose variant (see `clreduce variants`)")
      ->required();
  transpose->add_option("--shape", tra.shape, "M x N: input rows x columns, e.g. 8192x8192, 2^11x512")
      ->capture_default_str();
  add_transpose_options(transpose, tra);

  for (auto* sub : app.get_subcommands({})) sub->fallthrough();
  bench_transpose->fallthrough();
  bench_access->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    if (*devices) return cmd_devices(dev, devices_format);
    if (app.got_subcommand("variants")) return cmd_variants();
    if (app.got_subcommand("doctor")) return cmd_doctor(dev);
    if (*soak) return cmd_soak(dev, soak_opt);
    if (*reduce) return cmd_reduce(dev, red);
    if (*bench_transpose || *bench_access) {
      // Options given to `bench` itself belong to the reduction benchmark, not to these.
      for (const CLI::Option* opt : bench->get_options())
        if (opt->count() > 0 && opt->get_name() != "--help")
          throw clreduce::Error("option " + opt->get_name() + " is for `bench` (the reduction " +
                                "benchmark), not for `bench " +
                                (*bench_transpose ? "transpose" : "access") + "`; see " +
                                "`clreduce bench " + (*bench_transpose ? "transpose" : "access") +
                                " --help`");
      return *bench_transpose ? cmd_bench_transpose(dev, btr) : cmd_bench_access(dev, bac);
    }
    if (*bench) return cmd_bench(dev, ben);
    if (*transpose) return cmd_transpose(dev, tra);
    if (*sweep) return cmd_sweep(dev, swp);
    if (*tune) return cmd_tune(dev, tun);
  } catch (const clreduce::Error& e) {
    std::cerr << "clreduce: error: " << e.what() << "\n";
    return 2;
  } catch (const cl::Error& e) {
    std::cerr << "clreduce: error: " << clreduce::describe(e) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "clreduce: error: out of host memory (try a smaller --n)\n";
    return 2;
  }
  return 2;
}
