// The host reference of exact summation (Summation::Exact, clreduce/reduction.hpp): the exact sum
// of every term as a wide fixed-point integer (two's complement, its lowest bit 2^-2200, below an
// f64 product's lowest 2^-2148), filled from each element's frexp and rounded once by its own code
// (round to nearest even, subnormals, an infinity past the largest), independent of the kernels'
// exact_sum.clh. A square root (the exact l2) is checked by squaring the midpoints to its
// neighbours, and found by trying the neighbours of a long double estimate.
// Thread-safety: plain values.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace clreduce {

// A result format: significant bits, the lowest subnormal's exponent, the exponent that overflows.
struct ExactFormat {
  int p;
  int min_lsb;
  int max_exp;
};
inline constexpr ExactFormat kExactF32{24, -149, 128};
inline constexpr ExactFormat kExactF64{53, -1074, 1024};

class ExactSum {
 public:
  // One element (any double: f16, bf16 and f32 values are doubles exactly), or the product of
  // two (dot, sumsq), added with no rounding; infinities and NaN kept as IEEE's sum keeps them.
  void add_value(double x);
  void add_product(double x, double y);
  std::uint64_t count() const { return n_; }
  // Another sum's terms added to this one, as if each had been added here: the sum, the count, the
  // infinities and NaN, and the -0 rule. A sum of shards (an MPI rank's each) is the whole's.
  void merge(const ExactSum& o);
  // The state as kBytes bytes (little-endian words, then the count and the flags) and back: what
  // a shard's sum travels as between processes. from_bytes takes what to_bytes wrote.
  static constexpr std::size_t kBytes = 4 * 140 + 8 + 4;
  void to_bytes(unsigned char* out) const;
  static ExactSum from_bytes(const unsigned char* in);

  // The exact sum rounded once; the exact sum / count rounded once (NaN for no elements); the
  // square root of the exact sum rounded once. NaN is a quiet NaN, -0 where every term was -0.
  double rounded(const ExactFormat& f) const;
  double mean(const ExactFormat& f) const;
  double sqrt(const ExactFormat& f) const;
  // Whether y is the square root of the exact sum rounded to nearest even in f (y between the
  // squared midpoints to its neighbours, on one only where its last bit is even).
  bool is_rounded_sqrt(double y, const ExactFormat& f) const;

  static constexpr int kLow = -2200;
  static constexpr int kWords = 140;  // up to 2^2280: 2^64 products of 2^2048, and a sign
  struct Big {
    std::array<std::uint32_t, kWords> w{};
    void add_at(std::uint64_t v, int pos);  // v * 2^pos, pos bits above 2^kLow
    void add(const Big& o);
    void negate();
    bool negative() const;
    bool zero() const;
    int top_bit() const;
    bool bit(int j) const;
    bool any_below(int j) const;
    int compare(const Big& o) const;  // both non-negative
  };

 private:
  bool special(double& out) const;
  Big total() const;  // plus_ - minus_: the exact sum, two's complement
  // The positive terms and the magnitudes of the negative ones, apart: a term's add then stops at
  // its last carry (a few words) instead of a negation and an add over all 140. Arithmetic modulo
  // 2^(32 kWords), so plus_ may also hold a whole two's-complement sum (from_bytes, merge).
  Big plus_, minus_;
  bool nan_ = false, pos_inf_ = false, neg_inf_ = false, all_negzero_ = true;
  std::uint64_t n_ = 0;
};

}  // namespace clreduce
