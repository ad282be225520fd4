// segments_sliced.cl: a segmented reduction (segments_group.cl says what the offsets and the
// output are), SLICE work-items per segment and WG_SIZE / SLICE segments per work-group. The step
// after segments_group for many short segments, as axis_rows_sliced.cl is after
// axis_rows_group.cl: a segment of a few hundred elements gives a group of 256 one or two elements
// per work-item and then a tree of 8 levels; here a slice of SLICE work-items strides along its
// segment (ITEMS loads in flight each, axis_fold.clh) and folds its SLICE partials in its own part
// of local memory. The levels are separated by group-wide barriers (every slice takes the same
// levels), so no lockstep execution is assumed. Offsets are clamped into [0, n] before any read,
// as in segments_group.cl; an empty segment gets EMPTY_VALUE.
#include "reduce_common.clh"
#include "axis_fold.clh"
#include "segments_common.clh"

#ifndef SLICE
#define SLICE 32 // work-items per segment: a power of two dividing WG_SIZE
#endif
#define SEGMENTS_PER_GROUP (WG_SIZE / SLICE)

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void segments_sliced(__global const T* restrict in, __global const ulong* restrict offsets, __global ACC* restrict out,
                     const ulong n, const ulong segments) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  const uint slice = lid / SLICE;  // which of the group's segments
  const uint sl = lid % SLICE;     // the work-item's place in its slice
  __local ACC* ls = l + slice * SLICE;
  // The trips depend on the group alone, so every work-item meets every barrier. A slice past
  // the last segment (the last trip) folds identities and writes nothing.
  for (ulong first = (ulong)get_group_id(0) * SEGMENTS_PER_GROUP; first < segments;
       first += (ulong)get_num_groups(0) * SEGMENTS_PER_GROUP) {
    const ulong s = first + slice;
    ulong begin = 0, end = 0;
    if (s < segments) {
      begin = min(offsets[s], n);
      end = min(max(offsets[s + 1], begin), n);
    }
    // Indices within the segment: argmin/argmax's pair carries them.
    ls[sl] = fold_strided(in + begin, 1, sl, end - begin, SLICE);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint h = SLICE / 2; h > 0; h >>= 1) {
      if (sl < h) ls[sl] = ACC_OP(ls[sl], ls[sl + h]);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Only work-item 0 of a slice reads ls[0], which only it writes next trip: no barrier needed.
    if (sl == 0 && s < segments) out[s] = begin == end ? EMPTY_VALUE : ls[0];
  }
}
