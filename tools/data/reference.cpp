// Host references and result checks.
#include "data/reference.hpp"

#include <cstring>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace clreduce {

namespace {
// argmin/argmax by NumPy's rule, in index order: the first NaN wins; else the first element of the
// lowest (argmin) or highest (argmax) value. -0.0 and 0.0 are equal values (the first one wins).
template <class T>
Reference arg_exact(const T* x, std::uint64_t n, Op op) {
  Reference r;
  std::uint64_t best = 0;
  for (std::uint64_t i = 1; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(x[best])) break;
      if (std::isnan(x[i])) {
        best = i;
        break;
      }
    }
    if (op == Op::ArgMin ? x[i] < x[best] : x[i] > x[best]) best = i;
  }
  r.value.v = x[best];
  r.index = best;
  return r;
}

void refuse_user(Op op) {
  if (op == Op::User)
    throw Error(Param::Op, "a user operator has no host reference: it is computed on the device (user_reference)");
}

template <class T>
Reference reduce_exact(const T* x, std::uint64_t n, Op op) {
  refuse_user(op);
  if (is_arg_op(op)) return arg_exact(x, n, op);
  Reference r;
  if constexpr (std::is_floating_point_v<T>) {
    if (op == Op::Sum) {
      // IEEE rules first: a NaN anywhere, or +inf beside -inf, makes the sum NaN; an infinity
      // beside finite values makes it that infinity. (Neumaier's correction term would turn
      // inf - inf into NaN even where the true sum is inf.)
      bool nan = false, pos_inf = false, neg_inf = false;
      for (std::uint64_t i = 0; i < n; ++i) {
        if (std::isnan(x[i])) nan = true;
        else if (std::isinf(x[i])) (x[i] > 0 ? pos_inf : neg_inf) = true;
      }
      if (nan || pos_inf || neg_inf) {
        const T v = nan || (pos_inf && neg_inf) ? std::numeric_limits<T>::quiet_NaN()
                    : pos_inf                  ? std::numeric_limits<T>::infinity()
                                               : -std::numeric_limits<T>::infinity();
        r.sum = v;
        r.sum_abs = std::numeric_limits<long double>::infinity();
        r.value.v = v;
        return r;
      }
      // Neumaier's compensated sum in long double: the rounding of each addition is kept in c,
      // so the reference is the true sum to within a few units of long double.
      long double s = 0, c = 0, a = 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        const long double xi = x[i];
        const long double t = s + xi;
        c += std::fabs(s) >= std::fabs(xi) ? (s - t) + xi : (xi - t) + s;
        s = t;
        a += std::fabs(xi);
      }
      s += c;
      r.sum = s;
      r.sum_abs = a;
      r.value.v = static_cast<T>(s);
      return r;
    }
  } else if (op == Op::Sum) {
    // Modulo 2^32 for both uint and int (two's complement wrap).
    std::uint32_t s = 0;
    for (std::uint64_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(x[i]);
    r.value.v = static_cast<T>(s);
    return r;
  }
  T m = x[0];
  if constexpr (std::is_floating_point_v<T>) {
    // fmin/fmax, as the kernels use: a NaN is passed over, NaN only when every element is one.
    for (std::uint64_t i = 1; i < n; ++i) m = op == Op::Min ? std::fmin(m, x[i]) : std::fmax(m, x[i]);
  } else {
    for (std::uint64_t i = 1; i < n; ++i) m = op == Op::Min ? std::min(m, x[i]) : std::max(m, x[i]);
  }
  r.value.v = m;
  return r;
}
}  // namespace

