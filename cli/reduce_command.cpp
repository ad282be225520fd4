// `clreduce reduce`: one verified, timed reduction with the launch the library resolves; with
// --axis rows|cols --shape MxN, one value per row or column of a matrix (the AxisReducer); with
// --segments FILE, one value per segment of a flat array (the SegmentedReducer).
#include "cli.hpp"

#include "benchmarks/axis_run.hpp"
#include "benchmarks/descriptor_run.hpp"
#include "benchmarks/segmented_run.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/introspect.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/variants.hpp"
#include "data/result_file.hpp"
#include "measure/measure.hpp"
#include "parse.hpp"
#include "printers/axis_printer.hpp"
#include "printers/descriptor_printer.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/segmented_printer.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <filesystem>
#include <tuple>

namespace clreduce::cli {

namespace {
struct ReduceTexts : RunTexts {
  std::string variant;
  std::optional<std::string> axis, shape, segments;
  std::optional<std::uint64_t> ld;       // descriptors with --axis: the rows' leading dimension
  std::optional<std::string> values_out;  // --output FILE: every result value (descriptors)
  std::optional<std::string> binary;      // --binary FILE: the launch's program binary (descriptors)
  std::optional<unsigned> row_width;
  std::optional<std::uint64_t> chunks;
  std::vector<std::string> scalars;       // --scalar V: a descriptor file's run-time scalars, in order
  // The registered options, to refuse what an axis reduction does not take.
  std::vector<CLI::Option*> whole_array_only;
  std::vector<CLI::Option*> not_segmented;  // what a segmented reduction does not take
  std::vector<CLI::Option*> tuning_options;  // --db, --no-tuning: whole-array and axis reductions
};

// --data and --seed generate data; --input reads the user's: one of them.
void refuse_generators_with_input(const ReduceTexts& o) {
  for (const CLI::Option* given : {o.data.data_option, o.data.seed_option})
    if (given && given->count() > 0)
      throw Error(given->get_name() + " generates data, --input FILE reads the user's own: give one of them");
}

// The files a reduce run reads (check_outputs): --op-file, each --input, --db, --segments.
std::vector<NamedPath> reduce_inputs(const ReduceTexts& o) {
  std::vector<NamedPath> in = inputs_of(o);
  for (const NamedPath& s : named("--segments", o.segments)) in.push_back(s);
  return in;
}

// The axis reduction the options name: --type, --op/--op-file, --variant, --wg, --row-width,
// --chunks, -D (each checked).
AxisConfig axis_config_of(const ReduceTexts& o, Axis axis, const OpChoice& choice) {
  AxisConfig cfg;
  cfg.axis = axis;
  cfg.type = choice.type;
  cfg.op = choice.op;
  if (!o.variant.empty()) cfg.variant = find_axis_variant(o.variant).name;
  if (o.launch.params.wg) cfg.wg = o.launch.params.wg;
  cfg.row_width = o.row_width;
  cfg.chunks = o.chunks;
  cfg.defines = axis_defines_of(o.launch.defines);
  return cfg;
}

// The axis launch resolved (and refused, if it must be) before any data is made.
// Returns its warnings (the tuning database's), to be said once.
std::vector<std::string> prepare_axis(const Session& session, const AxisConfig& cfg,
                                      const std::shared_ptr<const UserOperator>& user_op, std::uint64_t m,
                                      std::uint64_t n, const TuningSource& tuning) {
  AxisReducerOptions opt;
  opt.params = cfg;
  opt.tuning = tuning;
  opt.device = session.device();
  opt.kernel_dir = session.kernel_dir();
  opt.user_op = user_op;
  AxisReducer planner(session.queue(), opt);
  return introspect::prepare(planner, cfg.type, cfg.op, cfg.axis, m, n)->warnings;
}

// `reduce --segments FILE`: the offsets file read and checked (against --n, the --input file's
// elements, else n is its last offset) before a device is opened, then one verified run.
int reduce_segmented(const GlobalOptions& g, const ReduceTexts& o) {
  if (o.axis)
    throw Error(Param::Segments, "--segments and --axis contradict each other: --segments reduces each segment of a "
                                 "flat array, --axis each row or column of a matrix; give one");
  for (const CLI::Option* opt : o.not_segmented)
    if (opt->count() > 0)
      throw Error(opt->get_name() + " is not for segmented reductions; --segments takes --n or --input, --type, --op, "
                                    "--wg, --chunks (parts per segment), --row-width (work-items per segment), -D, "
                                    "--data, --seed, the timing and the output options");
  SegmentedConfig cfg;
  const OpChoice choice = op_choice(o);
  cfg.type = choice.type;
  cfg.op = choice.op;
  if (o.launch.params.wg) cfg.wg = o.launch.params.wg;
  cfg.parts = o.chunks;
  cfg.slice = o.row_width;
  cfg.defines = segments_defines_of(o.launch.defines);
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output, {}, reduce_inputs(o));
  const std::vector<std::uint64_t> offsets = read_offsets_file(*o.segments);
  std::optional<std::uint64_t> n;
  if (o.n && !o.n->empty() && o.n->back() == '%')
    throw Error(Param::N, "'" + printable(*o.n) + "': a share of the device memory is not for --segments, whose offsets "
                "are checked against n before a device is opened; give a size (e.g. 2^20)", "a size");
  if (o.n) n = parse_size(*o.n);
  if (o.input) {  // its size now, its bytes once the launch is planned
    refuse_generators_with_input(o);
    n = data_file_elements(*o.input, cfg.type, n);
  }
  const std::uint64_t elements = n.value_or(offsets.back());
  try {
    validate_segment_offsets(offsets, elements);
  } catch (const Error& e) {
    throw Error(Param::Segments,
                "offsets file '" + *o.segments + "': " + e.what() + "; n = " + std::to_string(elements) +
                    (o.input ? " (the elements of --input)" : o.n ? " (--n)" : ""),
                e.valid());
  }
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  {  // The launch is resolved (and refused, if it must be) before any data is made.
    SegmentedReducerOptions opt;
    opt.params = cfg;
    opt.device = dev;
    opt.kernel_dir = session.kernel_dir();
    opt.user_op = choice.user_op;
    SegmentedReducer planner(session.queue(), opt);
    introspect::prepare(planner, cfg.type, cfg.op, elements, offsets.size() - 1);
  }
  const HostData data = o.input ? read_data_file(*o.input, cfg.type, elements)
                                 : generate_data(cfg.type, elements, parse_data_kind(o.data.data), o.data.seed);
  const SegmentedReport r = run_segmented(session, cfg, data, offsets, timing,
                                          std::filesystem::path(*o.segments).filename().string(), choice.user_op);
  emit(segmented_text(r, dev), segmented_csv(r), segmented_json(r, dev), o.output);
  return r.ok() ? 0 : 1;
}

// `reduce --axis`: every option checked before a device is opened, then one verified run.
int reduce_axis(const GlobalOptions& g, const ReduceTexts& o) {
  const Axis axis = parse_axis(*o.axis);
  for (const CLI::Option* opt : o.whole_array_only)
    if (opt->count() > 0)
      throw Error(opt->get_name() + " is for whole-array reductions; --axis takes --shape MxN, --variant (" +
                  join(axis_variant_names()) +
                  "), --wg, --row-width, --chunks, -D, --type, --op, --input or --data, --db, --no-tuning");
  if (!o.shape) throw Error(Param::Shape, "--axis needs --shape MxN (M rows, N columns, row-major)", "MxN");
  const auto [m, n] = parse_shape(*o.shape);
  const OpChoice choice = op_choice(o);
  const AxisConfig cfg = axis_config_of(o, axis, choice);
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output, {}, reduce_inputs(o));
  // The tuning database's launch for the shape's class when no variant is named (loaded once,
  // its warnings said once).
  const TuningSource tuning = tuning_of(o.tuning);
  if (o.input) {  // exactly the matrix: a longer file is not cut short without a word
    refuse_generators_with_input(o);
    const std::uint64_t count = data_file_elements(*o.input, cfg.type, std::nullopt);
    if (count != m * n)
      throw Error(Param::Shape,
                  "input file '" + *o.input + "' holds " + std::to_string(count) + " " + std::string(name_of(cfg.type)) +
                      " elements; --shape " + std::to_string(m) + "x" + std::to_string(n) + " is " +
                      std::to_string(m * n) + ": give a file of exactly M x N elements (row-major)",
                  "a file of M x N elements");
  }
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  warn_once(prepare_axis(session, cfg, choice.user_op, m, n, tuning));
  const HostData data = o.input ? read_data_file(*o.input, cfg.type, m * n)
                                : generate_data(cfg.type, m * n, parse_data_kind(o.data.data), o.data.seed);
  const AxisReport r = run_axis(session, cfg, data, m, n, timing, choice.user_op, tuning);
  emit(axis_text(r, dev), axis_csv(r), with_schema(axis_json(r, dev), "reduce_axis"), o.output);
  return r.ok() ? 0 : 1;
}

