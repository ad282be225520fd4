// libFuzzer target: parse_size_list (comma-separated sizes and geometric ranges A..B[:F]).
// Properties: only clreduce::Error escapes; an accepted list is non-empty, at most
// kMaxSizeListItems long, every size parses back from its decimal text, and a single range item
// gives a strictly increasing run that starts at A and never passes B.
#include "clreduce/error.hpp"
#include "parse.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::uint64_t> xs;
  try {
    xs = clreduce::parse_size_list(text);
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (xs.empty() || xs.size() > clreduce::kMaxSizeListItems) std::abort();
  for (std::uint64_t x : xs)
    if (clreduce::parse_size(std::to_string(x)) != x) std::abort();
  const auto dots = text.find("..");
  if (text.find(',') == std::string::npos && dots != std::string::npos) {
    const auto colon = text.find(':', dots);
    const std::uint64_t a = clreduce::parse_size(text.substr(0, dots));
    const std::uint64_t b = clreduce::parse_size(text.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2));
    if (xs.front() != a || xs.back() > b) std::abort();
    for (std::size_t i = 1; i < xs.size(); ++i)
      if (xs[i] <= xs[i - 1]) std::abort();
  }
  return 0;
}
