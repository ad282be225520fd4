// Names, sizes and parsers of element types and operators; Value; -D definitions.
#include "clreduce/types.hpp"

#include "core/number_text.hpp"

#include "clreduce/error.hpp"

#include <cctype>
#include <cstddef>
#include <cstring>
#include <limits>
#include <sstream>

namespace clreduce {

const std::vector<ElemType>& all_types() {
  static const std::vector<ElemType> v{ElemType::Uint, ElemType::Int, ElemType::Float,
                                       ElemType::Double};
  return v;
}
const std::vector<Op>& all_ops() {
  static const std::vector<Op> v{Op::Sum, Op::Min, Op::Max};
  return v;
}
const std::vector<Op>& all_arg_ops() {
  static const std::vector<Op> v{Op::ArgMin, Op::ArgMax};
  return v;
}
bool is_arg_op(Op op) { return op == Op::ArgMin || op == Op::ArgMax; }

std::string_view name_of(ElemType t) {
  switch (t) {
    case ElemType::Uint: return "uint";
    case ElemType::Int: return "int";
    case ElemType::Float: return "float";
    case ElemType::Double: return "double";
  }
  return "?";
}
std::string_view name_of(Op op) {
  switch (op) {
    case Op::Sum: return "sum";
    case Op::Min: return "min";
    case Op::Max: return "max";
    case Op::ArgMin: return "argmin";
    case Op::ArgMax: return "argmax";
    case Op::User: return "user";
  }
  return "?";
}

std::size_t size_of(ElemType t) { return t == ElemType::Double ? 8 : 4; }
bool is_floating(ElemType t) { return t == ElemType::Float || t == ElemType::Double; }
std::size_t result_size(ElemType t, Op op) {
  static_assert(sizeof(ArgValue<float>) == 16 && sizeof(ArgValue<double>) == 16 &&
                    offsetof(ArgValue<std::uint32_t>, index) == 8,
                "ArgValue must match the kernels' arg_pair (reduce_common.clh)");
  return is_arg_op(op) ? 16 : size_of(t);
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

namespace {
template <class E>
E parse_choice(std::string_view text, const std::vector<E>& all, Param param, std::string_view what,
               std::string_view plural) {
  std::vector<std::string> names;
  for (E e : all) {
    if (name_of(e) == text) return e;
    names.emplace_back(name_of(e));
  }
  throw Error(param, "unknown " + std::string(what) + " '" + std::string(text) + "'; valid " +
              std::string(plural) + ": " + join(names), join(names));
}
}  // namespace

ElemType parse_type(std::string_view text) {
  return parse_choice(text, all_types(), Param::Type, "type", "types");
}
Op parse_op(std::string_view text) {
  static const std::vector<Op> every{Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax};
  return parse_choice(text, every, Param::Op, "operator", "operators");
}

ElemType Value::type() const {
  switch (v.index()) {
    case 0: return ElemType::Uint;
    case 1: return ElemType::Int;
    case 2: return ElemType::Float;
    default: return ElemType::Double;
  }
}

double Value::to_double() const {
  return std::visit([](auto x) { return static_cast<double>(x); }, v);
}

std::string Value::str() const {
  return std::visit(
      [](auto x) -> std::string {
        using X = decltype(x);
        if constexpr (std::is_floating_point_v<X>) {
          return float_text(x);
        } else {
          return std::to_string(x);
        }
      },
      v);
}

bool Value::operator==(const Value& o) const {
  if (v.index() != o.v.index()) return false;
  return std::visit(
      [&](auto x) {
        const auto y = std::get<decltype(x)>(o.v);
        return std::memcmp(&x, &y, sizeof x) == 0;
      },
      v);
}

Value Value::from_bytes(ElemType t, const void* p) {
  Value out;
  switch (t) {
    case ElemType::Uint: { std::uint32_t x; std::memcpy(&x, p, 4); out.v = x; break; }
    case ElemType::Int: { std::int32_t x; std::memcpy(&x, p, 4); out.v = x; break; }
    case ElemType::Float: { float x; std::memcpy(&x, p, 4); out.v = x; break; }
    case ElemType::Double: { double x; std::memcpy(&x, p, 8); out.v = x; break; }
  }
  return out;
}

namespace {
bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

std::string Define::str() const { return value ? name + "=" + *value : name; }

Define parse_define(std::string_view text) {
  // The text as shown in the one-line message: a newline or other control character in it is
  // written as \n, \t, \xNN.
  std::string shown;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') shown += "\\n";
    else if (c == '\r') shown += "\\r";
    else if (c == '\t') shown += "\\t";
    else if (u < 0x20 || u == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      shown += "\\x";
      shown += hex[u >> 4];
      shown += hex[u & 15];
    } else shown += c;
  }
  auto bad = [&](const std::string& why) -> Error {
    return Error(Param::Define, "invalid -D definition '" + shown + "': " + why +
                 "; use NAME or NAME=VALUE, e.g. -D ELEM_MAP(x)=((x)*(x))", "NAME or NAME=VALUE");
  };
  if (text.empty()) throw bad("it is empty");
  Define d;
  std::size_t eq = text.find('=');
  std::string_view head = text.substr(0, eq);
  if (head.empty() || !is_ident_start(head.front())) throw bad("the name must start with a letter or _");
  std::size_t i = 1;
  while (i < head.size() && is_ident_char(head[i])) ++i;
  if (i < head.size()) {
    // A function-like macro: NAME(a,b)
    if (head[i] != '(' || head.back() != ')') throw bad("the name must be a C identifier");
    for (char c : head.substr(i + 1, head.size() - i - 2))
      if (!is_ident_char(c) && c != ',') throw bad("macro parameters must be identifiers");
  }
  d.name = std::string(head);
  if (eq != std::string_view::npos) {
    std::string_view value = text.substr(eq + 1);
    for (char c : value)
      if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'')
        throw bad("the value may not contain spaces, newlines or quotes");
    d.value = std::string(value);
  }
  return d;
}

}  // namespace clreduce
