// stride_global.cl: each work-item first accumulates TIMES elements spaced one global size
// apart (AMD Stride-Global-Size): element gid + k*global_size for k < TIMES. Every load
// instruction of a wavefront reads consecutive addresses, and the tree runs once per
// WG_SIZE*TIMES elements. Then the tree complete_unroll.cl wrote out, from reduce_tree.clh.
#include "reduce_common.clh"
#include "reduce_tree.clh"

#ifndef TIMES
#define TIMES 16 // elements each work-item accumulates before the tree
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_stride_global(__global const T* restrict in, __global T* restrict out, const ulong n,
                          const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  T acc = IDENTITY;
  ACCUMULATE_STRIDED(acc, in, gid, stride, n)
  group_reduce_unrolled(l, lid, acc);
  if (lid == 0) out[get_group_id(0)] = l[0];
}
