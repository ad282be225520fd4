// clreduce subcommands: devices, variants, reduce, bench.
#include "commands.hpp"

#include "benchmarks/family.hpp"
#include "printers/charts.hpp"
#include "printers/grid_printer.hpp"
#include "printers/progress_bar.hpp"
#include "printers/result_charts.hpp"
#include "benchmarks/tune.hpp"
#include "doctor.hpp"
#include "benchmarks/soak.hpp"
#include "clreduce/error.hpp"
#include "printers/report.hpp"
#include "printers/transpose_printer.hpp"
#include "clreduce/transpose.hpp"
#include "printers/sizes_printer.hpp"
#include "clreduce/variants.hpp"

#include <chrono>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <iostream>
#include <unistd.h>

namespace clreduce::cli {

namespace {
Runtime make_runtime(const DeviceOptions& d) {
  DeviceSelector sel{d.platform, d.device};
  DeviceInfo dev = select_device(sel);
  return d.kernel_dir ? Runtime(dev, *d.kernel_dir) : Runtime(dev);
}

// Reports progress on stderr when it is a terminal; clears the line when destroyed.
struct Progress {
  bool tty = isatty(STDERR_FILENO);
  void operator()(const std::string& what) const {
    if (tty) std::cerr << "\rmeasuring " << what << "...                    " << std::flush;
  }
  ~Progress() {
    if (tty) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  }
};

std::vector<Define> parse_defines(const std::vector<std::string>& texts) {
  std::vector<Define> out;
  for (const auto& t : texts) out.push_back(parse_define(t));
  return out;
}

// Every size of comma-split --sizes items (lists and ranges, parse_size_list).
std::vector<std::uint64_t> sizes_of(const std::vector<std::string>& texts) {
  std::vector<std::uint64_t> out;
  for (const auto& text : texts)
    for (std::uint64_t n : parse_size_list(text)) out.push_back(n);
  return out;
}

// The registry's names of the variants the user named (validated; empty stays empty: all).
std::vector<std::string> variant_names_of(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  for (const auto& t : texts) out.push_back(find_variant(t).name);
  return out;
}

std::size_t wg_of(const std::optional<std::size_t>& wg) {
  if (wg && *wg == 0) throw Error("work-group size 0 is invalid; use a power of two 1, 2, 4, ...");
  return wg.value_or(0);  // 0: the default
}

template <class O>  // RunOptions or MeasureOptions
TimingOptions timing_of(const O& o) {
  TimingOptions t;
  t.warmup = o.warmup;
  t.repetitions = o.iterations;
  t.batch = o.batch.value_or(0);
  if (o.iterations == 0) throw Error("--iterations must be at least 1");
  return t;
}

// The input: the user's file, or generated data; n validated against the device first (against
// one allocation, or against the device memory where the job reduces in chunks).
HostData input_of(const std::optional<std::string>& n_text, const std::optional<std::string>& input,
                  const std::string& data_kind, std::uint64_t seed, ElemType type,
                  const DeviceInfo& dev, std::optional<std::uint64_t> default_n, bool chunks_ok) {
  const auto check = [&](std::uint64_t n) {
    if (chunks_ok) check_device_memory(n, type, dev);
    else check_allocation(n, type, dev);
  };
  std::optional<std::uint64_t> n;
  if (n_text) n = parse_size(*n_text);
  if (input) {
    if (n) check(*n);
    HostData d = read_data_file(*input, type, n);
    check(d.n);
    return d;
  }
  if (!n) n = default_n;
  if (!n) throw Error("--n is required (or --input FILE)");
  check(*n);
  return generate_data(type, *n, parse_data_kind(data_kind), seed);
}

HostData input_of(const RunOptions& o, ElemType type, const DeviceInfo& dev,
                  std::optional<std::uint64_t> default_n, bool chunks_ok = false) {
  return input_of(o.n, o.input, o.data, o.seed, type, dev, default_n, chunks_ok);
}

void warn(const std::string& text) { std::cerr << "clreduce: warning: " << text << "\n"; }

// The tuning database for reduce and bench (and the size sweep): loaded unless --no-tuning;
// every warning (malformed, foreign device, stale driver) goes to stderr once.
struct Tuning {
  LoadedTuningDb db;
  bool enabled = false;
  std::set<std::string> warned;
  void say(const std::vector<std::string>& warnings) {
    for (const auto& w : warnings)
      if (warned.insert(w).second) warn(w);
  }
  // The tuned parameters of a variant, if the database has them for this device, type and op.
  std::optional<TunedParams> params(const DeviceInfo& dev, ElemType t, Op op, const std::string& variant) {
    if (!enabled) return std::nullopt;
    const TunedLookup l = find_tuned(db, dev, t, op, variant);
    say(l.warnings);
    if (!l.variant) return std::nullopt;
    return l.variant->params;
  }
  // The tuned parameters of every registered variant that has them.
  std::map<std::string, TunedParams> all(const DeviceInfo& dev, ElemType t, Op op) {
    std::map<std::string, TunedParams> out;
    for (const auto& v : variants())
      if (auto p = params(dev, t, op, v.name)) out[v.name] = *p;
    return out;
  }
};

Tuning load_tuning(const std::optional<std::string>& db_flag, bool no_tuning) {
  Tuning t;
  if (no_tuning) {
    if (db_flag) throw Error("--db and --no-tuning contradict each other; give one");
    return t;
  }
  t.db = load_tuning_db(tuning_db_path(db_flag), tuning_db_path_is_explicit(db_flag));
  t.say(t.db.warnings);
  t.enabled = t.db.db.has_value();
  return t;
}

void write_chart(const std::string& path, const std::string& svg) {
  write_text_file(path, svg);
  std::cerr << "clreduce: chart written to " << path << "\n";
}

// A list of positive parameter values from `--option TEXT` (parse_size_list syntax).
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

template <class O>  // RunOptions or MeasureOptions
void emit(const std::string& text_table, const std::string& csv, const nlohmann::json& j,
          const O& o) {
  const Format f = parse_format(o.format);
  if (f == Format::Table) std::cout << text_table;
  if (f == Format::Csv) std::cout << csv;
  if (f == Format::Json) std::cout << j.dump(2) << "\n";
  if (o.output_json) {
    std::ofstream out(*o.output_json);
    if (!out) throw Error("cannot write --output-json file '" + *o.output_json + "'");
    out << j.dump(2) << "\n";
  }
  if (o.output_csv) {
    std::ofstream out(*o.output_csv);
    if (!out) throw Error("cannot write --output-csv file '" + *o.output_csv + "'");
    out << csv;
  }
}
}  // namespace

int cmd_devices(const DeviceOptions&, const std::string& format) {
  const auto all = list_devices();
  const Format f = parse_format(format);
  if (f == Format::Json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& d : all) j.push_back(device_json(d));
    std::cout << j.dump(2) << "\n";
  } else if (f == Format::Csv) {
    TextTable t;
    for (const auto& d : all) {
      const nlohmann::json j = device_json(d);
      if (t.headers.empty())
        for (const auto& [key, value] : j.items()) t.headers.push_back(key);
      std::vector<std::string> row;
      for (const auto& [key, value] : j.items())
        row.push_back(value.is_string() ? value.get<std::string>() : value.dump());
      t.rows.push_back(row);
    }
    std::cout << t.render_csv();
  } else {
    std::cout << devices_text(all);
    const DeviceInfo def = select_device(all, {});
    std::cout << "default device: " << def.platform_index << ":" << def.device_index << " " << def.name
              << "\n";
  }
  return 0;
}

