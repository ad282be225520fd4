// Reading and checking a user operator's file (clreduce/user_operator.hpp).
#include "clreduce/user_operator.hpp"

#include "clreduce/error.hpp"
#include "core/user_text.hpp"

#include <cctype>
#include <optional>
#include <sstream>

namespace clreduce {

namespace {
constexpr const char* kValid =
    "a file that #defines OP(a, b) and IDENTITY (optionally ELEM_MAP(x) and OP_TYPE), or a reduction descriptor that "
    "#defines INPUTS, RESULT, ACC_TYPE, IDENTITY and COMBINE(a, b)";

UserOperator checked(const std::string& name, const std::filesystem::path& path, const std::string& text) {
  const std::string where = path.empty() ? "user operator '" + name + "'" : "operator file '" + path.string() + "'";
  check_user_text(text, Param::OpFile, where, kValid);
  UserOperator op;
  op.name = name;
  op.path = path;
  op.source = text;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::optional<DefineLine> d = define_line(line);
    if (!d || d->name != "OP_TYPE" || d->function_like) continue;
    // OP_TYPE's value: the word after it (blanks first).
    std::size_t a = 0;
    while (a < d->rest.size() && std::isspace(static_cast<unsigned char>(d->rest[a]))) ++a;
    std::size_t b = a;
    while (b < d->rest.size() && identifier_char(d->rest[b])) ++b;
    if (a == 0 || b == a) continue;
    const std::string type = d->rest.substr(a, b - a);
    try {
      op.type = parse_type(type);
    } catch (const Error&) {
      throw Error(Param::OpFile, where + ": OP_TYPE is '" + type + "'; valid: uint, int, float, double",
                  "uint, int, float, double");
    }
    break;
  }
  return op;
}
}  // namespace

UserOperator load_user_operator(const std::filesystem::path& file) {
  return checked(file.stem().string(), file,
                 read_user_file(file, Param::OpFile, "operator file",
                                "a readable .clh file that #defines OP(a, b) and IDENTITY (examples: kernels_cl/examples/)"));
}

UserOperator user_operator_from_text(const std::string& name, const std::string& text) {
  return checked(name, {}, text);
}

void check_user_operator_type(const UserOperator& op, ElemType t) {
  if (op.type && *op.type != t)
    throw ConfigError(Param::Type,
                      "the operator '" + op.name + "' is for " + std::string(name_of(*op.type)) + " (its OP_TYPE), not " +
                          std::string(name_of(t)),
                      std::string(name_of(*op.type)));
}

const UserOperator* user_operator_for(Op op, ElemType t, const std::shared_ptr<const UserOperator>& given) {
  if (op == Op::User && !given)
    throw ConfigError(Param::Op, "Op::User needs the user's operator: set the reducer options' user_op "
                                 "(load_user_operator(FILE); clreduce --op-file FILE)",
                      "sum, min, max, argmin, argmax, or a user operator file");
  if (op != Op::User && given)
    throw ConfigError(Param::Op,
                      "the reducer holds the user operator '" + given->name + "', but was asked for " +
                          std::string(name_of(op)) + "; use Op::User (or a reducer without user_op)",
                      "user");
  if (given) check_user_operator_type(*given, t);
  return op == Op::User ? given.get() : nullptr;
}

}  // namespace clreduce
