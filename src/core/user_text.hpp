// The checks every file of the user's OpenCL C passes before it is compiled into a kernel (a user
// operator, clreduce/user_operator.hpp; a user reduction descriptor, clreduce/reduction.hpp):
// read with a bound, not empty, not over the bound, no #include (one self-contained file).
// Thread-safety: pure functions.
#pragma once

#include "clreduce/error.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

inline constexpr std::size_t kMaxUserFileBytes = 64 * 1024;

// At most kMaxUserFileBytes + 1 bytes of `file` (one past the bound, so a longer file is seen as
// such without reading it whole, also one that grows meanwhile). Throws Error (`param`) naming
// the path when it cannot be read or is not a regular file (a directory; a FIFO, which would
// block; a device such as /dev/zero); `valid` says what the file must be.
std::string read_user_file(const std::filesystem::path& file, Param param, const std::string& what,
                           const std::string& valid);
// Throws Error (`param`) when `text` is empty, over the bound, or holds a directive outside the
// allow-list (#define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif, #pragma, #error, and
// the null directive): no #include in any spelling (%:include, ??=include, split by a
// backslash-newline, after a comment), no #line (which would misplace the build log's lines).
// `where` names it ("operator file 'x.clh'").
void check_user_text(const std::string& text, Param param, const std::string& where, const std::string& valid);

// The preprocessing directives of `text` as the compiler sees them (after trigraphs, digraphs,
// line splices and comments): each one's name ("" for a lone #) and its line in `text`.
struct UserDirective {
  std::string name;
  std::uint32_t line = 0;
};
std::vector<UserDirective> directives_of(const std::string& text);

// One line's directive, read by hand rather than by std::regex, whose libstdc++ form recurses once
// per character a quantifier takes and overflowed the stack on a line of some 26,000 blanks or a
// 40 KB macro (a crash, not a refusal). `#define NAME` with optional blanks before and after the
// `#`: the name, whether a `(` follows it at once (function-like), and the rest of the line after
// the name (and after that `(`). Nothing where the line is not such a directive.
// A character of a C identifier (a letter, a digit or '_').
bool identifier_char(char c);
struct DefineLine {
  std::string name;
  bool function_like = false;
  std::string rest;
};
std::optional<DefineLine> define_line(const std::string& line);
// `#include "FILE"` alone on its line (blanks allowed around each part): FILE; else nothing.
std::optional<std::string> include_line(const std::string& line);

}  // namespace clreduce
