// axis_cols_item.cl: one value per column of an M x N row-major matrix, one work-item per
// column, down the whole column. The work-items of a warp take consecutive columns, so each of
// their loads reads one consecutive segment of a row (coalesced) and no work-item waits on
// another: no local memory, no barrier. Its limit is the count of work-items: N of them, each
// reading M elements one after another, which leaves a GPU idle when N is small
// (axis_cols_tile.cl).
#include "reduce_common.clh"
#include "axis_fold.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_cols_item(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
  for (uint c = get_global_id(0); c < n; c += get_global_size(0)) out[c] = fold_strided(in + c, n, 0, m, 1);
}
