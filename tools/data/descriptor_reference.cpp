// Host data of every descriptor type, and the references and checks of the built-in descriptors
// (data/descriptor_reference.hpp). The references compute in long double (64-bit mantissa: every
// element of every type, u64 and i64 included, is exact in it) and in 64-bit modular integers,
// independently of the kernels' order.
#include "data/descriptor_reference.hpp"
#include "data/exact_reference.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

namespace clreduce {

namespace {
template <class T>
T load(const unsigned char* p) {
  T x;
  std::memcpy(&x, p, sizeof x);
  return x;
}
template <class T>
void store(unsigned char* p, T x) {
  std::memcpy(p, &x, sizeof x);
}

// Element i as two's-complement bits, sign-extended to 64 (integers only).
std::uint64_t int_bits(const ScalarData& d, std::uint64_t i) {
  const unsigned char* p = d.bytes.data() + i * size_of(d.type);
  switch (d.type) {
    case Scalar::U8: return load<std::uint8_t>(p);
    case Scalar::I8: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int8_t>(p)));
    case Scalar::U16: return load<std::uint16_t>(p);
    case Scalar::I16: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int16_t>(p)));
    case Scalar::U32: return load<std::uint32_t>(p);
    case Scalar::I32: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int32_t>(p)));
    case Scalar::U64: return load<std::uint64_t>(p);
    case Scalar::I64: return static_cast<std::uint64_t>(load<std::int64_t>(p));
    default: return 0;
  }
}

// v (finite or not, of the type's range) written as one element of t.
void write_value(unsigned char* p, Scalar t, long double v) {
  switch (t) {
    case Scalar::U8: store(p, static_cast<std::uint8_t>(v)); break;
    case Scalar::I8: store(p, static_cast<std::int8_t>(v)); break;
    case Scalar::U16: store(p, static_cast<std::uint16_t>(v)); break;
    case Scalar::I16: store(p, static_cast<std::int16_t>(v)); break;
    case Scalar::U32: store(p, static_cast<std::uint32_t>(v)); break;
    case Scalar::I32: store(p, static_cast<std::int32_t>(v)); break;
    case Scalar::U64: store(p, static_cast<std::uint64_t>(v)); break;
    case Scalar::I64: store(p, static_cast<std::int64_t>(v)); break;
    case Scalar::F16: store(p, float_to_f16(static_cast<float>(v))); break;
    case Scalar::BF16: store(p, float_to_bf16(static_cast<float>(v))); break;
    case Scalar::F32: store(p, static_cast<float>(v)); break;
    case Scalar::F64: store(p, static_cast<double>(v)); break;
  }
}
// The low `bytes` bytes of bits as an element.
void write_bits(unsigned char* p, std::size_t bytes, std::uint64_t bits) { std::memcpy(p, &bits, bytes); }

long double largest(Scalar t) {
  switch (t) {
    case Scalar::U8: return 255;
    case Scalar::I8: return 127;
    case Scalar::U16: return 65535;
    case Scalar::I16: return 32767;
    case Scalar::U32: return 4294967295.0L;
    case Scalar::I32: return 2147483647.0L;
    case Scalar::U64: return static_cast<long double>(std::numeric_limits<std::uint64_t>::max());
    case Scalar::I64: return static_cast<long double>(std::numeric_limits<std::int64_t>::max());
    case Scalar::F16: return 65504.0L;
    case Scalar::BF16: return bf16_to_float(0x7f7f);
    case Scalar::F32: return std::numeric_limits<float>::max();
    case Scalar::F64: return std::numeric_limits<double>::max();
  }
  return 0;
}
}  // namespace

