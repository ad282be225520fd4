// Reduction descriptors (clreduce/reduction.hpp): the element types, the built-ins as data, and the
// OpenCL C header a descriptor becomes.
//
// Every built-in is written here once, as the pieces of a descriptor (map, accumulator, combine,
// finish): the generic kernels never name an operator, so a new built-in is one case below.
#include "clreduce/reduction.hpp"

#include "core/number_text.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace clreduce {

// ---- element types ------------------------------------------------------------------------------
namespace {
struct ScalarInfo {
  Scalar s;
  const char* name;
  const char* numpy;
  std::size_t bytes;
  bool floating, is_signed;
  const char* storage;  // the OpenCL C type of the buffer's elements
  const char* compute;  // the OpenCL C type an element is read into
  const char* lowest;   // the compute type's lowest and highest values (min/max identities)
  const char* highest;
  const char* unsigned_same;  // integers: the unsigned type of the same width
};
const ScalarInfo kScalars[] = {
    {Scalar::U8, "u8", "uint8", 1, false, false, "uchar", "uchar", "((uchar)0)", "((uchar)UCHAR_MAX)", "uchar"},
    {Scalar::I8, "i8", "int8", 1, false, true, "char", "char", "((char)CHAR_MIN)", "((char)CHAR_MAX)", "uchar"},
    {Scalar::U16, "u16", "uint16", 2, false, false, "ushort", "ushort", "((ushort)0)", "((ushort)USHRT_MAX)", "ushort"},
    {Scalar::I16, "i16", "int16", 2, false, true, "short", "short", "((short)SHRT_MIN)", "((short)SHRT_MAX)", "ushort"},
    {Scalar::U32, "u32", "uint32", 4, false, false, "uint", "uint", "0u", "UINT_MAX", "uint"},
    {Scalar::I32, "i32", "int32", 4, false, true, "int", "int", "INT_MIN", "INT_MAX", "uint"},
    {Scalar::U64, "u64", "uint64", 8, false, false, "ulong", "ulong", "0ul", "ULONG_MAX", "ulong"},
    {Scalar::I64, "i64", "int64", 8, false, true, "long", "long", "LONG_MIN", "LONG_MAX", "ulong"},
    {Scalar::F16, "f16", "float16", 2, true, true, "half", "float", "(-INFINITY)", "INFINITY", ""},
    {Scalar::BF16, "bf16", "bfloat16", 2, true, true, "ushort", "float", "(-INFINITY)", "INFINITY", ""},
    {Scalar::F32, "f32", "float32", 4, true, true, "float", "float", "(-INFINITY)", "INFINITY", ""},
    {Scalar::F64, "f64", "float64", 8, true, true, "double", "double", "(-INFINITY)", "INFINITY", ""},
};
const ScalarInfo& info(Scalar s) { return kScalars[static_cast<int>(s)]; }
}  // namespace

const std::vector<Scalar>& all_scalars() {
  static const std::vector<Scalar> v = [] {
    std::vector<Scalar> out;
    for (const auto& i : kScalars) out.push_back(i.s);
    return out;
  }();
  return v;
}
std::string_view name_of(Scalar s) { return info(s).name; }
std::size_t size_of(Scalar s) { return info(s).bytes; }
bool is_floating(Scalar s) { return info(s).floating; }
bool is_signed(Scalar s) { return info(s).is_signed; }
std::string_view compute_type(Scalar s) { return info(s).compute; }

Scalar parse_scalar(std::string_view text) {
  for (const auto& i : kScalars)
    if (text == i.name || text == i.numpy) return i.s;
  if (text == "uint") return Scalar::U32;
  if (text == "int") return Scalar::I32;
  if (text == "float") return Scalar::F32;
  if (text == "double") return Scalar::F64;
  std::vector<std::string> names;
  for (const auto& i : kScalars) names.emplace_back(i.name);
  const std::string valid = join(names) + " (or NumPy's names: uint8 .. float64, float16, bfloat16; or uint, int, float, double)";
  throw Error(Param::Type, "unknown type '" + std::string(text) + "'; valid types: " + valid, valid);
}

Scalar to_scalar(ElemType t) {
  switch (t) {
    case ElemType::Uint: return Scalar::U32;
    case ElemType::Int: return Scalar::I32;
    case ElemType::Float: return Scalar::F32;
    case ElemType::Double: return Scalar::F64;
  }
  return Scalar::U32;
}
std::optional<ElemType> to_elem_type(Scalar s) {
  switch (s) {
    case Scalar::U32: return ElemType::Uint;
    case Scalar::I32: return ElemType::Int;
    case Scalar::F32: return ElemType::Float;
    case Scalar::F64: return ElemType::Double;
    default: return std::nullopt;
  }
}

// ---- f16 and bf16 by their bit layout -------------------------------------------------------------
float f16_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  float f;
  if (exp == 0) {
    f = std::ldexp(static_cast<float>(mant), -24);  // zero or subnormal: mant * 2^-24, exact
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    b |= sign;
    std::memcpy(&f, &b, 4);
    return f;
  }
  std::uint32_t bits;
  if (exp == 31) bits = sign | 0x7f800000u | (mant << 13) | (mant ? 0x00400000u : 0u);  // inf, NaN (quiet)
  else bits = sign | ((exp + 112u) << 23) | (mant << 13);
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_f16(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  const std::uint32_t abs = b & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to inf (>= 65520)
  if (abs < 0x38800000u) {
    // Below the smallest normal (2^-14): a subnormal of 2^-24 units, rounded to nearest even.
    float a;
    std::memcpy(&a, &abs, 4);
    const float units = std::nearbyint(a * 16777216.0f);  // a * 2^24, exact; the default mode rounds to even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
  }
  // Normal: drop 13 mantissa bits, rounding to nearest even; a carry moves into the exponent.
  const std::uint32_t rebased = abs - (112u << 23);
  const std::uint32_t round = ((rebased >> 13) & 1u) + 0xfffu;
  return static_cast<std::uint16_t>(sign | ((rebased + round) >> 13));
}

float bf16_to_float(std::uint16_t bits) {
  const std::uint32_t b = static_cast<std::uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((b >> 16) | 0x0040u);  // NaN stays NaN
  const std::uint32_t round = ((b >> 16) & 1u) + 0x7fffu;
  return static_cast<std::uint16_t>((b + round) >> 16);
}

// ---- results --------------------------------------------------------------------------------------
std::size_t ResultLayout::bytes() const {
  switch (kind) {
    case Kind::Value: return size_of(type);
    case Kind::Arg: return 16;
    case Kind::Pair: return 2 * size_of(type);
  }
  return 0;
}
std::string ResultLayout::str() const {
  const std::string t(name_of(type));
  switch (kind) {
    case Kind::Value: return t;
    case Kind::Arg: return "argvalue<" + t + ">";
    case Kind::Pair: return "pair<" + t + ">";
  }
  return t;
}

namespace {
// The value of `type` at p as a double, and as text (exact for integers).
double scalar_double(Scalar t, const unsigned char* p) {
  auto rd = [&](auto x) {
    std::memcpy(&x, p, sizeof x);
    return static_cast<double>(x);
  };
  switch (t) {
    case Scalar::U8: return rd(std::uint8_t{});
    case Scalar::I8: return rd(std::int8_t{});
    case Scalar::U16: return rd(std::uint16_t{});
    case Scalar::I16: return rd(std::int16_t{});
    case Scalar::U32: return rd(std::uint32_t{});
    case Scalar::I32: return rd(std::int32_t{});
    case Scalar::U64: return rd(std::uint64_t{});
    case Scalar::I64: return rd(std::int64_t{});
    case Scalar::F16: { std::uint16_t h; std::memcpy(&h, p, 2); return f16_to_float(h); }
    case Scalar::BF16: { std::uint16_t h; std::memcpy(&h, p, 2); return bf16_to_float(h); }
    case Scalar::F32: return rd(float{});
    case Scalar::F64: return rd(double{});
  }
  return 0;
}
std::string scalar_text(Scalar t, const unsigned char* p) {
  auto txt = [&](auto x) -> std::string {
    std::memcpy(&x, p, sizeof x);
    using X = decltype(x);
    if constexpr (std::is_floating_point_v<X>) {
      return float_text(x);
    } else {
      return std::to_string(static_cast<std::conditional_t<std::is_signed_v<X>, long long, unsigned long long>>(x));
    }
  };
  switch (t) {
    case Scalar::U8: return txt(std::uint8_t{});
    case Scalar::I8: return txt(std::int8_t{});
    case Scalar::U16: return txt(std::uint16_t{});
    case Scalar::I16: return txt(std::int16_t{});
    case Scalar::U32: return txt(std::uint32_t{});
    case Scalar::I32: return txt(std::int32_t{});
    case Scalar::U64: return txt(std::uint64_t{});
    case Scalar::I64: return txt(std::int64_t{});
    case Scalar::F16:
    case Scalar::BF16: return float_text(static_cast<float>(scalar_double(t, p)));
    case Scalar::F32: return txt(float{});
    case Scalar::F64: return txt(double{});
  }
  return "?";
}
}  // namespace

Result Result::from_bytes(const ResultLayout& layout, const void* p) {
  Result r;
  r.layout = layout;
  std::memcpy(r.bytes.data(), p, layout.bytes());
  return r;
}
double Result::value() const { return scalar_double(layout.type, bytes.data()); }
double Result::second() const {
  if (layout.kind != ResultLayout::Kind::Pair)
    throw Error(Param::Op, "Result::second() of a " + layout.str() + " result: only a pair has a second value", "pair");
  return scalar_double(layout.type, bytes.data() + size_of(layout.type));
}
std::uint64_t Result::index() const {
  if (layout.kind != ResultLayout::Kind::Arg)
    throw Error(Param::Op, "Result::index() of a " + layout.str() + " result: only argmin/argmax carry an index", "argvalue");
  std::uint64_t i;
  std::memcpy(&i, bytes.data() + 8, 8);
  return i;
}
std::uint64_t Result::as_u64() const {
  if (is_floating(layout.type))
    throw Error(Param::Type, "Result::as_u64() of a " + layout.str() + " result: a float has no exact integer value", "an integer type");
  std::uint64_t v = 0;
  std::memcpy(&v, bytes.data(), size_of(layout.type));
  if (is_signed(layout.type) && size_of(layout.type) < 8) {  // sign-extend
    const unsigned bits = 8 * static_cast<unsigned>(size_of(layout.type));
    if (v >> (bits - 1)) v |= ~std::uint64_t{0} << bits;
  }
  return v;
}
std::int64_t Result::as_i64() const { return static_cast<std::int64_t>(as_u64()); }
std::string Result::str() const {
  switch (layout.kind) {
    case ResultLayout::Kind::Value: return scalar_text(layout.type, bytes.data());
    case ResultLayout::Kind::Arg:  // of nothing (an empty segment) the index is UINT64_MAX: "none"
      return scalar_text(layout.type, bytes.data()) + " @ " +
             (index() == ~std::uint64_t{0} ? std::string("none") : std::to_string(index()));
    case ResultLayout::Kind::Pair:
      return "(" + scalar_text(layout.type, bytes.data()) + ", " +
             scalar_text(layout.type, bytes.data() + size_of(layout.type)) + ")";
  }
  return "?";
}
void Result::check_size(std::size_t b) const {
  if (b != size_of(layout.type))
    throw Error(Param::Type, "Result::get<T>() with a " + std::to_string(b) + "-byte T for a " + layout.str() +
                                 " result (" + std::to_string(size_of(layout.type)) + "-byte values)",
                std::string(name_of(layout.type)));
}

// ---- built-ins ------------------------------------------------------------------------------------
const std::vector<Builtin>& all_builtins() {
  static const std::vector<Builtin> v{
      Builtin::Sum, Builtin::SumWrap, Builtin::Min, Builtin::Max, Builtin::ArgMin, Builtin::ArgMax,
      Builtin::MinMax, Builtin::Mean, Builtin::NanMean, Builtin::VarPop, Builtin::VarSample, Builtin::StdPop,
      Builtin::StdSample, Builtin::CountNonzero, Builtin::Any, Builtin::All, Builtin::NanSum, Builtin::NanMin,
      Builtin::NanMax, Builtin::L1, Builtin::L2, Builtin::LInf, Builtin::Dot, Builtin::SqDist, Builtin::SumSq};
  return v;
}
std::string_view name_of(Summation s) { return s == Summation::Exact ? "exact" : "default"; }

