// `clreduce soak`: random reductions against the host reference until the time is up.
#include "cli.hpp"

#include "benchmarks/soak.hpp"
#include "parse.hpp"

#include <chrono>
#include <iostream>
#include <limits>

namespace clreduce::cli {

namespace {
struct SoakTexts {
  double seconds = 10;
  unsigned long long seed = 0;  // 0: from the clock (printed)
  std::optional<std::string> max_n;
  std::optional<std::size_t> max_wg;
  bool verbose = false;
  LongRunTexts long_run;
};

int soak(const GlobalOptions& g, const SoakTexts& o) {
  const Session session = make_session(g);
  SoakOptions s;
  if (!(o.seconds > 0)) throw Error("--seconds must be positive");
  s.seconds = o.seconds;
  s.seed = o.seed ? o.seed : static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  if (o.max_n) {
    s.max_n = parse_size(*o.max_n);
    if (s.max_n == 0) throw Error("--max-n 0 leaves no size to test; valid: 1 or more elements");
  }
  if (o.max_wg) {
    if (*o.max_wg == 0)
      throw Error("--max-wg 0 leaves no work-group size to test; valid: 1, 2, 4, ... up to the device's "
                  "maximum work-group size");
    s.max_wg = *o.max_wg;
  }
  // The time left is the time the run was given; the count says how many reductions were checked.
  const SoakReport r = [&] {
    ProgressReporter progress(o.long_run.quiet);
    return run_soak(session, s, [&](const SoakReport& p) {
      if (o.verbose) std::cerr << p.current << "\n";
      ProgressStep step;
      step.work_done = p.seconds;
      step.work_total = s.seconds;
      step.what = std::to_string(p.checked) + " checked, " + std::to_string(p.skipped) + " skipped";
      step.what_is_next = false;
      progress(step);
    });
  }();
  std::cout << soak_text(r, session.device());
  return r.failed ? 1 : 0;
}
}  // namespace

void register_soak_command(Cli& cli) {
  auto o = std::make_shared<SoakTexts>();
  CLI::App* c = cli.add("soak", "random reductions against the host reference until the time is up",
                        [&cli, o] { return soak(cli.global(), *o); });
  c->add_option("--seconds", o->seconds, "how long")->capture_default_str();
  c->add_option("--seed", o->seed, "the sequence's seed (default: from the clock; printed)")
      ->check(whole_number(std::numeric_limits<std::uint64_t>::max(),
                           "1.." + std::to_string(std::numeric_limits<std::uint64_t>::max()) + " (0: from the clock)"));
  c->add_option("--max-n", o->max_n, "largest n (default 2^24 on a GPU, 2^20 elsewhere)");
  c->add_option("--max-wg", o->max_wg, "largest work-group size (default: the device's)")
      ->check(whole_number(kMaxU32, "a work-group size 1, 2, 4, ... up to the device's maximum"));
  c->add_flag("--verbose", o->verbose, "print each configuration (a command line) first");
  add_long_run_options(c, o->long_run, /*with_estimate=*/false);
}

}  // namespace clreduce::cli
