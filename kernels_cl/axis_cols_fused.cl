// axis_cols_fused.cl: one value per column of an M x N row-major matrix in one launch. The step
// after axis_cols_tile.cl, as single_pass.cl is after the two-launch family: cols_tile splits the
// rows into chunks so that a matrix of few columns fills the device, and a second launch folds
// the chunks' partial rows; that launch costs a few microseconds however small it is (on the
// H100, 4.8 µs for the 8 x 4096 partials of a 4096 x 4096 matrix whose first pass takes about
// 24). Here each group reduces its chunk of its column tile exactly as cols_tile does, writes the
// tile's partial row to `partials`, and takes a ticket from its tile's counter; the group that
// draws the last ticket of a tile folds that tile's `chunks` partial rows into `out` and sets the
// counter back to 0, so the next launch finds it zeroed with no host work between launches.
// The meeting is single_pass.cl's (SP_FINISH 0): a device-wide fence between a partial and its
// ticket, and the last group's reads of the partials volatile (never from a stale cache line).
// An argmin/argmax pair carries its row in the whole matrix, so the fold keeps it.
#include "reduce_common.clh"
#include "axis_fold.clh"

#ifndef TILE_X
#define TILE_X 32 // columns per work-group: consecutive, one coalesced row segment per load
#endif
#ifndef ROWS_Y
#define ROWS_Y 8 // row-slices per work-group: a power of two, folded in local memory
#endif
#include "axis_ticket.clh"

// The ROWS_Y values of each column in l folded into l[0][x] (every level behind a barrier).
void fold_rows_y(__local ACC (*l)[TILE_X], const uint x, const uint y) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = ROWS_Y / 2; s > 0; s >>= 1) {
    if (y < s) l[y][x] = ACC_OP(l[y][x], l[y + s][x]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel __attribute__((reqd_work_group_size(TILE_X, ROWS_Y, 1)))
void axis_cols_fused(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                     const uint rows_per_chunk, __global ACC* partials, volatile __global uint* tickets) {
  __local ACC l[ROWS_Y][TILE_X];
  __local uint is_last;
  const uint x = get_local_id(0), y = get_local_id(1);
  const uint chunk = get_group_id(1), chunks = get_num_groups(1);
  const ulong r_begin = (ulong)chunk * rows_per_chunk;
  const ulong r_end = min((ulong)m, r_begin + rows_per_chunk);
  // Column tiles past the grid's width are looped over; the trips depend on the group alone.
  for (uint c0 = get_group_id(0) * TILE_X; c0 < n; c0 += get_num_groups(0) * TILE_X) {
    const uint c = c0 + x;
    l[y][x] = c < n ? fold_strided(in + c, n, r_begin + y, r_end, ROWS_Y) : ACC_IDENTITY;
    fold_rows_y(l, x, y);
    if (y == 0 && c < n) {
      partials[(ulong)chunk * n + c] = l[0][x];
      GLOBAL_FENCE();  // the partial is visible device-wide before the group's ticket is taken
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);  // every partial of the group written and fenced
    if (x == 0 && y == 0) {
      is_last = atomic_inc(&tickets[c0 / TILE_X]) == chunks - 1;
      GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (is_last) {  // the same for the whole group, so the barriers inside are reached by all
      ACC acc = ACC_IDENTITY;
      if (c < n)
        for (uint k = y; k < chunks; k += ROWS_Y) acc = ACC_OP(acc, load_published(partials + (ulong)k * n + c));
      l[y][x] = acc;
      fold_rows_y(l, x, y);
      if (y == 0 && c < n) out[c] = l[0][x];
      if (x == 0 && y == 0) atomic_xchg(&tickets[c0 / TILE_X], 0u);  // ready for the next launch
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // is_last and l are read before the next tile rewrites them
  }
}
