// `clreduce bench` (the family on one input) and `clreduce bench --sizes` (each variant's best
// candidate at each size): both declared for the measuring engine and rendered by their printers.
#include "cli.hpp"

#include "benchmarks/family.hpp"
#include "benchmarks/sizes.hpp"
#include "measure/engine.hpp"
#include "printers/family_printer.hpp"
#include "printers/result_charts.hpp"
#include "printers/sizes_printer.hpp"

namespace clreduce::cli {

namespace {
struct BenchTexts : RunTexts {
  LongRunTexts long_run;
  CacheTexts cache;
  std::optional<std::string> chart;
  std::vector<std::string> variants, sizes;
};

// What both forms share: the engine's design without its points.
Design design_of(const Session& session, const BenchTexts& o) {
  Design d;
  const CacheChoice cache = cache_of(o.cache, o.timing);
  d.warm = cache.warm;
  d.cold = cache.cold;
  if (o.chart && d.warm && d.cold)
    throw Error("--chart draws one cache; give --cache warm or --cold with --chart (or drop --chart)");
  if (!o.op_file) {  // a descriptor's type or built-in, argmin/argmax: refused with where they run
    variants_type(o.type);
    whole_array_op(o.op);
  }
  refuse_descriptor_file(o.op_file);
  const OpChoice choice = op_choice(o);
  d.type = choice.type;
  d.op = choice.op;
  d.user_op = choice.user_op;
  d.variants = variant_names_of(o.variants);
  d.data = parse_data_kind(o.data.data);
  d.seed = o.data.seed;
  d.timing = timing_of(o.timing);
  check_outputs(o.output, named("--chart", o.chart), inputs_of(o));
  d.tuning = tuning_of(o.tuning);
  if (d.cold) d.evict = session.cache_evictor();
  return d;
}

void warn_launches(const Run& run) {
  for (const auto& s : run.sizes)
    for (const auto& v : s.variants)
      for (const auto& m : v.points)
        if (m.report) warn_once(m.report->warnings);
}

int bench_sizes(const Session& session, const BenchTexts& o) {
  if (o.n || o.input)
    throw Error(Param::N, "--sizes sweeps generated data of each size; give either --sizes or --n/--input");
  if (o.launch.params.times || o.launch.params.groups_per_cu || o.launch.params.vec)
    throw Error("--sizes searches TIMES, groups per compute unit and VEC itself; drop --times, "
                "--groups-per-cu and --vec (--wg fixes the work-group size)");
  Design d = design_of(session, o);
  d.sizes = sizes_of(o.sizes);
  d.defines = defines_of(o.launch.defines);
  d.points = sizes_points(session.device(), d.type, o.launch.params.wg, d.tuning.enabled);
  const Run run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure(session, d, watch_of(o.long_run, progress, "fewer --sizes, --variants or --iterations"));
  }();
  if (o.long_run.estimate) return 0;
  warn_launches(run);
  const DeviceInfo& dev = session.device();
  const BandwidthUnit units = parse_bandwidth_unit(o.cache.units);  // checked by design_of
  emit(sizes_text(run, dev, units), sizes_csv(run, dev, units), sizes_json(run, dev), o.output);
  if (o.chart) write_chart(o.output, *o.chart, render_svg(scaling_chart(run, dev)));
  return run.all_ok() ? 0 : 1;
}

int bench(const GlobalOptions& g, const BenchTexts& o) {
  refuse_extra_inputs(o);
  const Session session = make_session(g);
  if (!o.sizes.empty()) return bench_sizes(session, o);
  Design d = design_of(session, o);
  if (d.warm && d.cold)
    throw Error("--cache warm,cold measures both with --sizes only; run bench once warm and once --cold");
  ReduceParams given = o.launch.params;
  given.defines = defines_of(o.launch.defines);
  d.points = family_points(given, d.tuning.enabled);
  const HostData data = input_of(o.n, o.input, o.data, d.type, session.device(),
                                 default_bench_n(session.device()), /*chunks_ok=*/false);
  d.input = &data;
  const Run run = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return measure(session, d, watch_of(o.long_run, progress, "a smaller --n, fewer --variants or --iterations"));
  }();
  if (o.long_run.estimate) return 0;
  warn_launches(run);
  const DeviceInfo& dev = session.device();
  const BandwidthUnit units = parse_bandwidth_unit(o.cache.units);  // checked by design_of
  emit(bench_text(run, dev, units), bench_csv(run, units), bench_json(run, dev), o.output);
  if (o.chart) write_chart(o.output, *o.chart, render_svg(bench_chart(run, dev)));
  return run.all_ok() ? 0 : 1;
}
}  // namespace

void register_bench_commands(Cli& cli) {
  auto o = std::make_shared<BenchTexts>();
  CLI::App* c = cli.add("bench", "benchmark every variant on one input beside the measured read bandwidth",
                        [&cli, o] { return bench(cli.global(), *o); });
  c->add_option("--variants", o->variants, "only these variants (comma-separated)")->delimiter(',');
  c->add_option("--sizes", o->sizes,
                "sweep these sizes (comma-separated sizes or ranges A..B[:F], e.g. 2^20,2^24 or "
                "1K..1G:4): each variant's best configuration at each size, timed back-to-back and "
                "one call at a time")
      ->delimiter(',');
  c->add_option("--chart", o->chart,
                "write an SVG chart: GB/s per variant with the read peak, or with --sizes time and "
                "GB/s against n");
  add_run_options(c, *o, "; default 2^26 on a GPU, 2^22 elsewhere");
  add_long_run_options(c, o->long_run);
  add_noise_options(c, o->timing);
  add_cache_options(c, o->cache);
  c->require_subcommand(0, 1);
}

}  // namespace clreduce::cli
