// transpose_local_tile.cl: a TILE x TILE tile staged in local memory by a TILE x TILE
// work-group, so that both the global reads and the global writes are coalesced. The tile is
// TILE words wide, so the column reads of the store stage hit one local-memory bank TILE times
// (bank conflicts): the cost local_tile_padded removes.
#ifndef TILE
#define TILE 16 // tile edge in elements; the work-group is TILE x TILE
#endif
#define ROWS TILE // each work-item moves one element
#define PAD 0     // no padding column
#define WG_X TILE
#define WG_Y TILE
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_local_tile(__global const T* restrict in, __global T* restrict out, const uint m,
                          const uint n) {
  __local T tile[TILE * (TILE + PAD)];
  tile_transpose(in, out, m, n, tile);
}
