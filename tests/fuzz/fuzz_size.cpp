// libFuzzer target: parse_size (element counts with K/M/G/T, Ki/Mi/Gi/Ti and 2^N suffixes).
// Properties: only clreduce::Error escapes for bad text; an accepted size prints back as plain
// decimal text that parses to the same value; plain decimal input means its own value.
#include "clreduce/error.hpp"
#include "parse.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::uint64_t v = 0;
  try {
    v = clreduce::parse_size(text);
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (clreduce::parse_size(std::to_string(v)) != v) std::abort();
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos &&
      std::to_string(v) != text.substr(std::min(text.find_first_not_of('0'), text.size() - 1)))
    std::abort();
  return 0;
}