// Each type's element size written out, not looked up: the references read every element of
// every line this way (a bench of 64M-element matrices spent most of its host time here).
long double ScalarData::at(std::uint64_t i) const {
  const unsigned char* b = bytes.data();
  switch (type) {
    case Scalar::U8: return load<std::uint8_t>(b + i);
    case Scalar::I8: return load<std::int8_t>(b + i);
    case Scalar::U16: return load<std::uint16_t>(b + 2 * i);
    case Scalar::I16: return load<std::int16_t>(b + 2 * i);
    case Scalar::U32: return load<std::uint32_t>(b + 4 * i);
    case Scalar::I32: return load<std::int32_t>(b + 4 * i);
    case Scalar::U64: return static_cast<long double>(load<std::uint64_t>(b + 8 * i));
    case Scalar::I64: return static_cast<long double>(load<std::int64_t>(b + 8 * i));
    case Scalar::F16: return f16_to_float(load<std::uint16_t>(b + 2 * i));
    case Scalar::BF16: return bf16_to_float(load<std::uint16_t>(b + 2 * i));
    case Scalar::F32: return load<float>(b + 4 * i);
    case Scalar::F64: return load<double>(b + 8 * i);
  }
  return 0;
}

ScalarData generate_scalar_data(Scalar t, std::uint64_t n, DataKind kind, std::uint64_t seed, unsigned stream) {
  ScalarData d;
  d.type = t;
  d.n = n;
  const std::size_t es = size_of(t);
  d.bytes.resize(n * es);
  d.origin = std::string(name_of(kind)) + (kind == DataKind::Random ? ", seed " + std::to_string(seed) : "") +
             (stream ? ", input " + std::to_string(stream) : "");
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ull + stream);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::uint64_t i = 0; i < n; ++i) {
    unsigned char* p = d.bytes.data() + i * es;
    switch (kind) {
      case DataKind::Random:
        if (is_floating(t)) write_value(p, t, unit(rng));
        else write_bits(p, es, rng());
        break;
      case DataKind::Iota:
        if (is_floating(t)) write_value(p, t, static_cast<long double>(i));
        else write_bits(p, es, i);  // wraps in a narrow type
        break;
      case DataKind::Ones: write_value(p, t, 1); break;
      case DataKind::Max: write_value(p, t, largest(t)); break;
    }
  }
  return d;
}

ScalarData generate_scalar_data_range(Scalar t, std::uint64_t first, std::uint64_t n, DataKind kind,
                                      std::uint64_t seed, unsigned stream) {
  ScalarData d;
  d.type = t;
  d.n = n;
  const std::size_t es = size_of(t);
  d.bytes.resize(n * es);
  d.origin = std::string(name_of(kind)) + (kind == DataKind::Random ? ", seed " + std::to_string(seed) : "") +
             (stream ? ", input " + std::to_string(stream) : "") +
             (first ? ", elements from " + std::to_string(first) : "");
  const std::uint64_t key = splitmix64(splitmix64(seed) + stream);
  for (std::uint64_t j = 0; j < n; ++j) {
    const std::uint64_t i = first + j;
    unsigned char* p = d.bytes.data() + j * es;
    switch (kind) {
      case DataKind::Random: {
        const std::uint64_t r = splitmix64(key ^ splitmix64(i));
        if (is_floating(t)) write_value(p, t, static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);  // [-1, 1)
        else write_bits(p, es, r);
        break;
      }
      case DataKind::Iota:
        if (is_floating(t)) write_value(p, t, static_cast<long double>(i));
        else write_bits(p, es, i);
        break;
      case DataKind::Ones: write_value(p, t, 1); break;
      case DataKind::Max: write_value(p, t, largest(t)); break;
    }
  }
  return d;
}

