// `clreduce bench multi` (issue 18): one reduction of the same n over the first 1, 2, ... all
// devices of a list, each result checked against the host reference, with time, GB/s and the
// scaling efficiency over one device. Every option is checked before any device work.
#include "cli.hpp"

#include "benchmarks/family.hpp"
#include "benchmarks/multi_bench.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/multi_device.hpp"
#include "parse.hpp"
#include "printers/multi_printer.hpp"

namespace clreduce::cli {

namespace {
struct MultiTexts {
  std::string type = "uint", op = "sum", split = "bandwidth";
  std::optional<std::string> n, chunk;
  std::vector<std::size_t> devices;
  CLI::Option* devices_option = nullptr;
  bool resident = false;
  unsigned iterations = 5, warmup = 1;
  DataTexts data;
  OutputTexts output;
  TuningTexts tuning;
};

// Options given to `bench` itself belong to the reduction benchmark, not to `bench multi`.
void refuse_bench_options(CLI::App* bench) {
  for (const CLI::Option* opt : bench->get_options())
    if (opt->count() > 0 && opt->get_name() != "--help")
      throw Error("option " + opt->get_name() +
                  " is for `bench` (the reduction benchmark), not for `bench multi`; see `clreduce bench multi --help`");
}

int bench_multi(const GlobalOptions& g, const MultiTexts& o) {
  // The texts first: nothing below opens a device until they all parse.
  MultiBenchDesign d;
  d.type = parse_type(o.type);
  d.op = parse_op(o.op);
  require_multi_device_op(d.op);
  d.split = parse_split(o.split);
  if (o.iterations == 0) throw Error("--iterations must be at least 1");
  d.iterations = o.iterations;
  d.warmup = o.warmup;
  if (o.chunk) {
    d.chunk_elements = parse_size(*o.chunk);
    if (d.chunk_elements == 0) throw Error("--chunk must be at least 1 element");
    if (o.resident) throw Error("--chunk sets the host-copied chunks; drop it with --resident");
  }
  const DataKind kind = parse_data_kind(o.data.data);
  check_outputs(o.output);
  d.reducer.tuning = tuning_of(o.tuning);
  if (g.kernel_dir) d.reducer.kernel_dir = *g.kernel_dir;
  const std::optional<std::uint64_t> n_given = o.n ? std::optional<std::uint64_t>(parse_size(*o.n)) : std::nullopt;
  if (n_given && *n_given == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");

  // The devices: the indices given, on the platform of --platform or of the default device.
  if (o.devices_option && o.devices_option->count() > 0) {
    const std::size_t platform = g.platform ? *g.platform : select_device(DeviceSelector{g.platform, g.device}).platform_index;
    d.devices = devices_at(platform, o.devices);
  } else {
    d.devices = default_devices(DeviceSelector{g.platform, g.device});
  }
  if (d.split.kind == SplitKind::Weights && d.split.weights.size() != d.devices.size())
    throw Error(Param::Split,
                "the split gives " + std::to_string(d.split.weights.size()) + " weights for " +
                    std::to_string(d.devices.size()) + " devices; give one weight per device, or even, or bandwidth",
                "one weight per device");
  if (d.type == ElemType::Double)
    for (std::size_t i = 0; i < d.devices.size(); ++i)
      if (!d.devices[i].fp64)
        throw Error(Param::Type, "double needs cl_khr_fp64, which device " + std::to_string(d.devices[i].device_index) +
                                     " (" + d.devices[i].name + ") lacks; valid types there: uint, int, float");
  const std::uint64_t n = n_given ? *n_given : default_bench_n(d.devices.front());
  if (o.resident) {
    try {
      check_allocation(n, d.type, d.devices.front());
    } catch (const Error& e) {
      throw Error(Param::N, std::string(e.what()) + " (--resident: the one-device run holds all of n in one buffer; "
                                                    "give a smaller --n or drop --resident)");
    }
  }
  d.resident = o.resident;
  note_devices(d.devices, find_kernel_dir(d.reducer.kernel_dir).path);

  const HostData data = generate_data(d.type, n, kind, o.data.seed);
  const Reference ref = host_reference(data, d.op);
  const MultiBenchRun run = run_multi_bench(d, data, ref);
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
        refuse_bench_options(bench);
        return bench_multi(cli.global(), *o);
      },
      bench);
  o->devices_option = c->add_option("--devices", o->devices,
                                    "device indices within the platform, comma-separated (default: every GPU of "
                                    "the platform, else every device)")
                          ->delimiter(',');
  c->add_option("--split", o->split, "even, bandwidth (measured) or weights w1,w2,... (one per device)")
      ->capture_default_str();
  c->add_flag("--resident", o->resident,
              "the input already on the devices (one buffer each, written before timing); default: copied from "
              "the host in chunks, overlapped with the reductions");
  c->add_option("--n", o->n, "elements (default 2^26 on a GPU, 2^22 elsewhere)");
  c->add_option("--chunk", o->chunk, "host-copied: elements per chunk (default 4Mi)");
  c->add_option("--type", o->type, "element type: uint, int, float, double")->capture_default_str();
  c->add_option("--op", o->op, "operator: sum, min, max")->capture_default_str();
  c->add_option("--iterations", o->iterations, "timed runs per device count")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "1.." + std::to_string(kMaxIterations) + " timed runs"));
  c->add_option("--warmup", o->warmup, "untimed runs first (they also build the kernels)")
      ->capture_default_str()
      ->check(whole_number(kMaxIterations, "0.." + std::to_string(kMaxIterations) + " warm-up runs"));
  add_data_options(c, o->data);
  add_output_options(c, o->output);
  add_tuning_options(c, o->tuning);
}

}  // namespace clreduce::cli