// `reduce --op argmin|argmax` on a whole array: one row of n through the AxisReducer (rows_split
// by default: one row splits over the whole device), the index in the whole array.
int reduce_arg_whole(const GlobalOptions& g, const ReduceTexts& o) {
  for (const auto& [given, name] : {std::pair{o.shape.has_value(), "--shape"}, {o.row_width.has_value(), "--row-width"}})
    if (given) throw Error(std::string(name) + " is for axis reductions: add --axis rows|cols (and --shape MxN)");
  std::vector<CLI::Option*> refused = o.whole_array_only;
  refused.insert(refused.end(), o.tuning_options.begin(), o.tuning_options.end());
  for (const char* name : {"--times", "--groups-per-cu", "--vec", "--db", "--no-tuning"})
    for (const CLI::Option* opt : refused)
      if (opt->get_name() == name && opt->count() > 0)
        throw Error(std::string(name) + " is for the whole-array variants; " + o.op +
                    " runs as one row of n on the axis variants (rows_split, rows_group, rows_sliced), which take "
                    "--variant, --wg, --chunks and -D");
  const AxisConfig cfg = axis_config_of(o, Axis::Rows, op_choice(o));  // --row-width refused above
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output, {}, reduce_inputs(o));
  if (!o.n && !o.input) throw Error(Param::N, "--op " + o.op + " needs --n N or --input FILE", "--n N, --input FILE");
  std::uint64_t n = 0;
  if (o.input) {  // its size now, its bytes once the launch is planned
    refuse_generators_with_input(o);
    n = data_file_elements(*o.input, cfg.type, o.n ? std::optional<std::uint64_t>(parse_size(*o.n)) : std::nullopt);
  } else {
    n = parse_size(*o.n);
  }
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  // The axis reducer's rules alone: this path takes no --db (the whole array's launch is not an
  // axis class's).
  TuningSource no_tuning;
  no_tuning.enabled = false;
  if (o.input) check_input_fits(*o.input, n, cfg.type, dev, /*chunks_ok=*/false);  // before its bytes are loaded
  prepare_axis(session, cfg, nullptr, 1, n, no_tuning);
  const HostData data = o.input ? read_data_file(*o.input, cfg.type, n)
                                : generate_data(cfg.type, n, parse_data_kind(o.data.data), o.data.seed);
  AxisReport r = run_axis(session, cfg, data, 1, n, timing, nullptr, no_tuning);
  r.whole_array = true;
  emit(axis_text(r, dev), axis_csv(r), with_schema(axis_json(r, dev), "reduce_axis"), o.output);
  return r.ok() ? 0 : 1;
}


