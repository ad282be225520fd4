// axis_rows_vector.cl: one value per row of an M x N row-major matrix, one work-item per row, the
// row read VEC elements per load. The step after rows_sliced for narrow rows (a row of a few dozen
// elements): rows_sliced gives a row ROW_WIDTH work-items and pays a tree in local memory, with a
// barrier per level, for every handful of elements each one reads; rows_tile stages the rows
// through local memory to keep the loads coalesced. Here there is neither: each work-item folds
// its whole row in registers, VEC elements (16 bytes at most) per load, ITEMS loads in flight.
//
// Why the loads are not wasted although a warp's load k reads the k-th VEC elements of 32
// different rows (32 pieces, one row's bytes apart): the warp's next loads read the rest of the
// same lines, which the cache still holds, so each byte still comes from memory once; what is
// left is VEC times fewer load instructions than one element per load.
//
// N must be a multiple of VEC (the planner takes the widest of 4, 2, 1 that divides N and keeps
// VEC elements within 16 bytes), so every row starts on a whole vector of an aligned buffer.
// One pass, a first pass: it reads elements, never the pairs of an earlier pass.
#include "reduce_common.clh"

#ifndef VEC
#define VEC 4 // elements per load: 1, 2 or 4, dividing N
#endif
#ifndef ITEMS
#define ITEMS 4 // loads each work-item issues per trip, into as many accumulators (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#if !FIRST_PASS
#error "rows_vector is a single first pass (FIRST_PASS 1)"
#endif
#include "axis_row_vector.clh"


__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_vector(__global const T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
  const uint vectors = n / VEC;  // whole vectors per row: all of it (N is a multiple of VEC)
  // Rows past the grid are looped over; no work-item waits for another (no local memory).
  for (ulong row = get_global_id(0); row < m; row += get_global_size(0)) {
    __global const VT* r = (__global const VT*)(in + row * n);
    ACC acc[ITEMS];
    for (uint k = 0; k < ITEMS; ++k) acc[k] = ACC_IDENTITY;
    uint j = 0;
    // Whole trips: ITEMS vectors, each into its own accumulator.
    for (; j + ITEMS <= vectors; j += ITEMS) {
      VT v[ITEMS];
      for (uint k = 0; k < ITEMS; ++k) v[k] = r[j + k];  // all loads issued before any fold
      for (uint k = 0; k < ITEMS; ++k) FOLD_VECTOR(acc[k], v[k], (j + k) * VEC);
    }
    // The vectors after the last whole trip.
    for (; j < vectors; ++j) {
      const VT v = r[j];
      FOLD_VECTOR(acc[0], v, j * VEC);
    }
    for (uint k = 1; k < ITEMS; ++k) acc[0] = ACC_OP(acc[0], acc[k]);
    out[row] = acc[0];
  }
}
