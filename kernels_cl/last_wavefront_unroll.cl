// last_wavefront_unroll.cl: first_add, and the tree loop stops at the device's lockstep width;
// the last levels run without barriers (AMD Last-Wavefront-Unroll, NVIDIA reduction #5).
// The host passes LOCKSTEP only from the device's own report (CL_DEVICE_WARP_SIZE_NV,
// CL_DEVICE_WAVEFRONT_WIDTH_AMD); with LOCKSTEP 0 (PoCL, Intel, ...) every level keeps its
// barrier, because OpenCL itself promises no lockstep execution.
#include "reduce_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_last_wavefront_unroll(__global const T* restrict in, __global T* restrict out,
                                  const ulong n,
                                  const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  group_reduce_loop(l, lid, load_first_add(in, n, lid));
  if (lid == 0) out[get_group_id(0)] = l[0];
}
