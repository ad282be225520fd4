// Element types and operators (their names, sizes, parsing from text with errors that list the
// valid choices), one value of any element type, and a user's -D definition for the kernel
// compiler.
// Thread-safety: plain values and pure functions; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace clreduce {

// The element types a reduction takes: 32-bit unsigned and signed integers, float and double
// (double only on devices that report cl_khr_fp64).
enum class ElemType { Uint, Int, Float, Double };
// The operators. Integer sums wrap modulo 2^32; float sums round as the reduction's order of
// additions does (README: "Checks"); min and max are exact (floats: fmin/fmax, a NaN loses to a
// number). ArgMin and ArgMax give the value and its index (ArgValue): ties go to the lowest index
// and, for floats, the first NaN wins (NumPy's and PyTorch's rule); the axis and segmented
// reductions compute them, the whole-array family (Reducer) takes Sum, Min and Max only.
// User is the operator of a user's file (clreduce/user_operator.hpp), given to the reducer in
// its options; every variant takes it.
enum class Op { Sum, Min, Max, ArgMin, ArgMax, User };

const std::vector<ElemType>& all_types();
const std::vector<Op>& all_ops();      // sum, min, max: what every reduction takes
const std::vector<Op>& all_arg_ops();  // argmin, argmax
bool is_arg_op(Op op);

std::string_view name_of(ElemType t);  // "uint", "int", "float", "double"
std::string_view name_of(Op op);       // "sum", "min", "max", "argmin", "argmax", "user"

std::size_t size_of(ElemType t);  // bytes of one element: 4 or 8
bool is_floating(ElemType t);
// Bytes of one result of `op` on `t`: size_of(t), or 16 for an ArgValue.
std::size_t result_size(ElemType t, Op op);

// One argmin/argmax result as the kernels write it: the value, then its index (within the row,
// the column or the segment; in the whole array for a whole-array argmin/argmax), 16 bytes for
// every T. An empty segment's index is kNoIndex.
template <class T>
struct ArgValue {
  T value;
  std::uint64_t index;
};
inline constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};

// The ElemType of a C++ element type: std::uint32_t, std::int32_t, float, double.
template <class T>
constexpr ElemType element_type_of() {
  static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int32_t> ||
                    std::is_same_v<T, float> || std::is_same_v<T, double>,
                "clreduce reduces std::uint32_t, std::int32_t, float and double");
  if constexpr (std::is_same_v<T, std::uint32_t>) return ElemType::Uint;
  else if constexpr (std::is_same_v<T, std::int32_t>) return ElemType::Int;
  else if constexpr (std::is_same_v<T, float>) return ElemType::Float;
  else return ElemType::Double;
}

// Case-sensitive; throw Error (Param::Type / Param::Op) "unknown type 'x'; valid types: uint,
// int, float, double"; parse_op takes every Op ("...; valid operators: sum, min, max, argmin, argmax").
ElemType parse_type(std::string_view text);
Op parse_op(std::string_view text);

// "a, b, c" from names; used by every "valid choices" message.
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

// One element of any element type.
struct Value {
  std::variant<std::uint32_t, std::int32_t, float, double> v;

  ElemType type() const;
  double to_double() const;
  std::string str() const;  // exact for integers; shortest round-trip text for floats
  // The same type and the same bits: a NaN equals the same NaN (two runs that agree).
  bool operator==(const Value& o) const;
  bool operator!=(const Value& o) const { return !(*this == o); }
  static Value from_bytes(ElemType t, const void* p);  // native (little-endian) layout
  template <class T>
  T get() const { return std::get<T>(v); }
};

// One user definition for the kernel compiler: -D NAME or -D NAME=VALUE.
struct Define {
  std::string name;
  std::optional<std::string> value;
  std::string str() const;  // "NAME" or "NAME=VALUE"
  bool operator==(const Define& o) const { return name == o.name && value == o.value; }
};

// "NAME", "NAME=VALUE", "NAME(args)=VALUE" (a function-like macro). NAME must be a C identifier;
// VALUE may not contain whitespace or quotes (the build option string is split on spaces).
// Throws Error (Param::Define) naming the text and the accepted forms.
Define parse_define(std::string_view text);

}  // namespace clreduce