std::string_view name_of(Builtin b) {
  switch (b) {
    case Builtin::Sum: return "sum";
    case Builtin::SumWrap: return "sum_wrap";
    case Builtin::Min: return "min";
    case Builtin::Max: return "max";
    case Builtin::ArgMin: return "argmin";
    case Builtin::ArgMax: return "argmax";
    case Builtin::MinMax: return "minmax";
    case Builtin::Mean: return "mean";
    case Builtin::NanMean: return "nanmean";
    case Builtin::VarPop: return "var_pop";
    case Builtin::VarSample: return "var_sample";
    case Builtin::StdPop: return "std_pop";
    case Builtin::StdSample: return "std_sample";
    case Builtin::CountNonzero: return "count_nonzero";
    case Builtin::Any: return "any";
    case Builtin::All: return "all";
    case Builtin::NanSum: return "nansum";
    case Builtin::NanMin: return "nanmin";
    case Builtin::NanMax: return "nanmax";
    case Builtin::L1: return "l1";
    case Builtin::L2: return "l2";
    case Builtin::LInf: return "linf";
    case Builtin::Dot: return "dot";
    case Builtin::SqDist: return "sqdist";
    case Builtin::SumSq: return "sumsq";
  }
  return "?";
}
Builtin parse_builtin(std::string_view text) {
  std::vector<std::string> names;
  for (Builtin b : all_builtins()) {
    if (name_of(b) == text) return b;
    names.emplace_back(name_of(b));
  }
  throw Error(Param::Op, "unknown operator '" + std::string(text) + "'; valid operators: " + join(names), join(names));
}
unsigned builtin_inputs(Builtin b) { return b == Builtin::Dot || b == Builtin::SqDist ? 2u : 1u; }

bool Reduction::operator==(const Reduction& o) const {
  return name == o.name && inputs == o.inputs && scalars == o.scalars && map_type == o.map_type && map == o.map &&
         prelude == o.prelude && acc_type == o.acc_type && acc_bytes == o.acc_bytes && identity == o.identity &&
         lift == o.lift && combine == o.combine && combine_vector == o.combine_vector && lift_vector == o.lift_vector &&
         lift_input_vector == o.lift_input_vector && lanes_type == o.lanes_type &&
         lanes_identity == o.lanes_identity && lanes_fold == o.lanes_fold && lanes_unpack == o.lanes_unpack && lanes_meet == o.lanes_meet && fold == o.fold && finish == o.finish &&
         out_type == o.out_type && out == o.out && exact == o.exact && builtin == o.builtin && origin == o.origin &&
         summation == o.summation;
}

bool Reduction::needs_fp64() const {
  auto f64 = [](Scalar s) { return s == Scalar::F64; };
  for (Scalar s : inputs)
    if (f64(s)) return true;
  for (Scalar s : scalars)
    if (f64(s)) return true;
  return f64(out.type) || acc_type.find("double") != std::string::npos ||
         prelude.find("double") != std::string::npos;
}

namespace {
// The accumulating float type of a built-in that computes in floats: double for f64 inputs or
// when asked for, else float.
struct FloatAcc {
  Scalar s;
  std::string c;  // "float" or "double"
};
FloatAcc float_acc(Scalar t, bool f64) {
  if (f64 || t == Scalar::F64) return {Scalar::F64, "double"};
  return {Scalar::F32, "float"};
}
// The result type of min/max-like built-ins: the element type, f16 and bf16 as f32 (exact).
Scalar value_type(Scalar t) { return t == Scalar::F16 || t == Scalar::BF16 ? Scalar::F32 : t; }

// OpenCL C that folds the private array `a` of VEC values (VEC a power of two) pairwise into a[0]:
// a[c] = COMBINE(a[c], a[c + w]) for w = 1, 2, 4, ..., the left operand always the lower-indexed
// half. A vector's values in a tree, not a chain: log2(VEC) dependent steps instead of VEC - 1, and
// no branch; the columns' BLOCK lifts (bench/NOTES.md, columns of 16-bit structs) wait on them.
std::string pairwise(const std::string& a, const std::string& combine_expr, const std::string& indent = "  ") {
  return indent + "for (uint w_ = 1; w_ < VEC; w_ <<= 1)\n" + indent + "  for (uint c_ = 0; c_ < VEC; c_ += 2 * w_) " + a +
         "[c_] = " + combine_expr + ";\n";
}

// The square of an 8- or 16-bit integer `x` in 32 unsigned bits (65535^2 < 2^32; in int it would
// overflow for u16), widened to 64 for 16-bit types, whose sums of 16 squares pass 2^32.
std::string narrow_square(const ScalarInfo& ti, const std::string& x) {
  const std::string sq = ti.is_signed ? "(uint)((int)" + x + " * (int)" + x + ")" : "(uint)" + x + " * (uint)" + x;
  return ti.bytes == 1 ? sq : "(ulong)(" + sq + ")";
}

Reduction sum_of(const std::string& name, Scalar t, bool f64, const std::string& x_expr) {
  // x_expr: the mapped term in terms of X (replaced by the converted element)
  Reduction r;
  r.name = name;
  r.inputs = {t};
  if (is_floating(t) || f64) {
    const FloatAcc f = float_acc(t, f64);
    r.map_type = r.acc_type = r.out_type = f.c;
    r.acc_bytes = size_of(f.s);
    r.identity = "(" + f.c + ")0";
    r.out = {ResultLayout::Kind::Value, f.s};
  } else {
    r.map_type = r.acc_type = "ulong";  // signed sums on the same bits: two's complement, no overflow UB
    r.out_type = is_signed(t) ? "long" : "ulong";
    r.acc_bytes = 8;
    r.identity = "0ul";
    r.out = {ResultLayout::Kind::Value, is_signed(t) ? Scalar::I64 : Scalar::U64};
    r.exact = true;
  }
  r.map = x_expr;
  r.lift = "v";
  r.combine = "a + b";
  r.finish = "(" + r.out_type + ")a";
  return r;
}

// The plain sum of 8- and 16-bit integers (sum, nansum, mean): each vector of VEC elements added in
// 32 bits (16 x 65535 < 2^32, so nothing wraps), then one 64-bit add, instead of a 64-bit add (two
// instructions, carried) per element. u8 sums read at 87.6-89.7% of the H100's read peak with the
// 64-bit adds, where sumsq of u8 (one 64-bit multiply-add per element) read at 94.4%.
// The same for any term of at most 16 bits (l1's |x|, count_nonzero's x != 0): `term` in x0 as a
// 32-bit `w`, widened to the 64-bit accumulator by `widen`.
void sum_terms_in_32_bits(Reduction& r, const std::string& w, const std::string& term, const std::string& widen) {
  r.map_type = w;
  r.map = term;
  r.lift = widen + "v";
  r.prelude = "#if VEC > 1\nulong desc_sum32_vector(const DESC_MAPV v) {\n  desc_vec_u u;\n  u.v = v;\n  " + w +
              " s = 0;\n  for (uint c = 0; c < VEC; ++c) s += u.a[c];\n  return " + widen + "s;\n}\n#endif\n";
  r.lift_vector = "desc_sum32_vector(v)";
}
void sum_narrow_in_32_bits(Reduction& r, const ScalarInfo& ti) {
  const std::string w = ti.is_signed ? "int" : "uint";
  sum_terms_in_32_bits(r, w, "(" + w + ")x0", ti.is_signed ? "(ulong)(long)" : "(ulong)");
}

// The names of an OpenCL vector's components 0..15 (v.s0 .. v.sf), for generated code.
const char* const kComponents[16] = {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
                                     "s8", "s9", "sa", "sb", "sc", "sd", "se", "sf"};

// count_nonzero of 8- and 16-bit integers read as 32-bit words: a lane (byte or half-word) of w is
// nonzero exactly when its top bit is set in w | ((w & low) + low), where low is each lane's 7 or
// 15 low bits (their sum with 0x7F or 0x7FFF carries into the top bit when any is set, and never
// out of the lane), so one word's count is a popcount of those top bits: five operations for four
// bytes, against a compare, a select and an add for each. A u8 vector of 2 is one 16-bit word,
// zero-extended (its upper lanes are zero: they count 0).
void count_nonzero_in_words(Reduction& r, const ScalarInfo& ti) {
  const bool bytes = ti.bytes == 1;
  const std::string low = bytes ? "0x7F7F7F7Fu" : "0x7FFF7FFFu", top = bytes ? "0x80808080u" : "0x80008000u";
  std::ostringstream p;
  p << "#if VEC > 1\nuint desc_nonzero_lanes(const uint w) {\n  return popcount((w | ((w & " << low << ") + " << low
    << ")) & " << top << ");\n}\nulong desc_count_nonzero_vector(const DESC_CAT(" << ti.compute << ", VEC) x) {\n";
  for (unsigned vec : {2u, 4u, 8u, 16u}) {
    const unsigned words = (vec * static_cast<unsigned>(ti.bytes) + 3) / 4;
    p << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n";
    if (vec * ti.bytes == 2) {
      p << "  return (ulong)desc_nonzero_lanes((uint)as_ushort(x));\n";
      continue;
    }
    const std::string n = words > 1 ? std::to_string(words) : "";
    p << "  const uint" << n << " w = as_uint" << n << "(x);\n  return (ulong)(";
    for (unsigned k = 0; k < words; ++k)
      p << (k ? " + " : "") << "desc_nonzero_lanes(w" << (words > 1 ? std::string(".") + kComponents[k] : "") << ")";
    p << ");\n";
  }
  p << "#endif\n}\n#endif\n";
  r.prelude += p.str();
  r.lift_input_vector = "desc_count_nonzero_vector(x)";
}

// The sum of the elements themselves (sum, nansum, mean): sum_of, with 8- and 16-bit integers
// added in 32 bits per vector.
Reduction element_sum(const std::string& name, Scalar t, bool f64, const std::string& x_expr) {
  Reduction r = sum_of(name, t, f64, x_expr);
  const ScalarInfo& ti = info(t);
  if (!ti.floating && !f64 && ti.bytes <= 2) sum_narrow_in_32_bits(r, ti);
  return r;
}
}  // namespace

namespace {
// The built-ins exact summation applies to, and those of them that sum products (squares count).
bool sums_exactly(Builtin b) {
  return b == Builtin::Sum || b == Builtin::Mean || b == Builtin::Dot || b == Builtin::SumSq || b == Builtin::L2;
}
bool sums_products(Builtin b) { return b == Builtin::Dot || b == Builtin::SumSq || b == Builtin::L2; }
// The exact accumulator (kernels_cl/exact_sum.clh) of one term kind: where its digits start and
// how many a sum of up to 2^64 terms of the largest magnitude needs (32 x DIGITS - 1 bits above
// LOW: the top term's bit plus 64 plus the sign), each term's three digits (six for a product of
// doubles) inside them.
struct ExactLayout {
  int term;     // EXACT_TERM
  int low;      // EXACT_LOW
  int digits;   // EXACT_DIGITS
};
ExactLayout exact_layout(bool product, bool f64) {
  // float: bits 2^-149 .. 2^128; double: 2^-1074 .. 2^1024; their products twice as wide.
  if (!product) return f64 ? ExactLayout{2, -1074, 68} : ExactLayout{1, -149, 11};
  return f64 ? ExactLayout{4, -2148, 134} : ExactLayout{3, -298, 20};
}
}  // namespace

bool exact_available(Builtin b, Scalar t) { return sums_exactly(b) && is_floating(t); }

unsigned exact_digits(const Reduction& r) {
  if (r.summation != Summation::Exact || !r.builtin || r.inputs.empty()) return 0;
  return static_cast<unsigned>(exact_layout(sums_products(*r.builtin), r.inputs.front() == Scalar::F64).digits);
}

std::string accumulator_str(const Reduction& r) {
  if (r.summation != Summation::Exact || !r.builtin || r.inputs.empty()) return r.acc_type;
  const ExactLayout x = exact_layout(sums_products(*r.builtin), r.inputs.front() == Scalar::F64);
  return "exact (a fixed point of " + std::to_string(x.digits) + " 32-bit digits from 2^" + std::to_string(x.low) + ")";
}

