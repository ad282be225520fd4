// stride_local.cl: each group reduces one contiguous tile of WG_SIZE*TIMES elements; each
// work-item accumulates TIMES elements spaced WG_SIZE apart inside it (AMD Stride-Local-Size,
// NVIDIA reduction #7), then the completely unrolled tree.
#include "reduce_common.clh"
#include "reduce_tree.clh"

#ifndef TIMES
#define TIMES 16 // elements each work-item accumulates before the tree
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_stride_local(__global const T* restrict in, __global T* restrict out, const ulong n,
                         const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong first = (ulong)get_group_id(0) * ((ulong)WG_SIZE * TIMES) + lid;
  T acc = IDENTITY;
  ACCUMULATE_STRIDED(acc, in, first, (ulong)WG_SIZE, n)
  group_reduce_unrolled(l, lid, acc);
  if (lid == 0) out[get_group_id(0)] = l[0];
}
