// Input data on the host: generated inputs from a printed seed, the user's own raw
// little-endian files, and segment offsets files (text).
#pragma once

#include "clreduce/types.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace clreduce {

// Generated inputs: random (seeded), iota (element i = i), ones, max (the type's largest value).
enum class DataKind { Random, Iota, Ones, Max };
const std::vector<DataKind>& all_data_kinds();
std::string_view name_of(DataKind d);
// Throws Error "unknown data kind 'x'; valid data kinds: random, iota, ones, max".
DataKind parse_data_kind(std::string_view text);

struct HostData {
  ElemType type = ElemType::Uint;
  std::uint64_t n = 0;
  std::vector<unsigned char> bytes;  // n * size_of(type), native (little-endian) layout
  std::string origin;                // "random, seed 42" or the file name

  const void* data() const { return bytes.data(); }
  Value at(std::uint64_t i) const;
  template <class T>
  const T* as() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
};

// Deterministic for (type, n, kind, seed). random: uint/int over their whole range,
// float/double uniform in [-1, 1); iota: element i = i (converted); ones; max: the largest
// finite value of the type.
HostData generate_data(ElemType t, std::uint64_t n, DataKind kind, std::uint64_t seed);
// Elements [first, first + n) of what generate_data(t, first + n, kind, seed) holds (element i
// depends only on the seed and i): a shard of a larger array, e.g. one MPI rank's.
HostData generate_data_range(ElemType t, std::uint64_t first, std::uint64_t n, DataKind kind, std::uint64_t seed);

// splitmix64's finaliser (Steele, Lea, Flood 2014): a counter-based generator's step, so generated
// element i depends only on the seed and i (a shard generates its own slice).
std::uint64_t splitmix64(std::uint64_t x);

// Raw little-endian elements of type t. n is taken from the file size unless `n` says fewer.
// Throws Error when the file is missing, empty, not a whole number of elements, or shorter
// than `n`. data_file_elements: the same checks and the count, from the file's size alone (no
// byte read: what a caller checks against the device before read_data_file loads the bytes).
std::uint64_t data_file_elements(const std::filesystem::path& path, ElemType t, std::optional<std::uint64_t> n);
HostData read_data_file(const std::filesystem::path& path, ElemType t,
                        std::optional<std::uint64_t> n);

// A segmented reduction's offsets file: text, S + 1 unsigned decimal integers separated by
// whitespace (spaces, tabs, newlines), the first 0, none less than the one before (the last must
// be n: the caller checks that, knowing n). Read as a stream: memory is the offsets alone, at most
// kMaxOffsets of them. Throws Error (Param::Segments) naming the file, the line and the offset's
// number, the problem and the valid form; a directory, FIFO or device is refused before it is
// opened.
inline constexpr std::uint64_t kMaxOffsets = std::uint64_t(1) << 27;  // 1 GiB of offsets
std::vector<std::uint64_t> read_offsets_file(const std::filesystem::path& path);

}  // namespace clreduce
