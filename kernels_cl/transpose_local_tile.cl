// transpose_local_tile.cl: a TILE x TILE tile staged in local memory by a TILE x TILE
// work-group, so that both the global reads and the global writes are coalesced. The tile is
// TILE words wide, so the column reads of the store stage hit one local-memory bank TILE times
// (bank conflicts): the cost local_tile_padded removes.
#ifndef TILE
#define TILE 16 // tile edge in elements; the work-group is TILE x TILE
#endif
#define WG_X TILE
#define WG_Y TILE
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_local_tile(__global const T* restrict in, __global T* restrict out, const uint m,
                          const uint n) {
  __local T tile[TILE][TILE];
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const ulong c0 = (ulong)get_group_id(0) * TILE;  // first input column (= output row) of the tile
  const ulong tiles_y = ((ulong)m + TILE - 1) / TILE;
  FOR_GROUP_Y(ty, tiles_y) {
    const ulong r0 = ty * TILE;  // first input row (= output column) of the tile
    // Load: work-item (lx, ly) reads input (r0 + ly, c0 + lx); neighbours in x read neighbouring
    // columns of one row (coalesced). Past the right or bottom edge nothing is read.
    if (r0 + ly < m && c0 + lx < n) tile[ly][lx] = in[IN_AT(r0 + ly, c0 + lx)];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Store: work-item (lx, ly) writes output (c0 + ly, r0 + lx) from tile[lx][ly]; neighbours in x
    // write neighbouring columns of one output row (coalesced) and read one column of the tile,
    // TILE words apart: the same bank when TILE is a multiple of the bank count.
    if (c0 + ly < n && r0 + lx < m) out[OUT_AT(c0 + ly, r0 + lx)] = tile[lx][ly];
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is refilled by the next trip, if any
  }
}
