// A user's reduction descriptor file (clreduce/reduction.hpp, load_reduction): the few #define
// lines the host must know before any build (the inputs', scalars' and result's types, the
// accumulator's size) are read here; every other field of the Reduction names the file's own
// macro (MAP(x0, i), COMBINE(a, b), ...), so what they mean is the compiler's to check, and its
// messages point into the file (Reduction::origin).
#include "clreduce/error.hpp"
#include "clreduce/reduction.hpp"
#include "core/user_text.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

namespace clreduce {

namespace {
constexpr const char* kValid =
    "a .clh file that #defines INPUTS, RESULT, ACC_TYPE, IDENTITY and COMBINE(a, b) (optionally SCALARS, MAP_TYPE, "
    "MAP, LIFT, FINISH, OUT_TYPE, ACC_BYTES; examples: kernels_cl/examples/)";

// Each macro the file #defines: its name -> the rest of its line (an object-like macro's value,
// comments dropped) and whether it is function-like. A name defined twice is refused.
struct Defined {
  std::string value;
  bool function_like = false;
  int parameters = -1;     // function-like: how many it names (-1: its list does not close on the line)
  bool continued = false;  // the line ends in a backslash
};

std::map<std::string, Defined> defines_of(const std::string& text, const std::string& where) {
  std::map<std::string, Defined> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::optional<DefineLine> m = define_line(line);
    if (!m) continue;
    Defined d;
    d.function_like = m->function_like;
    d.continued = !line.empty() && line.back() == '\\';
    std::string v = m->rest;
    if (d.function_like) {
      if (const auto close = v.find(')'); close != std::string::npos) {
        const std::string list = v.substr(0, close);
        d.parameters = list.find_first_not_of(" \t") == std::string::npos
                           ? 0
                           : static_cast<int>(std::count(list.begin(), list.end(), ',')) + 1;
        v = v.substr(close + 1);
      }
    }
    for (const char* c : {"//", "/*"})
      if (auto at = v.find(c); at != std::string::npos) v.erase(at);
    const auto a = v.find_first_not_of(" \t"), b = v.find_last_not_of(" \t");
    d.value = a == std::string::npos ? "" : v.substr(a, b - a + 1);
    if (!out.emplace(m->name, d).second)
      throw Error(Param::OpFile, where + " #defines " + m->name + " twice", kValid);
  }
  return out;
}

// A one-line object-like macro's value, or nothing when the file does not define it.
std::optional<std::string> value_of(const std::map<std::string, Defined>& d, const std::string& name,
                                    const std::string& where) {
  auto it = d.find(name);
  if (it == d.end()) return std::nullopt;
  if (it->second.function_like || it->second.continued || it->second.value.empty())
    throw Error(Param::OpFile, where + ": " + name + " must be an object-like #define on one line with its value (" +
                                   name + " as the file comment of clreduce/reduction.hpp shows)",
                kValid);
  return it->second.value;
}

std::vector<Scalar> types_of(const std::string& list, const std::string& name, const std::string& where) {
  std::vector<Scalar> out;
  // Split at blanks and commas by hand (std::regex recursed per character of a long run).
  std::size_t i = 0;
  while (i < list.size()) {
    auto separator = [&](char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); };
    while (i < list.size() && separator(list[i])) ++i;
    const std::size_t start = i;
    while (i < list.size() && !separator(list[i])) ++i;
    if (i == start) continue;
    try {
      out.push_back(parse_scalar(list.substr(start, i - start)));
    } catch (const Error& e) {
      throw Error(Param::OpFile, where + ": " + name + ": " + e.what(), e.valid());
    }
  }
  return out;
}

// The bytes of an OpenCL C built-in scalar or vector type (0 for any other, a struct's name).
std::size_t builtin_type_bytes(const std::string& type) {
  static const std::regex re(R"(^(u?char|u?short|half|u?int|float|u?long|double)(2|3|4|8|16)?$)");
  std::smatch m;
  if (!std::regex_match(type, m, re)) return 0;
  const std::string base = m[1].str();
  const std::size_t b = base.find("char") != std::string::npos ? 1
                        : base.find("short") != std::string::npos || base == "half" ? 2
                        : base.find("int") != std::string::npos || base == "float" ? 4
                        : 8;
  const std::size_t n = m[2].str().empty() ? 1 : std::stoul(m[2].str());
  return b * (n == 3 ? 4 : n);
}

