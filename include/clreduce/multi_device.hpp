// One reduction over several OpenCL devices: the input split between them (in proportion to each
// device's measured bandwidth, evenly, or by the caller's weights), each part reduced by that
// device's own Reducer concurrently (one host thread per device: the caller's for the first, and
// threads the MultiReducer keeps for the others), the partial values folded on
// the host in device index order. The input is either resident (one buffer per device, made by
// the caller in the MultiReducer's context for that device) or host memory, copied to each device
// in chunks with the copy of the next chunk overlapping the reduction of the current one.
//
// Reduction descriptors (clreduce/reduction.hpp: every built-in, user descriptor files) take the
// same paths: each device reduces its part chunk by chunk with the descriptor kernel, keeping each
// chunk's accumulator unfinished (so a mean's count, argmax's index and the map's index i are
// those of the whole input); the accumulators of every chunk of every device are then folded in
// device and chunk order by one work-item on device 0, which applies the finish once.
//
// Determinism: the parts, the chunks and the order of every fold depend only on n, the split, the
// chunk size and the host path (HostPath: in place, a part's default chunk is an allocation, and
// memory off the device's base alignment is read from an offset, which may plan another launch),
// never on timing. Each device reduces its part chunk by chunk (one value per
// chunk, by the device's launch for that chunk size); the chunk values are folded on the host in
// chunk order, then the device values in device index order (device 0 first). So a float or
// double sum is bit-identical from run to run for the same n, split, chunk size and launches; it
// differs (within the rounding bound of MultiResult::depth) when any of them changes.
//
// Units: times in microseconds (host clock), bandwidth in GB/s (10^9 bytes per second: the
// bytes of the part read over its time). Errors: clreduce::Error; Param::Devices for a device
// list naming no device or a device that is not there, Param::Split for a bad split, Param::Op
// for argmin/argmax by Op (the Op path takes sum, min and max; argmin and argmax are descriptor
// built-ins here), Param::N for n = 0; an
// OpenCL failure on one device is an Error naming that device, thrown after every device's
// launched commands have finished (nothing is left running).
// Thread-safety: one MultiReducer serves one thread at a time (it runs its own threads inside).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// How the input is split between the devices.
enum class SplitKind {
  Bandwidth,  // in proportion to each device's measured bandwidth (MultiReducer::bandwidths), one weight per model
  Even,       // equal parts (the first n mod D devices take one element more)
  Weights,    // in proportion to the caller's weights, one per device
};
struct Split {
  SplitKind kind = SplitKind::Bandwidth;
  std::vector<double> weights;  // SplitKind::Weights: finite, >= 0, not all 0; one per device
  std::string str() const;      // "bandwidth", "even", "3,1"
};
// "even", "bandwidth" or comma-separated weights "w1,w2,..." (non-negative numbers, one at least
// positive). Throws Error (Param::Split) naming the text and the valid forms.
Split parse_split(std::string_view text);

// Elements per device for n elements: whole elements, summing to n, in proportion to `weights`
// (largest remainders, ties to the lower device index; so deterministic). A device whose share
// rounds to 0 gets none (it skips). Throws Error (Param::Split) when the weights are not one per
// device, negative, not finite or all 0.
std::vector<std::uint64_t> split_counts(std::uint64_t n, const std::vector<double>& weights);

// Whether two devices are of one model: the same platform, name, driver, compute units and global
// memory size. The bandwidth split gives such devices one weight (see same_model_means).
bool same_model(const DeviceInfo& a, const DeviceInfo& b);
// Each device's measurement replaced by the mean over the devices of its model (same_model), in
// device order. Why: one model's devices differ in a probe by the probe's noise, not by their
// hardware (two H200s' host-copied probes read 12-14% apart, in opposite directions from run to
// run: bench/NOTES.md, "one reduction over two GPUs"), and an uneven split of equal devices makes the call wait for
// the one given more. Devices of one model that truly differ (another PCIe or NUMA path) take a
// weights split. Throws Error (Param::Devices) when the sizes differ.
std::vector<double> same_model_means(const std::vector<double>& measured, const std::vector<DeviceInfo>& devices);

// The devices a multi-device reduction uses by default: every GPU of the platform the selector
// names (its `platform`, else the platform of select_device(sel)); on a platform without GPUs,
// every device of that platform. Throws what select_device throws.
std::vector<DeviceInfo> default_devices(const DeviceSelector& sel = {});
// The devices of platform `platform` (an index into the platform list) at `indices` (indices
// within that platform, each once). Throws Error (Param::Devices) naming a missing index or a
// repeated one and the valid indices with their names; (Param::Platform) for a bad platform.
std::vector<DeviceInfo> devices_at(std::size_t platform, const std::vector<std::size_t>& indices);

