// transpose_register_tile4.cl: each work-item moves a 4 x 4 block with four 4-wide vector loads
// (T4, e.g. float4: 16 bytes) and four 4-wide vector stores, transposing it in registers; no
// local memory. Blocks that are partial or unaligned (M or N not a multiple of 4) use checked
// scalar accesses.
#define RT 4 // block edge
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void transpose_register_tile4(__global const T* restrict in, __global T* restrict out,
                              const uint m, const uint n) {
  register_tile_transpose(in, out, m, n);
}
