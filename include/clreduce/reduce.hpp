// Reductions of device buffers: a Reducer bound to an application's command queue reduces n
// elements of a cl::Buffer (from an offset) with sum, min or max, returning the value or leaving
// it in a device buffer behind an event; and clreduce::reduce() for host data on the default
// device.
//
// How a launch is chosen (once per element type, operator, n and offset class, then reused):
// the parameters the caller fixed (ReduceParams), then the tuning database's entry for the
// device, type and operator (`clreduce tune` writes it), then clreduce's defaults for the device
// (a named policy: README "Use it as a library"), then the device's and the built kernel's
// limits. The result is a Launch: the configuration, its plan of passes, what was tuned and any
// warnings, as data (clreduce/introspect/reduce.hpp shows it). Programs are built once per option
// string and kept in a ProgramCache; temporary buffers are allocated when first needed and reused.
//
// Thread-safety: one Reducer serves one thread at a time (it owns kernel objects and scratch
// buffers); reducers on different queues, or on the same context, may run in different threads.
// Errors: every failure is a clreduce::Error naming the parameter (Error::param()).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/tuning.hpp"
#include "clreduce/types.hpp"
#include "clreduce/variants.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {
namespace introspect {
struct Access;
}

// The launch parameters a caller may fix. Each one left unset (empty, 0 or nullopt) comes from
// the tuning database where it has an entry for the device, type and operator, else from the
// defaults.
struct ReduceParams {
  std::string variant;                    // a registered variant; empty: the best known here
  std::size_t wg = 0;                     // work-group size (a power of two); 0: not fixed
  std::optional<unsigned> times;          // fixed elements (vectors) per work-item: TIMES
  std::optional<unsigned> groups_per_cu;  // or fixed groups per compute unit (TIMES from n)
  std::optional<unsigned> vec;            // VEC: elements per vector load (2, 4, 8, 16)
  std::vector<Define> defines;            // -D NAME[=VALUE] for the kernel compiler, untouched
};

// An input of a descriptor reduction: a buffer of the context and the element the reduction
// starts at.
struct Input {
  cl::Buffer buffer;
  std::uint64_t offset = 0;
};

// Where a reducer's tuned parameters come from.
struct TuningSource {
  bool enabled = true;
  // The database file; empty: tuning_db_path() (CLREDUCE_TUNING_DB, else the user's config dir).
  std::optional<std::string> path;
  // A database already loaded (shared by several reducers, so it is read and warned about once);
  // used instead of reading `path` when set.
  std::shared_ptr<const LoadedTuningDb> loaded;
};

struct ReducerOptions {
  ReduceParams params;                 // fixed for every call of this reducer
  TuningSource tuning;
  std::filesystem::path kernel_dir;    // empty: find_kernel_dir()
  ProgramCache* programs = nullptr;    // null: ProgramCache::shared()
  // The facts of the queue's device when the caller holds them already (saves the queries).
  // They must describe that device; tests pose other limits this way.
  std::optional<DeviceInfo> device;
  // The operator Op::User means (clreduce/user_operator.hpp); with it, every call must be Op::User.
  std::shared_ptr<const UserOperator> user_op;
};

class Reducer {
 public:
  // Binds to an in-order queue (its context and device are the reducer's). Throws Error
  // (Param::Queue) for an out-of-order queue, (Param::KernelDir) when no kernel directory is found.
  explicit Reducer(const cl::CommandQueue& queue, ReducerOptions options = {});
  // The same for a raw queue handle (retained for the reducer's lifetime).
  explicit Reducer(cl_command_queue queue, ReducerOptions options = {});
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;
  Reducer(Reducer&&) noexcept;
  Reducer& operator=(Reducer&&) noexcept;
  ~Reducer();

  // Reduces elements [offset, offset + n) of `in` and returns the value: enqueues the passes on
  // the queue and waits for the one-element read-back.
  Value reduce(const cl::Buffer& in, ElemType type, std::uint64_t n, Op op, std::uint64_t offset = 0);
  template <class T>
  T reduce(const cl::Buffer& in, std::uint64_t n, Op op, std::uint64_t offset = 0) {
    return reduce(in, element_type_of<T>(), n, op, offset).template get<T>();
  }

