// One measured descriptor reduction (benchmarks/descriptor_run.hpp).
#include "benchmarks/descriptor_run.hpp"

#include "clreduce/fill.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "measure/descriptor_device_reference.hpp"

#include <algorithm>
#include <cstring>

namespace clreduce {

std::string_view name_of(DescriptorJob::Family f) {
  switch (f) {
    case DescriptorJob::Family::Whole: return "whole";
    case DescriptorJob::Family::Rows: return "rows";
    case DescriptorJob::Family::Cols: return "cols";
    case DescriptorJob::Family::Segments: return "segments";
  }
  return "?";
}

namespace {
std::vector<Input> upload_inputs(const Session& session, const std::vector<ScalarData>& inputs, DescriptorReport& rep,
                                 std::vector<const ScalarData*>& refs) {
  std::vector<Input> in;
  for (const ScalarData& d : inputs) {
    rep.input_types.push_back(d.type);
    rep.origins.push_back(d.origin);
    rep.bytes_read += d.n * size_of(d.type);
    refs.push_back(&d);
    in.push_back(Input{with_cl_context("uploading " + std::to_string(d.bytes.size()) + " bytes", [&] {
                         // No elements (segments all empty, the last offset 0): a buffer of one
                         // element that nothing reads, as OpenCL has no buffer of 0 bytes.
                         if (d.bytes.empty())
                           return cl::Buffer(session.context(), CL_MEM_READ_ONLY, size_of(d.type));
                         return cl::Buffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, d.bytes.size(),
                                           const_cast<unsigned char*>(d.bytes.data()));
                       }),
                       0});
  }
  return in;
}

// The read peak over as many bytes as the reduction reads: the first input's buffer where it is
// the only one; else one buffer of all the inputs' bytes (the same launch overhead per byte).
void measure_peak(const Session& session, const std::vector<ScalarData>& inputs, const std::vector<Input>& in,
                  const TimingOptions& timing, DescriptorReport& rep) {
  if (rep.bytes_read == 0) return;  // no elements: nothing to compare a read rate with
  if (inputs.size() == 1) {
    rep.peak = measure_read_bandwidth(session, in.front().buffer, inputs.front().bytes.size(), timing);
    rep.peak_over = "input 0";
    return;
  }
  const cl::Buffer all = with_cl_context("allocating the read peak's buffer", [&] {
    cl::Buffer b(session.context(), CL_MEM_READ_WRITE, rep.bytes_read);
    enqueue_fill_bytes(session.queue(), b, 0, 0, rep.bytes_read - rep.bytes_read % 4);
    return b;
  });
  rep.peak = measure_read_bandwidth(session, all, rep.bytes_read - rep.bytes_read % 4, timing);
  rep.peak_over = "one buffer of all inputs' bytes";
}

// The m x n matrix at the start of `d` (rows ld elements apart) transposed: n rows of m, so that
// the host reads each column's elements one after another (a column walked in place touches a
// cache line per element). Tiles of 64 x 64 elements keep both sides in the cache.
ScalarData transposed(const ScalarData& d, std::uint64_t m, std::uint64_t n, std::uint64_t ld) {
  ScalarData t;
  t.type = d.type;
  t.n = m * n;
  t.origin = d.origin;
  const std::size_t es = size_of(d.type);
  t.bytes.resize(m * n * es);
  constexpr std::uint64_t kTile = 64;
  for (std::uint64_t r0 = 0; r0 < m; r0 += kTile)
    for (std::uint64_t c0 = 0; c0 < n; c0 += kTile)
      for (std::uint64_t r = r0; r < std::min(m, r0 + kTile); ++r)
        for (std::uint64_t c = c0; c < std::min(n, c0 + kTile); ++c)
          std::memcpy(t.bytes.data() + (c * m + r) * es, d.bytes.data() + (r * ld + c) * es, es);
  return t;
}

// After the timed runs: the clock, the read peak, and any sample that left other bits.
void finish_report(const Session& session, const std::vector<ScalarData>& inputs, const std::vector<Input>& in,
                   const TimingOptions& timing, unsigned changed, DescriptorReport& rep, bool read_peak) {
  rep.clock = rep.timing.clock;
  if (read_peak) measure_peak(session, inputs, in, timing, rep);
  if (changed) {
    rep.check.ok = false;
    rep.check.detail += "; and " + std::to_string(changed) + " timed sample(s) left other bits than the first run";
  }
}
}  // namespace

