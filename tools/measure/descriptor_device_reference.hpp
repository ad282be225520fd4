// The reference of a reduction descriptor that is not a built-in (a user's descriptor file),
// which the host cannot compute: its map and combine are the user's OpenCL C.
// kernels_cl/descriptor_reference.cl folds each piece's elements one after another in index
// order, one work-item per piece, and each result's pieces in order, on the session's device; it
// shares no code path with the kernels it checks (no vectors, no tree, no local memory).
// Thread-safety: one call at a time per Session.
#pragma once

#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "data/reference.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <vector>

namespace clreduce {

// What one result reduces: `count` elements from `first`, `stride` apart, the map's index
// counting from `index`.
struct ReferenceLine {
  std::uint64_t first = 0, count = 0, index = 0;
};

// One result per line of `inputs` (each input's buffer and offset as the reduction took them),
// with the run's scalars. A line of stride 1 is folded in pieces of reference_piece(count)
// elements (each piece's index continues the line's), the pieces then in order. Throws Error as
// the build and the OpenCL calls do (a broken descriptor: its mapped build log).
struct DeviceReference {
  std::vector<Result> results;     // one per line
  // One per line: the sum of |each lifted value| where the accumulator is a float or double
  // scalar (the scale of a sum's rounding error, whatever the signs); 0 where it is not known.
  std::vector<double> magnitudes;
};
DeviceReference descriptor_device_reference(const Session& s, const Reduction& r, const std::vector<Input>& inputs,
                                            const std::vector<ReferenceLine>& lines, std::uint64_t stride,
                                            const std::vector<ScalarArg>& scalars);

// Elements per piece of a stride-1 line of `count`: about sqrt(count), a power of two in
// [64, 65536], so the reference's longest chain (reference_depth) stays near 2 sqrt(count).
std::uint64_t reference_piece(std::uint64_t count);
// The most combines any element of such a line goes through in the reference.
std::uint64_t reference_depth(std::uint64_t count, std::uint64_t stride);

// The device's result against such a reference: integers by their bytes; floats within
// 2 (gamma(device_depth + 2) + gamma(reference_depth + 2)) max(|reference|, magnitude) (both
// orders' bound for a sum, with two roundings of the map and lift: with the terms' magnitude
// known, whatever their signs; without it (a struct accumulator), |reference| stands for it,
// which holds for terms of one sign and a finish that scales the sum, and may be exceeded where
// terms cancel), NaN matching NaN, infinities exactly; an argvalue's index exactly, a pair's two
// values each.
Check check_user_descriptor(const Result& got, const Result& reference, double magnitude, std::uint64_t device_depth,
                            std::uint64_t reference_depth);

}  // namespace clreduce
