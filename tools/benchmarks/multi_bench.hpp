// `clreduce bench multi`: one reduction of the same n on the first 1, 2, ... D devices of a list
// (MultiReducer), each run checked against the host reference, with the time, GB/s, speedup and
// scaling efficiency over one device. The reduction is a type and operator, or a reduction
// descriptor (a built-in or a user's file) over its inputs. Times in microseconds (host clock),
// bandwidth in GB/s (the bytes of every input over the time).
#pragma once

#include "clreduce/multi_device.hpp"
#include "clreduce/timing.hpp"
#include "data/descriptor_reference.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/host_anchors.hpp"
#include "measure/progress.hpp"

#include <functional>
#include <optional>

#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

struct MultiBenchDesign {
  std::vector<DeviceInfo> devices;  // the list; runs use its first 1, 2, ... all
  ElemType type = ElemType::Uint;   // the type and operator, unless `reduction` is set
  Op op = Op::Sum;
  std::optional<Reduction> reduction;  // a descriptor (run_multi_bench_descriptor)
  std::vector<ScalarArg> scalars;      // its run-time scalars
  Split split;                      // weights: one per device of the list (a run takes its first k)
  bool resident = false;            // one buffer per device, written before timing
  std::uint64_t chunk_elements = 0; // host-copied chunks; 0: the library's default
  HostPath host_path = HostPath::Auto;  // host-copied: how chunks reach each device
  unsigned copy_threads = 0;            // host-copied, pinned: copy threads a device (0: the library's default)
  unsigned warmup = 1, iterations = 5;
  ReducerOptions reducer;
  // Told before each device count's run (the count of them the total), e.g. a ProgressReporter.
  std::function<void(const ProgressStep&)> progress;
};

// One device count's run.
struct MultiBenchRow {
  std::size_t devices = 0;
  Stats us;                       // the whole reduction, per iteration
  std::vector<Stats> device_us;   // each device's part (empty parts: all 0)
  std::vector<Stats> device_start_us;  // the call's start to each part's start (DeviceShare::start_us)
  Stats tail_us;                  // the last part's value to the call's return (MultiResult::tail_us)
  MultiResult last;               // the last iteration's result (shares: parts, values, variants)
  Check check;                    // against the host reference at last.depth
  bool repeatable = true;         // every iteration gave the same bits (Op: two NaNs agree)
  double gbps = 0;                // n bytes over the median
  double speedup = 0;             // one device's median over this one's
  double efficiency_pct = 0;      // speedup / devices * 100
  bool ok() const { return check.ok && repeatable; }
};

struct MultiBenchRun {
  MultiBenchDesign design;
  std::uint64_t n = 0;
  std::uint64_t element_bytes = 0;  // the bytes of one element of every input (n of them are read)
  std::string data_origin;
  std::vector<MultiBenchRow> rows;
  // Device counts not run: their first k weights (--split w1,w2,...) are all 0.
  std::vector<std::size_t> skipped;
  // Host-copied runs: the host's own threaded sum and device 0's pageable and pinned writes of the
  // same bytes (the first input's), measured after the rows.
  std::optional<HostAnchors> anchors;
  // Host-copied runs by Op: the library's own call on the same host data (clreduce::reduce(),
  // which picks its route itself: host_data_route()), the best of the iterations after
  // one untimed call, checked against the reference at the bound of any order (depth n).
  struct ApiCall {
    std::string device;  // host_data_device()'s name
    std::string route;   // host_data_route() of these bytes in words
    double us = 0, gbps = 0;
    Check check;
  };
  std::optional<ApiCall> api_call;
  bool all_ok() const;
};

// Runs every device count on `data` (checked against `ref`). Throws Error for a device failure
// (naming it) or a configuration the library refuses.
MultiBenchRun run_multi_bench(const MultiBenchDesign& d, const HostData& data, const Reference& ref);

// A descriptor's result checked at the call's depth (the longest chain of combines).
using ResultCheck = std::function<Check(const Result& got, unsigned depth)>;
// The same for d.reduction over `inputs` (one per input of the descriptor, n elements each).
MultiBenchRun run_multi_bench_descriptor(const MultiBenchDesign& d, const std::vector<ScalarData>& inputs,
                                         const ResultCheck& check);

}  // namespace clreduce
