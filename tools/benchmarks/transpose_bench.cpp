// run_transpose, the copy bandwidth and run_transpose_bench.
#include "benchmarks/transpose_bench.hpp"

#include "clreduce/fill.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "parse.hpp"

namespace clreduce {

namespace {
cl::Buffer device_buffer(const Session& rt, cl_mem_flags flags, std::uint64_t bytes,
                         const std::string& what) {
  return with_cl_context("allocating " + std::to_string(bytes) + " bytes for " + what,
                         [&] { return cl::Buffer(rt.context(), flags, bytes); });
}

cl::Buffer upload(const Session& rt, const HostData& data) {
  cl::Buffer b = device_buffer(rt, CL_MEM_READ_ONLY, data.bytes.size(), "the input matrix");
  with_cl_context("uploading the input matrix", [&] {
    rt.queue().enqueueWriteBuffer(b, CL_TRUE, 0, data.bytes.size(), data.data());
  });
  return b;
}

// One checked run into a poisoned output buffer, then the timed samples.
TransposeReport measure(const Session& rt, Transposer& t, const TransposeLaunch& l, const cl::Buffer& in,
                        const cl::Buffer& out, const HostData& data, const std::vector<unsigned char>& expected,
                        const TimingOptions& timing) {
  TransposeReport r;
  r.config = l.config;
  r.plan = l.plan;
  r.clock_note = rt.timer().reason;
  r.data_origin = data.origin;
  const std::uint64_t bytes = data.bytes.size();
  std::vector<unsigned char> got(bytes);
  with_cl_context("poisoning the output, transposing and reading back", [&] {
    enqueue_fill_bytes(rt.queue(), out, kPoisonByte, 0, bytes);
    introspect::enqueue(t, l, in, out, nullptr, false);
    rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes, got.data());
  });
  r.check = check_transpose(got, expected, r.plan.m, r.plan.n, r.config.type);
  r.timing = rt.time(
      [&](const cl::CommandQueue& q, bool ev) { return introspect::enqueue(t, l, in, out, &q, ev); }, timing);
  r.gbps = r.timing.whole_us.median > 0
               ? 2.0 * static_cast<double>(bytes) / (r.timing.whole_us.median * 1e3)
               : 0;
  return r;
}

void check_data(const HostData& data, ElemType type, std::uint64_t m, std::uint64_t n) {
  if (data.type != type || data.n != m * n)
    throw Error(Param::Shape, "input data (" + std::to_string(data.n) + " " + std::string(name_of(data.type)) +
                ") does not match a " + shape_label(m, n) + " matrix of " +
                std::string(name_of(type)));
}
}  // namespace

TransposeReport run_transpose(const Session& rt, const TransposeConfig& cfg, const HostData& data,
                              std::uint64_t m, std::uint64_t n, const TimingOptions& timing) {
  TransposerOptions opt;
  opt.params = cfg;
  Transposer t = rt.transposer(opt);
  const std::shared_ptr<const TransposeLaunch> l = introspect::prepare(t, cfg.type, m, n);
  check_data(data, cfg.type, m, n);
  const cl::Buffer in = upload(rt, data);
  const cl::Buffer out = device_buffer(rt, CL_MEM_WRITE_ONLY, data.bytes.size(), "the output");
  const auto expected = host_transpose(data.bytes, m, n, size_of(cfg.type));
  return measure(rt, t, *l, in, out, data, expected, timing);
}

