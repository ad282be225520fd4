// Filling a buffer's bytes with one value, safe on every driver clreduce runs on.
// Thread-safety: as the queue's own enqueues.
#pragma once

#include "clreduce/opencl.hpp"

#include <cstdint>
#include <vector>

namespace clreduce {

// The most one clEnqueueFillBuffer of enqueue_fill_bytes covers.
inline constexpr std::uint64_t kFillPieceBytes = std::uint64_t{1} << 30;

// clEnqueueFillBuffer of bytes [offset, offset + size) of `buffer` with `byte`, on an in-order
// queue: in pieces of at most piece_bytes (kFillPieceBytes; a test may pass less), each with the widest pattern (1, 2 or 4 copies of the byte)
// that divides its offset and size; `event`, if given, is the last piece's. Why pieces: NVIDIA's
// OpenCL (driver 580.159.04, H200) did not finish a 1-byte-pattern fill of 2 GiB in 115 s, while
// 2 GiB - 4096 bytes took 5 ms and a 4-byte pattern of 2 GiB 1 ms (bench/NOTES.md, transposes at
// 97% of the copy). A size of 0 enqueues nothing (and leaves `event` alone). Throws cl::Error as
// the enqueue does.
void enqueue_fill_bytes(const cl::CommandQueue& queue, const cl::Buffer& buffer, unsigned char byte,
                        std::uint64_t offset, std::uint64_t size, const std::vector<cl::Event>* wait = nullptr,
                        cl::Event* event = nullptr, std::uint64_t piece_bytes = kFillPieceBytes);

}  // namespace clreduce
