// A descriptor's results written to a file for the user (`clreduce reduce --output FILE`): NumPy
// .npy (format 1.0) when the name ends in ".npy", else the raw little-endian bytes of each result
// in its layout (ResultLayout: a value; an ArgValue, the value at byte 0 and the u64 index at byte
// 8 of 16; a pair of values). In .npy a value is a 1-d array of its type, a pair an N x 2 array,
// an ArgValue a structured array of fields 'value' and 'index' (with an unnamed pad where the
// value is narrower than 8 bytes), so np.load gives r['value'] and r['index']. bf16 values have
// no NumPy type: they are written as their u16 bits ('<u2').
//
// The file is created, never replaced: a path that exists (a file of the user's, one of the run's
// inputs) is refused before any work with one line saying so, and a failed write removes what it
// created. Errors: clreduce::Error naming --output, the path and the reason.
#pragma once

#include "clreduce/reduction.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

// Throws Error (naming `option`, the path and the reason) unless `path` can be created: not empty,
// not existing, its directory writable.
void check_new_file(const std::string& option, const std::string& path);
void check_result_path(const std::string& path);  // check_new_file("--output", path)
// `bytes` to a new file at `path` (O_EXCL: never an existing one); a failed write removes it.
void write_new_file(const std::string& option, const std::string& path, const std::string& bytes);
// The .npy header (magic, version 1.0, the length, the dict padded to 64 bytes) for `count`
// results of `layout`.
std::string npy_header(const ResultLayout& layout, std::uint64_t count);
// Writes the results (all of one layout) to a new file at `path`, .npy or raw by its name.
void write_results(const std::string& path, const ResultLayout& layout, const std::vector<Result>& results);

}  // namespace clreduce
