// The command registry, the options every command shares, and the mapping of errors to one line.
#include "cli.hpp"

#include "parse.hpp"

#include "clreduce/kernel_spec.hpp"
#include "clreduce/variants.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <cmath>
#include <sstream>
#include <iomanip>
#include <charconv>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace clreduce::cli {

CLI::Validator whole_number(std::uint64_t most, const std::string& valid) {
  return CLI::Validator(
      [most, valid](std::string& text) -> std::string {
        const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        if (!digits) {
          const bool negative = !text.empty() && text.front() == '-';
          return "'" + printable(text) + "' is " + (negative ? "negative" : "not a whole number") + "; valid: " + valid;
        }
        errno = 0;
        const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
        if (errno == ERANGE || v > most) return "'" + printable(text) + "' is out of range; valid: " + valid;
        return std::string();
      },
      "", "whole number");
}

CLI::Validator work_group_size() {
  const std::string valid = "a power of two 1, 2, 4, ... up to the device's maximum work-group size";
  const CLI::Validator whole = whole_number(kMaxU32, valid);
  return CLI::Validator(
      [whole, valid](std::string& text) -> std::string {
        std::string bad = whole(text);
        if (!bad.empty()) return bad;
        if (std::strtoull(text.c_str(), nullptr, 10) == 0) return "work-group size 0 is invalid; valid: " + valid;
        return std::string();
      },
      "", "work-group size");
}

Cli::Cli() : app_("clreduce: the OpenCL parallel reduction family, measured and verified") {
  app_.require_subcommand(1);
  app_.add_option("--platform", global_.platform, "platform index (see `clreduce devices`)")
      ->check(whole_number(kMaxU32, "a platform index 0, 1, ... (see `clreduce devices`)"));
  app_.add_option("--device", global_.device,
                  "device index or case-insensitive name substring (default: first GPU, else first "
                  "device; env CLREDUCE_DEVICE)");
  app_.add_option("--kernel-dir", global_.kernel_dir,
                  "directory of the .cl kernels (default: env CLREDUCE_KERNEL_DIR, else the installed "
                  "share/clreduce/kernels, else the source tree's kernels_cl/)");
  app_.add_flag("--trust-device-wg", global_.trust_device_wg,
                "launch work-groups up to the device's CL_DEVICE_MAX_WORK_GROUP_SIZE where a kernel reports a "
                "smaller CL_KERNEL_WORK_GROUP_SIZE (NVIDIA reports 256 on the H100); OpenCL does not promise it, "
                "each run's check verifies it (env CLREDUCE_TRUST_DEVICE_WG=1)");
  app_.add_option("--kernel-timeout", global_.kernel_timeout,
                  "seconds one kernel may run before clreduce ends with exit status 3 naming it (OpenCL cannot "
                  "stop a kernel that loops forever); 0 waits forever (default 300; env CLREDUCE_KERNEL_TIMEOUT)");
}

CLI::App* Cli::add(const std::string& name, const std::string& help, std::function<int()> handler,
                   CLI::App* parent) {
  CLI::App* c = (parent ? parent : &app_)->add_subcommand(name, help);
  c->fallthrough();
  handlers_.emplace_back(c, std::move(handler));
  return c;
}

CLI::App* Cli::find(const std::string& name) { return app_.get_subcommand(name); }

namespace {
// The kernel macro a parameter is, where a -D can give it instead of its option.
const char* define_of(Param p) {
  switch (p) {
    case Param::WorkGroupSize: return "WG_SIZE";
    case Param::Times: return "TIMES";
    case Param::Vec: return "VEC";
    case Param::RowWidth: return "ROW_WIDTH";
    case Param::Tile: return "TILE";
    case Param::Rows: return "ROWS";
    default: return nullptr;
  }
}
}  // namespace

std::string option_of(Param p) {
  switch (p) {
    case Param::Variant: return "--variant";
    case Param::Type: return "--type";
    case Param::Op: return "--op";
    case Param::N: return "--n";
    case Param::WorkGroupSize: return "--wg";
    case Param::Times: return "--times";
    case Param::GroupsPerCu: return "--groups-per-cu";
    case Param::Vec: return "--vec";
    case Param::Define: return "-D";
    case Param::KernelDir: return "--kernel-dir";
    case Param::TuningDb: return "--db";
    case Param::Device: return "--device";
    case Param::Platform: return "--platform";
    case Param::Shape: return "--shape";
    case Param::WgX: return "--wg-x";
    case Param::WgY: return "--wg-y";
    case Param::Tile: return "--tile";
    case Param::Rows: return "--rows";
    case Param::Axis: return "--axis";
    case Param::RowWidth: return "--row-width";
    case Param::Chunks: return "--chunks";
    case Param::Segments: return "--segments";
    case Param::OpFile: return "--op-file";
    case Param::Scalars: return "--scalar";
    case Param::Devices: return "--devices";
    case Param::Split: return "--split";
    case Param::HostPath: return "--host-path";
    case Param::None:
    case Param::Offset:
    case Param::Queue:
    case Param::Buffer:
    case Param::Launch: return "";
  }
  return "";
}

