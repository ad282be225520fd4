// The clreduce command line: the registry every command file adds its CLI11 subcommand to, and
// what the commands share (the device options, timing and output options, the tuning database,
// the input data, the mapping of the library's parameters to this program's options).
// Options are taken as typed text and parsed by the library or the tools, so every message about
// a value is theirs; each command file registers its subcommand next to its handler.
#pragma once

#include "clreduce/error.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/timing.hpp"
#include "parse.hpp"
#include "data/host_data.hpp"
#include "data/output_file.hpp"
#include "benchmarks/descriptor_bench.hpp"
#include "measure/engine.hpp"
#include "measure/estimate.hpp"
#include "measure/session.hpp"
#include "measure/progress.hpp"
#include "printers/table.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clreduce::cli {

// Options before the subcommand: which device, which kernels.
struct GlobalOptions {
  std::optional<std::size_t> platform;
  std::optional<std::string> device;
  std::optional<std::string> kernel_dir;
  bool trust_device_wg = false;  // --trust-device-wg: CLREDUCE_TRUST_DEVICE_WG=1 for this run
  std::optional<std::string> kernel_timeout;  // --kernel-timeout SECONDS (the watchdog's limit)
};


class Cli {
 public:
  Cli();
  CLI::App& app() { return app_; }
  const GlobalOptions& global() const { return global_; }
  // Adds a subcommand (to the app, or to `parent`) whose handler runs when it was given; returns
  // it for its options. Handlers return the exit code (0 all checks passed, 1 a check failed).
  CLI::App* add(const std::string& name, const std::string& help, std::function<int()> handler,
                CLI::App* parent = nullptr);
  CLI::App* find(const std::string& name);
  // Parses and runs; maps every clreduce::Error to one line on stderr and exit code 2.
  int run(int argc, char** argv);

 private:
  CLI::App app_;
  GlobalOptions global_;
  std::vector<std::pair<CLI::App*, std::function<int()>>> handlers_;
};

// A CLI11 check for an unsigned option: the text must be a whole number (no sign) no larger than
// `most`, else "'-1' is negative; valid: <valid>" (CLI11 puts the option in front). The library
// checks the finer limits (a power of two, the device's maximum) once the value is taken.
constexpr std::uint64_t kMaxU32 = 0xffffffffULL;
CLI::Validator whole_number(std::uint64_t most, const std::string& valid);
// The same for a work-group size: also refuses 0 ("work-group size 0 is invalid; ..."), so that a
// parsed 0 can mean "not given".
CLI::Validator work_group_size();

// The command files' registration functions (main calls each once).
void register_info_commands(Cli& cli);       // devices, variants, doctor
void register_reduce_command(Cli& cli);      // reduce
void register_bench_commands(Cli& cli);      // bench, bench --sizes
void register_explore_commands(Cli& cli);    // sweep, tune
void register_transpose_commands(Cli& cli);  // transpose, bench transpose, bench access
void register_axis_bench_command(Cli& cli);  // bench axis
void register_descriptor_bench_command(Cli& cli);  // bench descriptors
void register_descriptor_tune_command(Cli& cli);   // tune descriptors (after register_explore_commands)
void register_multi_bench_command(Cli& cli); // bench multi
void register_soak_command(Cli& cli);        // soak
void register_explain_command(Cli& cli);     // explain, explain transpose
void register_compare_command(Cli& cli);     // compare
void register_report_command(Cli& cli);      // report

// The `meta` object every JSON output carries (cli/meta.cpp): the tool's version and git commit
// (read at build time; "unknown" outside a checkout), the date the command started (ISO 8601,
// UTC), the command line, the device, platform and driver and the FNV-1a 64-bit hash of the
// kernel directory's .cl/.clh files (names and contents, in name order) once a session is made
// (note_session) or the devices of a multi-device run are chosen (note_devices: "devices", one
// entry each, in place of "device"), and the units. emit() adds it to a JSON object that has none.
void note_command_line(int argc, char** argv);
void note_session(const Session& s);
void note_devices(const std::vector<DeviceInfo>& devices, const KernelDir& kernels);
// The bandwidth unit of this run's text and CSV (bench --units): meta's units.text_bandwidth.
void note_units(BandwidthUnit u);
// "kernels: DIR (from ORIGIN; N files, fnv1a64 H)\n" of the run's kernel directory, where a
// session or device list was noted; "" otherwise. The text output's last line.
std::string kernels_line();
// The kernel directory a saved run's meta names (report renders the run's own kernels line).
void note_saved_kernels(const nlohmann::json& meta);
nlohmann::json meta_json();

