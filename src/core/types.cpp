// Names, sizes and parsers of element types, operators and data kinds.
#include "clreduce/types.hpp"

#include "clreduce/error.hpp"

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
const std::vector<DataKind>& all_data_kinds() {
  static const std::vector<DataKind> v{DataKind::Random, DataKind::Iota, DataKind::Ones,
                                       DataKind::Max};
  return v;
}

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
  }
  return "?";
}
std::string_view name_of(DataKind d) {
  switch (d) {
    case DataKind::Random: return "random";
    case DataKind::Iota: return "iota";
    case DataKind::Ones: return "ones";
    case DataKind::Max: return "max";
  }
  return "?";
}

std::size_t size_of(ElemType t) { return t == ElemType::Double ? 8 : 4; }
bool is_floating(ElemType t) { return t == ElemType::Float || t == ElemType::Double; }

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
E parse_choice(std::string_view text, const std::vector<E>& all, std::string_view what,
               std::string_view plural) {
  std::vector<std::string> names;
  for (E e : all) {
    if (name_of(e) == text) return e;
    names.emplace_back(name_of(e));
  }
  throw Error("unknown " + std::string(what) + " '" + std::string(text) + "'; valid " +
              std::string(plural) + ": " + join(names));
}
}  // namespace

ElemType parse_type(std::string_view text) { return parse_choice(text, all_types(), "type", "types"); }
Op parse_op(std::string_view text) { return parse_choice(text, all_ops(), "operator", "operators"); }
DataKind parse_data_kind(std::string_view text) {
  return parse_choice(text, all_data_kinds(), "data kind", "data kinds");
}

}  // namespace clreduce
