// Reduction descriptors (clreduce/reduction.hpp, Reducer::reduce(Reduction, ...)).
//
// unit: the names (ours, NumPy's, the old ElemType ones) and their refusals, sizes, f16 and
// bf16 conversions (every bit pattern both ways, every rounding boundary, ties to even), the
// built-ins' result layouts as the header documents them, reduction_source and ResultLayout.
//
// descriptor: every built-in x every element type at sizes from 1 to 65537 against host
// references written here (integers exactly, 64-bit sums mod 2^64; floats in long double, bounded
// by the launch's depth; variances against a two-pass reference), NaN and infinity rules, signed
// zeros, a sum that overflows 32 bits, the variance of data with a large mean, offsets, run-time
// scalars (no rebuild), user descriptors with a struct accumulator and the index, a descriptor
// that does not build, reduce_to into a result index, the refusals, repeated launches, and the
// host-data reduce(). The references use no library code but f16_to_float / bf16_to_float
// (checked exhaustively in the unit part) to decode inputs.
//
// Cost: one program per built-in and type (about 290 builds). On PoCL with 2 cores the suite takes
// about 20 s with PoCL's kernel cache warm and about 2.5 minutes cold; CLREDUCE_TEST_SHARD=i/N
// splits the matrix by combination.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/introspect/axis.hpp"
#include "clreduce/introspect/reduce.hpp"
#include "clreduce/introspect/segmented.hpp"
#include "support.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <cstdlib>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace clreduce;
using namespace clreduce::test;

namespace {
using S = Scalar;
using B = Builtin;

// ---- Host facts of the types, written here (not the library's) ----
unsigned width_of(S t) {
  switch (t) {
    case S::U8: case S::I8: return 1;
    case S::U16: case S::I16: case S::F16: case S::BF16: return 2;
    case S::U32: case S::I32: case S::F32: return 4;
    case S::U64: case S::I64: case S::F64: return 8;
  }
  return 0;
}
bool float_type(S t) { return t == S::F16 || t == S::BF16 || t == S::F32 || t == S::F64; }
bool signed_int(S t) { return t == S::I8 || t == S::I16 || t == S::I32 || t == S::I64; }
std::string sname(S t) { return std::string(name_of(t)); }
std::string bname(B b) { return std::string(name_of(b)); }

template <class T>
T load(const unsigned char* p) {
  T x;
  std::memcpy(&x, p, sizeof(T));
  return x;
}
template <class T>
void store(unsigned char* p, T x) {
  std::memcpy(p, &x, sizeof(T));
}

// An integer element, sign- or zero-extended to 64 bits.
std::uint64_t int_bits_at(S t, const unsigned char* p) {
  switch (t) {
    case S::U8: return load<std::uint8_t>(p);
    case S::I8: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int8_t>(p)));
    case S::U16: return load<std::uint16_t>(p);
    case S::I16: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int16_t>(p)));
    case S::U32: return load<std::uint32_t>(p);
    case S::I32: return static_cast<std::uint64_t>(static_cast<std::int64_t>(load<std::int32_t>(p)));
    case S::U64: return load<std::uint64_t>(p);
    case S::I64: return static_cast<std::uint64_t>(load<std::int64_t>(p));
    default: break;
  }
  throw std::logic_error("int_bits_at: not an integer type");
}
// Any element as its exact value (long double holds every 64-bit integer on x86-64).
long double real_at(S t, const unsigned char* p) {
  switch (t) {
    case S::F16: return f16_to_float(load<std::uint16_t>(p));
    case S::BF16: return bf16_to_float(load<std::uint16_t>(p));
    case S::F32: return load<float>(p);
    case S::F64: return load<double>(p);
    default: break;
  }
  const std::uint64_t b = int_bits_at(t, p);
  return signed_int(t) ? static_cast<long double>(static_cast<std::int64_t>(b)) : static_cast<long double>(b);
}
// x truncated to t's width, sign- or zero-extended again.
std::uint64_t wrap_to(std::uint64_t x, S t) {
  unsigned char b[8];
  store(b, x);  // little-endian host: the low bytes first
  return int_bits_at(t, b);
}

// One input: n elements of a type, as bytes.
struct Column {
  S type = S::F32;
  std::vector<unsigned char> bytes;
  Column() = default;
  Column(S t, std::size_t n) : type(t), bytes(n * width_of(t)) {}
  std::size_t size() const { return bytes.size() / width_of(type); }
  unsigned char* at(std::size_t i) { return bytes.data() + i * width_of(type); }
  const unsigned char* at(std::size_t i) const { return bytes.data() + i * width_of(type); }
  std::uint64_t bits(std::size_t i) const { return int_bits_at(type, at(i)); }
  long double val(std::size_t i) const { return real_at(type, at(i)); }
  bool nan(std::size_t i) const { return float_type(type) && std::isnan(val(i)); }
  void set_bits(std::size_t i, std::uint64_t x) {  // integers; raw bits of floats
    unsigned char b[8];
    store(b, x);
    std::memcpy(at(i), b, width_of(type));
  }
  void set_real(std::size_t i, double v) {
    switch (type) {
      case S::F16: store(at(i), float_to_f16(static_cast<float>(v))); break;
      case S::BF16: store(at(i), float_to_bf16(static_cast<float>(v))); break;
      case S::F32: store(at(i), static_cast<float>(v)); break;
      case S::F64: store(at(i), v); break;
      default: throw std::logic_error("set_real: not a float type");
    }
  }
  void set_nan(std::size_t i, bool negative = false) {
    switch (type) {
      case S::F16: set_bits(i, negative ? 0xFE01u : 0x7E00u); break;
      case S::BF16: set_bits(i, negative ? 0xFF81u : 0x7FC0u); break;
      case S::F32: set_bits(i, negative ? 0xFFC00001u : 0x7FC00000u); break;
      case S::F64: set_bits(i, negative ? 0xFFF8000000000001ull : 0x7FF8000000000000ull); break;
      default: throw std::logic_error("set_nan: not a float type");
    }
  }
  Column slice(std::size_t first, std::size_t n) const {
    Column c(type, n);
    std::memcpy(c.bytes.data(), at(first), n * width_of(type));
    return c;
  }
};

cl::Buffer upload(const Column& c) {
  return cl::Buffer(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, c.bytes.size(),
                    const_cast<unsigned char*>(c.bytes.data()));
}

Reducer make_reducer(ProgramCache* programs = nullptr) {
  ReducerOptions o;
  o.tuning.enabled = false;
  o.programs = programs;
  return session().reducer(o);
}

// ---- Data ----
enum class Fill { Random, NonZero, HalfZero, AllZero };
const char* fill_name(Fill f) {
  switch (f) {
    case Fill::Random: return "random";
    case Fill::NonZero: return "nonzero";
    case Fill::HalfZero: return "half zero";
    case Fill::AllZero: return "all zero";
  }
  return "?";
}

// Integers: full-range random bits (a 32-bit sum of u32s near 2^32 wraps; products of 64-bit
// values wrap), `narrow64`: 64-bit values within 2^52 (variances: n * var must fit the f32
// accumulator). Floats: uniform in [-1, 1], with 1 in 32 a special value (+-0, +-1, 0.5, the
// storage type's smallest subnormal). Zeros as the fill asks (-0.0 among them for floats).
Column make_column(S t, std::size_t n, std::mt19937_64& g, Fill fill, bool narrow64 = false) {
  Column c(t, n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const bool zero = fill == Fill::AllZero || (fill == Fill::HalfZero && g() % 2 == 0);
    if (float_type(t)) {
      if (zero) {
        c.set_real(i, (g() % 2) ? -0.0 : 0.0);
        continue;
      }
      if (fill == Fill::Random && g() % 32 == 0) {
        switch (g() % 7) {
          case 0: c.set_real(i, 0.0); break;
          case 1: c.set_real(i, -0.0); break;
          case 2: c.set_real(i, 1.0); break;
          case 3: c.set_real(i, -1.0); break;
          case 4: c.set_real(i, 0.5); break;
          case 5: c.set_bits(i, 1); break;  // the smallest positive subnormal of the storage type
          default: c.set_bits(i, std::uint64_t(1) << (8 * width_of(t) - 1) | 1u); break;  // its negative
        }
        continue;
      }
      c.set_real(i, unit(g));
      if (fill == Fill::NonZero && c.val(i) == 0) c.set_real(i, 0.5);
    } else {
      std::uint64_t r = g();
      if (narrow64 && width_of(t) == 8)
        r = signed_int(t) ? static_cast<std::uint64_t>(static_cast<std::int64_t>(r) >> 12) : r >> 12;
      if (zero) r = 0;
      c.set_bits(i, r);
      if (fill == Fill::NonZero && c.bits(i) == 0) c.set_bits(i, 1);
    }
  }
  return c;
}

