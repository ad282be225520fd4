// axis_rows_sliced.cl: one value per row of an M x N row-major matrix, ROW_WIDTH work-items per
// row and WG_SIZE / ROW_WIDTH rows per work-group. The step after axis_rows_group.cl for short
// rows: a row of 32 elements keeps 32 work-items busy instead of leaving 224 of a group of 256
// idle. Each slice strides along its row ROW_WIDTH elements at a time, then folds its ROW_WIDTH
// partials in its own part of local memory. The levels are separated by group-wide barriers
// (every slice takes the same levels), so no lockstep execution is assumed.
#include "reduce_common.clh"
#include "axis_fold.clh"

#ifndef ROW_WIDTH
#define ROW_WIDTH 32 // work-items per row: a power of two dividing WG_SIZE
#endif
#define ROWS_PER_GROUP (WG_SIZE / ROW_WIDTH)

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_sliced(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  const uint slice = lid / ROW_WIDTH;  // which of the group's rows
  const uint sl = lid % ROW_WIDTH;     // the work-item's place in its slice
  __local ACC* ls = l + slice * ROW_WIDTH;
  // The loop's trips depend on the group alone, so every work-item meets every barrier. A row
  // block past M (the last trip) folds identities and writes nothing.
  for (uint first = get_group_id(0) * ROWS_PER_GROUP; first < m; first += get_num_groups(0) * ROWS_PER_GROUP) {
    const uint row = first + slice;
    ls[sl] = row < m ? fold_strided(in + (ulong)row * n, 1, sl, n, ROW_WIDTH) : ACC_IDENTITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = ROW_WIDTH / 2; s > 0; s >>= 1) {
      if (sl < s) ls[sl] = ACC_OP(ls[sl], ls[sl + s]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Only work-item 0 of a slice reads ls[0], which only it writes next trip: no barrier needed.
    if (sl == 0 && row < m) out[row] = ls[0];
  }
}
