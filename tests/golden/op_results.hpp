// The Op path's results, case by case: the API that predates reduction descriptors
// (Reducer::reduce(buffer, type, n, op), AxisReducer::reduce(in, out, type, op, axis, m, n),
// SegmentedReducer::reduce / reduce_arg) for every variant of the whole-array and axis families
// and each segmented kernel (group, split, sliced), every element type (uint, int, float; double
// where the device has fp64) and operator (sum, min, max; argmin/argmax where the family takes
// them), over seeded data.
//
// The launches are fixed so that any device gives the same order of operations: the tuning
// database off, the work-group size fixed (32: every device's kernels allow it), and the device
// posed with 4 compute units, so that no planner derives a grid from the real device.
//
// The same source builds against this tree (the test `op_results`, tests/test_op_results.cpp)
// and against the tree before the descriptor issue (tests/golden/make_op_results.sh writes
// tests/golden/op_results.json from it), so a difference is a change of the library's results,
// not of this code: it may use only what both trees' public headers have.
#pragma once
#include "clreduce/clreduce.hpp"
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace clreduce::golden {

// case key ("whole/<variant>/<type>/<op>/<n>", "axis/<variant>/<type>/<op>/<axis>/<M>x<N>",
// "segments/<kernel>/<type>/<op>") -> the result: its bytes in hex for the whole array, the
// count and the FNV-1a 64 hash of every output's bytes for rows, columns and segments, or
// "refused" where the library refused the case (an Error).
using Results = std::map<std::string, std::string>;

// The data of every case: `count` elements of `t` from `seed` (uint and int over their whole
// range, so sums wrap; float and double of both signs with exponents from -8 to 8: no subnormals,
// no overflow, so the bits depend only on the order of the additions), and each family's seeds.
std::vector<unsigned char> data_of(ElemType t, std::uint64_t count, std::uint64_t seed);
std::uint64_t whole_seed(ElemType t, std::uint64_t n);
std::uint64_t axis_seed(ElemType t, std::uint64_t m, std::uint64_t n);
std::uint64_t segments_seed(ElemType t);
const std::vector<std::uint64_t>& segment_offsets();  // the CSR offsets of every segments case
// `bytes` bytes from p as lower-case hex, the first byte first: a whole-array result's form.
std::string hex(const unsigned char* p, std::size_t bytes);

// `count` outputs as "count:hash": each value's size_of(t) bytes and, where `arg`, its 8-byte
// index (16-byte ArgValue strides; never the padding between them).
std::string digest(const std::vector<unsigned char>& out, std::uint64_t count, ElemType t, bool arg);

// Runs the cases for which `keep(k, key)` is true (k counts every case in a fixed order) on
// `queue`, whose device is `dev`, with the kernels of `kernel_dir`.
Results op_results(const cl::CommandQueue& queue, const DeviceInfo& dev, const std::filesystem::path& kernel_dir,
                   const std::function<bool(std::size_t, const std::string&)>& keep);

}  // namespace clreduce::golden
