// `clreduce bench multi`: one reduction of the same n over the first 1, 2, ... all
// devices of a list, each result checked against the host reference, with time, GB/s and the
// scaling efficiency over one device. The old names (uint, int, float, double with sum, min, max)
// run the families' kernels by Op; every other built-in, type or --op-file descriptor runs as a
// reduction descriptor. Every option is checked before any device work.
#include "cli.hpp"

#include "benchmarks/family.hpp"
#include "benchmarks/multi_bench.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/reduction.hpp"
#include "measure/descriptor_device_reference.hpp"
#include "clreduce/multi_device.hpp"
#include "parse.hpp"
#include "printers/multi_printer.hpp"

#include <limits>

namespace clreduce::cli {

namespace {
struct MultiTexts {
  std::string type = "uint", op = "sum", split = "bandwidth", host_path = "auto";
  unsigned copy_threads = 0;
  CLI::Option* type_option = nullptr;
  CLI::Option* op_option = nullptr;
  std::optional<std::string> n, chunk, op_file, accumulate;
  bool exact = false;
  std::vector<std::string> scalars;
  std::vector<std::string> devices;  // "D" (a device of the platform) or "P:D" (device D of platform P)
  CLI::Option* devices_option = nullptr;
  bool resident = false;
  unsigned iterations = 5, warmup = 1;
  DataTexts data;
  OutputTexts output;
  TuningTexts tuning;
  LongRunTexts long_run;  // --quiet, as every benchmark takes it
};

// The reduction a descriptor run takes: a user's descriptor file, or a built-in of a type
// (--accumulate: its accumulator). Nothing here opens a device.
Reduction descriptor_of(const MultiTexts& o) {
  if (o.op_file) {
    refuse_beside_descriptor_file(*o.op_file, o.op_option && o.op_option->count() > 0,
                                  o.type_option && o.type_option->count() > 0, o.accumulate.has_value(), o.exact);
    return load_reduction(*o.op_file);
  }
  const Scalar type = parse_scalar(o.type);
  std::optional<Scalar> acc;
  if (o.accumulate) acc = parse_scalar(*o.accumulate);
  return builtin(parse_builtin(o.op), type, acc, o.exact ? Summation::Exact : Summation::Default);
}

// Whether the texts name a reduction descriptor rather than a type and operator of the Op path.
bool names_descriptor(const MultiTexts& o) {
  if (o.accumulate || o.exact || !o.scalars.empty()) return true;
  if (o.op_file) {
    if (is_reduction_file(*o.op_file)) return true;
    throw Error(Param::OpFile, "--op-file " + *o.op_file + " is a user operator (it #defines OP and IDENTITY); the "
                               "multi-device path takes reduction descriptor files (INPUTS, RESULT, ACC_TYPE, "
                               "IDENTITY, COMBINE: see kernels_cl/examples)",
                "a reduction descriptor file");
  }
  try {
    parse_type(o.type);
    const Op op = parse_op(o.op);
    return op != Op::Sum && op != Op::Min && op != Op::Max;  // argmin, argmax: the descriptor built-ins
  } catch (const Error&) {
    return true;  // a name only descriptors know: their parsers list every valid one
  }
}

// The --devices list: each item a device index of the platform (--platform, else the default
// device's), or P:D, device D of platform P (a GPU beside a CPU of another platform, say). A
// list of plain indices is one platform's (devices_at's refusals); a device given twice is refused
// by the MultiReducer.
std::vector<DeviceInfo> listed_devices(const std::vector<std::string>& items, const GlobalOptions& g) {
  const char* const valid = "device indices D of the platform, or P:D for device D of platform P (see `clreduce devices`)";
  std::vector<std::pair<std::size_t, std::size_t>> at;
  bool qualified = false;
  for (const std::string& item : items) {
    const std::size_t colon = item.find(':');
    const auto index = [&](const std::string& text) {
      if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        throw Error(Param::Devices, "--devices: '" + item + "' is not a device; valid: " + valid, valid);
      return static_cast<std::size_t>(std::stoul(text));
    };
    if (colon == std::string::npos) {
      at.emplace_back(std::numeric_limits<std::size_t>::max(), index(item));
    } else {
      qualified = true;
      at.emplace_back(index(item.substr(0, colon)), index(item.substr(colon + 1)));
    }
  }
  const std::size_t platform = g.platform ? *g.platform : select_device(DeviceSelector{g.platform, g.device}).platform_index;
  if (!qualified) {
    std::vector<std::size_t> indices;
    for (const auto& pd : at) indices.push_back(pd.second);
    return devices_at(platform, indices);
  }
  std::vector<DeviceInfo> out;
  for (const auto& [p, i] : at) out.push_back(devices_at(p == std::numeric_limits<std::size_t>::max() ? platform : p, {i}).front());
  return out;
}

int bench_multi(const GlobalOptions& g, const MultiTexts& o) {
  // The texts first: nothing below opens a device until they all parse.
  MultiBenchDesign d;
  if (names_descriptor(o)) {
    d.reduction = descriptor_of(o);
    d.scalars = scalar_args_of(o.scalars, *d.reduction);
  } else {
    d.type = parse_type(o.type);
    d.op = parse_op(o.op);
    require_multi_device_op(d.op);
  }
  d.split = parse_split(o.split);
  d.host_path = parse_host_path(o.host_path);
  d.copy_threads = o.copy_threads;
  if (o.iterations == 0) throw Error("--iterations must be at least 1");
  d.iterations = o.iterations;
  d.warmup = o.warmup;
  if (o.chunk) {
    d.chunk_elements = parse_size(*o.chunk);
    if (d.chunk_elements == 0) throw Error("--chunk must be at least 1 element");
    if (o.resident) throw Error("--chunk sets the host-copied chunks; drop it with --resident");
  }
  if (o.resident && o.host_path != "auto")
    throw Error(Param::HostPath, "--host-path sets how host-copied chunks reach a device; drop it with --resident");
  if (o.copy_threads && d.host_path != HostPath::Pinned && d.host_path != HostPath::Auto)
    throw Error(Param::HostPath, "--copy-threads sets the pinned path's copy threads; give it with --host-path pinned or auto");
  const DataKind kind = parse_data_kind(o.data.data);
  check_outputs(o.output, {}, named("--op-file", o.op_file));
  d.reducer.tuning = tuning_of(o.tuning);
  if (g.kernel_dir) d.reducer.kernel_dir = *g.kernel_dir;
  const std::optional<std::uint64_t> n_given = o.n ? std::optional<std::uint64_t>(parse_size(*o.n)) : std::nullopt;
  if (n_given && *n_given == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");

  // The devices: the indices given, on the platform of --platform or of the default device.
  if (o.devices_option && o.devices_option->count() > 0) {
    d.devices = listed_devices(o.devices, g);
  } else {
    d.devices = default_devices(DeviceSelector{g.platform, g.device});
  }
  if (d.split.kind == SplitKind::Weights && d.split.weights.size() != d.devices.size())
    throw Error(Param::Split,
                "the split gives " + std::to_string(d.split.weights.size()) + " weights for " +
                    std::to_string(d.devices.size()) + " devices; give one weight per device, or even, or bandwidth",
                "one weight per device");
  const bool fp64 = d.reduction ? d.reduction->needs_fp64() : d.type == ElemType::Double;
  if (fp64)
    for (std::size_t i = 0; i < d.devices.size(); ++i)
      if (!d.devices[i].fp64)
        throw Error(Param::Type, std::string(d.reduction ? "reduction " + d.reduction->name + " needs f64" : "double needs cl_khr_fp64") +
                                     ", which device " + std::to_string(d.devices[i].device_index) + " (" +
                                     d.devices[i].name + ") lacks (no cl_khr_fp64); valid types there: all but f64 (double)");
  const std::uint64_t n = n_given ? *n_given : default_bench_n(d.devices.front());
  // The one-device run holds all of n (resident), and a user descriptor's reference reads all of
  // it on device 0: each input must fit one allocation there.
  std::size_t widest = d.reduction ? 1 : size_of(d.type);
  if (d.reduction)
    for (Scalar s : d.reduction->inputs) widest = std::max(widest, size_of(s));
  const bool whole_on_first = o.resident || (d.reduction && !d.reduction->builtin);
  if (whole_on_first && n > d.devices.front().max_alloc_bytes / widest)
    throw Error(Param::N, "n = " + std::to_string(n) + " elements of " + std::to_string(widest) + " bytes is over " +
                              d.devices.front().name + "'s largest allocation (" +
                              std::to_string(d.devices.front().max_alloc_bytes) + " bytes), which " +
                              (o.resident ? "--resident (the one-device run holds all of n in one buffer)"
                                          : "the user descriptor's reference (all of n on device 0)") +
                              " needs; give a smaller --n",
                "n <= " + std::to_string(d.devices.front().max_alloc_bytes / widest));
  d.resident = o.resident;
  note_devices(d.devices, find_kernel_dir(d.reducer.kernel_dir));
  ProgressReporter progress(o.long_run.quiet);
  d.progress = std::ref(progress);

  if (!d.reduction) {
    const HostData data = generate_data(d.type, n, kind, o.data.seed);
    const Reference ref = host_reference(data, d.op);
    const MultiBenchRun run = run_multi_bench(d, data, ref);
    emit(multi_text(run), multi_csv(run), multi_json(run), o.output);
    return run.all_ok() ? 0 : 1;
  }
  const Reduction& r = *d.reduction;
  std::vector<ScalarData> inputs;
  for (unsigned j = 0; j < r.inputs.size(); ++j)
    inputs.push_back(generate_scalar_data(r.inputs[j], n, kind, o.data.seed, j));
  ResultCheck check;
  if (r.builtin) {
    std::vector<const ScalarData*> in;
    for (const ScalarData& x : inputs) in.push_back(&x);
    check = [&r, in, n](const Result& got, unsigned depth) {
      return check_descriptor(got, descriptor_reference(r, in, n, depth));
    };
  } else {
    // A user's map and combine run only on a device: the reference folds the whole input in
    // index order on device 0 (measure/descriptor_device_reference.hpp).
    const Session session(d.devices.front(), d.reducer.kernel_dir);
    std::vector<Input> whole;
    for (const ScalarData& x : inputs)
      whole.push_back(Input{with_cl_context("writing the reference's input", [&] {
                              cl::Buffer b(session.context(), CL_MEM_READ_ONLY, x.bytes.size());
                              session.queue().enqueueWriteBuffer(b, CL_TRUE, 0, x.bytes.size(), x.bytes.data());
                              return b;
                            }),
                            0});
    const DeviceReference ref = descriptor_device_reference(session, r, whole, {ReferenceLine{0, n, 0}}, 1, d.scalars);
    const std::uint64_t ref_depth = reference_depth(n, 1);
    check = [ref, ref_depth](const Result& got, unsigned depth) {
      return check_user_descriptor(got, ref.results[0], ref.magnitudes[0], depth, ref_depth);
    };
  }
  const MultiBenchRun run = run_multi_bench_descriptor(d, inputs, check);
  emit(multi_text(run), multi_csv(run), multi_json(run), o.output);
  return run.all_ok() ? 0 : 1;
}
}  // namespace

void register_multi_bench_command(Cli& cli) {
  CLI::App* bench = cli.find("bench");
  auto o = std::make_shared<MultiTexts>();
  CLI::App* c = cli.add(
      "multi",
      "one reduction over the first 1, 2, ... all devices of the platform: time, GB/s and scaling efficiency, "
      "each result checked against the host",
      [&cli, bench, o] {
        refuse_parent_options(bench, "the reduction benchmark", "multi");
        return bench_multi(cli.global(), *o);
      },
      bench);
  o->devices_option = c->add_option("--devices", o->devices,
                                    "device indices within the platform, or P:D for device D of platform P (a GPU "
                                    "beside another platform's CPU: 0:0,1:0), comma-separated (default: every GPU "
                                    "of the platform, else every device)")
                          ->delimiter(',');
  c->add_option("--split", o->split, "even, bandwidth (measured) or weights w1,w2,... (one per device)")
      ->capture_default_str();
  c->add_flag("--resident", o->resident,
              "the input already on the devices (one buffer each, written before timing); default: copied from "
              "the host in chunks, overlapped with the reductions");
  c->add_option("--n", o->n, "elements (default 2^26 on a GPU, 2^22 elsewhere)");
  c->add_option("--chunk", o->chunk, "host-copied: elements per chunk (default 4Mi)");
  c->add_option("--host-path", o->host_path,
                "host-copied: how chunks reach a device: auto (in_place on a device sharing the host's memory, else "
                "pinned), pageable, pinned, in_place")
      ->capture_default_str();
  c->add_option("--copy-threads", o->copy_threads,
                "host-copied, pinned: threads that copy each chunk into the staging buffer (default: the hardware's "
                "threads over the devices, 1 to 8)")
      ->check(whole_number(256, "1..256 threads"));
  o->type_option = c->add_option("--type", o->type,
                                 "element type: uint, int, float, double, or any reduction descriptor type (u8, i8, "
                                 "u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64)")
                       ->capture_default_str();
  o->op_option = c->add_option("--op", o->op,
                               "sum, min, max (with uint, int, float, double: the families' kernels), or any built-in "
                               "reduction descriptor (argmin, argmax, mean, var_pop, dot, l2, nansum, ...)")
                     ->capture_default_str();
  c->add_option("--op-file", o->op_file, "a reduction descriptor file (.clh: INPUTS, RESULT, ACC_TYPE, IDENTITY, "
                                         "COMBINE; see kernels_cl/examples)");
  c->add_option("--accumulate", o->accumulate, "a built-in's accumulator type (e.g. f64 for an f32 sum)");
  c->add_flag("--exact", o->exact, "a built-in's exact summation (sum, mean, dot, sumsq, l2 of f16, bf16, f32, f64)");
  c->add_option("--scalar", o->scalars, "with --op-file: the value of s0, s1, ... in order (repeat it)");
  c->add_option("--iterations", o->iterations, "timed runs per device count")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "1.." + std::to_string(kMaxIterations) + " timed runs"));
  c->add_option("--warmup", o->warmup, "untimed runs first (they also build the kernels)")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "0.." + std::to_string(kMaxIterations) + " warm-up runs"));
  add_data_options(c, o->data);
  add_output_options(c, o->output);
  add_long_run_options(c, o->long_run, /*with_estimate=*/false);
  add_tuning_options(c, o->tuning);
}

}  // namespace clreduce::cli
