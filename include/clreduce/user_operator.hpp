// A user's own operator (Op::User): a small OpenCL C file, read at run time and compiled into
// every kernel in place of kernels_cl/user_op.clh, so a new operator needs no host rebuild. The
// file must #define
//   OP(a, b)    the operator: associative and commutative (the variants fold in any order and
//               grouping), and written so that it also works on vectors component-wise (the
//               vector variants apply it to T4, T8, ...): `*`, `+`, min, max, fmin, fmax do;
//   IDENTITY    its identity as a value of T (the element type), e.g. ((T)1) for a product;
// and may #define
//   ELEM_MAP(x) applied to each input element first (a sum of squares: ((x) * (x)));
//   OP_TYPE     uint, int, float or double: the element type the operator is for (clreduce then
//               refuses another --type, and takes it as the default).
// A file missing OP or IDENTITY fails to build; the Error carries the compiler's log, which names
// what is missing. kernels_cl/examples/ holds two: product.clh and sum_of_squares.clh.
//
// Checks: the tools compute the reference of a user operator on the device (there is no host
// version of the user's C): one work-item per output folds its elements in index order
// (kernels_cl/user_reference.cl). Integers must match it exactly; floats within 2 * gamma(n) *
// |reference| (gamma(k) = k*u / (1 - k*u)), the bound of any order of a product, or of a sum of
// terms of one sign; an operator whose rounding errors cancel (a plain sum of mixed signs) may
// exceed it.
// Thread-safety: plain values and pure functions.
#pragma once

#include "clreduce/types.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace clreduce {

struct UserOperator {
  std::string name;              // the file's stem ("product"), for reports
  std::filesystem::path path;    // where it was read from (empty for text given in code)
  std::string source;            // the file's text, compiled in place of user_op.clh
  std::optional<ElemType> type;  // OP_TYPE, when the file names one
};

// Reads `file`. Throws Error (Param::OpFile) naming the path when it cannot be read, is empty, is
// over 64 KiB, holds an #include (a user operator is one self-contained file) or names an OP_TYPE
// that is not uint, int, float or double. What it defines is checked by the compiler.
UserOperator load_user_operator(const std::filesystem::path& file);
// The same checks on text given in code; `name` names it in reports.
UserOperator user_operator_from_text(const std::string& name, const std::string& text);

// Throws ConfigError (Param::Type) when the operator is for another type than `t`.
void check_user_operator_type(const UserOperator& op, ElemType t);
// What a reducer checks before planning: Op::User needs an operator (ConfigError, Param::Op), of
// type `t` where it names one; another op with an operator given is refused too (the operator
// would be silently ignored). Returns the operator to build with (null for the built-in ones).
const UserOperator* user_operator_for(Op op, ElemType t, const std::shared_ptr<const UserOperator>& given);

}  // namespace clreduce