int cmd_variants() {
  TextTable t;
  t.headers = {"variant", "literature", "what it does", "parameters"};
  for (const auto& v : variants()) {
    std::string params = "WG";
    if (v.uses_times)
      params += v.default_fills_device ? std::string(", TIMES (default: from n and the grid)")
                                       : ", TIMES (default " + std::to_string(v.default_times) + ")";
    if (v.uses_vec) params += ", VEC (default " + std::to_string(v.default_vec) + ")";
    if (v.uses_lockstep) params += ", LOCKSTEP from device";
    if (v.uses_nv_ptx) params += ", NV_PTX and WARP from device";
    if (v.default_fills_device) params += ", default grid fills the device once (occupancy)";
    if (v.single_pass) params += ", one launch (ticket counter)";
    t.rows.push_back({v.name, v.literature, v.summary, params});
  }
  std::cout << "reduction variants (clreduce reduce / bench)\n" << t.render_text();
  TextTable tt;
  tt.headers = {"transpose variant", "what it does", "trade-off", "parameters"};
  for (const auto& v : transpose_variants()) {
    const std::string params = v.shape == TransposeShape::Free
                                   ? "WG_X x WG_Y (default " + std::to_string(v.default_wg_x) + "x" +
                                         std::to_string(v.default_wg_y) + ")"
                               : v.shape == TransposeShape::Tile
                                   ? "TILE (default " + std::to_string(v.default_tile) + "), group TILE x TILE"
                                   : "TILE (default " + std::to_string(v.default_tile) + "), ROWS (default " +
                                         std::to_string(v.default_rows) + "), group TILE x ROWS";
    tt.rows.push_back({v.name, v.summary, v.tradeoff, params});
  }
  std::cout << "\ntranspose variants (clreduce transpose / bench transpose)\n" << tt.render_text();
  TextTable at;
  at.headers = {"access pattern", "kernel", "which elements a work-item reads"};
  for (const auto& p : access_patterns()) at.rows.push_back({p.name, p.kernel, p.summary});
  std::cout << "\naccess patterns (clreduce bench access)\n" << at.render_text();
  return 0;
}