// This program's option for a library parameter ("--wg" for Param::WorkGroupSize), or "".
std::string option_of(Param p);

// The session on the device the global options name.
Session make_session(const GlobalOptions& g);

// Timing options as typed (--iterations, --warmup, --batch).
struct TimingTexts {
  unsigned iterations = 10, warmup = 2;
  std::optional<unsigned> batch;
  std::optional<double> max_noise, min_time, max_time;  // --max-noise P, --min-time S, --max-time S
};
void add_timing_options(CLI::App* c, TimingTexts& t);
// --max-noise, --min-time and --max-time (where a command offers noise-based stopping).
void add_noise_options(CLI::App* c, TimingTexts& t);
constexpr double kDefaultMaxTime = 10;   // seconds of sampling per launch under --max-noise
constexpr double kMostTime = 3600;       // --min-time and --max-time at most
// Refuses --iterations 0 and --batch outside 1..kMaxBatch. --iterations and --warmup are at most
// kMaxIterations (every sample is kept to take its median: 10^6 of them are 8 MB).
constexpr unsigned kMaxBatch = 100000;
constexpr unsigned kMaxIterations = 1000000;
// Also refuses --max-noise outside (0, 100], --min-time/--max-time outside [0, kMostTime] (max > 0),
// --min-time over --max-time, --max-time without --max-noise, and --batch with --max-noise.
TimingOptions timing_of(const TimingTexts& t);

// The cache to time with (--cold, --cache warm|cold|warm,cold) and the bandwidth unit (--units).
struct CacheTexts {
  bool cold = false;
  std::vector<std::string> cache;
  std::string units = "GB";
};
void add_cache_options(CLI::App* c, CacheTexts& t);
struct CacheChoice {
  bool warm = true, cold = false;
};
// Validates (unknown names, --cold beside --cache, --cold with --batch, --units) before any device work;
// notes --units for meta (note_units).
CacheChoice cache_of(const CacheTexts& t, const TimingTexts& timing);

// Output options (--format, --output-json, --output-csv, --force) and the one place output is
// written. Every file a command writes for its user follows one rule (data/output_file.hpp): made
// new, an existing file replaced only with --force, never one of the run's inputs.
struct OutputTexts {
  std::string format = "table";
  std::optional<std::string> output_json, output_csv;
  bool force = false;  // --force: existing output files may be replaced
};
void add_output_options(CLI::App* c, OutputTexts& o);
// Before any measurement: the format is known, and --output-json, --output-csv and the command's
// `more` outputs (--chart, --output, --binary) can be written under the rule, none of them one of
// `inputs` (--input, --segments, --op-file, a report's file, ...) and no two the same file.
// Throws Error naming the option, the path and the reason.
void check_outputs(const OutputTexts& o, const std::vector<NamedPath>& more = {},
                   const std::vector<NamedPath>& inputs = {});
// Writes `text` to `path` under the rule (--force from `o`); Error names the option and path.
void write_output(const OutputTexts& o, const std::string& option, const std::string& path, std::string_view text);
// The document as --format json prints it (indent 2, a newline at the end); bytes of its strings
// that are not UTF-8 are written as U+FFFD.
std::string json_text(const nlohmann::json& j);
// `printed`: the chosen format already went to standard output (rows written as they were
// measured); only the --output-json/--output-csv files are written.
void emit(const std::string& table, const std::string& csv, const nlohmann::json& json, const OutputTexts& o,
          bool printed = false);
void write_chart(const OutputTexts& o, const std::string& path, const std::string& svg);
// {{option, *path}} where the option was given, else nothing: check_outputs' lists.
std::vector<NamedPath> named(const std::string& option, const std::optional<std::string>& path);

// Generated data options (--data, --seed).
struct DataTexts {
  std::string data = "random";
  unsigned long long seed = 42;
  // The options as registered: whether --data or --seed was given (they contradict --input).
  CLI::Option* data_option = nullptr;
  CLI::Option* seed_option = nullptr;
};
void add_data_options(CLI::App* c, DataTexts& d);

