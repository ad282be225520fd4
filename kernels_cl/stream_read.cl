// stream_read.cl: the device's read bandwidth, the ceiling a reduction is measured against.
// Reads a buffer of `words` 32-bit words once, 16 bytes per load, grid-stride, and folds them
// with xor; the result is written only when it equals `never`, a run-time argument, so the
// compiler cannot drop the reads, and at most a few work-items ever write.

#ifndef WG_SIZE
#define WG_SIZE 256 // work-items per work-group
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void stream_read(__global const uint4* restrict in, const ulong words, const uint never,
                 __global uint* restrict out) {
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + get_local_id(0);
  const ulong vectors = words / 4;
  uint4 acc = (uint4)(0);
  for (ulong i = gid; i < vectors; i += stride) acc ^= in[i];
  uint x = acc.x ^ acc.y ^ acc.z ^ acc.w;
  __global const uint* tail = (__global const uint*)in;
  for (ulong i = vectors * 4 + gid; i < words; i += stride) x ^= tail[i];
  if (x == never) out[0] = x;
}

// The same read for a CPU: each work-item reads one contiguous block of the buffer (sized here
// from `words`), 64 bytes per load into four accumulators, as a CPU core streams best (in order,
// SIMD, prefetched); the host launches a few work-items per core in groups of one.
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void stream_read_blocks(__global const uint16* restrict in, const ulong words, const uint never,
                        __global uint* restrict out) {
  const ulong items = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + get_local_id(0);
  const ulong vectors = words / 16;
  const ulong per_item = (vectors + items - 1) / items;
  const ulong first = min(gid * per_item, vectors);
  const ulong last = min(first + per_item, vectors);
  uint16 a0 = (uint16)(0), a1 = a0, a2 = a0, a3 = a0;
  ulong v = first;
  for (; v + 4 <= last; v += 4) {
    a0 ^= in[v];
    a1 ^= in[v + 1];
    a2 ^= in[v + 2];
    a3 ^= in[v + 3];
  }
  for (; v < last; ++v) a0 ^= in[v];
  const uint16 a = a0 ^ a1 ^ a2 ^ a3;
  const uint8 b = a.lo ^ a.hi;
  const uint4 c = b.lo ^ b.hi;
  uint x = c.x ^ c.y ^ c.z ^ c.w;
  __global const uint* tail = (__global const uint*)in;
  if (gid + 1 == items)
    for (ulong i = vectors * 16; i < words; ++i) x ^= tail[i];
  if (x == never) out[0] = x;
}
