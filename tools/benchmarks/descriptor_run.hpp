// One measured descriptor reduction (clreduce/reduction.hpp) of host data: uploaded, its launch
// prepared, timed back to back and one call at a time (Session::time), its result read and
// checked against the host reference (data/descriptor_reference.hpp) of a built-in, or the
// device's in-order fold of a user's descriptor (measure/descriptor_device_reference.hpp).
#pragma once

#include "clreduce/axis.hpp"
#include "clreduce/introspect/reduce.hpp"
#include "clreduce/segmented.hpp"
#include "data/descriptor_reference.hpp"
#include "measure/read_bandwidth.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// What a descriptor run reduces: the whole array, every row or column of a matrix, or every
// segment of CSR offsets; and the launch parameters of that family's reducer.
struct DescriptorJob {
  enum class Family { Whole, Rows, Cols, Segments } family = Family::Whole;
  MatrixShape shape;                    // Rows, Cols: the matrix (each input shape.span() elements)
  std::vector<std::uint64_t> offsets;   // Segments: S + 1 CSR offsets over the inputs' n elements
  ReduceParams whole;                   // Whole: the Reducer's
  AxisParams axis;                      // Rows, Cols: the AxisReducer's
  SegmentedParams segmented;            // Segments: the SegmentedReducer's
  std::vector<ScalarArg> scalars;       // the descriptor's run-time scalars, one per Reduction::scalars
  // Where tuned launches come from (the tuning database's descriptor entries). Disabled unless a
  // caller enables it (`reduce` does; bench and tune measure the planner's own launches).
  TuningSource tuning = [] {
    TuningSource t;
    t.enabled = false;
    return t;
  }();
  // Whether the report measures the device's read peak beside the reduction (tune leaves it out:
  // it compares launches with each other, not with the peak).
  bool read_peak = true;
};
std::string_view name_of(DescriptorJob::Family f);  // "whole", "rows", "cols", "segments"

struct DescriptorReport {
  Reduction reduction;
  DescriptorJob::Family family = DescriptorJob::Family::Whole;
  MatrixShape shape;                 // Rows, Cols
  std::vector<Result> results;       // every result (one for the whole array), in order
  std::uint64_t lines_failed = 0;    // results off their references
  std::string worst;                 // lines: the first failing line's check, or the largest error's
  std::vector<Scalar> input_types;
  std::vector<std::string> origins;  // each input's origin ("random, seed 42" or the file name)
  std::uint64_t n = 0;
  std::uint64_t bytes_read = 0;      // n times the bytes of one element of every input
  DescriptorLaunch launch;
  Result result;
  Check check;
  std::string reference_how;
  Sampled timing;
  TimeSource clock = TimeSource::DeviceEvents;
  // The device's read rate over the first input's buffer, timed as the reduction is: the
  // figure "% of read peak" is relative to (measure/read_bandwidth.hpp).
  ReadBandwidth peak;
  std::string peak_over;  // which buffer it read
  double pct_of_peak() const { return peak.gbps > 0 ? 100.0 * read_gbs() / peak.gbps : 0; }
  bool ok() const { return check.ok; }
  std::string out_layout_str() const { return reduction.out.str(); }
  // The read rate of the back-to-back median, GB/s (10^9 bytes per second).
  double read_gbs() const { return timing.whole_us.median > 0 ? static_cast<double>(bytes_read) / timing.whole_us.median / 1e3 : 0; }
};

// Rows, columns or segments (job.family) of the inputs, every result checked against its host
// reference over the line's own elements with the launch's depth for that line.
// Throws Error as the reducers and descriptor_reference do.
DescriptorReport run_descriptor(const Session& session, const Reduction& r, const std::vector<ScalarData>& inputs,
                                const DescriptorJob& job, const TimingOptions& timing);

// Throws Error as Reducer::reduce(Reduction, ...) and descriptor_reference do.
// `tuning` (empty: disabled) and `read_peak` as DescriptorJob's.
DescriptorReport run_descriptor(const Session& session, const Reduction& r, const std::vector<ScalarData>& inputs,
                                const ReduceParams& params, const TimingOptions& timing,
                                const std::vector<ScalarArg>& scalars = {}, const std::optional<TuningSource>& tuning = {},
                                bool read_peak = true);

}  // namespace clreduce
