// The reference of a user's operator (Op::User), which the host cannot compute: the operator is
// the user's OpenCL C. kernels_cl/user_reference.cl folds each output's elements one after
// another in index order, one work-item per output, on the session's device; it shares no code
// path with the variants it checks (no tree, no local memory, no vectors). Each Reference holds
// the value and `count`, the elements folded, which sets the float bound (check_result).
#pragma once

#include "clreduce/axis.hpp"
#include "clreduce/user_operator.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "measure/session.hpp"

#include <cstdint>
#include <vector>

namespace clreduce {

// The whole array: chunks of 4096 elements folded in order by one work-item each, then the chunks'
// values in order by one work-item.
Reference user_reference(const Session& s, const UserOperator& op, const HostData& data);
// One per row (Axis::Rows: M) or column (N) of the M x N matrix `data`.
std::vector<Reference> user_axis_reference(const Session& s, const UserOperator& op, const HostData& data,
                                           std::uint64_t m, std::uint64_t n, Axis axis);
// One per segment (an empty one: IDENTITY).
std::vector<Reference> user_segment_reference(const Session& s, const UserOperator& op, const HostData& data,
                                              const std::vector<std::uint64_t>& offsets);

// The reference a run checks against, whatever the operator: the device's for Op::User (with
// `user_op`), else the host's (host_reference, axis_reference, segment_reference).
Reference reference_for(const Session& s, const HostData& data, Op op, const UserOperator* user_op);
std::vector<Reference> axis_reference_for(const Session& s, const HostData& data, std::uint64_t m, std::uint64_t n,
                                          Axis axis, Op op, const UserOperator* user_op);
std::vector<Reference> segment_reference_for(const Session& s, const HostData& data,
                                             const std::vector<std::uint64_t>& offsets, Op op,
                                             const UserOperator* user_op);

}  // namespace clreduce
