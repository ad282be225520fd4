// complete_unroll.cl: last_wavefront_unroll with every tree level written out for the
// compile-time WG_SIZE (AMD Completely-Unroll, NVIDIA reduction #6): no loop counter, no
// loop branch; levels below the reported lockstep width run without barriers.
#include "reduce_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_complete_unroll(__global const T* restrict in, __global T* restrict out, const ulong n,
                            const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  group_reduce_unrolled(l, lid, load_first_add(in, n, lid));
  if (lid == 0) out[get_group_id(0)] = l[0];
}
