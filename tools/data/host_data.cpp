// Generated and file-based input data.
#include "data/host_data.hpp"

#include "clreduce/error.hpp"

#include <cmath>
#include <cstring>
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

namespace {
// splitmix64: a counter-based generator, so element i depends only on (seed, i).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

template <class T>
void fill(T* out, std::uint64_t n, DataKind kind, std::uint64_t seed) {
  const std::uint64_t key = mix(seed);
  for (std::uint64_t i = 0; i < n; ++i) {
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
    out[i] = x;
  }
}
}  // namespace

HostData generate_data(ElemType t, std::uint64_t n, DataKind kind, std::uint64_t seed) {
  HostData d;
  d.type = t;
  d.n = n;
  d.bytes.resize(n * size_of(t));
  d.origin = std::string(name_of(kind)) + (kind == DataKind::Random ? ", seed " + std::to_string(seed) : "");
  switch (t) {
    case ElemType::Uint: fill(reinterpret_cast<std::uint32_t*>(d.bytes.data()), n, kind, seed); break;
    case ElemType::Int: fill(reinterpret_cast<std::int32_t*>(d.bytes.data()), n, kind, seed); break;
    case ElemType::Float: fill(reinterpret_cast<float*>(d.bytes.data()), n, kind, seed); break;
    case ElemType::Double: fill(reinterpret_cast<double*>(d.bytes.data()), n, kind, seed); break;
  }
  return d;
}

HostData read_data_file(const std::filesystem::path& path, ElemType t, std::optional<std::uint64_t> n) {
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
  HostData d;
  d.type = t;
  d.n = count;
  d.bytes.resize(count * es);
  d.origin = path.filename().string();
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(d.bytes.data()), static_cast<std::streamsize>(d.bytes.size())))
    throw Error("reading input file '" + path.string() + "' failed");
  return d;
}

}  // namespace clreduce