  // Asynchronous: enqueues the passes after `wait`, then a copy of the value into element
  // `out_index` of `out` (a buffer of the same context), and returns that copy's event; nothing
  // waits, so the application's next command can use `out` on the same queue (or wait on the
  // event from another). The reducer's scratch buffers are reused by its next call on this queue.
  cl::Event reduce_to(const cl::Buffer& in, ElemType type, std::uint64_t n, Op op, const cl::Buffer& out,
                      std::uint64_t out_index = 0, std::uint64_t offset = 0,
                      const std::vector<cl::Event>& wait = {});
  template <class T>
  cl::Event reduce_to(const cl::Buffer& in, std::uint64_t n, Op op, const cl::Buffer& out,
                      std::uint64_t out_index = 0, std::uint64_t offset = 0,
                      const std::vector<cl::Event>& wait = {}) {
    return reduce_to(in, element_type_of<T>(), n, op, out, out_index, offset, wait);
  }

  // ---- Descriptor reductions (clreduce/reduction.hpp) ----
  // Reduces elements [offset, offset + n) of each input (one Input per descriptor input, each with
  // its own buffer and element offset) with the descriptor `r` and the run-time `scalars` (one per
  // r.scalars), in one launch of kernels_cl/reduce_descriptor.cl, and returns the result. The
  // launch takes the reducer's params.wg where set (else 256, or the most the kernel allows),
  // params.groups_per_cu (else 8 per compute unit, fewer where n is small), params.vec (else 16
  // bytes of the widest input per load) and a -D ITEMS=1|2|4|8 in params.defines (else 4); a
  // params.variant other than "descriptor" and params.times are refused. With tuning enabled, the
  // tuning database's descriptor entry for (device, built-in with its default accumulator,
  // inputs, "whole") fills WG_SIZE, ITEMS and VEC where these leave them unset (a refused tuned
  // launch: one warning in the launch, the defaults; clreduce/tuning.hpp, descriptor_entries).
  // The program is built once per descriptor, type and option string;
  // scalars are kernel arguments. Throws Error naming the parameter: n = 0, an input count or
  // scalar count other than the descriptor's, a buffer too small for offset + n elements,
  // f64 on a device without cl_khr_fp64 (Param::Type), a descriptor whose text does not build
  // (the build log).
  Result reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                const std::vector<ScalarArg>& scalars = {});
  // The same, asynchronous: the result (r.out.bytes() bytes) lands at result index `out_index` of
  // `out` (byte offset out_index * r.out.bytes()); returns the launch's event, nothing waits.
  cl::Event reduce_to(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n, const cl::Buffer& out,
                      std::uint64_t out_index = 0, const std::vector<ScalarArg>& scalars = {},
                      const std::vector<cl::Event>& wait = {});

  const DeviceInfo& device() const;
  const cl::Context& context() const;
  const cl::CommandQueue& queue() const;
  const KernelDir& kernel_dir() const;
  const ReducerOptions& options() const;

 private:
  friend struct introspect::Access;  // the hooks of clreduce/introspect/reduce.hpp
  struct State;
  std::unique_ptr<State> s_;
};

// Sizes against the device (Error, Param::N, naming the limit): n = 0, or n elements of t over
// the largest single allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE).
void check_allocation(std::uint64_t n, ElemType t, const DeviceInfo& dev);
// The most elements of t one input chunk holds: the largest allocation, rounded down to a
// multiple of 4096 elements (so every chunk but the last is whole vectors and whole tiles).
std::uint64_t chunk_elements(ElemType t, const DeviceInfo& dev);
// n = 0, or n elements of t (in chunks) over 90% of the device's global memory.
void check_device_memory(std::uint64_t n, ElemType t, const DeviceInfo& dev);