int cmd_reduce(const DeviceOptions& d, const ReduceOptions& o) {
  Runtime rt = make_runtime(d);
  ReduceConfig cfg;
  cfg.variant = find_variant(o.variant).name;
  cfg.type = parse_type(o.type);
  cfg.op = parse_op(o.op);
  cfg.wg = wg_of(o.wg);
  cfg.times = o.times;
  cfg.groups_per_cu = o.groups_per_cu;
  cfg.vec = o.vec;
  cfg.defines = parse_defines(o.defines);
  const TimingOptions timing = timing_of(o);
  parse_format(o.format);
  // Validate the configuration before generating (possibly large) data.
  // (n over one allocation is reduced in chunks: the plan is checked for one chunk.)
  const std::uint64_t n_planned = o.n ? parse_size(*o.n) : 1;
  if (n_planned > 0) check_device_memory(n_planned, cfg.type, rt.device());
  plan_reduction(cfg, rt.device(), std::min(n_planned, chunk_elements(cfg.type, rt.device())));
  Tuning tuning = load_tuning(o.db, o.no_tuning);
  std::vector<std::string> tuned;
  std::string refused;
  if (auto p = tuning.params(rt.device(), cfg.type, cfg.op, cfg.variant)) {
    tuned = apply_tuned_checked(*p, cfg, rt.device(), n_planned, &refused);
    if (!refused.empty()) warn("the tuned parameters of " + cfg.variant + " do not plan here (" + refused + "); the defaults are used");
  }
  const HostData data = input_of(o, cfg.type, rt.device(), std::nullopt, /*chunks_ok=*/true);
  ReduceReport r = run_reduce(rt, cfg, data, timing);
  r.tuned = tuned;
  if (!tuned.empty()) r.tuned_from = tuning.db.path;
  emit(reduce_text(r, rt.device()), reduce_csv(r), reduce_json(r, rt.device()), o);
  return r.ok() ? 0 : 1;
}

namespace {
int cmd_bench_sizes(const DeviceOptions& d, const BenchOptions& o) {
  if (o.n || o.input)
    throw Error("--sizes sweeps generated data of each size; give either --sizes or --n/--input");
  if (o.times || o.groups_per_cu || o.vec)
    throw Error("--sizes searches TIMES, groups per compute unit and VEC itself; drop --times, "
                "--groups-per-cu and --vec (--wg fixes the work-group size)");
  Runtime rt = make_runtime(d);
  SweepOptions s;
  s.type = parse_type(o.type);
  s.op = parse_op(o.op);
  s.sizes = sizes_of(o.sizes);
  s.variants = variant_names_of(o.variants);
  s.wg = wg_of(o.wg);
  s.defines = parse_defines(o.defines);
  s.data = parse_data_kind(o.data);
  s.seed = o.seed;
  s.timing = timing_of(o);
  parse_format(o.format);
  Tuning tuning = load_tuning(o.db, o.no_tuning);
  s.tuned = tuning.all(rt.device(), s.type, s.op);
  s.tuned_from = tuning.db.path;
  const SweepReport r = [&] {
    Progress progress;
    return run_sweep(rt, s, progress);
  }();
  emit(sweep_text(r, rt.device()), sweep_csv(r, rt.device()), sweep_json(r, rt.device()), o);
  if (o.chart) write_chart(*o.chart, render_svg(scaling_chart(r, rt.device())));
  return r.all_ok() ? 0 : 1;
}
}  // namespace

