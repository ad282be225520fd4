// Parsers for user-typed values: element counts with suffixes and `-D NAME[=VALUE]` definitions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// "1000", "64K"/"64M"/"1G"/"1T" (powers of 1000), "64Ki"/"64Mi"/"1Gi"/"1Ti" (powers of 1024),
// "2^26". Whitespace around the text is ignored. Throws Error naming the text and the accepted
// forms on anything else, including overflow of 64 bits.
std::uint64_t parse_size(std::string_view text);

// A list of sizes: comma-separated items, each a size (as parse_size) or a geometric range
// "A..B" (A, 2A, 4A, ... up to B) or "A..B:F" (step factor F >= 2), e.g. "1K..1G:4,2^30".
// At most kMaxSizeListItems sizes; throws Error naming the item and the accepted forms.
constexpr std::size_t kMaxSizeListItems = 4096;
std::vector<std::uint64_t> parse_size_list(std::string_view text);

// One user definition for the kernel compiler: -D NAME or -D NAME=VALUE.
struct Define {
  std::string name;
  std::optional<std::string> value;
  std::string str() const;  // "NAME" or "NAME=VALUE"
  bool operator==(const Define& o) const { return name == o.name && value == o.value; }
};

// "NAME", "NAME=VALUE", "NAME(args)=VALUE" (a function-like macro). NAME must be a C identifier;
// VALUE may not contain whitespace or quotes (the build option string is split on spaces).
Define parse_define(std::string_view text);

}  // namespace clreduce
