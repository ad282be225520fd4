// `clreduce reduce`: one verified, timed reduction with the launch the library resolves.
#include "cli.hpp"

#include "clreduce/variants.hpp"
#include "measure/measure.hpp"
#include "parse.hpp"
#include "printers/reduce_printer.hpp"

#include <algorithm>

namespace clreduce::cli {

namespace {
struct ReduceTexts : RunTexts {
  std::string variant;
};

int reduce(const GlobalOptions& g, const ReduceTexts& o) {
  const Session session = make_session(g);
  const DeviceInfo& dev = session.device();
  ReducerOptions opt;
  opt.params = params_of(o.launch);
  if (!o.variant.empty()) opt.params.variant = find_variant(o.variant).name;
  const ElemType type = parse_type(o.type);
  const Op op = parse_op(o.op);
  const TimingOptions timing = timing_of(o.timing);
  check_outputs(o.output);
  opt.tuning = tuning_of(o.tuning);
  opt.device = dev;
  opt.kernel_dir = session.kernel_dir();
  Reducer reducer(session.queue(), opt);  // the one place the launch is resolved, once
  // The launch is resolved (and refused, if it must be) before any data is made; n over one
  // allocation is reduced in chunks, so the launch of one chunk is what is checked.
  if (o.n) {
    const std::uint64_t n = parse_size(*o.n);
    check_device_memory(n, type, dev);
    warn_once(reducer.prepare(type, op, std::min(n, chunk_elements(type, dev)))->warnings);
  }
  const HostData data = input_of(o.n, o.input, o.data, type, dev, std::nullopt, /*chunks_ok=*/true);
  const ReduceReport r = run_reduce(session, reducer, data, op, timing);
  warn_once(r.warnings);
  emit(reduce_text(r, dev), reduce_csv(r), reduce_json(r, dev), o.output);
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
}

}  // namespace clreduce::cli