int cmd_bench(const DeviceOptions& d, const BenchOptions& o) {
  if (!o.sizes.empty()) return cmd_bench_sizes(d, o);
  Runtime rt = make_runtime(d);
  clreduce::BenchOptions b;
  b.type = parse_type(o.type);
  b.op = parse_op(o.op);
  b.wg = wg_of(o.wg);
  b.times = o.times;
  b.groups_per_cu = o.groups_per_cu;
  b.vec = o.vec;
  b.defines = parse_defines(o.defines);
  b.variants = variant_names_of(o.variants);
  b.timing = timing_of(o);
  parse_format(o.format);
  Tuning tuning = load_tuning(o.db, o.no_tuning);
  b.tuned = tuning.all(rt.device(), b.type, b.op);
  b.tuned_from = tuning.db.path;
  const HostData data = input_of(o, b.type, rt.device(), default_bench_n(rt.device()));
  const BenchReport r = [&] {
    Progress progress;
    return run_bench(rt, b, data, progress);
  }();
  emit(bench_text(r, rt.device()), bench_csv(r), bench_json(r, rt.device()), o);
  if (o.chart) write_chart(*o.chart, render_svg(bench_chart(r, rt.device())));
  return r.all_ok() ? 0 : 1;
}

namespace {
// The transpose options a variant takes; the tiled ones ignore --wg-x/--wg-y and vice versa in
// `bench transpose`, while `transpose` passes everything so the planner can name a misuse.
TransposeConfig transpose_config_of(const TransposeShapeOptions& o) {
  TransposeConfig cfg;
  cfg.type = parse_type(o.type);
  cfg.wg_x = o.wg_x;
  cfg.wg_y = o.wg_y;
  cfg.tile = o.tile;
  cfg.rows = o.rows;
  cfg.defines = parse_defines(o.defines);
  return cfg;
}

}  // namespace

int cmd_sweep(const DeviceOptions& d, const SweepCliOptions& o) {
  Runtime rt = make_runtime(d);
  GridSweepOptions g;
  g.type = parse_type(o.type);
  g.op = parse_op(o.op);
  g.variants = variant_names_of(o.variants);
  g.axes = axes_of(o.grid);
  g.defines = parse_defines(o.defines);
  g.timing = timing_of(o);
  parse_format(o.format);
  const GridParam cx = parse_grid_param(o.chart_x), cy = parse_grid_param(o.chart_y);
  if (o.chart) {
    check_heat_map_axes(cx, cy);
    check_heat_map_variants(g.variants, cx, cy, o.chart_variant.value_or(""));
  } else if (o.chart_variant) {
    throw Error("--chart-variant needs --chart FILE.svg");
  }
  const HostData data = input_of(o.n, o.input, o.data, o.seed, g.type, rt.device(),
                                 default_bench_n(rt.device()), false);
  const GridSweep r = [&] {
    ProgressBar bar(o.quiet);
    return run_grid_sweep(rt, g, data, std::ref(bar));
  }();
  emit(grid_sweep_text(r, rt.device()), grid_sweep_csv(r), grid_sweep_json(r, rt.device()), o);
  if (o.chart)
    write_chart(*o.chart, render_svg(grid_heat_map(r, rt.device(), cx, cy, o.chart_variant.value_or(""))));
  return r.all_ok() ? 0 : 1;
}

int cmd_tune(const DeviceOptions& d, const TuneCliOptions& o) {
  Runtime rt = make_runtime(d);
  TuneOptions t;
  t.type = parse_type(o.type);
  t.op = parse_op(o.op);
  t.sizes = sizes_of(o.sizes);
  t.variants = variant_names_of(o.variants);
  t.axes = axes_of(o.grid);
  t.data = parse_data_kind(o.data);
  t.seed = o.seed;
  t.timing = timing_of(o);
  parse_format(o.format);
  const std::string path = tuning_db_path(o.db);
  const TuneReport r = [&] {
    ProgressBar bar(o.quiet);
    return run_tune(rt, t, std::ref(bar));
  }();
  emit(tune_text(r, rt.device()), tune_csv(r), tune_json(r, rt.device()), o);
  if (!r.all_ok()) {
    std::cerr << "clreduce: some points failed their check; the tuning database is not written\n";
    return 1;
  }
  if (o.dry_run) {
    std::cerr << "clreduce: --dry-run: the tuning database " << path << " is not written\n";
    return 0;
  }
  std::vector<std::string> warnings;
  save_tuning_entry(path, device_key(rt.device()), r.entry, warnings);
  for (const auto& w : warnings) warn(w);
  std::cerr << "clreduce: tuning database " << path << " updated: " << describe(device_key(rt.device()))
            << ", " << name_of(t.type) << " " << name_of(t.op) << ", " << r.entry.variants.size()
            << " variants tuned\n";
  return 0;
}