// ---- Host references ----
long double pairwise(const std::vector<long double>& v, std::size_t lo, std::size_t hi) {
  if (hi - lo <= 8) {
    long double s = 0;
    for (std::size_t i = lo; i < hi; ++i) s += v[i];
    return s;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  return pairwise(v, lo, mid) + pairwise(v, mid, hi);
}
long double pairwise(const std::vector<long double>& v) { return pairwise(v, 0, v.size()); }
const long double kNaN = std::numeric_limits<long double>::quiet_NaN();

struct Expect {
  enum class Kind { Bits, Real, Arg, Pair } kind = Kind::Bits;
  bool int_values = false;   // Arg, Pair: the values are integers (compared as bits)
  std::uint64_t bits = 0;    // Bits: the exact value, sign- or zero-extended; Arg/Pair of integers: the (first) value
  std::uint64_t bits2 = 0;   // Pair of integers: the second value
  long double value = 0;     // Real: the reference (NaN: NaN expected); Arg/Pair of floats: the exact (first) value
  long double value2 = 0;    // Pair of floats: the second value
  long double bound = 0;     // Real: the allowed |device - reference|
  std::uint64_t index = 0;   // Arg
};

bool same_real(long double a, long double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

// The reference of built-in `b` over x (and y for dot and sqdist), n elements; depth is the
// launch's (DescriptorLaunch::depth); acc64: accumulation in f64 (an F64 input, or
// builtin(..., F64)).
Expect reference(B b, const Column& x, const Column* y, std::size_t n, unsigned depth, bool acc64) {
  const S t = x.type;
  const bool fl = float_type(t);
  const bool real_path = fl || acc64;  // sums, l1, dot, sqdist: a float accumulator
  const long double u = acc64 ? std::ldexp(1.0L, -53) : std::ldexp(1.0L, -24);
  const long double tiny = 4.0L * static_cast<long double>(n) *
                           (acc64 ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min());
  auto gamma = [&](unsigned k) { return k * u / (1 - k * u); };
  auto cmp_less = [&](std::size_t i, std::size_t j) {  // x[i] < x[j], integers by value
    if (signed_int(t)) return static_cast<std::int64_t>(x.bits(i)) < static_cast<std::int64_t>(x.bits(j));
    return x.bits(i) < x.bits(j);
  };
  Expect e;
  switch (b) {
    case B::Sum: case B::SumWrap: case B::NanSum: case B::L1: {
      if (!real_path) {
        std::uint64_t s = 0;
        for (std::size_t i = 0; i < n; ++i) {
          std::uint64_t v = x.bits(i);
          if (b == B::L1 && signed_int(t) && static_cast<std::int64_t>(v) < 0) v = 0 - v;
          s += v;
        }
        e.bits = b == B::SumWrap ? wrap_to(s, t) : s;
        return e;
      }
      std::vector<long double> v, a;
      for (std::size_t i = 0; i < n; ++i) {
        if (b == B::NanSum && x.nan(i)) continue;
        const long double xi = b == B::L1 ? std::fabs(x.val(i)) : x.val(i);
        v.push_back(xi);
        a.push_back(std::fabs(xi));
      }
      e.kind = Expect::Kind::Real;
      e.value = pairwise(v);
      e.bound = 2 * gamma(depth + 1) * pairwise(a) + tiny;
      return e;
    }
    case B::Mean: case B::NanMean: {
      std::vector<long double> v, a;
      for (std::size_t i = 0; i < n; ++i) {
        if (b == B::NanMean && x.nan(i)) continue;
        v.push_back(x.val(i));
        a.push_back(std::fabs(x.val(i)));
      }
      e.kind = Expect::Kind::Real;
      if (v.empty()) {
        e.value = kNaN;
        return e;
      }
      const long double m = static_cast<long double>(v.size());
      e.value = pairwise(v) / m;
      e.bound = 2 * gamma(depth + 1) * pairwise(a) / m + u * std::fabs(e.value) + tiny;
      return e;
    }
    case B::VarPop: case B::VarSample: case B::StdPop: case B::StdSample: {
      e.kind = Expect::Kind::Real;
      const bool sample = b == B::VarSample || b == B::StdSample;
      const std::size_t divisor = sample ? n - 1 : n;
      if (divisor == 0) {
        e.value = kNaN;
        return e;
      }
      std::vector<long double> v, d2, sq;
      for (std::size_t i = 0; i < n; ++i) v.push_back(x.val(i));
      const long double mean = pairwise(v) / static_cast<long double>(n);  // two passes
      for (long double xi : v) {
        d2.push_back((xi - mean) * (xi - mean));
        sq.push_back(xi * xi);
      }
      const long double var = pairwise(d2) / static_cast<long double>(divisor);
      const long double bv = 4 * (depth + 4) * u * (pairwise(sq) / static_cast<long double>(divisor)) + tiny;
      if (b == B::VarPop || b == B::VarSample) {
        e.value = var;
        e.bound = bv;
      } else {
        e.value = std::sqrt(var);
        // |sqrt(a) - sqrt(b)| <= sqrt(|a - b|), and <= |a - b| / sqrt(b)
        const long double via_root = std::sqrt(bv);
        e.bound = (e.value > 0 ? std::min(via_root, bv / e.value) : via_root) + 2 * u * e.value;
      }
      return e;
    }
    case B::L2: {
      std::vector<long double> sq;
      for (std::size_t i = 0; i < n; ++i) sq.push_back(x.val(i) * x.val(i));
      e.kind = Expect::Kind::Real;
      e.value = std::sqrt(pairwise(sq));
      // A scaled sum of squares rounds up to ~5 times per combine (ratio, square, product, sum):
      // up to 2.5u per level on the norm.
      e.bound = 3 * (depth + 4) * u * e.value + tiny;
      return e;
    }
    case B::Min: case B::Max: case B::NanMin: case B::NanMax: case B::MinMax:
    case B::ArgMin: case B::ArgMax: {
      const bool want_min = b == B::Min || b == B::NanMin || b == B::ArgMin;
      const bool arg = b == B::ArgMin || b == B::ArgMax;
      if (!fl) {
        std::size_t lo = 0, hi = 0;
        for (std::size_t i = 1; i < n; ++i) {
          if (cmp_less(i, lo)) lo = i;
          if (cmp_less(hi, i)) hi = i;
        }
        const std::size_t k = want_min ? lo : hi;
        e.kind = arg ? Expect::Kind::Arg : b == B::MinMax ? Expect::Kind::Pair : Expect::Kind::Bits;
        e.int_values = true;
        e.bits = b == B::MinMax ? x.bits(lo) : x.bits(k);
        e.bits2 = x.bits(hi);
        e.index = k;
        return e;
      }
      // floats: fmin/fmax (a NaN loses, all NaN gives NaN); arg: the first NaN wins
      std::optional<std::size_t> lo, hi, first_nan;
      for (std::size_t i = 0; i < n; ++i) {
        const long double v = x.val(i);
        if (std::isnan(v)) {
          if (!first_nan) first_nan = i;
          continue;
        }
        if (!lo || v < x.val(*lo)) lo = i;
        if (!hi || v > x.val(*hi)) hi = i;
      }
      const long double vlo = lo ? x.val(*lo) : kNaN, vhi = hi ? x.val(*hi) : kNaN;
      if (arg) {
        e.kind = Expect::Kind::Arg;
        if (first_nan) {
          e.value = kNaN;
          e.index = *first_nan;
        } else {
          e.value = want_min ? vlo : vhi;
          e.index = want_min ? *lo : *hi;
        }
      } else if (b == B::MinMax) {
        e.kind = Expect::Kind::Pair;
        e.value = vlo;
        e.value2 = vhi;
      } else {
        e.kind = Expect::Kind::Real;
        e.value = want_min ? vlo : vhi;
        e.bound = 0;
      }
      return e;
    }
    case B::LInf: {
      if (!fl) {
        std::uint64_t m = 0;
        for (std::size_t i = 0; i < n; ++i) {
          std::uint64_t v = x.bits(i);
          if (signed_int(t) && static_cast<std::int64_t>(v) < 0) v = 0 - v;
          m = std::max(m, v);
        }
        e.bits = m;
        return e;
      }
      std::optional<long double> m;
      for (std::size_t i = 0; i < n; ++i)
        if (!x.nan(i) && (!m || std::fabs(x.val(i)) > *m)) m = std::fabs(x.val(i));
      e.kind = Expect::Kind::Real;
      e.value = m ? *m : kNaN;
      return e;
    }
    case B::CountNonzero: case B::Any: case B::All: {
      std::uint64_t c = 0;
      for (std::size_t i = 0; i < n; ++i) c += fl ? (x.val(i) != 0) : (x.bits(i) != 0);  // NaN != 0
      e.bits = b == B::CountNonzero ? c : b == B::Any ? (c > 0) : (c == n);
      return e;
    }
    case B::Dot: case B::SqDist: case B::SumSq: {
      if (!real_path) {
        std::uint64_t s = 0;
        for (std::size_t i = 0; i < n; ++i) {
          if (b == B::Dot) {
            s += x.bits(i) * y->bits(i);  // the true product modulo 2^64 (sign-extended operands)
          } else if (b == B::SumSq) {
            s += x.bits(i) * x.bits(i);
          } else {
            const std::uint64_t d = x.bits(i) - y->bits(i);
            s += d * d;
          }
        }
        e.bits = s;
        return e;
      }
      std::vector<long double> v, a;
      for (std::size_t i = 0; i < n; ++i) {
        const long double d = b == B::Dot     ? x.val(i) * y->val(i)
                              : b == B::SumSq ? x.val(i) * x.val(i)
                                              : (x.val(i) - y->val(i)) * (x.val(i) - y->val(i));
        v.push_back(d);
        a.push_back(std::fabs(d));
      }
      e.kind = Expect::Kind::Real;
      e.value = pairwise(v);
      e.bound = 2 * gamma(depth + 3) * pairwise(a) + tiny;
      return e;
    }
  }
  throw std::logic_error("reference: unknown built-in");
}

// ---- Results, decoded here ----
std::uint64_t result_bits(const Result& r, unsigned which) {
  return int_bits_at(r.layout.type, r.bytes.data() + which * width_of(r.layout.type));
}
long double result_real(const Result& r, unsigned which) {
  return real_at(r.layout.type, r.bytes.data() + which * width_of(r.layout.type));
}
std::uint64_t result_index(const Result& r) { return load<std::uint64_t>(r.bytes.data() + 8); }

std::string show_bits(std::uint64_t bits) {
  std::ostringstream o;
  o << bits << " (i64 " << static_cast<std::int64_t>(bits) << ", 0x" << std::hex << bits << ")";
  return o.str();
}

// Empty when r is what e expects; else what differs.
// `used`: where the reference is bounded, the fraction of the bound the error took.
std::string compare(const Result& r, const Expect& e, double* used = nullptr) {
  std::ostringstream o;
  o << std::setprecision(21);
  auto int_result = [&](unsigned which) {
    if (float_type(r.layout.type)) {
      o << "result type " << sname(r.layout.type) << " where an integer is expected; ";
      return false;
    }
    (void)which;
    return true;
  };
  switch (e.kind) {
    case Expect::Kind::Bits: {
      if (!int_result(0)) break;
      const std::uint64_t got = result_bits(r, 0);
      if (got != e.bits) o << "got " << show_bits(got) << ", expected " << show_bits(e.bits);
      break;
    }
    case Expect::Kind::Real: {
      if (!float_type(r.layout.type)) {
        o << "result type " << sname(r.layout.type) << " where a float is expected";
        break;
      }
      const long double got = result_real(r, 0);
      const long double err = std::fabs(got - e.value);
      bool ok;
      if (std::isnan(e.value)) ok = std::isnan(got);
      else if (std::isinf(e.value)) ok = got == e.value;
      else ok = !std::isnan(got) && err <= e.bound;
      if (used && std::isfinite(e.value) && e.bound > 0) *used = static_cast<double>(err / e.bound);
      if (!ok)
        o << "got " << got << ", expected " << e.value << " +- " << e.bound << " (error " << err << ", "
          << (e.bound > 0 ? err / e.bound : 0) << " of the bound)";
      break;
    }
    case Expect::Kind::Arg: {
      if (r.layout.kind != ResultLayout::Kind::Arg) {
        o << "layout " << r.layout.str() << " where argvalue is expected";
        break;
      }
      const std::uint64_t idx = result_index(r);
      if (e.int_values) {
        if (!int_result(0)) break;
        if (result_bits(r, 0) != e.bits || idx != e.index)
          o << "got " << show_bits(result_bits(r, 0)) << " @ " << idx << ", expected " << show_bits(e.bits) << " @ "
            << e.index;
      } else {
        if (!same_real(result_real(r, 0), e.value) || idx != e.index)
          o << "got " << result_real(r, 0) << " @ " << idx << ", expected " << e.value << " @ " << e.index;
      }
      break;
    }
    case Expect::Kind::Pair: {
      if (r.layout.kind != ResultLayout::Kind::Pair) {
        o << "layout " << r.layout.str() << " where a pair is expected";
        break;
      }
      if (e.int_values) {
        if (!int_result(0)) break;
        if (result_bits(r, 0) != e.bits || result_bits(r, 1) != e.bits2)
          o << "got (" << show_bits(result_bits(r, 0)) << ", " << show_bits(result_bits(r, 1)) << "), expected ("
            << show_bits(e.bits) << ", " << show_bits(e.bits2) << ")";
      } else if (!same_real(result_real(r, 0), e.value) || !same_real(result_real(r, 1), e.value2)) {
        o << "got (" << result_real(r, 0) << ", " << result_real(r, 1) << "), expected (" << e.value << ", "
          << e.value2 << ")";
      }
      break;
    }
  }
  return o.str();
}

// ---- The layouts the header documents ----
S value_of(S t) { return t == S::F16 || t == S::BF16 ? S::F32 : t; }
S real_of(S t) { return t == S::F64 ? S::F64 : S::F32; }
S wide_of(S t) {
  if (float_type(t)) return real_of(t);
  return signed_int(t) ? S::I64 : S::U64;
}
S unsigned_of(S t) {
  if (float_type(t)) return value_of(t);
  switch (width_of(t)) {
    case 1: return S::U8;
    case 2: return S::U16;
    case 4: return S::U32;
    default: return S::U64;
  }
}
// nullopt where the header leaves the type open (dot and sqdist of integers: some 8-byte integer).
std::optional<ResultLayout> documented_layout(B b, S t) {
  using K = ResultLayout::Kind;
  auto L = [](K k, S s) { return ResultLayout{k, s}; };
  switch (b) {
    case B::Sum: case B::NanSum: return L(K::Value, wide_of(t));
    case B::SumWrap: return L(K::Value, float_type(t) ? wide_of(t) : t);
    case B::Min: case B::Max: case B::NanMin: case B::NanMax: return L(K::Value, value_of(t));
    case B::ArgMin: case B::ArgMax: return L(K::Arg, value_of(t));
    case B::MinMax: return L(K::Pair, value_of(t));
    case B::Mean: case B::NanMean: case B::VarPop: case B::VarSample: case B::StdPop: case B::StdSample:
    case B::L2: return L(K::Value, real_of(t));
    case B::CountNonzero: return L(K::Value, S::U64);
    case B::Any: case B::All: return L(K::Value, S::U8);
    case B::L1: return L(K::Value, float_type(t) ? wide_of(t) : S::U64);
    case B::LInf: return L(K::Value, unsigned_of(t));
    case B::Dot: case B::SqDist: case B::SumSq:
      if (float_type(t)) return L(K::Value, wide_of(t));
      return std::nullopt;
  }
  return std::nullopt;
}
std::string layout_problem(const ResultLayout& got, B b, S t) {
  std::ostringstream o;
  if (auto want = documented_layout(b, t)) {
    if (got.kind != want->kind || got.type != want->type) o << "layout " << got.str() << ", documented " << want->str();
  } else if (got.kind != ResultLayout::Kind::Value || (got.type != S::U64 && got.type != S::I64)) {
    o << "layout " << got.str() << ", documented a 64-bit integer";
  }
  return o.str();
}

// Up to `limit` failures reported one by one, then only counted.
struct Failures {
  std::size_t count = 0, limit = 40;
  void add(const std::string& what) {
    if (++count <= limit) FAIL_CHECK(what);
  }
};

std::uint64_t case_seed(B b, S t, std::uint64_t n) {
  return seed() ^ (static_cast<std::uint64_t>(b) << 48) ^ (static_cast<std::uint64_t>(t) << 40) ^
         (n * 0x9E3779B97F4A7C15ULL);
}

// One reduction of the columns on the device, checked against the reference; "" when it agrees.
std::string run_and_compare(Reducer& red, const Reduction& d, B b, const std::vector<Column>& cols, std::size_t n,
                            bool acc64, Result* out = nullptr, double* used = nullptr) {
  std::vector<Input> inputs;
  for (const Column& c : cols) inputs.push_back(Input{upload(c), 0});
  std::ostringstream o;
  try {
    const DescriptorLaunch L = introspect::prepare(red, d, n);
    const unsigned min_depth = n > 1 ? static_cast<unsigned>(std::ceil(std::log2(static_cast<double>(n)))) : 0;
    if (L.depth < min_depth) o << "depth " << L.depth << " below log2(n) = " << min_depth << " (" << L.label() << "); ";
    const Result r = red.reduce(d, inputs, n);
    if (out) *out = r;
    if (r.layout.kind != d.out.kind || r.layout.type != d.out.type)
      o << "result layout " << r.layout.str() << " differs from the descriptor's " << d.out.str() << "; ";
    o << compare(r, reference(b, cols[0], cols.size() > 1 ? &cols[1] : nullptr, n, L.depth, acc64), used);
    if (!o.str().empty()) o << " [" << L.label() << ", depth " << L.depth << "]";
  } catch (const Error& e) {
    o << "threw: " << e.what();
  }
  return o.str();
}

bool has_fp64() { return session().device().fp64; }

// A float type's columns for one built-in: one or two inputs.
std::vector<Column> columns_for(B b, S t, std::size_t n, std::mt19937_64& g, Fill fill, bool narrow64) {
  std::vector<Column> cols;
  for (unsigned k = 0; k < builtin_inputs(b); ++k) cols.push_back(make_column(t, n, g, fill, narrow64));
  return cols;
}

}  // namespace

// ======================================================================================
TEST_SUITE("unit") {
  TEST_CASE("results print every NaN as nan (no sign from 0/0), infinities and shortest round-trip digits") {
    const float neg_nan = -std::numeric_limits<float>::quiet_NaN();
    REQUIRE(std::signbit(neg_nan));
    CHECK(Value{neg_nan}.str() == "nan");
    CHECK(Value{-std::numeric_limits<double>::infinity()}.str() == "-inf");
    CHECK(Value{0.1f}.str() == "0.100000001");
    unsigned char bytes[16] = {};
    std::memcpy(bytes, &neg_nan, 4);
    CHECK(Result::from_bytes(ResultLayout{ResultLayout::Kind::Value, Scalar::F32}, bytes).str() == "nan");
    const std::uint16_t half_neg_nan = 0xfe00;
    std::memcpy(bytes, &half_neg_nan, 2);
    CHECK(Result::from_bytes(ResultLayout{ResultLayout::Kind::Value, Scalar::F16}, bytes).str() == "nan");
    const std::uint16_t half_one = 0x3c00;
    std::memcpy(bytes, &half_one, 2);
    CHECK(Result::from_bytes(ResultLayout{ResultLayout::Kind::Value, Scalar::F16}, bytes).str() == "1");
  }

  TEST_CASE("descriptor: scalar names, NumPy's and the old ones; refusals list the valid names") {
    CHECK(all_scalars().size() == 12);
    for (S t : all_scalars()) {
      CAPTURE(sname(t));
      CHECK(parse_scalar(name_of(t)) == t);
    }
    const std::vector<std::pair<std::string, S>> numpy = {
        {"uint8", S::U8},     {"int8", S::I8},         {"uint16", S::U16},  {"int16", S::I16},
        {"uint32", S::U32},   {"int32", S::I32},       {"uint64", S::U64},  {"int64", S::I64},
        {"float16", S::F16},  {"bfloat16", S::BF16},   {"float32", S::F32}, {"float64", S::F64},
        {"uint", S::U32},     {"int", S::I32},         {"float", S::F32},   {"double", S::F64}};
    for (const auto& entry : numpy) {
      const auto& text = entry.first;
      const auto& t = entry.second;
      CAPTURE(text);
      CHECK(parse_scalar(text) == t);
    }
    const std::vector<std::pair<S, std::string>> names = {
        {S::U8, "u8"},   {S::I8, "i8"},   {S::U16, "u16"}, {S::I16, "i16"},   {S::U32, "u32"}, {S::I32, "i32"},
        {S::U64, "u64"}, {S::I64, "i64"}, {S::F16, "f16"}, {S::BF16, "bf16"}, {S::F32, "f32"}, {S::F64, "f64"}};
    for (const auto& [t, text] : names) CHECK(name_of(t) == text);
    for (const char* junk : {"u7", "", "U8x", "float128", "f8"}) {
      CAPTURE(junk);
      try {
        parse_scalar(junk);
        FAIL_CHECK("parse_scalar accepted it");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Type);
        const std::string what = e.what();
        for (S t : all_scalars()) {
          CAPTURE(sname(t));
          CHECK(what.find(sname(t)) != std::string::npos);
        }
      }
    }
  }

  TEST_CASE("descriptor: scalar facts") {
    const std::map<S, std::size_t> sizes = {{S::U8, 1},  {S::I8, 1},  {S::U16, 2}, {S::I16, 2},
                                            {S::U32, 4}, {S::I32, 4}, {S::U64, 8}, {S::I64, 8},
                                            {S::F16, 2}, {S::BF16, 2}, {S::F32, 4}, {S::F64, 8}};
    for (S t : all_scalars()) {
      CAPTURE(sname(t));
      CHECK(size_of(t) == sizes.at(t));
      CHECK(is_floating(t) == float_type(t));
      CHECK(is_signed(t) == (signed_int(t) || float_type(t)));
    }
    CHECK(to_scalar(ElemType::Uint) == S::U32);
    CHECK(to_scalar(ElemType::Int) == S::I32);
    CHECK(to_scalar(ElemType::Float) == S::F32);
    CHECK(to_scalar(ElemType::Double) == S::F64);
    CHECK(to_elem_type(S::U32) == std::optional<ElemType>(ElemType::Uint));
    CHECK(to_elem_type(S::F64) == std::optional<ElemType>(ElemType::Double));
    CHECK_FALSE(to_elem_type(S::BF16).has_value());
    CHECK(compute_type(S::F16) == "float");
    CHECK(compute_type(S::BF16) == "float");
    CHECK(compute_type(S::F64) == "double");
    CHECK(compute_type(S::U8) == "uchar");
  }

  TEST_CASE("descriptor: builtin names round-trip; junk is refused naming them") {
    CHECK(all_builtins().size() == 25);
    for (B b : all_builtins()) {
      CAPTURE(bname(b));
      CHECK(parse_builtin(name_of(b)) == b);
      CHECK(builtin_inputs(b) == ((b == B::Dot || b == B::SqDist) ? 2u : 1u));
    }
    CHECK(name_of(B::SumWrap) == "sum_wrap");
    CHECK(name_of(B::SqDist) == "sqdist");
    CHECK(name_of(B::SumSq) == "sumsq");
    CHECK(name_of(B::CountNonzero) == "count_nonzero");
    for (const char* junk : {"summ", "", "SUM ", "median"}) {
      CAPTURE(junk);
      try {
        parse_builtin(junk);
        FAIL_CHECK("parse_builtin accepted it");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Op);
        const std::string what = e.what();
        for (B b : all_builtins()) {
          CAPTURE(bname(b));
          CHECK(what.find(bname(b)) != std::string::npos);
        }
      }
    }
  }

  TEST_CASE("descriptor: f16 and bf16 decode every bit pattern as IEEE says and round-trip") {
    // An independent decode of binary16.
    auto f16_value = [](std::uint16_t h) -> double {
      const int e = (h >> 10) & 31, m = h & 1023;
      double v;
      if (e == 31) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
      else if (e == 0) v = std::ldexp(m, -24);
      else v = std::ldexp(1024 + m, e - 25);
      return (h & 0x8000) ? -v : v;
    };
    auto is_f16_nan = [](std::uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; };
    auto is_bf16_nan = [](std::uint16_t h) { return (h & 0x7F80) == 0x7F80 && (h & 0x7F) != 0; };
    std::size_t bad_f16 = 0, bad_bf16 = 0;
    for (std::uint32_t k = 0; k < 65536; ++k) {
      const auto h = static_cast<std::uint16_t>(k);
      // f16
      const float f = f16_to_float(h);
      const double want = f16_value(h);
      bool ok = std::isnan(want) ? std::isnan(f) : (static_cast<double>(f) == want && std::signbit(f) == std::signbit(want));
      ok = ok && (std::isnan(f) ? is_f16_nan(float_to_f16(f)) : float_to_f16(f) == h);
      if (!ok && ++bad_f16 <= 10) FAIL_CHECK("f16 bits 0x" << std::hex << k << " decode " << f << " re-encode 0x" << float_to_f16(f));
      // bf16: the upper half of a float
      const std::uint32_t fb = k << 16;
      float want_b;
      std::memcpy(&want_b, &fb, 4);
      const float g = bf16_to_float(h);
      std::uint32_t gb;
      std::memcpy(&gb, &g, 4);
      bool okb = std::isnan(want_b) ? std::isnan(g) : gb == fb;
      okb = okb && (std::isnan(g) ? is_bf16_nan(float_to_bf16(g)) : float_to_bf16(g) == h);
      if (!okb && ++bad_bf16 <= 10) FAIL_CHECK("bf16 bits 0x" << std::hex << k << " decode " << g << " re-encode 0x" << float_to_bf16(g));
    }
    CHECK(bad_f16 == 0);
    CHECK(bad_bf16 == 0);
    // NaNs whose payload lies only in the bits a conversion drops stay NaN.
    for (std::uint32_t bits : {0x7F800001u, 0xFF800001u, 0x7F801000u, 0x7FC00000u, 0xFFFFFFFFu}) {
      float nan;
      std::memcpy(&nan, &bits, 4);
      CAPTURE(bits);
      CHECK(is_f16_nan(float_to_f16(nan)));
      CHECK(is_bf16_nan(float_to_bf16(nan)));
    }
  }

  TEST_CASE("descriptor: float_to_f16 and float_to_bf16 round to nearest, ties to even") {
    const float inf = std::numeric_limits<float>::infinity();
    CHECK(float_to_f16(1.0f) == 0x3C00);
    CHECK(float_to_f16(-1.0f) == 0xBC00);
    CHECK(float_to_f16(0.0f) == 0x0000);
    CHECK(float_to_f16(-0.0f) == 0x8000);
    CHECK(float_to_f16(65504.0f) == 0x7BFF);
    CHECK(float_to_f16(65519.0f) == 0x7BFF);
    CHECK(float_to_f16(65520.0f) == 0x7C00);  // the tie above the largest finite rounds to even: inf
    CHECK(float_to_f16(1e10f) == 0x7C00);
    CHECK(float_to_f16(-inf) == 0xFC00);
    CHECK(float_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);             // tie, to even
    CHECK(float_to_f16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3C01);  // just above
    CHECK(float_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);         // tie, to even (up)
    CHECK(float_to_f16(std::ldexp(1.0f, -24)) == 0x0001);                    // the smallest subnormal
    CHECK(float_to_f16(std::ldexp(1.0f, -25)) == 0x0000);                    // tie with 0, to even
    CHECK(float_to_f16(3 * std::ldexp(1.0f, -26)) == 0x0001);
    CHECK(float_to_f16(std::ldexp(1.0f, -14)) == 0x0400);                    // the smallest normal
    CHECK(float_to_f16(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -24)) == 0x03FF);
    CHECK(float_to_f16(1e-10f) == 0x0000);
    CHECK(float_to_bf16(1.0f) == 0x3F80);
    CHECK(float_to_bf16(-2.0f) == 0xC000);
    CHECK(float_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3F80);             // tie, to even
    CHECK(float_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3F82);         // tie, to even (up)
    CHECK(float_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)) == 0x3F81);
    CHECK(float_to_bf16(std::numeric_limits<float>::max()) == 0x7F80);       // rounds up to inf
    CHECK(float_to_bf16(-inf) == 0xFF80);

    // Every boundary between neighbours: the midpoint goes to the even one, a float either side of
    // it to the nearer.
    auto f16_value = [](std::uint32_t h) {  // positive finite, or 0x7C00 as 65536
      const int e = static_cast<int>((h >> 10) & 31), m = static_cast<int>(h & 1023);
      return e == 0 ? std::ldexp(static_cast<double>(m), -24) : std::ldexp(1024.0 + m, e - 25);
    };
    auto bf16_value = [](std::uint32_t h) {  // positive finite, or 0x7F80 as 2^128
      if (h == 0x7F80) return std::ldexp(1.0, 128);
      const std::uint32_t fb = h << 16;
      float f;
      std::memcpy(&f, &fb, 4);
      return static_cast<double>(f);
    };
    std::size_t bad = 0;
    for (std::uint32_t h = 0; h < 0x7C00; ++h) {
      const float mid = static_cast<float>((f16_value(h) + f16_value(h + 1)) / 2);  // exact in float
      const auto even = static_cast<std::uint16_t>(h % 2 ? h + 1 : h);
      for (int sign : {0, 1}) {
        const float m = sign ? -mid : mid;
        const std::uint16_t sbit = sign ? 0x8000 : 0;
        const bool ok = float_to_f16(m) == (even | sbit) && float_to_f16(std::nextafter(m, 0.0f)) == (h | sbit) &&
                        float_to_f16(std::nextafter(m, sign ? -inf : inf)) == ((h + 1) | sbit);
        if (!ok && ++bad <= 10) FAIL_CHECK("f16 boundary between 0x" << std::hex << h << " and 0x" << h + 1 << " sign " << sign);
      }
    }
    for (std::uint32_t h = 0; h < 0x7F80; ++h) {
      const float mid = static_cast<float>((bf16_value(h) + bf16_value(h + 1)) / 2);
      const auto even = static_cast<std::uint16_t>(h % 2 ? h + 1 : h);
      for (int sign : {0, 1}) {
        const float m = sign ? -mid : mid;
        const std::uint16_t sbit = sign ? 0x8000 : 0;
        const bool ok = float_to_bf16(m) == (even | sbit) && float_to_bf16(std::nextafter(m, 0.0f)) == (h | sbit) &&
                        float_to_bf16(std::nextafter(m, sign ? -inf : inf)) == ((h + 1) | sbit);
        if (!ok && ++bad <= 10) FAIL_CHECK("bf16 boundary between 0x" << std::hex << h << " and 0x" << h + 1 << " sign " << sign);
      }
    }
    CHECK(bad == 0);
  }

  TEST_CASE("descriptor: builtin() takes every type with the documented result layout") {
    for (B b : all_builtins())
      for (S t : all_scalars()) {
        CAPTURE(bname(b));
        CAPTURE(sname(t));
        Reduction d;
        try {
          d = builtin(b, t);
        } catch (const Error& e) {
          // The header: each built-in takes every input type unless it says otherwise (none does).
          FAIL_CHECK("builtin() refused: " << e.what());
          continue;
        } catch (...) {
          FAIL_CHECK("builtin() threw something other than clreduce::Error");
          continue;
        }
        CHECK(d.inputs == std::vector<S>(builtin_inputs(b), t));
        CHECK(d.scalars.empty());
        CHECK(d.builtin == std::optional<B>(b));
        CHECK_FALSE(d.name.empty());
        CHECK(d.acc_bytes > 0);
        const std::string lp = layout_problem(d.out, b, t);
        CHECK_MESSAGE(lp.empty(), lp);
        CHECK(d.needs_fp64() == (t == S::F64));
        const std::string src = reduction_source(d);
        for (const char* fn : {"desc_finish", "desc_combine", "desc_identity", "desc_lift", "DESC_ELEMENT"})
          CHECK_MESSAGE(src.find(fn) != std::string::npos, fn);
      }
    // Integer sums are exact; float sums are bounded.
    CHECK(builtin(B::Sum, S::U32).exact);
    CHECK(builtin(B::Min, S::I8).exact);
    CHECK_FALSE(builtin(B::Sum, S::F32).exact);
    CHECK_FALSE(builtin(B::Mean, S::I32).exact);
  }

  TEST_CASE("descriptor: accumulate_in(F64) where the built-in has a choice, refused where not") {
    for (B b : {B::Sum, B::Mean, B::VarPop, B::StdSample, B::L2, B::NanSum, B::NanMean}) {
      CAPTURE(bname(b));
      for (S t : {S::F16, S::F32, S::I32}) {
        CAPTURE(sname(t));
        const Reduction d = builtin(b, t, S::F64);
        CHECK(d.out.type == S::F64);
        CHECK(d.needs_fp64());
      }
    }
    for (B b : {B::Min, B::ArgMax, B::Any, B::CountNonzero}) {
      CAPTURE(bname(b));
      CHECK_THROWS_AS(builtin(b, S::F32, S::F64), Error);
    }
    CHECK_FALSE(builtin(B::Sum, S::F32).needs_fp64());
  }

  TEST_CASE("descriptor: ResultLayout and Result") {
    using K = ResultLayout::Kind;
    for (S t : all_scalars()) {
      CAPTURE(sname(t));
      CHECK(ResultLayout{K::Value, t}.bytes() == width_of(t));
      CHECK(ResultLayout{K::Pair, t}.bytes() == 2 * width_of(t));
      CHECK(ResultLayout{K::Arg, t}.bytes() == 16);
    }
    CHECK(ResultLayout{K::Value, S::F32}.str() == "f32");
    CHECK(ResultLayout{K::Arg, S::F32}.str() == "argvalue<f32>");
    CHECK(ResultLayout{K::Pair, S::F32}.str() == "pair<f32>");

    unsigned char arg[16] = {};
    store(arg, -2.5f);
    store(arg + 8, std::uint64_t(77));
    const Result a = Result::from_bytes(ResultLayout{K::Arg, S::F32}, arg);
    CHECK(a.value() == -2.5);
    CHECK(a.index() == 77);
    CHECK(a.get<float>() == -2.5f);
    CHECK_THROWS_AS(a.second(), Error);
    unsigned char pair[16] = {};
    store(pair, std::int16_t(-3));
    store(pair + 2, std::int16_t(9));
    const Result p = Result::from_bytes(ResultLayout{K::Pair, S::I16}, pair);
    CHECK(p.value() == -3);
    CHECK(p.second() == 9);
    CHECK_THROWS_AS(p.index(), Error);
    unsigned char big[8];
    store(big, ~std::uint64_t(0) - 4);
    const Result u = Result::from_bytes(ResultLayout{K::Value, S::U64}, big);
    CHECK(u.as_u64() == ~std::uint64_t(0) - 4);
    CHECK_THROWS_AS(u.index(), Error);
    CHECK_THROWS_AS(u.get<float>(), Error);  // 4 bytes of an 8-byte type
    const Result i = Result::from_bytes(ResultLayout{K::Value, S::I64}, big);
    CHECK(i.as_i64() == -5);
    CHECK(i.str() == "-5");
  }

  TEST_CASE("descriptor: kernels_cl/descriptor.clh holds the default descriptor as reduction_source writes it") {
    std::ifstream in(std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/descriptor.clh");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    std::string body = text.str();
    // The file's own comment lines first, then the generated header from its first line on.
    const std::size_t at = body.find("// The reduction descriptor 'sum'");
    REQUIRE(at != std::string::npos);
    body = body.substr(at);
    CHECK(body == reduction_source(builtin(B::Sum, S::U32)));
  }

  TEST_CASE("descriptor: reduction_source refuses what cannot be a descriptor") {
    Reduction d = builtin(B::Sum, S::F32);
    CHECK_NOTHROW(reduction_source(d));
    Reduction none = d;
    none.inputs.clear();
    CHECK_THROWS_AS(reduction_source(none), Error);
    Reduction five = d;
    five.inputs.assign(5, S::F32);
    CHECK_THROWS_AS(reduction_source(five), Error);
    Reduction many_scalars = d;
    many_scalars.scalars.assign(5, S::F32);
    CHECK_THROWS_AS(reduction_source(many_scalars), Error);
    Reduction empty_combine = d;
    empty_combine.combine.clear();
    CHECK_THROWS_AS(reduction_source(empty_combine), Error);
    Reduction empty_map = d;
    empty_map.map.clear();
    CHECK_THROWS_AS(reduction_source(empty_map), Error);
    // A lift of the loaded input vector reads one input: with two it is refused, naming why.
    Reduction two_inputs = builtin(B::Dot, S::U8);
    two_inputs.lift_input_vector = builtin(B::CountNonzero, S::U8).lift_input_vector;
    REQUIRE_FALSE(two_inputs.lift_input_vector.empty());
    CHECK_THROWS_WITH_AS(reduction_source(two_inputs), doctest::Contains("lift_input_vector reads one input's vector"),
                         Error);
    // The lanes state is all four fields or none, over a scalar map_type.
    Reduction three = builtin(B::ArgMax, S::F32);
    REQUIRE(lanes_state(three));
    three.lanes_unpack.clear();
    CHECK_THROWS_WITH_AS(reduction_source(three), doctest::Contains("3 of the four are set"), Error);
    Reduction meet_alone = builtin(B::Max, S::F32);
    meet_alone.lanes_meet = "a";
    CHECK_THROWS_WITH_AS(reduction_source(meet_alone), doctest::Contains("lanes_meet meets the lanes of lanes_type"), Error);
    Reduction struct_map = builtin(B::ArgMax, S::F32);
    struct_map.map_type = "desc_arg";
    CHECK_THROWS_WITH_AS(reduction_source(struct_map), doctest::Contains("map_type is desc_arg"), Error);
  }
}

