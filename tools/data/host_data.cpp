// Generated and file-based input data, and segment offsets files.
#include "data/host_data.hpp"

#include "clreduce/error.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sys/stat.h>
#include <fstream>
#include <limits>
#include <sstream>

namespace clreduce {

const std::vector<DataKind>& all_data_kinds() {
  static const std::vector<DataKind> v{DataKind::Random, DataKind::Iota, DataKind::Ones,
                                       DataKind::Max};
  return v;
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

DataKind parse_data_kind(std::string_view text) {
  std::vector<std::string> names;
  for (DataKind d : all_data_kinds()) {
    if (name_of(d) == text) return d;
    names.emplace_back(name_of(d));
  }
  throw Error("unknown data kind '" + std::string(text) + "'; valid data kinds: " + join(names));
}

Value HostData::at(std::uint64_t i) const { return Value::from_bytes(type, bytes.data() + i * size_of(type)); }

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

namespace {
std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

template <class T>
void fill(T* out, std::uint64_t first, std::uint64_t n, DataKind kind, std::uint64_t seed) {
  const std::uint64_t key = mix(seed);
  for (std::uint64_t j = 0; j < n; ++j) {
    const std::uint64_t i = first + j;
    T x{};
    switch (kind) {
      case DataKind::Random: {
        const std::uint64_t r = mix(key ^ mix(i));
        if constexpr (std::is_floating_point_v<T>) {
          // 53 random bits -> [0,1) -> [-1,1)
          x = static_cast<T>(static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0);
        } else {
          x = static_cast<T>(static_cast<std::uint32_t>(r >> 32));
        }
        break;
      }
      case DataKind::Iota: x = static_cast<T>(i); break;
      case DataKind::Ones: x = T(1); break;
      case DataKind::Max: x = std::numeric_limits<T>::max(); break;
    }
    out[j] = x;
  }
}
}  // namespace

HostData generate_data(ElemType t, std::uint64_t n, DataKind kind, std::uint64_t seed) {
  return generate_data_range(t, 0, n, kind, seed);
}

HostData generate_data_range(ElemType t, std::uint64_t first, std::uint64_t n, DataKind kind, std::uint64_t seed) {
  HostData d;
  d.type = t;
  d.n = n;
  d.bytes.resize(n * size_of(t));
  d.origin = std::string(name_of(kind)) + (kind == DataKind::Random ? ", seed " + std::to_string(seed) : "");
  if (first != 0) d.origin += ", elements from " + std::to_string(first);
  switch (t) {
    case ElemType::Uint: fill(reinterpret_cast<std::uint32_t*>(d.bytes.data()), first, n, kind, seed); break;
    case ElemType::Int: fill(reinterpret_cast<std::int32_t*>(d.bytes.data()), first, n, kind, seed); break;
    case ElemType::Float: fill(reinterpret_cast<float*>(d.bytes.data()), first, n, kind, seed); break;
    case ElemType::Double: fill(reinterpret_cast<double*>(d.bytes.data()), first, n, kind, seed); break;
  }
  return d;
}

std::vector<std::uint64_t> read_offsets_file(const std::filesystem::path& path) {
  const std::string valid =
      "valid: S + 1 whitespace-separated unsigned integers, the first 0, non-decreasing, the last n";
  const std::string file = "offsets file '" + path.string() + "'";
  // What the path is before it is opened: a FIFO would block the open, a device (/dev/zero) never
  // ends; a directory is no file.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(Param::Segments, "cannot read " + file + ": " + std::strerror(errno), valid);
  if (S_ISDIR(st.st_mode)) throw Error(Param::Segments, file + " is a directory, not a file", valid);
  if (!S_ISREG(st.st_mode))
    throw Error(Param::Segments, file + " is not a regular file (a FIFO, socket or device); give a file", valid);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Param::Segments, "cannot read " + file + ": " + std::strerror(errno), valid);
  // Read in blocks and parsed token by token: memory is the offsets (at most kMaxOffsets) and one
  // token (at most 21 characters are kept), whatever the file holds, one long line included.
  std::vector<std::uint64_t> offsets;
  std::uint64_t line_no = 1;
  std::string token;       // the token's first characters, for messages
  std::size_t length = 0;  // its whole length
  std::uint64_t v = 0;
  bool digits_only = true, over = false;
  const auto where = [&] {
    return file + ", line " + std::to_string(line_no) + ", offset " + std::to_string(offsets.size());
  };
  const auto end_token = [&] {
    std::string shown;  // the token as a person reads it on one line
    for (char ch : token.substr(0, 24)) shown += std::isprint(static_cast<unsigned char>(ch)) ? ch : '?';
    if (length > 24) shown += "...";
    if (!digits_only) throw Error(Param::Segments, where() + ": '" + shown + "' is not an unsigned integer; " + valid, valid);
    if (over) throw Error(Param::Segments, where() + ": '" + shown + "' is over 2^64 - 1; " + valid, valid);
    if (offsets.empty() && v != 0)
      throw Error(Param::Segments, where() + ": the first offset is " + std::to_string(v) + ", not 0; " + valid, valid);
    if (!offsets.empty() && v < offsets.back())
      throw Error(Param::Segments,
                  where() + ": " + std::to_string(v) + " is less than the offset before it (" +
                      std::to_string(offsets.back()) + "); " + valid,
                  valid);
    if (offsets.size() >= kMaxOffsets)
      throw Error(Param::Segments,
                  file + " holds more than " + std::to_string(kMaxOffsets) + " offsets, the most clreduce reads (" +
                      std::to_string(kMaxOffsets - 1) + " segments)",
                  valid);
    offsets.push_back(v);
    token.clear();
    length = 0;
    v = 0;
    digits_only = true;
    over = false;
  };
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    const std::streamsize got = in.gcount();
    for (std::streamsize k = 0; k < got; ++k) {
      const char ch = buf[k];
      if (std::isspace(static_cast<unsigned char>(ch))) {
        if (length > 0) end_token();
        if (ch == '\n') ++line_no;
        continue;
      }
      if (token.size() < 25) token += ch;  // a token of any length is refused whole at its end
      ++length;
      if (ch < '0' || ch > '9') {
        digits_only = false;
        continue;
      }
      const std::uint64_t d = static_cast<std::uint64_t>(ch - '0');
      if (over || v > (UINT64_MAX - d) / 10) over = true;
      else v = v * 10 + d;
    }
  }
  if (in.bad()) throw Error(Param::Segments, "reading " + file + " failed", valid);
  if (length > 0) end_token();
  if (offsets.size() < 2)
    throw Error(Param::Segments,
                file + " holds " + std::to_string(offsets.size()) + (offsets.size() == 1 ? " offset" : " offsets") +
                    ", too few for one segment; " + valid,
                valid);
  return offsets;
}

