// transpose_register_tile2.cl: each work-item moves a 2 x 2 block with two 2-wide vector loads
// (T2, e.g. float2) and two 2-wide vector stores, transposing it in registers; no local memory.
// Reads and writes are each 8 bytes per work-item: half-coalesced on both sides. Blocks that
// are partial or unaligned (odd M or N) use checked scalar accesses.
#define RT 2 // block edge
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void transpose_register_tile2(__global const T* restrict in, __global T* restrict out,
                              const uint m, const uint n) {
  register_tile_transpose(in, out, m, n);
}