// ======================================================================================
TEST_SUITE("descriptor") {
  TEST_CASE("every built-in x every type x sizes 1..65537 against the host") {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::size_t> sizes = {1, 2, 3, 7, 255, 256, 257, 1000, 4099, 65537};
    // The whole product builds 288 programs (about 2.5 minutes of PoCL compiling on two cores): the
    // default run takes a seeded sample in which every built-in meets 3 types and every type 6
    // built-ins; CLREDUCE_DESCRIPTOR_FULL=1 (ctest -L full: descriptor_full, and the GPU scripts)
    // runs them all.
    const bool full = std::getenv("CLREDUCE_DESCRIPTOR_FULL") != nullptr;
    const std::size_t rotation = seed() % 4;
    MESSAGE("seed " << seed() << "; sizes 1 2 3 7 255 256 257 1000 4099 65537; "
                    << (full ? std::string("every built-in x every type")
                             : "sample: built-in b with type t where (5 b + t + " + std::to_string(rotation) +
                                   ") % 4 == 0 (set CLREDUCE_DESCRIPTOR_FULL=1 for all)"));
    Reducer red = make_reducer();
    Failures f;
    std::vector<std::string> refused, skipped;
    std::size_t runs = 0;
    std::map<std::string, double> tightest;  // per built-in: the largest error / bound that passed
    std::size_t combination = 0;
    for (B b : all_builtins())
      for (S t : all_scalars()) {
        if (!in_shard(combination++)) continue;  // CLREDUCE_TEST_SHARD=i/N: every N-th combination
        const std::size_t bi = static_cast<std::size_t>(b), ti = static_cast<std::size_t>(t);
        if (!full && (5 * bi + ti + rotation) % 4 != 0) continue;
        if (t == S::F64 && !has_fp64()) {
          skipped.push_back(bname(b) + "<f64>");
          continue;
        }
        Reduction d;
        try {
          d = builtin(b, t);
        } catch (const Error& e) {
          refused.push_back(bname(b) + "<" + sname(t) + ">");
          continue;
        }
        if (d.needs_fp64() && !has_fp64()) {
          skipped.push_back(d.name);
          continue;
        }
        const std::string lp = layout_problem(d.out, b, t);
        if (!lp.empty()) f.add(bname(b) + "<" + sname(t) + ">: " + lp);
        const bool count_like = b == B::CountNonzero || b == B::Any || b == B::All;
        const bool var_like = b == B::VarPop || b == B::VarSample || b == B::StdPop || b == B::StdSample;
        for (std::size_t n : sizes) {
          const std::uint64_t s = case_seed(b, t, n);
          std::mt19937_64 g(s);
          const Fill fill = count_like ? static_cast<Fill>(g() % 4) : Fill::Random;
          const std::vector<Column> cols = columns_for(b, t, n, g, fill, var_like);
          double used = 0;
          const std::string problem = run_and_compare(red, d, b, cols, n, t == S::F64, nullptr, &used);
          ++runs;
          if (problem.empty()) tightest[bname(b)] = std::max(tightest[bname(b)], used);
          if (!problem.empty())
            f.add(bname(b) + "<" + sname(t) + "> n=" + std::to_string(n) + " data " + fill_name(fill) + " seed " +
                  std::to_string(s) + ": " + problem);
        }
      }
    if (!refused.empty()) {
      std::string list;
      for (const auto& r : refused) list += r + " ";
      MESSAGE("builtin() refused: " << list);
    }
    if (!skipped.empty()) MESSAGE(skipped.size() << " f64 descriptors skipped: the device has no fp64");
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE(runs << " reductions in " << secs << " s");
    std::ostringstream t;
    t << std::setprecision(2);
    for (const auto& [name, used] : tightest)
      if (used > 0) t << name << " " << used << "  ";
    MESSAGE("largest error / bound of the float results: " << t.str());
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " reductions wrong (the first " << f.limit << " above)");
  }

  TEST_CASE("accumulate_in(F64): f16, f32 and i32 inputs in f64") {
    if (!has_fp64()) {
      MESSAGE("SKIPPED: double: the device has no cl_khr_fp64");
      return;
    }
    Reducer red = make_reducer();
    Failures f;
    for (B b : {B::Sum, B::Mean, B::VarPop, B::StdSample, B::L2, B::NanSum})
      for (S t : {S::F16, S::F32, S::I32})
        for (std::size_t n : {std::size_t(1), std::size_t(257), std::size_t(65537)}) {
          const std::uint64_t s = case_seed(b, t, n) ^ 0xF64;
          std::mt19937_64 g(s);
          const std::vector<Column> cols = columns_for(b, t, n, g, Fill::Random, false);
          const Reduction d = builtin(b, t, S::F64);
          const std::string problem = run_and_compare(red, d, b, cols, n, true);
          if (!problem.empty())
            f.add(bname(b) + "<" + sname(t) + "> in f64, n=" + std::to_string(n) + " seed " + std::to_string(s) + ": " +
                  problem);
        }
    CHECK(f.count == 0);
  }

  TEST_CASE("NaN: skipped by the nan* and min/max family, propagated by sums, first NaN wins argmin/argmax") {
    Reducer red = make_reducer();
    Failures f;
    MESSAGE("seed " << seed());
    for (S t : {S::F16, S::BF16, S::F32, S::F64}) {
      if (t == S::F64 && !has_fp64()) continue;
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(257), std::size_t(4099)}) {
        const std::uint64_t s = case_seed(B::Sum, t, n) ^ 0x4E614E;
        std::mt19937_64 g(s);
        Column x = make_column(t, n, g, Fill::NonZero);
        const std::size_t p = g() % n;
        x.set_nan(p, g() % 2 == 0);
        std::size_t q = p;
        if (n >= 7) {  // a second NaN, of the other sign, after the first
          q = p + 1 + g() % (n - p);
          if (q >= n) q = n - 1;
          if (q != p) x.set_nan(q, true);
        }
        const Column other = make_column(t, n, g, Fill::NonZero);
        for (B b : all_builtins()) {
          CAPTURE(bname(b));
          const Reduction d = builtin(b, t);
          std::vector<Column> cols{x};
          if (builtin_inputs(b) == 2) cols.push_back(other);
          Result r;
          const std::string problem = run_and_compare(red, d, b, cols, n, t == S::F64, &r);
          const std::string where = bname(b) + "<" + sname(t) + "> n=" + std::to_string(n) + " NaN at " +
                                    std::to_string(p) + " and " + std::to_string(q) + " seed " + std::to_string(s) + ": ";
          if (!problem.empty()) {
            f.add(where + problem);
            continue;
          }
          // The rules, said directly (the reference above follows them too).
          const double v = static_cast<double>(result_real(r, 0));  // a count as its value
          switch (b) {
            case B::Sum: case B::SumWrap: case B::Mean: case B::Dot: case B::SqDist: case B::SumSq: case B::L1: case B::L2:
            case B::VarPop: case B::StdPop:
              if (!std::isnan(v)) f.add(where + "a NaN input must give NaN");
              break;
            case B::NanSum:  // n = 1: the sum of nothing, 0
              if (std::isnan(v)) f.add(where + "NaN must be skipped");
              break;
            case B::NanMean:  // n = 1: the mean of nothing, NaN
              if (n > 1 && std::isnan(v)) f.add(where + "NaN must be skipped");
              break;
            case B::Min: case B::Max: case B::NanMin: case B::NanMax: case B::LInf:
              if (n > 1 && std::isnan(v)) f.add(where + "NaN must lose to a number");
              break;
            case B::ArgMin: case B::ArgMax:
              if (result_index(r) != p || !std::isnan(v)) f.add(where + "the first NaN must win");
              break;
            case B::CountNonzero:
              if (result_bits(r, 0) != n) f.add(where + "every element (NaN too) is nonzero here");
              break;
            default: break;
          }
        }
      }
      // All NaN.
      for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(300)}) {
        Column x(t, n);
        for (std::size_t i = 0; i < n; ++i) x.set_nan(i, i % 3 == 1);
        for (B b : all_builtins()) {
          if (builtin_inputs(b) != 1) continue;
          const std::string problem = run_and_compare(red, builtin(b, t), b, {x}, n, t == S::F64);
          if (!problem.empty()) f.add(bname(b) + "<" + sname(t) + "> all NaN, n=" + std::to_string(n) + ": " + problem);
        }
        Result r = red.reduce(builtin(B::NanMean, t), {Input{upload(x), 0}}, n);
        CHECK(std::isnan(r.value()));
        r = red.reduce(builtin(B::Min, t), {Input{upload(x), 0}}, n);
        CHECK(std::isnan(r.value()));
        r = red.reduce(builtin(B::NanSum, t), {Input{upload(x), 0}}, n);
        CHECK(r.value() == 0.0);
      }
    }
    CHECK(f.count == 0);
  }

  TEST_CASE("infinities and signed zeros") {
    Reducer red = make_reducer();
    Failures f;
    for (S t : {S::F16, S::BF16, S::F32, S::F64}) {
      if (t == S::F64 && !has_fp64()) continue;
      for (std::size_t n : {std::size_t(1), std::size_t(9), std::size_t(1000)}) {
        std::mt19937_64 g(case_seed(B::Max, t, n) ^ 0x1F);
        Column x = make_column(t, n, g, Fill::NonZero);
        const std::size_t p = g() % n;
        x.set_real(p, std::numeric_limits<double>::infinity());
        for (B b : {B::Sum, B::NanSum, B::Mean, B::Min, B::Max, B::ArgMin, B::ArgMax, B::MinMax, B::L1, B::L2, B::LInf,
                    B::CountNonzero, B::All}) {
          const std::string problem = run_and_compare(red, builtin(b, t), b, {x}, n, t == S::F64);
          if (!problem.empty())
            f.add(bname(b) + "<" + sname(t) + "> +inf at " + std::to_string(p) + " n=" + std::to_string(n) + ": " + problem);
        }
        // -inf too: the sum of +inf and -inf is NaN
        if (n > 1) {
          x.set_real((p + 1) % n, -std::numeric_limits<double>::infinity());
          for (B b : {B::Sum, B::Mean, B::ArgMin, B::MinMax, B::LInf}) {
            const std::string problem = run_and_compare(red, builtin(b, t), b, {x}, n, t == S::F64);
            if (!problem.empty())
              f.add(bname(b) + "<" + sname(t) + "> +-inf, n=" + std::to_string(n) + ": " + problem);
          }
        }
      }
      // 0.0 and -0.0 are equal: the first of them is the argmin and the argmax; none is nonzero.
      Column z(t, 6);
      for (std::size_t i = 0; i < 6; ++i) z.set_real(i, i % 2 ? -0.0 : 0.0);
      for (std::size_t first : {std::size_t(0), std::size_t(1)}) {
        const Column zz = z.slice(first, 5);
        for (B b : {B::ArgMin, B::ArgMax, B::CountNonzero, B::Any, B::All, B::Sum, B::LInf}) {
          const std::string problem = run_and_compare(red, builtin(b, t), b, {zz}, 5, t == S::F64);
          if (!problem.empty()) f.add(bname(b) + "<" + sname(t) + "> signed zeros from " + std::to_string(first) + ": " + problem);
        }
        Result r = red.reduce(builtin(B::ArgMin, t), {Input{upload(zz), 0}}, 5);
        CHECK(r.index() == 0);
      }
    }
    CHECK(f.count == 0);
  }

  TEST_CASE("64-bit accumulation: 65537 x 0xFFFFFFFF, INT32_MIN, 255") {
    Reducer red = make_reducer();
    const std::size_t n = 65537;
    Column u(S::U32, n), i(S::I32, n), b8(S::U8, n);
    for (std::size_t k = 0; k < n; ++k) {
      u.set_bits(k, 0xFFFFFFFFu);
      i.set_bits(k, static_cast<std::uint64_t>(std::int64_t(INT32_MIN)));
      b8.set_bits(k, 255);
    }
    const std::uint64_t want = std::uint64_t(65537) * 4294967295ull;
    Result r = red.reduce(builtin(B::Sum, S::U32), {Input{upload(u), 0}}, n);
    CHECK(r.layout.type == S::U64);
    CHECK(r.as_u64() == want);
    r = red.reduce(builtin(B::SumWrap, S::U32), {Input{upload(u), 0}}, n);
    CHECK(r.layout.type == S::U32);
    CHECK(r.get<std::uint32_t>() == static_cast<std::uint32_t>(want));
    CHECK(r.get<std::uint32_t>() == 0xFFFEFFFFu);  // 65537 * (2^32 - 1) = 2^48 + 2^32 - 2^16 - 1
    r = red.reduce(builtin(B::Sum, S::I32), {Input{upload(i), 0}}, n);
    CHECK(r.as_i64() == std::int64_t(65537) * INT32_MIN);
    r = red.reduce(builtin(B::SumWrap, S::I32), {Input{upload(i), 0}}, n);
    CHECK(r.get<std::int32_t>() == INT32_MIN);  // an odd count of 2^31: 2^31 mod 2^32
    r = red.reduce(builtin(B::Sum, S::U8), {Input{upload(b8), 0}}, n);
    CHECK(r.as_u64() == 65537ull * 255);
    r = red.reduce(builtin(B::SumWrap, S::U8), {Input{upload(b8), 0}}, n);
    CHECK(r.get<std::uint8_t>() == static_cast<std::uint8_t>(65537ull * 255));
    r = red.reduce(builtin(B::SumSq, S::I32), {Input{upload(i), 0}}, n);
    CHECK(r.layout.type == S::U64);  // a sum of squares is never negative
    CHECK(r.as_u64() == 1ull << 62);  // 65537 * 2^62 modulo 2^64
    r = red.reduce(builtin(B::L1, S::I32), {Input{upload(i), 0}}, n);
    CHECK(r.as_u64() == 65537ull << 31);
    r = red.reduce(builtin(B::LInf, S::I32), {Input{upload(i), 0}}, n);
    CHECK(r.layout.type == S::U32);
    CHECK(r.get<std::uint32_t>() == 0x80000000u);
    r = red.reduce(builtin(B::Dot, S::U32), {Input{upload(u), 0}, Input{upload(u), 0}}, n);
    CHECK(r.as_u64() == 65537ull * (0xFFFFFFFFull * 0xFFFFFFFFull));  // modulo 2^64
  }

  TEST_CASE("the issue's variance: 2^16 floats of mean 1000 and sd 1") {
    const std::size_t n = 1 << 16;
    std::mt19937_64 g(seed());
    std::normal_distribution<double> normal(1000.0, 1.0);
    Column x(S::F32, n);
    for (std::size_t k = 0; k < n; ++k) x.set_real(k, normal(g));
    long double mean = 0;
    for (std::size_t k = 0; k < n; ++k) mean += x.val(k);
    mean /= n;
    long double m2 = 0;
    for (std::size_t k = 0; k < n; ++k) m2 += (x.val(k) - mean) * (x.val(k) - mean);
    Reducer red = make_reducer();
    const cl::Buffer in = upload(x);
    for (B b : {B::VarPop, B::VarSample, B::StdPop, B::StdSample}) {
      CAPTURE(bname(b));
      const long double var = m2 / ((b == B::VarPop || b == B::StdPop) ? n : n - 1);
      const long double want = (b == B::VarPop || b == B::VarSample) ? var : std::sqrt(var);
      const Result r = red.reduce(builtin(b, S::F32), {Input{in, 0}}, n);
      CAPTURE(static_cast<double>(want));
      CAPTURE(r.value());
      CHECK(std::fabs(r.value() - static_cast<double>(want)) <= 1e-3 * static_cast<double>(want));
    }
    const Result mr = red.reduce(builtin(B::Mean, S::F32), {Input{in, 0}}, n);
    CHECK(std::fabs(mr.value() - static_cast<double>(mean)) <= 1e-4);
  }

  TEST_CASE("offsets: each input from its own element offset") {
    Reducer red = make_reducer();
    Failures f;
    for (S t : all_scalars()) {
      if (t == S::F64 && !has_fp64()) continue;
      for (const auto& [off, n] : std::vector<std::pair<std::size_t, std::size_t>>{{3, 1000}, {1, 4099}, {5, 1}, {7, 257}}) {
        std::mt19937_64 g(case_seed(B::Sum, t, n) ^ off);
        const Column whole = make_column(t, off + n + 10, g, Fill::Random);
        const Column part = whole.slice(off, n);
        const cl::Buffer buf = upload(whole);
        for (B b : {B::Sum, B::ArgMin, B::ArgMax, B::MinMax, B::Mean}) {
          const Reduction d = builtin(b, t);
          try {
            const Result r = red.reduce(d, {Input{buf, off}}, n);
            const std::string problem = compare(r, reference(b, part, nullptr, n, introspect::prepare(red, d, n).depth, t == S::F64));
            if (!problem.empty())
              f.add(bname(b) + "<" + sname(t) + "> offset " + std::to_string(off) + " n=" + std::to_string(n) + ": " + problem);
          } catch (const Error& e) {
            f.add(bname(b) + "<" + sname(t) + "> offset " + std::to_string(off) + " threw " + e.what());
          }
        }
      }
    }
    // dot and sqdist with the two inputs at different offsets (and the same buffer once).
    for (S t : {S::F32, S::I16, S::U8, S::BF16}) {
      const std::size_t n = 1000;
      std::mt19937_64 g(case_seed(B::Dot, t, n));
      const Column a = make_column(t, n + 20, g, Fill::Random), c = make_column(t, n + 20, g, Fill::Random);
      const cl::Buffer ba = upload(a), bc = upload(c);
      for (B b : {B::Dot, B::SqDist}) {
        const Reduction d = builtin(b, t);
        const unsigned depth = introspect::prepare(red, d, n).depth;
        Result r = red.reduce(d, {Input{ba, 3}, Input{bc, 5}}, n);
        const Column c5 = c.slice(5, n);
        std::string problem = compare(r, reference(b, a.slice(3, n), &c5, n, depth, false));
        if (!problem.empty()) f.add(bname(b) + "<" + sname(t) + "> offsets 3 and 5: " + problem);
        const Column a2 = a.slice(2, n), a11 = a.slice(11, n);
        r = red.reduce(d, {Input{ba, 2}, Input{ba, 11}}, n);
        problem = compare(r, reference(b, a2, &a11, n, depth, false));
        if (!problem.empty()) f.add(bname(b) + "<" + sname(t) + "> one buffer at 2 and 11: " + problem);
      }
    }
    CHECK(f.count == 0);
  }

  TEST_CASE("run-time scalars: axpy_sum with s0 = 2, then 3, builds once") {
    Reduction axpy;
    axpy.name = "axpy_sum";
    axpy.inputs = {S::F32, S::F32};
    axpy.scalars = {S::F32};
    axpy.map_type = "float";
    axpy.map = "s0 * x0 + x1";
    axpy.acc_type = "float";
    axpy.acc_bytes = 4;
    axpy.identity = "0.0f";
    axpy.lift = "v";
    axpy.combine = "a + b";
    axpy.finish = "a";
    axpy.out_type = "float";
    axpy.out = ResultLayout{ResultLayout::Kind::Value, S::F32};
    CHECK_FALSE(axpy.needs_fp64());

    ProgramCache programs;
    Reducer red = make_reducer(&programs);
    const std::size_t n = 4099;
    std::mt19937_64 g(seed() ^ 0xA1);
    const Column x0 = make_column(S::F32, n, g, Fill::Random), x1 = make_column(S::F32, n, g, Fill::Random);
    const std::vector<Input> in{Input{upload(x0), 0}, Input{upload(x1), 0}};
    const unsigned depth = introspect::prepare(red, axpy, n).depth;
    auto check_with = [&](double s, const ScalarArg& arg) {
      CAPTURE(s);
      long double ref = 0, abs = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const long double term = static_cast<long double>(static_cast<float>(s)) * x0.val(k) + x1.val(k);
        ref += term;
        abs += std::fabs(static_cast<long double>(s) * x0.val(k)) + std::fabs(x1.val(k));
      }
      const long double u = std::ldexp(1.0L, -24);
      const long double bound = 2 * (depth + 3) * u / (1 - (depth + 3) * u) * abs;
      const Result r = red.reduce(axpy, in, n, {arg});
      CAPTURE(static_cast<double>(ref));
      CAPTURE(r.value());
      CHECK(std::fabs(r.value() - static_cast<double>(ref)) <= static_cast<double>(bound));
    };
    check_with(2.0, ScalarArg{2.0});
    const std::size_t builds = programs.builds();
    CHECK(builds >= 1);
    check_with(3.0, ScalarArg{3.0});
    CHECK(programs.builds() == builds);
    check_with(-4.0, ScalarArg{std::int64_t(-4)});  // converted to the declared f32
    check_with(5.0, ScalarArg{std::uint64_t(5)});
    CHECK(programs.builds() == builds);
    // Built-ins are built once too.
    const Reduction sum = builtin(B::Sum, S::F32);
    const Result first = red.reduce(sum, {in[0]}, n);
    const std::size_t after_sum = programs.builds();
    const Result again = red.reduce(sum, {in[0]}, n);
    CHECK(programs.builds() == after_sum);
    CHECK(first.bytes == again.bytes);
    // A wrong scalar count is refused.
    CHECK_THROWS_AS(red.reduce(axpy, in, n), Error);
    CHECK_THROWS_AS(red.reduce(axpy, in, n, {ScalarArg{1.0}, ScalarArg{2.0}}), Error);
    CHECK_THROWS_AS(red.reduce(sum, {in[0]}, n, {ScalarArg{1.0}}), Error);
  }

  TEST_CASE("a user descriptor with a struct accumulator, a struct result and the index") {
    Reduction pos;
    pos.name = "positive_mean";
    pos.inputs = {S::F32};
    pos.prelude =
        "typedef struct { float sum; uint count; uint pad0; uint pad1; } pos_acc;\n"
        "typedef struct { float mean; float count; } pos_out;\n"
        "pos_acc pos_make(float s, uint c) { pos_acc a; a.sum = s; a.count = c; a.pad0 = 0u; a.pad1 = 0u; return a; }\n"
        "pos_out pos_finish(pos_acc a) { pos_out o; o.mean = a.count ? a.sum / (float)a.count : 0.0f; "
        "o.count = (float)a.count; return o; }\n";
    pos.map_type = "float";
    pos.map = "x0";
    pos.acc_type = "pos_acc";
    pos.acc_bytes = 16;
    pos.identity = "pos_make(0.0f, 0u)";
    pos.lift = "v > 0.0f ? pos_make(v, 1u) : pos_make(0.0f, 0u)";
    pos.combine = "pos_make(a.sum + b.sum, a.count + b.count)";
    pos.finish = "pos_finish(a).mean";
    pos.out_type = "float";
    pos.out = ResultLayout{ResultLayout::Kind::Value, S::F32};
    Reduction pos_pair = pos;
    pos_pair.name = "positive_mean_and_count";
    pos_pair.finish = "pos_finish(a)";
    pos_pair.out_type = "pos_out";
    pos_pair.out = ResultLayout{ResultLayout::Kind::Pair, S::F32};
    // The sum of the indices (from the first element reduced) of the elements above 0.5.
    Reduction idx;
    idx.name = "index_sum";
    idx.inputs = {S::F32};
    idx.map_type = "ulong";
    idx.map = "x0 > 0.5f ? i : (ulong)0";
    idx.acc_type = "ulong";
    idx.acc_bytes = 8;
    idx.identity = "(ulong)0";
    idx.lift = "v";
    idx.combine = "a + b";
    idx.finish = "a";
    idx.out_type = "ulong";
    idx.out = ResultLayout{ResultLayout::Kind::Value, S::U64};
    idx.exact = true;

    Reducer red = make_reducer();
    for (std::size_t n : {std::size_t(1), std::size_t(257), std::size_t(65537)}) {
      CAPTURE(n);
      std::mt19937_64 g(seed() ^ n ^ 0x5);
      const std::size_t off = 3;
      const Column whole = make_column(S::F32, n + off, g, Fill::Random);
      const Column x = whole.slice(off, n);
      const cl::Buffer buf = upload(whole);
      long double sum = 0, abs = 0;
      std::uint64_t count = 0, isum = 0;
      for (std::size_t k = 0; k < n; ++k) {
        if (x.val(k) > 0) {
          sum += x.val(k);
          abs += x.val(k);
          ++count;
        }
        if (x.val(k) > 0.5L) isum += k;
      }
      const long double mean = count ? sum / count : 0;
      const unsigned depth = introspect::prepare(red, pos, n).depth;
      const long double u = std::ldexp(1.0L, -24);
      const long double bound = count ? 2 * (depth + 2) * u * abs / count + u * mean : 0;
      Result r = red.reduce(pos, {Input{buf, off}}, n);
      CAPTURE(static_cast<double>(mean));
      CHECK(std::fabs(r.value() - static_cast<double>(mean)) <= static_cast<double>(bound));
      r = red.reduce(pos_pair, {Input{buf, off}}, n);
      CHECK(r.layout.kind == ResultLayout::Kind::Pair);
      CHECK(std::fabs(r.value() - static_cast<double>(mean)) <= static_cast<double>(bound));
      CHECK(r.second() == static_cast<double>(count));
      r = red.reduce(idx, {Input{buf, off}}, n);
      CHECK(r.as_u64() == isum);
    }
  }

  TEST_CASE("a descriptor that does not build: Error with the build log") {
    Reduction bad = builtin(B::Sum, S::F32);
    bad.name = "broken";
    bad.builtin.reset();
    bad.map = "x0 +* 1";
    Reducer red = make_reducer();
    Column x(S::F32, 16);
    const cl::Buffer buf = upload(x);
    try {
      red.reduce(bad, {Input{buf, 0}}, 16);
      FAIL_CHECK("a descriptor that does not compile was run");
    } catch (const Error& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(what.find("build log") != std::string::npos);
    }
    // The reducer still works after it.
    CHECK(red.reduce(builtin(B::Sum, S::F32), {Input{buf, 0}}, 16).value() == 0.0);
  }

  TEST_CASE("reduce_to: the result at out_index 2, the rest of the buffer untouched") {
    Reducer red = make_reducer();
    const std::size_t n = 4099;
    std::mt19937_64 g(seed() ^ 0x70);
    for (S t : {S::F32, S::I16, S::U64, S::F16}) {
      const Column x = make_column(t, n, g, Fill::Random);
      const cl::Buffer in = upload(x);
      for (B b : {B::Sum, B::ArgMax, B::MinMax, B::Any}) {
        CAPTURE(bname(b));
        CAPTURE(sname(t));
        const Reduction d = builtin(b, t);
        const std::size_t bytes = d.out.bytes();
        std::vector<unsigned char> host(5 * bytes, 0xAB);
        cl::Buffer out(session().context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size(), host.data());
        cl::Event ev = red.reduce_to(d, {Input{in, 0}}, n, out, 2);
        ev.wait();
        session().queue().enqueueReadBuffer(out, CL_TRUE, 0, host.size(), host.data());
        const Result r = red.reduce(d, {Input{in, 0}}, n);
        // The value's bytes and, for argvalue, the index's (the padding between is the device's).
        const std::size_t value_bytes = d.out.kind == ResultLayout::Kind::Pair ? 2 * width_of(d.out.type) : width_of(d.out.type);
        CHECK(std::memcmp(host.data() + 2 * bytes, r.bytes.data(), value_bytes) == 0);
        if (d.out.kind == ResultLayout::Kind::Arg) CHECK(std::memcmp(host.data() + 2 * bytes + 8, r.bytes.data() + 8, 8) == 0);
        bool untouched = true;
        for (std::size_t k = 0; k < host.size(); ++k)
          if ((k < 2 * bytes || k >= 3 * bytes) && host[k] != 0xAB) untouched = false;
        CHECK(untouched);
        CHECK(compare(r, reference(b, x, nullptr, n, introspect::prepare(red, d, n).depth, false)) == "");
      }
    }
  }

  TEST_CASE("refusals: n = 0, input count, small buffers, f64 without fp64, another variant") {
    Reducer red = make_reducer();
    Column x(S::F32, 100);
    const cl::Buffer buf = upload(x);
    const Reduction sum = builtin(B::Sum, S::F32), dot = builtin(B::Dot, S::F32);
    try {
      red.reduce(sum, {Input{buf, 0}}, 0);
      FAIL_CHECK("n = 0 was accepted");
    } catch (const Error& e) {
      CHECK(e.param() == Param::N);
    }
    CHECK_THROWS_AS(introspect::prepare(red, sum, 0), Error);
    CHECK_THROWS_AS(red.reduce(sum, {}, 10), Error);
    CHECK_THROWS_AS(red.reduce(sum, {Input{buf, 0}, Input{buf, 0}}, 10), Error);
    CHECK_THROWS_AS(red.reduce(dot, {Input{buf, 0}}, 10), Error);
    CHECK_THROWS_AS(red.reduce(dot, {Input{buf, 0}, Input{buf, 0}, Input{buf, 0}}, 10), Error);
    for (const auto& span : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 101}, {50, 51}, {100, 1}, {1ull << 40, 1}}) {
      const std::uint64_t off = span.first, n = span.second;  // not a structured binding: clang's CAPTURE refuses one
      CAPTURE(off);
      CAPTURE(n);
      try {
        red.reduce(sum, {Input{buf, off}}, n);
        FAIL_CHECK("a buffer too small was accepted");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Buffer);
      }
      CHECK_THROWS_AS(red.reduce(dot, {Input{buf, 0}, Input{buf, off}}, n), Error);
    }
    // 100 floats are 50 f64 or 400 u8: the element size counts.
    CHECK_NOTHROW(red.reduce(builtin(B::Sum, S::U8), {Input{buf, 0}}, 400));
    CHECK_THROWS_AS(red.reduce(builtin(B::Sum, S::U8), {Input{buf, 0}}, 401), Error);
    CHECK_THROWS_AS(red.reduce(builtin(B::Sum, S::U16), {Input{buf, 1}}, 200), Error);
    // f64 on a device posing as one without cl_khr_fp64.
    DeviceInfo no_fp64 = session().device();
    no_fp64.fp64 = false;
    for (const std::string ext : {"cl_khr_fp64 ", "cl_khr_fp64"}) {
      const auto at = no_fp64.extensions.find(ext);
      if (at != std::string::npos) no_fp64.extensions.erase(at, ext.size());
    }
    ReducerOptions o;
    o.tuning.enabled = false;
    o.device = no_fp64;
    Reducer red32 = session().reducer(o);
    for (const Reduction& d : {builtin(B::Sum, S::F64), builtin(B::Mean, S::F32, S::F64)}) {
      CAPTURE(d.name);
      try {
        red32.reduce(d, {Input{buf, 0}}, 10);
        FAIL_CHECK("f64 was run on a device without fp64");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Type);
      }
    }
    CHECK_NOTHROW(red32.reduce(sum, {Input{buf, 0}}, 10));
    // Another variant than "descriptor" is refused.
    ReducerOptions ov;
    ov.tuning.enabled = false;
    ov.params.variant = "single_pass";
    Reducer other = session().reducer(ov);
    CHECK_THROWS_AS(other.reduce(sum, {Input{buf, 0}}, 10), Error);
    ov.params.variant = "descriptor";
    Reducer named = session().reducer(ov);
    CHECK(named.reduce(sum, {Input{buf, 0}}, 10).value() == 0.0);
  }

  TEST_CASE("every f16 and bf16 bit pattern reads on the device as the host decodes it") {
    // A checksum descriptor: sum over i of (i + 1) * the float bits the kernel read for element i
    // (NaN as one canonical NaN: its payload is not a value), modulo 2^64. Every one of the 65536
    // patterns goes through the vector loads (n = 65536, offset 0: VEC-wide, aligned), through
    // vloadN (offset 3: not aligned) and the scalar tail (n = 65533).
    for (S t : {S::F16, S::BF16}) {
      CAPTURE(sname(t));
      Reduction d;
      d.name = "bits_checksum";
      d.inputs = {t};
      d.map_type = "ulong";
      d.map = "(ulong)(isnan(x0) ? 0x7fc00000u : as_uint(x0)) * (i + 1)";
      d.acc_type = "ulong";
      d.acc_bytes = 8;
      d.identity = "0ul";
      d.lift = "v";
      d.combine = "a + b";
      d.finish = "a";
      d.out_type = "ulong";
      d.out = {ResultLayout::Kind::Value, S::U64};
      Column all(t, 65536 + 3);
      for (std::size_t k = 0; k < all.size(); ++k) store(all.at(k), static_cast<std::uint16_t>((k * 40503u + 7) & 0xffff));
      auto host = [&](std::size_t first, std::size_t n) {
        std::uint64_t sum = 0;
        for (std::size_t k = 0; k < n; ++k) {
          const float f = static_cast<float>(real_at(t, all.at(first + k)));
          std::uint32_t bits;
          std::memcpy(&bits, &f, 4);
          if (std::isnan(f)) bits = 0x7fc00000u;
          sum += static_cast<std::uint64_t>(bits) * (k + 1);
        }
        return sum;
      };
      Reducer red = make_reducer();
      const cl::Buffer buf = upload(all);
      for (const auto& span : {std::pair<std::size_t, std::size_t>{0, 65536}, {3, 65536}, {0, 65533}}) {
        const std::size_t first = span.first, n = span.second;  // not a structured binding: clang's CAPTURE refuses one
        CAPTURE(first);
        CAPTURE(n);
        CHECK(red.reduce(d, {Input{buf, first}}, n).as_u64() == host(first, n));
      }
    }
  }

  TEST_CASE("repeated launches give the same bits (the ticket resets)") {
    Reducer red = make_reducer();
    std::mt19937_64 g(seed() ^ 0x3E);
    const Column big = make_column(S::F32, 65537, g, Fill::Random);
    const cl::Buffer in = upload(big);
    for (B b : {B::Sum, B::VarPop, B::ArgMax, B::L2}) {
      CAPTURE(bname(b));
      const Reduction d = builtin(b, S::F32);
      std::vector<Result> big_runs, small_runs;
      for (int k = 0; k < 3; ++k) {  // alternating n: every launch must find the ticket at 0
        big_runs.push_back(red.reduce(d, {Input{in, 0}}, 65537));
        small_runs.push_back(red.reduce(d, {Input{in, 0}}, 257));
      }
      for (int k = 1; k < 3; ++k) {
        CHECK(big_runs[k].bytes == big_runs[0].bytes);
        CHECK(small_runs[k].bytes == small_runs[0].bytes);
      }
      CHECK(compare(big_runs[0], reference(b, big, nullptr, 65537, introspect::prepare(red, d, 65537).depth, false)) == "");
      CHECK(compare(small_runs[2], reference(b, big, nullptr, 257, introspect::prepare(red, d, 257).depth, false)) == "");
    }
  }

  TEST_CASE("reduce() of host data on the default device") {
    const std::size_t n = 4099;
    std::mt19937_64 g(seed() ^ 0x40);
    const Column u = make_column(S::U32, n, g, Fill::Random);
    Result r = clreduce::reduce(builtin(B::Sum, S::U32), {u.bytes.data()}, n);
    std::uint64_t want = 0;
    for (std::size_t k = 0; k < n; ++k) want += u.bits(k);
    CHECK(r.as_u64() == want);
    const Column a = make_column(S::F32, n, g, Fill::Random), c = make_column(S::F32, n, g, Fill::Random);
    long double dot = 0, abs = 0;
    for (std::size_t k = 0; k < n; ++k) {
      dot += a.val(k) * c.val(k);
      abs += std::fabs(a.val(k) * c.val(k));
    }
    r = clreduce::reduce(builtin(B::Dot, S::F32), {a.bytes.data(), c.bytes.data()}, n);
    CHECK(std::fabs(r.value() - static_cast<double>(dot)) <= static_cast<double>(abs) * 1e-5);
    CHECK_THROWS_AS(clreduce::reduce(builtin(B::Dot, S::F32), {a.bytes.data()}, n), Error);
    CHECK_THROWS_AS(clreduce::reduce(builtin(B::Sum, S::F32), {a.bytes.data()}, 0), Error);
  }
}

