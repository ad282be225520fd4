// Number formats shared by the tools (format.hpp).
#include "format.hpp"

#include <cstdio>

namespace clreduce {

std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

std::string size_label(std::uint64_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    unsigned l = 0;
    while ((1ULL << l) < n) ++l;
    return "2^" + std::to_string(l);
  }
  return std::to_string(n);
}

}  // namespace clreduce
