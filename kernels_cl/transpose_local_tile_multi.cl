// transpose_local_tile_multi.cl: the padded TILE x (TILE + 1) local tile moved by a TILE x ROWS
// work-group, each work-item moving TILE / ROWS elements in and out. Fewer, busier work-items
// than local_tile_padded: more loads in flight per work-item and a tile larger than a square
// work-group could hold. The usual fastest form (TILE 32, ROWS 8 is the textbook choice).
#ifndef TILE
#define TILE 32 // tile edge in elements
#endif
#ifndef ROWS
#define ROWS 8 // work-group rows; each work-item moves TILE / ROWS elements; must divide TILE
#endif
#if TILE % ROWS != 0
#error "ROWS must divide TILE"
#endif
#define WG_X TILE
#define WG_Y ROWS
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_local_tile_multi(__global const T* restrict in, __global T* restrict out,
                                const uint m, const uint n) {
  __local T tile[TILE][TILE + 1];  // one padding column: row j starts one bank after row j - 1
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const ulong c0 = (ulong)get_group_id(0) * TILE;  // first input column (= output row) of the tile
  const ulong tiles_y = ((ulong)m + TILE - 1) / TILE;
  FOR_GROUP_Y(ty, tiles_y) {
    const ulong r0 = ty * TILE;  // first input row (= output column) of the tile
    // Load: work-item (lx, ly) reads input rows r0 + ly + k (k = 0, ROWS, ...) at column c0 + lx;
    // neighbours in x read neighbouring columns of one row (coalesced), TILE / ROWS loads in flight.
    for (uint k = 0; k < TILE; k += ROWS)
      if (r0 + ly + k < m && c0 + lx < n) tile[ly + k][lx] = in[IN_AT(r0 + ly + k, c0 + lx)];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Store: work-item (lx, ly) writes output rows c0 + ly + k at column r0 + lx from
    // tile[lx][ly + k]; neighbours in x write neighbouring columns (coalesced) and read one column
    // of the tile, TILE + 1 words apart: TILE different banks.
    for (uint k = 0; k < TILE; k += ROWS)
      if (c0 + ly + k < n && r0 + lx < m) out[OUT_AT(c0 + ly + k, r0 + lx)] = tile[lx][ly + k];
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is refilled by the next trip, if any
  }
}
