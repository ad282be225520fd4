// Number formats shared by every tool layer (the benchmarks' own messages as well as the printers'
// tables): the inverse of parse.hpp for the numbers a tool writes. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>

namespace clreduce {

// x with `decimals` digits after the point ("%.*f": "12.35").
std::string fixed(double x, int decimals);
// "2^26" for a power of two from 1024 up, else the decimal count ("1000").
std::string size_label(std::uint64_t n);

}  // namespace clreduce