// Whether the options name a reduction descriptor: a built-in or a type that only descriptors
// take, --variant descriptor, several --input files or --accumulate. The old names (uint, int,
// float, double; sum, min, max, argmin, argmax) keep the families' own kernels.
// The option that sends old names to the descriptor kernels (for a message), or "" where the
// type, operator or file are a descriptor's themselves.
std::string descriptor_option(const ReduceTexts& o) {
  if (o.inputs.size() > 1) return "a second --input";
  if (o.accumulate) return "--accumulate";
  if (o.exact) return "--exact";
  if (o.values_out) return "--output";
  if (o.binary) return "--binary";
  if (!o.scalars.empty()) return "--scalar";
  return "";
}

bool names_descriptor(const ReduceTexts& o) {
  // --output writes a descriptor's results: the old names then run as their built-ins (sum of
  // uint accumulates in u64, as the output's layout says). So does --ld: the descriptor kernels
  // read a padded matrix, the operators' axis variants a dense one (--ld was ignored there).
  if (o.variant == "descriptor" || o.inputs.size() > 1 || o.accumulate || o.exact || o.values_out || o.binary ||
      !o.scalars.empty() || o.ld)
    return true;
  if (o.op_file && is_reduction_file(*o.op_file)) return true;
  try {
    parse_type(o.type);
    parse_op(o.op);
  } catch (const Error&) {
    return true;  // a name only descriptors know, or none: their parsers list every valid one
  }
  return false;
}

