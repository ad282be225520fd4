// warp_shuffle.cl: the load stage of vector (VEC-wide loads, TIMES per work-item, grid stride),
// then the work-group reduction by warp shuffles (warp_reduce.clh): registers within a warp,
// one value per warp through local memory, one barrier per group. The host offers it only on
// NVIDIA (NV_PTX 1, WARP 32); built elsewhere it uses the emulated shuffle.
#include "reduce_common.clh"
#include "vector_load.clh"
#include "warp_reduce.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_warp_shuffle(__global const T* restrict in, __global T* restrict out, const ulong n,
                         const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T warp_sums[SHFL_WARPS];
  __local uint scratch[SHFL_SCRATCH_WORDS];
  const uint lid = get_local_id(0);
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  const T acc = group_reduce_shfl(warp_sums, scratch, lid, load_vectors_strided(in, n, gid, stride));
  if (lid == 0) out[get_group_id(0)] = acc;
}
