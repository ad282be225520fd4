// axis_rows_split.cl: one value per row of an M x N row-major matrix when there are few, long
// rows. The step after axis_rows_group.cl for that shape: one group per row would leave most of
// the device idle (32 rows: 32 groups), so each row is split into as many parts as the grid's
// first dimension has groups, cols_per_chunk elements each, and one group reduces one part. The
// parts' values form an M x chunks matrix of partials; a second pass (axis_rows_sliced.cl)
// reduces its rows. An argmin/argmax pair carries its index in the whole row, so the second pass
// keeps it.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "axis_fold.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_split(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                     const uint cols_per_chunk) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  const uint chunk = get_group_id(0), chunks = get_num_groups(0);
  const ulong j_begin = (ulong)chunk * cols_per_chunk;
  const ulong j_end = min((ulong)n, j_begin + cols_per_chunk);
  for (uint row = get_group_id(1); row < m; row += get_num_groups(1)) {  // the same trips for the whole group
    __global const IN_T* r = in + (ulong)row * n;
    group_reduce_loop(l, lid, fold_strided(r, 1, j_begin + lid, j_end, WG_SIZE));
    if (lid == 0) out[(ulong)row * chunks + chunk] = l[0];
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] is read before the next row refills l
  }
}
