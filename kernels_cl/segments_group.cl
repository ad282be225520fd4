// segments_group.cl: a segmented reduction, one value per segment of a flat array. The segments
// come as CSR offsets: offsets[0..S] (S + 1 ulong values, non-decreasing, offsets[0] == 0,
// offsets[S] == n); segment s covers in[offsets[s] .. offsets[s+1]) and its value goes to out[s].
// One work-group per segment, as axis_rows_group.cl does one per row: every work-item strides
// along the segment WG_SIZE elements at a time (coalesced), then the group's tree
// (reduce_tree.clh) folds the WG_SIZE partials. Groups loop over the segments, so any S runs on a
// grid of any size. An empty segment gets EMPTY_VALUE (0 for sum; the type's highest for min, its
// lowest for max: +INFINITY and -INFINITY for floats, where the tree's fmin/fmax identity is NaN).
// Offsets outside [0, n] or decreasing are clamped into [0, n] before any read, so no offsets
// make the kernel read outside the input (the host validates them where it holds them).
// argmin/argmax give the pair (value, index within the segment), as CUB's ArgMin/ArgMax do.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "segments_common.clh"


__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void segments_group(__global const T* restrict in, __global const ulong* restrict offsets, __global ACC* restrict out,
                    const ulong n, const ulong segments) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  for (ulong s = get_group_id(0); s < segments; s += get_num_groups(0)) {  // the same trips for the whole group
    const ulong begin = min(offsets[s], n);
    const ulong end = min(max(offsets[s + 1], begin), n);
    ACC acc = ACC_IDENTITY;
    for (ulong j = begin + lid; j < end; j += WG_SIZE) acc = ACC_NEXT(acc, in[j], j - begin);
    group_reduce_loop(l, lid, acc);  // every work-item takes it, empty segment or not
    if (lid == 0) out[s] = begin == end ? EMPTY_VALUE : l[0];
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] is read before the next segment refills l
  }
}
