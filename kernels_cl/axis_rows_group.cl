// axis_rows_group.cl: one value per row of an M x N row-major matrix, one work-group per row.
// Every work-item of the group strides along the row WG_SIZE elements at a time (consecutive
// work-items read consecutive elements: coalesced), then the group's tree (reduce_tree.clh)
// folds the WG_SIZE partials. Groups loop over rows, so any M runs on a grid of any size.
// Good for long rows; for short ones most of the group idles (axis_rows_sliced.cl).
// Every axis kernel folds ACC (reduce_common.clh): the element for sum/min/max, the pair (value,
// index in the row) for argmin/argmax.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "axis_fold.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_group(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  for (uint row = get_group_id(0); row < m; row += get_num_groups(0)) {  // the same trips for the whole group
    __global const IN_T* r = in + (ulong)row * n;
    group_reduce_loop(l, lid, fold_strided(r, 1, lid, n, WG_SIZE));
    if (lid == 0) out[row] = l[0];
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] is read before the next row refills l
  }
}
