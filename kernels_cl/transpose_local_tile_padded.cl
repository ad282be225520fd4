// transpose_local_tile_padded.cl: local_tile with a TILE x (TILE + 1) tile. The padding column
// shifts each row by one bank, so the column reads of the store stage touch TILE different banks:
// no local-memory bank conflicts (for 32-bit elements).
#ifndef TILE
#define TILE 16 // tile edge in elements; the work-group is TILE x TILE
#endif
#define ROWS TILE // each work-item moves one element
#define PAD 1     // one padding column
#define WG_X TILE
#define WG_Y TILE
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_local_tile_padded(__global const T* restrict in, __global T* restrict out,
                                 const uint m, const uint n) {
  __local T tile[TILE * (TILE + PAD)];
  tile_transpose(in, out, m, n, tile);
}