namespace {
template <class T>
std::vector<Reference> axis_exact(const T* x, std::uint64_t m, std::uint64_t n, Axis axis, Op op) {
  std::vector<Reference> out;
  if (axis == Axis::Rows) {
    out.reserve(m);
    for (std::uint64_t i = 0; i < m; ++i) out.push_back(reduce_exact(x + i * n, n, op));
  } else {
    // Columns gathered kBlock at a time, so that each row is read as one contiguous run of
    // kBlock elements rather than one element per cache line (a 16384 x 16384 matrix's columns
    // one by one take minutes; this takes one pass over the matrix).
    constexpr std::uint64_t kBlock = 64;
    out.reserve(n);
    std::vector<T> block(kBlock * m);
    for (std::uint64_t j0 = 0; j0 < n; j0 += kBlock) {
      const std::uint64_t width = std::min(kBlock, n - j0);
      for (std::uint64_t i = 0; i < m; ++i)
        for (std::uint64_t b = 0; b < width; ++b) block[b * m + i] = x[i * n + j0 + b];
      for (std::uint64_t b = 0; b < width; ++b) out.push_back(reduce_exact(block.data() + b * m, m, op));
    }
  }
  return out;
}
}  // namespace

std::vector<Reference> axis_reference(const HostData& d, std::uint64_t m, std::uint64_t n, Axis axis, Op op) {
  switch (d.type) {
    case ElemType::Uint: return axis_exact(d.as<std::uint32_t>(), m, n, axis, op);
    case ElemType::Int: return axis_exact(d.as<std::int32_t>(), m, n, axis, op);
    case ElemType::Float: return axis_exact(d.as<float>(), m, n, axis, op);
    case ElemType::Double: return axis_exact(d.as<double>(), m, n, axis, op);
  }
  return {};
}

AxisCheck check_axis(const Outputs& got, const std::vector<Reference>& refs, Axis axis, Op op, unsigned depth) {
  AxisCheck c;
  const char* what = axis == Axis::Rows ? "row" : "column";
  if (got.size() != refs.size()) {
    c.failures = refs.size();
    c.detail = std::to_string(got.size()) + " values read back for " + std::to_string(refs.size()) + " " + what + "s";
    return c;
  }
  bool exact = true;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const Check one = check_result(got.values[i], got.index(i), refs[i], op, depth);
    if (one.tolerance > 0) exact = false;
    if (one.rel_error > c.worst_rel_error) c.worst_rel_error = one.rel_error;
    if (!one.ok && c.failures++ == 0) c.detail = what + std::string(" ") + std::to_string(i) + ": " + one.detail;
  }
  c.ok = c.failures == 0;
  if (c.ok) {
    std::ostringstream s;
    s << "all " << refs.size() << " " << what << (refs.size() == 1 ? "" : "s")
      << (exact ? " exact" : " within the bound of depth " + std::to_string(depth));
    if (!exact && c.worst_rel_error >= 0) s << " (largest relative error " << c.worst_rel_error << ")";
    c.detail = s.str();
  } else if (c.failures > 1) {
    c.detail += " (and " + std::to_string(c.failures - 1) + " more)";
  }
  return c;
}

namespace {
template <class T>
std::vector<Reference> segments_exact(const T* x, const std::vector<std::uint64_t>& offsets, Op op) {
  std::vector<Reference> out;
  out.reserve(offsets.empty() ? 0 : offsets.size() - 1);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::uint64_t len = offsets[s + 1] - offsets[s];
    if (len > 0) {
      out.push_back(reduce_exact(x + offsets[s], len, op));
      continue;
    }
    // Empty: sum 0 (sum_abs 0: the bound is the floor), min and argmin the highest, max and argmax
    // the lowest (argmin/argmax at kNoIndex).
    Reference r;
    const bool low = op == Op::Min || op == Op::ArgMin;
    if (op == Op::Sum) r.value.v = T{0};
    else if constexpr (std::is_floating_point_v<T>)
      r.value.v = low ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    else
      r.value.v = low ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    out.push_back(r);
  }
  return out;
}
}  // namespace

std::vector<Reference> segment_reference(const HostData& d, const std::vector<std::uint64_t>& offsets, Op op) {
  refuse_user(op);
  switch (d.type) {
    case ElemType::Uint: return segments_exact(d.as<std::uint32_t>(), offsets, op);
    case ElemType::Int: return segments_exact(d.as<std::int32_t>(), offsets, op);
    case ElemType::Float: return segments_exact(d.as<float>(), offsets, op);
    case ElemType::Double: return segments_exact(d.as<double>(), offsets, op);
  }
  return {};
}

