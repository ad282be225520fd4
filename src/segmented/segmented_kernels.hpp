// The segmented family's three kernels and their launch parameters, declared as data
// (include/clreduce/kernel_spec.hpp): segments_group (one work-group per segment), segments_split (a
// segment cut into parts, one group each, then segments_split_finish) and segments_sliced (a
// slice of work-items per segment, several segments per group). The planner
// (src/segmented/segmented_reducer.cpp) resolves every parameter and options_for writes the -D
// string. Thread-safety: the tables are immutable after first use.
#pragma once

#include "clreduce/kernel_spec.hpp"

#include <vector>

namespace clreduce {

const KernelSpec& segments_group_kernel();
const KernelSpec& segments_split_kernel();
const KernelSpec& segments_sliced_kernel();
const std::vector<const KernelSpec*>& segmented_kernels();

}  // namespace clreduce