int cmd_doctor(const DeviceOptions& d) {
  const DoctorReport r = run_doctor(DeviceSelector{d.platform, d.device});
  std::cout << doctor_text(r);
  return r.ok() ? 0 : 1;
}

int cmd_soak(const DeviceOptions& d, const SoakCliOptions& o) {
  Runtime rt = make_runtime(d);
  SoakOptions s;
  if (!(o.seconds > 0)) throw Error("--seconds must be positive");
  s.seconds = o.seconds;
  s.seed = o.seed ? o.seed
                  : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  if (o.max_n) s.max_n = parse_size(*o.max_n);
  if (o.max_wg) s.max_wg = *o.max_wg;
  const bool tty = isatty(STDERR_FILENO);
  const SoakReport r = run_soak(rt, s, [&](const SoakReport& p) {
    if (o.verbose)
      std::cerr << p.current << "\n";
    else if (tty)
      std::cerr << "\rsoak: " << static_cast<int>(p.seconds) << " s, " << p.checked << " checked, "
                << p.skipped << " skipped   " << std::flush;
  });
  if (tty) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  std::cout << soak_text(r, rt.device());
  return r.failed ? 1 : 0;
}

int cmd_transpose(const DeviceOptions& d, const TransposeOptions& o) {
  Runtime rt = make_runtime(d);
  TransposeConfig cfg = transpose_config_of(o);
  cfg.variant = find_transpose_variant(o.variant).name;
  const auto [m, n] = parse_shape(o.shape);
  const TimingOptions timing = timing_of(o);
  parse_format(o.format);
  plan_transpose(cfg, rt.device(), m, n);  // validate before generating data
  const HostData data = generate_data(cfg.type, m * n, parse_data_kind(o.data), o.seed);
  const TransposeReport r = run_transpose(rt, cfg, data, m, n, timing);
  emit(transpose_text(r, rt.device()), transpose_csv(r), transpose_json(r, rt.device()), o);
  return r.ok() ? 0 : 1;
}

int cmd_bench_transpose(const DeviceOptions& d, const BenchTransposeOptions& o) {
  Runtime rt = make_runtime(d);
  const TransposeConfig cfg = transpose_config_of(o);
  TransposeBenchOptions b;
  b.type = cfg.type;
  b.wg_x = cfg.wg_x;
  b.wg_y = cfg.wg_y;
  b.tile = cfg.tile;
  b.rows = cfg.rows;
  b.defines = cfg.defines;
  for (const auto& s : o.shapes) b.shapes.push_back(parse_shape(s));
  for (const auto& v : o.variants) b.variants.push_back(find_transpose_variant(v).name);
  b.data = parse_data_kind(o.data);
  b.seed = o.seed;
  b.timing = timing_of(o);
  parse_format(o.format);
  const TransposeBenchReport r = [&] {
    Progress progress;
    return run_transpose_bench(rt, b, progress);
  }();
  emit(transpose_bench_text(r, rt.device()), transpose_bench_csv(r),
       transpose_bench_json(r, rt.device()), o);
  return r.all_ok() ? 0 : 1;
}

int cmd_bench_access(const DeviceOptions& d, const BenchAccessOptions& o) {
  Runtime rt = make_runtime(d);
  AccessOptions a;
  a.wg = wg_of(o.wg);
  a.groups = o.groups;
  a.timing = timing_of(o);
  parse_format(o.format);
  const std::uint64_t n = o.n ? parse_size(*o.n) : default_bench_n(rt.device());
  check_allocation(n, ElemType::Uint, rt.device());
  const HostData data = generate_data(ElemType::Uint, n, parse_data_kind(o.data), o.seed);
  const AccessReport r = run_access(rt, data, a);
  emit(access_text(r, rt.device()), access_csv(r), access_json(r, rt.device()), o);
  return r.all_ok() ? 0 : 1;
}

}  // namespace clreduce::cli