// ======================================================================================
// descriptor_families: the rows, columns and segments of every built-in (AxisReducer and
// SegmentedReducer with a Reduction), each line checked against the same host references as the
// whole array above, over the line's own elements (copied out here) with the launch's depth for
// that line. Matrices padded (ld > cols) and offset; segments of every offset type (u32, u64,
// i32, i64 CSR offsets; begin/end arrays with overlaps, gaps, an end below its begin), empty ones
// included; lines cut into parts (a ticket per line), columns into row chunks.
namespace {

struct Shape {
  std::uint64_t rows, cols, ld, offset;
  std::string str() const {
    return std::to_string(rows) + "x" + std::to_string(cols) + " ld " + std::to_string(ld) + " offset " +
           std::to_string(offset);
  }
};

// Elements first, first + stride, ... (n of them) of c.
Column strided(const Column& c, std::size_t first, std::size_t n, std::size_t stride) {
  Column out(c.type, n);
  for (std::size_t i = 0; i < n; ++i) std::memcpy(out.at(i), c.at(first + i * stride), width_of(c.type));
  return out;
}

// What an empty segment gives: the built-in's finish of its identity (segmented.hpp); "" when r is that.
std::string empty_problem(B b, const Result& r) {
  const S t = r.layout.type;
  const bool fl = float_type(t);
  const long double v = fl ? result_real(r, 0) : 0;
  const std::uint64_t bits = fl ? 0 : result_bits(r, 0);
  const std::uint64_t top = width_of(t) == 8 ? ~0ull : (1ull << (8 * width_of(t))) - 1;
  const std::uint64_t highest = signed_int(t) ? top >> 1 : top;
  const std::uint64_t lowest = signed_int(t) ? ~(top >> 1) : 0;  // sign-extended
  bool ok = true;
  switch (b) {
    case B::Mean: case B::NanMean: case B::VarPop: case B::VarSample: case B::StdPop: case B::StdSample:
      ok = std::isnan(v);
      break;
    // min and max of nothing: the highest and lowest value, +inf and -inf for floats (as the Op
    // path's segments); linf of nothing 0, as l1 and l2.
    case B::Min: case B::NanMin: ok = fl ? v == INFINITY : bits == highest; break;
    case B::Max: case B::NanMax: ok = fl ? v == -INFINITY : bits == lowest; break;
    case B::LInf: ok = fl ? v == 0 : bits == 0; break;
    case B::MinMax:
      ok = fl ? v == INFINITY && result_real(r, 1) == -INFINITY : bits == highest && result_bits(r, 1) == lowest;
      break;
    case B::ArgMin: ok = result_index(r) == ~0ull && (fl ? v == INFINITY : bits == highest); break;
    case B::ArgMax: ok = result_index(r) == ~0ull && (fl ? v == -INFINITY : bits == lowest); break;
    case B::All: ok = bits == 1; break;
    default: ok = fl ? v == 0 : bits == 0; break;
  }
  return ok ? "" : "empty segment gave " + r.str();
}

template <class T>
cl::Buffer upload_offsets(const std::vector<std::uint64_t>& v) {
  std::vector<T> t(v.begin(), v.end());
  return cl::Buffer(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, t.size() * sizeof(T), t.data());
}
cl::Buffer upload_offsets_as(S type, const std::vector<std::uint64_t>& v) {
  switch (type) {
    case S::U32: return upload_offsets<std::uint32_t>(v);
    case S::I32: return upload_offsets<std::int32_t>(v);
    case S::I64: return upload_offsets<std::int64_t>(v);
    default: return upload_offsets<std::uint64_t>(v);
  }
}

// f() must throw an Error of parameter p whose message holds `words`.
template <class F>
void refused(F&& f, Param p, const std::string& words) {
  try {
    f();
  } catch (const Error& e) {
    CHECK_MESSAGE(e.param() == p, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
    return;
  }
  FAIL_CHECK("not refused: " << words);
}

AxisReducer make_axis_reducer(AxisParams params = {}) {
  AxisReducerOptions o;
  o.params = std::move(params);
  o.tuning.enabled = false;
  o.device = session().device();
  o.kernel_dir = session().kernel_dir();
  return AxisReducer(session().queue(), o);
}
// A columns launch of `d` with `defs` over 64 x 64 must be refused (ConfigError) naming `why`.
void columns_refused(const Reduction& d, std::vector<Define> defs, const char* why) {
  AxisParams p;
  p.defines = std::move(defs);
  AxisReducer red = make_axis_reducer(p);
  CHECK_THROWS_WITH_AS(introspect::prepare(red, d, Axis::Cols, MatrixShape{64, 64, 64}), doctest::Contains(why),
                       ConfigError);
}
SegmentedReducer make_segmented_reducer(SegmentedParams params = {}) {
  SegmentedReducerOptions o;
  o.params = std::move(params);
  o.device = session().device();
  o.kernel_dir = session().kernel_dir();
  return SegmentedReducer(session().queue(), o);
}

// The inputs of built-in b: each `total` elements.
std::vector<Column> family_inputs(B b, S t, std::size_t total, std::mt19937_64& g) {
  const bool count_like = b == B::CountNonzero || b == B::Any || b == B::All;
  const bool var_like = b == B::VarPop || b == B::VarSample || b == B::StdPop || b == B::StdSample;
  const Fill fill = count_like ? static_cast<Fill>(g() % 4) : Fill::Random;
  return columns_for(b, t, total, g, fill, var_like);
}

// Rows or columns of one shape over the inputs `cols` (each sh.offset + the matrix's span long),
// every result checked; failures go to f, named by `what`.
void check_axis_of(AxisReducer& red, const Reduction& d, B b, S t, Axis axis, const Shape& sh,
                   const std::vector<Column>& cols, const std::string& what, Failures& f, std::size_t* runs) {
  const MatrixShape ms{sh.rows, sh.cols, sh.ld};
  std::vector<Input> inputs;
  for (const Column& c : cols) inputs.push_back(Input{upload(c), sh.offset});
  try {
    const DescriptorLaunch L = introspect::prepare(red, d, axis, ms);
    const std::vector<Result> got = red.reduce(d, inputs, axis, ms);
    ++*runs;
    const std::uint64_t lines = axis == Axis::Rows ? sh.rows : sh.cols;
    if (got.size() != lines) return f.add(what + ": " + std::to_string(got.size()) + " results");
    for (std::uint64_t k = 0; k < lines; ++k) {
      const std::size_t first = sh.offset + (axis == Axis::Rows ? k * ms.stride() : k);
      const std::size_t len = axis == Axis::Rows ? sh.cols : sh.rows;
      const std::size_t stride = axis == Axis::Rows ? 1 : ms.stride();
      const Column x = strided(cols[0], first, len, stride);
      const Column y = cols.size() > 1 ? strided(cols[1], first, len, stride) : Column();
      const std::string p = compare(got[k], reference(b, x, cols.size() > 1 ? &y : nullptr, len, L.depth_of(len), t == S::F64));
      if (!p.empty()) return f.add(what + " line " + std::to_string(k) + ": " + p + " [" + L.label() + "]");
    }
  } catch (const Error& e) {
    f.add(what + ": threw " + e.what());
  }
}
// The same over the built-in's random inputs (family_inputs) of seed s.
void check_axis(AxisReducer& red, const Reduction& d, B b, S t, Axis axis, const Shape& sh, std::uint64_t s,
                Failures& f, std::size_t* runs) {
  std::mt19937_64 g(s);
  const std::vector<Column> cols = family_inputs(b, t, sh.offset + MatrixShape{sh.rows, sh.cols, sh.ld}.span(), g);
  check_axis_of(red, d, b, t, axis, sh, cols,
                bname(b) + "<" + sname(t) + "> " + std::string(name_of(axis)) + " of " + sh.str() + " seed " +
                    std::to_string(s),
                f, runs);
}

// Segments of random lengths (a fifth of them empty) over one input, as CSR offsets of `otype`
// (begin_end: as begin/end arrays, shuffled, some overlapping, one end below its begin).
void check_segments(SegmentedReducer& red, const Reduction& d, B b, S t, S otype, bool begin_end, std::size_t max_len,
                    std::uint64_t s, Failures& f, std::size_t* runs) {
  std::mt19937_64 g(s);
  const std::size_t count = 1 + g() % 60;
  std::vector<std::uint64_t> begin, end;
  std::uint64_t n = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const std::uint64_t len = g() % 5 == 0 ? 0 : 1 + g() % max_len;
    begin.push_back(n);
    n += len;
    end.push_back(n);
  }
  if (begin_end) {
    std::shuffle(begin.begin(), begin.end(), g);  // paired with the ends below: any order, overlaps, gaps
    for (std::size_t k = 0; k < count; ++k) end[k] = std::min<std::uint64_t>(n, begin[k] + g() % (max_len + 1));
    if (count > 2) end[1] = begin[1] ? begin[1] - 1 : 0;  // an end below its begin: empty
  }
  const std::uint64_t total = std::max<std::uint64_t>(n, 1);
  const std::vector<Column> cols = family_inputs(b, t, total + 5, g);
  std::vector<Input> inputs;
  for (const Column& c : cols) inputs.push_back(Input{upload(c), 5});
  std::vector<std::uint64_t> offsets = begin;
  offsets.push_back(n);
  const Segments seg = begin_end ? Segments{Segments::Kind::BeginEnd, upload_offsets_as(otype, begin),
                                            upload_offsets_as(otype, end), otype, count}
                                 : Segments{Segments::Kind::Offsets, upload_offsets_as(otype, offsets), cl::Buffer(),
                                            otype, count};
  const std::string what = bname(b) + "<" + sname(t) + "> " + std::to_string(count) + " segments (" +
                           (begin_end ? "begin/end" : "offsets") + " of " + sname(otype) + ") seed " + std::to_string(s);
  try {
    const DescriptorLaunch L = introspect::prepare(red, d, total, count, otype);
    const std::vector<Result> got = red.reduce(d, inputs, total, seg);
    ++*runs;
    for (std::size_t k = 0; k < count; ++k) {
      const std::uint64_t lo = begin[k], hi = std::max(lo, begin_end ? end[k] : offsets[k + 1]);
      const std::size_t len = hi - lo;
      std::string p;
      if (len == 0) {
        p = empty_problem(b, got[k]);
      } else {
        const Column x = cols[0].slice(5 + lo, len);
        const Column y = cols.size() > 1 ? cols[1].slice(5 + lo, len) : Column();
        p = compare(got[k], reference(b, x, cols.size() > 1 ? &y : nullptr, len, L.depth_of(len), t == S::F64));
      }
      if (!p.empty()) return f.add(what + " segment " + std::to_string(k) + " [" + std::to_string(lo) + ", " +
                                   std::to_string(hi) + "): " + p + " [" + L.label() + "]");
    }
  } catch (const Error& e) {
    f.add(what + ": threw " + e.what());
  }
}

}  // namespace

