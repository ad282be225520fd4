// first_add.cl: each work-item adds two elements, a tile of 2*WG_SIZE apart by WG_SIZE, while
// loading (NVIDIA reduction #4), then the sequential-addressing tree. Half the groups of
// divergence_free, and no work-item idles in the first step.
#include "reduce_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_first_add(__global const T* restrict in, __global T* restrict out, const ulong n,
                      const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  group_reduce_loop(l, lid, load_first_add(in, n, lid));  // LOCKSTEP is 0 here: all barriers
  if (lid == 0) out[get_group_id(0)] = l[0];
}
