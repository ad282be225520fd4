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
// additions does (README: "Checks"); min and max are exact.
enum class Op { Sum, Min, Max };

const std::vector<ElemType>& all_types();
const std::vector<Op>& all_ops();

std::string_view name_of(ElemType t);  // "uint", "int", "float", "double"
std::string_view name_of(Op op);       // "sum", "min", "max"

std::size_t size_of(ElemType t);  // bytes of one element: 4 or 8
bool is_floating(ElemType t);

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
// int, float, double".
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