TEST_SUITE("descriptor_families") {
  TEST_CASE("rows, columns and segments: every built-in x every type (sampled) x shapes against the host") {
    const auto start = std::chrono::steady_clock::now();
    // Matrix shapes: one element; odd, padded and offset; rows of a few vectors; many short rows;
    // two long rows (cut into parts on a device of few compute units); a tall thin matrix (row
    // chunks, a ticket per column tile).
    const std::vector<Shape> shapes = {{1, 1, 1, 0},     {5, 3, 7, 3},  {17, 64, 64, 0}, {300, 6, 9, 1},
                                       {2, 20001, 20003, 2}, {4099, 3, 3, 0}, {33, 257, 300, 5}};
    const std::vector<S> offset_types = {S::U32, S::U64, S::I32, S::I64};
    const bool full = std::getenv("CLREDUCE_DESCRIPTOR_FULL") != nullptr;
    // The sample (two PoCL cores build about 100 programs in a minute): every built-in with one
    // type and every type with two built-ins, each with one shape per axis and one offset type,
    // rotating with the seed.
    const std::size_t rotation = seed() % 12;
    MESSAGE("seed " << seed() << "; "
                    << (full ? std::string("every built-in x every type, every shape, both axes, every offset type")
                             : "sample: built-in b with type t where (5 b + t + " + std::to_string(rotation) +
                                   ") % 12 == 0, each with one shape per axis and one segment set, rotating (set "
                                   "CLREDUCE_DESCRIPTOR_FULL=1 for all)"));
    AxisReducer axis_red = make_axis_reducer();
    SegmentedReducer seg_red = make_segmented_reducer();
    Failures f;
    std::size_t runs = 0, combination = 0, picked = 0;
    for (B b : all_builtins())
      for (S t : all_scalars()) {
        if (!in_shard(combination++)) continue;
        const std::size_t bi = static_cast<std::size_t>(b), ti = static_cast<std::size_t>(t);
        if (!full && (5 * bi + ti + rotation) % 12 != 0) continue;
        if (t == S::F64 && !has_fp64()) continue;
        Reduction d;
        try {
          d = builtin(b, t);
        } catch (const Error&) {
          continue;
        }
        if (d.needs_fp64() && !has_fp64()) continue;
        const std::uint64_t s = case_seed(b, t, 77);
        const std::size_t k = picked++;
        for (std::size_t i = 0; i < shapes.size(); ++i) {
          if (full || i == k % shapes.size()) check_axis(axis_red, d, b, t, Axis::Rows, shapes[i], s + i, f, &runs);
          if (full || i == (k + 3) % shapes.size())
            check_axis(axis_red, d, b, t, Axis::Cols, shapes[i], s + 100 + i, f, &runs);
        }
        for (std::size_t o = 0; o < offset_types.size(); ++o) {
          if (!full && o != k % offset_types.size()) continue;
          check_segments(seg_red, d, b, t, offset_types[o], false, k % 2 ? 40 : 3000, s + 200 + o, f, &runs);
          if (full || k % 3 == 0) check_segments(seg_red, d, b, t, offset_types[o], true, 500, s + 300 + o, f, &runs);
        }
      }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    MESSAGE(runs << " launches of " << picked << " descriptors in " << secs << " s");
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " launches wrong (the first " << f.limit << " above)");
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("columns read VEC-wide (-D VEC=2, 4, 8), rows with given row widths and parts: tails, padding, offsets") {
    // (Rusticl's llvmpipe builds these kernels for 32 work-items a group: a row width up to that.)
    // The planner's defaults are tested above; these are the launch parameters a caller (or tune)
    // may give, each a different path through the kernels: vector loads of consecutive columns
    // with the last columns one by one, aligned (vector pointers) and not; one work-item per row
    // and a whole group per row; rows cut into 3 parts.
    Failures f;
    std::size_t runs = 0;
    // (Each a few PoCL builds: one VEC per case, the rows' parameters for two of them.)
    const std::vector<std::tuple<B, S, unsigned>> cases = {
        {B::Sum, S::F32, 4}, {B::ArgMax, S::I16, 2}, {B::VarPop, S::F16, 8}, {B::Dot, S::U8, 4}};
    for (const auto& [b, t, vec] : cases) {
      const Reduction d = builtin(b, t);
      {
        AxisParams p;
        p.defines = {Define{"VEC", std::to_string(vec)}};
        AxisReducer red = make_axis_reducer(p);
        for (const Shape& sh : {Shape{37, 13, 16, 3}, Shape{9, 16, 16, 0}, Shape{300, 33, 40, 8}})
          check_axis(red, d, b, t, Axis::Cols, sh, case_seed(b, t, vec) + sh.rows, f, &runs);
      }
      if (b == B::Sum || b == B::Dot) continue;
      // One work-item a row, and a whole group a row (64 or what this device's build allows).
      AxisReducer planner = make_axis_reducer();
      const unsigned group = static_cast<unsigned>(
          std::min<std::size_t>(64, introspect::prepare(planner, d, Axis::Rows, MatrixShape{7, 301, 305}).wg));
      for (unsigned rw : {1u, group}) {
        AxisParams p;
        p.row_width = rw;
        AxisReducer red = make_axis_reducer(p);
        check_axis(red, d, b, t, Axis::Rows, Shape{7, 301, 305, 1}, case_seed(b, t, rw), f, &runs);
      }
      AxisParams parts;
      parts.chunks = 3;
      AxisReducer red = make_axis_reducer(parts);
      check_axis(red, d, b, t, Axis::Rows, Shape{3, 5000, 5003, 2}, case_seed(b, t, 3), f, &runs);
    }
    MESSAGE(runs << " launches");
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " launches wrong (the first " << f.limit << " above)");
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("columns lifted a block of ITEMS rows a trip (BLOCK 1): every kind of lift_vector, ITEMS 2, 4, 8, VEC columns, tails") {
    // BLOCK takes each trip's ITEMS consecutive rows as one vector for the descriptor's
    // desc_lift_vector (built at width ITEMS), then the rows after the last whole block one by one.
    // Rows of 1, of fewer than ITEMS, and of whole blocks plus a tail; a padded ld and an offset.
    Failures f;
    std::size_t runs = 0;
    const std::vector<std::pair<B, S>> cases = {{B::ArgMax, S::F16}, {B::ArgMin, S::I8},  {B::VarPop, S::F16},
                                                {B::StdSample, S::F32}, {B::L2, S::BF16}, {B::Sum, S::U8},
                                                {B::VarSample, S::I16}, {B::ArgMax, S::F64},
                                                {B::NanMean, S::F32}, {B::ArgMin, S::U16},
                                                {B::VarPop, S::U8},   {B::L2, S::I16}};
    // Each case also runs once with VEC columns a work-item (each block row read VEC columns at
    // once): the widths and ITEMS taken in turn over the cases, so every width and every ITEMS
    // meets a column tail (13 and 33 columns) and unaligned (offset 3) and aligned (ld 40, offset 8)
    // rows. Every launch is a program of its own (48, 99 s from cold on two PoCL cores), so the
    // default run takes one launch a case, rotating with the seed: every other case one VEC 1
    // launch, the others a VEC-wide one, so each kind of lift, each ITEMS (at VEC 1 and wide) and
    // each width run every time. CLREDUCE_DESCRIPTOR_FULL=1 (ctest -L full, the GPU) runs all 48.
    const bool full = std::getenv("CLREDUCE_DESCRIPTOR_FULL") != nullptr;
    const std::size_t rotation = seed() % 12;
    MESSAGE("seed " << seed() << "; " << (full ? std::string("every launch of every case")
                                               : "sample: one launch a case, rotation " + std::to_string(rotation) +
                                                     " (set CLREDUCE_DESCRIPTOR_FULL=1 for all)"));
    const unsigned wide[] = {2, 4, 8, 16}, wide_items[] = {2, 4, 8};
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const auto& [b, t] = cases[i];
      if (t == S::F64 && !has_fp64()) continue;
      const Reduction d = builtin(b, t);
      REQUIRE_MESSAGE(!d.lift_vector.empty(), d.name);
      std::vector<std::pair<unsigned, unsigned>> launches = {{1, 2}, {1, 4}, {1, 8}, {wide[i % 4], wide_items[i % 3]}};
      if (!full) {
        const std::size_t r = i / 2 + rotation;  // over the 6 cases of one parity: 6 values in a row
        launches = {(i + rotation) % 2 == 0 ? std::pair<unsigned, unsigned>{1, wide_items[r % 3]}
                                            : std::pair<unsigned, unsigned>{wide[r % 4], wide_items[r % 3]}};
      }
      for (const auto& launch : launches) {
        const unsigned vec = launch.first, items = launch.second;  // no structured binding: CAPTURE's lambda
        CAPTURE(vec);
        AxisParams p;
        p.defines = {Define{"VEC", std::to_string(vec)}, Define{"ITEMS", std::to_string(items)}, Define{"BLOCK", "1"}};
        AxisReducer red = make_axis_reducer(p);
        for (const Shape& sh : {Shape{1, 5, 5, 0}, Shape{7, 3, 3, 1}, Shape{37, 13, 16, 3}, Shape{300, 33, 40, 8}})
          check_axis(red, d, b, t, Axis::Cols, sh, case_seed(b, t, items) + sh.rows, f, &runs);
        // Many row chunks: each chunk's blocks start at its own first row.
        AxisParams chunked = p;
        chunked.chunks = 5;
        AxisReducer cred = make_axis_reducer(chunked);
        check_axis(cred, d, b, t, Axis::Cols, Shape{203, 9, 9, 0}, case_seed(b, t, items) + 1, f, &runs);
      }
    }
    MESSAGE(runs << " launches");
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " launches wrong (the first " << f.limit << " above)");
    // Refused where it cannot run, naming why and what BLOCK takes.
    columns_refused(builtin(B::Sum, S::F32), {Define{"BLOCK", "1"}, Define{"VEC", "1"}}, "which has no lift_vector");
    columns_refused(builtin(B::ArgMax, S::F32), {Define{"BLOCK", "1"}, Define{"VEC", "1"}, Define{"ITEMS", "1"}},
            "with ITEMS 1");
  }

  TEST_CASE("lanes as vectors (LANES 1) in columns, rows and whole arrays: argmin/argmax of every type with ties, NaN, infinities and the identity's value") {
    // LANES 1 holds a work-item's VEC columns as the descriptor's lanes state (argmin/argmax:
    // values and indices as vectors, compared lane-wise) and unpacks it at the end; the rows the
    // lanes cannot take (columns past the matrix within a work-item's span) go one by one. The data
    // are made to test the comparisons: few distinct values (ties: the lower row must win), the
    // type's lowest and highest (the identity's own value: argmax of a column all of the lowest
    // value is its row 0), and for floats NaN of both signs (the first wins), infinities and
    // signed zeros; column 1 is all of the lowest value, column 2 all of the highest, column 3 (of
    // floats) all NaN. Shapes: one row, fewer rows than ITEMS, a column tail inside a work-item's
    // VEC x SPAN, a padded ld with an offset, and five row chunks. The planner's default on a CPU
    // is LANES 1 with its SPAN. Every launch is a program of its own (PoCL, two cores: 3.5 min for
    // both operators x 12 types x the default and one launch), so the sample takes each type with
    // one operator (argmin and argmax alternating, rotating with the seed) and gives it the
    // planner's launch and one of the VEC x SPAN x ITEMS launches, rotating with the seed: every
    // type, both operators and every launch parameter each run; CLREDUCE_DESCRIPTOR_FULL=1 runs
    // both operators with every launch.
    // Mesa's llvmpipe read these lanes wrong on data with ties (values and indices of empty lanes):
    // there LANES 1 with a lanes state is refused in every family, and nothing plans it.
    if (session().device().loop_trip_limit) {
      const Reduction d = builtin(B::ArgMax, S::F32);
      columns_refused(d, {Define{"LANES", "1"}, Define{"VEC", "4"}, Define{"BLOCK", "0"}}, "Mesa's llvmpipe reads them wrong");
      AxisParams rows;
      rows.row_width = 1;
      rows.defines = {Define{"LANES", "1"}, Define{"VEC", "4"}};
      AxisReducer row_red = make_axis_reducer(rows);
      CHECK_THROWS_WITH_AS(introspect::prepare(row_red, d, Axis::Rows, MatrixShape{64, 64, 64}),
                           doctest::Contains("Mesa's llvmpipe reads them wrong"), ConfigError);
      ReducerOptions o;
      o.tuning.enabled = false;
      o.params.defines = {Define{"BLOCKED", "1"}, Define{"LANES", "1"}, Define{"VEC", "4"}};
      Reducer whole = session().reducer(o);
      CHECK_THROWS_WITH_AS(introspect::prepare(whole, d, 4099), doctest::Contains("Mesa's llvmpipe reads them wrong"),
                           ConfigError);
      AxisReducer planner = make_axis_reducer();
      CHECK(introspect::prepare(planner, d, Axis::Cols, MatrixShape{64, 64, 64}).options.find("-D LANES=0") !=
            std::string::npos);
      MESSAGE("llvmpipe: the lanes state refused, as it must be; the runs are for the other devices");
      return;
    }
    Failures f;
    std::size_t runs = 0;
    const bool full = std::getenv("CLREDUCE_DESCRIPTOR_FULL") != nullptr;
    std::vector<std::tuple<unsigned, unsigned, unsigned>> launches;  // VEC, SPAN, ITEMS
    for (unsigned vec : {2u, 4u, 8u, 16u})
      for (unsigned span : {1u, 2u})
        for (unsigned items : {1u, 2u}) launches.emplace_back(vec, span, items);
    const std::size_t rotation = seed() % launches.size();
    MESSAGE("seed " << seed() << "; " << (full ? std::string("every launch")
                                               : "sample: one operator a type, one launch each, rotation " +
                                                     std::to_string(rotation) + " (set CLREDUCE_DESCRIPTOR_FULL=1 for all)"));
    const std::vector<S> types = {S::U8, S::I8, S::U16, S::I16, S::U32, S::I32, S::U64, S::I64, S::F16, S::BF16, S::F32, S::F64};
    std::size_t k = 0;
    for (B b : {B::ArgMin, B::ArgMax})
      for (S t : types) {
        ++k;
        if (t == S::F64 && !has_fp64()) continue;
        if (!full && (k + rotation + (b == B::ArgMax)) % 2 == 0) continue;
        const Reduction d = builtin(b, t);
        REQUIRE(lanes_state(d));
        const unsigned w = static_cast<unsigned>(width_of(t));
        const std::uint64_t top = w == 8 ? ~0ull : (1ull << (8 * w)) - 1;
        const std::uint64_t lowest = signed_int(t) ? 1ull << (8 * w - 1) : 0, highest = signed_int(t) ? (top >> 1) : top;
        auto fill = [&](Column& c, std::size_t i, std::mt19937_64& g) {
          if (float_type(t)) {
            if (g() % 64 == 0) return c.set_nan(i, g() % 2 == 0);
            switch (g() % 8) {
              case 0: return c.set_real(i, -INFINITY);
              case 1: return c.set_real(i, INFINITY);
              case 2: return c.set_real(i, -0.0);
              default: return c.set_real(i, static_cast<double>(g() % 5) - 2.0);  // ties, +0 among them
            }
          }
          switch (g() % 8) {
            case 0: return c.set_bits(i, lowest);
            case 1: return c.set_bits(i, highest);
            default: return c.set_bits(i, g() % 3);
          }
        };
        std::vector<std::pair<AxisParams, std::string>> configs;
        configs.emplace_back(AxisParams{}, "the planner's launch");
        for (std::size_t i = 0; i < launches.size(); ++i) {
          if (!full && i != (k + rotation) % launches.size()) continue;
          const auto [vec, span, items] = launches[i];
          AxisParams p;
          p.defines = {Define{"LANES", "1"}, Define{"VEC", std::to_string(vec)}, Define{"SPAN", std::to_string(span)},
                       Define{"ITEMS", std::to_string(items)}, Define{"BLOCK", "0"}};
          configs.emplace_back(p, "VEC " + std::to_string(vec) + " SPAN " + std::to_string(span) + " ITEMS " +
                                      std::to_string(items));
        }
        for (const auto& [params, label] : configs) {
          for (const Shape& sh : {Shape{1, 5, 5, 0}, Shape{7, 3, 3, 1}, Shape{37, 13, 16, 3}, Shape{300, 70, 72, 8},
                                  Shape{203, 40, 40, 0}}) {
            AxisParams p = params;
            if (sh.rows == 203) p.chunks = 5;
            AxisReducer red = make_axis_reducer(p);
            const std::uint64_t s = case_seed(b, t, sh.rows) + k;
            std::mt19937_64 g(s);
            const MatrixShape ms{sh.rows, sh.cols, sh.ld};
            Column x(t, sh.offset + ms.span());
            for (std::size_t i = 0; i < x.size(); ++i) fill(x, i, g);
            for (std::uint64_t r = 0; r < sh.rows; ++r) {
              const std::size_t row = sh.offset + r * sh.ld;
              if (sh.cols > 1) x.set_bits(row + 1, lowest);
              if (sh.cols > 1 && float_type(t)) x.set_real(row + 1, -INFINITY);
              if (sh.cols > 2) float_type(t) ? x.set_real(row + 2, INFINITY) : x.set_bits(row + 2, highest);
              if (sh.cols > 3 && float_type(t)) x.set_nan(row + 3, r % 2 == 0);
            }
            check_axis_of(red, d, b, t, Axis::Cols, sh, {x},
                          bname(b) + "<" + sname(t) + "> cols of " + sh.str() + " (" + label + ") seed " + std::to_string(s),
                          f, &runs);
          }
        }
        // Rows (the lines kernel's LANES 1 with the lanes state, met at a line's end in a tree of
        // vectors, or unpacked and met one by one): the planner's launch, and the sampled VEC given,
        // over rows of whole vectors plus a tail, shorter than a vector, and padded with an offset.
        // given 2: the same descriptor without its lanes_meet, the lanes unpacked and met one by one.
        const unsigned row_vec = std::get<0>(launches[(k + rotation) % launches.size()]);
        Reduction no_meet = d;
        no_meet.lanes_meet.clear();
        // The whole array in a CPU's runs (BLOCKED 1) with the lanes state (LANES 1), met on vectors
        // or unpacked: n of one element, of a vector and a tail, and of many runs, each once with
        // the lowest value everywhere after its first elements (ties across lanes and runs).
        {
          ReducerOptions o;
          o.tuning.enabled = false;
          o.params.wg = 8;
          o.params.defines = {Define{"BLOCKED", "1"}, Define{"LANES", "1"}, Define{"VEC", std::to_string(row_vec)}};
          Reducer whole = session().reducer(o);
          for (const Reduction* dd : std::vector<const Reduction*>{&d, &no_meet})
            for (std::size_t n : {std::size_t{1}, std::size_t{row_vec + 3}, std::size_t{4099}})
              for (int flat = 0; flat < 2; ++flat) {
                const std::uint64_t s = case_seed(b, t, n) + k + 17 * flat;
                std::mt19937_64 g(s);
                Column x(t, n);
                for (std::size_t i = 0; i < n; ++i) fill(x, i, g);
                if (flat)
                  for (std::size_t i = n / 3; i < n; ++i) float_type(t) ? x.set_real(i, -INFINITY) : x.set_bits(i, lowest);
                ++runs;
                const std::string problem = run_and_compare(whole, *dd, b, {x}, n, t == S::F64);
                if (!problem.empty())
                  f.add(bname(b) + "<" + sname(t) + "> whole n=" + std::to_string(n) + " (LANES 1, VEC " +
                        std::to_string(row_vec) + (dd == &no_meet ? ", no lanes_meet" : "") + (flat ? ", flat tail" : "") +
                        ") seed " + std::to_string(s) + ": " + problem);
              }
        }
        for (int given = 0; given < 3; ++given) {
          AxisParams p;
          if (given) {
            p.row_width = 1;
            p.defines = {Define{"LANES", "1"}, Define{"VEC", std::to_string(row_vec)}};
          }
          AxisReducer red = make_axis_reducer(p);
          for (const Shape& sh : {Shape{5, 1000, 1000, 0}, Shape{3, 301, 305, 1}, Shape{9, 7, 7, 2}}) {
            const std::uint64_t s = case_seed(b, t, sh.cols) + k;
            std::mt19937_64 g(s);
            const MatrixShape ms{sh.rows, sh.cols, sh.ld};
            Column x(t, sh.offset + ms.span());
            for (std::size_t i = 0; i < x.size(); ++i) fill(x, i, g);
            for (std::uint64_t c = 0; c < sh.cols; ++c) {  // row 1 all of the lowest value, row 2 all NaN
              if (sh.rows > 1) float_type(t) ? x.set_real(sh.offset + sh.ld + c, -INFINITY) : x.set_bits(sh.offset + sh.ld + c, lowest);
              if (sh.rows > 2 && float_type(t)) x.set_nan(sh.offset + 2 * sh.ld + c, c % 2 == 0);
            }
            check_axis_of(red, given == 2 ? no_meet : d, b, t, Axis::Rows, sh, {x},
                          bname(b) + "<" + sname(t) + "> rows of " + sh.str() +
                              (given ? " (LANES 1, VEC " + std::to_string(row_vec) + (given == 2 ? ", no lanes_meet" : "") + ")"
                                     : std::string(" (the planner's launch)")) +
                              " seed " + std::to_string(s),
                          f, &runs);
          }
        }
      }
    MESSAGE(runs << " launches");
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " launches wrong (the first " << f.limit << " above)");
    // Refused where it cannot run, naming why and what LANES takes.
    columns_refused(builtin(B::Max, S::F32), {Define{"LANES", "1"}, Define{"VEC", "16"}}, "which has no lanes state");
    columns_refused(builtin(B::ArgMax, S::F32), {Define{"LANES", "1"}, Define{"VEC", "1"}, Define{"BLOCK", "0"}}, "with VEC 1");
    // VEC 1 alone: the planner then takes BLOCK, but the message names what the caller gave.
    columns_refused(builtin(B::ArgMax, S::F32), {Define{"LANES", "1"}, Define{"VEC", "1"}}, "with VEC 1");
    columns_refused(builtin(B::ArgMax, S::F32), {Define{"LANES", "1"}, Define{"VEC", "4"}, Define{"BLOCK", "1"}, Define{"ITEMS", "4"}},
            "with BLOCK 1");
  }
}

