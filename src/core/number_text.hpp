// How clreduce writes a floating-point value: the shortest digits that read back to the same
// value (max_digits10 of its type), "nan" for every NaN (its sign and payload are no part of the
// result: a NaN from 0/0 prints "-nan" through iostreams on x86), "inf" and "-inf".
#pragma once

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace clreduce {

template <class F>
std::string float_text(F x) {
  if (std::isnan(x)) return "nan";
  std::ostringstream ss;
  ss.precision(std::numeric_limits<F>::max_digits10);
  ss << x;
  return ss.str();
}

}  // namespace clreduce
