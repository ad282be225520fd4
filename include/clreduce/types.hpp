// Element types, operators and input-data kinds: their names, sizes, and parsing from text with
// errors that list the valid choices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

enum class ElemType { Uint, Int, Float, Double };
enum class Op { Sum, Min, Max };
// Generated inputs: random (seeded), iota (element i = i), ones, max (the type's largest value).
enum class DataKind { Random, Iota, Ones, Max };

const std::vector<ElemType>& all_types();
const std::vector<Op>& all_ops();
const std::vector<DataKind>& all_data_kinds();

std::string_view name_of(ElemType t);
std::string_view name_of(Op op);
std::string_view name_of(DataKind d);

std::size_t size_of(ElemType t);
bool is_floating(ElemType t);

// Case-sensitive; throws Error "unknown type 'x'; valid types: uint, int, float, double".
ElemType parse_type(std::string_view text);
Op parse_op(std::string_view text);
DataKind parse_data_kind(std::string_view text);

// "a, b, c" from names; used by every "valid choices" message.
std::string join(const std::vector<std::string>& items, std::string_view sep = ", ");

}  // namespace clreduce