// The launch parameters (--wg, --times, --groups-per-cu, --vec) parsed straight into the library's
// ReduceParams (wg 0: not given; the option refuses 0), so a command hands them to the Reducer as
// they are; the -D texts stay texts, because which macros a user may set depends on the family
// (defines_of, transpose_defines_of, axis_defines_of).
struct LaunchTexts {
  ReduceParams params;
  std::vector<std::string> defines;
};
void add_launch_options(CLI::App* c, LaunchTexts& l);
// -D texts parsed; one naming a macro the host sets (WG_SIZE, TYPE_ID, ... for a reduction;
// TYPE_ID, WG_X, TILE, ... for a transpose) is refused with the option that sets it instead.
// -D texts for the descriptor kernels, parsed: their declared parameters (ITEMS, VEC, ROW_WIDTH,
// TILE_X, ...) are checked against each kernel's valid values when the launch is planned
// (src/descriptor/kernel_params.hpp), and derived ones (ALIGNED, NV_PTX, LINES) refused there.
std::vector<Define> descriptor_defines_of(const std::vector<std::string>& texts);
// The values of --scalar, one per scalar the descriptor r declares, each parsed whole as its type.
// Throws Error (Param::Scalars) naming the value, its type and the valid range.
std::vector<ScalarArg> scalar_args_of(const std::vector<std::string>& texts, const Reduction& r);
// --op, --type or --accumulate given beside a descriptor file (which says what is reduced itself):
// Error (Param::OpFile) naming the first of them.
void refuse_beside_descriptor_file(const std::string& file, bool op, bool type, bool accumulate, bool exact = false);
// -D texts checked against a family's kernel tables (clreduce/kernel_spec.hpp). defines_of and
// transpose_defines_of serve commands that set the options themselves (bench, sweep, tune,
// transpose): a -D of a parameter an option or the host sets is refused, naming the option. The
// one-run forms (run_defines_of: reduce's whole-array run; axis_defines_of; segments_defines_of)
// refuse only a parameter that no kernel of the family lets a caller set: the others go to the
// library, which plans them as their options or refuses them for the chosen kernel.
std::vector<Define> defines_of(const std::vector<std::string>& texts);
std::vector<Define> run_defines_of(const std::vector<std::string>& texts);
std::vector<Define> transpose_defines_of(const std::vector<std::string>& texts);
std::vector<Define> axis_defines_of(const std::vector<std::string>& texts);
std::vector<Define> segments_defines_of(const std::vector<std::string>& texts);
std::size_t wg_of(const std::optional<std::size_t>& wg);  // 0: not given; refuses 0 (transposes, access)

// The tuning database (--db, --no-tuning): loaded once, its warnings said once.
struct TuningTexts {
  std::optional<std::string> db;
  bool no_tuning = false;
};
void add_tuning_options(CLI::App* c, TuningTexts& t);
TuningSource tuning_of(const TuningTexts& t);

// Says each warning once on stderr ("clreduce: warning: ...").
void warn(const std::string& text);
void warn_once(const std::vector<std::string>& warnings);

// What reduce and bench take alike: the element type and operator, the input (--n or --input,
// generated data), the launch parameters, timing, output and the tuning database.
struct RunTexts {
  std::string type = "uint", op = "sum";
  std::optional<std::string> op_file;
  CLI::Option *type_option = nullptr, *op_option = nullptr;  // to tell a given --type/--op from the default
  std::optional<std::string> n, input;  // input: the first --input
  std::vector<std::string> inputs;       // every --input in order (a descriptor may take up to 4)
  std::optional<std::string> accumulate;  // --accumulate: a descriptor's accumulator (f64)
  bool exact = false;                     // --exact: a descriptor built-in's exact summation
  LaunchTexts launch;
  DataTexts data;
  TimingTexts timing;
  OutputTexts output;
  TuningTexts tuning;
};
// `n_help`: what --n defaults to.
void add_run_options(CLI::App* c, RunTexts& r, const std::string& n_help);
// Refuses a second --input where the command reduces one input (every path but a descriptor's).
void refuse_extra_inputs(const RunTexts& r);
// The files a reduction run reads, for check_outputs: --op-file, every --input, --db.
std::vector<NamedPath> inputs_of(const RunTexts& r);
// The descriptor commands' lists (bench descriptors, tune descriptors): a comma-separated list as
// typed (the option may be repeated), every item, none empty, none twice; else Error naming `option`.
std::vector<std::string> list_of(const std::string& option, const std::vector<std::string>& texts);
// MxN shapes (bench axis, bench descriptors, bench transpose, tune axis, tune descriptors): every
// item of list_of parsed, at least one row and one column, none twice by value; else Error naming
// `option`.
std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes_of(const std::string& option,
                                                               const std::vector<std::string>& texts);