namespace {

Reduction exact_builtin(Builtin b, Scalar t, std::optional<Scalar> accumulate) {
  const std::string name(name_of(b));
  if (!exact_available(b, t)) {
    if (sums_exactly(b))
      throw Error(Param::Type,
                  "exact " + name + " of " + std::string(name_of(t)) +
                      ": exact summation takes floats (an integer sum is exact in 64 bits already); valid: f16, bf16, f32, f64",
                  "f16, bf16, f32, f64");
    throw Error(Param::Op, "exact summation does not apply to " + name + "; valid: sum, mean, dot, sumsq, l2",
                "sum, mean, dot, sumsq, l2");
  }
  const bool f64_in = t == Scalar::F64;
  bool f64_out = f64_in;
  if (accumulate) {
    if (*accumulate == Scalar::F64) f64_out = true;
    else if (!(*accumulate == Scalar::F32 && !f64_in))
      throw Error(Param::Op, "exact " + name + " of " + std::string(name_of(t)) + " rounds to f64" +
                                 (f64_in ? "" : " or f32") + ", not " + std::string(name_of(*accumulate)),
                  f64_in ? "f64" : "f32, f64");
  }
  const bool product = sums_products(b);
  const ExactLayout x = exact_layout(product, f64_in);
  const int result = b == Builtin::Mean ? 2 : b == Builtin::L2 ? 3 : 1;
  Reduction r;
  r.name = name;
  r.inputs = std::vector<Scalar>(b == Builtin::Dot ? 2 : 1, t);
  std::ostringstream p;
  p << "#define EXACT_TERM " << x.term << "\n#define EXACT_LOW " << x.low << "\n#define EXACT_DIGITS " << x.digits
    << "\n#define EXACT_RESULT " << result << "\n#define EXACT_OUT_F64 " << (f64_out ? 1 : 0)
    << "\n#include \"exact_sum.clh\"\n";
  r.prelude = p.str();
  const std::string s = f64_in ? "double" : "float";
  r.map_type = product ? s + "2" : s;
  r.map = b == Builtin::Dot ? "(" + s + "2)(x0, x1)" : product ? "(" + s + "2)(x0, x0)" : "x0";
  r.acc_type = "exact_acc";
  r.acc_bytes = 8 * static_cast<std::size_t>(x.digits) + 24;
  r.identity = "exact_identity()";
  r.lift = "exact_fold(exact_identity(), v)";
  r.fold = "exact_fold_in(a, v);";
  r.combine = "exact_combine(a, b)";
  r.finish = "exact_finish(a, n)";
  r.out_type = "exact_out";
  r.out = {ResultLayout::Kind::Value, f64_out ? Scalar::F64 : Scalar::F32};
  r.exact = true;  // the same bits from any order: a check compares bits
  r.builtin = b;
  r.summation = Summation::Exact;
  return r;
}
}  // namespace

Reduction builtin_of(Op op, ElemType type) {
  switch (op) {
    case Op::Sum: return builtin(Builtin::SumWrap, to_scalar(type));
    case Op::Min: return builtin(Builtin::Min, to_scalar(type));
    case Op::Max: return builtin(Builtin::Max, to_scalar(type));
    case Op::ArgMin: return builtin(Builtin::ArgMin, to_scalar(type));
    case Op::ArgMax: return builtin(Builtin::ArgMax, to_scalar(type));
    case Op::User: break;
  }
  throw Error(Param::Op, "operator " + std::string(name_of(op)) + " is a user's operator file, not a reduction descriptor; "
                         "valid: sum, min, max, argmin, argmax", "sum, min, max, argmin, argmax");
}

