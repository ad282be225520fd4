// axis_cols_tile.cl: one value per column of an M x N row-major matrix, TILE_X x ROWS_Y
// work-items per group. The step after axis_cols_item.cl: the rows are split into chunks of
// rows_per_chunk (the grid's second dimension) and, inside a group, over ROWS_Y row-slices, so
// that a matrix of few columns still has work-items enough to fill the device. Work-item (x, y)
// of group (gx, chunk) folds column gx * TILE_X + x over the chunk's rows y, y + ROWS_Y, ...;
// a warp's loads read TILE_X consecutive elements of one row (coalesced). The ROWS_Y partials of
// a column are folded in local memory and the chunk's value written to row `chunk` of the
// output, an (M / rows_per_chunk) x N matrix of partials that a second pass (the same kernel,
// one chunk) folds when there is more than one chunk. An argmin/argmax pair carries its row in the
// whole matrix, so the second pass keeps it.
#include "reduce_common.clh"
#include "axis_fold.clh"

#ifndef TILE_X
#define TILE_X 32 // columns per work-group: consecutive, one coalesced row segment per load
#endif
#ifndef ROWS_Y
#define ROWS_Y 8 // row-slices per work-group: a power of two, folded in local memory
#endif

__kernel __attribute__((reqd_work_group_size(TILE_X, ROWS_Y, 1)))
void axis_cols_tile(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                    const uint rows_per_chunk) {
  __local ACC l[ROWS_Y][TILE_X];
  const uint x = get_local_id(0), y = get_local_id(1);
  const uint chunk = get_group_id(1);
  const ulong r_begin = (ulong)chunk * rows_per_chunk;
  const ulong r_end = min((ulong)m, r_begin + rows_per_chunk);
  // Column tiles past the grid's width are looped over; the trips depend on the group alone.
  for (uint c0 = get_group_id(0) * TILE_X; c0 < n; c0 += get_num_groups(0) * TILE_X) {
    const uint c = c0 + x;
    l[y][x] = c < n ? fold_strided(in + c, n, r_begin + y, r_end, ROWS_Y) : ACC_IDENTITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ROWS_Y / 2; s > 0; s >>= 1) {
      if (y < s) l[y][x] = ACC_OP(l[y][x], l[y + s][x]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Only work-item (x, 0) reads l[0][x], which only it writes next trip: no barrier needed.
    if (y == 0 && c < n) out[(ulong)chunk * n + c] = l[0][x];
  }
}