// `reduce` of a reduction descriptor on a whole array: every option checked before a device is
// opened, the inputs generated (one stream per input) or read (one --input per input), then one
// verified, timed run of the descriptor kernel.
int reduce_descriptor(const GlobalOptions& g, const ReduceTexts& o) {
  using F = DescriptorJob::Family;
  const bool user_file = o.op_file && is_reduction_file(*o.op_file);
  if (o.op_file && !user_file) {
    // What sent a user operator here: an option only descriptors take.
    std::string why;
    if (!o.scalars.empty()) why = "--scalar";
    else if (o.values_out) why = "--output";
    else if (o.binary) why = "--binary";
    else if (o.accumulate) why = "--accumulate";
    else if (o.exact) why = "--exact";
    else if (o.inputs.size() > 1) why = "a second --input";
    else if (o.variant == "descriptor") why = "--variant descriptor";
    else why = "--type " + o.type + " --op " + o.op;
    throw Error(Param::OpFile, "--op-file " + *o.op_file + " is a user operator (it #defines OP and IDENTITY) of the "
                               "families' kernels, which take uint, int, float, double and no " + why +
                               "; " + why + " is for reduction descriptors (a descriptor file #defines INPUTS, RESULT, "
                               "ACC_TYPE, IDENTITY and COMBINE)",
                "--op-file with uint, int, float or double");
  }
  if (user_file)
    refuse_beside_descriptor_file(*o.op_file, o.op_option && o.op_option->count() > 0,
                                  o.type_option && o.type_option->count() > 0, o.accumulate.has_value(), o.exact);
  DescriptorJob job;
  if (o.axis && o.segments)
    throw Error(Param::Segments, "--segments and --axis contradict each other: --segments reduces each segment of a "
                                 "flat array, --axis each row or column of a matrix; give one");
  if (o.axis) job.family = parse_axis(*o.axis) == Axis::Rows ? F::Rows : F::Cols;
  if (o.segments) job.family = F::Segments;
  if (o.shape && !o.axis) throw Error(Param::Shape, "--shape is for axis reductions: add --axis rows|cols");
  if (o.ld && !o.axis) throw Error(Param::None, "--ld is the rows' leading dimension of an axis reduction: add --axis rows|cols");
  // What each family's kernel takes; the rest is refused, not ignored.
  const bool whole = job.family == F::Whole;
  const std::string run = std::string("this run reduces ") +
                          (whole                        ? "the whole array"
                           : job.family == F::Rows      ? "rows (--axis rows)"
                           : job.family == F::Cols      ? "columns (--axis cols)"
                                                        : "segments (--segments)") +
                          " on the descriptor kernels";
  for (const auto& [given, name, takes] :
       {std::tuple{o.launch.params.times.has_value(), "--times",
                   "the uint/int/float/double variants (naive ... single_pass); the descriptor kernels take no TIMES"},
        {o.row_width.has_value() && whole, "--row-width", "rows (--axis rows) and segments (--segments)"},
        {o.row_width.has_value() && job.family == F::Cols, "--row-width", "rows (--axis rows) and segments (--segments)"},
        {o.chunks.has_value() && whole, "--chunks", "rows, columns and segments"},
        {o.launch.params.groups_per_cu.has_value() && !whole, "--groups-per-cu", "the whole array"}})
    if (given) throw Error(std::string(name) + " is for " + takes + "; " + run);
  const std::string what = user_file ? "--op-file " + *o.op_file : "--op " + o.op;
  Reduction r;  // a bad --type or --op is named before --variant is
  if (user_file) {
    r = load_reduction(*o.op_file);
  } else {
    const Scalar type = parse_scalar(o.type);
    std::optional<Scalar> acc;
    if (o.accumulate) acc = parse_scalar(*o.accumulate);
    r = builtin(parse_builtin(o.op), type, acc, o.exact ? Summation::Exact : Summation::Default);
  }
  if (!o.variant.empty() && o.variant != "descriptor") {
    const std::string by = descriptor_option(o);
    throw Error(Param::Variant, "--variant " + o.variant + " is one of the families' kernels, which take uint, int, "
                                "float, double with sum, min, max (argmin, argmax); " + what + (user_file ? "" : " --type " + o.type) +
                                (by.empty() ? "" : " with " + by) +
                                " runs on the descriptor kernels: leave --variant out or give --variant descriptor",
                "descriptor");
  }
  job.scalars = scalar_args_of(o.scalars, r);
  std::vector<Define> defines = descriptor_defines_of(o.launch.defines);
  // --vec: the whole array's ReduceParams::vec; the lines' and columns' VEC parameter.
  if (!whole && o.launch.params.vec) {
    const Define vec{"VEC", std::to_string(*o.launch.params.vec)};
    for (const Define& d : defines)
      if (d.name == "VEC" && !(d == vec))
        throw Error(Param::Define, "-D " + d.str() + " and --vec " + *vec.value + " both set VEC, to different values; give one",
                    "--vec or -D VEC, not both");
    defines.push_back(vec);
  }
  job.whole = o.launch.params;
  job.whole.variant.clear();
  job.whole.defines = defines;
  const std::optional<std::size_t> wg = o.launch.params.wg ? std::optional<std::size_t>(o.launch.params.wg) : std::nullopt;
  job.axis.wg = wg;
  job.axis.row_width = o.row_width;
  job.axis.chunks = o.chunks;
  job.axis.defines = defines;
  job.segmented.wg = wg;
  job.segmented.slice = o.row_width;
  job.segmented.parts = o.chunks;
  job.segmented.defines = defines;
  // The tuning database's descriptor entries fill what the options leave unset (--no-tuning: none).
  job.tuning = tuning_of(o.tuning);
  const TimingOptions timing = timing_of(o.timing);
  std::vector<NamedPath> outputs = named("--output", o.values_out);
  for (const NamedPath& b : named("--binary", o.binary)) outputs.push_back(b);
  check_outputs(o.output, outputs, reduce_inputs(o));
  const std::size_t inputs = r.inputs.size();
  if (!o.inputs.empty() && o.inputs.size() != inputs)
    throw Error(Param::None, "--input was given " + std::to_string(o.inputs.size()) + " time(s); " + r.name + " reads " +
                                 std::to_string(inputs) + " input(s): give one --input per input, or none "
                                 "(generated data)",
                std::to_string(inputs) + " --input files");
  if (!o.inputs.empty()) refuse_generators_with_input(o);
  std::optional<std::uint64_t> n;
  if (o.n && !o.n->empty() && o.n->back() == '%')
    throw Error(Param::N, "'" + printable(*o.n) + "': a share of the device memory is not for reduction descriptors "
                          "yet; give a size (e.g. 2^26)", "a size");
  if (o.n) {
    if (job.family == F::Rows || job.family == F::Cols)
      throw Error(Param::N, "--n is the whole array's size; --axis takes --shape MxN (and --ld)", "--shape MxN");
    n = parse_size(*o.n);
  }
  if (!whole && job.family != F::Segments) {
    if (!o.shape) throw Error(Param::Shape, "--axis needs --shape MxN (M rows, N columns, row-major)", "MxN");
    const auto [m, cols] = parse_shape(*o.shape);
    if (o.ld && *o.ld == 0)
      throw Error(Param::None, "--ld 0: the rows' leading dimension is at least N; give --ld >= N, or leave it out (dense rows)",
                  "--ld >= N");
    job.shape = MatrixShape{m, cols, o.ld.value_or(0)};
    // Its element count, before anything is sized by it (M x N past 2^64 wrapped to a smaller count).
    if (m > 1 && job.shape.stride() > (~std::uint64_t{0} - cols) / (m - 1))
      throw Error(Param::Shape,
                  "--shape " + printable(*o.shape) + (job.shape.ld ? " with --ld " + std::to_string(job.shape.ld) : "") +
                      ": past 2^64 elements; give a matrix of at most the device's largest allocation",
                  "a matrix within one buffer");
    if (job.shape.ld && job.shape.ld < cols)
      throw Error(Param::Shape, "--ld " + std::to_string(job.shape.ld) + " is below the " + std::to_string(cols) +
                                    " columns: rows would overlap; give --ld >= N",
                  "--ld >= N");
    n = job.shape.span();
  }
  if (job.family == F::Segments) {
    job.offsets = read_offsets_file(*o.segments);
    const std::uint64_t last = job.offsets.back();
    if (!n && o.inputs.empty()) n = last;
    if (n) validate_segment_offsets(job.offsets, *n);
  }
  if (!n && o.inputs.empty()) throw Error(Param::N, what + " needs --n N or --input FILE", "--n N, --input FILE");
  // The files' sizes are checked before a device is opened; their bytes are read after the launch
  // is (so a file larger than the device takes is refused without being loaded).
  // --n or the last offset; a matrix's files are checked for their exact size below.
  const bool matrix = job.family == F::Rows || job.family == F::Cols;
  const std::optional<std::uint64_t> asked = matrix ? std::nullopt : n;
  std::uint64_t first = 0;
  for (std::size_t j = 0; j < o.inputs.size(); ++j) {
    // Without a size asked for, every input is read whole, so each must hold as many elements as
    // the first: a longer one is not cut short without a word.
    const std::uint64_t count = scalar_file_elements(o.inputs[j], r.inputs[j], asked);
    if (j == 0) first = count;
    if (j > 0 && !asked && count != first)
      throw Error(Param::N, "--input " + o.inputs[j] + " holds " + std::to_string(count) + " elements of " +
                                std::string(name_of(r.inputs[j])) + ", --input " + o.inputs[0] + " " +
                                std::to_string(first) + ": the inputs of one reduction are read at the same "
                                "indices; give files of one length, or --n N to read the first N of each",
                  "inputs of one length, or --n");
    n = count;
  }
  if (matrix && !o.inputs.empty()) {
    // The matrix itself (its span: the last row unpadded), or its rows all padded to --ld: not a
    // longer file cut short without a word, nor a shorter one.
    const std::uint64_t span = job.shape.span(), padded = job.shape.rows * job.shape.stride();
    if (first != span && first != padded)
      throw Error(Param::Shape,
                  "--input " + o.inputs[0] + " holds " + std::to_string(first) + " elements of " +
                      std::string(name_of(r.inputs[0])) + "; --shape " + *o.shape +
                      (o.ld ? " with --ld " + std::to_string(*o.ld) : std::string()) + " is " + std::to_string(span) +
                      (padded != span ? " (or " + std::to_string(padded) + " with the last row padded)" : "") +
                      ": give a file of exactly the matrix",
                  "a file of the matrix's elements");
    n = span;
  }
  if (job.family == F::Segments && o.inputs.size()) validate_segment_offsets(job.offsets, *n);
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  Scalar widest = r.inputs.front();
  for (Scalar s : r.inputs)
    if (size_of(s) > size_of(widest)) widest = s;
  if (*n > dev.max_alloc_bytes / size_of(widest)) {
    // Named by where n came from: --n, the input file, the matrix or the offsets (not "--n" for a
    // size the user gave by other means).
    const std::string count = std::to_string(*n) + " elements of " + std::string(name_of(widest));
    const std::string subject = o.n               ? "n = " + count
                                : !o.inputs.empty() ? "--input " + o.inputs[0] + "'s " + count
                                : matrix            ? "the matrix's " + count + " (--shape)"
                                                    : "the segments' " + count + " (the last offset)";
    throw Error(o.n ? Param::N : Param::None,
                subject + " is over " + dev.name + "'s largest allocation (" + std::to_string(dev.max_alloc_bytes) +
                    " bytes)" + (o.n || whole ? "; give n <= " : "; at most ") +
                    std::to_string(dev.max_alloc_bytes / size_of(widest)) + (!o.n && whole && !o.inputs.empty() ? " with --n (the file's first elements)" : ""),
                "n <= " + std::to_string(dev.max_alloc_bytes / size_of(widest)), dev.name);
  }
  if (whole) {  // The launch is resolved (and refused, if it must be) before any data is made.
    ReducerOptions opt;
    opt.params = job.whole;
    opt.tuning.enabled = false;
    Reducer planner = session.reducer(opt);
    introspect::prepare(planner, r, *n);
  } else if (job.family == F::Segments) {
    SegmentedReducerOptions opt;
    opt.params = job.segmented;
    opt.device = dev;
    opt.kernel_dir = session.kernel_dir();
    SegmentedReducer planner(session.queue(), opt);
    introspect::prepare(planner, r, *n, job.offsets.size() - 1);
  } else {
    AxisReducerOptions opt;
    opt.params = job.axis;
    opt.tuning.enabled = false;
    opt.device = dev;
    opt.kernel_dir = session.kernel_dir();
    AxisReducer planner(session.queue(), opt);
    introspect::prepare(planner, r, job.family == F::Rows ? Axis::Rows : Axis::Cols, job.shape);
  }
  std::vector<ScalarData> data;
  for (unsigned j = 0; j < inputs; ++j)
    data.push_back(o.inputs.empty() ? generate_scalar_data(r.inputs[j], *n, parse_data_kind(o.data.data), o.data.seed, j)
                                    : read_scalar_file(o.inputs[j], r.inputs[j], *n));
  const DescriptorReport rep = run_descriptor(session, r, data, job, timing);
  warn_once(rep.launch.warnings);
  emit(descriptor_text(rep, dev), descriptor_csv(rep), with_schema(descriptor_json(rep, dev), "reduce_descriptor"), o.output);
  if (o.values_out) write_results(*o.values_out, r.out, rep.results, o.output.force);
  if (o.binary) {
    const std::string binary = with_cl_context("reading the program binary", [&] {
      const auto binaries = rep.launch.program.getInfo<CL_PROGRAM_BINARIES>();
      return binaries.empty() ? std::string() : std::string(binaries.front().begin(), binaries.front().end());
    });
    if (binary.empty())
      throw Error("--binary " + *o.binary + ": the OpenCL implementation of " + dev.name + " returned no program binary");
    write_output(o.output, "--binary", *o.binary, binary);
  }
  return rep.ok() ? 0 : 1;
}

