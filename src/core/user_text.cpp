// Reading and checking a user's OpenCL C file (core/user_text.hpp).
#include "core/user_text.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <regex>
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
  static const std::regex include(R"re((^|\n)\s*#\s*include\b)re");
  if (std::regex_search(text, include))
    throw Error(param, where + " has an #include: it must be one self-contained file", valid);
}

}  // namespace clreduce
