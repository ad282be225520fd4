// segments_split.cl: a segmented reduction for few, long segments (or one huge one): the step after
// segments_group.cl, as axis_rows_split.cl is after axis_rows_group.cl. One group per segment
// leaves most of a GPU idle when there are fewer segments than its compute units can hold groups
// (one segment of 2^26 elements: one group, one compute unit), so each segment is split into
// `parts` equal parts (the grid's first dimension), one work-group per part, and a second kernel
// (segments_split_finish) folds each segment's parts. Same offsets (CSR, S + 1 ulong), the same
// clamping of offsets into [0, n], the same EMPTY_VALUE for an empty segment as segments_group.cl.
//
// Each work-item also keeps ITEMS independent accumulators and loads ITEMS elements per trip (the
// TIMES lesson of the whole-array family): one load in flight per work-item is not enough bytes
// in flight to reach a GPU's memory bandwidth.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "segments_common.clh"

#ifndef ITEMS
#define ITEMS 4 // elements each work-item loads per trip, into as many accumulators (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif

// Pass 1: group (part, y) folds part `part` of segments y, y + groups_y, ... into
// partials[s * parts + part]. A segment of length L has parts of ceil(L / parts) elements; the
// last ones may be short or empty (they write the identity, which the finish folds away).
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void segments_split(__global const T* restrict in, __global const ulong* restrict offsets,
                    __global ACC* restrict partials, const ulong n, const ulong segments) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  const uint part = get_group_id(0), parts = get_num_groups(0);
  for (ulong s = get_group_id(1); s < segments; s += get_num_groups(1)) {  // the same trips for the whole group
    const ulong begin = min(offsets[s], n);
    const ulong end = min(max(offsets[s + 1], begin), n);
    const ulong per_part = (end - begin + parts - 1) / parts;
    const ulong j0 = min(end, begin + part * per_part);
    const ulong j1 = min(end, j0 + per_part);
    ACC acc[ITEMS];
    for (uint k = 0; k < ITEMS; ++k) acc[k] = ACC_IDENTITY;
    ulong j = j0 + lid;
    // Whole trips: ITEMS loads, WG_SIZE apart (each coalesced across the group), no bounds checks.
    for (; j + (ulong)(ITEMS - 1) * WG_SIZE < j1; j += (ulong)ITEMS * WG_SIZE)
      for (uint k = 0; k < ITEMS; ++k) acc[k] = ACC_NEXT(acc[k], in[j + k * WG_SIZE], j + k * WG_SIZE - begin);
    // The last partial trip, element by element.
    for (; j < j1; j += WG_SIZE) acc[0] = ACC_NEXT(acc[0], in[j], j - begin);
    for (uint k = 1; k < ITEMS; ++k) acc[0] = ACC_OP(acc[0], acc[k]);
    group_reduce_loop(l, lid, acc[0]);  // every work-item takes it, empty part or not
    if (lid == 0) partials[s * parts + part] = l[0];
    barrier(CLK_LOCAL_MEM_FENCE);  // l[0] is read before the next segment refills l
  }
}

// Pass 2: one group per segment (groups loop over the segments) folds its `parts` partials; an
// empty segment gets EMPTY_VALUE.
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void segments_split_finish(__global const ACC* restrict partials, __global const ulong* restrict offsets,
                           __global ACC* restrict out, const ulong n, const ulong segments, const uint parts) {
  __local ACC l[WG_SIZE];
  const uint lid = get_local_id(0);
  for (ulong s = get_group_id(0); s < segments; s += get_num_groups(0)) {
    const ulong begin = min(offsets[s], n);
    const ulong end = min(max(offsets[s + 1], begin), n);
    ACC acc = ACC_IDENTITY;
    for (uint p = lid; p < parts; p += WG_SIZE) acc = ACC_OP(acc, partials[s * parts + p]);
    group_reduce_loop(l, lid, acc);
    if (lid == 0) out[s] = begin == end ? EMPTY_VALUE : l[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
