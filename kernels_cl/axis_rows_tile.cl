// axis_rows_tile.cl: one value per row of an M x N row-major matrix, one work-item per row, the
// group's rows staged through local memory. The step after axis_rows_sliced.cl for short rows:
// rows_sliced gives a 32-element row 4 work-items and folds their partials in a tree behind
// barriers, for 8 elements each. Here a group of WG_SIZE work-items takes WG_SIZE consecutive
// rows; for each TILE_N columns of them it copies the WG_SIZE x TILE_N block into local memory
// (consecutive work-items read consecutive elements: when N = TILE_N the block is one contiguous
// run of memory, read as the whole-array family reads it), and after one barrier each work-item
// folds its own row from local memory, with no tree at all: the transpose's lesson (stage through
// local memory so that both the global reads and the per-row work are cheap) inside a reduction.
// A row of the tile is TILE_N + 1 elements long, so the work-items reading down their rows hit
// different local-memory banks.
#include "reduce_common.clh"

#ifndef TILE_N
#define TILE_N 32 // columns of the group's rows staged per trip, a power of two (the host: 32 for 4-byte types, 16 for 8-byte)
#endif
// The copy's steps: the group copies STEP_ROWS rows of STEP_COLS columns at a time (both powers
// of two, so a work-item's place in a step is a shift and a mask, no division by a run-time value).
#define STEP_COLS (WG_SIZE >= TILE_N ? TILE_N : WG_SIZE)
#define STEP_ROWS (WG_SIZE / STEP_COLS)

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_tile(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
  __local IN_T tile[WG_SIZE][TILE_N + 1];
  const uint lid = get_local_id(0);
  const uint rr = lid / STEP_COLS, cc = lid % STEP_COLS;  // the work-item's place in a copy step
  // The trips depend on the group alone, so every work-item meets every barrier.
  for (uint first = get_group_id(0) * WG_SIZE; first < m; first += get_num_groups(0) * WG_SIZE) {
    const uint rows = min((uint)WG_SIZE, m - first);  // the group's rows this trip
    __global const IN_T* block = in + (ulong)first * n;
    ACC acc = ACC_IDENTITY;
    for (uint c0 = 0; c0 < n; c0 += TILE_N) {
      const uint w = min((uint)TILE_N, n - c0);  // the columns of this tile
      // Consecutive work-items copy consecutive columns of a row (when N = TILE_N, consecutive
      // rows follow one another in memory too: the whole copy is one contiguous run).
      for (uint r = rr; r < rows; r += STEP_ROWS)
        for (uint c = cc; c < w; c += STEP_COLS) tile[r][c] = block[(ulong)r * n + c0 + c];
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid < rows)
        for (uint c = 0; c < w; ++c) acc = ACC_NEXT(acc, tile[lid][c], c0 + c);
      barrier(CLK_LOCAL_MEM_FENCE);  // the tile is read before the next one is written
    }
    if (lid < rows) out[first + lid] = acc;
  }
}