CopyBandwidth measure_copy_bandwidth(const Session& rt, const cl::Buffer& src, const cl::Buffer& dst,
                                     std::uint64_t bytes, const TimingOptions& timing) {
  CopyBandwidth c;
  c.bytes = bytes;
  c.timing = rt.time(
      [&](const cl::CommandQueue& q, bool with_event) {
        return with_cl_context("enqueueing a buffer copy", [&] {
          std::vector<cl::Event> ev(with_event ? 1 : 0);
          q.enqueueCopyBuffer(src, dst, 0, 0, bytes, nullptr, with_event ? &ev[0] : nullptr);
          return ev;
        });
      },
      timing);
  c.gbps = c.timing.whole_us.median > 0
               ? 2.0 * static_cast<double>(bytes) / (c.timing.whole_us.median * 1e3)
               : 0;
  return c;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> default_transpose_shapes() {
  return {{2048, 512}, {8192, 8192}};
}

bool TransposeBenchReport::all_ok() const {
  for (const auto& s : shapes)
    for (const auto& row : s.rows)
      if (!row.ok()) return false;
  return true;
}

namespace {
std::vector<const TransposeVariant*> chosen_variants(const TransposeBenchOptions& opt) {
  std::vector<const TransposeVariant*> chosen;
  if (opt.variants.empty()) {
    for (const auto& v : transpose_variants()) chosen.push_back(&v);
  } else {
    for (const auto& name : opt.variants) chosen.push_back(&find_transpose_variant(name));
  }
  return chosen;
}
}  // namespace

RunEstimate estimate_transpose_bench(const Calibration& c, const TransposeBenchOptions& opt, TimeSource clock) {
  RunEstimate e;
  e.calibration = c;
  const auto shapes = opt.shapes.empty() ? default_transpose_shapes() : opt.shapes;
  const std::size_t variants = chosen_variants(opt).size();
  e.sizes = shapes.size();
  e.builds = variants;
  for (const auto& [m, n] : shapes) {
    const std::uint64_t bytes = m * n * size_of(opt.type);
    e.points += variants;
    // Each variant and the copy: a checked run and the timed passes, each reading and writing.
    const double passes = point_passes(opt.timing, clock) + 1;
    e.device_bytes += 2.0 * static_cast<double>(bytes) * passes * static_cast<double>(variants + 1);
    e.host_bytes += static_cast<double>(bytes);
    e.seconds += host_seconds(c, bytes) +
                 (point_seconds(c, opt.timing, clock, 2 * bytes) + 2 * static_cast<double>(bytes) / (c.device_gbps * 1e9)) *
                     static_cast<double>(variants + 1);
  }
  e.seconds += c.build_s * static_cast<double>(e.builds);
  return e;
}

TransposeBenchReport run_transpose_bench(const Session& rt, const TransposeBenchOptions& opt,
                                         const std::function<void(const ProgressStep&)>& progress) {
  TransposeBenchReport rep;
  rep.type = opt.type;
  rep.clock = rt.clock();
  rep.clock_note = rt.timer().reason;
  const std::vector<const TransposeVariant*> chosen = chosen_variants(opt);
  const auto shapes = opt.shapes.empty() ? default_transpose_shapes() : opt.shapes;
  ProgressStep step;
  for (const auto& [m, n] : shapes) {
    step.total += chosen.size() + 2;
    step.work_total += static_cast<double>(m * n) * static_cast<double>(chosen.size() + 2);
  }
  const auto next = [&](const std::string& what, std::uint64_t elements) {
    step.begin(what, static_cast<double>(elements), progress);
  };
  for (const auto& [m, n] : shapes) {
    next("input " + shape_label(m, n), m * n);
    // Validates the shape against the device before any allocation.
    introspect::prepare(rt.transposer({}), opt.type, m, n);
    TransposeShapeResult s;
    s.m = m;
    s.n = n;
    const HostData data = generate_data(opt.type, m * n, opt.data, opt.seed);
    s.data_origin = data.origin;
    const auto expected = host_transpose(data.bytes, m, n, size_of(opt.type));
    const cl::Buffer in = upload(rt, data);
    const cl::Buffer out = device_buffer(rt, CL_MEM_READ_WRITE, data.bytes.size(), "the output");
    next("copy " + shape_label(m, n), m * n);
    s.copy = measure_copy_bandwidth(rt, in, out, data.bytes.size(), opt.timing);
    double naive_us = 0;
    for (const TransposeVariant* v : chosen) {
      next(v->name + " " + shape_label(m, n), m * n);
      TransposeBenchRow row;
      row.variant = v->name;
      TransposeConfig cfg;
      cfg.variant = v->name;
      cfg.type = opt.type;
      cfg.defines = opt.given.defines;
      if (v->shape == TransposeShape::Free) {
        cfg.wg_x = opt.given.wg_x;
        cfg.wg_y = opt.given.wg_y;
      } else {
        cfg.tile = opt.given.tile;
        if (v->shape == TransposeShape::TileRows) cfg.rows = opt.given.rows;
        if (v->default_vec) cfg.vec = opt.given.vec;
        if (v->default_vec) cfg.band = opt.given.band;
      }
      try {
        TransposerOptions topt;
        topt.params = cfg;
        Transposer t = rt.transposer(topt);
        const std::shared_ptr<const TransposeLaunch> l = introspect::prepare(t, opt.type, m, n);
        row.report = measure(rt, t, *l, in, out, data, expected, opt.timing);
      } catch (const Error& e) {
        row.error = e.what();
      }
      if (row.report) {
        if (v->name == "naive") naive_us = row.report->timing.whole_us.median;
        row.pct_of_copy = s.copy.gbps > 0 ? 100.0 * row.report->gbps / s.copy.gbps : 0;
      }
      s.rows.push_back(row);
    }
    for (auto& row : s.rows)
      if (row.report && naive_us > 0 && row.report->timing.whole_us.median > 0)
        row.speedup = naive_us / row.report->timing.whole_us.median;
    rep.shapes.push_back(std::move(s));
  }
  step.what = "done";
  if (progress) progress(step);
  return rep;
}

}  // namespace clreduce
