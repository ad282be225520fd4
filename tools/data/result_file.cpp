// Results to a file (data/result_file.hpp).
#include "data/result_file.hpp"

#include "clreduce/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace clreduce {

namespace {
[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw Error(option + " " + path + ": " + why);
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string npy_type(Scalar t) {
  switch (t) {
    case Scalar::U8: return "|u1";
    case Scalar::I8: return "|i1";
    case Scalar::U16: return "<u2";
    case Scalar::I16: return "<i2";
    case Scalar::U32: return "<u4";
    case Scalar::I32: return "<i4";
    case Scalar::U64: return "<u8";
    case Scalar::I64: return "<i8";
    case Scalar::F16: return "<f2";
    case Scalar::BF16: return "<u2";  // no NumPy type: the bits
    case Scalar::F32: return "<f4";
    case Scalar::F64: return "<f8";
  }
  return "|u1";
}
}  // namespace

void check_new_file(const std::string& option, const std::string& path) {
  if (path.empty()) refuse(option, path, "the path is empty");
  if (path == "-") refuse(option, path, "'-' is not standard output here; give ./- for a file of that name");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0)
    refuse(option, path,
           std::string(S_ISDIR(st.st_mode) ? "is a directory" : "exists") + "; " + option +
               " creates a new file and never replaces one: remove it or give another name");
  if (errno != ENOENT) refuse(option, path, std::strerror(errno));
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse(option, path, "cannot create a file in '" + dir + "': " + std::strerror(errno));
}

void check_result_path(const std::string& path) { check_new_file("--output", path); }

void write_new_file(const std::string& option, const std::string& path, const std::string& bytes) {
  // O_EXCL: created here or refused, never an existing file (one made since the check included).
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) refuse(option, path, std::strerror(errno));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = errno;
      ::close(fd);
      ::unlink(path.c_str());
      refuse(option, path, std::string("writing failed: ") + std::strerror(e));
    }
    done += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(path.c_str());
    refuse(option, path, std::string("writing failed: ") + std::strerror(e));
  }
}

std::string npy_header(const ResultLayout& layout, std::uint64_t count) {
  std::string descr, shape = "(" + std::to_string(count) + ",)";
  const std::string t = npy_type(layout.type);
  switch (layout.kind) {
    case ResultLayout::Kind::Value: descr = "'" + t + "'"; break;
    case ResultLayout::Kind::Pair:
      descr = "'" + t + "'";
      shape = "(" + std::to_string(count) + ", 2)";
      break;
    case ResultLayout::Kind::Arg: {
      const std::size_t vb = size_of(layout.type);
      descr = "[('value', '" + t + "'), " + (vb < 8 ? "('', '|V" + std::to_string(8 - vb) + "'), " : "") +
              "('index', '<u8')]";
      break;
    }
  }
  std::string dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + length (2) + dict + padding + '\n': a multiple of 64 bytes.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);
  h += static_cast<char>((dict.size() >> 8) & 0xff);
  return h + dict;
}

void write_results(const std::string& path, const ResultLayout& layout, const std::vector<Result>& results) {
  std::string bytes = ends_with(path, ".npy") ? npy_header(layout, results.size()) : std::string();
  const std::size_t rb = layout.bytes();
  for (const Result& r : results) bytes.append(reinterpret_cast<const char*>(r.bytes.data()), rb);
  write_new_file("--output", path, bytes);
}

}  // namespace clreduce
