// Byte fills in pieces: see clreduce/fill.hpp for the driver behaviour that asks for them.
#include "clreduce/fill.hpp"

#include <algorithm>

namespace clreduce {

void enqueue_fill_bytes(const cl::CommandQueue& queue, const cl::Buffer& buffer, unsigned char byte,
                        std::uint64_t offset, std::uint64_t size, const std::vector<cl::Event>* wait,
                        cl::Event* event, std::uint64_t piece_bytes) {
  const std::uint64_t piece = std::max<std::uint64_t>(piece_bytes, 1);
  for (std::uint64_t done = 0; done < size;) {
    const std::uint64_t at = offset + done, n = std::min(piece, size - done);
    const bool last = done + n == size;
    const std::vector<cl::Event>* w = done == 0 ? wait : nullptr;  // in order: the first piece waits for all
    cl::Event* e = last ? event : nullptr;
    if (at % 4 == 0 && n % 4 == 0) {
      const cl_uint word = 0x01010101u * byte;
      queue.enqueueFillBuffer(buffer, word, at, n, w, e);
    } else if (at % 2 == 0 && n % 2 == 0) {
      const cl_ushort half = static_cast<cl_ushort>(0x0101u * byte);
      queue.enqueueFillBuffer(buffer, half, at, n, w, e);
    } else {
      queue.enqueueFillBuffer(buffer, cl_uchar{byte}, at, n, w, e);
    }
    done += n;
  }
}

}  // namespace clreduce
