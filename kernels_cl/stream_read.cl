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
