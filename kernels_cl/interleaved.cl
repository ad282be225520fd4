// interleaved.cl: strided index 2*s*lid, one element per work-item (NVIDIA reduction #2). The
// active work-items are contiguous, so fewer wavefronts diverge, but the 2*s stride makes
// work-items of one wavefront hit the same local-memory banks.
#include "reduce_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_interleaved(__global const T* restrict in, __global T* restrict out, const ulong n,
                        const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * WG_SIZE + lid;
  l[lid] = i < n ? LOAD(in[i]) : IDENTITY;  // the partial last tile is padded with the identity
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG_SIZE; s <<= 1) {
    const uint index = 2 * s * lid;
    if (index < WG_SIZE) l[index] = OP(l[index], l[index + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = l[0];
}
