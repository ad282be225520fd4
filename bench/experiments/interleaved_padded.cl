// bench/experiments/interleaved_padded.cl: an experiment, not a variant. interleaved.cl with one
// change: local word i lives at i + i / 32 (one padding word after every 32), so the 2*s*lid
// stride of a level no longer maps the active work-items of a warp onto the same few banks.
// bench/gpu_teaching_evidence.sh copies the kernel directory, puts this file in place of
// interleaved.cl and measures it beside naive.cl: if interleaved loses to naive on the H100
// because of its bank conflicts, this one does not.
#include "reduce_common.clh"

#define PADDED(i) ((i) + ((i) >> 5))  // word i after one padding word per 32

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_interleaved(__global const T* restrict in, __global T* restrict out, const ulong n,
                        const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE + WG_SIZE / 32];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * WG_SIZE + lid;
  l[PADDED(lid)] = i < n ? LOAD(in[i]) : IDENTITY;  // the partial last tile is padded with the identity
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG_SIZE; s <<= 1) {
    const uint index = 2 * s * lid;
    if (index < WG_SIZE) l[PADDED(index)] = OP(l[PADDED(index)], l[PADDED(index + s)]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = l[0];
}