DescriptorReport run_descriptor(const Session& session, const Reduction& r, const std::vector<ScalarData>& inputs,
                                const DescriptorJob& job, const TimingOptions& timing) {
  using F = DescriptorJob::Family;
  if (job.family == F::Whole)
    return run_descriptor(session, r, inputs, job.whole, timing, job.scalars, job.tuning, job.read_peak);
  DescriptorReport rep;
  rep.reduction = r;
  rep.family = job.family;
  rep.shape = job.shape;
  rep.n = inputs.empty() ? 0 : inputs.front().n;
  const bool seg = job.family == F::Segments;
  const Axis axis = job.family == F::Cols ? Axis::Cols : Axis::Rows;
  const std::uint64_t count = seg ? job.offsets.size() - 1 : axis == Axis::Rows ? job.shape.rows : job.shape.cols;
  std::optional<AxisReducer> ar;
  std::optional<SegmentedReducer> sr;
  if (seg) {
    SegmentedReducerOptions o;
    o.params = job.segmented;
    o.device = session.device();
    o.kernel_dir = session.kernel_dir();
    o.tuning = job.tuning;
    sr.emplace(session.queue(), o);
    rep.launch = introspect::prepare(*sr, r, rep.n, count, Scalar::U64);
  } else {
    AxisReducerOptions o;
    o.params = job.axis;
    o.tuning = job.tuning;
    o.device = session.device();
    o.kernel_dir = session.kernel_dir();
    ar.emplace(session.queue(), o);
    rep.launch = introspect::prepare(*ar, r, axis, job.shape);
  }
  std::vector<const ScalarData*> refs;
  const std::vector<Input> in = upload_inputs(session, inputs, rep, refs);
  if (!seg) {  // the matrix's elements, not its padding
    rep.bytes_read = 0;
    for (const ScalarData& d : inputs) rep.bytes_read += job.shape.rows * job.shape.cols * size_of(d.type);
  }
  cl::Buffer offsets;
  if (seg)
    offsets = with_cl_context("uploading the offsets", [&] {
      return cl::Buffer(session.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, job.offsets.size() * 8,
                        const_cast<std::uint64_t*>(job.offsets.data()));
    });
  const Segments segments = Segments::offsets<std::uint64_t>(offsets, count);
  const std::size_t rb = r.out.bytes();
  const cl::Buffer out = with_cl_context("allocating the results", [&] {
    return cl::Buffer(session.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(count * rb, 16));
  });
  auto enqueue = [&](const cl::CommandQueue* q, bool with_event = true) {
    return seg ? introspect::enqueue(*sr, r, in, rep.n, segments, out, 0, job.scalars, q, {}, with_event)
               : introspect::enqueue(*ar, r, in, axis, job.shape, out, 0, job.scalars, q, {}, with_event);
  };
  std::vector<unsigned char> first(count * rb), again(count * rb);
  enqueue(&session.queue()).wait();
  with_cl_context("reading the results",
                  [&] { session.queue().enqueueReadBuffer(out, CL_TRUE, 0, first.size(), first.data()); });
  for (std::uint64_t k = 0; k < count; ++k) rep.results.push_back(Result::from_bytes(r.out, first.data() + k * rb));
  // Every line against its reference over its own elements: the host's for a built-in, the
  // device's in-order fold for a user's descriptor.
  std::vector<ReferenceLine> lines(count);
  const std::uint64_t stride = seg || axis == Axis::Rows ? 1 : job.shape.stride();
  for (std::uint64_t k = 0; k < count; ++k) {
    if (seg) lines[k] = {job.offsets[k], job.offsets[k + 1] - job.offsets[k], 0};
    else if (axis == Axis::Rows) lines[k] = {k * job.shape.stride(), job.shape.cols, 0};
    else lines[k] = {k, job.shape.rows, 0};
  }
  DeviceReference device_refs;
  if (!r.builtin) device_refs = descriptor_device_reference(session, r, in, lines, stride, job.scalars);
  // A built-in's columns against the host reference over transposed copies: column k is then the
  // elements k * m .. k * m + m - 1, read in order, with the same indices (the row).
  std::vector<ScalarData> columns;
  std::vector<const ScalarData*> host_refs = refs;
  std::uint64_t host_stride = stride;
  if (r.builtin && !seg && axis == Axis::Cols) {
    for (const ScalarData* d : refs) columns.push_back(transposed(*d, job.shape.rows, job.shape.cols, job.shape.stride()));
    host_refs.clear();
    for (const ScalarData& d : columns) host_refs.push_back(&d);
    host_stride = 1;
  }
  double worst_ratio = -1;
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::uint64_t start = lines[k].first, len = lines[k].count;
    DescriptorReference ref;
    Check c;
    if (r.builtin) {
      const std::uint64_t host_start = columns.empty() ? start : k * job.shape.rows;
      ref = descriptor_reference(r, host_refs, host_start, len, host_stride, rep.launch.depth_of(len));
      c = check_descriptor(rep.results[k], ref);
    } else {
      c = check_user_descriptor(rep.results[k], device_refs.results[k], device_refs.magnitudes[k], rep.launch.depth_of(len),
                                reference_depth(len, stride));
      ref.how = "the device's in-order fold (kernels_cl/descriptor_reference.cl)";
    }
    const std::string line = std::string(seg ? "segment " : axis == Axis::Rows ? "row " : "column ") + std::to_string(k);
    if (!c.ok) {
      if (rep.lines_failed++ == 0) {
        rep.check = c;
        rep.worst = line + ": " + c.detail;
        rep.reference_how = ref.how;
      }
      continue;
    }
    const double ratio = c.tolerance > 0 ? c.error / c.tolerance : 0;
    if (rep.lines_failed == 0 && ratio > worst_ratio) {
      worst_ratio = ratio;
      rep.check = c;
      rep.worst = line + ": " + c.detail;
      rep.reference_how = ref.how;
    }
  }
  if (rep.lines_failed) {
    rep.check.ok = false;
    rep.check.detail = std::to_string(rep.lines_failed) + " of " + std::to_string(count) + " results wrong; first: " + rep.worst;
  } else {
    rep.check.detail = "all " + std::to_string(count) + " results within their bounds; closest: " + rep.worst;
  }
  rep.result = rep.results.front();
  // Events only where the timer reads them (a sample's first and last launch), as the whole array's.
  const EnqueueUnit unit = [&](const cl::CommandQueue& q, bool with_event) {
    const cl::Event e = enqueue(&q, with_event);
    return with_event ? std::vector<cl::Event>{e} : std::vector<cl::Event>{};
  };
  unsigned changed = 0;
  rep.timing = session.time(unit, timing, [&] {
    with_cl_context("reading the results",
                    [&] { session.queue().enqueueReadBuffer(out, CL_TRUE, 0, again.size(), again.data()); });
    if (again != first) ++changed;
  });
  finish_report(session, inputs, in, timing, changed, rep, job.read_peak);
  return rep;
}

