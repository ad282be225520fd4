// The matrix-transpose family: the variant registry, validation and launch planning (pure
// functions of configuration, device facts and shape), and the Transposer that runs one planned
// transpose. The input is M rows x N columns, row-major; the output is N x M.
#pragma once

#include "clreduce/opencl.hpp"
#include "clreduce/device.hpp"
#include "parse.hpp"
#include "core/runtime.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// How a variant's work-group shape is set.
enum class TransposeShape {
  Free,      // WG_X x WG_Y, any shape the device allows (naive, register tiles)
  Tile,      // TILE x TILE: one element per work-item (local_tile, local_tile_padded)
  TileRows,  // TILE x ROWS: TILE / ROWS elements per work-item (local_tile_multi)
};

struct TransposeVariant {
  std::string name;      // CLI name, e.g. "local_tile_padded"
  std::string file;      // kernel file in kernels_cl/
  std::string kernel;    // kernel function name
  std::string summary;   // one line: what it does
  std::string tradeoff;  // what it gains and what it costs
  TransposeShape shape = TransposeShape::Free;
  unsigned block = 1;        // block edge each work-item moves (register tiles: 2 or 4)
  bool x_walks_rows = false; // x indexes input rows (naive_write_coalesced), not columns
  unsigned pad = 0;          // padding columns of the local tile
  unsigned default_tile = 0, default_rows = 0;
  std::size_t default_wg_x = 32, default_wg_y = 8;  // Free variants
};

const std::vector<TransposeVariant>& transpose_variants();
std::vector<std::string> transpose_variant_names();
// Throws Error "unknown transpose variant 'x'; valid: naive, ...".
const TransposeVariant& find_transpose_variant(std::string_view name);

// The most work-groups a launch puts along y (NVIDIA's grid limit); kernels loop past it.
constexpr std::uint64_t kMaxGroupsY = 65535;

struct TransposeConfig {
  std::string variant = "naive";
  ElemType type = ElemType::Float;
  std::optional<std::size_t> wg_x, wg_y;  // Free variants
  std::optional<unsigned> tile, rows;     // tiled variants
  std::vector<Define> defines;            // user -D, passed through untouched
};

struct TransposePlan {
  const TransposeVariant* variant = nullptr;
  std::uint64_t m = 0, n = 0;           // input rows, columns
  std::size_t wg_x = 0, wg_y = 0;       // the work-group shape
  unsigned tile = 0, rows = 0;          // tiled variants (0 otherwise)
  std::uint64_t groups_x = 0, groups_y = 0;
  std::uint64_t local_bytes = 0;        // the local tile
  std::string options;                  // the full build option string
  std::string wg_label() const;         // "32x8"
};

// Throws Error with the problem and the valid choices: unknown variant, M or N outside
// 1..2^32-1, the matrix over the largest allocation, double without cl_khr_fp64, a parameter
// the variant does not take, a work-group shape over CL_DEVICE_MAX_WORK_GROUP_SIZE or
// CL_DEVICE_MAX_WORK_ITEM_SIZES, ROWS not dividing TILE, a tile over CL_DEVICE_LOCAL_MEM_SIZE.
TransposePlan plan_transpose(const TransposeConfig& cfg, const DeviceInfo& dev, std::uint64_t m,
                             std::uint64_t n);

// "2048x512" (rows x columns, each a size with suffixes) -> {M, N}.
std::pair<std::uint64_t, std::uint64_t> parse_shape(std::string_view text);
std::string shape_label(std::uint64_t m, std::uint64_t n);

class Transposer {
 public:
  // Plans, builds and checks the kernel's own limits (CL_KERNEL_WORK_GROUP_SIZE,
  // CL_KERNEL_LOCAL_MEM_SIZE). Throws Error on any invalid configuration.
  Transposer(Runtime& rt, const TransposeConfig& cfg, std::uint64_t m, std::uint64_t n);
  const TransposePlan& plan() const { return plan_; }
  const TransposeConfig& config() const { return cfg_; }
  // Enqueues one transpose of `in` (M x N) into `out` (N x M); nothing waits. Its event, or none
  // (an empty vector) when with_event is false.
  std::vector<cl::Event> enqueue(const cl::Buffer& in, const cl::Buffer& out, bool with_event = true,
                                 const cl::CommandQueue* on = nullptr);  // default: rt's queue

 private:
  Runtime& rt_;
  TransposeConfig cfg_;
  TransposePlan plan_;
  cl::Kernel kernel_;
};

// The host transpose of an M x N matrix of `elem_size`-byte elements (cache-blocked).
std::vector<unsigned char> host_transpose(const std::vector<unsigned char>& in, std::uint64_t m,
                                          std::uint64_t n, std::size_t elem_size);

// Element-by-element comparison of a device output with the host transpose.
struct TransposeCheck {
  bool ok = false;
  std::uint64_t mismatches = 0;
  std::string detail;  // the first mismatch (output row, column, expected, got) or "exact"
};
TransposeCheck check_transpose(const std::vector<unsigned char>& got,
                               const std::vector<unsigned char>& expected, std::uint64_t m,
                               std::uint64_t n, ElemType t);

}  // namespace clreduce
