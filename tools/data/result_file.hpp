// A descriptor's results written to a file for the user (`clreduce reduce --output FILE`): NumPy
// .npy (format 1.0) when the name ends in ".npy", else the raw little-endian bytes of each result
// in its layout (ResultLayout: a value; an ArgValue, the value at byte 0 and the u64 index at byte
// 8 of 16; a pair of values). In .npy a value is a 1-d array of its type, a pair an N x 2 array,
// an ArgValue a structured array of fields 'value' and 'index' (with an unnamed pad where the
// value is narrower than 8 bytes), so np.load gives r['value'] and r['index']. bf16 values have
// no NumPy type: they are written as their u16 bits ('<u2').
//
// The file follows the output rule of data/output_file.hpp (made new; replaced only with --force,
// never one of the run's inputs). Errors: clreduce::Error naming --output, the path and the reason.
#pragma once

#include "clreduce/reduction.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

// The .npy header (magic, version 1.0, the length, the dict padded to 64 bytes) for `count`
// results of `layout`.
std::string npy_header(const ResultLayout& layout, std::uint64_t count);
// Writes the results (all of one layout) to `path`, .npy or raw by its name; `force` as --force.
void write_results(const std::string& path, const ResultLayout& layout, const std::vector<Result>& results,
                   bool force);

}  // namespace clreduce