std::uint64_t scalar_file_elements(const std::filesystem::path& path, Scalar t, std::optional<std::uint64_t> n) {
  const std::size_t es = size_of(t);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(Param::None, "--input '" + path.string() + "' is a directory; give a file of raw little-endian " +
                              std::string(name_of(t)) + " elements", "a file");
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw Error(Param::None, "--input '" + path.string() + "' is not a regular file (a device, pipe or socket has no "
                              "size to count its elements by); give a file of raw little-endian " +
                              std::string(name_of(t)) + " elements", "a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw Error(Param::None, "cannot read --input '" + path.string() + "': " + ec.message(), "a readable file");
  const std::string what = "--input '" + path.string() + "'";
  if (size == 0) throw Error(Param::None, what + " is empty", "a file of whole " + std::string(name_of(t)) + " elements");
  if (size % es)
    throw Error(Param::None, what + " holds " + std::to_string(size) + " bytes, not a whole number of " +
                              std::to_string(es) + "-byte " + std::string(name_of(t)) + " elements",
                "a file of whole elements");
  const std::uint64_t have = size / es;
  if (n && *n > have)
    throw Error(Param::N, what + " holds " + std::to_string(have) + " elements of " + std::string(name_of(t)) +
                              ", fewer than n = " + std::to_string(*n),
                "n <= " + std::to_string(have));
  return n.value_or(have);
}

ScalarData read_scalar_file(const std::filesystem::path& path, Scalar t, std::optional<std::uint64_t> n) {
  ScalarData d;
  d.type = t;
  d.n = scalar_file_elements(path, t, n);
  d.bytes.resize(d.n * size_of(t));
  d.origin = path.filename().string();
  std::ifstream in(path, std::ios::binary);
  const std::string what = "--input '" + path.string() + "'";
  if (!in) throw Error(Param::None, "cannot read " + what + ": " + std::strerror(errno), "a readable file");
  if (!in.read(reinterpret_cast<char*>(d.bytes.data()), static_cast<std::streamsize>(d.bytes.size())))
    throw Error(Param::None, "reading " + what + " failed after " + std::to_string(in.gcount()) + " bytes", "a readable file");
  return d;
}

namespace {
double unit_roundoff(Scalar out) { return out == Scalar::F64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24); }
double gamma(double k, double u) { return k * u < 1 ? k * u / (1 - k * u) : INFINITY; }

Result make_result(const ResultLayout& layout) {
  Result r;
  r.layout = layout;
  return r;
}

std::string fmt(long double v) {
  std::ostringstream s;
  s.precision(10);
  s << static_cast<double>(v);
  return s.str();
}

// Float values of min/max-like results by fmin/fmax's rule: NaN loses, all NaN gives NaN.
long double fminmax(long double a, long double b, bool is_min) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return is_min ? std::min(a, b) : std::max(a, b);
}

// An empty line's result: the built-in's finish of its identity with n = 0.
DescriptorReference empty_reference(const Reduction& r, Builtin b, DescriptorReference ref) {
  unsigned char* out = ref.exact.bytes.data();
  const Scalar ot = r.out.type;
  const bool fl = is_floating(ot);
  const long double hi = fl ? INFINITY : largest(ot);
  const long double lo = fl ? -INFINITY : is_signed(ot) ? -largest(ot) - 1 : 0;
  switch (b) {
    case Builtin::Min:
    case Builtin::NanMin: write_value(out, ot, hi); break;
    case Builtin::Max:
    case Builtin::NanMax: write_value(out, ot, lo); break;
    case Builtin::LInf: write_value(out, ot, 0); break;
    case Builtin::MinMax:
      write_value(out, ot, hi);
      write_value(out + size_of(ot), ot, lo);
      break;
    case Builtin::ArgMin:
    case Builtin::ArgMax:
      write_value(out, ot, b == Builtin::ArgMin ? hi : lo);
      store(out + 8, ~std::uint64_t{0});
      break;
    case Builtin::All: write_bits(out, r.out.bytes(), 1); break;
    case Builtin::Mean:
    case Builtin::NanMean:
    case Builtin::VarPop:
    case Builtin::VarSample:
    case Builtin::StdPop:
    case Builtin::StdSample:
      ref.how = "NaN (no elements)";
      ref.nan = true;
      break;
    default:  // sums, norms, counts, any: 0
      if (!r.exact) {
        ref.value = 0;
        ref.tolerance = 0;
        ref.how = "0 (no elements)";
      }
      break;
  }
  return ref;
}
}  // namespace

DescriptorReference descriptor_reference(const Reduction& r, const std::vector<const ScalarData*>& inputs,
                                         std::uint64_t n, unsigned depth) {
  return descriptor_reference(r, inputs, 0, n, 1, depth);
}