// RESULT's value read by hand: "t", "argvalue<t>" or "pair<t>" (blanks around < and >), t a word;
// the kind ("" for t alone) and t, or nothing.
std::optional<std::pair<std::string, std::string>> result_parts(const std::string& text) {
  auto word_end = [&](std::size_t i) {
    while (i < text.size() && identifier_char(text[i])) ++i;
    return i;
  };
  auto skip_blanks = [&](std::size_t i) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    return i;
  };
  const std::size_t first = word_end(0);
  if (first == 0) return std::nullopt;
  if (first == text.size()) return std::make_pair(std::string(), text);
  const std::string kind = text.substr(0, first);
  if (kind != "argvalue" && kind != "pair") return std::nullopt;
  std::size_t i = skip_blanks(first);
  if (i == text.size() || text[i] != '<') return std::nullopt;
  i = skip_blanks(i + 1);
  const std::size_t t_end = word_end(i);
  if (t_end == i) return std::nullopt;
  const std::string t = text.substr(i, t_end - i);
  i = skip_blanks(t_end);
  if (i + 1 != text.size() || text[i] != '>') return std::nullopt;
  return std::make_pair(kind, t);
}

ResultLayout layout_of(const std::string& text, const std::string& where) {
  const std::string valid = "t, argvalue<t> or pair<t>, t one of u8, i8, u16, i16, u32, i32, u64, i64, f32, f64";
  const auto parts = result_parts(text);
  if (!parts) throw Error(Param::OpFile, where + ": RESULT is '" + text + "'; valid: " + valid, valid);
  ResultLayout l;
  const std::string t = parts->second;
  try {
    l.type = parse_scalar(t);
  } catch (const Error& e) {
    throw Error(Param::OpFile, where + ": RESULT: " + e.what(), valid);
  }
  if (l.type == Scalar::F16 || l.type == Scalar::BF16)
    throw Error(Param::OpFile, where + ": RESULT of " + t + ": results of 16-bit floats are f32 (the kernels compute in float)",
                valid);
  if (!parts->first.empty()) l.kind = parts->first == "argvalue" ? ResultLayout::Kind::Arg : ResultLayout::Kind::Pair;
  return l;
}

