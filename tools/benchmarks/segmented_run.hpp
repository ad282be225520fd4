// One verified, timed segmented reduction (`clreduce reduce --segments`): the launch the
// SegmentedReducer resolves, one checked run into a poisoned output buffer (every segment against
// the host reference), then warm-ups and timed samples. Bandwidth counts the bytes read: the n
// elements and the S + 1 offsets.
#pragma once

#include "clreduce/introspect/segmented.hpp"
#include "clreduce/timing.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

struct SegmentedConfig : SegmentedParams {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
};

struct SegmentedReport {
  SegmentedConfig config;
  SegmentedPlan plan;
  std::string data_origin, segments_origin;  // "random, seed 42"; the offsets file's name, or ""
  std::uint64_t empty_segments = 0, longest_segment = 0;
  Sampled timing;          // whole_us: one reduction
  std::string clock_note;  // with the host clock (timing.clock): why the device's timer was not used
  double gbps = 0;         // (n * sizeof(T) + (S + 1) * 8) / median
  SegmentCheck check;      // every segment against the host reference
  Outputs outputs;         // as read back (values; for argmin/argmax their indexes)
  std::uint64_t bytes_read() const { return plan.n * size_of(config.type) + (plan.segments + 1) * 8; }
  bool ok() const { return check.ok; }
};

// Runs `cfg` on `data` in the segments `offsets` gives. Throws ConfigError (Param::Segments)
// for offsets that do not partition the data's elements (validate_segment_offsets), Error
// (Param::Type) when the data is not of cfg.type, the launch's ConfigError or LimitError before
// any buffer is made.
// Op::User takes `user_op` (its reference on the device).
SegmentedReport run_segmented(const Session& rt, const SegmentedConfig& cfg, const HostData& data,
                              const std::vector<std::uint64_t>& offsets, const TimingOptions& timing,
                              const std::string& segments_origin = "",
                              const std::shared_ptr<const UserOperator>& user_op = nullptr);

}  // namespace clreduce