TEST_SUITE("descriptor") {
  TEST_CASE("count_nonzero of 8- and 16-bit integers reads 32-bit words: the lane values at the edges, VEC 2 to 16, whole arrays and rows") {
    // count_nonzero_in_words: a lane counts when its top bit or any low bit is set, the low bits'
    // carry never leaving the lane. Lanes of 0 beside the edge values (top bit alone, lowest bit
    // alone, every low bit, every bit), in every position of a word; lengths that end inside a
    // vector, an odd offset (vloadN) and none (vector pointers). Each of the generator's word
    // layouts: u8 at VEC 2 (one 16-bit word), 4, 8 and 16; 16-bit lanes at every VEC; i8 and i16
    // (signed compute types) at two. The count is checked against this host loop's.
    Failures f;
    std::size_t runs = 0;
    const std::vector<std::pair<S, std::vector<unsigned>>> layouts = {
        {S::U8, {2, 4, 8, 16}}, {S::U16, {2, 4, 8, 16}}, {S::I8, {2, 16}}, {S::I16, {4, 8}}};
    for (const auto& layout : layouts) {
      const S t = layout.first;
      const Reduction d = builtin(B::CountNonzero, t);
      REQUIRE_MESSAGE(reduction_source(d).find("desc_lift_input_vector(v0_, i_)") != std::string::npos, d.name);
      const std::uint64_t top = std::uint64_t{1} << (8 * width_of(t) - 1);
      const std::uint64_t edges[] = {0, 0, 0, 1, top, top - 1, 2 * top - 1, top | 1, 2};
      for (std::size_t k = 0; k < layout.second.size(); ++k) {
        const unsigned vec = layout.second[k];
        CAPTURE(vec);
        std::mt19937_64 g(case_seed(B::CountNonzero, t, vec));
        const auto edge_column = [&](std::size_t n) {
          Column c(t, n);
          for (std::size_t i = 0; i < n; ++i) c.set_bits(i, edges[g() % 9]);
          return c;
        };
        const std::size_t offset = k % 2 ? 3 : 0;
        ReducerOptions o;
        o.tuning.enabled = false;
        o.params.defines = {Define{"VEC", std::to_string(vec)}};
        Reducer red = session().reducer(o);
        for (std::size_t n : {std::size_t{1}, std::size_t{vec + 1}, std::size_t{4099}}) {
          const Column c = edge_column(offset + n);
          std::uint64_t want = 0;
          for (std::size_t i = offset; i < offset + n; ++i) want += c.bits(i) != 0;
          const Result r = red.reduce(d, {Input{upload(c), offset}}, n);
          ++runs;
          if (load<std::uint64_t>(r.bytes.data()) != want)
            f.add(d.name + "<" + sname(t) + "> VEC " + std::to_string(vec) + " n " + std::to_string(n) + " offset " +
                  std::to_string(offset) + ": " + std::to_string(load<std::uint64_t>(r.bytes.data())) + ", want " +
                  std::to_string(want));
        }
        if (k != 0) continue;
        // Rows (the rows kernel's VEC-wide reads), a padded ld and an odd offset: each row's count.
        AxisParams p;
        p.defines = {Define{"VEC", std::to_string(vec)}};
        AxisReducer rows = make_axis_reducer(p);
        const MatrixShape ms{7, 301, 305};
        const Column c = edge_column(1 + ms.span());
        const std::vector<Result> got = rows.reduce(d, {Input{upload(c), 1}}, Axis::Rows, ms);
        ++runs;
        REQUIRE(got.size() == 7);
        for (std::size_t row = 0; row < 7; ++row) {
          std::uint64_t want = 0;
          for (std::size_t j = 0; j < 301; ++j) want += c.bits(1 + row * 305 + j) != 0;
          if (load<std::uint64_t>(got[row].bytes.data()) != want)
            f.add(d.name + "<" + sname(t) + "> rows VEC " + std::to_string(vec) + " row " + std::to_string(row) + ": " +
                  std::to_string(load<std::uint64_t>(got[row].bytes.data())) + ", want " + std::to_string(want));
        }
      }
    }
    MESSAGE(runs << " launches");
    CHECK_MESSAGE(f.count == 0, f.count << " of " << runs << " launches wrong (the first " << f.limit << " above)");
  }

  TEST_CASE("descriptor enqueues make an event only where asked, with the same results either way") {
    // with_event false (a benchmark's launches between its first and last, the blocking calls): an
    // empty event; true: the call's last launch's event (the exact rounding's where it is a launch
    // of its own), complete once the results are written. Whole arrays (plain, exact with either
    // rounding), rows, columns and segments of a 6 x 101 f32 matrix, each result read after it.
    const std::size_t rows = 6, cols = 101, n = rows * cols;
    Column c(S::F32, n);
    const auto at = [&](std::size_t i) { return load<float>(c.bytes.data() + 4 * i); };
    for (std::size_t i = 0; i < n; ++i) {
      const float v = static_cast<float>(static_cast<int>(i % 13) - 6) * 0.25f;  // sums exact in any order
      std::memcpy(c.bytes.data() + 4 * i, &v, 4);
    }
    const cl::Buffer in = upload(c);
    const std::vector<Input> x{Input{in, 0}}, xx{Input{in, 0}, Input{in, 0}};
    const cl::Buffer out(session().context(), CL_MEM_READ_WRITE, 64 * sizeof(double));
    const auto read = [&](std::size_t count) {
      std::vector<unsigned char> b(count * 4);
      session().queue().enqueueReadBuffer(out, CL_TRUE, 0, b.size(), b.data());
      return b;
    };
    const auto check_event = [](const cl::Event& e, bool wanted) {
      CHECK((e() != nullptr) == wanted);
      if (!wanted) return;
      e.wait();
      CHECK(e.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
    };
    double sum = 0, sumsq = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum += at(i);
      sumsq += static_cast<double>(at(i)) * at(i);
    }
    const Reduction plain = builtin(B::Sum, S::F32);
    const Reduction exact = builtin(B::Sum, S::F32, std::nullopt, Summation::Exact);
    const Reduction dot = builtin(B::Dot, S::F32, std::nullopt, Summation::Exact);
    for (const char* rounds : {"0", "1"}) {
      ReducerOptions o;
      o.tuning.enabled = false;
      o.params.defines.push_back({"EXACT_LAST_GROUP_ROUNDS", rounds});
      Reducer red = session().reducer(o);
      for (bool wanted : {false, true}) {
        CAPTURE(rounds);
        CAPTURE(wanted);
        try {
          check_event(introspect::enqueue(red, exact, x, n, out, 0, {}, nullptr, {}, wanted), wanted);
          CHECK(load<float>(read(1).data()) == static_cast<float>(sum));
          check_event(introspect::enqueue(red, dot, xx, n, out, 0, {}, nullptr, {}, wanted), wanted);
          CHECK(load<float>(read(1).data()) == static_cast<float>(sumsq));
        } catch (const ConfigError& e) {
          MESSAGE("not on this device: " << std::string(e.what()));  // no EXACT_GROUP: rounds 1 refused
        }
      }
    }
    Reducer red = session().reducer();
    AxisReducer axis = make_axis_reducer();
    SegmentedReducer seg = make_segmented_reducer();
    const std::vector<std::uint64_t> bounds = {0, 1, 100, 100, n};
    const cl::Buffer offsets = upload_offsets<std::uint64_t>(bounds);
    const Segments segments = Segments::offsets<std::uint64_t>(offsets, 4);
    for (bool wanted : {false, true}) {
      CAPTURE(wanted);
      check_event(introspect::enqueue(red, plain, x, n, out, 0, {}, nullptr, {}, wanted), wanted);
      CHECK(load<float>(read(1).data()) == static_cast<float>(sum));
      for (Axis a : {Axis::Rows, Axis::Cols}) {
        check_event(
            introspect::enqueue(axis, plain, x, a, MatrixShape{rows, cols, cols}, out, 0, {}, nullptr, {}, wanted),
            wanted);
        const std::size_t count = a == Axis::Rows ? rows : cols;
        const std::vector<unsigned char> got = read(count);
        for (std::size_t k = 0; k < count; ++k) {
          double want = 0;
          for (std::size_t j = 0; j < (a == Axis::Rows ? cols : rows); ++j)
            want += at(a == Axis::Rows ? k * cols + j : j * cols + k);
          CHECK(load<float>(got.data() + 4 * k) == static_cast<float>(want));
        }
      }
      check_event(introspect::enqueue(seg, plain, x, n, segments, out, 0, {}, nullptr, {}, wanted), wanted);
      const std::vector<unsigned char> got = read(4);
      for (std::size_t k = 0; k < 4; ++k) {
        double want = 0;
        for (std::size_t i = bounds[k]; i < bounds[k + 1]; ++i) want += at(i);
        CHECK(load<float>(got.data() + 4 * k) == static_cast<float>(want));
      }
    }
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("rows in runs with vector lanes: VEC rows' lanes met at once give each row's own lanes' bits") {
    // BLOCKED 1 and LANES 1 (a CPU's rows; given here, so on every device): rows of whole vectors
    // (ld and the row a multiple of VEC) go VEC rows at a time, their lanes met in one transposed
    // tree (DESC_VLANES_MEET_T); the rest of a work-item's run row by row (DESC_VLANES_MEET). Both
    // must be the row's lane c folding elements c, c + VEC, ... in order, then the halves tree
    // (c with c + VEC / 2, ...): a float sum is compared bit for bit with that order on the host,
    // fmin with NaN rows, integer max, a u32 sum, and a sum of x * s0 with a run-time scalar s0 (the
    // kernel's own names must not hide it). The rows are sized from the launch: every work-item's
    // run at least VEC + 2 rows (so the VEC-rows path runs and leaves a remainder), and the last
    // non-empty run cut short by the matrix. An ld wider than the row and an offset of one vector
    // keep the rows aligned; a row of one element less goes the per-row way only.
    const Reduction fsum = builtin(B::Sum, S::F32), fmin_d = builtin(B::Min, S::F32), imax = builtin(B::Max, S::I32),
                    usum = builtin(B::Sum, S::U32);
    Reduction scaled = fsum;  // a user's copy: the combine a + b still serves vectors (vector_combine_of)
    scaled.name = "scaled_sum";
    scaled.builtin.reset();
    scaled.scalars = {S::F32};
    scaled.map = "x0 * s0";
    CHECK(vector_combine_of(scaled) == "a + b");
    CHECK(reduction_source(scaled).find("#define desc_combine_v(a, b) (a + b)") != std::string::npos);
    Reduction other = scaled;
    other.combine = "a+b";  // not one of the texts known to hold for vectors: component by component
    CHECK(vector_combine_of(other).empty());
    CHECK(reduction_source(other).find("desc_combine_v") == std::string::npos);
    const float scale = 0.5f;  // a power of two: x * s0 exact, so a fused multiply-add gives the same bits
    std::mt19937 rng(20261207);
    std::uniform_real_distribution<float> real(-1.0f, 1.0f);
    Failures f;
    std::size_t runs = 0;
    for (const unsigned vec : {2u, 4u, 8u, 16u}) {
      AxisParams p;
      p.row_width = 1;
      p.defines = {Define{"VEC", std::to_string(vec)}, Define{"BLOCKED", "1"}, Define{"LANES", "1"}};
      AxisReducer red = make_axis_reducer(p);
      // The work-items of the launch (its groups over many rows), then rows for runs of VEC + 2
      // less 3 rows, so the last non-empty run is cut short.
      const DescriptorLaunch probe = introspect::prepare(red, fsum, Axis::Rows, MatrixShape{1 << 20, vec, vec});
      const std::uint64_t items = std::uint64_t{probe.wg} * probe.groups;
      REQUIRE(items > 0);
      const std::size_t m = static_cast<std::size_t>(items * (vec + 2) - 3);
      for (const std::size_t len : {std::size_t{vec}, std::size_t{3 * vec}, std::size_t{3 * vec - 1}}) {
        for (const std::size_t pad : {std::size_t{0}, std::size_t{vec}}) {
          const std::size_t ld = len + pad, off = pad;  // off: one vector (or none)
          const MatrixShape ms{m, len, ld};
          const std::string what = "VEC " + std::to_string(vec) + " " + std::to_string(m) + "x" + std::to_string(len) +
                                   " ld " + std::to_string(ld) + " offset " + std::to_string(off);
          CAPTURE(what);
          const DescriptorLaunch l = introspect::prepare(red, fsum, Axis::Rows, ms);
          REQUIRE(l.options.find("-D VEC=" + std::to_string(vec) + " ") != std::string::npos);
          REQUIRE(l.options.find("-D BLOCKED=1 -D LANES=1") != std::string::npos);
          REQUIRE(std::uint64_t{l.wg} * l.groups == items);
          const std::uint64_t run = (m + items - 1) / items;
          REQUIRE(run >= vec + 2);
          REQUIRE(m % run != 0);
          Column x(S::F32, off + ms.span()), xi(S::I32, off + ms.span()), xu(S::U32, off + ms.span());
          for (std::size_t i = 0; i < x.size(); ++i) {
            x.set_real(i, real(rng));
            store(xi.at(i), static_cast<std::int32_t>(rng()));
            store(xu.at(i), static_cast<std::uint32_t>(rng()));
          }
          // Row 3 holds one NaN, row 5 only NaN (fmin: a NaN loses to a number; all NaN is NaN).
          x.set_nan(off + 3 * ld + len / 2);
          for (std::size_t j = 0; j < len; ++j) x.set_nan(off + 5 * ld + j);
          const auto elem = [&](std::size_t i, float mul) { return load<float>(x.at(i)) * mul; };
          // Row `row` folded as the kernel does: its whole vectors [ceil(b / VEC), floor(e / VEC))
          // lane by lane, the lanes' halves tree, then the elements before and after them in order.
          const auto lanes_order = [&](std::size_t row, auto combine, float identity, float mul) {
            std::vector<float> lane(vec, identity);
            const std::size_t b = off + row * ld, e = b + len;
            const std::size_t kv0 = (b + vec - 1) / vec, kv1 = e / vec;
            for (std::size_t k = kv0; k < kv1; ++k)
              for (std::size_t c = 0; c < vec; ++c) lane[c] = combine(lane[c], elem(k * vec + c, mul));
            for (std::size_t w = vec / 2; w > 0; w /= 2)
              for (std::size_t c = 0; c < w; ++c) lane[c] = combine(lane[c], lane[c + w]);
            float acc = lane[0];
            const std::size_t hv = kv1 > kv0 ? kv0 * vec : e, tv = kv1 > kv0 ? kv1 * vec : e;
            for (std::size_t i = b; i < hv; ++i) acc = combine(acc, elem(i, mul));
            for (std::size_t i = tv; i < e; ++i) acc = combine(acc, elem(i, mul));
            return acc;
          };
          const std::vector<Result> sums = red.reduce(fsum, {Input{upload(x), off}}, Axis::Rows, ms);
          const std::vector<Result> mins = red.reduce(fmin_d, {Input{upload(x), off}}, Axis::Rows, ms);
          const std::vector<Result> maxs = red.reduce(imax, {Input{upload(xi), off}}, Axis::Rows, ms);
          const std::vector<Result> usums = red.reduce(usum, {Input{upload(xu), off}}, Axis::Rows, ms);
          const std::vector<Result> ssums =
              red.reduce(scaled, {Input{upload(x), off}}, Axis::Rows, ms, {ScalarArg{static_cast<double>(scale)}});
          runs += 5;
          REQUIRE(sums.size() == m);
          REQUIRE(ssums.size() == m);
          const auto same = [](float a, float b) { return std::memcmp(&a, &b, 4) == 0 || (std::isnan(a) && std::isnan(b)); };
          const auto plus = [](float a, float b) { return a + b; };
          for (std::size_t row = 0; row < m; ++row) {
            const float want_sum = lanes_order(row, plus, 0.0f, 1.0f);
            const float want_ssum = lanes_order(row, plus, 0.0f, scale);
            const float want_min = lanes_order(row, [](float a, float b) { return std::fmin(a, b); }, NAN, 1.0f);
            std::int32_t want_max = INT32_MIN;
            std::uint64_t want_usum = 0;
            for (std::size_t j = 0; j < len; ++j) {
              want_max = std::max(want_max, load<std::int32_t>(xi.at(off + row * ld + j)));
              want_usum += load<std::uint32_t>(xu.at(off + row * ld + j));
            }
            const float got_sum = load<float>(sums[row].bytes.data()), got_min = load<float>(mins[row].bytes.data());
            const float got_ssum = load<float>(ssums[row].bytes.data());
            if (!same(got_sum, want_sum))
              f.add(what + " row " + std::to_string(row) + ": sum " + std::to_string(got_sum) + ", the lanes' order " +
                    std::to_string(want_sum));
            if (!same(got_ssum, want_ssum))
              f.add(what + " row " + std::to_string(row) + ": sum of x * s0 " + std::to_string(got_ssum) +
                    ", the lanes' order " + std::to_string(want_ssum));
            if (!same(got_min, want_min))
              f.add(what + " row " + std::to_string(row) + ": fmin " + std::to_string(got_min) + ", want " +
                    std::to_string(want_min));
            if (load<std::int32_t>(maxs[row].bytes.data()) != want_max)
              f.add(what + " row " + std::to_string(row) + ": i32 max " +
                    std::to_string(load<std::int32_t>(maxs[row].bytes.data())) + ", want " + std::to_string(want_max));
            if (load<std::uint64_t>(usums[row].bytes.data()) != want_usum)
              f.add(what + " row " + std::to_string(row) + ": u32 sum " +
                    std::to_string(load<std::uint64_t>(usums[row].bytes.data())) + ", want " + std::to_string(want_usum));
          }
        }
      }
    }
    MESSAGE(runs << " launches");
    CHECK_MESSAGE(f.count == 0, f.count << " wrong rows (the first " << f.limit << " above)");
  }

  TEST_CASE("the planners' shapes follow the device: CPU shapes where it is no GPU (nor llvmpipe), GPU shapes elsewhere") {
    // On a CPU (bench/NOTES.md, the descriptor families on a CPU device): the whole array in one
    // contiguous run per work-item (BLOCKED 1), a row per work-item, 8 work-items across the columns,
    // every load 64 bytes (16 floats). On a GPU, and on llvmpipe (loops end after 65535 trips), the
    // grid-strided whole array, rows shared by several work-items, columns a float per work-item.
    const DeviceInfo& dev = session().device();
    const bool cpu = !dev.is_gpu && !dev.loop_trip_limit;
    MESSAGE(dev.name << (cpu ? ": CPU shapes" : ": GPU shapes"));
    const Reduction sum = builtin(B::Sum, S::F32);
    Reducer red = make_reducer();
    const DescriptorLaunch whole = introspect::prepare(red, sum, 1 << 20);
    CAPTURE(whole.options);
    CHECK((whole.options.find("-D BLOCKED=1") != std::string::npos) == cpu);
    CHECK((whole.options.find("-D BLOCKED=0") != std::string::npos) == !cpu);
    CHECK(whole.vec == (cpu ? 16u : 4u));
    AxisReducer axis = make_axis_reducer();
    const DescriptorLaunch rows = introspect::prepare(axis, sum, Axis::Rows, MatrixShape{4096, 1024, 1024});
    CAPTURE(rows.label());
    CHECK((rows.row_width == 1) == cpu);
    CHECK(rows.vec == (cpu ? 16u : 4u));
    // On a CPU runs of consecutive rows (BLOCKED 1: 8-wide groups, 4 per compute unit); rows a
    // grid apart elsewhere.
    CHECK((rows.options.find("-D BLOCKED=1") != std::string::npos) == cpu);
    if (cpu) CHECK(rows.wg == 8);
    const DescriptorLaunch cols = introspect::prepare(axis, sum, Axis::Cols, MatrixShape{4096, 1024, 1024});
    CAPTURE(cols.label());
    CHECK(cols.vec == (cpu ? 16u : 1u));
    if (cpu) CHECK(cols.tile_x * cols.rows_y == 8);
    CHECK(cols.options.find("-D BLOCK=0") != std::string::npos);  // a sum has no lift_vector
    // On a CPU a work-item reads SPAN VEC-wide loads of a row (8 x 16 floats, 512 contiguous bytes),
    // fewer where the matrix is narrower; one load a row on a GPU. A span with BLOCK is refused.
    CHECK(cols.span == (cpu ? 8u : 1u));
    CHECK(cols.options.find(cpu ? "-D SPAN=8" : "-D SPAN=1") != std::string::npos);
    const DescriptorLaunch narrow = introspect::prepare(axis, sum, Axis::Cols, MatrixShape{4096, 40, 40});
    CHECK(narrow.span == (cpu ? 2u : 1u));
    // Fewer work-items across than a group (here 2 of 16 x 2 columns) keep one row slice on a CPU:
    // the group as wide as the tile, the rows split by chunks; a GPU's tile keeps its row slices.
    if (cpu) {
      CHECK(narrow.rows_y == 1u);
      CHECK(narrow.wg == narrow.tile_x);
      CHECK(narrow.chunks > 1);
    }
    // argmax's pairs on a CPU: the lanes as vectors (LANES 1), with spans of up to 1024 bytes of
    // pairs (VEC 16 x SPAN 4); on a GPU neither.
    const DescriptorLaunch arg_cols =
        introspect::prepare(axis, builtin(B::ArgMax, S::F32), Axis::Cols, MatrixShape{4096, 1024, 1024});
    CHECK(arg_cols.lanes == cpu);
    CHECK(arg_cols.span == (cpu ? 4u : 1u));
    CHECK(arg_cols.options.find(cpu ? "-D LANES=1" : "-D LANES=0") != std::string::npos);
    // Their indices in 32 bits (LANES_INDEX32) where every index a lane folds is below 2^32 - 1: a
    // column's rows (the matrix's), a row's places (its length); 64 bits past that, and without
    // lanes. Derived from the shape, so never given.
    CHECK(arg_cols.options.find(cpu ? "-D LANES_INDEX32=1" : "-D LANES_INDEX32=0") != std::string::npos);
    CHECK(introspect::prepare(axis, builtin(B::ArgMax, S::F32), Axis::Rows, MatrixShape{64, 4096, 4096})
              .options.find(cpu ? "-D LANES_INDEX32=1" : "-D LANES_INDEX32=0") != std::string::npos);
    CHECK(introspect::prepare(axis, builtin(B::Max, S::F32), Axis::Cols, MatrixShape{4096, 1024, 1024})
              .options.find("-D LANES_INDEX32=0") != std::string::npos);
    // At the bound: 2^32 - 1 rows (indices up to 2^32 - 2, below the empty lane's mark) take them.
    CHECK(introspect::prepare(axis, builtin(B::ArgMax, S::U8), Axis::Cols, MatrixShape{0xffffffffull, 2, 2})
              .options.find(cpu ? "-D LANES_INDEX32=1" : "-D LANES_INDEX32=0") != std::string::npos);
    CHECK(introspect::prepare(axis, builtin(B::ArgMax, S::U8), Axis::Rows, MatrixShape{2, 0xffffffffull, 0xffffffffull})
              .options.find(cpu ? "-D LANES_INDEX32=1" : "-D LANES_INDEX32=0") != std::string::npos);
    for (const MatrixShape& tall : {MatrixShape{1ull << 32, 2, 2}, MatrixShape{(1ull << 32) + 3, 2, 2},
                                    MatrixShape{2, 1ull << 32, 1ull << 32}, MatrixShape{2, (1ull << 32) + 3, (1ull << 32) + 3}}) {
      const Axis axis_of_tall = tall.rows > 2 ? Axis::Cols : Axis::Rows;
      const DescriptorLaunch l = introspect::prepare(axis, builtin(B::ArgMax, S::U8), axis_of_tall, tall);
      CHECK_MESSAGE(l.options.find(cpu ? "-D LANES=1" : "-D LANES=0") != std::string::npos, l.options);
      CHECK_MESSAGE(l.options.find("-D LANES_INDEX32=0") != std::string::npos, l.options);
    }
    AxisParams given_index32;
    given_index32.defines = {Define{"LANES_INDEX32", "1"}};
    AxisReducer given_index32_cols = make_axis_reducer(given_index32);
    CHECK_THROWS_AS(introspect::prepare(given_index32_cols, builtin(B::ArgMax, S::F32), Axis::Cols,
                                        MatrixShape{4096, 1024, 1024}),
                    ConfigError);
    AxisParams span_block;
    span_block.defines = {Define{"SPAN", "2"}, Define{"BLOCK", "1"}};
    AxisReducer span_block_cols = make_axis_reducer(span_block);
    CHECK_THROWS_WITH_AS(introspect::prepare(span_block_cols, builtin(B::ArgMax, S::F32), Axis::Cols,
                                             MatrixShape{4096, 1024, 1024}),
                         doctest::Contains("valid: SPAN 1, or VEC > 1 with BLOCK 0"), ConfigError);
    // Argmax and Welford columns lift a block of ITEMS rows a trip where a work-item owns one column.
    for (const Reduction& d : {builtin(B::ArgMax, S::F16), builtin(B::VarPop, S::F32)}) {
      const DescriptorLaunch c = introspect::prepare(axis, d, Axis::Cols, MatrixShape{4096, 1024, 1024});
      CAPTURE(c.label());
      CHECK(c.block == !cpu);
      CHECK((c.options.find("-D BLOCK=1") != std::string::npos) == !cpu);
      if (!cpu) CHECK(c.items == 8);
    }
    // A caller's parameter still wins over the device's shape.
    ReducerOptions strided;
    strided.tuning.enabled = false;
    strided.params.defines = {Define{"BLOCKED", cpu ? "0" : "1"}};
    Reducer given = session().reducer(strided);
    CHECK(introspect::prepare(given, sum, 1 << 20).options.find(cpu ? "-D BLOCKED=0" : "-D BLOCKED=1") != std::string::npos);
    // The rows' BLOCKED 1 given: runs of rows, 8-wide groups where the device takes CPU shapes;
    // where a line is not one work-item's it is refused, naming why.
    AxisParams rows_runs;
    rows_runs.defines = {Define{"BLOCKED", "1"}};
    rows_runs.row_width = 1;
    AxisReducer run_rows = make_axis_reducer(rows_runs);
    const DescriptorLaunch runs = introspect::prepare(run_rows, sum, Axis::Rows, MatrixShape{4096, 1024, 1024});
    CHECK(runs.options.find("-D BLOCKED=1") != std::string::npos);
    if (cpu) CHECK(runs.wg == 8);
    if (cpu) CHECK(runs.groups == std::min<std::uint64_t>(4096 / 8, 4 * std::uint64_t{std::max(1u, dev.compute_units)}));
    AxisParams shared;
    shared.defines = {Define{"BLOCKED", "1"}};
    shared.row_width = 2;
    AxisReducer shared_rows = make_axis_reducer(shared);
    CHECK_THROWS_WITH_AS(introspect::prepare(shared_rows, sum, Axis::Rows, MatrixShape{4096, 1024, 1024}),
                         doctest::Contains("valid: row width 1 and 1 part"), ConfigError);
    // LANES (a CPU's lane-wise fold, VEC chains): the whole array's runs and the rows' lines of one
    // work-item fold sums, dots and integer min/max lane by lane; not the structs (argmax's pair,
    // Welford's) nor the vector lifts (float max's tree), but a descriptor with a lanes state
    // (argmax's values and indices as vectors); nowhere on a GPU's shapes.
    const auto lanes = [](const DescriptorLaunch& l) { return l.options.find("-D LANES=1") != std::string::npos; };
    CHECK(lanes(whole) == cpu);
    CHECK(lanes(rows) == cpu);
    for (const Reduction& d : {builtin(B::Dot, S::F32), builtin(B::Max, S::I32), builtin(B::SumSq, S::F32)}) {
      CAPTURE(d.name);
      CHECK(lanes(introspect::prepare(red, d, 1 << 20)) == cpu);
      CHECK(lanes(introspect::prepare(axis, d, Axis::Rows, MatrixShape{4096, 1024, 1024})) == cpu);
    }
    CHECK(lanes(introspect::prepare(red, builtin(B::ArgMax, S::F32), 1 << 20)) == cpu);
    CHECK(lanes(introspect::prepare(axis, builtin(B::ArgMax, S::F32), Axis::Rows, MatrixShape{4096, 1024, 1024})) == cpu);
    for (const Reduction& d : {builtin(B::VarPop, S::F32), builtin(B::Max, S::F32),
                               builtin(B::Sum, S::U8), builtin(B::Sum, S::F32, std::nullopt, Summation::Exact)}) {
      CAPTURE(d.name);
      CHECK_FALSE(lanes(introspect::prepare(red, d, 1 << 20)));
      CHECK_FALSE(lanes(introspect::prepare(axis, d, Axis::Rows, MatrixShape{4096, 1024, 1024})));
    }
    // Lines of a whole vector fold lane by lane where the lanes are one vector (an accumulator of
    // a scalar type); lanes in an array (minmax's uint2) only where a line holds VEC vectors (their
    // meeting would cost more), and the generated header says which (DESC_LANES_VECTOR).
    const DescriptorLaunch short_rows = introspect::prepare(axis, sum, Axis::Rows, MatrixShape{65536, 32, 32});
    CHECK(lanes(short_rows) == cpu);
    CHECK(lanes_vector(sum));
    const Reduction minmax = builtin(B::MinMax, S::U32);
    CHECK_FALSE(lanes_vector(minmax));
    CHECK(reduction_source(minmax).find("#define DESC_LANES_VECTOR 0") != std::string::npos);
    CHECK(reduction_source(sum).find("#define DESC_LANES_VECTOR 1") != std::string::npos);
    CHECK_FALSE(lanes(introspect::prepare(axis, minmax, Axis::Rows, MatrixShape{65536, 32, 32})));
    CHECK(lanes(introspect::prepare(axis, minmax, Axis::Rows, MatrixShape{4096, 1024, 1024})) == cpu);
    // Short lines on a CPU too: runs of consecutive lines (BLOCKED 1, 8-wide groups);
    // unless the caller shares a line (a row width given), and never on a GPU's shapes.
    CAPTURE(short_rows.label());
    CHECK((short_rows.options.find("-D BLOCKED=1") != std::string::npos) == cpu);
    if (cpu) CHECK(short_rows.wg == 8);
    AxisParams two_wide;
    two_wide.row_width = 2;
    AxisReducer two_wide_rows = make_axis_reducer(two_wide);
    CHECK(introspect::prepare(two_wide_rows, sum, Axis::Rows, MatrixShape{65536, 32, 32}).options.find("-D BLOCKED=0") !=
          std::string::npos);
    // The Op path (AxisReducer::reduce with an Op, SegmentedReducer with an Op) on a CPU: the
    // descriptor's kernels over the operator's built-in when nothing is chosen; the GPU's variants
    // elsewhere, and for a user's operator everywhere.
    for (const Op op : {Op::Sum, Op::ArgMax}) {
      CAPTURE(std::string(name_of(op)));
      const auto r = introspect::prepare(axis, ElemType::Float, op, Axis::Rows, 4096, 1024);
      CHECK(r->plan.variant->runs_descriptor() == cpu);
      const auto c = introspect::prepare(axis, ElemType::Float, op, Axis::Cols, 4096, 1024);
      CHECK(c->plan.variant->runs_descriptor() == cpu);
      if (cpu) CHECK(r->plan.passes.at(0).options.find("-D BLOCKED=1 -D LANES=1") != std::string::npos);
      SegmentedReducerOptions so;
      so.tuning.enabled = false;
      so.device = dev;
      so.kernel_dir = session().kernel_dir();
      SegmentedReducer seg(session().queue(), so);
      CHECK((introspect::prepare(seg, ElemType::Float, op, 1 << 20, 1 << 10)->plan.descriptor != nullptr) == cpu);
      so.params.parts = 2;  // a launch chosen: the segments kernels
      SegmentedReducer seg_parts(session().queue(), so);
      CHECK(introspect::prepare(seg_parts, ElemType::Float, op, 1 << 20, 1 << 10)->plan.descriptor == nullptr);
    }
    // A caller's LANES 1 where a line is shared, or over grid-strided vectors, is refused in a line.
    AxisParams shared_lanes;
    shared_lanes.defines = {Define{"LANES", "1"}};
    shared_lanes.row_width = 2;
    AxisReducer lanes_rows = make_axis_reducer(shared_lanes);
    CHECK_THROWS_WITH_AS(introspect::prepare(lanes_rows, sum, Axis::Rows, MatrixShape{4096, 1024, 1024}),
                         doctest::Contains("valid: row width 1 (a line one work-item folds alone), or LANES=0"),
                         ConfigError);
    ReducerOptions strided_lanes;
    strided_lanes.tuning.enabled = false;
    strided_lanes.params.defines = {Define{"BLOCKED", "0"}, Define{"LANES", "1"}};
    Reducer strided_lanes_red = session().reducer(strided_lanes);
    CHECK_THROWS_WITH_AS(introspect::prepare(strided_lanes_red, sum, 1 << 20),
                         doctest::Contains("valid: LANES=1 with BLOCKED=1 and EXACT_GROUP=0, or LANES=0"), ConfigError);
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("reduce --output: every result as .npy and as raw bytes, read back here; never over a file") {
    namespace fs = std::filesystem;
    const ScratchDir scratch("clreduce-output");  // removed when the case ends, passed or not
    const fs::path& dir = scratch.path;
    const auto slurp = clreduce::test::read_file;
    // Rows of argmax of i16 (ArgValue<i16>: the value, 6 pad bytes, the u64 index), raw and .npy;
    // the same run's values in both (the data is seeded).
    const std::string args = "reduce --op argmax --type i16 --axis rows --shape 37x45 --ld 48 --seed 7 --iterations 1";
    const CliRun raw = run_cli(args + " --output " + (dir / "a.bin").string());
    REQUIRE_MESSAGE(raw.code == 0, raw.out);
    const CliRun npy = run_cli(args + " --output " + (dir / "a.npy").string());
    REQUIRE_MESSAGE(npy.code == 0, npy.out);
    const std::string rb = slurp(dir / "a.bin"), nb = slurp(dir / "a.npy");
    CHECK(rb.size() == 37 * 16);
    REQUIRE(nb.size() > rb.size());
    REQUIRE(nb.compare(0, 6, "\x93NUMPY") == 0);
    const std::size_t header_len = static_cast<unsigned char>(nb[8]) | static_cast<unsigned char>(nb[9]) << 8;
    CHECK((10 + header_len) % 64 == 0);
    const std::string header = nb.substr(10, header_len);
    CHECK_MESSAGE(header.find("'descr': [('value', '<i2'), ('', '|V6'), ('index', '<u8')]") != std::string::npos, header);
    CHECK_MESSAGE(header.find("'shape': (37,)") != std::string::npos, header);
    CHECK(header.back() == '\n');
    CHECK(nb.substr(10 + header_len) == rb);
    // The first row's result as the table printed it ("v @ i").
    const std::int16_t v0 = load<std::int16_t>(reinterpret_cast<const unsigned char*>(rb.data()));
    const std::uint64_t i0 = load<std::uint64_t>(reinterpret_cast<const unsigned char*>(rb.data()) + 8);
    CHECK_MESSAGE(raw.out.find(std::to_string(v0) + " @ " + std::to_string(i0)) != std::string::npos, raw.out);
    // A mean of f32 columns: a plain '<f4' array of N values; segments: one per segment.
    const CliRun cols = run_cli("reduce --op mean --type f32 --axis cols --shape 100x7 --iterations 1 --output " +
                                (dir / "m.npy").string());
    REQUIRE_MESSAGE(cols.code == 0, cols.out);
    const std::string mb = slurp(dir / "m.npy");
    CHECK(mb.find("'descr': '<f4'") != std::string::npos);
    CHECK(mb.find("'shape': (7,)") != std::string::npos);
    CHECK(mb.size() % 64 == 7 * 4 % 64);
    // --format json names the first results (all 7 here, no note), the values --output wrote.
    const CliRun cols_json = run_cli("reduce --op mean --type f32 --axis cols --shape 100x7 --iterations 1 --format json");
    REQUIRE_MESSAGE(cols_json.code == 0, cols_json.out);
    const nlohmann::json cj = nlohmann::json::parse(cols_json.stdout_text);
    REQUIRE(cj.at("first_results").at("values").size() == 7);
    CHECK_FALSE(cj.at("first_results").contains("note"));
    CHECK(cj.at("results") == 7);
    const std::string m_values = mb.substr(mb.size() - 7 * 4);
    for (std::size_t k = 0; k < 7; ++k) {
      const std::string shown = cj["first_results"]["values"][k];
      CHECK_MESSAGE(std::stof(shown) == load<float>(reinterpret_cast<const unsigned char*>(m_values.data()) + 4 * k),
                    "column " << k << ": " << shown);
    }
    CHECK(cj.at("result") == cj["first_results"]["values"][0]);
    // 37 rows: the first 16, and a note saying where the rest are.
    const CliRun rows_json = run_cli(args + " --format json");
    REQUIRE_MESSAGE(rows_json.code == 0, rows_json.out);
    const nlohmann::json rj = nlohmann::json::parse(rows_json.stdout_text);
    CHECK(rj.at("first_results").at("values").size() == 16);
    CHECK(rj["first_results"]["values"][0] == std::to_string(v0) + " @ " + std::to_string(i0));
    CHECK(rj["first_results"].at("note") == "the first 16 of 37 results: --output FILE writes them all");
    {
      std::ofstream(dir / "seg.txt") << "0 3 3 10\n";
    }
    const CliRun seg = run_cli("reduce --op minmax --type u8 --segments " + (dir / "seg.txt").string() +
                               " --iterations 1 --output " + (dir / "s.bin").string());
    REQUIRE_MESSAGE(seg.code == 0, seg.out);
    CHECK(slurp(dir / "s.bin").size() == 3 * 2);  // pair<u8>: 3 segments, the empty one (255, 0)
    CHECK(slurp(dir / "s.bin").substr(2, 2) == std::string("\xff\x00", 2));
    // Never over a file: an existing name (the earlier output, or an input) is refused before any
    // work, and the file is untouched.
    const CliRun again = run_cli(args + " --output " + (dir / "a.bin").string());
    CHECK(again.code != 0);
    CHECK_MESSAGE(again.out.find("exists") != std::string::npos, again.out);
    CHECK(slurp(dir / "a.bin") == rb);
    const CliRun dirout = run_cli(args + " --output " + dir.string());
    CHECK(dirout.code != 0);
    CHECK_MESSAGE(dirout.out.find("directory") != std::string::npos, dirout.out);
    // --binary: the launch's program as the driver built it, to a new file; never over a file.
    const CliRun bin = run_cli("reduce --op var_pop --type f16 --axis cols --shape 33x9 --iterations 1 --binary " +
                               (dir / "cols.bin").string());
    REQUIRE_MESSAGE(bin.code == 0, bin.out);
    const std::string program = slurp(dir / "cols.bin");
    CHECK(program.size() > 64);
    const CliRun bin_again = run_cli("reduce --op sum --type f16 --n 100 --iterations 1 --binary " + (dir / "cols.bin").string());
    CHECK(bin_again.code == 2);
    CHECK_MESSAGE(bin_again.stderr_text.find("--binary: cannot write '" + (dir / "cols.bin").string() +
                                             "': it exists; --binary makes a new file and replaces one only with "
                                             "--force") != std::string::npos,
                  bin_again.out);
    CHECK(slurp(dir / "cols.bin") == program);
    // With --force it is replaced.
    const CliRun bin_force = run_cli("reduce --op sum --type f16 --n 100 --iterations 1 --force --binary " +
                                     (dir / "cols.bin").string());
    REQUIRE_MESSAGE(bin_force.code == 0, bin_force.out);
    CHECK(slurp(dir / "cols.bin").size() > 64);
    CHECK(slurp(dir / "cols.bin") != program);  // the whole-array kernel's program now
    const CliRun same = run_cli("reduce --op sum --type f16 --n 100 --iterations 1 --binary " + (dir / "x").string() +
                                " --output " + (dir / "x").string());
    CHECK(same.code == 2);
    CHECK_MESSAGE(same.stderr_text.find("it is --output too") != std::string::npos, same.out);
    CHECK_FALSE(fs::exists(dir / "x"));
  }

  TEST_CASE("host forms: rows, columns and segments of host memory give the buffer forms' bits; their refusals") {
    AxisReducer red = make_axis_reducer();
    SegmentedReducer seg = make_segmented_reducer();
    std::mt19937_64 g(seed() ^ 0x51);
    const MatrixShape shape{37, 45, 48};  // padded: the host pointers hold shape.span() elements
    const std::uint64_t span = shape.span();
    const Column a = make_column(S::F16, span, g, Fill::Random), b = make_column(S::F16, span, g, Fill::Random);
    const std::vector<Input> in = {Input{upload(a), 0}, Input{upload(b), 0}};
    const std::vector<const void*> host = {a.bytes.data(), b.bytes.data()};
    const Reduction dot = builtin(B::Dot, S::F16);
    const auto same_bits = [](const std::vector<Result>& got, const std::vector<Result>& want) {
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CAPTURE(i);
        CHECK(got[i].bytes == want[i].bytes);
      }
    };
    for (Axis axis : {Axis::Rows, Axis::Cols}) {
      CAPTURE(name_of(axis));
      same_bits(red.reduce(dot, host, axis, shape), red.reduce(dot, in, axis, shape));
    }
    // Segments: empty ones first, between and last; the offsets given on the host.
    const std::vector<std::uint64_t> offsets = {0, 0, 1, 300, 300, 1001, span, span};
    const cl::Buffer offs = upload_offsets<std::uint64_t>(offsets);
    const Reduction var = builtin(B::VarSample, S::F16);
    same_bits(seg.reduce(var, {a.bytes.data()}, span, offsets),
              seg.reduce(var, {in[0]}, span, Segments::offsets<std::uint64_t>(offs, offsets.size() - 1)));
    same_bits(seg.reduce(dot, host, span, offsets),
              seg.reduce(dot, in, span, Segments::offsets<std::uint64_t>(offs, offsets.size() - 1)));
    refused([&] { red.reduce(dot, {a.bytes.data(), nullptr}, Axis::Rows, shape); }, Param::Buffer,
            "host pointer of input 1");
    refused([&] { red.reduce(dot, {a.bytes.data()}, Axis::Rows, shape); }, Param::Buffer, "takes 2 input(s); 1 given");
    refused([&] { red.reduce(dot, host, Axis::Rows, MatrixShape{5, 8, 6}); }, Param::Shape, "overlap");
    refused([&] { seg.reduce(dot, host, span, {0, 5}); }, Param::Segments, "not n");
    refused([&] { seg.reduce(dot, host, span, std::vector<std::uint64_t>{}); }, Param::Segments, "S + 1 >= 2");
    refused([&] { seg.reduce(var, std::vector<const void*>{nullptr}, span, offsets); }, Param::Buffer, "is null");
  }

  TEST_CASE("the families' refusals name the parameter") {
    AxisReducer red = make_axis_reducer();
    const Reduction sum = builtin(B::Sum, S::F32);
    const Column c(S::F32, 100);
    const std::vector<Input> in = {Input{upload(c), 0}};
    refused([&] { red.reduce(sum, in, Axis::Rows, MatrixShape{0, 5, 0}); }, Param::Shape, "at least one row");
    refused([&] { red.reduce(sum, in, Axis::Rows, MatrixShape{5, 8, 6}); }, Param::Shape, "overlap");
    refused([&] { red.reduce(sum, in, Axis::Cols, MatrixShape{10, 10, 11}); }, Param::Buffer, "too few");
    refused([&] { red.reduce(builtin(B::Dot, S::F32), in, Axis::Rows, MatrixShape{10, 10, 0}); }, Param::Buffer,
            "takes 2 input");
    SegmentedReducer seg = make_segmented_reducer();
    const cl::Buffer offs = upload_offsets<std::uint32_t>({0, 50, 100});
    CHECK(seg.reduce(sum, in, 100, Segments::offsets<std::uint32_t>(offs, 2)).size() == 2);
    refused([&] { seg.reduce(sum, in, 100, Segments::offsets<std::uint32_t>(offs, 3)); }, Param::Segments,
            "too few for 3 segments");
    refused([&] { seg.reduce(sum, in, 100, Segments::offsets<std::uint32_t>(offs, 0)); }, Param::Segments,
            "at least one");
    refused([&] { seg.reduce(sum, in, 100, Segments{Segments::Kind::Offsets, offs, cl::Buffer(), S::F32, 2}); },
            Param::Segments, "u32, u64, i32, i64");
    refused([&] { seg.reduce(sum, in, 101, Segments::offsets<std::uint32_t>(offs, 2)); }, Param::Buffer, "too few");
    // u64 offsets read as u32 would be wrong silently; typed, the same bytes are 4 u32 offsets of
    // which the kernel clamps each into [0, n]: never a read outside the input.
    const cl::Buffer wide = upload_offsets<std::uint64_t>({0, 50, 100});
    const std::vector<Result> r = seg.reduce(sum, in, 100, Segments::offsets<std::uint64_t>(wide, 2));
    CHECK(r.size() == 2);
  }
}