Reduction parse(const std::string& name, const std::filesystem::path& path, const std::string& text) {
  const std::string where = path.empty() ? "reduction '" + name + "'" : "descriptor file '" + path.string() + "'";
  check_user_text(text, Param::OpFile, where, kValid);
  const std::map<std::string, Defined> d = defines_of(text, where);
  for (const char* required : {"INPUTS", "RESULT", "ACC_TYPE", "IDENTITY", "COMBINE"})
    if (!d.count(required))
      throw Error(Param::OpFile, where + " does not #define " + std::string(required), kValid);
  auto function_like = [&](const char* macro, bool want) {
    auto it = d.find(macro);
    if (it != d.end() && it->second.function_like != want)
      throw Error(Param::OpFile,
                  where + ": " + macro + (want ? " takes arguments: #define " + std::string(macro) + "(...) with no space before '('"
                                               : " is a value, not a function-like macro"),
                  kValid);
  };
  for (const char* f : {"COMBINE", "MAP", "LIFT", "FINISH"}) function_like(f, true);
  // The parameters each function-like macro is called with (MAP's once INPUTS and SCALARS are read).
  auto arity = [&](const char* macro, int want, const std::string& list) {
    auto it = d.find(macro);
    if (it != d.end() && it->second.parameters >= 0 && it->second.parameters != want)
      throw Error(Param::OpFile,
                  where + ": " + macro + " takes " + std::to_string(it->second.parameters) + " parameter(s); it is called as " +
                      macro + "(" + list + ")",
                  kValid);
  };
  arity("COMBINE", 2, "a, b");
  arity("LIFT", 2, "v, i");
  arity("FINISH", 2, "a, n");
  for (const char* v : {"INPUTS", "RESULT", "ACC_TYPE", "IDENTITY", "SCALARS", "MAP_TYPE", "OUT_TYPE", "ACC_BYTES"})
    function_like(v, false);

  Reduction r;
  r.name = name;
  r.origin = path.empty() ? "" : std::filesystem::absolute(path).string();
  r.inputs = types_of(*value_of(d, "INPUTS", where), "INPUTS", where);
  if (r.inputs.empty() || r.inputs.size() > 4)
    throw Error(Param::OpFile, where + ": INPUTS names " + std::to_string(r.inputs.size()) + " types; a reduction takes 1 to 4",
                kValid);
  if (auto s = value_of(d, "SCALARS", where)) r.scalars = types_of(*s, "SCALARS", where);
  if (r.scalars.size() > 4)
    throw Error(Param::OpFile, where + ": SCALARS names " + std::to_string(r.scalars.size()) + " types; at most 4", kValid);
  r.out = layout_of(*value_of(d, "RESULT", where), where);
  const std::string acc = *value_of(d, "ACC_TYPE", where);
  if (auto bytes = value_of(d, "ACC_BYTES", where)) {
    static const std::regex digits("^[1-9][0-9]{0,3}$");
    if (!std::regex_match(*bytes, digits))
      throw Error(Param::OpFile, where + ": ACC_BYTES is '" + *bytes + "'; give sizeof(ACC_TYPE) in bytes (1 to 9999)",
                  "a number of bytes");
    r.acc_bytes = std::stoul(*bytes);
  } else if (!(r.acc_bytes = builtin_type_bytes(acc))) {
    throw Error(Param::OpFile, where + ": ACC_TYPE " + acc + " is not a built-in scalar or vector type (a struct of the "
                                       "file, or a misspelt type): #define ACC_BYTES N, N = sizeof(" + acc +
                                       ") in bytes, as a number (the kernel checks it)",
                kValid);
  }
  const bool value_result = r.out.kind == ResultLayout::Kind::Value;
  if (!value_result && !d.count("OUT_TYPE"))
    throw Error(Param::OpFile, where + ": RESULT " + r.out.str() + " needs OUT_TYPE, a type laid out as it (" +
                                   std::to_string(r.out.bytes()) + " bytes)",
                kValid);
  if (r.inputs.size() > 1 && !d.count("MAP"))
    throw Error(Param::OpFile, where + ": " + std::to_string(r.inputs.size()) + " inputs need MAP(x0, .., i" +
                                   (r.scalars.empty() ? "" : ", s0, ..") + ") to say what is reduced",
                kValid);
  if (!r.scalars.empty() && !d.count("MAP"))
    throw Error(Param::OpFile, where + ": SCALARS are arguments of MAP; #define MAP", kValid);
  r.prelude = text;
  r.acc_type = acc;
  r.map_type = value_of(d, "MAP_TYPE", where).value_or(std::string(compute_type(r.inputs.front())));
  r.out_type = value_of(d, "OUT_TYPE", where).value_or(std::string(compute_type(r.out.type)));
  r.identity = "IDENTITY";
  r.combine = "COMBINE(a, b)";
  if (d.count("MAP")) {
    std::string args;
    for (std::size_t j = 0; j < r.inputs.size(); ++j) args += "x" + std::to_string(j) + ", ";
    args += "i";
    for (std::size_t j = 0; j < r.scalars.size(); ++j) args += ", s" + std::to_string(j);
    arity("MAP", static_cast<int>(r.inputs.size() + 1 + r.scalars.size()),
          args + ": one per input, the index, one per scalar");
    r.map = "MAP(" + args + ")";
  } else {
    r.map = "x0";
  }
  r.lift = d.count("LIFT") ? "LIFT(v, i)" : "v";  // converted as a return converts (a struct: no cast)
  r.finish = d.count("FINISH") ? "FINISH(a, n)" : "a";
  r.exact = !is_floating(r.out.type);
  return r;
}

const std::string kReadValid = "a readable .clh descriptor file (examples: kernels_cl/examples/)";
}  // namespace

Reduction load_reduction(const std::filesystem::path& file) {
  return parse(file.stem().string(), file, read_user_file(file, Param::OpFile, "descriptor file", kReadValid));
}

Reduction reduction_from_text(const std::string& name, const std::string& text) { return parse(name, {}, text); }

bool is_reduction_file(const std::filesystem::path& file) {
  const std::string text = read_user_file(file, Param::OpFile, "operator file", kReadValid);
  // Any name only a descriptor defines (so a descriptor missing one of them is told which).
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (const std::optional<DefineLine> d = define_line(line))
      if (d->name == "INPUTS" || d->name == "RESULT" || d->name == "ACC_TYPE" || d->name == "COMBINE") return true;
  return false;
}

}  // namespace clreduce
