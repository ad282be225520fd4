// One verified, timed axis reduction (`clreduce reduce --axis`): the launch the AxisReducer
// resolves, one checked run into a poisoned output buffer, then warm-ups and timed samples.
// Bandwidth counts the bytes read: M * N * sizeof(T).
#pragma once

#include "clreduce/introspect/axis.hpp"
#include "clreduce/timing.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <string>

namespace clreduce {

struct AxisReport {
  AxisConfig config;
  AxisPlan plan;
  std::string data_origin;
  Sampled timing;          // whole_us: one reduction, all its passes
  std::string clock_note;  // with the host clock (timing.clock): why the device's timer was not used
  double gbps = 0;         // M * N * sizeof(T) / median
  AxisCheck check;         // every output against the host reference
  Outputs outputs;         // as read back (values; for argmin/argmax their indexes)
  bool whole_array = false;  // a whole array run as one row of n (`reduce --op argmin|argmax`)
  // Where the launch came from (AxisLaunch): "given", "tuned" or "default rule", the shape's
  // class, the parameters the tuning database filled, its entry's date and path, its warnings.
  std::string chosen_by, shape_class, tuned_date, tuned_from;
  std::vector<std::string> tuned, warnings;
  bool ok() const { return check.ok; }
};

// Runs `cfg` on `data` (M x N elements of cfg.type). Throws Error (Param::Shape) when the data
// does not hold M * N elements of the type; the launch's ConfigError or LimitError before any
// buffer is made.
// Op::User takes `user_op` (its reference on the device). `tuning`: where a tuned launch may come
// from when cfg names no variant (disabled: the planner's rules alone).
AxisReport run_axis(const Session& rt, const AxisConfig& cfg, const HostData& data, std::uint64_t m,
                    std::uint64_t n, const TimingOptions& timing,
                    const std::shared_ptr<const UserOperator>& user_op = nullptr,
                    const TuningSource& tuning = TuningSource{});

}  // namespace clreduce
