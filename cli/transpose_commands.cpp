// `clreduce transpose` (one verified transpose), `clreduce bench transpose` (the family beside a
// device-to-device copy) and `clreduce bench access` (the access-pattern study).
#include "cli.hpp"
#include "clreduce/introspect.hpp"

#include <limits>

#include "benchmarks/access.hpp"
#include "benchmarks/family.hpp"
#include "benchmarks/transpose_bench.hpp"
#include "parse.hpp"
#include "printers/transpose_printer.hpp"

namespace clreduce::cli {

namespace {
struct TransposeTexts {  // shared by transpose and bench transpose
  std::string type = "float";
  std::optional<std::size_t> wg_x, wg_y;
  std::optional<unsigned> tile, rows, vec, band;
  std::vector<std::string> defines;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
};

void add_transpose_options(CLI::App* c, TransposeTexts& o) {
  c->add_option("--type", o.type, "element type: float, uint, int, double")->capture_default_str();
  c->add_option("--wg-x", o.wg_x, "work-group width (naive, naive_write_coalesced, register tiles)")
      ->check(whole_number(kMaxU32, "1, 2, 4, ... up to the device's maximum work-group size"));
  c->add_option("--wg-y", o.wg_y, "work-group height (same variants)")
      ->check(whole_number(kMaxU32, "1, 2, 4, ... up to the device's maximum work-group size"));
  c->add_option("--tile", o.tile, "tile edge TILE of the local-memory variants")
      ->check(whole_number(kMaxU32, "a tile edge 1, 2, 4, ... (see `clreduce variants`)"));
  c->add_option("--rows", o.rows, "work-group rows ROWS of local_tile_multi and local_tile_vector (divides TILE)")
      ->check(whole_number(kMaxU32, "a divisor of TILE"));
  c->add_option("--vec", o.vec, "elements per access VEC of local_tile_vector: 1, 2, 4 (divides TILE)")
      ->check(whole_number(kMaxU32, "1, 2 or 4"));
  c->add_option("--band", o.band, "local_tile_vector: groups take the tiles in bands of BAND tile columns (0: launch order)")
      ->check(whole_number(kMaxU32, "0, 1, 2, 4, 8, 16, 32 or 64"));
  c->add_option("-D,--define", o.defines, "NAME[=VALUE] passed to the kernel compiler");
  add_data_options(c, o.data);
  add_timing_options(c, o.timing);
  add_output_options(c, o.output);
}

TransposeConfig transpose_config_of(const TransposeTexts& o) {
  TransposeConfig cfg;
  cfg.type = parse_type(o.type);
  cfg.wg_x = o.wg_x;
  cfg.wg_y = o.wg_y;
  cfg.tile = o.tile;
  cfg.rows = o.rows;
  cfg.vec = o.vec;
  cfg.band = o.band;
  cfg.defines = transpose_defines_of(o.defines);
  return cfg;
}

struct OneTransposeTexts : TransposeTexts {
  std::string variant;
  std::string shape = "2048x512";
};

int transpose(const GlobalOptions& g, const OneTransposeTexts& o) {
  const Session session = make_session(g);
  TransposeConfig cfg = transpose_config_of(o);
  cfg.variant = find_transpose_variant(o.variant).name;
  const auto [m, n] = parse_shape(o.shape);
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output);
  TransposerOptions topt;
  topt.params = cfg;
  introspect::prepare(session.transposer(topt), cfg.type, m, n);  // validate before generating data
  const HostData data = generate_data(cfg.type, m * n, parse_data_kind(o.data.data), o.data.seed);
  const TransposeReport r = run_transpose(session, cfg, data, m, n, timing);
  emit(transpose_text(r, session.device()), transpose_csv(r), transpose_json(r, session.device()), o.output);
  return r.ok() ? 0 : 1;
}

struct BenchTransposeTexts : TransposeTexts {
  std::vector<std::string> shapes, variants;
  LongRunTexts long_run;
};

int bench_transpose(const GlobalOptions& g, const BenchTransposeTexts& o) {
  const Session session = make_session(g);
  const TransposeConfig cfg = transpose_config_of(o);
  TransposeBenchOptions b;
  b.type = cfg.type;
  b.given = cfg;
  b.shapes = shapes_of("--shapes", o.shapes);
  for (const auto& v : o.variants) b.variants.push_back(find_transpose_variant(v).name);
  b.data = parse_data_kind(o.data.data);
  b.seed = o.data.seed;
  b.timing = timing_of(o.timing);
  check_outputs(o.output);
  for (const auto& shape : b.shapes) {  // before calibrating; a shape's own refusal names --shapes, others stand
    try {
      introspect::prepare(session.transposer({}), b.type, shape.first, shape.second);
    } catch (const Error& e) {
      if (e.param() != Param::Shape) throw;
      throw Error(Param::None, "--shapes: " + std::string(e.what()), e.valid(), e.device());
    }
  }
  std::uint64_t largest = 0;
  for (const auto& [m, n] : b.shapes.empty() ? default_transpose_shapes() : b.shapes) largest = std::max(largest, m * n);
  const Calibration cal = calibrate(session, b.type, Op::Sum, b.data, largest, true);
  if (!announce(estimate_transpose_bench(cal, b, session.clock()), o.long_run, "fewer --shapes, --variants or --iterations"))
    return 0;
  const TransposeBenchReport r = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return run_transpose_bench(session, b, std::ref(progress));
  }();
  emit(transpose_bench_text(r, session.device()), transpose_bench_csv(r), transpose_bench_json(r, session.device()),
       o.output);
  return r.all_ok() ? 0 : 1;
}

