// Reading and checking a user's OpenCL C file (core/user_text.hpp).
#include "core/user_text.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <sys/stat.h>

namespace clreduce {

std::string read_user_file(const std::filesystem::path& file, Param param, const std::string& what,
                           const std::string& valid) {
  // What the path is, before it is opened: a FIFO would block the open until someone writes to
  // it, and a device (/dev/zero) is no file of the user's text.
  struct stat st {};
  const bool known = ::stat(file.c_str(), &st) == 0;
  const std::string why = !known                  ? std::string(std::strerror(errno))
                          : S_ISDIR(st.st_mode)   ? std::string("a directory")
                          : !S_ISREG(st.st_mode) ? std::string("not a regular file: a FIFO, socket or device")
                                                  : std::string();
  std::ifstream in;
  if (why.empty()) in.open(file, std::ios::binary);
  const std::string reason = !why.empty() ? why : !in ? std::string(std::strerror(errno)) : std::string();
  if (!reason.empty())
    throw Error(param, "cannot read " + what + " '" + file.string() + "' (" + reason + "); give " + valid, valid);
  std::string text(kMaxUserFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

void check_user_text(const std::string& text, Param param, const std::string& where, const std::string& valid) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(param, where + " is empty; give " + valid, valid);
  if (text.size() > kMaxUserFileBytes)
    throw Error(param, where + " holds more than the " + std::to_string(kMaxUserFileBytes) + " bytes such a file may hold",
                valid);
  for (const UserDirective& d : directives_of(text)) {
    static const std::set<std::string> allowed = {"",      "define", "undef", "if",     "ifdef", "ifndef",
                                                  "elif",  "else",   "endif", "pragma", "error"};
    if (allowed.count(d.name)) continue;
    const std::string list = "an operator or descriptor file's directives may be #define, #undef, #if, #ifdef, "
                             "#ifndef, #elif, #else, #endif, #pragma and #error";
    if (d.name == "include" || d.name == "include_next" || d.name == "import" || d.name == "embed")
      throw Error(param, where + " has an #" + d.name + " (line " + std::to_string(d.line) +
                             "): it must be one self-contained file; " + list, valid);
    throw Error(param, where + " has a #" + d.name + " directive (line " + std::to_string(d.line) + "); " + list, valid);
  }
}

std::vector<UserDirective> directives_of(const std::string& text) {
  // Translation phases 1 to 3 as the compiler runs them, far enough to see every directive: the
  // trigraph ??= and the digraphs %: and %:%: become # and ##, a backslash before a newline
  // joins two lines, comments become a space (not inside string or character literals). Each
  // character keeps the line it came from, for the message.
  std::string out;
  std::vector<std::uint32_t> line_of;
  std::uint32_t line = 1;
  const std::size_t size = text.size();
  enum class In { Code, String, Char, LineComment, BlockComment } in = In::Code;
  for (std::size_t i = 0; i < size; ++i) {
    char c = text[i];
    // Splices first: a backslash, optional \r, then a newline, joins the lines in every context.
    if (c == '\\') {
      std::size_t j = i + 1;
      if (j < size && text[j] == '\r') ++j;
      if (j < size && text[j] == '\n') {
        i = j;
        ++line;
        continue;
      }
    }
    if (c == '\n') ++line;
    switch (in) {
      case In::LineComment:
        if (c == '\n') {
          in = In::Code;
          out += '\n';
          line_of.push_back(line - 1);
        }
        continue;
      case In::BlockComment:
        if (c == '*' && i + 1 < size && text[i + 1] == '/') {
          in = In::Code;
          ++i;
          out += ' ';
          line_of.push_back(line);
        } else if (c == '\n') {
          out += '\n';  // kept, so that lines count right: it can only make more lines directives (the safe side)
          line_of.push_back(line - 1);
        }
        continue;
      case In::String:
      case In::Char:
        if (c == '\\' && i + 1 < size) {
          out += c;
          line_of.push_back(line);
          c = text[++i];
        } else if ((in == In::String && c == '"') || (in == In::Char && c == '\'') || c == '\n') {
          in = In::Code;
        }
        out += c;
        line_of.push_back(c == '\n' ? line - 1 : line);
        continue;
      case In::Code:
        break;
    }
    if (c == '/' && i + 1 < size && text[i + 1] == '/') {
      in = In::LineComment;
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < size && text[i + 1] == '*') {
      in = In::BlockComment;
      ++i;
      continue;
    }
    if (c == '"') in = In::String;
    if (c == '\'') in = In::Char;
    if (c == '?' && i + 2 < size && text[i + 1] == '?' && text[i + 2] == '=') {
      c = '#';
      i += 2;
    } else if (c == '%' && i + 1 < size && text[i + 1] == ':') {
      c = '#';
      ++i;
    }
    out += c;
    line_of.push_back(c == '\n' ? line - 1 : line);
  }
  // A directive: a line whose first token is #, then its name (empty for the null directive).
  std::vector<UserDirective> found;
  std::size_t at = 0;
  while (at < out.size()) {
    const std::size_t end = std::min(out.find('\n', at), out.size());
    std::size_t k = at;
    while (k < end && (out[k] == ' ' || out[k] == '\t' || out[k] == '\f' || out[k] == '\v' || out[k] == '\r')) ++k;
    if (k < end && out[k] == '#') {
      const std::uint32_t where_line = line_of[k];
      ++k;
      while (k < end && (out[k] == ' ' || out[k] == '\t' || out[k] == '\f' || out[k] == '\v' || out[k] == '\r')) ++k;
      std::string name;
      while (k < end && (std::isalnum(static_cast<unsigned char>(out[k])) || out[k] == '_')) name += out[k++];
      found.push_back({name, where_line});
    }
    at = end + 1;
  }
  return found;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

namespace {
bool blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'; }
// `#` then `word`, each after optional blanks from the line's start: the position after the word
// (the word whole: not followed by an identifier character), or npos.
std::size_t after_directive(const std::string& line, const char* word) {
  std::size_t i = 0;
  while (i < line.size() && blank(line[i])) ++i;
  if (i == line.size() || line[i] != '#') return std::string::npos;
  ++i;
  while (i < line.size() && blank(line[i])) ++i;
  const std::size_t n = std::char_traits<char>::length(word);
  if (line.compare(i, n, word) != 0) return std::string::npos;
  i += n;
  return i < line.size() && identifier_char(line[i]) ? std::string::npos : i;
}
}  // namespace

std::optional<DefineLine> define_line(const std::string& line) {
  std::size_t i = after_directive(line, "define");
  if (i == std::string::npos || i == line.size() || !blank(line[i])) return std::nullopt;
  while (i < line.size() && blank(line[i])) ++i;
  if (i == line.size() || !(std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '_')) return std::nullopt;
  const std::size_t start = i;
  while (i < line.size() && identifier_char(line[i])) ++i;
  DefineLine d;
  d.name = line.substr(start, i - start);
  d.function_like = i < line.size() && line[i] == '(';
  d.rest = line.substr(d.function_like ? i + 1 : i);
  return d;
}

std::optional<std::string> include_line(const std::string& line) {
  std::size_t i = after_directive(line, "include");
  if (i == std::string::npos) return std::nullopt;
  while (i < line.size() && blank(line[i])) ++i;
  if (i == line.size() || line[i] != '"') return std::nullopt;
  const std::size_t close = line.find('"', i + 1);
  if (close == std::string::npos || close == i + 1) return std::nullopt;
  for (std::size_t k = close + 1; k < line.size(); ++k)
    if (!blank(line[k])) return std::nullopt;
  return line.substr(i + 1, close - i - 1);
}

}  // namespace clreduce
