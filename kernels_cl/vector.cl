// vector.cl: each work-item loads VEC-wide vectors (uint2/4/8/16, or the element type's vector
// type), TIMES of them spaced one global size apart, then folds the vector to a scalar
// (AMD Vector-Size). The n % VEC elements after the last whole vector are added by scalar loads
// (the load stage is vector_load.clh). Then the completely unrolled tree.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "vector_load.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_vector(__global const T* restrict in, __global T* restrict out, const ulong n,
                   const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  group_reduce_unrolled(l, lid, load_vectors_strided(in, n, gid, stride));
  if (lid == 0) out[get_group_id(0)] = l[0];
}