// "NAME=V1,V2,...": one axis of a launch grid (--grid), its values whole numbers (their validity
// is the grid's to check). Throws Error naming --grid.
LaunchAxis grid_axis_of(const std::string& text);
// `f()` with its Error said as this command's option `option` (the library names --op, --type,
// -D: the descriptor commands' options are --ops, --types, --grid).
template <class F>
auto as_option(const std::string& option, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    throw Error(Param::None, option + ": " + e.what(), e.valid(), e.device());
  }
}
// Options given to a command itself (`parent`: bench, the reduction benchmark; tune, the
// whole-array variants' tuning: `what` says which) before one of its subcommands (`sub`: "axis",
// "descriptors", ...): refused, naming the option and the subcommand's help.
void refuse_parent_options(CLI::App* parent, const std::string& what, const std::string& sub);
// --type and --op of the commands that run the families' own kernels (bench, sweep, tune, tune
// axis, explain): uint, int, float, double; sum, min, max, argmin, argmax. A reduction
// descriptor's type or built-in (f16, var_pop, ...) is refused naming where it runs (reduce,
// bench descriptors and its --grid).
ElemType variants_type(const std::string& text);
// The same for --op-file: a reduction descriptor file (is_reduction_file) is refused naming where
// it runs; a user operator file (or none) passes.
void refuse_descriptor_file(const std::optional<std::string>& op_file);
Op variants_op(const std::string& text);
// --op for the whole-array family (bench, sweep, tune, explain): sum, min or max; argmin/argmax
// refused with where they run (reduce, bench axis).
Op whole_array_op(const std::string& text);

// The element type and operator as given: --op-file FILE loads a user operator (Op::User), whose
// OP_TYPE is the type unless --type names another (refused); --op and --op-file together are
// refused. Without --op-file, parse_type and parse_op.
struct OpChoice {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::shared_ptr<const UserOperator> user_op;  // with --op-file
};
OpChoice op_choice(const std::string& type, const CLI::Option* type_option, const std::string& op,
                   const CLI::Option* op_option, const std::optional<std::string>& op_file);
inline OpChoice op_choice(const RunTexts& r) {
  return op_choice(r.type, r.type_option, r.op, r.op_option, r.op_file);
}
// The --op-file option's help, one text for every command that takes it.
extern const char* const kOpFileHelp;

// `--n` as a size ("64Mi", "2^26") or a percentage of the device's global memory ("25%": that
// share of CL_DEVICE_GLOBAL_MEM_SIZE in elements of `type`, 0 < P <= 90).
std::uint64_t n_of(const std::string& text, ElemType type, const DeviceInfo& dev);

// The input: the user's file, or generated data; n validated against the device first (against
// one allocation, or against the device memory where the job reduces in chunks), a file's from
// its size before a byte of it is loaded.
// check_input_fits: that check for `count` elements of --input `file` (Error naming the file).
void check_input_fits(const std::string& file, std::uint64_t count, ElemType type, const DeviceInfo& dev,
                      bool chunks_ok);
HostData input_of(const std::optional<std::string>& n_text, const std::optional<std::string>& file,
                  const DataTexts& d, ElemType type, const DeviceInfo& dev,
                  std::optional<std::uint64_t> default_n, bool chunks_ok);

// Every size of comma-split --sizes items (lists and ranges), each once: repeats are dropped
// with one warning saying how many.
std::vector<std::uint64_t> sizes_of(const std::vector<std::string>& texts);
// The registry's names of the variants named (validated; empty stays empty: all).
std::vector<std::string> variant_names_of(const std::vector<std::string>& texts);

// A long job's options: --quiet (no progress) and --estimate (the estimate alone).
struct LongRunTexts {
  bool quiet = false;
  bool estimate = false;
};
// `with_estimate`: the command can estimate its run (--estimate is offered).
void add_long_run_options(CLI::App* c, LongRunTexts& l, bool with_estimate = true);
// The estimate of a run about to start: with --estimate printed on stdout, and false returned
// (the command stops there, exit 0); else, when it is at least kLongRunSeconds, a warning on
// stderr naming `shorten` (the options that shorten the run), and true.
bool announce(const RunEstimate& e, const LongRunTexts& l, const std::string& shorten);
// The engine's watch for a command: progress on `progress`, the estimate announced.
Watch watch_of(const LongRunTexts& l, ProgressReporter& progress, const std::string& shorten);

}  // namespace clreduce::cli
