// The host references and checks: of a reduction (a device result against it: integers
// exactly (sums wrap modulo 2^32), min/max exactly, float/double sums within a bound derived
// from n (through the reduction's depth) and the data (the sum of |x|)), of an axis and of a
// segmented reduction (each output so), and of a transpose (element by element).
#pragma once

#include "data/host_data.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace clreduce {

struct Reference {
  Value value;             // the exact answer in the element type (for float sums: the
                           // extended-precision sum rounded to the type)
  std::uint64_t index = kNoIndex;  // argmin/argmax: the index of `value` (NumPy's rule)
  std::uint64_t count = 0;         // a user operator's: the elements folded (its float bound)
  long double sum = 0;     // float sums: the compensated (Neumaier) sum in long double
  long double sum_abs = 0; // float sums: sum of |x|, which scales the tolerance
};

// Throws Error for Op::User: a user operator's reference comes from the device
// (measure/user_reference.hpp); likewise axis_reference and segment_reference.
Reference host_reference(const HostData& data, Op op);

// Worst-case rounding bound of a floating-point sum whose every element goes through at most
// `depth` additions: gamma(depth) * sum|x|, gamma(k) = k*u / (1 - k*u), u the unit round-off.
double sum_tolerance(ElemType t, long double sum_abs, unsigned depth);

struct Check {
  bool ok = false;
  double tolerance = 0;  // 0 for exact checks
  double error = 0;      // |device - reference| (float sums), 0 or 1 for exact checks
  // Float sums: |device - reference| / |reference| against the compensated reference (relative
  // to sum|x| when the reference is 0); negative where it does not apply (exact checks).
  double rel_error = -1;
  std::string detail;    // one line a person reads
};

// Two runs' answers agree: the same bits, or both NaN (a NaN's sign and payload may follow the
// order of the operations, which IEEE leaves open).
bool same_result(const Value& a, const Value& b);

Check check_result(const Value& device, const Reference& ref, Op op, unsigned depth);
// The same for every operator: for argmin/argmax the device's index must equal the reference's
// and its value be the same (NaN matching NaN); other operators ignore device_index.
Check check_result(const Value& device, std::uint64_t device_index, const Reference& ref, Op op, unsigned depth);

// The outputs of an axis or segmented reduction as read back: one value each, and for
// argmin/argmax the index beside it (ArgValue<T>); indexes is empty for the other operators.
struct Outputs {
  std::vector<Value> values;
  std::vector<std::uint64_t> indexes;
  std::size_t size() const { return values.size(); }
  std::uint64_t index(std::size_t i) const { return i < indexes.size() ? indexes[i] : kNoIndex; }
};
// `count` results of `op` on `type` laid out as the kernels write them (result_size bytes each).
Outputs read_outputs(const unsigned char* bytes, std::uint64_t count, ElemType type, Op op);

// One reference per row (axis rows: M of them) or per column (cols: N) of the M x N matrix `data`.
std::vector<Reference> axis_reference(const HostData& data, std::uint64_t m, std::uint64_t n, Axis axis, Op op);

// Every output of an axis reduction against its reference, each with check_result at `depth`
// (the segmented reductions' check has the same shape: SegmentCheck).
struct AxisCheck {
  bool ok = false;
  std::uint64_t failures = 0;  // outputs outside their bound (or not equal, for exact checks)
  double worst_rel_error = -1; // float sums: the largest relative error over the outputs
  std::string detail;          // "all 8192 rows exact", or the first failure with its index
};
AxisCheck check_axis(const Outputs& got, const std::vector<Reference>& refs, Axis axis, Op op, unsigned depth);

// One reference per segment of `data` (CSR offsets: S + 1 of them, valid for data.n). An empty
// segment's reference is what segments_group.cl writes: 0 for sum, the type's highest for min and
// its lowest for max (+inf and -inf for float and double).
std::vector<Reference> segment_reference(const HostData& data, const std::vector<std::uint64_t>& offsets, Op op);

// Every segment's value against its reference, each with check_result at the depth
// `depth_of(length)` gives for its length (SegmentedPlan::depth_of): integers and min/max
// exactly, float sums within the bound of the segment's own length. The detail names the first
// failing segment, with its range.
using SegmentCheck = AxisCheck;  // the same per-output check: one output per segment
SegmentCheck check_segments(const Outputs& got, const std::vector<Reference>& refs,
                            const std::vector<std::uint64_t>& offsets, Op op,
                            const std::function<unsigned(std::uint64_t)>& depth_of);

// The host transpose of an M x N matrix of `elem_size`-byte elements (cache-blocked).
std::vector<unsigned char> host_transpose(const std::vector<unsigned char>& in, std::uint64_t m,
                                          std::uint64_t n, std::size_t elem_size);

// Element-by-element comparison of a device output with the host transpose.
struct TransposeCheck {
  bool ok = false;
  std::uint64_t mismatches = 0;
  std::string detail;  // the first mismatch (output row, column, expected, got) or "exact"
};
TransposeCheck check_transpose(const std::vector<unsigned char>& got,
                               const std::vector<unsigned char>& expected, std::uint64_t m,
                               std::uint64_t n, ElemType t);

}  // namespace clreduce