Reduction builtin(Builtin b, Scalar t, std::optional<Scalar> accumulate, Summation summation) {
  if (summation == Summation::Exact) return exact_builtin(b, t, accumulate);
  const ScalarInfo& ti = info(t);
  const std::string ct = ti.compute;
  const bool fl = ti.floating;
  const bool f64_acc_ok = b == Builtin::Sum || b == Builtin::NanSum || b == Builtin::Mean || b == Builtin::NanMean ||
                          b == Builtin::VarPop || b == Builtin::VarSample || b == Builtin::StdPop ||
                          b == Builtin::StdSample || b == Builtin::L2 || b == Builtin::Dot || b == Builtin::SqDist || b == Builtin::SumSq ||
                          (b == Builtin::L1 && fl);
  bool f64 = false;
  if (accumulate) {
    if (*accumulate == Scalar::F64 && f64_acc_ok) f64 = true;
    else if (!(accumulate == Scalar::F32 && fl && t != Scalar::F64 && f64_acc_ok))
      throw Error(Param::Op, std::string(name_of(b)) + " of " + ti.name + " does not accumulate in " +
                                 std::string(name_of(*accumulate)) +
                                 (f64_acc_ok ? "; valid: f64 (or f32 for f16, bf16, f32)" : "; it takes no accumulator choice"),
                  f64_acc_ok ? "f64" : "");
  }
  const FloatAcc fa = float_acc(t, f64);
  const std::string F = fa.c;
  const std::string name(name_of(b));
  // The element, converted for a sum: to the float accumulator, or to 64-bit integer bits.
  const std::string x_sum = (fl || f64) ? "(" + F + ")x0" : (ti.is_signed ? "(ulong)(long)x0" : "(ulong)x0");
  Reduction r;
  switch (b) {
    case Builtin::Sum:
      r = element_sum(name, t, f64, x_sum);
      break;
    case Builtin::NanSum:
      r = element_sum(name, t, f64, fl ? "isnan(x0) ? (" + F + ")0 : (" + F + ")x0" : x_sum);
      break;
    case Builtin::SumWrap:
      if (fl) {
        r = sum_of(name, t, f64, x_sum);
      } else {
        const std::string u = ti.unsigned_same;
        r.name = name;
        r.inputs = {t};
        r.map_type = r.acc_type = u;
        r.acc_bytes = ti.bytes;
        r.map = "(" + u + ")x0";
        r.identity = "(" + u + ")0";
        r.lift = "v";
        r.combine = "(" + u + ")(a + b)";
        r.out_type = ti.storage;
        r.finish = "(" + r.out_type + ")a";
        r.out = {ResultLayout::Kind::Value, t};
        r.exact = true;
      }
      break;
    case Builtin::Min:
    case Builtin::Max:
    case Builtin::NanMin:
    case Builtin::NanMax: {
      if (accumulate) throw Error(Param::Op, name + " takes no accumulator choice", "");
      const bool is_min = b == Builtin::Min || b == Builtin::NanMin;
      r.name = name;
      r.inputs = {t};
      r.map_type = r.acc_type = r.out_type = ct;
      r.acc_bytes = ti.bytes == 2 && fl ? 4 : ti.bytes;
      r.map = "x0";
      r.lift = "v";
      // fmin/fmax: a NaN loses to a number, and NaN is their identity (all NaN stays NaN).
      r.identity = fl ? "(" + ct + ")NAN" : (is_min ? ti.highest : ti.lowest);
      r.combine = std::string(fl ? (is_min ? "fmin" : "fmax") : (is_min ? "min" : "max")) + "(a, b)";
      // Nothing to reduce (an empty segment): the infinity, as an integer's highest or lowest and
      // as the Op path's segments give it (all NaN stays NaN).
      r.finish = fl ? std::string("(n == 0 ? (") + ct + ")(" + (is_min ? "INFINITY" : "-INFINITY") + ") : a)" : "a";
      r.out = {ResultLayout::Kind::Value, value_type(t)};
      r.exact = true;
      if (fl) {
        // A vector's VEC values met lane-wise in halves (VEC 16: 8, 4, 2, then 1 combine), so a
        // vector costs log2(VEC) dependent combines rather than VEC: on a CPU device, whose
        // fmin/fmax is several instructions long, the chain of VEC of them bounded the whole loop.
        const std::string f = is_min ? "fmin" : "fmax";
        r.prelude = "#if VEC > 1\n" + ct + " desc_tree(const DESC_MAPV v) {\n"
                    "#if VEC == 16\n  const " + ct + "8 t8 = " + f + "(v.lo, v.hi);\n  const " + ct + "4 t4 = " + f + "(t8.lo, t8.hi);\n"
                    "#elif VEC == 8\n  const " + ct + "4 t4 = " + f + "(v.lo, v.hi);\n"
                    "#elif VEC == 4\n  const " + ct + "4 t4 = v;\n#endif\n"
                    "#if VEC >= 4\n  const " + ct + "2 t2 = " + f + "(t4.lo, t4.hi);\n#else\n  const " + ct + "2 t2 = v;\n#endif\n"
                    "  return " + f + "(t2.x, t2.y);\n}\n#endif\n";
        r.lift_vector = "desc_tree(v)";
      }
      break;
    }
    case Builtin::ArgMin:
    case Builtin::ArgMax: {
      const bool is_min = b == Builtin::ArgMin;
      const std::size_t vb = fl ? (t == Scalar::F64 ? 8 : 4) : ti.bytes;
      std::ostringstream p;
      if (!fl) {
        // Integers: the pair as a ulong2 (the value's bits widened, sign-extended for signed types,
        // then the index), laid out as ArgValue: the value's bytes at offset 0, the index at 8.
        // A struct of integers passed by value reads wrong on Mesa's Rusticl (llvmpipe): an int
        // pair's second field came back as the first (2026-11-27).
        const std::string lt = ti.is_signed ? "(long)" : "";
        p << "typedef ulong2 desc_arg;\n"
          << "desc_arg desc_arg_make(const " << ct << " v, const ulong i) {\n  return (ulong2)((ulong)" << lt
          << "v, i);\n}\n"
          << "// Whether a goes before b: the " << (is_min ? "lower" : "higher")
          << " value, equal values by the lower index. Bitwise, without branches.\n"
          << "int desc_arg_before(const desc_arg a, const desc_arg b) {\n";
        // A value of 32 bits or fewer compared in 32 bits: the widened bits' low half is the value.
        const std::string vt = ti.bytes <= 4 ? (ti.is_signed ? "(int)" : "(uint)") : lt;
        p << "  return (" << vt << "a.x " << (is_min ? "<" : ">") << " " << vt << "b.x) | ((" << vt << "a.x == " << vt
          << "b.x) & (a.y < b.y));\n}\n";
      } else {
      // The value at offset 0, the index at 8; the bytes between are named fields set to 0, so no
      // byte of a pair in memory is undefined.
      p << "typedef struct {\n  " << ct << " v;\n";
      if (vb == 1) p << "  uchar p1;\n";
      if (vb <= 2) p << "  ushort p2;\n";
      if (vb <= 4) p << "  uint p4;\n";
      p << "  ulong i;\n} desc_arg;\n"
        << "desc_arg desc_arg_make(const " << ct << " v, const ulong i) {\n  desc_arg p;\n  p.v = v;\n";
      if (vb == 1) p << "  p.p1 = 0;\n";
      if (vb <= 2) p << "  p.p2 = 0;\n";
      if (vb <= 4) p << "  p.p4 = 0;\n";
      p << "  p.i = i;\n  return p;\n}\n"
        << "// Whether a goes before b: a NaN before any number (the first NaN wins), else the "
        << (is_min ? "lower" : "higher") << " value, equal values by the lower index. Bitwise, without\n"
        << "// branches: a fold's loads then follow one another, where an early return put a branch\n"
        << "// between each element's load and the next (bench/NOTES.md, descriptor columns).\n"
        << "int desc_arg_before(const desc_arg a, const desc_arg b) {\n";
      // `ahead`: a better than b, or either a NaN (the negated comparison is true when unordered);
      // it counts where b is a number. `tie`: equal numbers, or both NaN: the lower index. Four
      // comparisons, where an isnan of each side and three more took about twice the instructions
      // (each column's block pays one combine: bench/NOTES.md, columns of 16-bit structs).
      p << "  const int b_num = isordered(b.v, b.v) != 0;\n"
        << "  const int ahead = !(a.v " << (is_min ? ">=" : "<=") << " b.v);\n"
        << "  const int tie = (a.v == b.v) | ((isunordered(a.v, a.v) != 0) & !b_num);\n"
        << "  return (ahead & b_num) | (tie & (a.i < b.i));\n}\n";
      }
      // The right one of a pair replaces the left only when strictly before it: the left (lower
      // index) keeps equals and a NaN; a NaN on the right takes a number's place. For floats,
      // !(left >= right) (argmax) holds where the right is better or either is a NaN, and the left
      // being a number keeps a NaN there: two comparisons, where an isnan of each side and a third
      // took five.
      const std::string cmp = is_min ? "<" : ">";
      const std::string take = fl ? "((isordered(b[c_], b[c_]) != 0) & !(b[c_] " + std::string(is_min ? "<=" : ">=") +
                                        " b[c_ + w_]))"
                                  : "(b[c_ + w_] " + cmp + " b[c_])";
      p << "#if VEC > 1\n";
      if (!fl && ti.bytes <= 2) {
        // 8- and 16-bit integers: each element and its place as one 32-bit key, the value (offset to
        // unsigned order) above 4 bits of place, ordered so that the better key is the better pair
        // (argmax: the place counted down, so equal values keep the first). One max or min per
        // element, then the value and the place read back out of the best key: about three
        // instructions an element where the pair's selects took six (VEC <= 16: 4 bits of place).
        const std::string off = ti.is_signed ? (ti.bytes == 1 ? " + 128" : " + 32768") : "";
        const std::string undo = ti.is_signed ? (ti.bytes == 1 ? " - 128" : " - 32768") : "";
        p << "#if VEC > 16\n#error \"argmin/argmax of 8- and 16-bit integers: VEC up to 16\"\n#endif\n"
          << "desc_arg desc_arg_vector(const DESC_MAPV v, const ulong i) {\n"
          << "  desc_vec_u u;\n  u.v = v;\n  uint k[VEC];\n"
          << "  for (uint c = 0; c < VEC; ++c) k[c] = ((uint)((int)u.a[c]" << off << ") << 4) | "
          << (is_min ? "c" : "(15u - c)") << ";\n"
          << pairwise("k", std::string(is_min ? "min" : "max") + "(k[c_], k[c_ + w_])")
          << "  return desc_arg_make((" << ct << ")((int)(k[0] >> 4)" << undo << "), i + "
          << (is_min ? "(k[0] & 15u)" : "(15u - (k[0] & 15u))") << ");\n}\n#endif\n";
      } else {
        p << "// A vector's best element by value alone (the first of equals, the first NaN), one pair: a\n"
        << "// tree of selects over the elements and their places.\n"
        << "desc_arg desc_arg_vector(const DESC_MAPV v, const ulong i) {\n"
        << "  desc_vec_u u;\n  u.v = v;\n  " << ct << " b[VEC];\n  uint at[VEC];\n"
        << "  for (uint c = 0; c < VEC; ++c) {\n    b[c] = u.a[c];\n    at[c] = c;\n  }\n"
        << "  for (uint w_ = 1; w_ < VEC; w_ <<= 1)\n    for (uint c_ = 0; c_ < VEC; c_ += 2 * w_) {\n"
        << "      const int take = " << take << ";\n"
        << "      b[c_] = take ? b[c_ + w_] : b[c_];\n      at[c_] = take ? at[c_ + w_] : at[c_];\n    }\n"
        << "  return desc_arg_make(b[0], i + at[0]);\n}\n#endif\n";
      }
      // The lanes as vectors (lanes_state): VEC values and their indices, each lane folded as the
      // combine above folds one more pair (the same comparisons lane-wise, a mask of the value's
      // width), then each lane unpacked into a pair. A CPU's columns keep them in SIMD registers
      // where an array of VEC pairs stayed scalar code.
      const std::string mt =
          std::string(ti.bytes == 1 ? "char" : ti.bytes == 2 && !fl ? "short" : ti.bytes == 8 ? "long" : "int");
      const std::string vv = "DESC_CAT(" + ct + ", VEC)", mv = "DESC_CAT(" + mt + ", VEC)";
      // DESC_ARG_STEP(W, LV, LI, V, IV): W lanes of pairs (LV, LI) each take the pair (V, IV) where
      // it goes before theirs, as desc_arg_before says; the fold at W = VEC, and the halves of the
      // lanes' meeting at W = VEC / 2, ..., 2.
      // The indices in 32 bits where the kernel's LANES_INDEX32 says every index of the launch is
      // below UINT_MAX (the empty lane's mark): half the width of the selects that move them, and
      // one mask width for 32-bit values (PoCL, 2 cores, argmax of f32, i32 and u8 columns and rows
      // of 1024 x 1024 and 4096 x 256: 10-20% faster, bench/NOTES.md).
      p << "#if VEC > 1\n// VEC lanes of pairs: their values and their indices as vectors.\n"
        << "#if defined(LANES_INDEX32) && LANES_INDEX32\n#define DESC_ARG_LI uint\n#define DESC_ARG_LMASK int\n"
        << "#define DESC_ARG_LNONE UINT_MAX\n#else\n#define DESC_ARG_LI ulong\n#define DESC_ARG_LMASK long\n"
        << "#define DESC_ARG_LNONE ULONG_MAX\n#endif\n"
        << "#define DESC_ARG_PLACE(x) ((x) == DESC_ARG_LNONE ? ULONG_MAX : (ulong)(x))\n"
        << "typedef struct {\n  " << vv << " v;\n  DESC_CAT(DESC_ARG_LI, VEC) i;\n} desc_arg_lanes;\n"
        << "desc_arg_lanes desc_arg_lanes_identity(void) {\n  desc_arg_lanes l;\n  l.v = (" << vv << ")("
        << (is_min ? ti.highest : ti.lowest) << ");\n  l.i = (DESC_CAT(DESC_ARG_LI, VEC))(DESC_ARG_LNONE);\n  return l;\n}\n"
        << "#define DESC_ARG_STEP(W, LV, LI, V, IV) do { \\\n"
        << "  const DESC_CAT(" << mt << ", W) earlier_ = DESC_CAT(convert_, DESC_CAT(" << mt << ", W))((IV) < (LI)); \\\n";
      if (fl)
        p << "  const DESC_CAT(" << mt << ", W) old_num_ = isordered((LV), (LV)); \\\n"
          << "  const DESC_CAT(" << mt << ", W) take_ = (!((V) " << (is_min ? ">=" : "<=")
          << " (LV)) & old_num_) | ((((V) == (LV)) | (isunordered((V), (V)) & ~old_num_)) & earlier_); \\\n";
      else
        p << "  const DESC_CAT(" << mt << ", W) take_ = ((V) " << (is_min ? "<" : ">")
          << " (LV)) | (((V) == (LV)) & earlier_); \\\n";
      p << "  (LV) = select((LV), (V), take_); \\\n"
        << "  (LI) = select((LI), (IV), DESC_CAT(convert_, DESC_CAT(DESC_ARG_LMASK, W))(take_)); \\\n} while (0)\n";
      // The lanes met in a tree of halves (lane c with lane c + W, W = VEC / 2, ..., 1): the same
      // pairs as the kernels' tree over the unpacked lanes, whole vectors at a time.
      const std::string v8 = "DESC_CAT(" + ct + ", 8)", v4 = "DESC_CAT(" + ct + ", 4)", v2 = "DESC_CAT(" + ct + ", 2)";
      p << "desc_arg desc_arg_lanes_meet(const __private desc_arg_lanes* L) {\n"
        << "#if VEC == 16\n  " << v8 << " v8 = L->v.lo;\n  DESC_CAT(DESC_ARG_LI, 8) i8 = L->i.lo;\n"
        << "  DESC_ARG_STEP(8, v8, i8, L->v.hi, L->i.hi);\n"
        << "  " << v4 << " v4 = v8.lo;\n  DESC_CAT(DESC_ARG_LI, 4) i4 = i8.lo;\n  DESC_ARG_STEP(4, v4, i4, v8.hi, i8.hi);\n"
        << "#elif VEC == 8\n  " << v4 << " v4 = L->v.lo;\n  DESC_CAT(DESC_ARG_LI, 4) i4 = L->i.lo;\n"
        << "  DESC_ARG_STEP(4, v4, i4, L->v.hi, L->i.hi);\n"
        << "#elif VEC == 4\n  " << v4 << " v4 = L->v;\n  DESC_CAT(DESC_ARG_LI, 4) i4 = L->i;\n#endif\n"
        << "#if VEC >= 4\n  " << v2 << " v2 = v4.lo;\n  DESC_CAT(DESC_ARG_LI, 2) i2 = i4.lo;\n  DESC_ARG_STEP(2, v2, i2, v4.hi, i4.hi);\n"
        << "#else\n  " << v2 << " v2 = L->v;\n  DESC_CAT(DESC_ARG_LI, 2) i2 = L->i;\n#endif\n"
        << "  const desc_arg a = desc_arg_make(v2.x, DESC_ARG_PLACE(i2.x)), b = desc_arg_make(v2.y, DESC_ARG_PLACE(i2.y));\n"
        << "  return desc_arg_before(b, a) ? b : a;\n}\n#endif\n";
      r.lanes_type = "desc_arg_lanes";
      r.lanes_identity = "desc_arg_lanes_identity()";
      r.lanes_fold = "  DESC_ARG_STEP(VEC, L->v, L->i, v, DESC_CAT(convert_, DESC_CAT(DESC_ARG_LI, VEC))(iv));\n";
      r.lanes_meet = "desc_arg_lanes_meet(L)";
      r.lanes_unpack = "  union {\n    " + vv + " v;\n    " + ct +
                       " a[VEC];\n  } values;\n  union {\n    DESC_CAT(DESC_ARG_LI, VEC) v;\n    DESC_ARG_LI a[VEC];\n  } places;\n"
                       "  values.v = L->v;\n  places.v = L->i;\n"
                       "  for (uint c = 0; c < VEC; ++c) acc[c] = desc_arg_make(values.a[c], DESC_ARG_PLACE(places.a[c]));\n";
      r.name = name;
      r.inputs = {t};
      r.prelude = p.str();
      r.map_type = ct;
      r.map = "x0";
      r.acc_type = r.out_type = "desc_arg";
      r.acc_bytes = 16;
      r.identity = std::string("desc_arg_make(") + (is_min ? ti.highest : ti.lowest) + ", ULONG_MAX)";
      r.lift = "desc_arg_make(v, i)";
      r.combine = "desc_arg_before(b, a) ? b : a";
      r.lift_vector = "desc_arg_vector(v, i)";
      r.finish = "a";
      r.out = {ResultLayout::Kind::Arg, value_type(t)};
      r.exact = true;
      break;
    }
    case Builtin::MinMax: {
      // The pair as a vector of two (lo in .x, hi in .y: the Pair layout). 8- and 16-bit integers
      // pair up in int (uint) while they fold and narrow in the finish. A struct pair read wrong on
      // Rusticl (integers: the second field came back as the first) and a struct of two chars or
      // shorts does not run on Oclgrind 21.10 (llvm.experimental.noalias.scope.decl).
      const bool narrow = !fl && ti.bytes < 4;
      const std::string at = narrow ? (ti.is_signed ? "int" : "uint") : ct;
      const std::string mn = fl ? "fmin" : "min", mx = fl ? "fmax" : "max";
      r.name = name;
      r.inputs = {t};
      r.map_type = ct;
      r.map = "x0";
      r.acc_type = at + "2";
      r.out_type = ct + "2";
      r.acc_bytes = 2 * (fl ? (t == Scalar::F64 ? 8 : 4) : std::max<std::size_t>(ti.bytes, 4));
      r.identity = fl ? "(" + at + "2)(NAN, NAN)" : "(" + at + "2)(" + ti.highest + ", " + ti.lowest + ")";
      r.lift = "(" + at + "2)(v, v)";
      r.combine = "(" + at + "2)(" + mn + "(a.x, b.x), " + mx + "(a.y, b.y))";
      r.finish = narrow ? "convert_" + ct + "2(a)" : "a";
      if (fl) r.finish = "(n == 0 ? (" + ct + "2)(INFINITY, -INFINITY) : " + r.finish + ")";  // as min and max
      r.out = {ResultLayout::Kind::Pair, value_type(t)};
      r.exact = true;
      break;
    }
    case Builtin::Mean:
      // 8- to 32-bit integers: the exact 64-bit sum, divided once. 64-bit integers would wrap it,
      // so they accumulate in the float type as floats do.
      if (!fl && ti.bytes == 8 && !f64) {
        r = sum_of(name, Scalar::F32, false, "(float)x0");
        r.inputs = {t};
        r.out = {ResultLayout::Kind::Value, Scalar::F32};
        r.finish = "a / (float)n";
        break;
      }
      r = element_sum(name, t, f64, x_sum);
      r.out_type = F;
      r.out = {ResultLayout::Kind::Value, fa.s};
      r.exact = false;
      r.finish = fl || f64 ? "a / (" + F + ")n" : "(" + F + ")(" + (ti.is_signed ? "(long)a" : "a") + ") / (" + F + ")n";
      break;
    case Builtin::NanMean: {
      if (!fl) {
        r = builtin(Builtin::Mean, t, accumulate);
        r.name = name;
        break;
      }
      std::ostringstream p;
      p << "typedef struct {\n  " << F << " s;\n" << (F == "float" ? "  uint pad; // always 0\n" : "")
        << "  ulong c;\n} desc_nanmean;\n"
        << "desc_nanmean desc_nanmean_make(const " << F << " s, const ulong c) {\n  desc_nanmean m;\n  m.s = s;\n"
        << (F == "float" ? "  m.pad = 0;\n" : "") << "  m.c = c;\n  return m;\n}\n"
        << "#if VEC > 1\n"
        << "// A vector's numbers and their count, both summed pairwise: one combine (and one 64-bit add)\n"
        << "// for VEC elements, where each element paid its own (a column of nanmean read 56% of the\n"
        << "// H200's read peak where the other sums read 93%: bench/NOTES.md).\n"
        << "desc_nanmean desc_nanmean_vector(const DESC_MAPV v) {\n"
        << "  desc_vec_u u;\n  u.v = v;\n  " << F << " s[VEC];\n  uint k[VEC];\n"
        << "  for (uint c = 0; c < VEC; ++c) {\n    k[c] = isnan(u.a[c]) == 0;\n    s[c] = k[c] ? u.a[c] : (" << F
        << ")0;\n  }\n"
        << pairwise("s", "s[c_] + s[c_ + w_]") << pairwise("k", "k[c_] + k[c_ + w_]")
        << "  return desc_nanmean_make(s[0], k[0]);\n}\n#endif\n";
      r.name = name;
      r.inputs = {t};
      r.prelude = p.str();
      r.map_type = F;
      r.map = "(" + F + ")x0";
      r.acc_type = "desc_nanmean";
      r.acc_bytes = 16;
      r.identity = "desc_nanmean_make(0, 0)";
      r.lift = "isnan(v) ? desc_nanmean_make(0, 0) : desc_nanmean_make(v, 1)";
      r.combine = "desc_nanmean_make(a.s + b.s, a.c + b.c)";
      r.lift_vector = "desc_nanmean_vector(v)";
      r.out_type = F;
      r.finish = "a.s / (" + F + ")a.c";  // 0 / 0: NaN when every element is
      r.out = {ResultLayout::Kind::Value, fa.s};
      break;
    }
    case Builtin::VarPop:
    case Builtin::VarSample:
    case Builtin::StdPop:
    case Builtin::StdSample: {
      std::ostringstream p;
      p << "// Welford's running (count, mean, M2), two of them combined by Chan's formula (a lift is\n"
        << "// one element: the combine is then Welford's update).\n"
        << "typedef struct {\n  ulong n;\n  " << F << " mean, m2;\n} desc_welford;\n"
        << "desc_welford desc_welford_make(const ulong n, const " << F << " mean, const " << F << " m2) {\n"
        << "  desc_welford w;\n  w.n = n;\n  w.mean = mean;\n  w.m2 = m2;\n  return w;\n}\n"
        << "// An empty side gives the other as it is. Selected, not branched to: a fold's next load then\n"
        << "// need not wait behind this element's branch (bench/NOTES.md, descriptor columns).\n"
        << "desc_welford desc_welford_combine(const desc_welford a, const desc_welford b) {\n"
        << "  const ulong n = a.n + b.n;\n"
        << "  const " << F << " d = b.mean - a.mean, fb = (" << F << ")b.n / (" << F << ")max(n, (ulong)1);\n"
        << "  // d^2 na nb / n as (d nb / n)(d na): no product passes the range where the term does not.\n"
        << "  const desc_welford m = desc_welford_make(n, a.mean + d * fb, a.m2 + b.m2 + (d * fb) * (d * (" << F
        << ")a.n));\n"
        << "  return a.n == 0 ? b : b.n == 0 ? a : m;\n}\n";
      // 8- and 16-bit integers: the elements stay integers until the block is summed, so no element
      // is converted to float (a u8 var read 58% of the H200's read peak converting each).
      const bool narrow = !fl && ti.bytes <= 2;
      if (narrow) {
        // The block's sum and sum of squares in integers, exact for VEC <= 16 (8-bit: in 32 bits;
        // 16-bit: squares in 32, sums in 64), then M2 = (VEC sum(x^2) - sum(x)^2) / VEC: one
        // rounding, where the float two passes rounded at every element.
        const std::string it = ti.bytes == 1 ? "int" : "long", ut = ti.bytes == 1 ? "uint" : "ulong";
        p << "#if VEC > 1\n#if VEC > 16\n#error \"var/std of 8- and 16-bit integers: VEC up to 16\"\n#endif\n"
          << "// A vector's VEC integers as one block: their sum and sum of squares exact in integers.\n"
          << "desc_welford desc_welford_vector(const DESC_MAPV v) {\n"
          << "  desc_vec_u u;\n  u.v = v;\n  " << it << " s[VEC];\n  " << ut << " q[VEC];\n"
          << "  for (uint c = 0; c < VEC; ++c) {\n    s[c] = u.a[c];\n    q[c] = " << narrow_square(ti, "u.a[c]") << ";\n  }\n"
          << pairwise("s", "s[c_] + s[c_ + w_]") << pairwise("q", "q[c_] + q[c_ + w_]")
          << "  const " << ut << " m2 = (" << ut << ")VEC * q[0] - (" << ut << ")(s[0] * s[0]);  // never negative\n"
          << "  return desc_welford_make(VEC, (" << F << ")s[0] * ((" << F << ")1 / VEC), (" << F << ")m2 * ((" << F
          << ")1 / VEC));\n}\n#endif\n";
      } else {
        p << "#if VEC > 1\n"
          << "// A vector's VEC values as one block: their mean and M2 by two passes in registers, so one\n"
          << "// combine (and its division) serves VEC elements.\n"
          << "// The mean sums the elements scaled by 1 / VEC (a power of two: exact), so VEC values near the\n"
          << "// type's largest do not overflow on the way to their mean.\n"
          << "// Both sums pairwise (a tree, not a chain of VEC adds).\n"
          << "desc_welford desc_welford_vector(const DESC_MAPV v) {\n"
          << "  desc_vec_u u;\n  u.v = v;\n  " << F << " s[VEC];\n"
          << "  for (uint c = 0; c < VEC; ++c) s[c] = u.a[c] * ((" << F << ")1 / VEC);\n"
          << pairwise("s", "s[c_] + s[c_ + w_]") << "  const " << F << " mean = s[0];\n"
          << "  for (uint c = 0; c < VEC; ++c) {\n    const " << F << " d = u.a[c] - mean;\n    s[c] = d * d;\n  }\n"
          << pairwise("s", "s[c_] + s[c_ + w_]")
          << "  return desc_welford_make(VEC, mean, s[0]);\n}\n#endif\n";
      }
      const bool sample = b == Builtin::VarSample || b == Builtin::StdSample;
      const bool root = b == Builtin::StdPop || b == Builtin::StdSample;
      r.name = name;
      r.inputs = {t};
      r.prelude = p.str();
      r.map_type = narrow ? ct : F;
      r.map = narrow ? std::string("x0") : "(" + F + ")x0";
      r.acc_type = "desc_welford";
      r.acc_bytes = 8 + 2 * size_of(fa.s);
      r.identity = "desc_welford_make(0, 0, 0)";
      r.lift = narrow ? "desc_welford_make(1, (" + F + ")v, 0)"
                      : "desc_welford_make(1, v, v - v)";  // M2 0, or NaN for a NaN or an infinity
      r.combine = "desc_welford_combine(a, b)";
      r.lift_vector = "desc_welford_vector(v)";
      r.out_type = F;
      // An empty input (an empty segment): M2 0 over n 0, NaN (the sample's n - 1 would wrap).
      const std::string var = sample ? "(a.n == 0 ? (" + F + ")NAN : a.m2 / (" + F + ")(a.n - 1))"
                                     : "a.m2 / (" + F + ")a.n";
      r.finish = root ? "sqrt(" + var + ")" : var;
      r.out = {ResultLayout::Kind::Value, fa.s};
      break;
    }
    case Builtin::CountNonzero:
      r.name = name;
      r.inputs = {t};
      r.map_type = r.acc_type = r.out_type = "ulong";
      r.acc_bytes = 8;
      r.map = "(ulong)(x0 != 0)";  // a NaN is != 0: it counts, as in NumPy
      r.identity = "0ul";
      r.lift = "v";
      r.combine = "a + b";
      r.finish = "a";
      r.out = {ResultLayout::Kind::Value, Scalar::U64};
      r.exact = true;
      // Each vector's count in 32 bits, one 64-bit add (a u8 count read 72% of the H200's read peak
      // with a 64-bit add an element).
      sum_terms_in_32_bits(r, "uint", "(uint)(x0 != 0)", "(ulong)");
      // 8- and 16-bit integers: the zero tests of a 32-bit word's lanes at once, from the loaded
      // bits (a compare and a select per byte held u8 at 78% of the H200's read peak).
      if (!fl && ti.bytes <= 2) count_nonzero_in_words(r, ti);
      break;
    case Builtin::Any:
    case Builtin::All:
      r.name = name;
      r.inputs = {t};
      r.map_type = r.acc_type = "uint";
      r.acc_bytes = 4;
      r.map = "(uint)(x0 != 0)";
      r.identity = b == Builtin::Any ? "0u" : "1u";
      r.lift = "v";
      r.combine = b == Builtin::Any ? "a | b" : "a & b";
      r.out_type = "uchar";
      r.finish = "(uchar)a";
      r.out = {ResultLayout::Kind::Value, Scalar::U8};
      r.exact = true;
      break;
    case Builtin::L1:
      r = sum_of(name, t, f64, fl || f64 ? "fabs((" + F + ")x0)" : "(ulong)abs(x0)");
      // 8- and 16-bit integers: |x| < 2^16, so 16 of them add in 32 bits (a u8 l1 read 79% of the
      // H200's read peak with a 64-bit add an element).
      if (!fl && !f64 && ti.bytes <= 2) sum_terms_in_32_bits(r, "uint", "(uint)abs(x0)", "(ulong)");
      if (!fl && !f64) {
        r.out_type = "ulong";
        r.out = {ResultLayout::Kind::Value, Scalar::U64};
      }
      break;
    case Builtin::L2: {
      std::ostringstream p;
      p << "// The scaled sum of squares (LAPACK's nrm2): the norm is scale * sqrt(ssq), each term\n"
        << "// (x / scale)^2 <= 1, so no square overflows or underflows before its time.\n"
        << "typedef struct {\n  " << F << " scale, ssq;\n} desc_l2;\n"
        << "desc_l2 desc_l2_make(const " << F << " scale, const " << F << " ssq) {\n  desc_l2 s;\n"
        << "  s.scale = scale;\n  s.ssq = ssq;\n  return s;\n}\n"
        << "// Values whose magnitude lies in [DESC_L2_LO, DESC_L2_HI] are summed squared with scale 1, the\n"
        << "// common case, at the cost of a plain sum of squares: their squares, 2^32 of them, neither\n"
        << "// overflow nor lose more than u of the total to underflow. Others take a scale of their own.\n"
        << "#define DESC_L2_LO " << (F == "float" ? "0x1.0p-40f" : "0x1.0p-400") << "\n"
        << "#define DESC_L2_HI " << (F == "float" ? "0x1.0p+40f" : "0x1.0p+400") << "\n"
        << "desc_l2 desc_l2_lift(const " << F << " v) {\n"
        << "  if (isnan(v)) return desc_l2_make(v, 1);\n"
        << "  const " << F << " m = fabs(v);\n"
        << "  if (m >= DESC_L2_LO && m <= DESC_L2_HI) return desc_l2_make(1, v * v);\n"
        << "  return v == 0 ? desc_l2_make(0, 0) : desc_l2_make(m, 1);\n}\n"
        << "desc_l2 desc_l2_combine(desc_l2 a, desc_l2 b) {\n"
        << "  if (a.scale == b.scale) return desc_l2_make(a.scale, a.ssq + b.ssq);  // scale 1: the common case\n"
        << "  if (isnan(a.scale)) return a;\n  if (isnan(b.scale)) return b;\n"
        << "  if (a.scale < b.scale) {\n    const desc_l2 t = a;\n    a = b;\n    b = t;\n  }\n"
        << "  if (b.scale == 0) return a;\n"
        << "  const " << F << " q = a.scale == b.scale ? (" << F << ")1 : b.scale / a.scale;  // inf / inf\n"
        << "  return desc_l2_make(a.scale, a.ssq + b.ssq * q * q);\n}\n";
      // 8- and 16-bit integers: every nonzero magnitude lies in [DESC_L2_LO, DESC_L2_HI] (scale 1),
      // so a vector's sum of squares is exact in integers (16 x 65535^2 < 2^36) and converted once:
      // no element converted, scaled or compared (a u8 l2 read 56% of the H200's read peak).
      const bool narrow = !fl && ti.bytes <= 2;
      if (narrow) {
        const std::string ut = ti.bytes == 1 ? "uint" : "ulong";
        p << "#if VEC > 1\n#if VEC > 16\n#error \"l2 of 8- and 16-bit integers: VEC up to 16\"\n#endif\n"
          << "// A vector's VEC integers: their squares summed exactly in integers, scale 1 (0 for all zeros).\n"
          << "desc_l2 desc_l2_vector(const DESC_MAPV v) {\n  desc_vec_u u;\n  u.v = v;\n  " << ut << " q[VEC];\n"
          << "  for (uint c = 0; c < VEC; ++c) q[c] = " << narrow_square(ti, "u.a[c]") << ";\n"
          << pairwise("q", "q[c_] + q[c_ + w_]") << "  return q[0] == 0 ? desc_l2_make(0, 0) : desc_l2_make(1, (" << F
          << ")q[0]);\n}\n#endif\n";
      } else {
        p << "#if VEC > 1\n"
          << "// A vector's VEC values at once: its largest magnitude as the scale, one reciprocal.\n"
          << "desc_l2 desc_l2_vector(const DESC_MAPV v) {\n"
          << "  desc_vec_u u;\n  u.v = v;\n  " << F << " s[VEC];\n"
          << "  for (uint c = 0; c < VEC; ++c) s[c] = fabs(u.a[c]);\n"
          << pairwise("s", "fmax(s[c_], s[c_ + w_])") << "  const " << F << " m = s[0];  // a NaN passed over here\n"
          << "  if (m >= DESC_L2_LO && m <= DESC_L2_HI) {  // and kept by the sum of squares\n"
          << "    for (uint c = 0; c < VEC; ++c) s[c] = u.a[c] * u.a[c];\n"
          << pairwise("s", "s[c_] + s[c_ + w_]", "    ") << "    return desc_l2_make(1, s[0]);\n  }\n"
          << "  for (uint c = 0; c < VEC; ++c)\n    if (isnan(u.a[c])) return desc_l2_make(NAN, 1);\n"
          << "  if (m == 0) return desc_l2_make(0, 0);\n"
          << "  if (isinf(m)) return desc_l2_make(m, 1);\n"
          << "  // 1 / m overflows for a subnormal m: divide then (the slow, rare path).\n"
          << "  const " << F << " r = (" << F << ")1 / m;\n  const int divide = isinf(r);\n  " << F << " ssq = 0;\n"
          << "  for (uint c = 0; c < VEC; ++c) {\n    const " << F << " q = divide ? u.a[c] / m : u.a[c] * r;\n"
          << "    ssq += q * q;\n  }\n"
          << "  return desc_l2_make(m, ssq);\n}\n#endif\n";
      }
      r.name = name;
      r.inputs = {t};
      r.prelude = p.str();
      r.map_type = narrow ? ct : F;
      r.map = narrow ? std::string("x0") : "(" + F + ")x0";
      r.acc_type = "desc_l2";
      r.acc_bytes = 2 * size_of(fa.s);
      r.identity = "desc_l2_make(0, 0)";
      r.lift = narrow ? "desc_l2_lift((" + F + ")v)" : "desc_l2_lift(v)";
      r.combine = "desc_l2_combine(a, b)";
      r.lift_vector = "desc_l2_vector(v)";
      r.out_type = F;
      r.finish = "a.scale * sqrt(a.ssq)";
      r.out = {ResultLayout::Kind::Value, fa.s};
      break;
    }
    case Builtin::LInf:
      if (accumulate) throw Error(Param::Op, name + " takes no accumulator choice", "");
      r.name = name;
      r.inputs = {t};
      if (fl) {
        r.map_type = r.acc_type = r.out_type = ct;
        r.acc_bytes = t == Scalar::F64 ? 8 : 4;
        r.map = "fabs(x0)";
        r.identity = "(" + ct + ")NAN";  // fmax's identity: a NaN loses, all NaN gives NaN
        r.combine = "fmax(a, b)";
        r.out = {ResultLayout::Kind::Value, value_type(t)};
      } else {
        const std::string u = ti.unsigned_same;
        r.map_type = r.acc_type = r.out_type = u;
        r.acc_bytes = ti.bytes;
        r.map = "abs(x0)";  // OpenCL's abs of an integer is its unsigned magnitude: no overflow
        r.identity = "(" + u + ")0";
        r.combine = "max(a, b)";
        r.out = {ResultLayout::Kind::Value, is_signed(t) ? static_cast<Scalar>(static_cast<int>(t) - 1) : t};
      }
      r.lift = "v";
      r.finish = fl ? "(n == 0 ? (" + ct + ")0 : a)" : "a";  // of nothing: 0, as l1 and l2 (and integers)
      r.exact = true;
      break;
    case Builtin::Dot:
    case Builtin::SqDist: {
      std::string term;
      if (fl || f64) {
        term = b == Builtin::Dot ? "(" + F + ")x0 * (" + F + ")x1" : "desc_square((" + F + ")x0 - (" + F + ")x1)";
      } else if (b == Builtin::Dot) {
        // Products modulo 2^64 on unsigned bits: a signed product's bits are the same, without UB.
        term = ti.is_signed ? "(ulong)(long)x0 * (ulong)(long)x1" : "(ulong)x0 * (ulong)x1";
      } else if (ti.bytes < 8) {
        term = "desc_square_u((long)x0 - (long)x1)";  // |x0 - x1| < 2^32: its square fits 64 bits
      } else {
        term = ti.is_signed ? "desc_square_u((long)((ulong)x0 - (ulong)x1))" : "desc_square_u((long)(x0 - x1))";
      }
      r = sum_of(name, t, f64, term);
      r.inputs = {t, t};
      if (b == Builtin::SqDist) {
        if (fl || f64) {
          r.prelude = F + " desc_square(const " + F + " d) { return d * d; }\n";
        } else {
          r.prelude = "ulong desc_square_u(const long d) { return (ulong)d * (ulong)d; }\n";
          r.out_type = "ulong";
          r.out = {ResultLayout::Kind::Value, Scalar::U64};
        }
      }
      break;
    }
    case Builtin::SumSq:
      // dot's term with one input: integers modulo 2^64 on unsigned bits (no signed overflow),
      // and a sum of squares is never negative: u64 for signed inputs too (as sqdist).
      r = sum_of(name, t, f64,
                 fl || f64 ? "(" + F + ")x0 * (" + F + ")x0"
                           : ti.is_signed ? "(ulong)(long)x0 * (ulong)(long)x0" : "(ulong)x0 * (ulong)x0");
      if (!fl && !f64) {
        r.out_type = "ulong";
        r.finish = "a";
        r.out = {ResultLayout::Kind::Value, Scalar::U64};
      }
      break;
  }
  r.builtin = b;
  return r;
}

