// The two measured jobs of the CLI: one verified reduction (run_reduce) and the whole family on
// one input beside the device's measured read bandwidth (run_bench).
#pragma once

#include "data/host_data.hpp"
#include "reduce/plan.hpp"
#include "measure/read_bandwidth.hpp"
#include "clreduce/reduce.hpp"
#include "core/runtime.hpp"
#include "clreduce/tuning.hpp"
#include "data/reference.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// What run_reduce measured and checked.
struct ReduceReport {
  ReduceConfig config;
  std::uint64_t n = 0;
  std::string data_origin;
  Plan plan;
  Timed timed;
  Reference reference;
  Check check;
  double gbps = 0;  // n * sizeof(T) / median whole-reduction time
  std::uint64_t chunks = 1;          // input buffers (n over one allocation: several)
  std::uint64_t chunk_elements = 0;  // elements per chunk when chunks > 1
  // Parameters taken from the tuning database ("wg=256", ...) and the database's path; empty
  // when the configuration is the user's and the built-in defaults only.
  std::vector<std::string> tuned;
  std::string tuned_from;
  bool ok() const { return check.ok && timed.consistent; }
};

// Times one planned reduction on an uploaded input (both ways, see Reducer::time) and checks its
// value against the reference.
ReduceReport measure_reduction(Reducer& reducer, const cl::Buffer& input, const HostData& data,
                               const Reference& reference, const TimingOptions& timing);

// n over the device's largest allocation goes through run_reduce_chunked (chunked.hpp).
ReduceReport run_reduce(Runtime& rt, const ReduceConfig& cfg, const HostData& data,
                        const TimingOptions& timing);

// Fills the parameters of `cfg` the user left unset from `tuned` (apply_tuned), keeping the result
// only if it plans for n elements on the device. Returns the parameters filled; when the tuned
// configuration does not plan, leaves cfg as it was and sets *refused to the planner's reason.
std::vector<std::string> apply_tuned_checked(const TunedParams& tuned, ReduceConfig& cfg,
                                             const DeviceInfo& dev, std::uint64_t n,
                                             std::string* refused);

// Default benchmark size: 2^26 elements on a GPU, 2^22 elsewhere (a CPU).
std::uint64_t default_bench_n(const DeviceInfo& dev);

struct BenchOptions {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::size_t wg = 0;                     // 0: each variant's default
  std::optional<unsigned> times, groups_per_cu, vec;  // for the variants that take them
  std::vector<Define> defines;
  std::vector<std::string> variants;      // empty: every registered variant
  TimingOptions timing;
  // Tuned launch parameters per variant (from the tuning database), applied under the options
  // above: an option the user gave wins over the tuned value.
  std::map<std::string, TunedParams> tuned;
  std::string tuned_from;  // the database's path
};

struct BenchRow {
  std::string variant;
  std::optional<ReduceReport> report;  // empty when skipped or failed to set up
  std::string skipped;                 // why the variant did not run here (unavailable)
  std::string error;                   // a set-up error (bad option, failed build)
  std::string tuned_refused;           // tuned parameters that did not plan: why (defaults used)
  double speedup = 0;                  // naive's median / this median
  double pct_of_peak = 0;
  bool ok() const { return skipped.empty() && error.empty() && report && report->ok(); }
};

struct BenchReport {
  std::uint64_t n = 0;
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::string data_origin;
  ReadBandwidth peak;
  std::vector<BenchRow> rows;
  bool all_ok() const;
};

// Runs every selected variant on `data`; `progress` (if set) hears each variant's name first.
BenchReport run_bench(Runtime& rt, const BenchOptions& opt, const HostData& data,
                      const std::function<void(const std::string&)>& progress = {});

}  // namespace clreduce
