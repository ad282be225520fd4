// divergence_free.cl: sequential addressing, one element per work-item (AMD Divergence-Free,
// NVIDIA reduction #3). At level s the work-items 0..s-1 add l[lid + s]: contiguous work-items,
// contiguous banks, and whole wavefronts retire together.
#include "reduce_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_divergence_free(__global const T* restrict in, __global T* restrict out, const ulong n,
                            const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * WG_SIZE + lid;
  l[lid] = i < n ? LOAD(in[i]) : IDENTITY;  // the partial last tile is padded with the identity
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_SIZE / 2; s > 0; s >>= 1) {
    if (lid < s) l[lid] = OP(l[lid], l[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = l[0];
}
