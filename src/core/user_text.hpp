// The checks every file of the user's OpenCL C passes before it is compiled into a kernel (a user
// operator, clreduce/user_operator.hpp; a user reduction descriptor, clreduce/reduction.hpp):
// read with a bound, not empty, not over the bound, no #include (one self-contained file).
// Thread-safety: pure functions.
#pragma once

#include "clreduce/error.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace clreduce {

inline constexpr std::size_t kMaxUserFileBytes = 64 * 1024;

// At most kMaxUserFileBytes + 1 bytes of `file` (one past the bound, so a longer file is seen as
// such without reading it whole, also one that grows meanwhile). Throws Error (`param`) naming
// the path when it cannot be read or is not a regular file (a directory; a FIFO, which would
// block; a device such as /dev/zero); `valid` says what the file must be.
std::string read_user_file(const std::filesystem::path& file, Param param, const std::string& what,
                           const std::string& valid);
// Throws Error (`param`) when `text` is empty, over the bound or holds an #include; `where` names
// it ("operator file 'x.clh'").
void check_user_text(const std::string& text, Param param, const std::string& where, const std::string& valid);

}  // namespace clreduce