namespace {
// The long names of every comma-list option (a ',' delimiter) of `app` and its subcommands.
void list_options(CLI::App& app, std::set<std::string>& names) {
  for (const CLI::Option* o : app.get_options())
    if (o->get_delimiter() == ',')
      for (const std::string& n : o->get_lnames()) names.insert("--" + n);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) list_options(*sub, names);
}

// A comma list with an empty item ("", ",", "1K,", "a,,b"): CLI11 drops empty items, so "--sizes ,"
// took the next argument as its value and "--sizes 1K," passed as "1K". Refused before parsing.
std::optional<std::string> empty_list_item(CLI::App& app, int argc, char** argv) {
  std::set<std::string> names;
  list_options(app, names);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    std::string name = a, value;
    bool has_value = false;
    if (const auto eq = a.find('='); a.compare(0, 2, "--") == 0 && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      has_value = true;
    } else if (names.count(a) && i + 1 < argc) {
      value = argv[i + 1];
      has_value = true;
    }
    if (!has_value || !names.count(name)) continue;
    if (value.empty() || value.front() == ',' || value.back() == ',' || value.find(",,") != std::string::npos)
      return name + " '" + printable(value) + "': an empty item; give a comma-separated list (NAME,NAME,...)";
  }
  return std::nullopt;
}
}  // namespace

int Cli::run(int argc, char** argv) {
  note_command_line(argc, argv);
  if (const std::optional<std::string> why = empty_list_item(app_, argc, argv)) {
    std::cerr << "clreduce: error: " << *why << "\n";
    return 2;
  }
  try {
    app_.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app_.exit(e);  // --help
    std::cerr << "clreduce: error: " << printable(e.what()) << " (run with --help for the options)\n";
    return 2;
  }
  if (global_.trust_device_wg) {
    ::setenv("CLREDUCE_TRUST_DEVICE_WG", "1", 1);  // the library reads it (trust_device_work_group_size)
  }
  try {
    set_kernel_timeout(parse_kernel_timeout(global_.kernel_timeout, std::getenv("CLREDUCE_KERNEL_TIMEOUT")));
  } catch (const Error& e) {
    std::cerr << "clreduce: error: " << e.what() << "\n";
    return 2;
  }
  if (trust_device_work_group_size())
    warn(std::string(global_.trust_device_wg ? "--trust-device-wg" : "CLREDUCE_TRUST_DEVICE_WG") +
         ": work-groups up to the device's CL_DEVICE_MAX_WORK_GROUP_SIZE are launched where a kernel reports a "
         "smaller CL_KERNEL_WORK_GROUP_SIZE; OpenCL does not promise such a launch runs right: each result's check "
         "against the host reference is what verifies it");
  try {
    // The deepest subcommand given runs (`bench transpose`, not `bench`).
    for (auto it = handlers_.rbegin(); it != handlers_.rend(); ++it)
      if (it->first->parsed()) {
        const int code = it->second();
        std::cout.flush();
        if (!std::cout) {
          std::cerr << "clreduce: error: writing the standard output failed: " << std::strerror(errno) << "\n";
          return 2;
        }
        return code;
      }
  } catch (const Error& e) {
    std::string option = option_of(e.param());
    // The parameter given by -D NAME=V rather than by its option: the prefix names what was typed.
    if (const char* define = define_of(e.param()))
      for (auto it = handlers_.rbegin(); it != handlers_.rend(); ++it) {
        if (!it->first->parsed()) continue;
        const CLI::Option* opt = it->first->get_option_no_throw(option);
        const CLI::Option* d = it->first->get_option_no_throw("-D");
        if (opt && opt->count() == 0 && d)
          for (const std::string& r : d->results())
            if (r.rfind(std::string(define) + "=", 0) == 0) option = "-D " + r;
        break;
      }
    // A message that starts with its option already ("-D VEC=3: ...") is not prefixed twice.
    const std::string_view what = e.what();
    const bool named = !option.empty() && (what.rfind(option + " ", 0) == 0 || what.rfind(option + ":", 0) == 0);
    std::cerr << "clreduce: error: " << (option.empty() || named ? "" : option + ": ") << e.what() << "\n";
    return 2;
  } catch (const cl::Error& e) {
    std::cerr << "clreduce: error: " << describe(e) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "clreduce: error: out of host memory (try a smaller --n, --shape or --input file)\n";
    return 2;
  }
  return 2;
}

Session make_session(const GlobalOptions& g) {
  DeviceInfo dev = select_device(DeviceSelector{g.platform, g.device});
  Session s(dev, g.kernel_dir.value_or(""));
  note_session(s);
  return s;
}

