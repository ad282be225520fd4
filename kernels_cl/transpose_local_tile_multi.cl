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
#define PAD 1 // one padding column: no bank conflicts
#define WG_X TILE
#define WG_Y ROWS
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(TILE, ROWS, 1)))
void transpose_local_tile_multi(__global const T* restrict in, __global T* restrict out,
                                const uint m, const uint n) {
  __local T tile[TILE * (TILE + PAD)];
  tile_transpose(in, out, m, n, tile);
}
