// HostStager (host_staging.hpp) and the HostPath names.
#include "multi_device/host_staging.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

namespace clreduce {

namespace {
const char* const kHostPaths = "auto, pageable, pinned, in_place";

// Slices of one copy start on 4 KiB boundaries (whole pages of the destination), so two threads
// never write one cache line or page.
constexpr std::uint64_t kSliceAlign = 4096;

// bytes from src to dst, in up to `threads` slices of whole pages, the first on the calling thread
// and the others on `copiers` (one slice: a plain memcpy). The pinned paths' copy, staged chunks
// and uploads alike.
void parallel_copy(DeviceWorkers& copiers, unsigned threads, unsigned char* dst, const unsigned char* src,
                   std::uint64_t bytes) {
  const std::uint64_t per = (bytes / threads + kSliceAlign - 1) / kSliceAlign * kSliceAlign;
  const unsigned slices = static_cast<unsigned>(std::min<std::uint64_t>(threads, per ? (bytes + per - 1) / per : 1));
  if (slices <= 1) {
    std::memcpy(dst, src, bytes);
    return;
  }
  copiers.run(std::vector<bool>(slices, true), [&](std::size_t i) {
    const std::uint64_t from = i * per, to = std::min(bytes, from + per);
    if (from < to) std::memcpy(dst + from, src + from, to - from);
  });
}
}  // namespace

const char* name_of(HostPath p) {
  switch (p) {
    case HostPath::Auto: return "auto";
    case HostPath::Pageable: return "pageable";
    case HostPath::Pinned: return "pinned";
    case HostPath::InPlace: return "in_place";
  }
  return "auto";
}

HostPath parse_host_path(std::string_view text) {
  for (HostPath p : {HostPath::Auto, HostPath::Pageable, HostPath::Pinned, HostPath::InPlace})
    if (text == name_of(p)) return p;
  throw Error(Param::HostPath, "unknown host path '" + std::string(text) + "'; valid: " + kHostPaths, kHostPaths);
}

HostPath resolve_host_path(HostPath p, const DeviceInfo& dev) {
  if (p != HostPath::Auto) return p;
  return dev.host_unified_memory ? HostPath::InPlace : HostPath::Pinned;
}

HostStager::HostStager(const cl::Context& context, const cl::CommandQueue& copy, const DeviceInfo& dev, HostPath path,
                       unsigned copy_threads)
    : context_(context), copy_(copy), align_(std::max<std::uint64_t>(1, dev.base_align_bytes)), path_(resolve_host_path(path, dev)),
      chosen_(path == HostPath::Auto),
      part_path_(path_),
      threads_(std::max(1u, copy_threads)) {}

HostPath HostStager::begin_part(std::uint64_t chunks) {
  part_path_ = chosen_ && path_ == HostPath::Pinned && chunks < 2 ? HostPath::Pageable : path_;
  return part_path_;
}

HostStager::~HostStager() {
  for (auto& s : inputs_) release(*s);
}

void HostStager::release(Slots& s) noexcept {
  try {
    for (unsigned k = 0; k < 2; ++k)
      if (s.mapped[k]) {
        copy_.enqueueUnmapMemObject(s.pinned[k], s.mapped[k]);
        s.mapped[k] = nullptr;
      }
    copy_.finish();
  } catch (...) {
  }
}

void HostStager::reserve(const std::vector<std::uint64_t>& bytes) {
  while (inputs_.size() < bytes.size()) inputs_.push_back(std::make_unique<Slots>());
  // Pinned memory only for a part that copies through it; the device slots are made by stage()
  // as a chunk needs them (in place, only where a chunk is not on an element boundary).
  if (part_path_ != HostPath::Pinned) return;
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    Slots& s = *inputs_[j];
    if (bytes[j] <= s.pinned_bytes) continue;
    release(s);  // waits for every transfer of the old staging buffers and unmaps them
    for (unsigned k = 0; k < 2; ++k) {
      s.pinned[k] = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes[j]);
      s.mapped[k] = copy_.enqueueMapBuffer(s.pinned[k], CL_TRUE, CL_MAP_WRITE, 0, bytes[j]);
      s.read[k] = cl::Event();
    }
    s.pinned_bytes = bytes[j];
  }
}