struct AccessTexts {
  LongRunTexts long_run;
  std::optional<std::string> n;
  std::optional<std::size_t> wg;
  std::optional<std::uint64_t> groups;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
};

int bench_access(const GlobalOptions& g, const AccessTexts& o) {
  const Session session = make_session(g);
  AccessOptions a;
  a.wg = wg_of(o.wg);
  a.groups = o.groups;
  a.timing = timing_of(o.timing);
  check_outputs(o.output);
  const std::uint64_t n = o.n ? parse_size(*o.n) : default_bench_n(session.device());
  check_allocation(n, ElemType::Uint, session.device());
  const DataKind kind = parse_data_kind(o.data.data);
  const Calibration cal = calibrate(session, ElemType::Uint, Op::Sum, kind, n, true);
  if (!announce(estimate_access(cal, n, a.timing, session.clock()), o.long_run, "a smaller --n or --iterations"))
    return 0;
  const HostData data = generate_data(ElemType::Uint, n, kind, o.data.seed);
  const AccessReport r = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return run_access(session, data, a, std::ref(progress));
  }();
  emit(access_text(r, session.device()), access_csv(r), access_json(r, session.device()), o.output);
  return r.all_ok() ? 0 : 1;
}
}  // namespace

void register_transpose_commands(Cli& cli) {
  auto t = std::make_shared<OneTransposeTexts>();
  CLI::App* tr = cli.add("transpose", "run, time and verify one matrix-transpose variant (M x N in, N x M out)",
                         [&cli, t] { return transpose(cli.global(), *t); });
  tr->add_option("--variant", t->variant, "transpose variant (see `clreduce variants`)")->required();
  tr->add_option("--shape", t->shape, "M x N: input rows x columns, e.g. 8192x8192, 2^11x512")->capture_default_str();
  add_transpose_options(tr, *t);

  CLI::App* bench = cli.find("bench");
  auto bt = std::make_shared<BenchTransposeTexts>();
  CLI::App* btr = cli.add(
      "transpose", "benchmark every transpose variant beside a device-to-device copy",
      [&cli, bench, bt] {
        refuse_parent_options(bench, "the reduction benchmark", "transpose");
        return bench_transpose(cli.global(), *bt);
      },
      bench);
  btr->add_option("--shapes", bt->shapes, "MxN shapes, comma-separated (default 2048x512,8192x8192)")->delimiter(',');
  btr->add_option("--variants", bt->variants, "only these transpose variants")->delimiter(',');
  add_transpose_options(btr, *bt);
  add_long_run_options(btr, bt->long_run);

  auto ac = std::make_shared<AccessTexts>();
  CLI::App* acc = cli.add(
      "access", "the access-pattern study: sum of cubes, contiguous vs interleaved reads",
      [&cli, bench, ac] {
        refuse_parent_options(bench, "the reduction benchmark", "access");
        return bench_access(cli.global(), *ac);
      },
      bench);
  acc->add_option("--n", ac->n, "uint elements (default 2^26 on a GPU, 2^22 elsewhere)");
  acc->add_option("--wg", ac->wg, "work-group size (power of two, default 256)")
      ->check(whole_number(kMaxU32, "a power of two 1, 2, 4, ... up to the device's maximum work-group size"));
  acc->add_option("--groups", ac->groups, "work-groups (default: 2048 work-items per compute unit)")
      ->check(whole_number(std::numeric_limits<std::uint64_t>::max(), "1 or more work-groups"));
  add_data_options(acc, ac->data);
  add_timing_options(acc, ac->timing);
  add_output_options(acc, ac->output);
  add_long_run_options(acc, ac->long_run);
}

}  // namespace clreduce::cli
