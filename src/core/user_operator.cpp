// Reading and checking a user operator's file (clreduce/user_operator.hpp).
#include "clreduce/user_operator.hpp"

#include "clreduce/error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

namespace clreduce {

namespace {
constexpr std::size_t kMaxBytes = 64 * 1024;

UserOperator checked(const std::string& name, const std::filesystem::path& path, const std::string& text) {
  const std::string where = path.empty() ? "user operator '" + name + "'" : "operator file '" + path.string() + "'";
  const char* valid = "a file that #defines OP(a, b) and IDENTITY (optionally ELEM_MAP(x) and OP_TYPE)";
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(Param::OpFile, where + " is empty; it must #define OP(a, b) and IDENTITY", valid);
  if (text.size() > kMaxBytes)
    throw Error(Param::OpFile, where + " holds " + std::to_string(text.size()) + " bytes, over the " +
                                   std::to_string(kMaxBytes) + " an operator file may hold",
                valid);
  static const std::regex include(R"re((^|\n)\s*#\s*include\b)re");
  if (std::regex_search(text, include))
    throw Error(Param::OpFile, where + " has an #include: an operator file is one self-contained file", valid);
  UserOperator op;
  op.name = name;
  op.path = path;
  op.source = text;
  static const std::regex type_line(R"re((^|\n)\s*#\s*define\s+OP_TYPE\s+([A-Za-z_0-9]+))re");
  std::smatch m;
  if (std::regex_search(text, m, type_line)) {
    try {
      op.type = parse_type(m[2].str());
    } catch (const Error&) {
      throw Error(Param::OpFile, where + ": OP_TYPE is '" + m[2].str() + "'; valid: uint, int, float, double",
                  "uint, int, float, double");
    }
  }
  return op;
}
}  // namespace

UserOperator load_user_operator(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const int e = errno;
  if (!in || std::filesystem::is_directory(file, ec))
    throw Error(Param::OpFile,
                "cannot read operator file '" + file.string() + "' (" +
                    (std::filesystem::is_directory(file, ec) ? std::string("a directory") : std::strerror(e)) +
                    "); give a .clh file that #defines OP(a, b) and IDENTITY (examples: kernels_cl/examples/)",
                "a readable .clh file that #defines OP(a, b) and IDENTITY");
  std::ostringstream text;
  text << in.rdbuf();
  return checked(file.stem().string(), file, text.str());
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
