// The host reference of a reduction and the check of a device result against it: integers
// exactly (sums wrap modulo 2^32), min/max exactly, float/double sums within a bound derived
// from n (through the reduction's depth) and the data (the sum of |x|).
#pragma once

#include "data/host_data.hpp"
#include "clreduce/types.hpp"

#include <string>

namespace clreduce {

struct Reference {
  Value value;             // the exact answer in the element type (for float sums: the
                           // extended-precision sum rounded to the type)
  long double sum = 0;     // float sums: the compensated (Neumaier) sum in long double
  long double sum_abs = 0; // float sums: sum of |x|, which scales the tolerance
};

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

Check check_result(const Value& device, const Reference& ref, Op op, unsigned depth);

}  // namespace clreduce