DescriptorReport run_descriptor(const Session& session, const Reduction& r, const std::vector<ScalarData>& inputs,
                                const ReduceParams& params, const TimingOptions& timing,
                                const std::vector<ScalarArg>& scalars, const std::optional<TuningSource>& tuning,
                                bool read_peak) {
  DescriptorReport rep;
  rep.reduction = r;
  rep.n = inputs.empty() ? 0 : inputs.front().n;
  ReducerOptions opt;
  opt.params = params;
  opt.tuning.enabled = false;  // the planner's own launch unless the caller enables tuning
  if (tuning) opt.tuning = *tuning;
  Reducer reducer = session.reducer(opt);
  rep.launch = introspect::prepare(reducer, r, rep.n);  // refusals before any upload
  std::vector<const ScalarData*> refs;
  const std::vector<Input> in = upload_inputs(session, inputs, rep, refs);
  const cl::Buffer out = with_cl_context("allocating the result", [&] {
    return cl::Buffer(session.context(), CL_MEM_READ_WRITE, std::max<std::size_t>(r.out.bytes(), 16));
  });
  // The result of the first run, checked; then every timed run's result must be the same bits.
  auto read = [&] {
    unsigned char bytes[16] = {};
    with_cl_context("reading the result", [&] { session.queue().enqueueReadBuffer(out, CL_TRUE, 0, r.out.bytes(), bytes); });
    return Result::from_bytes(r.out, bytes);
  };
  introspect::enqueue(reducer, r, in, rep.n, out, 0, scalars, &session.queue()).wait();
  rep.result = read();
  if (r.builtin) {
    const DescriptorReference ref = descriptor_reference(r, refs, rep.n, rep.launch.depth);
    rep.reference_how = ref.how;
    rep.check = check_descriptor(rep.result, ref);
  } else {
    const DeviceReference ref = descriptor_device_reference(session, r, in, {{0, rep.n, 0}}, 1, scalars);
    rep.reference_how = "the device's in-order fold (kernels_cl/descriptor_reference.cl)";
    rep.check = check_user_descriptor(rep.result, ref.results.front(), ref.magnitudes.front(), rep.launch.depth,
                                      reference_depth(rep.n, 1));
  }
  rep.results = {rep.result};
  rep.lines_failed = rep.check.ok ? 0 : 1;
  // Events only where the timer reads them (a sample's first and last launch): on NVIDIA an event
  // costs about as much as the launch (bench/NOTES.md, "One launch for float exact sums").
  const EnqueueUnit unit = [&](const cl::CommandQueue& q, bool with_event) {
    const cl::Event e = introspect::enqueue(reducer, r, in, rep.n, out, 0, scalars, &q, {}, with_event);
    return with_event ? std::vector<cl::Event>{e} : std::vector<cl::Event>{};
  };
  unsigned changed = 0;
  rep.timing = session.time(unit, timing, [&] {
    if (std::memcmp(read().bytes.data(), rep.result.bytes.data(), r.out.bytes()) != 0) ++changed;
  });
  finish_report(session, inputs, in, timing, changed, rep, read_peak);
  return rep;
}

}  // namespace clreduce
