// libFuzzer target: parse_shape (MxN matrix shapes, each side a size with suffixes).
// Properties: only clreduce::Error escapes; an accepted shape prints back as "MxN" decimal text
// that parses to the same pair.
#include "clreduce/error.hpp"
#include "parse.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::pair<std::uint64_t, std::uint64_t> s;
  try {
    s = clreduce::parse_shape(text);
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (clreduce::parse_shape(clreduce::shape_label(s.first, s.second)) != s) std::abort();
  return 0;
}
