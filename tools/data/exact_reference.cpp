// The exact summation's host reference (tools/data/exact_reference.hpp).
#include "data/exact_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace clreduce {

namespace {
__extension__ typedef unsigned __int128 u128;  // GCC and Clang: a product of two 53-bit mantissas

// An exact value m * 2^e (m up to 128 bits) with its sign.
struct Term {
  bool neg = false;
  u128 m = 0;
  int e = 0;
};

// A finite double's exact value from its bits: a 53-bit integer (52 for a subnormal) times a power
// of two, the lowest 2^-1074.
Term term_of(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  Term t;
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t frac = bits & ((std::uint64_t{1} << 52) - 1);
  t.neg = bits >> 63;
  t.m = field ? frac | (std::uint64_t{1} << 52) : frac;
  t.e = (field ? field : 1) - 1075;
  return t;
}

// t's magnitude added to acc (its sign is the caller's: plus_ or minus_). The lowest term, a
// product of two subnormals, is 2^-2148: 52 bits above kLow.
void add_term(ExactSum::Big& acc, const Term& t) {
  if (t.m == 0) return;
  const int pos = t.e - ExactSum::kLow;
  if (pos < 0) throw std::logic_error("exact reference: a term below 2^-2200");
  acc.add_at(static_cast<std::uint64_t>(t.m), pos);
  if (t.m >> 64) acc.add_at(static_cast<std::uint64_t>(t.m >> 64), pos + 64);
}

// |value| = mag x 2^(kLow - extra) rounded to nearest even in f, `sticky` for anything below mag
// that is not zero; as a double (exact for either format), an infinity when it overflows.
double round_magnitude(const ExactSum::Big& mag, int extra, bool sticky, const ExactFormat& f) {
  const int t = mag.top_bit();
  if (t < 0) return 0.0;
  const int top_exp = t + ExactSum::kLow - extra;
  const int lsb = std::max(top_exp - f.p + 1, f.min_lsb);  // the result's lowest bit, as an exponent
  const int lsb_pos = lsb - ExactSum::kLow + extra;        // ... as a position of mag
  std::uint64_t q = 0;
  for (int j = t; j >= lsb_pos && j >= 0; --j) q = (q << 1) | (mag.bit(j) ? 1u : 0u);
  if (lsb_pos > t + 1) q = 0;
  const bool round_bit = lsb_pos - 1 >= 0 && lsb_pos - 1 <= t && mag.bit(lsb_pos - 1);
  const bool rest = sticky || mag.any_below(lsb_pos - 1);
  if (round_bit && (rest || (q & 1))) ++q;
  const double v = std::ldexp(static_cast<double>(q), lsb);
  return v >= std::ldexp(1.0, f.max_exp) ? INFINITY : v;
}

ExactSum::Big square(u128 k, int e) {
  ExactSum::Big b;
  Term t;
  t.m = k * k;
  t.e = 2 * e;
  add_term(b, t);
  return b;
}
}  // namespace

void ExactSum::Big::add_at(std::uint64_t v, int pos) {
  int k = pos / 32;
  u128 t = static_cast<u128>(v) << (pos % 32);
  std::uint64_t carry = 0;
  for (; k < kWords; ++k) {
    const std::uint64_t s = static_cast<std::uint64_t>(w[k]) + static_cast<std::uint32_t>(t) + carry;
    w[k] = static_cast<std::uint32_t>(s);
    carry = s >> 32;
    t >>= 32;
    if (t == 0 && carry == 0) break;
  }
}

void ExactSum::Big::add(const Big& o) {
  std::uint64_t carry = 0;
  for (int k = 0; k < kWords; ++k) {
    const std::uint64_t s = static_cast<std::uint64_t>(w[k]) + o.w[k] + carry;
    w[k] = static_cast<std::uint32_t>(s);
    carry = s >> 32;
  }
}

void ExactSum::Big::negate() {
  std::uint64_t carry = 1;
  for (auto& x : w) {
    const std::uint64_t s = static_cast<std::uint64_t>(static_cast<std::uint32_t>(~x)) + carry;
    x = static_cast<std::uint32_t>(s);
    carry = s >> 32;
  }
}

bool ExactSum::Big::negative() const { return w[kWords - 1] >> 31; }

