// libFuzzer target: parse_define (`-D NAME[=VALUE]`, function-like NAME(args)=VALUE).
// Properties: only clreduce::Error escapes; an accepted definition has a C identifier for a name,
// a value without whitespace or quotes, and its text form parses back to the same definition.
#include "clreduce/error.hpp"
#include "clreduce/types.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  clreduce::Define d;
  try {
    d = clreduce::parse_define(text);
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (d.name.empty()) std::abort();
  const unsigned char first = static_cast<unsigned char>(d.name[0]);
  if (!(std::isalpha(first) || first == '_')) std::abort();
  if (d.value && d.value->find_first_of(" \t\n\r\v\f\"'") != std::string::npos) std::abort();
  if (!(clreduce::parse_define(d.str()) == d)) std::abort();
  return 0;
}
