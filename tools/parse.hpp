// Parsers for user-typed values of the tools and the command line: element counts with suffixes and
// lists of them (-D definitions are the library's: clreduce/types.hpp).
#pragma once

#include "clreduce/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// "2048x512" (rows x columns, each a size with suffixes) -> {M, N}.
std::pair<std::uint64_t, std::uint64_t> parse_shape(std::string_view text);
std::string shape_label(std::uint64_t m, std::uint64_t n);  // "2048x512"

// `text` with control characters shown as \n, \t, ... so that a message stays one line.
std::string printable(const std::string& text);

// The kernel watchdog's limit for a run of a tool (clreduce, clreduce-mpi): the option's text
// (--kernel-timeout), else the environment's (CLREDUCE_KERNEL_TIMEOUT), else
// kDefaultKernelTimeout seconds; 0 turns it off. A plain decimal number from 0 to
// kMostKernelTimeout, nothing else; throws Error naming where a bad value came from.
constexpr double kDefaultKernelTimeout = 300;
constexpr double kMostKernelTimeout = 86400;
double parse_kernel_timeout(const std::optional<std::string>& option, const char* env);

}  // namespace clreduce