// ---- the generated header ------------------------------------------------------------------------------
namespace {
// How a kernel reads element k of input j (from its offset) into the compute type.
std::string read_expr(Scalar s, unsigned j) {
  const std::string p = "in" + std::to_string(j), off = "off" + std::to_string(j);
  switch (s) {
    case Scalar::F16: return "vload_half((k) + " + off + ", " + p + ")";
    case Scalar::BF16: return "as_float((uint)" + p + "[(k) + " + off + "] << 16)";
    default: return p + "[(k) + " + off + "]";
  }
}
// Per input j: DESC_RAW<tag>j_AT(e) and DESC_LOAD<tag>j_AT(e), the `width` (a macro's name)
// elements from element e of input j, raw and read into the compute type (a multiple of width
// where ALIGNED, loaded through a vector pointer; else vloadN, any e); f16 through
// desc_f16_widen<suffix>. Written for VEC (a vector of one input's consecutive elements) and for
// the columns kernel's BLOCK (DESC_BLOCK_COLS consecutive columns of one row).
void write_vector_loads(std::ostream& s, const Reduction& r, const std::string& width, const std::string& tag,
                        const std::string& suffix) {
  for (unsigned j = 0; j < r.inputs.size(); ++j) {
    const ScalarInfo& in = info(r.inputs[j]);
    const std::string p = "in" + std::to_string(j) + " + off" + std::to_string(j);
    // The halves are read as one 16-byte ushort vector, then widened (desc_f16_widen): vload_halfN
    // from global memory reads them one by one on NVIDIA (77% of the H200's read peak, where bf16
    // read as ushort vectors reached 95%); widening them by their bit layout with selects cost
    // more (54%). bf16 is read as ushort too.
    const bool bits16 = r.inputs[j] == Scalar::F16 || r.inputs[j] == Scalar::BF16;
    const std::string storage = bits16 ? "ushort" : in.storage;
    const std::string ptr = bits16 ? "(__global const ushort*)(" + p + ")" : "(" + p + ")";
    const std::string raw = "DESC_RAW" + tag + std::to_string(j) + "_AT", load = "DESC_LOAD" + tag + std::to_string(j) + "_AT";
    s << "#if ALIGNED\n#define " << raw << "(e) ((__global const DESC_CAT(" << storage << ", " << width << ")*)(" << p
      << "))[(e) / " << width << "]\n#else\n#define " << raw << "(e) DESC_CAT(vload, " << width << ")(0, " << ptr
      << " + (e))\n#endif\n";
    if (r.inputs[j] == Scalar::F16)
      s << "#define " << load << "(e) desc_f16_widen" << suffix << "(" << raw << "(e))\n";
    else if (r.inputs[j] == Scalar::BF16)
      s << "#define " << load << "(e) DESC_CAT(as_float, " << width << ")(DESC_CAT(convert_uint, " << width << ")(" << raw
        << "(e)) << 16)\n";
    else
      s << "#define " << load << "(e) " << raw << "(e)\n";
  }
  if (std::find(r.inputs.begin(), r.inputs.end(), Scalar::F16) != r.inputs.end())
    // NVIDIA: each half converted by the hardware (PTX cvt.f32.f16) from the 16-byte load; elsewhere
    // vload_halfN from a private copy (exact for every pattern, as vload_half is).
    s << "DESC_CAT(float, " << width << ") desc_f16_widen" << suffix << "(const DESC_CAT(ushort, " << width << ") h) {\n"
      << "  union {\n    DESC_CAT(ushort, " << width << ") v;\n    ushort a[" << width << "];\n  } in;\n"
      << "  union {\n    DESC_CAT(float, " << width << ") v;\n    float a[" << width << "];\n  } out;\n  in.v = h;\n"
      << "#if NV_PTX\n  for (uint c = 0; c < " << width
      << "; ++c) __asm__(\"cvt.f32.f16 %0, %1;\" : \"=f\"(out.a[c]) : \"h\"(in.a[c]));\n"
      << "#else\n  out.v = DESC_CAT(vload_half, " << width << ")(0, (const half*)in.a);\n#endif\n"
      << "  return out.v;\n}\n";
}

}  // namespace

