// What a Transposer plans and launches, for measuring tools and anyone who wants to see it: the
// resolved launch of a (type, M, N) and that launch enqueued on a queue of one's own. An
// application that only transposes needs clreduce/transpose.hpp alone.
//
// Thread-safety and errors as for Transposer: a hook on a transposer is a call of it.
#pragma once

#include "clreduce/transpose.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clreduce {

struct TransposeConfig : TransposeParams {
  ElemType type = ElemType::Float;
};

struct TransposePlan {
  const TransposeVariant* variant = nullptr;
  std::uint64_t m = 0, n = 0;           // input rows, columns
  std::size_t wg_x = 0, wg_y = 0;       // the work-group shape
  unsigned tile = 0, rows = 0;          // tiled variants (0 otherwise)
  unsigned vec = 0;                     // elements per access (local_tile_vector; 0 otherwise)
  bool aligned = false;                 // VEC divides M and N: whole tiles move by vector pointers
  unsigned band = 0;                    // BAND: groups take tiles in bands of this many tile columns (0: launch order)
  std::uint64_t groups_x = 0, groups_y = 0;
  std::uint64_t local_bytes = 0;        // the local tile
  std::string options;                  // the full build option string
  std::string wg_label() const;         // "32x8"
};

// A resolved transpose launch for one (type, M, N).
class TransposeLaunch {
 public:
  TransposeConfig config;
  TransposePlan plan;
  std::size_t kernel_max_wg = 0;  // the work-items per group the built kernel allows

 private:
  friend class Transposer;
  friend struct introspect::Access;
  mutable cl::Kernel kernel_;
  std::uint64_t owner_ = 0;  // the serial of the reducer that prepared it (never reused)
};

namespace introspect {

// The launch for an M x N matrix of `type`: planned, built and checked on the first call for
// (type, M, N), then cached. Throws ConfigError naming the parameter (M or N outside 1..2^32-1,
// the matrix over one allocation, double without cl_khr_fp64, a parameter the variant does not
// take, a work-group over CL_DEVICE_MAX_WORK_GROUP_SIZE or CL_DEVICE_MAX_WORK_ITEM_SIZES, ROWS not
// dividing TILE, a tile over the local memory), LimitError for the built kernel's limits, Error
// for a failed build.
std::shared_ptr<const TransposeLaunch> prepare(Transposer& t, ElemType type, std::uint64_t m, std::uint64_t n);
// The same on a transposer made for the question (the launch it would run: plan, options, limits).
inline std::shared_ptr<const TransposeLaunch> prepare(Transposer&& t, ElemType type, std::uint64_t m,
                                                      std::uint64_t n) {
  return prepare(t, type, m, n);
}
// Enqueues a prepared launch on `on` (default: the transposer's queue); its event, or none when
// with_event is false. `launch` must come from t's prepare().
std::vector<cl::Event> enqueue(Transposer& t, const TransposeLaunch& launch, const cl::Buffer& in,
                               const cl::Buffer& out, const cl::CommandQueue* on = nullptr, bool with_event = true,
                               const std::vector<cl::Event>* wait = nullptr);

}  // namespace introspect
}  // namespace clreduce