// How host data reaches a device (the host-copied paths, not resident buffers).
enum class HostPath {
  Auto,      // InPlace on a device that shares the host's memory (DeviceInfo::host_unified_memory), else Pinned
  Pageable,  // each chunk written straight from the caller's memory (the driver stages it through its own buffers)
  Pinned,    // copy threads fill two pinned staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped once) in turn; each chunk
             // is written from there, so the copy of chunk k+1 into one overlaps the transfer of chunk k from the other
  InPlace,   // the device reads the caller's memory where it lies (CL_MEM_USE_HOST_PTR, read-only): no copy by clreduce
};
const char* name_of(HostPath p);  // "auto", "pageable", "pinned", "in_place"
// One of those names; throws Error (Param::HostPath) naming the text and the valid names.
HostPath parse_host_path(std::string_view text);
// The path Auto takes on `dev` (any other path is itself).
HostPath resolve_host_path(HostPath p, const DeviceInfo& dev);

struct MultiDeviceOptions {
  Split split;
  // Host-copied input: how each chunk reaches its device, and for Pinned, the host threads that copy
  // a chunk into the staging buffer (0: the hardware's threads over the devices, at least 1 and at
  // most 8 a device). Neither changes a result: the chunks and every fold stay the same.
  HostPath host_path = HostPath::Auto;
  unsigned copy_threads = 0;
  // Host-copied input: elements per chunk (each device's part is copied and reduced chunk by
  // chunk). 0: kDefaultChunkElements where chunks are copied, the device's largest allocation
  // where they are read in place (nothing to overlap; a launch a chunk costs its tail); any value
  // is lowered to the largest allocation. Any value works; it sets the fold order (see above), so
  // keep it fixed where results are compared.
  std::uint64_t chunk_elements = 0;
  // For each device's Reducer (launch parameters, tuning database, kernel directory). Its
  // `device` field is ignored (each reducer gets its own device's facts).
  ReducerOptions reducer;
};
inline constexpr std::uint64_t kDefaultChunkElements = std::uint64_t{1} << 22;

// What one device did in one reduction.
struct DeviceShare {
  std::size_t device = 0;      // index into MultiReducer::devices()
  std::string name;            // the device's name
  std::uint64_t offset = 0;    // its part: elements [offset, offset + n) of the whole input
  std::uint64_t n = 0;         // 0: the device skipped
  std::uint64_t chunks = 0;    // values the device produced (1 for a resident part)
  Value value;                 // its partial (unset when n is 0)
  std::string variant;         // the launch's variant (the first chunk's)
  unsigned depth = 0;          // additions any element of the part goes through (chunks included)
  double us = 0;               // host clock: first enqueue to its value on the host
  double gbps = 0;             // n * the bytes of one element of every input / us
  double start_us = 0;         // host clock: the call's start to this part's start (handing it to its thread included)
  HostPath host_path = HostPath::Auto;  // host-copied parts: the path that ran (never Auto); resident: Auto
  unsigned copy_threads = 0;            // HostPath::Pinned: the threads that filled the staging buffers
};

struct MultiResult {
  Value value;                      // the folded result (Op calls; unset for a descriptor)
  ElemType type = ElemType::Uint;   // Op calls
  Op op = Op::Sum;                  // Op calls
  std::string reduction;            // descriptor calls: the descriptor's name; empty for Op calls
  Result result;                    // descriptor calls: the result, in the descriptor's layout
  // accumulate() calls: the parts, unfinished (see accumulate); empty for every other call.
  std::vector<unsigned char> parts;
  std::uint64_t part_count = 0;
  std::uint64_t bytes = 0;          // bytes read: n times the bytes of one element of every input
  std::uint64_t n = 0;
  bool resident = false;            // the input was resident (no host copy timed)
  std::vector<DeviceShare> shares;  // one per device, in device index order
  // The most additions any element goes through: its part's depth plus the fold of the device
  // values (each non-empty part after the first adds one). Bounds a float sum's rounding error
  // (sum_tolerance in the tools, README "Checks").
  unsigned depth = 0;
  double us = 0;    // host clock: the call's first enqueue to the folded value
  double gbps = 0;  // bytes / us
  // Host clock: the last part's value to the call's return (the threads' join and the fold). With
  // each share's start_us, the call's time outside its parts: us = max(start_us + share us) + tail_us.
  double tail_us = 0;
};

class MultiReducer {
 public:
  // One context, in-order queue(s) and Reducer per device. Throws Error (Param::Devices) for an
  // empty list or a device given twice, (Param::Split) for weights that are not one per device,
  // or an OpenCL failure naming the device.
  explicit MultiReducer(std::vector<DeviceInfo> devices, MultiDeviceOptions options = {});
  MultiReducer(const MultiReducer&) = delete;
  MultiReducer& operator=(const MultiReducer&) = delete;
  MultiReducer(MultiReducer&&) noexcept;
  MultiReducer& operator=(MultiReducer&&) noexcept;
  ~MultiReducer();

  const std::vector<DeviceInfo>& devices() const;
  const MultiDeviceOptions& options() const;
  // The context and queue of device i: make resident buffers there (cl::Buffer(context(i), ...)).
  const cl::Context& context(std::size_t i) const;
  const cl::CommandQueue& queue(std::size_t i) const;

