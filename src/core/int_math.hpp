// Small integer helpers the planners share (powers of two, logarithms, divisions rounded up).
#pragma once

#include <cstdint>

namespace clreduce {

inline bool is_pow2(std::uint64_t x) { return x && !(x & (x - 1)); }
inline unsigned log2_floor(std::uint64_t x) {  // 0 for 0 and 1
  unsigned l = 0;
  while (x > 1) {
    x >>= 1;
    ++l;
  }
  return l;
}
inline std::uint64_t pow2_floor(std::uint64_t x) { return x <= 1 ? 1 : std::uint64_t{1} << log2_floor(x); }
inline std::uint64_t pow2_ceil(std::uint64_t x) {  // the smallest power of two >= x (1 for 0)
  const std::uint64_t f = pow2_floor(x);
  return f >= x ? f : f * 2;
}
inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace clreduce