DescriptorReference descriptor_reference(const Reduction& r, const std::vector<const ScalarData*>& inputs,
                                         std::uint64_t first, std::uint64_t n, std::uint64_t stride, unsigned depth) {
  if (!r.builtin)
    throw Error(Param::Op, "reduction '" + r.name + "' is not a built-in: the host has no reference for it", "a built-in");
  if (inputs.size() != r.inputs.size() || inputs.empty())
    throw Error(Param::Op, "reduction '" + r.name + "' takes " + std::to_string(r.inputs.size()) + " inputs", "");
  for (const ScalarData* d : inputs)
    if (n && (first >= d->n || (n - 1) > (d->n - 1 - first) / std::max<std::uint64_t>(stride, 1)))
      throw Error(Param::N, "an input holds fewer elements than the reference's view", "");
  const Builtin b = *r.builtin;
  const ScalarData& x0 = *inputs[0];
  const Scalar t = x0.type;
  // Element i of the view: element first + i * stride of each input.
  struct View {
    const ScalarData* d;
    std::uint64_t first, stride;
    long double at(std::uint64_t i) const { return d->at(first + i * stride); }
    std::uint64_t bits(std::uint64_t i) const { return int_bits(*d, first + i * stride); }
  };
  const View x{&x0, first, stride};
  // The second input (dot, sqdist); the first again where there is none (never read then).
  const View y_view{inputs.size() > 1 ? inputs[1] : inputs[0], first, stride};
  const View* y = &y_view;
  const bool fl = is_floating(t);
  DescriptorReference ref;
  ref.exact = make_result(r.out);
  unsigned char* out = ref.exact.bytes.data();
  const double u = unit_roundoff(r.out.type);
  const double d = static_cast<double>(depth);
  ref.how = "exact";
  if (r.summation == Summation::Exact) {
    const bool products = b != Builtin::Sum && b != Builtin::Mean;
    const auto sum_range = [&](std::uint64_t from, std::uint64_t to, ExactSum& sum) {
      for (std::uint64_t i = from; i < to; ++i) {
        const double xi = static_cast<double>(x.at(i));  // f16 .. f64: exact in a double
        if (!products) sum.add_value(xi);
        else sum.add_product(xi, b == Builtin::Dot ? static_cast<double>(y->at(i)) : xi);
      }
    };
    // Large inputs in shards on the host's threads, merged in order: a merge of exact sums is the
    // whole's sum, so the reference does not depend on the shards (2^30 floats took over 200 s on
    // one thread before the accumulator's early-stopping carries; bench/NOTES.md).
    const std::uint64_t shards =
        std::min<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()), std::max<std::uint64_t>(1, n >> 20));
    std::vector<ExactSum> sums(shards);
    if (shards == 1) {
      sum_range(0, n, sums[0]);
    } else {
      std::vector<std::thread> pool;
      for (std::uint64_t s = 0; s < shards; ++s)
        pool.emplace_back([&, s] { sum_range(n * s / shards, n * (s + 1) / shards, sums[s]); });
      for (std::thread& th : pool) th.join();
    }
    for (std::uint64_t s = 1; s < shards; ++s) sums[0].merge(sums[s]);
    return exact_descriptor_reference(r, sums[0]);
  }
  if (n == 0) return empty_reference(r, b, ref);

  // Integer results: modular 64-bit arithmetic, as the built-ins define it.
  if (r.exact && b != Builtin::Min && b != Builtin::Max && b != Builtin::NanMin && b != Builtin::NanMax &&
      b != Builtin::ArgMin && b != Builtin::ArgMax && b != Builtin::MinMax && b != Builtin::LInf &&
      b != Builtin::CountNonzero && b != Builtin::Any && b != Builtin::All) {
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t v = x.bits(i);
      switch (b) {
        case Builtin::Sum:
        case Builtin::NanSum:
        case Builtin::SumWrap: acc += v; break;
        case Builtin::L1: acc += is_signed(t) && static_cast<std::int64_t>(v) < 0 ? 0 - v : v; break;
        case Builtin::Dot: acc += v * y->bits(i); break;
        case Builtin::SumSq: acc += v * v; break;
        case Builtin::SqDist: {
          const std::uint64_t w = y->bits(i);
          // Narrow types: the exact difference; 64-bit types: the difference modulo 2^64.
          const std::uint64_t diff = size_of(t) < 8 ? static_cast<std::uint64_t>(static_cast<std::int64_t>(v) -
                                                                                  static_cast<std::int64_t>(w))
                                                    : v - w;
          acc += diff * diff;
          break;
        }
        default: throw Error(Param::Op, "no integer reference for " + r.name, "");
      }
    }
    write_bits(out, r.out.bytes(), acc);
    return ref;
  }

  switch (b) {
    case Builtin::CountNonzero:
    case Builtin::Any:
    case Builtin::All: {
      std::uint64_t nonzero = 0;
      for (std::uint64_t i = 0; i < n; ++i) nonzero += fl ? (x.at(i) != 0 || std::isnan(x.at(i))) : x.bits(i) != 0;
      const std::uint64_t v = b == Builtin::CountNonzero ? nonzero : b == Builtin::Any ? nonzero > 0 : nonzero == n;
      write_bits(out, r.out.bytes(), v);
      return ref;
    }
    case Builtin::Min:
    case Builtin::Max:
    case Builtin::NanMin:
    case Builtin::NanMax:
    case Builtin::MinMax:
    case Builtin::LInf: {
      const bool is_abs = b == Builtin::LInf;
      long double lo = x.at(0), hi = lo;
      if (is_abs) lo = hi = std::fabs(lo);
      for (std::uint64_t i = 1; i < n; ++i) {
        const long double v = is_abs ? std::fabs(x.at(i)) : x.at(i);
        lo = fminmax(lo, v, true);
        hi = fminmax(hi, v, false);
      }
      const bool first_min = b == Builtin::Min || b == Builtin::NanMin || b == Builtin::MinMax;
      write_value(out, r.out.type, first_min ? lo : hi);
      if (b == Builtin::MinMax) write_value(out + size_of(r.out.type), r.out.type, hi);
      return ref;
    }
    case Builtin::ArgMin:
    case Builtin::ArgMax: {
      const bool is_min = b == Builtin::ArgMin;
      std::uint64_t best = 0;
      for (std::uint64_t i = 1; i < n; ++i) {
        const long double a = x.at(best), v = x.at(i);
        if (std::isnan(a)) break;  // the first NaN wins
        if (std::isnan(v) || (is_min ? v < a : v > a)) best = i;
      }
      write_value(out, r.out.type, x.at(best));
      store(out + 8, best);
      return ref;
    }
    default: break;
  }

  // Float results.
  ref.exact = make_result(r.out);
  switch (b) {
    case Builtin::Sum:
    case Builtin::NanSum:
    case Builtin::SumWrap:
    case Builtin::L1:
    case Builtin::Dot:
    case Builtin::SqDist:
    case Builtin::SumSq:
    case Builtin::Mean:
    case Builtin::NanMean: {
      long double s = 0, s_abs = 0;
      std::uint64_t count = 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        long double term = x.at(i);
        if (b == Builtin::L1) term = std::fabs(term);
        else if (b == Builtin::Dot) term *= y->at(i);
        else if (b == Builtin::SqDist) term = (term - y->at(i)) * (term - y->at(i));
        else if (b == Builtin::SumSq) term *= term;
        if ((b == Builtin::NanSum || b == Builtin::NanMean) && std::isnan(term)) continue;
        s += term;
        s_abs += std::fabs(term);
        ++count;
      }
      // Each term is rounded at most three times before it is added (the element's conversion,
      // a product or a difference and its square), then goes through at most `depth` additions.
      double tol = gamma(d + 4, u) * static_cast<double>(s_abs);
      ref.value = s;
      if (b == Builtin::Mean || b == Builtin::NanMean) {
        ref.value = count ? s / static_cast<long double>(count) : NAN;
        tol = tol / static_cast<double>(std::max<std::uint64_t>(count, 1)) + 3 * u * std::fabs(static_cast<double>(ref.value));
      }
      ref.nan = std::isnan(ref.value);
      ref.tolerance = tol;
      ref.how = "within " + fmt(tol) + " (gamma(depth " + std::to_string(depth) + " + 4) * sum|x| " + fmt(s_abs) +
                (b == Builtin::Mean || b == Builtin::NanMean ? " / n, and the division" : "") + ")";
      const Scalar acc = r.out.type == Scalar::F64 ? Scalar::F64 : Scalar::F32;  // float sums: as the result
      if (std::isfinite(s_abs) && s_abs > largest(acc)) {
        ref.may_overflow = true;
        ref.how += "; or +-inf: sum|x| " + fmt(s_abs) + " passes " + std::string(name_of(acc)) + "'s range";
      }
      return ref;
    }
    case Builtin::L2: {
      long double ss = 0;
      for (std::uint64_t i = 0; i < n; ++i) ss += x.at(i) * x.at(i);
      ref.value = std::sqrt(ss);
      ref.nan = std::isnan(ref.value);
      ref.tolerance = (2 * d + 8) * u * static_cast<double>(ref.value);
      ref.how = "within " + fmt(ref.tolerance) + " ((2 depth + 8) u of the norm, depth " + std::to_string(depth) + ")";
      return ref;
    }
    case Builtin::VarPop:
    case Builtin::VarSample:
    case Builtin::StdPop:
    case Builtin::StdSample: {
      // Two passes in long double: the mean, then the sum of squared deviations S.
      long double s = 0, sumsq = 0;
      bool has_inf = false;
      for (std::uint64_t i = 0; i < n; ++i) {
        s += x.at(i);
        sumsq += x.at(i) * x.at(i);
        has_inf |= std::isinf(x.at(i));
      }
      const long double mean = s / static_cast<long double>(n);
      long double S = 0;
      for (std::uint64_t i = 0; i < n; ++i) S += (x.at(i) - mean) * (x.at(i) - mean);
      const bool sample = b == Builtin::VarSample || b == Builtin::StdSample;
      const long double div = static_cast<long double>(sample ? n - 1 : n);
      const long double var = S / div;  // n = 1, sample: 0 / 0, NaN
      // Chan, Golub and LeVeque: a combination of depth k errs by about k u kappa S, kappa =
      // sqrt(1 + n mean^2 / S) the condition number of the data; and each element's rounding to
      // the accumulator moves S by at most 2 u sqrt(S sum x^2).
      const double Sd = static_cast<double>(S);
      const double kappa = Sd > 0 ? std::sqrt(1 + static_cast<double>(n) * static_cast<double>(mean * mean) / Sd) : 1;
      const double tol_S = 4 * (d + 2) * u * kappa * Sd + 4 * u * std::sqrt(Sd * static_cast<double>(sumsq));
      const double tol_var = tol_S / static_cast<double>(div) + 2 * u * static_cast<double>(var);
      if (b == Builtin::VarPop || b == Builtin::VarSample) {
        ref.value = var;
        ref.tolerance = tol_var;
      } else {
        ref.value = std::sqrt(var);
        const double lo = std::sqrt(std::max(0.0, static_cast<double>(var) - tol_var));
        const double hi = std::sqrt(static_cast<double>(var) + tol_var);
        ref.tolerance = std::max(static_cast<double>(ref.value) - lo, hi - static_cast<double>(ref.value)) +
                        2 * u * static_cast<double>(ref.value);
      }
      // An f32 accumulator whose M2 passes f32's range (integers of 32 and 64 bits: the built-in
      // says so) ends at +inf.
      if (r.out.type == Scalar::F32 && !has_inf && std::isfinite(S) &&
          S > static_cast<long double>(std::numeric_limits<float>::max())) {
        ref.value = INFINITY;
        ref.tolerance = 0;
        ref.how = "+inf: M2 " + fmt(S) + " is past f32's range (accumulate in f64 for such data)";
        return ref;
      }
      ref.nan = std::isnan(ref.value) || has_inf;
      ref.inf_or_nan = has_inf;
      ref.how = "within " + fmt(ref.tolerance) + " (4 (depth " + std::to_string(depth) + " + 2) u kappa S, kappa " +
                fmt(kappa) + ", against two passes in long double)";
      return ref;
    }
    default: break;
  }
  throw Error(Param::Op, "no host reference for " + r.name, "");
}