  // Each device's measured bandwidth in GB/s for the input's path (resident: its reduction of a
  // buffer on the device; host-copied: its copy-and-reduce pipeline), one device at a time, the
  // best of a few runs of kBandwidthProbeElements uint elements (fewer where the device's
  // allocation is smaller). Measured on the first call for each path and kept.
  std::vector<double> bandwidths(bool resident);
  // The elements each device takes of n under the options' split (for SplitKind::Bandwidth:
  // bandwidths(resident), averaged over the devices of one model, rounded to sixteenths of the
  // fastest).
  std::vector<std::uint64_t> counts(std::uint64_t n, bool resident);

  // Host data: n elements of `type` at `data` (valid until the call returns), split by counts(n,
  // false); each device copies its part chunk by chunk (non-blocking writes on a copy queue, the
  // reductions on a compute queue, ordered by events: two device buffers alternate, so chunk k+1
  // is written while chunk k is reduced) and reduces it. Throws Error (Param::N) for n = 0,
  // (Param::Op) for argmin/argmax or Op::User, (Param::Type) for double on a device without
  // cl_khr_fp64 (naming it).
  MultiResult reduce(const void* data, ElemType type, std::uint64_t n, Op op);
  template <class T>
  MultiResult reduce(const std::vector<T>& data, Op op) {
    return reduce(data.data(), element_type_of<T>(), data.size(), op);
  }

  // Resident data: buffers[i] holds counts[i] elements of `type` from element 0, in device i's
  // context (context(i)); one buffer and one count per device, a count of 0 skips the device (its
  // buffer may be empty). The whole input is the parts in device order. Throws as reduce, and
  // Error (Param::Buffer) for a buffer too small for its count or a count list of the wrong size.
  MultiResult reduce_resident(const std::vector<cl::Buffer>& buffers, const std::vector<std::uint64_t>& counts,
                              ElemType type, Op op);

  // ---- Reduction descriptors (clreduce/reduction.hpp) ----
  // Host data: one pointer per input of r (each n elements of its type, valid until the call
  // returns) and one run-time scalar per r.scalars; split by counts(n, false) and copied chunk by
  // chunk as above (every input's chunk in its own pair of device buffers). The result is in
  // MultiResult::result; DeviceShare::value stays unset (a part's accumulator is unfinished).
  // The options' reducer params reach each device's descriptor launch (wg, groups per compute
  // unit, vec, -D ITEMS: Reducer::reduce(Reduction, ...) says which it takes). Throws Error:
  // n = 0 (Param::N), a null pointer or an input count other than r's (Param::Buffer), a scalar
  // count other than r's, f64 on a device without cl_khr_fp64 (Param::Type, naming it), a
  // descriptor that does not build (its log), a device's failure (naming it).
  MultiResult reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                     const std::vector<ScalarArg>& scalars = {});
  // Resident data: inputs[i] holds device i's Inputs (one per input of r, buffers of context(i),
  // each with counts[i] elements after its offset); a count of 0 skips the device (its Inputs may
  // be empty). The whole input is the parts in device order. Throws as above, and Error
  // (Param::Buffer) for a list of the wrong size or a buffer too small for its count.
  MultiResult reduce_resident(const Reduction& r, const std::vector<std::vector<Input>>& inputs,
                              const std::vector<std::uint64_t>& counts, const std::vector<ScalarArg>& scalars = {});

  // ---- Parts of a larger reduction: another call's, another process's (an MPI rank's) ----
  // As reduce(r, inputs, n, scalars) for host data, but the result left unfinished: `parts` holds
  // the accumulators of every chunk of every device, in device and chunk order (part_count of them,
  // r.acc_bytes each, as the device lays out r's accumulator: OpenCL C's layout, little-endian),
  // and `result` stays unset. index_base: the index of this call's first element in the whole
  // input (the map's i and an arg result's index count from it). The parts of several calls, put
  // side by side in the whole input's order, go to finish(); the parts of an exact summation
  // (Summation::Exact) are exact, so the finished result is the bits of one call over the whole
  // input, whatever the calls, devices and chunks. depth: the calls' own; finish adds one
  // combine per part after the first. Throws as reduce.
  MultiResult accumulate(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                         std::uint64_t index_base, const std::vector<ScalarArg>& scalars = {});
  // `count` accumulators of r at `parts` (count * r.acc_bytes bytes, as accumulate leaves them,
  // from any calls of any MultiReducer with the same descriptor), folded in their order by one
  // work-item on device 0 and finished for `n` elements in all (a mean's count). Throws Error
  // (Param::N) for count or n 0 or count above 2^32 - 1, (Param::Buffer) for a null pointer,
  // (Param::Type) for f64 on a device 0 without cl_khr_fp64, a descriptor that does not build.
  // The bytes are trusted to be r's accumulators: folding other bytes gives a wrong result, never
  // a read or write outside the buffers.
  Result finish(const Reduction& r, const void* parts, std::uint64_t count, std::uint64_t n);

 private:
  struct State;
  std::unique_ptr<State> s_;
};
inline constexpr std::uint64_t kBandwidthProbeElements = std::uint64_t{1} << 22;

// The one line the multi-device path gives for argmin/argmax and user operators by Op (Param::Op):
// they run as descriptors (builtin(Builtin::ArgMax, ...), load_reduction(file)).
void require_multi_device_op(Op op);

}  // namespace clreduce
