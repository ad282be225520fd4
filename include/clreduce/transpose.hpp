// Matrix transposes of device buffers: the transpose family's registry, and a Transposer bound to
// an application's command queue that writes the N x M transpose of an M x N row-major matrix
// (M rows, N columns) from one cl::Buffer into another. A launch is resolved once per (type, M,
// N): the parameters the caller fixed, else the variant's defaults (TransposeParams), checked
// against the device's and the built kernel's limits; programs come from the ProgramCache.
// Thread-safety and errors as for Reducer (clreduce/reduce.hpp).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/types.hpp"

#include <filesystem>
#include <memory>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clreduce {
namespace introspect {
struct Access;
}

// How a variant's work-group shape is set.
enum class TransposeShape {
  Free,      // WG_X x WG_Y, any shape the device allows (naive, register tiles)
  Tile,      // TILE x TILE: one element per work-item (local_tile, local_tile_padded)
  TileRows,  // (TILE / VEC) x ROWS: TILE / ROWS accesses of VEC elements per work-item
             // (local_tile_multi: VEC 1; local_tile_vector: VEC 1, 2 or 4)
};

struct TransposeVariant {
  std::string name;      // CLI name, e.g. "local_tile_padded"
  std::string file;      // kernel file in kernels_cl/
  std::string kernel;    // kernel function name
  std::string summary;   // one line: what it does
  std::string tradeoff;  // what it gains and what it costs
  std::string literature;   // where the step comes from
  // The variant this one is one teaching step after ("" for the first), and that step: what
  // changes from the predecessor's kernel file and why it should help (`clreduce explain`).
  std::string predecessor;
  std::string step;
  TransposeShape shape = TransposeShape::Free;
  unsigned block = 1;        // block edge each work-item moves (register tiles: 2 or 4)
  bool x_walks_rows = false; // x indexes input rows (naive_write_coalesced), not columns
  unsigned pad = 0;          // padding columns of the local tile
  unsigned default_tile = 0, default_rows = 0;
  unsigned default_vec = 0;  // VEC, the elements of one access (local_tile_vector); 0: takes none
  std::size_t default_wg_x = 32, default_wg_y = 8;  // Free variants
};

const std::vector<TransposeVariant>& transpose_variants();
std::vector<std::string> transpose_variant_names();
// Throws Error "unknown transpose variant 'x'; valid: naive, ...".
const TransposeVariant& find_transpose_variant(std::string_view name);
// The -D values a variant fixes in its kernel file, which the caller cannot set: the register tiles
// are one file built with their block edge RT (register_tile2: {{"RT", 2}}); none for the others.
std::vector<std::pair<std::string, std::uint64_t>> transpose_fixed_defines(const TransposeVariant& v);

// The most work-groups a launch puts along y (NVIDIA's grid limit); kernels loop past it.
constexpr std::uint64_t kMaxGroupsY = 65535;

// The parameters a caller may fix; each unset one is the variant's default.
struct TransposeParams {
  std::string variant;                    // a registered transpose variant; empty: the default
  std::optional<std::size_t> wg_x, wg_y;  // work-group shape (Free variants)
  std::optional<unsigned> tile, rows;     // TILE and ROWS (tiled variants)
  std::optional<unsigned> vec;            // VEC: 1, 2 or 4 (local_tile_vector)
  std::optional<unsigned> band;           // BAND: tiles taken in bands of 0 (off), 1, 2, 4, ..., 64 tile columns (local_tile_vector)
  std::vector<Define> defines;            // -D NAME[=VALUE] for the kernel compiler, untouched
};



// The variant a Transposer launches when the caller names none: local_tile_vector (on the H200,
// 8192x8192 float at 96.6% of a device-to-device copy of the same bytes against local_tile_multi's
// 84.5%, double level with it at 96.3%; on PoCL 2.4-3.1x local_tile_multi for float and
// 1.1-1.3x for double at 2048x2048; bench/results/2026-11-28_h200_transpose_vector,
// 2026-11-28_pocl_transposes). Until then local_tile_multi (the H100: 93% of
// the copy for 8192x8192 float, bench/results/2026-11-21_h100_transpose.md).
constexpr const char* kDefaultTransposeVariant = "local_tile_vector";


struct TransposerOptions {
  TransposeParams params;
  std::filesystem::path kernel_dir;   // empty: find_kernel_dir()
  ProgramCache* programs = nullptr;   // null: ProgramCache::shared()
  std::optional<DeviceInfo> device;   // the queue's device facts, if the caller holds them
};

class Transposer {
 public:
  // Binds to an in-order queue. Throws Error (Param::Queue) for an out-of-order queue.
  explicit Transposer(const cl::CommandQueue& queue, TransposerOptions options = {});
  explicit Transposer(cl_command_queue queue, TransposerOptions options = {});
  Transposer(const Transposer&) = delete;
  Transposer& operator=(const Transposer&) = delete;
  Transposer(Transposer&&) noexcept;
  Transposer& operator=(Transposer&&) noexcept;
  ~Transposer();

  // Enqueues the transpose of `in` (M x N) into `out` (N x M) after `wait`; returns its event.
  // Throws Error (Param::Buffer) when a buffer holds fewer than M * N elements.
  cl::Event transpose(const cl::Buffer& in, const cl::Buffer& out, ElemType type, std::uint64_t m,
                      std::uint64_t n, const std::vector<cl::Event>& wait = {});
  template <class T>
  cl::Event transpose(const cl::Buffer& in, const cl::Buffer& out, std::uint64_t m, std::uint64_t n,
                      const std::vector<cl::Event>& wait = {}) {
    return transpose(in, out, element_type_of<T>(), m, n, wait);
  }

  const DeviceInfo& device() const;
  const cl::Context& context() const;
  const cl::CommandQueue& queue() const;

 private:
  friend struct introspect::Access;  // the hooks of clreduce/introspect/transpose.hpp
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace clreduce
