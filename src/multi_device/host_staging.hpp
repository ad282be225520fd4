// HostStager: how one device's host-copied chunks reach it, by a HostPath (clreduce/multi_device.hpp).
// A part of host data is reduced chunk by chunk, each chunk of every input in one of two slots
// that alternate (slot k % 2), so the copy of chunk k+1 overlaps the reduction of chunk k. The
// stager owns each input's two device buffers and, for the pinned path, two pinned staging
// buffers mapped once, filled by copy threads.
//
// Why pinned staging of our own: a write from pageable memory is staged by the driver through its
// own pinned buffers, one thread's memcpy at a time (on the two-H200 machine, 1 GiB: about 8 GB/s
// against 55 GB/s from a pinned buffer, and one thread's memcpy into pinned memory about 9 GB/s).
// Several threads copying into our pinned buffer, while the DMA engine reads the other one, take
// the copy off that single thread. Why in place on a CPU: its "device memory" is host memory, so a
// copy only doubles the bytes moved.
//
// Not thread-safe: one stager serves its device's thread. Errors: cl::Error from OpenCL calls.
#pragma once

#include "clreduce/multi_device.hpp"
#include "multi_device/device_workers.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace clreduce {

class HostStager {
 public:
  // `copy`: the in-order queue that writes chunks (and maps the pinned buffers). `path` is
  // resolved for `dev` (Auto never stays); copy_threads 0 means 1.
  HostStager(const cl::Context& context, const cl::CommandQueue& copy, const DeviceInfo& dev, HostPath path,
             unsigned copy_threads);
  HostStager(const HostStager&) = delete;
  HostStager& operator=(const HostStager&) = delete;
  ~HostStager();  // waits for its transfers and unmaps the pinned buffers

  // The path chosen for the device (Auto resolved).
  HostPath resolved() const { return path_; }
  // The path of the part begun last (begin_part), and its copy threads (0 but for Pinned).
  HostPath path() const { return part_path_; }
  unsigned copy_threads() const { return part_path_ == HostPath::Pinned ? threads_ : 0; }

  // A part of `chunks` chunks begins: its path is the stager's, but where that was Auto and
  // resolved to Pinned, a part of one chunk is written pageable: with nothing to overlap, the copy
  // into the staging buffer only adds to the write (on the H100, 4 MiB of floats: 10.8 GB/s
  // pageable, 6.1 pinned; 64 MiB in 4 chunks: 9.2 pageable, 24.8 pinned).
  HostPath begin_part(std::uint64_t chunks);

  // Makes room for `inputs` inputs of chunks of up to bytes[j] bytes each (grown, never shrunk):
  // the pinned staging buffers where the current part copies through them.
  void reserve(const std::vector<std::uint64_t>& bytes);

  // Chunk [src, src + bytes) of input j (elements of `element_bytes`) into `slot` (0 or 1), after
  // `before` (the events of the launch that last read that slot). Returns the buffer and the
  // element offset the launch reads from; where a transfer was enqueued its event is appended to
  // `written` (the launch waits for it). In place, the buffer is the caller's memory itself and
  // nothing is appended: it starts at src rounded down to the device's buffer alignment
  // (DeviceInfo::base_align_bytes; its kernels may load whole aligned vectors from a buffer's
  // start: PoCL's do, and fault on memory off it), and the offset skips to src. Memory in place
  // that does not start on an element boundary takes the pageable write.
  Input stage(std::size_t input, unsigned slot, const unsigned char* src, std::uint64_t bytes,
              std::uint64_t element_bytes, const std::vector<cl::Event>& before, std::vector<cl::Event>& written);

 private:
  struct Slots {
    std::array<cl::Buffer, 2> device;  // what the launches read (unused in place)
    std::array<cl::Buffer, 2> pinned;  // Pinned: the staging buffers, mapped for the stager's life
    std::array<void*, 2> mapped{};
    std::array<cl::Event, 2> read;     // Pinned: the write that last read each staging buffer
    std::array<std::uint64_t, 2> device_bytes{};  // each device slot's size
    std::uint64_t pinned_bytes = 0;                // the staging buffers' (0: none)
  };
  void release(Slots& s) noexcept;

  cl::Context context_;
  cl::CommandQueue copy_;
  std::uint64_t align_;
  HostPath path_;       // resolved for the device
  bool chosen_;         // path_ was Auto's choice
  HostPath part_path_;  // the current part's
  unsigned threads_;
  std::vector<std::unique_ptr<Slots>> inputs_;
  DeviceWorkers copiers_;  // Pinned: the copy threads beside the device's own
};

// Writes `bytes` of host memory at `src` into `dst` from offset 0, blocking, by the fastest path
// for the device: on a device that does not share the host's memory and for at least two
// kUploadChunk chunks, through two pinned staging buffers that copy threads (the hardware's, at
// most 8) fill in turn while the other one's chunk is written (the H100's host: 1 GiB of floats
// reached a device 4.8x faster that way than by a pageable write, bench/results/
// 2026-12-06_h100_host_paths_maxtree); else one blocking write from `src`. Throws cl::Error.
inline constexpr std::uint64_t kUploadChunk = std::uint64_t{16} << 20;
void upload_host(const cl::Context& context, const cl::CommandQueue& queue, const DeviceInfo& dev,
                 const cl::Buffer& dst, const void* src, std::uint64_t bytes);

// The reducer of host data for the default device `dev` (clreduce::reduce() of host data): on
// `dev`, unless it does not share the host's memory, the caller did not name it (`named`:
// CLREDUCE_DEVICE) and `all` holds a CPU device (host_data_candidates): then on whichever of the
// two reads a 64 MiB probe faster (a uint sum through its host path, the best of 3). A candidate
// that fails to start or to probe is passed over. Defined in src/reduce/host_reduce.cpp.
std::unique_ptr<MultiReducer> host_reducer_for(const DeviceInfo& dev, bool named, const std::vector<DeviceInfo>& all);

class DeviceWorkers;
// Sum, min or max of n >= 1 host elements by `threads` threads of `pool` (contiguous slices, the
// first on the calling thread, eight running values each, the slices' values met in slice order:
// the same bits for the same n and threads), with the device's semantics: integer sums wrap modulo
// 2^32, floats add in their own precision, fmin/fmax pass a NaN over. clreduce::reduce()'s host
// route (host_data_route()). Defined in src/reduce/host_reduce.cpp.
Value host_threads_reduce(DeviceWorkers& pool, const void* data, ElemType type, std::uint64_t n, Op op,
                          unsigned threads);

}  // namespace clreduce