void add_timing_options(CLI::App* c, TimingTexts& t) {
  c->add_option("--iterations", t.iterations, "timed samples")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "1.." + std::to_string(kMaxIterations) + " timed samples"));
  c->add_option("--warmup", t.warmup, "discarded warm-up runs")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "0.." + std::to_string(kMaxIterations) + " warm-up runs"));
  c->add_option("--batch", t.batch,
                "runs per timed sample, back-to-back (default: enough for 2000 timer ticks and 1 ms)")
      ->check(whole_number(kMaxU32, "1.." + std::to_string(kMaxU32)));
}

void add_noise_options(CLI::App* c, TimingTexts& t) {
  c->add_option("--max-noise", t.max_noise,
                "keep sampling (after --iterations samples) until the spread of the back-to-back samples "
                "(interquartile range / median) is at most P percent, or --max-time passed; rows that did "
                "not get there are marked '!'");
  c->add_option("--min-time", t.min_time, "sample each launch for at least S seconds (default 0)");
  c->add_option("--max-time", t.max_time,
                "with --max-noise: stop sampling a launch after S seconds (default " +
                    std::to_string(static_cast<int>(kDefaultMaxTime)) + ")");
}

TimingOptions timing_of(const TimingTexts& t) {
  if (t.iterations == 0) throw Error("--iterations must be at least 1");
  const auto seconds = [](const char* option, double v) {
    if (!(v >= 0 && v <= kMostTime))
      throw Error(std::string(option) + " " + fixed(v, 3) + " is outside 0.." + std::to_string(static_cast<int>(kMostTime)) +
                  " seconds");
  };
  if (t.max_noise && !(*t.max_noise > 0 && *t.max_noise <= 100))
    throw Error("--max-noise " + fixed(*t.max_noise, 3) +
                " is outside the valid range: a spread above 0 and at most 100 percent (e.g. --max-noise 1)");
  if (t.min_time) seconds("--min-time", *t.min_time);
  if (t.max_time) {
    seconds("--max-time", *t.max_time);
    if (!t.max_noise) throw Error("--max-time bounds the sampling of --max-noise; give --max-noise P too (or drop --max-time)");
    if (*t.max_time <= 0) throw Error("--max-time must be above 0 seconds");
  }
  const double max_time = t.max_time.value_or(std::max(kDefaultMaxTime, t.min_time.value_or(0)));
  if (t.min_time && *t.min_time > max_time)
    throw Error("--min-time " + fixed(*t.min_time, 3) + " s is above --max-time " + fixed(max_time, 3) + " s");
  if (t.max_noise && t.batch)
    throw Error("--max-noise chooses how many samples to take, --batch how long each is; give --max-noise "
                "without --batch (the automatic batch)");
  if (t.batch && (*t.batch == 0 || *t.batch > kMaxBatch))
    throw Error("--batch " + std::to_string(*t.batch) + " is outside 1.." + std::to_string(kMaxBatch) +
                " reductions per timed sample (leave it out for the automatic batch: 2000 timer ticks and 1 ms)");
  TimingOptions o;
  o.warmup = t.warmup;
  o.repetitions = t.iterations;
  o.batch = t.batch.value_or(0);
  o.max_noise_pct = t.max_noise.value_or(0);
  o.min_time_s = t.min_time.value_or(0);
  o.max_time_s = max_time;
  return o;
}

void add_cache_options(CLI::App* c, CacheTexts& t) {
  c->add_flag("--cold", t.cold,
              "cold cache: evict the cache before every sample, outside the timed span (a fill of the larger "
              "of twice CL_DEVICE_GLOBAL_MEM_CACHE_SIZE and 256 MiB), one reduction per sample; same as --cache cold");
  c->add_option("--cache", t.cache, "warm, cold, or warm,cold (both, each size measured warm then cold)")
      ->delimiter(',');
  c->add_option("--units", t.units, "bandwidth unit of the table and CSV: GB (10^9 bytes) or GiB (2^30)")
      ->capture_default_str();
}

CacheChoice cache_of(const CacheTexts& t, const TimingTexts& timing) {
  note_units(parse_bandwidth_unit(t.units));
  CacheChoice c;
  if (t.cold && !t.cache.empty()) throw Error("--cold and --cache both choose the cache; give one of them");
  if (t.cold) c = {false, true};
  if (!t.cache.empty()) {
    c = {false, false};
    for (const auto& name : t.cache) {
      if (name == "warm") c.warm = true;
      else if (name == "cold") c.cold = true;
      else throw Error("--cache: unknown cache '" + printable(name) + "'; valid: warm, cold, warm,cold");
    }
  }
  if (c.cold && timing.batch)
    throw Error("--batch: a cold sample is one reduction (the cache is evicted before each); drop --batch");
  return c;
}