// Host data on the default device (select_device({}): CLREDUCE_DEVICE, else the first GPU, else
// the first device), with the best known route for its size (host_data_route()):
// - Sum, min and max of up to 1 MiB: folded by the calling thread (eight running values, met in
//   order; the device's semantics: integer sums wrap modulo 2^32, fmin/fmax pass a NaN over). Any
//   OpenCL launch costs more than reading that little.
// - Sum, min and max past 1 MiB and up to a line measured on the first such call (a uint sum of
//   ones by host threads against the device route below at 2, 4, ... 64 MiB, climbing while the
//   threads win; 1 MiB where they lost at 2 MiB): folded by host threads kept for the process, a
//   slice of at least 1 MiB each (under 2 MiB the calling thread alone), the slices' values met
//   in order. Where the threads won at 64 MiB, each power-of-two size class
//   past it is measured on its first call's own data (that call runs both routes: three times
//   each after one untimed run). Skipped where CLREDUCE_DEVICE names the device: then that device
//   takes everything past 1 MiB. The ladder costs a first call about 0.1 s more (2-core PoCL
//   machine: 585 ms against 450 ms named, both building the device's kernels).
// - Past the line: the multi-device path's host staging over one device (clreduce/
//   multi_device.hpp, HostPath::Auto: chunks copied by threads into pinned buffers on a GPU, read
//   in place on a CPU, the copies overlapped with the reductions; the chunk values folded on the
//   host in order): the default device, or where that is a GPU not named by CLREDUCE_DEVICE and
//   the host has a CPU device, whichever of the two reads host data faster, measured on the first
//   call (host_data_device()). Why: host data crosses PCIe to a GPU (55 GB/s pinned on the H100's
//   host) while a CPU reads it where it lies (104.6 GB/s for 1 GiB of floats on that host's PoCL,
//   against 43.7 through the H100: bench/results/2026-12-06_h100_host_paths_maxtree).
// argmin and argmax are reduced on the default device in allocation-sized chunks. The devices,
// contexts, queues, reducers and host threads are made on first use and kept; calls are
// serialised. Throws Error (n = 0, no device, ...).
Value reduce(const void* data, ElemType type, std::uint64_t n, Op op);
template <class T>
T reduce(const T* data, std::uint64_t n, Op op) {
  return reduce(static_cast<const void*>(data), element_type_of<T>(), n, op).template get<T>();
}
template <class T>
T reduce(const std::vector<T>& data, Op op) {
  return reduce(data.data(), data.size(), op);
}

// The devices host data may go to instead of `dev`: where `dev` does not share the host's memory,
// the other devices of `all` that do and are not GPUs (CPUs), in list order; else none.
std::vector<DeviceInfo> host_data_candidates(const DeviceInfo& dev, const std::vector<DeviceInfo>& all);
// The device reduce() of host data uses (made and, where there is a choice, measured on first use).
DeviceInfo host_data_device();
// Where reduce() takes a sum, min or max of `bytes` bytes of host data. Its first call makes the
// devices and measures the line, whatever `bytes` (the ladder above: about 0.1 s).
struct HostDataRoute {
  unsigned host_threads = 0;             // > 0: folded by this many host threads (1: the calling thread); 0: on `device`
  DeviceInfo device;                     // host_data_device()
  std::uint64_t host_threads_up_to = 0;  // the line in bytes: 1 MiB where the threads lost at 2 MiB or CLREDUCE_DEVICE
                                         // names the device; at most 64 MiB
  // false: a size past the line whose route the first call of its power-of-two size class
  // measures on that call's data, the threads against the device (host_threads 0 until then);
  // never where CLREDUCE_DEVICE names the device.
  bool measured = true;
  // true: CLREDUCE_DEVICE names the device, which takes every size past 1 MiB (no line measured).
  bool device_named = false;
};
HostDataRoute host_data_route(std::uint64_t bytes);

// A descriptor reduction of host data (one pointer per input, each of n elements of its type) on
// host_data_device(), staged as reduce() above (any n: each chunk's accumulator kept unfinished,
// all folded in order and finished once, as MultiReducer::reduce(Reduction, ...)). Throws Error
// as MultiReducer::reduce(Reduction, ...).
Result reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
              const std::vector<ScalarArg>& scalars = {});

// `bytes` of host memory at `data` in a new read-only buffer of `context` on `dev` (at least one
// byte), blocking, so the caller's memory may change once it returns: on a device that does not
// share the host's memory and from 32 MiB, through pinned staging buffers that copy threads fill
// while the other one is written (on the H100's host 4.8x a pageable write's rate); else one write.
// The host forms of the axis, segment and descriptor reducers copy their inputs this way. Throws
// Error (an OpenCL failure, naming the bytes).
cl::Buffer upload(const cl::Context& context, const cl::CommandQueue& queue, const DeviceInfo& dev, const void* data,
                  std::uint64_t bytes);

// Folds values of one type with op on the host, in order (integer sums wrap modulo 2^32).
Value fold_values(const std::vector<Value>& values, Op op);

}  // namespace clreduce