SegmentCheck check_segments(const Outputs& got, const std::vector<Reference>& refs,
                            const std::vector<std::uint64_t>& offsets, Op op,
                            const std::function<unsigned(std::uint64_t)>& depth_of) {
  SegmentCheck c;
  if (got.size() != refs.size() || offsets.size() != refs.size() + 1) {
    c.failures = refs.size();
    c.detail = std::to_string(got.size()) + " values read back for " + std::to_string(refs.size()) + " segments";
    return c;
  }
  bool exact = true;
  unsigned deepest = 0;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const unsigned depth = depth_of(offsets[i + 1] - offsets[i]);
    const Check one = check_result(got.values[i], got.index(i), refs[i], op, depth);
    if (one.tolerance > 0) exact = false, deepest = std::max(deepest, depth);
    if (one.rel_error > c.worst_rel_error) c.worst_rel_error = one.rel_error;
    if (!one.ok && c.failures++ == 0)
      c.detail = "segment " + std::to_string(i) + " [" + std::to_string(offsets[i]) + ", " +
                 std::to_string(offsets[i + 1]) + "): " + one.detail;
  }
  c.ok = c.failures == 0;
  if (c.ok) {
    std::ostringstream s;
    s << "all " << refs.size() << " segment" << (refs.size() == 1 ? "" : "s")
      << (exact ? " exact" : " within the bound of each segment's depth (at most " + std::to_string(deepest) + ")");
    if (!exact && c.worst_rel_error >= 0) s << " (largest relative error " << c.worst_rel_error << ")";
    c.detail = s.str();
  } else if (c.failures > 1) {
    c.detail += " (and " + std::to_string(c.failures - 1) + " more)";
  }
  return c;
}

Outputs read_outputs(const unsigned char* bytes, std::uint64_t count, ElemType type, Op op) {
  Outputs o;
  const std::size_t rs = result_size(type, op);
  o.values.reserve(count);
  if (is_arg_op(op)) o.indexes.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const unsigned char* p = bytes + i * rs;
    o.values.push_back(Value::from_bytes(type, p));
    if (is_arg_op(op)) {
      std::uint64_t index = 0;
      std::memcpy(&index, p + 8, sizeof index);  // ArgValue<T>::index
      o.indexes.push_back(index);
    }
  }
  return o;
}

Reference host_reference(const HostData& d, Op op) {
  switch (d.type) {
    case ElemType::Uint: return reduce_exact(d.as<std::uint32_t>(), d.n, op);
    case ElemType::Int: return reduce_exact(d.as<std::int32_t>(), d.n, op);
    case ElemType::Float: return reduce_exact(d.as<float>(), d.n, op);
    case ElemType::Double: return reduce_exact(d.as<double>(), d.n, op);
  }
  return {};
}

double sum_tolerance(ElemType t, long double sum_abs, unsigned depth) {
  const double u = t == ElemType::Double ? 0x1.0p-53 : 0x1.0p-24;
  const double ku = depth * u;
  const double gamma = ku < 0.5 ? ku / (1.0 - ku) : 1.0;
  // The smallest normal number keeps the bound honest when every element is zero.
  const double floor = t == ElemType::Double ? std::numeric_limits<double>::min()
                                             : static_cast<double>(std::numeric_limits<float>::min());
  return gamma * static_cast<double>(sum_abs) + floor;
}

bool same_result(const Value& a, const Value& b) {
  if (a == b) return true;
  return a.type() == b.type() && is_floating(a.type()) && std::isnan(a.to_double()) && std::isnan(b.to_double());
}