void add_output_options(CLI::App* c, OutputTexts& o) {
  c->add_option("--format", o.format, "table, csv or json")->capture_default_str();
  c->add_option("--output-json", o.output_json, "also write the JSON document to FILE (a new file; see --force)");
  c->add_option("--output-csv", o.output_csv, "also write the CSV to FILE (a new file; see --force)");
  c->add_flag("--force", o.force,
              "replace output files that exist (regular files only, by rename; never one of the run's inputs)");
}

void check_outputs(const OutputTexts& o, const std::vector<NamedPath>& more, const std::vector<NamedPath>& inputs) {
  parse_format(o.format);
  std::vector<NamedPath> outputs;
  if (o.output_json) outputs.push_back({"--output-json", *o.output_json});
  if (o.output_csv) outputs.push_back({"--output-csv", *o.output_csv});
  outputs.insert(outputs.end(), more.begin(), more.end());
  check_output_files(outputs, inputs, o.force);
}

void write_output(const OutputTexts& o, const std::string& option, const std::string& path, std::string_view text) {
  write_output_file({option, path}, text, o.force);
}

std::string json_text(const nlohmann::json& j) {
  // Bytes that are not UTF-8 (a file name, a -D value: legal on Linux) become U+FFFD instead of
  // nlohmann's type_error, which aborted the run after the device work.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void emit(const std::string& table, const std::string& csv, const nlohmann::json& j, const OutputTexts& o,
          bool printed) {
  const Format f = parse_format(o.format);
  if (f == Format::Table) std::cout << (printed ? std::string() : table) << kernels_line();
  if (f == Format::Csv && !printed) std::cout << csv;
  nlohmann::json doc = j;
  if (doc.is_object() && !doc.contains("meta")) doc["meta"] = meta_json();
  if (f == Format::Json && !printed) std::cout << json_text(doc);
  std::cout.flush();
  if (o.output_json) write_output(o, "--output-json", *o.output_json, json_text(doc));
  if (o.output_csv) write_output(o, "--output-csv", *o.output_csv, csv);
}

std::vector<NamedPath> named(const std::string& option, const std::optional<std::string>& path) {
  if (!path) return {};
  return {{option, *path}};
}

std::vector<NamedPath> inputs_of(const RunTexts& r) {
  std::vector<NamedPath> in = named("--op-file", r.op_file);
  for (const std::string& path : r.inputs) in.push_back({"--input", path});
  if (r.tuning.db) in.push_back({"--db", *r.tuning.db});
  return in;
}

void write_chart(const OutputTexts& o, const std::string& path, const std::string& svg) {
  write_output(o, "--chart", path, svg);
  std::cerr << "clreduce: chart written to " << path << "\n";
}

void add_data_options(CLI::App* c, DataTexts& d) {
  d.seed_option = c->add_option("--seed", d.seed, "seed of the random data");
  d.seed_option->capture_default_str()
      ->check(whole_number(std::numeric_limits<std::uint64_t>::max(),
                           "0.." + std::to_string(std::numeric_limits<std::uint64_t>::max())));
  d.data_option = c->add_option("--data", d.data, "generated data: random, iota, ones, max");
  d.data_option->capture_default_str();
}

void add_launch_options(CLI::App* c, LaunchTexts& l) {
  c->add_option("--wg", l.params.wg, "work-group size (power of two)")->check(work_group_size());
  c->add_option("--times", l.params.times, "elements per work-item (strided/vector variants)")
      ->check(whole_number(kMaxU32, std::to_string(kMinTimes) + ".." + std::to_string(kMaxTimes)));
  c->add_option("--groups-per-cu", l.params.groups_per_cu,
                "fix the groups at G per compute unit and derive TIMES from n")
      ->check(whole_number(kMaxU32, "1.." + std::to_string(kMaxU32)));
  c->add_option("--vec", l.params.vec, "vector width of the vector variants: 2, 4, 8, 16")
      ->check(whole_number(kMaxU32, "2, 4, 8, 16"));
  c->add_option("-D,--define", l.defines, "NAME[=VALUE] passed to the kernel compiler");
}