std::string vector_combine_of(const Reduction& r) {
  if (!r.combine_vector.empty()) return r.combine_vector;
  // These combines are as valid for OpenCL C's vectors as for its scalars (operators and the
  // built-in functions min, max, fmin, fmax take either), whoever wrote them: read off the combine
  // at each generation, so a copy of a built-in whose combine is changed never keeps a stale one.
  static const char* const kVectorCombines[] = {"a + b", "a | b", "a & b", "min(a, b)", "max(a, b)", "fmin(a, b)",
                                                "fmax(a, b)"};
  if (lanes_vector(r) &&
      std::find(std::begin(kVectorCombines), std::end(kVectorCombines), r.combine) != std::end(kVectorCombines))
    return r.combine;
  return "";
}

bool lanes_vector(const Reduction& r) {
  // The compute types of the element types are exactly OpenCL C's scalar arithmetic types.
  return r.fold.empty() && std::any_of(std::begin(kScalars), std::end(kScalars),
                                       [&](const ScalarInfo& i) { return r.acc_type == i.compute; });
}

bool lanes_state(const Reduction& r) { return !r.lanes_type.empty(); }

std::string reduction_source(const Reduction& r) {
  auto bad = [&](const std::string& why) {
    return Error(Param::Op, "reduction '" + r.name + "': " + why,
                 "1 to 4 inputs, 0 to 4 scalars, and every field (map, acc_type, identity, lift, combine, finish, out_type) set");
  };
  if (r.inputs.empty() || r.inputs.size() > 4) throw bad(std::to_string(r.inputs.size()) + " inputs; a reduction takes 1 to 4");
  if (r.scalars.size() > 4) throw bad(std::to_string(r.scalars.size()) + " scalars; a reduction takes at most 4");
  if (!r.lift_input_vector.empty() && r.inputs.size() != 1)
    throw bad("lift_input_vector reads one input's vector; this reduction has " + std::to_string(r.inputs.size()) +
              " inputs (leave it empty)");
  const std::pair<const char*, const std::string*> fields[] = {
      {"map_type", &r.map_type}, {"map", &r.map},           {"acc_type", &r.acc_type}, {"identity", &r.identity},
      {"lift", &r.lift},         {"combine", &r.combine},   {"finish", &r.finish},     {"out_type", &r.out_type}};
  for (const auto& [field, text] : fields)
    if (text->find_first_not_of(" \t\r\n") == std::string::npos) throw bad(std::string(field) + " is empty");
  if (r.acc_bytes == 0) throw bad("acc_bytes is 0; give sizeof(acc_type) on the device");
  {
    const bool given[] = {!r.lanes_type.empty(), !r.lanes_identity.empty(), !r.lanes_fold.empty(),
                          !r.lanes_unpack.empty()};
    const int count = given[0] + given[1] + given[2] + given[3];
    if (count != 0 && count != 4)
      throw bad("lanes_type, lanes_identity, lanes_fold and lanes_unpack are set together; " + std::to_string(count) +
                " of the four are set (give all four, or none)");
    if (count == 0 && !r.lanes_meet.empty())
      throw bad("lanes_meet meets the lanes of lanes_type, which is not set (give the four lanes fields, or no lanes_meet)");
    if (count == 4 && std::none_of(std::begin(kScalars), std::end(kScalars),
                                   [&](const ScalarInfo& i) { return r.map_type == i.compute; }))
      throw bad("the lanes fold vectors of map_type, which takes one of OpenCL C's scalar types; map_type is " +
                r.map_type + " (leave the lanes empty)");
  }
  if (!r.combine_vector.empty() && !lanes_vector(r))
    throw bad("combine_vector combines vectors of acc_type, which takes one of OpenCL C's scalar types and no fold; "
              "this accumulator is " + r.acc_type + (r.fold.empty() ? "" : " with a fold") + " (leave it empty)");

  std::ostringstream s;
  s << "// The reduction descriptor '" << r.name << "', generated by clreduce::reduction_source.\n";
  if (r.needs_fp64()) s << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  s << "#define DESC_ACC_BYTES " << r.acc_bytes << "\n";
  // Whether desc_lift_vector exists (VEC > 1): the columns kernel's BLOCK needs it.
  s << "#define DESC_HAS_LIFT_VECTOR " << (r.lift_vector.empty() ? 0 : 1) << "\n";
  // Whether the lanes (the kernels' LANES) may be one vector of accumulators (desc_lanes_v, below).
  s << "#define DESC_LANES_VECTOR " << (lanes_vector(r) ? 1 : 0) << "\n";
  // Whether VEC lanes may be one desc_lanes_s, the descriptor's structure of arrays (VEC > 1).
  s << "#define DESC_HAS_LANES_STATE " << (lanes_state(r) ? 1 : 0) << "\n";
  s << "#define DESC_CAT_(a, b) a##b\n#define DESC_CAT(a, b) DESC_CAT_(a, b)\n";
  const std::string vcombine = vector_combine_of(r);
  // Clang on an x86 CPU without AVX-512 (PoCL) warns that passing a 64-byte vector by value
  // "changes the ABI" (-Wpsabi): to the lift functions (a lift_vector) and to min/max/fmin/fmax
  // (a vector combine). They are inlined into the kernel, so no call crosses an ABI, and a
  // successful build must print nothing: that one warning is silenced.
  if (!r.lift_vector.empty() || !vcombine.empty() || lanes_state(r))
    s << "#if defined(__clang__) && (defined(__x86_64__) || defined(__i386__))\n"
      << "#pragma clang diagnostic ignored \"-Wpsabi\"\n#endif\n";
  if (!r.lift_vector.empty() || lanes_state(r))
    // A vector of VEC mapped values, and the same as an array (for helpers that loop over it).
    s << "#if VEC > 1\ntypedef DESC_CAT(" << r.map_type << ", VEC) DESC_MAPV;\n"
      << "typedef union {\n  DESC_MAPV v;\n  " << r.map_type << " a[VEC];\n} desc_vec_u;\n#endif\n";
  if (!r.prelude.empty()) {
    // A user file's lines keep their own numbers in build logs: the kernel loader maps the lines
    // between these markers to the file (src/core/kernels.cpp). Control characters of the path
    // would end the comment line: they are written as '?'.
    std::string origin = r.origin;
    for (char& c : origin)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    if (!origin.empty()) s << kOriginMarker << " 1 " << origin << "\n";
    s << r.prelude << (r.prelude.back() == '\n' ? "" : "\n");
    if (!origin.empty()) s << kOriginMarker << " -\n";
  }
  s << "typedef " << r.acc_type << " DESC_ACC;\n";
  s << "typedef " << r.out_type << " DESC_OUT;\n";
  // The sizes the host allocates by, checked where a wrong one is a build error (a negative array
  // size) whose name says which: the partials' storage (acc_bytes) and the result's layout.
  s << "typedef char desc_check_acc_bytes_is_sizeof_acc_type[sizeof(DESC_ACC) == DESC_ACC_BYTES ? 1 : -1];\n";
  s << "typedef char desc_check_result_layout_is_sizeof_out_type[sizeof(DESC_OUT) == " << r.out.bytes()
    << " ? 1 : -1];\n";
  // Argument lists: each input's pointer and element offset, then the scalars.
  s << "#define DESC_INPUT_PARAMS ";
  for (unsigned j = 0; j < r.inputs.size(); ++j)
    s << (j ? ", " : "") << "__global const " << info(r.inputs[j]).storage << "* restrict in" << j << ", const ulong off" << j;
  // A space after the name: "DESC_SCALAR_PARAMS," would draw C99's warning (and PoCL prints it).
  s << "\n#define DESC_SCALAR_PARAMS" << (r.scalars.empty() ? "" : " ");
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << (j ? ", " : ",") << " const " << info(r.scalars[j]).compute << " s" << j;
  s << "\n";
  // The map as a function (each argument evaluated once, type-checked where it is written).
  s << r.map_type << " desc_map(";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "const " << info(r.inputs[j]).compute << " x" << j << ", ";
  s << "const ulong i";
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << ", const " << info(r.scalars[j]).compute << " s" << j;
  s << ") {\n  return " << r.map << ";\n}\n";
  // DESC_ELEMENT_AT(k, i): the map of element k of every input, given the index i (a row's or a
  // segment's kernel counts i from the line's first element); DESC_ELEMENT(k): at index k.
  s << "#define DESC_ELEMENT_AT(k, idx) desc_map(";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << read_expr(r.inputs[j], j) << ", ";
  s << "(idx)";
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << ", s" << j;
  s << ")\n#define DESC_ELEMENT(k) DESC_ELEMENT_AT((k), (k))\n";
  s << "DESC_ACC desc_identity(void) {\n  return " << r.identity << ";\n}\n";
  s << "DESC_ACC desc_lift(const " << r.map_type << " v, const ulong i) {\n  return " << r.lift << ";\n}\n";
  s << "DESC_ACC desc_combine(const DESC_ACC a, const DESC_ACC b) {\n  return " << r.combine << ";\n}\n";
  s << "DESC_OUT desc_finish(const DESC_ACC a, const ulong n) {\n  return " << r.finish << ";\n}\n";
  // desc_fold_into(a, v, i): one more mapped value into *a in place, the descriptor's fold or
  // *a = combine(*a, lift(v, i)).
  s << "void desc_fold_into(__private DESC_ACC* a, const " << r.map_type << " v, const ulong i) {\n  "
    << (r.fold.empty() ? std::string("*a = desc_combine(*a, desc_lift(v, i));") : r.fold) << "\n}\n";
  // DESC_FOLD_INTO(a, v, i): the fold the whole-array vector macros below use; a kernel whose
  // work-items hold something else than DESC_ACC (reduce_descriptor.cl's EXACT_GROUP) defines it
  // before including this header.
  s << "#ifndef DESC_FOLD_INTO\n#define DESC_FOLD_INTO(a, v, i) desc_fold_into((a), (v), (i)) // a work-item's "
       "fold: the descriptor's\n#endif\n";
  if (!r.lift_vector.empty())
    s << "#if VEC > 1\nDESC_ACC desc_lift_vector(const DESC_MAPV v, const ulong i) {\n  return " << r.lift_vector
      << ";\n}\n#endif\n";
  if (!r.lift_input_vector.empty())
    s << "#if VEC > 1\nDESC_ACC desc_lift_input_vector(const DESC_CAT(" << info(r.inputs[0]).compute
      << ", VEC) x, const ulong i) {\n  return " << r.lift_input_vector << ";\n}\n#endif\n";
  // DESC_FOLD_VECTOR_AT(acc, kv, base): the VEC elements of vector kv of every input folded into
  // acc, in order (element kv * VEC + c has index kv * VEC + c - base), or lifted at once
  // (desc_lift_vector); DESC_FOLD_VECTOR(acc, kv): with base 0.
  s << "#define DESC_FOLD_VECTOR(acc, kv) DESC_FOLD_VECTOR_AT(acc, (kv), 0)\n";
  s << "#if VEC == 1\n#define DESC_FOLD_VECTOR_AT(acc, kv, base) DESC_FOLD_INTO(&(acc), "
       "DESC_ELEMENT_AT((kv), (kv) - (base)), (kv) - (base))\n#else\n";
  // Per input j: DESC_LOADVj_AT(e), the VEC elements from element e (a multiple of VEC where
  // ALIGNED, loaded through a vector pointer; else vloadN, any e) read into the compute type;
  // DESC_LOADVj(kv), vector kv (elements kv * VEC ..).
  write_vector_loads(s, r, "VEC", "V", "");
  for (unsigned j = 0; j < r.inputs.size(); ++j)
    s << "#define DESC_V" << j << " DESC_CAT(" << info(r.inputs[j]).compute << ", VEC)\n"
      << "#define DESC_LOADV" << j << "(kv) DESC_LOADV" << j << "_AT((ulong)(kv) * VEC)\n";
  // One component c (named sc) mapped, at index i_ + c.
  s << "#define DESC_MAPC(sc, c) desc_map(";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "v" << j << "_.sc, ";
  s << "i_ + (c)";
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << ", s" << j;
  s << ")\n";
  for (unsigned vec : {2u, 4u, 8u, 16u}) {
    s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n";
    if (!r.lift_input_vector.empty()) {
      s << "#define DESC_COMPONENTS(acc) (acc) = desc_combine((acc), desc_lift_input_vector(v0_, i_));";
    } else if (r.lift_vector.empty()) {
      s << "#define DESC_COMPONENTS(acc)";
      for (unsigned c = 0; c < vec; ++c)
        s << " DESC_FOLD_INTO(&(acc), DESC_MAPC(" << kComponents[c] << ", " << c << "), i_ + " << c << ");";
    } else {
      s << "#define DESC_COMPONENTS(acc) (acc) = desc_combine((acc), desc_lift_vector((DESC_MAPV)(";
      for (unsigned c = 0; c < vec; ++c) s << (c ? ", " : "") << "DESC_MAPC(" << kComponents[c] << ", " << c << ")";
      s << "), i_));";
    }
    s << "\n";
  }
  // DESC_FOLD_VECTOR_WITH(COMPONENTS, acc, kv, base): vector kv of every input loaded, its first
  // element's index i_ = kv * VEC - base, and COMPONENTS(acc) folding its elements (DESC_COMPONENTS:
  // in order into acc; DESC_LANE_COMPONENTS below: element c into acc[c]).
  s << "#endif\n#define DESC_FOLD_VECTOR_WITH(COMPONENTS, acc, kv, base) do { \\\n"
       "  const ulong i_ = (ulong)(kv) * VEC - (base); \\\n";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "  const DESC_V" << j << " v" << j << "_ = DESC_LOADV" << j << "(kv); \\\n";
  s << "  COMPONENTS(acc) \\\n} while (0)\n";
  s << "#define DESC_FOLD_VECTOR_AT(acc, kv, base) DESC_FOLD_VECTOR_WITH(DESC_COMPONENTS, acc, kv, base)\n";
  // DESC_FOLD_COLUMNS(acc, e, idx): the VEC elements from element e of every input, each folded
  // into its own accumulator acc[c] (consecutive columns of one row), all at index idx (the row).
  s << "#define DESC_MAPCOL(sc, idx) desc_map(";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "v" << j << "_.sc, ";
  s << "(idx)";
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << ", s" << j;
  s << ")\n";
  for (unsigned vec : {2u, 4u, 8u, 16u}) {
    s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n#define DESC_COLUMN_COMPONENTS(acc, idx)";
    for (unsigned c = 0; c < vec; ++c)
      s << " desc_fold_into(&(acc)[" << c << "], DESC_MAPCOL(" << kComponents[c] << ", (idx)), (idx));";
    s << "\n";
  }
  s << "#endif\n#define DESC_FOLD_COLUMNS(acc, e, idx) do { \\\n";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "  const DESC_V" << j << " v" << j << "_ = DESC_LOADV" << j << "_AT(e); \\\n";
  s << "  DESC_COLUMN_COMPONENTS(acc, idx) \\\n} while (0)\n";
  // DESC_FOLD_LANES_AT(acc, kv, base): the VEC elements of vector kv of every input, element c
  // folded into its own accumulator acc[c] at its own index kv * VEC + c - base (the kernels'
  // LANES: VEC independent chains, which a CPU's compiler can keep in SIMD registers).
  for (unsigned vec : {2u, 4u, 8u, 16u}) {
    s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n#define DESC_LANE_COMPONENTS(acc)";
    for (unsigned c = 0; c < vec; ++c)
      s << " desc_fold_into(&(acc)[" << c << "], DESC_MAPC(" << kComponents[c] << ", " << c << "), i_ + " << c << ");";
    s << "\n";
  }
  s << "#endif\n#define DESC_FOLD_LANES_AT(acc, kv, base) DESC_FOLD_VECTOR_WITH(DESC_LANE_COMPONENTS, acc, kv, base)\n";
  // An accumulator of one of OpenCL C's scalar types, folded by combine and lift (no fold of its
  // own): the lanes as one vector (desc_lanes_v, VEC of acc_type), each component updated by
  // value, which a CPU's compiler turns into SIMD operations; PoCL's does not for an array of VEC
  // accumulators (2.3-3.2x on rows of 16 to 64 floats, bench/NOTES.md, vector lanes on a CPU).
  // DESC_FOLD_VLANES_AT(lv, kv, base) as DESC_FOLD_LANES_AT; DESC_VLANES_MEET(lv, out): the lanes
  // met in a tree of halves (component c with c + VEC / 2, ...) into out.
  // DESC_VLANES_MEET_T(L, R): VEC lines' lanes L[0..VEC) met at once, R's component r being
  // line r's value, with the same pairs in the same order as DESC_VLANES_MEET (so the same bits).
  // A level pairs two vectors X, Y that hold P lines' runs of S partial values each: the first
  // halves of every run of X then of Y against the second halves, combined as whole vectors
  // (DESC_VCOMBINE_COMPONENTS) into 2P runs of S / 2; after log2(VEC) levels one vector of VEC
  // runs of one.
  // One line's halves tree spends log2(VEC) dependent operations on a vector of which it uses
  // half, a quarter, ...; here every operation is a full vector's, VEC - 1 of them for VEC lines.
  // DESC_VLANES_EACH(R, F): F(component, c) for each component c of R, c a constant.
  if (lanes_vector(r)) {
    // desc_combine_v(a, b): the combine for vectors of DESC_ACC of any width and for DESC_ACC
    // (vector_combine_of).
    if (!vcombine.empty()) s << "#define desc_combine_v(a, b) (" << vcombine << ")\n";
    for (unsigned vec : {2u, 4u, 8u, 16u}) {
      s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n#define DESC_VLANE_COMPONENTS(lv)";
      for (unsigned c = 0; c < vec; ++c)
        s << " (lv)." << kComponents[c] << " = desc_combine((lv)." << kComponents[c] << ", desc_lift(DESC_MAPC("
          << kComponents[c] << ", " << c << "), i_ + " << c << "));";
      s << "\n#define DESC_VLANES_MEET(lv, out) do {";
      if (vcombine.empty()) {
        for (unsigned w = vec / 2; w > 0; w /= 2)
          for (unsigned c = 0; c < w; ++c)
            s << " (lv)." << kComponents[c] << " = desc_combine((lv)." << kComponents[c] << ", (lv)." << kComponents[c + w]
              << ");";
        s << " (out) = (lv).s0;";
      } else {
        // The halves as vectors: h<w> holds the w values of the tree's level of width w.
        std::string from = "(lv)";
        for (unsigned w = vec / 2; w > 0; w /= 2) {
          const std::string to = "h" + std::to_string(w) + "_";
          s << " const " << (w > 1 ? r.acc_type + std::to_string(w) : r.acc_type) << " "
            << to << " = desc_combine_v(" << from << ".lo, " << from << ".hi);";
          from = to;
        }
        s << " (out) = " << from << ";";
      }
      s << " } while (0)\n#define DESC_VCOMBINE_COMPONENTS(r, a, b)";
      if (vcombine.empty()) {
        for (unsigned c = 0; c < vec; ++c)
          s << " (r)." << kComponents[c] << " = desc_combine((a)." << kComponents[c] << ", (b)." << kComponents[c] << ");";
      } else {
        s << " (r) = desc_combine_v((a), (b));";
      }
      s << "\n#define DESC_VLANES_MEET_T(L, R) do {";
      // Level by level: vectors named m<level>_<index>, level 0 being L[index].
      auto name = [](unsigned level, unsigned i) {
        return level == 0 ? "(L)[" + std::to_string(i) + "]" : "m" + std::to_string(level) + "_" + std::to_string(i);
      };
      unsigned level = 0;
      for (unsigned size = vec, count = vec; size > 1; size /= 2, count /= 2, ++level) {
        const unsigned runs = vec / size;  // runs a vector holds at this level, of `size` values each
        for (unsigned i = 0; i < count / 2; ++i) {
          for (int half = 0; half < 2; ++half) {
            s << " const desc_lanes_v " << (half ? "h" : "l") << level + 1 << "_" << i << " = (desc_lanes_v)(";
            bool first = true;
            for (unsigned v = 0; v < 2; ++v)
              for (unsigned run = 0; run < runs; ++run)
                for (unsigned c = 0; c < size / 2; ++c) {
                  s << (first ? "" : ", ") << name(level, 2 * i + v) << "."
                    << kComponents[run * size + half * (size / 2) + c];
                  first = false;
                }
            s << ");";
          }
          s << " desc_lanes_v " << name(level + 1, i) << "; DESC_VCOMBINE_COMPONENTS(" << name(level + 1, i) << ", l"
            << level + 1 << "_" << i << ", h" << level + 1 << "_" << i << ");";
        }
      }
      s << " (R) = " << name(level, 0) << "; } while (0)\n#define DESC_VLANES_EACH(R, F)";
      for (unsigned c = 0; c < vec; ++c) s << " F((R)." << kComponents[c] << ", " << c << ")";
      s << "\n";
    }
    s << "#endif\ntypedef DESC_CAT(" << r.acc_type << ", VEC) desc_lanes_v;\n"
      << "#define DESC_FOLD_VLANES_AT(lv, kv, base) DESC_FOLD_VECTOR_WITH(DESC_VLANE_COMPONENTS, lv, kv, base)\n";
  }
  // The lanes as a structure of arrays (lanes_state): desc_lanes_s, desc_lanes_identity(),
  // desc_lanes_fold(L, v, iv) and desc_lanes_unpack(L, acc) from the descriptor's four fields;
  // DESC_FOLD_COLUMNS_LANES(L, e, idx): the VEC elements from element e of every input, mapped,
  // folded into L's lanes at the one index idx (consecutive columns of one row, as
  // DESC_FOLD_COLUMNS folds them into an array).
  if (lanes_state(r)) {
    s << "typedef " << r.lanes_type << " desc_lanes_s;\n"
      << "desc_lanes_s desc_lanes_identity(void) {\n  return " << r.lanes_identity << ";\n}\n"
      << "void desc_lanes_fold(__private desc_lanes_s* L, const DESC_MAPV v, const DESC_CAT(ulong, VEC) iv) {\n"
      << r.lanes_fold << (r.lanes_fold.back() == '\n' ? "" : "\n") << "}\n"
      << "void desc_lanes_unpack(const __private desc_lanes_s* L, __private DESC_ACC* acc) {\n"
      << r.lanes_unpack << (r.lanes_unpack.back() == '\n' ? "" : "\n") << "}\n";
    // desc_lanes_meet(L): the lanes met in a tree of halves (lane c with c + VEC / 2, ...), by the
    // descriptor's lanes_meet on whole vectors, else unpacked and combined one pair at a time.
    s << "DESC_ACC desc_lanes_meet(const __private desc_lanes_s* L) {\n";
    if (!r.lanes_meet.empty())
      s << "  return " << r.lanes_meet << ";\n}\n";
    else
      s << "  DESC_ACC each[VEC];\n  desc_lanes_unpack(L, each);\n"
        << "  for (uint w = VEC / 2; w > 0; w >>= 1)\n    for (uint c = 0; c < w; ++c) each[c] = desc_combine(each[c], each[c + w]);\n"
        << "  return each[0];\n}\n";
    for (unsigned vec : {2u, 4u, 8u, 16u}) {
      s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n#define DESC_COLUMN_MAPV(idx) ((DESC_MAPV)(";
      for (unsigned c = 0; c < vec; ++c) s << (c ? ", " : "") << "DESC_MAPCOL(" << kComponents[c] << ", (idx))";
      s << "))\n";
    }
    s << "#endif\n";
    // DESC_FOLD_SLANES_AT(L, kv, base): vector kv of every input, element c into lane c at its own
    // index kv * VEC + c - base (a line's lanes, as DESC_FOLD_LANES_AT folds them into an array).
    for (unsigned vec : {2u, 4u, 8u, 16u}) {
      s << (vec == 2 ? "#if" : "#elif") << " VEC == " << vec << "\n#define DESC_SLANE_COMPONENTS(L) desc_lanes_fold(&(L), (DESC_MAPV)(";
      for (unsigned c = 0; c < vec; ++c) s << (c ? ", " : "") << "DESC_MAPC(" << kComponents[c] << ", " << c << ")";
      s << "), (DESC_CAT(ulong, VEC))(i_) + (DESC_CAT(ulong, VEC))(";
      for (unsigned c = 0; c < vec; ++c) s << (c ? ", " : "") << c;
      s << "));\n";
    }
    s << "#endif\n#define DESC_FOLD_SLANES_AT(L, kv, base) DESC_FOLD_VECTOR_WITH(DESC_SLANE_COMPONENTS, L, kv, base)\n";
    s << "#define DESC_FOLD_COLUMNS_LANES(L, e, idx) do { \\\n";
    for (unsigned j = 0; j < r.inputs.size(); ++j)
      s << "  const DESC_V" << j << " v" << j << "_ = DESC_LOADV" << j << "_AT(e); \\\n";
    s << "  desc_lanes_fold(&(L), DESC_COLUMN_MAPV(idx), (DESC_CAT(ulong, VEC))(idx)); \\\n} while (0)\n";
  }
  s << "#endif\n";
  // The columns kernel's BLOCK with DESC_BLOCK_COLS columns a work-item (it defines the macro):
  // each of a trip's ITEMS rows loaded DESC_BLOCK_COLS columns at once into desc_row<j>_u
  // w<j>_[t] (DESC_BLOCK_ROWS declares them, DESC_BLOCK_LOAD(t, e) fills row t from element e);
  // DESC_BLOCK_ELEMENT(t, c, idx), column c of row t mapped at index idx.
  if (r.lift_vector.empty()) return s.str();  // BLOCK lifts a block: no lift_vector, no BLOCK
  s << "#if defined(DESC_BLOCK_COLS) && DESC_BLOCK_COLS > 1\n";
  write_vector_loads(s, r, "DESC_BLOCK_COLS", "ROW", "_row");
  for (unsigned j = 0; j < r.inputs.size(); ++j) {
    const std::string& c = info(r.inputs[j]).compute;
    s << "typedef union {\n  DESC_CAT(" << c << ", DESC_BLOCK_COLS) v;\n  " << c << " a[DESC_BLOCK_COLS];\n} desc_row"
      << j << "_u;\n";
  }
  s << "#define DESC_BLOCK_ROWS";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << " desc_row" << j << "_u w" << j << "_[ITEMS];";
  s << "\n#define DESC_BLOCK_LOAD(t, e) do {";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << " w" << j << "_[t].v = DESC_LOADROW" << j << "_AT(e);";
  s << " } while (0)\n#define DESC_BLOCK_ELEMENT(t, c, idx) desc_map(";
  for (unsigned j = 0; j < r.inputs.size(); ++j) s << "w" << j << "_[t].a[c], ";
  s << "(idx)";
  for (unsigned j = 0; j < r.scalars.size(); ++j) s << ", s" << j;
  s << ")\n#endif\n";
  return s.str();
}

}  // namespace clreduce