Check check_result(const Value& device, std::uint64_t device_index, const Reference& ref, Op op, unsigned depth) {
  if (!is_arg_op(op)) return check_result(device, ref, op, depth);
  // argmin/argmax: the index exactly, and the value (a NaN matches a NaN; the value is the
  // element at that index, so -0.0 and 0.0 are told apart through it).
  Check c;
  const auto idx = [](std::uint64_t i) { return i == kNoIndex ? std::string("none") : std::to_string(i); };
  c.ok = device_index == ref.index && same_result(device, ref.value);
  c.error = c.ok ? 0 : 1;
  c.detail = c.ok ? "exact match " + device.str() + " at " + idx(device_index)
                  : "MISMATCH: device " + device.str() + " at " + idx(device_index) + " != reference " +
                        ref.value.str() + " at " + idx(ref.index);
  return c;
}

Check check_result(const Value& device, const Reference& ref, Op op, unsigned depth) {
  Check c;
  std::ostringstream ss;
  const ElemType t = ref.value.type();
  if (op == Op::User && is_floating(t)) {
    // A user operator against its in-order reference: equal NaN-ness and infinities, else within
    // 2 * gamma(count) * |reference| (any order of a product, or of a sum of terms of one sign).
    // gamma(count) * (2 |reference|) plus the smallest normal: sum_tolerance's bound with the
    // reference's magnitude, twice, for the sum of |x| (count clamped to sum_tolerance's depth).
    const double d = device.to_double(), w = ref.value.to_double();
    const auto count = static_cast<unsigned>(std::clamp<std::uint64_t>(ref.count, 1, 0xffffffffu));
    c.tolerance = sum_tolerance(t, 2.0L * std::fabs(static_cast<long double>(w)), count);
    if (std::isnan(w) || std::isnan(d) || std::isinf(w) || std::isinf(d)) {
      c.ok = (std::isnan(w) && std::isnan(d)) || d == w;
      c.error = c.ok ? 0 : std::numeric_limits<double>::infinity();
    } else {
      c.error = std::fabs(d - w);
      c.ok = c.error <= c.tolerance;
      c.rel_error = w != 0 ? c.error / std::fabs(w) : 0;
    }
    ss.precision(9);
    ss << (c.ok ? "within bound: device " : "MISMATCH: device ") << device.str() << ", in-order reference "
       << ref.value.str() << " (bound " << c.tolerance << " over " << ref.count << " elements)";
    c.detail = ss.str();
    return c;
  }
  if (is_floating(t) && op != Op::Sum) {
    // min/max of floats: exact in value; a NaN answer matches a NaN reference (any NaN bits),
    // and -0 and +0 compare equal (fmin/fmax may return either).
    const double d = device.to_double(), w = ref.value.to_double();
    c.ok = (std::isnan(d) && std::isnan(w)) || d == w;
    c.error = c.ok ? 0 : 1;
    ss << (c.ok ? "exact match " : "MISMATCH: device ") << device.str();
    if (!c.ok) ss << " != reference " << ref.value.str();
    c.detail = ss.str();
    return c;
  }
  if (!is_floating(t) || op != Op::Sum) {
    c.ok = device == ref.value;
    c.error = c.ok ? 0 : 1;
    ss << (c.ok ? "exact match " : "MISMATCH: device ") << device.str();
    if (!c.ok) ss << " != reference " << ref.value.str();
    c.detail = ss.str();
    return c;
  }
  const double got = device.to_double();
  const double want = static_cast<double>(ref.sum);
  c.tolerance = sum_tolerance(t, ref.sum_abs, depth);
  const double max_finite = t == ElemType::Float ? static_cast<double>(std::numeric_limits<float>::max())
                                                 : std::numeric_limits<double>::max();
  if (std::isnan(want)) {
    // The input held a NaN, or +inf and -inf: IEEE makes the sum NaN, whatever the order.
    c.ok = std::isnan(got);
    c.error = c.ok ? 0 : std::numeric_limits<double>::infinity();
    c.detail = c.ok ? "NaN, as IEEE gives for this input (a NaN, or +inf with -inf)"
                    : "MISMATCH: device " + device.str() + ", reference NaN (the input holds a NaN, or +inf with -inf)";
    return c;
  }
  if (std::isnan(got)) {
    c.ok = false;
    c.error = std::numeric_limits<double>::infinity();
    c.detail = "MISMATCH: device result is NaN, reference " + ref.value.str();
    return c;
  }
  if (std::isinf(want) && std::isinf(static_cast<double>(ref.sum_abs))) {
    // The input holds an infinity (of one sign) among finite values: IEEE makes the sum that infinity.
    c.ok = std::isinf(got) && std::signbit(got) == std::signbit(want);
    c.error = c.ok ? 0 : std::numeric_limits<double>::infinity();
    c.detail = c.ok ? device.str() + ", as IEEE gives for this input (an infinity among finite values)"
                    : "MISMATCH: device " + device.str() + ", reference " + ref.value.str() +
                          " (the input holds an infinity among finite values)";
    return c;
  }
  if (std::isinf(got)) {
    // Overflow is the right answer only when the true sum (give or take the bound) is
    // beyond the type's range, with the same sign.
    const long double reach = std::fabs(ref.sum) + static_cast<long double>(c.tolerance);
    c.ok = reach > max_finite && std::signbit(got) == std::signbit(static_cast<double>(ref.sum));
    c.error = c.ok ? 0 : std::numeric_limits<double>::infinity();
    ss << (c.ok ? "overflow to " : "MISMATCH: device overflowed to ") << device.str()
       << ", reference sum " << static_cast<double>(ref.sum);
    c.detail = ss.str();
    return c;
  }
  c.error = std::fabs(static_cast<double>(static_cast<long double>(got) - ref.sum));
  c.ok = c.error <= c.tolerance && std::isfinite(want);
  const long double scale = ref.sum != 0 ? std::fabs(ref.sum) : ref.sum_abs;
  c.rel_error = scale > 0 ? static_cast<double>(static_cast<long double>(c.error) / scale) : 0.0;
  ss.precision(3);
  ss << (c.ok ? "within bound: " : "MISMATCH: ") << "|device - reference| = " << c.error
     << (c.ok ? " <= " : " > ") << c.tolerance << " (depth " << depth << "); relative error "
     << c.rel_error;
  c.detail = ss.str();
  return c;
}