namespace {
// The -D texts of a command, checked against the family's kernel tables (clreduce/kernel_spec.hpp).
// A parameter the host derives is refused with what to do instead: it would fight the plan's own
// value (-D TYPE_ID=2 reduces another type than the one checked). Parameters a caller may set with
// no option (single_pass's SP_FINISH, NV_PTX, TILE_X) go to the library, which takes them as the
// plan's. One name given twice with two values is refused. `tool_sets_options`: the command sets the family's options itself (bench, sweep, tune: a grid
// over --wg, --times, --vec), so a -D of a parameter an option sets is refused, naming the option.
// Else (one run) such a -D goes to the library, which plans it as its option or refuses it for the
// chosen kernel (a value outside the valid ones, a kernel that takes none, both given and
// different). A parameter no kernel of the family lets a caller set is refused either way.
std::vector<Define> checked_defines(const std::vector<std::string>& texts,
                                    const std::vector<const KernelSpec*>& family, bool tool_sets_options = true) {
  std::vector<Define> out;
  for (const auto& t : texts) {
    Define d = parse_define(t);
    const KernelParam* refused = nullptr;
    bool settable = false;
    for (const KernelSpec* k : family) {
      const KernelParam* p = k->find(d.name);
      if (!p) continue;
      if (p->caller_may_set) settable = true;
      if (!refused && (!p->caller_may_set || (tool_sets_options && !p->option.empty()))) refused = p;
    }
    // The rule where every kernel that derives it says the same; else where to read each kernel's.
    std::string rule = refused ? refused->rule : "";
    for (const KernelSpec* k : family)
      if (const KernelParam* p = k->find(d.name); p && !p->caller_may_set && p->rule != rule)
        rule = "each kernel's rule: clreduce variants --params --family " + k->family;
    if (refused && (tool_sets_options || !settable))
      throw Error("-D " + printable(t) + " would override " + d.name + ", which clreduce sets itself: " +
                  (!refused->option.empty() ? "use " + refused->option
                                            : "the host sets it (" + rule + "); no option changes it"));
    for (const Define& earlier : out)
      if (earlier.name == d.name && !(earlier == d))
        throw Error(Param::Define, "-D " + earlier.str() + " and -D " + printable(t) + " both set " + d.name +
                                       ", to different values; give one", "one -D " + d.name);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<const KernelSpec*> specs_of_family(const std::string& family) {
  std::vector<const KernelSpec*> out;
  for (const KernelSpec* k : kernel_specs())
    if (k->family == family) out.push_back(k);
  return out;
}

}  // namespace

std::vector<Define> descriptor_defines_of(const std::vector<std::string>& texts) {
  std::vector<Define> out;
  for (const auto& t : texts) out.push_back(parse_define(t));
  return out;
}

std::vector<Define> defines_of(const std::vector<std::string>& texts) {
  static const std::vector<const KernelSpec*> whole = specs_of_family("whole_array");
  return checked_defines(texts, whole);
}

std::vector<Define> run_defines_of(const std::vector<std::string>& texts) {
  static const std::vector<const KernelSpec*> whole = specs_of_family("whole_array");
  return checked_defines(texts, whole, false);
}

std::vector<Define> transpose_defines_of(const std::vector<std::string>& texts) {
  static const std::vector<const KernelSpec*> transposes = specs_of_family("transpose");
  return checked_defines(texts, transposes);
}

std::vector<Define> axis_defines_of(const std::vector<std::string>& texts) {
  static const std::vector<const KernelSpec*> axis = specs_of_family("axis");
  return checked_defines(texts, axis, false);
}

std::vector<Define> segments_defines_of(const std::vector<std::string>& texts) {
  static const std::vector<const KernelSpec*> segments = specs_of_family("segments");
  return checked_defines(texts, segments, false);
}

std::size_t wg_of(const std::optional<std::size_t>& wg) {
  if (wg && *wg == 0)
    throw Error(Param::WorkGroupSize, "work-group size 0 is invalid; use a power of two 1, 2, 4, ...",
                "a power of two");
  return wg.value_or(0);
}

void add_tuning_options(CLI::App* c, TuningTexts& t) {
  c->add_option("--db", t.db,
                "tuning database to use (default: env CLREDUCE_TUNING_DB, else "
                "~/.config/clreduce/tuning.json); see `clreduce tune`");
  c->add_flag("--no-tuning", t.no_tuning, "ignore the tuning database: the built-in defaults");
}

TuningSource tuning_of(const TuningTexts& t) {
  TuningSource s;
  if (t.no_tuning) {
    if (t.db) throw Error(Param::TuningDb, "--db and --no-tuning contradict each other; give one");
    s.enabled = false;
    return s;
  }
  s.path = t.db;
  const std::string path = tuning_db_path(t.db);
  auto loaded = std::make_shared<LoadedTuningDb>(load_tuning_db(path, tuning_db_path_is_explicit(t.db)));
  s.loaded = loaded;
  return s;
}

void refuse_parent_options(CLI::App* parent, const std::string& what, const std::string& sub) {
  const std::string command = parent->get_name() + " " + sub;
  for (const CLI::Option* opt : parent->get_options())
    if (opt->count() > 0 && opt->get_name() != "--help")
      throw Error("option " + opt->get_name() + " is for `" + parent->get_name() + "` (" + what + "), not for `" +
                  command + "`; see `clreduce " + command + " --help`");
}

namespace {
const char* const kDescriptorsRun =
    " runs on the reduction descriptor kernels: `clreduce reduce` runs it once, `clreduce bench descriptors` "
    "measures it (and sweeps their launch parameters with --grid NAME=V1,V2), `clreduce tune descriptors` tunes "
    "their launches; this command runs the families' own kernels";
}  // namespace

void refuse_descriptor_file(const std::optional<std::string>& op_file) {
  if (op_file && is_reduction_file(*op_file))
    throw Error(Param::OpFile, "--op-file " + *op_file + " is a reduction descriptor (it #defines INPUTS and RESULT); it" +
                                   kDescriptorsRun + ", which take a user operator file (#define OP(a, b) and IDENTITY)",
                "a user operator file");
}

ElemType variants_type(const std::string& text) {
  try {
    return parse_type(text);
  } catch (const Error& e) {
    try {
      parse_scalar(text);
    } catch (const Error&) {
      throw e;
    }
    throw Error(Param::Type, "type " + text + kDescriptorsRun + ", which take uint, int, float, double",
                "uint, int, float, double");
  }
}

Op variants_op(const std::string& text) {
  try {
    return parse_op(text);
  } catch (const Error& e) {
    try {
      parse_builtin(text);
    } catch (const Error&) {
      throw e;
    }
    throw Error(Param::Op, "operator " + text + kDescriptorsRun + ", which take sum, min, max (argmin, argmax)",
                "sum, min, max, argmin, argmax");
  }
}

Op whole_array_op(const std::string& text) {
  const Op op = variants_op(text);
  if (is_arg_op(op))
    throw Error(Param::Op,
                text + " gives a value and its index; the whole-array variants fold values only; valid here: sum, min, max (argmin and "
                "argmax run with `clreduce reduce --op " + text + "`, on a whole array, --axis or --segments, and "
                "with `clreduce bench axis`)",
                "sum, min, max");
  return op;
}

const char* const kOpFileHelp =
    "FILE.clh instead of --op: a user operator (Op::User: #define OP(a, b) and IDENTITY, optionally ELEM_MAP(x) "
    "and OP_TYPE; examples: kernels_cl/examples/product.clh, sum_of_squares.clh), or a reduction descriptor "
    "(#define INPUTS, RESULT, ACC_TYPE, IDENTITY, COMBINE(a, b), optionally SCALARS, MAP, LIFT, FINISH, OUT_TYPE, "
    "ACC_BYTES: clreduce/reduction.hpp; examples: iamax.clh, huber_loss.clh); compiled in at run time";

OpChoice op_choice(const std::string& type, const CLI::Option* type_option, const std::string& op,
                   const CLI::Option* op_option, const std::optional<std::string>& op_file) {
  OpChoice c;
  const bool type_given = type_option && type_option->count() > 0;
  if (!op_file) {
    c.type = parse_type(type);
    c.op = parse_op(op);
    return c;
  }
  if (op_option && op_option->count() > 0)
    throw Error(Param::OpFile, "--op " + op + " and --op-file " + *op_file +
                                   " both name the operator: give one (--op-file is the user's operator)",
                "--op or --op-file");
  c.user_op = std::make_shared<const UserOperator>(load_user_operator(*op_file));
  c.op = Op::User;
  c.type = type_given || !c.user_op->type ? parse_type(type) : *c.user_op->type;
  try {
    check_user_operator_type(*c.user_op, c.type);
  } catch (const Error& e) {
    throw Error(Param::Type, std::string(e.what()) + " (" + *op_file + "); give --type " + e.valid() +
                                 " or leave --type out", e.valid());
  }
  return c;
}

void add_run_options(CLI::App* c, RunTexts& r, const std::string& n_help) {
  r.type_option = c->add_option("--type", r.type,
                                "element type: uint, int, float, double; reduce also u8, i8, u16, i16, u32, i32, u64, "
                                "i64, f16, bf16, f32, f64 (NumPy's names too), which run as reduction descriptors")
                      ->capture_default_str();
  r.op_option = c->add_option("--op", r.op,
                              "operator: sum, min, max; reduce also argmin, argmax (value and lowest index), and the "
                              "descriptors' built-ins: " + join([] {
                                std::vector<std::string> v;
                                for (Builtin b : all_builtins()) v.emplace_back(name_of(b));
                                return v;
                              }()))
                    ->capture_default_str();
  c->add_option("--op-file", r.op_file, kOpFileHelp);
  c->add_option("--n", r.n, "elements (suffixes: 64M, 1Gi, 2^26), or a share of the device memory (25%)" + n_help);
  c->add_option_function<std::vector<std::string>>(
      "--input",
      [&r](const std::vector<std::string>& files) {
        r.inputs = files;
        r.input = files.front();
      },
      "raw little-endian elements of --type to reduce instead; reduce takes it once per input of the reduction "
      "(--op dot --input x.bin --input y.bin)");
  c->add_option("--accumulate", r.accumulate,
                "reduce: the accumulator of a descriptor built-in that has a choice (f64: sums, means, variances, "
                "norms, dot in double precision)");
  c->add_flag("--exact", r.exact,
              "reduce: exact summation of a descriptor built-in (sum, mean, dot, sumsq, l2 of f16, bf16, f32, f64): "
              "the exact sum rounded once, the same bits on every launch and device");
  add_launch_options(c, r.launch);
  add_data_options(c, r.data);
  add_timing_options(c, r.timing);
  add_output_options(c, r.output);
  add_tuning_options(c, r.tuning);
}

void refuse_extra_inputs(const RunTexts& r) {
  if (r.inputs.size() > 1)
    throw Error(Param::None, "--input given " + std::to_string(r.inputs.size()) +
                              " times; this reduction reads one input (several are for reduction descriptors of several "
                              "inputs: clreduce reduce --op dot --type f32 --input x.bin --input y.bin)",
                "one --input");
  if (r.accumulate)
    throw Error(Param::None, "--accumulate is for the reduction descriptors' built-ins (clreduce reduce --op mean --type "
                           "f32 --accumulate f64); this reduction's accumulator is its element type",
                "no --accumulate");
  if (r.exact)
    throw Error(Param::None, "--exact is for the reduction descriptors' built-ins (clreduce reduce --op sum --type f32 "
                           "--exact); this command sums in the element type",
                "no --exact");
}

void warn(const std::string& text) { std::cerr << "clreduce: warning: " << text << "\n"; }

void warn_once(const std::vector<std::string>& warnings) {
  static std::set<std::string> said;
  for (const auto& w : warnings)
    if (said.insert(w).second) warn(w);
}

void check_input_fits(const std::string& file, std::uint64_t count, ElemType type, const DeviceInfo& dev,
                      bool chunks_ok) {
  try {
    if (chunks_ok) check_device_memory(count, type, dev);
    else check_allocation(count, type, dev);
  } catch (const Error& e) {
    // Not "--n: ...": the user gave a file, not --n.
    throw Error(Param::None, "--input " + file + " holds " + std::to_string(count) + " elements: " + e.what() +
                                 " (--n N reduces the file's first N)",
                e.valid(), e.device());
  }
}

HostData input_of(const std::optional<std::string>& n_text, const std::optional<std::string>& file,
                  const DataTexts& d, ElemType type, const DeviceInfo& dev,
                  std::optional<std::uint64_t> default_n, bool chunks_ok) {
  const auto check = [&](std::uint64_t n) {
    if (chunks_ok) check_device_memory(n, type, dev);
    else check_allocation(n, type, dev);
  };
  std::optional<std::uint64_t> n;
  if (n_text) n = n_of(*n_text, type, dev);
  if (file) {
    for (const CLI::Option* given : {d.data_option, d.seed_option})
      if (given && given->count() > 0)
        throw Error(given->get_name() + " generates data, --input FILE reads the user's own: give one of them");
    if (n) check(*n);
    // The file's count from its size, checked against the device before a byte is loaded.
    const std::uint64_t count = data_file_elements(*file, type, n);
    if (!n) check_input_fits(*file, count, type, dev, chunks_ok);
    return read_data_file(*file, type, count);
  }
  if (!n) n = default_n;
  if (!n) throw Error(Param::N, "--n is required (or --input FILE)", "a size");
  check(*n);
  return generate_data(type, *n, parse_data_kind(d.data), d.seed);
}

std::uint64_t n_of(const std::string& text, ElemType type, const DeviceInfo& dev) {
  if (text.empty() || text.back() != '%') return parse_size(text);
  const std::string number = text.substr(0, text.size() - 1);
  char* end = nullptr;
  const double pct = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !(pct > 0 && pct <= 90))
    throw Error(Param::N, "'" + printable(text) + "' is not a valid share of the device memory; valid: 0% < P <= 90%, e.g. 25%",
                "0% < P <= 90%");
  const auto n = static_cast<std::uint64_t>(static_cast<double>(dev.global_mem_bytes) * pct / 100 /
                                            static_cast<double>(size_of(type)));
  if (n == 0) throw Error(Param::N, text + " of the device's " + std::to_string(dev.global_mem_bytes) + " bytes is no element");
  return n;
}

std::vector<std::uint64_t> sizes_of(const std::vector<std::string>& texts) {
  std::vector<std::uint64_t> out;
  std::set<std::uint64_t> seen;
  std::size_t dropped = 0;
  for (const auto& text : texts)
    for (std::uint64_t n : parse_size_list(text)) {
      if (seen.insert(n).second) out.push_back(n);
      else ++dropped;
    }
  if (dropped)
    warn("--sizes: " + std::to_string(dropped) + " repeated size" + (dropped == 1 ? "" : "s") +
         " dropped; each size is measured once (" + std::to_string(out.size()) + " sizes)");
  return out;
}

std::vector<std::string> variant_names_of(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  try {
    for (const auto& t : texts) out.push_back(find_variant(t).name);
  } catch (const Error& e) {
    throw Error(std::string("--variants: ") + e.what());  // the list option, not --variant
  }
  return out;
}

void add_long_run_options(CLI::App* c, LongRunTexts& l, bool with_estimate) {
  c->add_flag("--quiet", l.quiet,
              "no progress on stderr (a bar on a terminal, else a line every " +
                  std::to_string(static_cast<int>(ProgressReporter::kLineInterval)) + " s); warnings stay");
  if (with_estimate)
    c->add_flag("--estimate", l.estimate,
                "print how long the run takes at least (from a calibration of about a second) and stop");
}

bool announce(const RunEstimate& e, const LongRunTexts& l, const std::string& shorten) {
  if (l.estimate) {
    std::cout << "clreduce: this run takes " << describe(e) << "\n";
    return false;
  }
  if (e.seconds >= kLongRunSeconds) warn("this run takes " + describe(e) + "; " + shorten + " shorten it");
  return true;
}

Watch watch_of(const LongRunTexts& l, ProgressReporter& progress, const std::string& shorten) {
  Watch w;
  w.progress = [&progress](const ProgressStep& s) { progress(s); };
  w.estimated = [l, shorten](const RunEstimate& e) { return announce(e, l, shorten); };
  return w;
}

namespace {
std::string shortest(double v) {
  std::ostringstream s;
  s << std::setprecision(9) << v;
  return s.str();
}
}  // namespace

// The values of --scalar, one per scalar the descriptor declares, each parsed whole as its type
// (integers in range, floats as strtod reads them, inf and nan included).
std::vector<ScalarArg> scalar_args_of(const std::vector<std::string>& texts, const Reduction& r) {
  std::string types;
  for (Scalar s : r.scalars) types += std::string(types.empty() ? "" : " ") + std::string(name_of(s));
  if (texts.size() != r.scalars.size())
    throw Error(Param::Scalars,
                r.name + " takes " + std::to_string(r.scalars.size()) + " scalar argument(s)" +
                    (types.empty() ? "" : " (" + types + ")") + "; --scalar was given " + std::to_string(texts.size()) +
                    " time(s)",
                std::to_string(r.scalars.size()) + " --scalar values");
  std::vector<ScalarArg> out;
  for (std::size_t j = 0; j < texts.size(); ++j) {
    const std::string& t = texts[j];
    const Scalar type = r.scalars[j];
    const char* b = t.data();
    const char* e = b + t.size();
    auto bad = [&](const std::string& why, const std::string& valid) {
      return Error(Param::Scalars, "--scalar '" + printable(t) + "' (s" + std::to_string(j) + " of " + r.name + ", " +
                                       std::string(name_of(type)) + "): " + why, valid);
    };
    if (is_floating(type)) {
      char* end = nullptr;
      const std::string copy(t);
      const double v = t.empty() || std::isspace(static_cast<unsigned char>(t.front())) ? 0 : std::strtod(copy.c_str(), &end);
      if (!end || end != copy.c_str() + copy.size()) throw bad("not a number", "a number (1.5, -2e-3, inf, nan)");
      // A finite value past the type's range would become inf without a word.
      const double most = type == Scalar::F64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
      if (std::isfinite(v) && std::fabs(v) > most)
        throw bad("beyond the largest finite " + std::string(name_of(type)) + " (" + shortest(most) + ")",
                  "a number of magnitude at most " + shortest(most) + ", or inf");
      out.emplace_back(v);
      continue;
    }
    if (b != e && *b == '+') ++b;  // "+5": a sign from_chars does not take
    const unsigned bits = static_cast<unsigned>(size_of(type) * 8);
    if (is_signed(type)) {
      std::int64_t v = 0;
      const auto [p, ec] = std::from_chars(b, e, v);
      const std::int64_t hi = bits == 64 ? INT64_MAX : (std::int64_t{1} << (bits - 1)) - 1, lo = -hi - 1;
      const std::string valid = "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
      if (t.empty() || ec == std::errc::invalid_argument || p != e) throw bad("not an integer", valid);
      if (ec == std::errc::result_out_of_range || v < lo || v > hi) throw bad("out of range; valid: " + valid, valid);
      out.emplace_back(v);
    } else {
      std::uint64_t v = 0;
      const auto [p, ec] = std::from_chars(b, e, v);
      const std::uint64_t hi = bits == 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1;
      const std::string valid = "an integer in 0.." + std::to_string(hi);
      if (t.empty() || ec == std::errc::invalid_argument || p != e) throw bad("not an unsigned integer", valid);
      if (ec == std::errc::result_out_of_range || v > hi) throw bad("out of range; valid: " + valid, valid);
      out.emplace_back(v);
    }
  }
  return out;
}

void refuse_beside_descriptor_file(const std::string& file, bool op, bool type, bool accumulate, bool exact) {
  for (const auto& [given, name] :
       {std::pair{op, "--op"}, {type, "--type"}, {accumulate, "--accumulate"}, {exact, "--exact"}})
    if (given)
      throw Error(Param::OpFile, std::string(name) + " and the descriptor file " + file +
                                     " both say what is reduced: the file names its inputs' types (INPUTS), "
                                     "accumulator and result; leave " + name + " out",
                  "--op-file FILE alone");
}

}  // namespace clreduce::cli