std::uint64_t data_file_elements(const std::filesystem::path& path, ElemType t, std::optional<std::uint64_t> n) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw Error("cannot read input file '" + path.string() + "': " + ec.message());
  const std::size_t es = size_of(t);
  if (size == 0) throw Error("input file '" + path.string() + "' is empty");
  if (size % es != 0)
    throw Error("input file '" + path.string() + "' holds " + std::to_string(size) +
                " bytes, not a whole number of " + std::string(name_of(t)) + " elements (" +
                std::to_string(es) + " bytes each)");
  const std::uint64_t available = size / es;
  const std::uint64_t count = n.value_or(available);
  if (count > available)
    throw Error("input file '" + path.string() + "' holds " + std::to_string(available) + " " +
                std::string(name_of(t)) + " elements, fewer than --n " + std::to_string(count));
  if (count == 0) throw Error("n must be at least 1");
  return count;
}

HostData read_data_file(const std::filesystem::path& path, ElemType t, std::optional<std::uint64_t> n) {
  const std::uint64_t count = data_file_elements(path, t, n);
  HostData d;
  d.type = t;
  d.n = count;
  d.bytes.resize(count * size_of(t));
  d.origin = path.filename().string();
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(d.bytes.data()), static_cast<std::streamsize>(d.bytes.size())))
    throw Error("reading input file '" + path.string() + "' failed");
  return d;
}

}  // namespace clreduce