std::vector<unsigned char> host_transpose(const std::vector<unsigned char>& in, std::uint64_t m,
                                          std::uint64_t n, std::size_t es) {
  std::vector<unsigned char> out(in.size());
  constexpr std::uint64_t B = 64;  // blocks of 64x64 elements keep both sides in cache
  for (std::uint64_t r0 = 0; r0 < m; r0 += B)
    for (std::uint64_t c0 = 0; c0 < n; c0 += B)
      for (std::uint64_t r = r0; r < std::min(m, r0 + B); ++r)
        for (std::uint64_t c = c0; c < std::min(n, c0 + B); ++c)
          std::memcpy(&out[(c * m + r) * es], &in[(r * n + c) * es], es);
  return out;
}

TransposeCheck check_transpose(const std::vector<unsigned char>& got,
                               const std::vector<unsigned char>& expected, std::uint64_t m,
                               std::uint64_t n, ElemType t) {
  TransposeCheck c;
  const std::size_t es = size_of(t);
  if (got.size() != expected.size()) {
    c.detail = "output has " + std::to_string(got.size()) + " bytes, expected " +
               std::to_string(expected.size());
    return c;
  }
  for (std::uint64_t i = 0; i < m * n; ++i) {
    if (std::memcmp(&got[i * es], &expected[i * es], es) == 0) continue;
    if (c.mismatches++ == 0) {
      c.detail = "first mismatch at output row " + std::to_string(i / m) + ", column " +
                 std::to_string(i % m) + ": expected " +
                 Value::from_bytes(t, &expected[i * es]).str() + ", got " +
                 Value::from_bytes(t, &got[i * es]).str();
    }
  }
  c.ok = c.mismatches == 0;
  if (c.ok) c.detail = "exact (" + std::to_string(m * n) + " elements)";
  else c.detail = std::to_string(c.mismatches) + " of " + std::to_string(m * n) +
                  " elements differ; " + c.detail;
  return c;
}

}  // namespace clreduce