bool ExactSum::Big::zero() const {
  return std::all_of(w.begin(), w.end(), [](std::uint32_t x) { return x == 0; });
}

int ExactSum::Big::top_bit() const {
  for (int k = kWords - 1; k >= 0; --k)
    if (w[k]) return 32 * k + 31 - __builtin_clz(w[k]);
  return -1;
}

bool ExactSum::Big::bit(int j) const { return j >= 0 && j < 32 * kWords && ((w[j / 32] >> (j % 32)) & 1u); }

bool ExactSum::Big::any_below(int j) const {
  for (int k = 0; k < kWords && 32 * k < j; ++k) {
    const int n = std::min(32, j - 32 * k);
    const std::uint32_t mask = n == 32 ? 0xffffffffu : ((1u << n) - 1);
    if (w[k] & mask) return true;
  }
  return false;
}

int ExactSum::Big::compare(const Big& o) const {
  for (int k = kWords - 1; k >= 0; --k)
    if (w[k] != o.w[k]) return w[k] < o.w[k] ? -1 : 1;
  return 0;
}

void ExactSum::add_value(double x) {
  ++n_;
  if (std::isnan(x)) nan_ = true;
  else if (std::isinf(x)) (x > 0 ? pos_inf_ : neg_inf_) = true;
  else {
    const Term t = term_of(x);
    add_term(t.neg ? minus_ : plus_, t);
  }
  if (!(x == 0 && std::signbit(x))) all_negzero_ = false;
}

void ExactSum::add_product(double x, double y) {
  ++n_;
  if (!std::isfinite(x) || !std::isfinite(y)) {
    const double p = x * y;  // inf x 0: NaN
    if (std::isnan(p)) nan_ = true;
    else (p > 0 ? pos_inf_ : neg_inf_) = true;
    all_negzero_ = false;
    return;
  }
  const Term a = term_of(x), b = term_of(y);
  Term t;
  t.neg = a.neg != b.neg;
  t.m = a.m * b.m;  // 53 x 53 bits
  t.e = a.e + b.e;
  add_term(t.neg ? minus_ : plus_, t);
  if (!(t.m == 0 && t.neg)) all_negzero_ = false;
}

void ExactSum::merge(const ExactSum& o) {
  plus_.add(o.plus_);  // modulo 2^(32 kWords): a two's-complement shard adds as it is
  minus_.add(o.minus_);
  n_ += o.n_;
  nan_ = nan_ || o.nan_;
  pos_inf_ = pos_inf_ || o.pos_inf_;
  neg_inf_ = neg_inf_ || o.neg_inf_;
  all_negzero_ = all_negzero_ && o.all_negzero_;  // an empty shard's true changes nothing
}

void ExactSum::to_bytes(unsigned char* out) const {
  static_assert(kBytes == 4 * kWords + 8 + 4, "kBytes: the words, the count, the flags");
  auto put = [&out](std::uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b) *out++ = static_cast<unsigned char>(v >> (8 * b));
  };
  for (std::uint32_t w : total().w) put(w, 4);
  put(n_, 8);
  put((nan_ ? 1u : 0u) | (pos_inf_ ? 2u : 0u) | (neg_inf_ ? 4u : 0u) | (all_negzero_ ? 8u : 0u), 4);
}

ExactSum ExactSum::from_bytes(const unsigned char* in) {
  auto get = [&in](int bytes) {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(*in++) << (8 * b);
    return v;
  };
  ExactSum s;
  for (std::uint32_t& w : s.plus_.w) w = static_cast<std::uint32_t>(get(4));
  s.n_ = get(8);
  const std::uint64_t flags = get(4);
  s.nan_ = flags & 1;
  s.pos_inf_ = flags & 2;
  s.neg_inf_ = flags & 4;
  s.all_negzero_ = flags & 8;
  return s;
}

ExactSum::Big ExactSum::total() const {
  Big t = minus_;
  t.negate();
  t.add(plus_);
  return t;
}

bool ExactSum::special(double& out) const {
  if (nan_ || (pos_inf_ && neg_inf_)) {
    out = NAN;
    return true;
  }
  if (pos_inf_ || neg_inf_) {
    out = pos_inf_ ? INFINITY : -INFINITY;
    return true;
  }
  return false;
}