int reduce(const GlobalOptions& g, const ReduceTexts& o) {
  if (names_descriptor(o)) return reduce_descriptor(g, o);
  refuse_extra_inputs(o);
  if (o.segments) return reduce_segmented(g, o);
  if (o.axis) return reduce_axis(g, o);
  const OpChoice choice = op_choice(o);  // a bad --op, --type or --op-file before any device is opened
  if (is_arg_op(choice.op)) return reduce_arg_whole(g, o);
  for (const auto& [given, name] : {std::pair{o.shape.has_value(), "--shape"}, {o.row_width.has_value(), "--row-width"},
                                    {o.chunks.has_value(), "--chunks"}})
    if (given) throw Error(std::string(name) + " is for axis reductions: add --axis rows|cols (and --shape MxN)");
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  ReducerOptions opt;
  opt.params = o.launch.params;  // --wg, --times, ... as parsed; the Reducer resolves the launch
  opt.params.defines = run_defines_of(o.launch.defines);
  if (!o.variant.empty()) opt.params.variant = find_variant(o.variant).name;
  const ElemType type = choice.type;
  const Op op = choice.op;
  opt.user_op = choice.user_op;
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output, {}, reduce_inputs(o));
  opt.tuning = tuning_of(o.tuning);
  opt.device = dev;
  opt.kernel_dir = session.kernel_dir();
  Reducer reducer(session.queue(), opt);  // the one place the launch is resolved, once
  // The launch is resolved (and refused, if it must be) before any data is made; n over one
  // allocation is reduced in chunks, so the launch of one chunk is what is checked.
  if (o.n) {
    const std::uint64_t n = n_of(*o.n, type, dev);
    check_device_memory(n, type, dev);
    if (op == Op::User && n > chunk_elements(type, dev))
      throw ConfigError(Param::N, "n = " + std::to_string(n) + " is over one allocation of " + dev.name +
                                      ": a user operator's chunks would be folded on the host, which cannot run the "
                                      "user's OpenCL C; use n <= " + std::to_string(chunk_elements(type, dev)),
                        "1.." + std::to_string(chunk_elements(type, dev)), dev.name);
    warn_once(introspect::prepare(reducer, type, op, std::min(n, chunk_elements(type, dev)))->warnings);
  }
  const HostData data = input_of(o.n, o.input, o.data, type, dev, std::nullopt, /*chunks_ok=*/true);
  const ReduceReport r = run_reduce(session, reducer, data, op, timing, choice.user_op.get());
  warn_once(r.warnings);
  emit(reduce_text(r, dev), reduce_csv(r), with_schema(reduce_json(r, dev), "reduce"), o.output);
  return r.ok() ? 0 : 1;
}
}  // namespace

