// The launch parameters of the descriptor families' kernels, declared as data
// (include/clreduce/kernel_spec.hpp says how the tables are read and turned into option strings).
// Thread-safety: the tables are immutable after first use.
#pragma once

#include "clreduce/kernel_spec.hpp"

#include <vector>

namespace clreduce {

// The three descriptor kernels: whole arrays (reduce_descriptor.cl), lines (rows of a matrix and
// segments: reduce_descriptor_lines.cl), columns (reduce_descriptor_cols.cl).
const KernelSpec& whole_kernel();
const KernelSpec& lines_kernel();
const KernelSpec& columns_kernel();
const std::vector<const KernelSpec*>& descriptor_kernels();

}  // namespace clreduce
