// A user descriptor's reference on the device (measure/descriptor_device_reference.hpp).
#include "measure/descriptor_device_reference.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace clreduce {

namespace {
constexpr std::uint64_t kLocal = 64;

cl::NDRange global_for(std::uint64_t items) { return cl::NDRange(std::max<std::uint64_t>(1, (items + kLocal - 1) / kLocal) * kLocal); }
}  // namespace

std::uint64_t reference_piece(std::uint64_t count) {
  std::uint64_t p = 64;
  while (p < 65536 && p * p < count) p *= 2;
  return p;
}

std::uint64_t reference_depth(std::uint64_t count, std::uint64_t stride) {
  if (stride != 1 || count == 0) return count;
  const std::uint64_t piece = reference_piece(count);
  return std::min(piece, count) + (count + piece - 1) / piece;
}

DeviceReference descriptor_device_reference(const Session& s, const Reduction& r, const std::vector<Input>& inputs,
                                            const std::vector<ReferenceLine>& lines, std::uint64_t stride,
                                            const std::vector<ScalarArg>& scalars) {
  if (lines.empty()) return {};
  // Pieces (first, count, index) and, per result, (first piece, pieces, n).
  std::vector<cl_ulong> pieces, parts;
  for (const ReferenceLine& l : lines) {
    const std::uint64_t first_piece = pieces.size() / 3;
    std::uint64_t done = 0;
    do {
      const std::uint64_t c = stride == 1 ? std::min(reference_piece(l.count), l.count - done) : l.count;
      pieces.insert(pieces.end(), {l.first + done, c, l.index + done});
      done += c;
    } while (done < l.count);
    parts.insert(parts.end(), {first_piece, pieces.size() / 3 - first_piece, l.count});
  }
  const std::uint64_t count_pieces = pieces.size() / 3, results = lines.size();
  const UserOperator text{r.name, {}, reduction_source(r), std::nullopt};
  const bool magnitude = r.acc_type == "float" || r.acc_type == "double";
  return with_cl_context("computing the descriptor's reference on the device", [&] {
    auto kernel = [&](const char* name) {
      return ProgramCache::shared().kernel(s.context(), s.device(), s.kernel_dir(), "descriptor_reference.cl", name,
                                           magnitude ? "-D MAGNITUDE=1" : "", &text);
    };
    const cl::Context& ctx = s.context();
    cl::Buffer piece_buf(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pieces.size() * 8, pieces.data());
    cl::Buffer part_buf(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, parts.size() * 8, parts.data());
    cl::Buffer accs(ctx, CL_MEM_READ_WRITE, count_pieces * r.acc_bytes);
    cl::Buffer out(ctx, CL_MEM_READ_WRITE, results * r.out.bytes());
    cl::Buffer mags(ctx, CL_MEM_READ_WRITE, count_pieces * sizeof(cl_float));
    cl::Buffer out_mags(ctx, CL_MEM_READ_WRITE, results * sizeof(cl_float));
    cl::Kernel fold = kernel("reference_pieces");
    cl_uint a = 0;
    for (const Input& in : inputs) {
      fold.setArg(a++, in.buffer);
      fold.setArg(a++, static_cast<cl_ulong>(in.offset));
    }
    fold.setArg(a++, piece_buf);
    fold.setArg(a++, static_cast<cl_ulong>(count_pieces));
    fold.setArg(a++, static_cast<cl_ulong>(stride));
    fold.setArg(a++, accs);
    fold.setArg(a++, mags);
    for (std::size_t j = 0; j < scalars.size(); ++j) set_scalar_kernel_arg(fold, a++, r.scalars[j], scalars[j]);
    enqueue_kernel(s.queue(), fold, cl::NullRange, global_for(count_pieces), cl::NDRange(kLocal));
    cl::Kernel finish = kernel("reference_finish");
    finish.setArg(0, accs);
    finish.setArg(1, part_buf);
    finish.setArg(2, static_cast<cl_ulong>(results));
    finish.setArg(3, out);
    finish.setArg(4, mags);
    finish.setArg(5, out_mags);
    enqueue_kernel(s.queue(), finish, cl::NullRange, global_for(results), cl::NDRange(kLocal));
    std::vector<unsigned char> bytes(results * r.out.bytes());
    std::vector<cl_float> m(results);
    s.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes.size(), bytes.data());
    s.queue().enqueueReadBuffer(out_mags, CL_TRUE, 0, m.size() * sizeof(cl_float), m.data());
    DeviceReference refs;
    for (std::uint64_t k = 0; k < results; ++k) {
      refs.results.push_back(Result::from_bytes(r.out, bytes.data() + k * r.out.bytes()));
      refs.magnitudes.push_back(magnitude ? m[k] : 0.0);
    }
    return refs;
  });
}

namespace {
// |got - want| within both depths' bound for the result's type; NaN with NaN; infinities exactly.
bool float_close(double got, double want, double magnitude, Scalar type, std::uint64_t dd, std::uint64_t rd,
                 double& error, double& tolerance) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  const double u = type == Scalar::F64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  auto gamma = [u](std::uint64_t depth) {
    const double k = static_cast<double>(depth + 2);
    return k * u < 1 ? k * u / (1 - k * u) : std::numeric_limits<double>::infinity();
  };
  tolerance = 2 * (gamma(dd) + gamma(rd)) * std::max(std::fabs(want), magnitude);
  error = std::fabs(got - want);
  return error <= tolerance;
}
}  // namespace

Check check_user_descriptor(const Result& got, const Result& reference, double magnitude, std::uint64_t device_depth,
                            std::uint64_t reference_depth) {
  Check c;
  const ResultLayout& l = reference.layout;
  std::ostringstream d;
  if (!is_floating(l.type)) {
    c.ok = std::equal(got.bytes.begin(), got.bytes.begin() + l.bytes(), reference.bytes.begin());
    c.error = c.ok ? 0 : 1;
    d << (c.ok ? "exact: " : "device ") << got.str() << (c.ok ? "" : " != reference " + reference.str())
      << " (reference: one work-item per result in index order)";
  } else {
    double e1 = 0, t1 = 0, e2 = 0, t2 = 0;
    const std::uint64_t dd = device_depth, rd = reference_depth;
    c.ok = float_close(got.value(), reference.value(), magnitude, l.type, dd, rd, e1, t1);
    if (l.kind == ResultLayout::Kind::Pair)
      c.ok = float_close(got.second(), reference.second(), magnitude, l.type, dd, rd, e2, t2) && c.ok;
    if (l.kind == ResultLayout::Kind::Arg) c.ok = c.ok && got.index() == reference.index();
    c.error = std::max(e1, e2);
    c.tolerance = std::max(t1, t2);
    d << "device " << got.str() << ", reference " << reference.str() << " (one work-item in index order); |error| "
      << c.error << (c.ok ? " <= " : " > ") << c.tolerance << " = 2 (gamma(" << device_depth << " + 2) + gamma("
      << reference_depth << " + 2)) " << (magnitude > 0 ? "sum|term| " + std::to_string(magnitude) : std::string("|reference|"));
  }
  c.detail = d.str();
  return c;
}

}  // namespace clreduce
