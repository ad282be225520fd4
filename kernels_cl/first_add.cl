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
  const ulong i = (ulong)get_group_id(0) * (2 * WG_SIZE) + lid;
  T acc = i < n ? LOAD(in[i]) : IDENTITY;                   // either element past n is the identity
  if (i + WG_SIZE < n) acc = OP(acc, LOAD(in[i + WG_SIZE]));
  l[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_SIZE / 2; s > 0; s >>= 1) {
    if (lid < s) l[lid] = OP(l[lid], l[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = l[0];
}