DescriptorReference exact_descriptor_reference(const Reduction& r, const ExactSum& sum) {
  if (r.summation != Summation::Exact || !r.builtin)
    throw Error(Param::Op, "exact_descriptor_reference: '" + r.name + "' is not an exact built-in", "");
  // The exact sum of the terms, rounded once (data/exact_reference.hpp): the same bits expected
  // from every launch, +0 and -0 told apart.
  DescriptorReference ref;
  ref.exact = make_result(r.out);
  unsigned char* out = ref.exact.bytes.data();
  const Builtin b = *r.builtin;
  const bool f64_out = r.out.type == Scalar::F64;
  const ExactFormat& f = f64_out ? kExactF64 : kExactF32;
  const double v = b == Builtin::Mean ? sum.mean(f) : b == Builtin::L2 ? sum.sqrt(f) : sum.rounded(f);
  if (f64_out) {
    const double q = std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v;
    std::memcpy(out, &q, 8);
  } else {
    const float q = std::isnan(v) ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(v);
    std::memcpy(out, &q, 4);
  }
  ref.bits = true;
  ref.how = "exact: the rational sum rounded once, bit for bit";
  return ref;
}

std::string bits_hex(const Result& r) {
  char hex[24];
  if (r.layout.type == Scalar::F64)
    std::snprintf(hex, sizeof hex, " (0x%016llx)", static_cast<unsigned long long>(r.get<std::uint64_t>()));
  else if (r.layout.type == Scalar::F32)
    std::snprintf(hex, sizeof hex, " (0x%08x)", static_cast<unsigned>(r.get<std::uint32_t>()));
  else
    return "";
  return hex;
}