void register_reduce_command(Cli& cli) {
  auto o = std::make_shared<ReduceTexts>();
  CLI::App* c = cli.add("reduce", "run, time and verify one reduction", [&cli, o] { return reduce(cli.global(), *o); });
  c->add_option("--variant", o->variant,
                "variant name (see `clreduce variants`; default: the tuning database's best for the "
                "device, else the device's default policy)");
  add_run_options(c, *o, "");
  c->add_option("--axis", o->axis,
                "rows or cols: one value per row or per column of an M x N matrix (--shape) instead of one in all");
  c->add_option("--shape", o->shape, "with --axis: M x N, the matrix's rows x columns, row-major (e.g. 8192x8192)");
  c->add_option("--row-width", o->row_width,
                "with --axis rows and rows_sliced: work-items per row; with --segments: work-items per segment "
                "(segments_sliced, several segments per group) (a power of two)")
      ->check(whole_number(kMaxU32, "1, 2, 4, ... up to the work-group size"));
  c->add_option("--chunks", o->chunks,
                "with --axis and cols_tile, cols_fused or rows_split: the chunks of the rows or of each row (1: one "
                "pass), cols_stream: its groups; with --segments: parts per segment (1: segments_group, more: "
                "segments_split)")
      ->check(whole_number(65535, "1..65535 and at most M"));
  c->add_option("--ld", o->ld,
                "with --axis: elements from one row's start to the next (>= N; default N): a padded matrix, read by "
                "the reduction descriptor's kernels (with uint, int, float or double: the built-in of that name)")
      ->check(whole_number(~std::uint64_t{0} >> 1, "N or more"));
  c->add_option("--output", o->values_out,
                "with a reduction descriptor: write every result (the value, each row's, column's or segment's) to a "
                "new FILE: NumPy .npy if the name ends in .npy, else raw little-endian; an existing file is refused (--force replaces it, never an input)");
  c->add_option("--binary", o->binary,
                "with a reduction descriptor: write the program binary the driver built for the launch (PTX on "
                "NVIDIA) to a new FILE; an existing file is refused (--force replaces it, never an input)");
  c->add_option("--scalar", o->scalars,
                "with an --op-file descriptor that declares SCALARS: the value of s0, s1, ... in order (repeat it); "
                "a new value rebuilds nothing");
  c->add_option("--segments", o->segments,
                "FILE of S + 1 offsets (whitespace-separated unsigned integers: the first 0, non-decreasing, the "
                "last n): one value per segment [offsets[s], offsets[s+1]) of the --n (default: the last offset) "
                "or --input elements");
  for (const char* name : {"--n", "--times", "--groups-per-cu", "--vec"})
    o->whole_array_only.push_back(c->get_option(name));
  for (const char* name : {"--db", "--no-tuning"}) o->tuning_options.push_back(c->get_option(name));
  for (const char* name : {"--shape", "--variant", "--times", "--groups-per-cu", "--vec", "--db", "--no-tuning"})
    o->not_segmented.push_back(c->get_option(name));
}

}  // namespace clreduce::cli
