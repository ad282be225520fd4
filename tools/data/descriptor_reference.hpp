// Host data of any descriptor element type (clreduce/reduction.hpp), and the host reference and
// check of a built-in descriptor's result: integers and min/max/arg results exactly; float
// results within a bound derived from the reduction's depth and the data (sums: gamma(depth) *
// sum|term|; variances: the condition number of the data scales it); IEEE NaN and infinities as
// the built-in defines them.
#pragma once

#include "clreduce/reduction.hpp"
#include "data/exact_reference.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// n elements of one type, native (little-endian) layout.
struct ScalarData {
  Scalar type = Scalar::F32;
  std::uint64_t n = 0;
  std::vector<unsigned char> bytes;
  std::string origin;  // "random, seed 42" or the file name
  const void* data() const { return bytes.data(); }
  long double at(std::uint64_t i) const;  // element i's value (exact for every type: long double holds 64 bits)
};

// Deterministic for (type, n, kind, seed, stream): random integers over the type's whole range,
// floats (f16 and bf16 by their bit layout) uniform in [-1, 1); iota (i, wrapping for narrow
// types), ones, max (the largest finite value). `stream` numbers the inputs of one run (a dot's
// second input differs from its first).
ScalarData generate_scalar_data(Scalar t, std::uint64_t n, DataKind kind, std::uint64_t seed, unsigned stream = 0);
// Elements [first, first + n) of a counter-based array: element i depends only on (t, kind, seed,
// stream, i), so a shard (an MPI rank's) is the same slice of the whole however the whole is cut.
// Random: floats uniform in [-1, 1) (f16 and bf16 rounded to nearest from a double, so 1 too), integers
// over the type's whole range; the other kinds as above. Not generate_scalar_data's values (its
// random stream is sequential).
ScalarData generate_scalar_data_range(Scalar t, std::uint64_t first, std::uint64_t n, DataKind kind,
                                      std::uint64_t seed, unsigned stream = 0);
// Raw little-endian elements of `t` from `path`: n from the file's size unless `n` says fewer.
// Throws Error as read_data_file does (missing, empty, not whole elements, shorter than n).
// scalar_file_elements: the same checks and the count, from the file's size alone (no byte read).
std::uint64_t scalar_file_elements(const std::filesystem::path& path, Scalar t, std::optional<std::uint64_t> n);
ScalarData read_scalar_file(const std::filesystem::path& path, Scalar t, std::optional<std::uint64_t> n);

struct DescriptorReference {
  Result exact;                // exact results (Reduction::exact): the expected bytes
  long double value = 0;       // float results: the reference (the first value)
  double tolerance = 0;        // float results: the allowed |device - value|
  bool nan = false;            // float results: NaN expected
  bool inf_or_nan = false;     // var/std of data holding an infinity: NaN (or +inf, by the order)
  // Sums (and means) whose sum of |terms| passes the accumulator's range: a partial sum may
  // overflow, so +-inf (or NaN, where two overflowed the other way) is a right result too.
  bool may_overflow = false;
  bool bits = false;           // exact summation: the expected bytes bit for bit (+0 is not -0)
  std::string how;             // one line: "exact", or the bound and what it comes from
};

// The reference of the built-in `r` (r.builtin set) over `inputs` (one per r.inputs, n elements
// each) for a launch whose longest combine chain is `depth`. Throws Error for a descriptor that is
// not a built-in (its host reference is the user's to give).
DescriptorReference descriptor_reference(const Reduction& r, const std::vector<const ScalarData*>& inputs,
                                         std::uint64_t n, unsigned depth);
// The same over a view of the inputs: the n elements first, first + stride, ... (a row: stride 1
// from the row's start; a column: stride ld; a segment: stride 1), with the map's index counting
// from 0 at `first`. n = 0 (an empty segment): the built-in's finish of its identity (sums,
// counts and norms 0, all 1, float min/max NaN, integer min/max the type's highest/lowest, arg
// results index 2^64 - 1, means and variances NaN).
DescriptorReference descriptor_reference(const Reduction& r, const std::vector<const ScalarData*>& inputs,
                                         std::uint64_t first, std::uint64_t n, std::uint64_t stride, unsigned depth);
// The reference of an exact built-in (Summation::Exact) from the exact sum of its terms (each
// element for sum and mean; each product for dot, sumsq and l2), however that sum was gathered
// (a shard's sums merged: ExactSum::merge). Throws Error (Param::Op) for another descriptor.
DescriptorReference exact_descriptor_reference(const Reduction& r, const ExactSum& sum);
// The device's result against it: exact results by value (+0 equals -0, NaN equals NaN), float
// results within the tolerance; an exact summation's bit for bit, its detail with the bits in hex.
Check check_descriptor(const Result& got, const DescriptorReference& ref);
// " (0x44552a46)": the first value's bits in hex, for an f32 or f64 result (an exact summation's,
// the same on every device, launch and split); "" for another type.
std::string bits_hex(const Result& r);

}  // namespace clreduce
