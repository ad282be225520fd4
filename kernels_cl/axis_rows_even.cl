// axis_rows_even.cl: one value per row of an M x N row-major matrix, every work-group given an
// equal share of the matrix read as one flat array (CUB's "even share" of a grid), the rows cut
// wherever the shares fall. The step after axis_rows_split.cl (and its fused form) for long rows:
// one group per row, or per part of a row, leaves the device's last wave short (1024 rows of
// 65536 floats on the H100's 132 compute units: 7 or 8 rows each, 93 µs where 8192 rows of 8192
// take 89), and many short parts each pay a device-wide fence and a ticket (round 21: 16384
// groups cost 4-8 µs). Here the grid is one wave of groups with the same number of elements each,
// so every compute unit finishes together, and only a row cut by a share's boundary needs a meeting.
//
// Group g reads elements [g * share, (g + 1) * share) of the flat matrix, row by row: for each row
// it touches, its work-items stride along the piece of the row (coalesced, as rows_group), then
// the group's tree. A row wholly inside the share is written to `out` directly. A row the share
// cuts is shared by the groups g0 .. g1 that overlap it: each writes its piece's value to its own
// slot of `partials` (2g for the group's first row, 2g + 1 for its last when that is another
// row), fences it and takes the row's ticket (axis_ticket.clh); the group drawing the last of the
// row's g1 - g0 + 1 tickets folds their slots into `out` and sets the ticket back to 0. A group
// fences at most twice, whatever the shape.
//
// An argmin/argmax pair carries its index in the whole row (a piece starts at its column), so the
// meeting keeps it.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "axis_fold.clh"
#include "axis_ticket.clh"

// The slot group h used for `row`: its first row's slot, or its last row's.
ulong slot_of(const ulong h, const ulong row, const ulong share, const ulong n) {
  return (h * share) / n == row ? 2 * h : 2 * h + 1;
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_even(__global const IN_T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                    const uint share, __global ACC* partials, volatile __global uint* tickets) {
  __local ACC l[WG_SIZE];
  __local uint is_last;
  const uint lid = get_local_id(0);
  const ulong g = get_group_id(0), total = (ulong)m * n;
  const ulong begin = min(total, g * share), end = min(total, begin + share);
  // The rows this share touches (none when it starts past the matrix: the grid's last groups).
  const ulong first_row = begin / n, rows_end = begin < end ? (end - 1) / n + 1 : first_row;
  for (ulong row = first_row; row < rows_end; ++row) {  // the same trips for the whole group
    const ulong row_begin = row * n;
    const ulong j_begin = max(begin, row_begin) - row_begin, j_end = min(end, row_begin + n) - row_begin;
    group_reduce_loop(l, lid, fold_strided(in + row_begin, 1, j_begin + lid, j_end, WG_SIZE));
    if (j_begin == 0 && j_end == n) {  // the whole row is in this share: no one to meet
      if (lid == 0) out[row] = l[0];
    } else {
      // The groups whose shares overlap this row, this one among them.
      const ulong g0 = row_begin / share, g1 = (row_begin + n - 1) / share;
      if (lid == 0) {
        partials[slot_of(g, row, share, n)] = l[0];
        GLOBAL_FENCE();  // the piece's value is visible device-wide before the row's ticket is taken
        is_last = atomic_inc(&tickets[row]) == (uint)(g1 - g0);
        GLOBAL_FENCE();  // and the last group's reads of the values come after its ticket
      }
      barrier(CLK_LOCAL_MEM_FENCE);  // is_last set; l[0] read before the finish refills l
      if (is_last) {  // the same for the whole group, so the tree's barriers are reached by all
        ACC acc = ACC_IDENTITY;
        for (ulong h = g0 + lid; h <= g1; h += WG_SIZE) acc = ACC_OP(acc, load_published(partials + slot_of(h, row, share, n)));
        group_reduce_loop(l, lid, acc);
        if (lid == 0) {
          out[row] = l[0];
          atomic_xchg(&tickets[row], 0u);  // ready for the next launch
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] and is_last read before the next row refills them
  }
}