double ExactSum::rounded(const ExactFormat& f) const {
  double s;
  if (special(s)) return s;
  Big mag = total();
  const bool neg = mag.negative();
  if (neg) mag.negate();
  if (mag.zero()) return n_ > 0 && all_negzero_ ? -0.0 : 0.0;
  const double v = round_magnitude(mag, 0, false, f);
  return neg ? -v : v;
}

double ExactSum::mean(const ExactFormat& f) const {
  double s;
  if (n_ == 0) return NAN;
  if (special(s)) return s;
  Big mag = total();
  const bool neg = mag.negative();
  if (neg) mag.negate();
  if (mag.zero()) return all_negzero_ ? -0.0 : 0.0;
  if (n_ >> 32) throw std::logic_error("exact reference: a mean of 2^32 elements or more");
  Big shifted;  // mag x 2^128 (the top words are free: sums of up to 2^32 terms stay below them)
  for (int k = kWords - 1; k >= 4; --k) shifted.w[k] = mag.w[k - 4];
  std::uint64_t rem = 0;
  for (int k = kWords - 1; k >= 0; --k) {
    const std::uint64_t cur = (rem << 32) | shifted.w[k];
    shifted.w[k] = static_cast<std::uint32_t>(cur / n_);
    rem = cur % n_;
  }
  const double v = round_magnitude(shifted, 128, rem != 0, f);
  return neg ? -v : v;
}

bool ExactSum::is_rounded_sqrt(double y, const ExactFormat& f) const {
  double s;
  if (special(s)) return std::isnan(s) ? std::isnan(y) : y == s;
  const Big mag = total();
  if (mag.zero()) return y == 0 && !std::signbit(y);
  if (std::isinf(y) && y > 0)  // at or past the midpoint between the largest finite value and 2^max_exp
    return mag.compare(square((u128{1} << (f.p + 1)) - 1, f.max_exp - f.p - 1)) >= 0;
  if (!(y > 0)) return false;
  int ex = 0;
  const double fr = std::frexp(y, &ex);
  const int lsb = std::max(ex - f.p, f.min_lsb);
  const std::uint64_t m = static_cast<std::uint64_t>(std::ldexp(fr, ex - lsb));  // y = m x 2^lsb
  // Midpoints: (2m +- 1) x 2^(lsb - 1); below a power of two (a normal m = 2^(p-1) above the
  // subnormals) the neighbour below is half an ulp away: (4m - 1) x 2^(lsb - 2).
  const bool power = m == (std::uint64_t{1} << (f.p - 1)) && lsb > f.min_lsb;
  const Big hi = square(2 * static_cast<u128>(m) + 1, lsb - 1);
  const Big lo = power ? square(4 * static_cast<u128>(m) - 1, lsb - 2) : square(2 * static_cast<u128>(m) - 1, lsb - 1);
  const int c_lo = mag.compare(lo), c_hi = mag.compare(hi);
  if (c_lo < 0 || c_hi > 0) return false;
  if ((c_lo == 0 || c_hi == 0) && (m & 1)) return false;  // a tie goes to the even neighbour
  return true;
}

double ExactSum::sqrt(const ExactFormat& f) const {
  double s;
  if (special(s)) return s;
  const Big sum = total();
  if (sum.zero()) return 0.0;
  // An estimate within an ulp or two (from the sum's top 53 bits, any exponent: the sum itself
  // may pass a double's range), then its neighbours tried.
  const int t = sum.top_bit();
  std::uint64_t top = 0;
  for (int j = t; j > t - 53; --j) top = (top << 1) | (sum.bit(j) ? 1u : 0u);
  int e = t - 52 + kLow;
  double d = static_cast<double>(top);
  if (e % 2 != 0) {
    d *= 2;
    e -= 1;
  }
  const double est = std::ldexp(std::sqrt(d), e / 2);
  const bool f32 = f.p == 24;
  double c = f32 ? static_cast<double>(static_cast<float>(est)) : est;
  for (int k = 0; k < 3; ++k) c = f32 ? std::nextafter(static_cast<float>(c), 0.0f) : std::nextafter(c, 0.0);
  for (int k = 0; k < 7; ++k) {
    if (is_rounded_sqrt(c, f)) return c;
    c = f32 ? std::nextafter(static_cast<float>(c), INFINITY) : std::nextafter(c, INFINITY);
  }
  throw std::logic_error("exact reference: no rounded square root near the estimate");
}

}  // namespace clreduce