Input HostStager::stage(std::size_t input, unsigned slot, const unsigned char* src, std::uint64_t bytes,
                        std::uint64_t element_bytes, const std::vector<cl::Event>& before,
                        std::vector<cl::Event>& written) {
  Slots& s = *inputs_.at(input);
  const std::uint64_t lead = reinterpret_cast<std::uintptr_t>(src) % align_;
  // The aligned block must not start before src's own page (which is mapped): with an alignment
  // above a page's 4 KiB, only memory already on it is read in place.
  if (part_path_ == HostPath::InPlace && lead % element_bytes == 0 && (lead == 0 || align_ <= 4096)) {
    // Read-only for the kernels and never mapped, so the implementation has no reason to write the
    // caller's memory (OpenCL's signature takes a non-const pointer only because other flags
    // write). The `lead` bytes before src lie on src's own aligned block, so they are mapped
    // memory; no kernel reads them (the offset skips them).
    auto* base = const_cast<unsigned char*>(src - lead);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
    return Input{cl::Buffer(context_, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, lead + bytes, base), lead / element_bytes};
  }
  // The device slot, made or grown here (a launch still reading the old one keeps it alive).
  if (!s.device[slot]() || s.device_bytes[slot] < bytes) {
    s.device[slot] = cl::Buffer(context_, CL_MEM_READ_ONLY, bytes);
    s.device_bytes[slot] = bytes;
  }
  written.emplace_back();
  if (part_path_ != HostPath::Pinned) {
    copy_.enqueueWriteBuffer(s.device[slot], CL_FALSE, 0, bytes, src, before.empty() ? nullptr : &before,
                             &written.back());
    return Input{s.device[slot], 0};
  }
  // Pinned: the staging buffer is free once the write that last read it has run; then the copy
  // threads fill it, each a slice, and the write goes from there.
  if (s.read[slot]()) s.read[slot].wait();
  auto* dst = static_cast<unsigned char*>(s.mapped[slot]);
  parallel_copy(copiers_, threads_, dst, src, bytes);
  copy_.enqueueWriteBuffer(s.device[slot], CL_FALSE, 0, bytes, dst, before.empty() ? nullptr : &before,
                           &written.back());
  s.read[slot] = written.back();
  return Input{s.device[slot], 0};
}

void upload_host(const cl::Context& context, const cl::CommandQueue& queue, const DeviceInfo& dev,
                 const cl::Buffer& dst, const void* src, std::uint64_t bytes) {
  if (dev.host_unified_memory || bytes < 2 * kUploadChunk) {
    if (bytes) queue.enqueueWriteBuffer(dst, CL_TRUE, 0, bytes, src);
    return;
  }
  // The same mechanics as a host part's pinned path (HostStager), each chunk written at its offset
  // of dst rather than into a slot.
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::array<cl::Buffer, 2> pinned;
  std::array<void*, 2> mapped{};
  std::array<cl::Event, 2> read;
  DeviceWorkers copiers;
  const auto* from = static_cast<const unsigned char*>(src);
  try {
    for (unsigned k = 0; k < 2; ++k) {
      pinned[k] = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, kUploadChunk);
      mapped[k] = queue.enqueueMapBuffer(pinned[k], CL_TRUE, CL_MAP_WRITE, 0, kUploadChunk);
    }
    for (std::uint64_t off = 0, k = 0; off < bytes; off += kUploadChunk, ++k) {
      const unsigned slot = static_cast<unsigned>(k % 2);
      const std::uint64_t count = std::min(kUploadChunk, bytes - off);
      if (read[slot]()) read[slot].wait();
      auto* dst_bytes = static_cast<unsigned char*>(mapped[slot]);
      parallel_copy(copiers, threads, dst_bytes, from + off, count);
      queue.enqueueWriteBuffer(dst, CL_FALSE, off, count, dst_bytes, nullptr, &read[slot]);
      queue.flush();
    }
    queue.finish();
  } catch (...) {
    try { queue.finish(); } catch (...) {}
    for (unsigned k = 0; k < 2; ++k)
      if (mapped[k]) try { queue.enqueueUnmapMemObject(pinned[k], mapped[k]); } catch (...) {}
    try { queue.finish(); } catch (...) {}
    throw;
  }
  for (unsigned k = 0; k < 2; ++k) queue.enqueueUnmapMemObject(pinned[k], mapped[k]);
  queue.finish();
}

}  // namespace clreduce