Check check_descriptor(const Result& got, const DescriptorReference& ref) {
  Check c;
  const bool float_result = is_floating(got.layout.type);
  if (ref.bits) {
    // Exact summation: the bits themselves (+0 is not -0; NaN the quiet one without payload).
    c.ok = std::memcmp(got.bytes.data(), ref.exact.bytes.data(), got.layout.bytes()) == 0;
    c.error = c.ok ? 0 : 1;
    c.detail = c.ok ? "exact, bit for bit: " + got.str() + bits_hex(got)
                    : "got " + got.str() + bits_hex(got) + ", expected " + ref.exact.str() + bits_hex(ref.exact) + " (" +
                          ref.how + ")";
    return c;
  }
  if (ref.how == "exact") {
    // By value: +0 equals -0 and NaN equals NaN (a NaN's bits follow the order of operations).
    const std::size_t vb = size_of(got.layout.type);
    auto same = [&](std::size_t off) {
      if (!float_result) return std::memcmp(got.bytes.data() + off, ref.exact.bytes.data() + off, vb) == 0;
      const Result a = Result::from_bytes({ResultLayout::Kind::Value, got.layout.type}, got.bytes.data() + off);
      const Result e = Result::from_bytes({ResultLayout::Kind::Value, got.layout.type}, ref.exact.bytes.data() + off);
      return (std::isnan(a.value()) && std::isnan(e.value())) || a.value() == e.value();
    };
    c.ok = same(0);
    if (got.layout.kind == ResultLayout::Kind::Pair) c.ok = c.ok && same(vb);
    if (got.layout.kind == ResultLayout::Kind::Arg) c.ok = c.ok && got.index() == ref.exact.index();
    c.error = c.ok ? 0 : 1;
    c.detail = c.ok ? "exact: " + got.str() : "got " + got.str() + ", expected " + ref.exact.str();
    return c;
  }
  const double v = got.value();
  const double e = static_cast<double>(ref.value);
  c.tolerance = ref.tolerance;
  if (ref.nan) {
    c.ok = std::isnan(v) || (ref.inf_or_nan && std::isinf(v) && v > 0);
    c.detail = c.ok ? "NaN as expected" + std::string(ref.inf_or_nan ? " (the data holds an infinity)" : "")
                    : "got " + got.str() + ", expected NaN";
    return c;
  }
  if (ref.may_overflow && (std::isinf(v) || std::isnan(v))) {
    c.ok = true;
    c.detail = "overflow to " + got.str() + ": " + ref.how;
    return c;
  }
  if (std::isinf(e) || std::isinf(v)) {
    c.ok = v == e;
    c.detail = c.ok ? got.str() + " as expected" : "got " + got.str() + ", expected " + fmt(ref.value);
    return c;
  }
  c.error = std::fabs(v - e);
  c.rel_error = e != 0 ? c.error / std::fabs(e) : c.error;
  c.ok = c.error <= ref.tolerance;
  c.detail = (c.ok ? "ok: " : "") + got.str() + " against " + fmt(ref.value) + ", error " + fmt(c.error) + " " +
             ref.how;
  return c;
}

}  // namespace clreduce
