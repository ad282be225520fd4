// axis_rows_split.cl: one value per row of an M x N row-major matrix when there are few, long
// rows. The step after axis_rows_group.cl for that shape: one group per row would leave most of
// the device idle (32 rows: 32 groups), so each row is split into as many parts as the grid's
// first dimension has groups, cols_per_chunk elements each, and one group reduces one part. The
// parts' values form an M x chunks matrix of partials; a second pass (axis_rows_sliced.cl)
// reduces its rows. An argmin/argmax pair carries its index in the whole row, so the second pass
// keeps it.
//
// FUSED 1 (the variant rows_split_fused): one launch, as axis_cols_fused.cl is after cols_tile.
// Each group writes its part's value to `partials` (row-major, M x chunks) and takes its row's
// ticket (axis_ticket.clh); the group drawing the row's last ticket folds the row's `chunks`
// values (strided over the group, then the tree) into `out` and sets the ticket back to 0. The
// second launch is gone; each group pays the meeting instead (its store, fence and ticket), which
// outweighs the second launch once the groups are many: on the H100, 32x1048576 floats took 49.7
// µs at 32-128 parts against 50.6-50.9 in two launches, but 1024x65536 96.1-96.9 at 16 parts
// against 91.4-92.1 (bench/NOTES.md, long rows and the meeting's cost).
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "axis_fold.clh"

#ifndef FUSED
#define FUSED 0 // 1: one launch, the last group to finish a row folds its parts' values (rows_split_fused)
#endif
#if FUSED
#include "axis_ticket.clh"
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_split(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                     const uint cols_per_chunk
#if FUSED
                     , __global ACC* partials, volatile __global uint* tickets
#endif
) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  const uint chunk = get_group_id(0), chunks = get_num_groups(0);
  const ulong j_begin = (ulong)chunk * cols_per_chunk;
  const ulong j_end = min((ulong)n, j_begin + cols_per_chunk);
#if FUSED
  __local uint is_last;
#endif
  for (uint row = get_group_id(1); row < m; row += get_num_groups(1)) {  // the same trips for the whole group
    __global const IN_T* r = in + (ulong)row * n;
    group_reduce_loop(l, lid, fold_strided(r, 1, j_begin + lid, j_end, WG_SIZE));
#if FUSED
    if (lid == 0) {
      partials[(ulong)row * chunks + chunk] = l[0];
      GLOBAL_FENCE();  // the part's value is visible device-wide before the row's ticket is taken
      is_last = atomic_inc(&tickets[row]) == chunks - 1;
      GLOBAL_FENCE();  // and the last group's reads of the values come after its ticket
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // is_last set, l[0] read before the finish or the next row refills l
    if (is_last) {  // the same for the whole group, so the tree's barriers are reached by all
      ACC acc = ACC_IDENTITY;
      for (uint k = lid; k < chunks; k += WG_SIZE)
        acc = ACC_OP(acc, load_published(partials + (ulong)row * chunks + k));
      group_reduce_loop(l, lid, acc);
      if (lid == 0) {
        out[row] = l[0];
        atomic_xchg(&tickets[row], 0u);  // ready for the next launch
      }
    }
#else
    if (lid == 0) out[(ulong)row * chunks + chunk] = l[0];
#endif
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] (and is_last) read before the next row refills l
  }
}
