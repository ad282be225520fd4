// bench/experiments/last_wavefront_unroll_rolled.cl: an experiment, not a variant.
// last_wavefront_unroll.cl with `#pragma unroll 1` on the tree loop, so the compiler keeps it a
// loop. complete_unroll writes every level out by hand and measures the same as
// last_wavefront_unroll on the H100; if that is because the driver's compiler already unrolls the
// loop (WG_SIZE is a compile-time constant), this rolled version is the slower one.
// bench/gpu_teaching_evidence.sh puts it in place of last_wavefront_unroll.cl in a copied kernel
// directory.
#include "reduce_common.clh"
#include "lockstep.clh"

// Levels at or below this run in the barrier-free tail; 0: none do.
#define TREE_STOP (USE_LOCKSTEP_TAIL ? LOCKSTEP : 0)

// One level of the last wavefront, s <= LOCKSTEP, run by work-items 0..LOCKSTEP-1 in lockstep:
// work-items below s fold in the value s above them. The reads of [s, 2s) and the writes of
// [0, s) never overlap, so a level has no race; WARP_SYNC orders the levels (NVIDIA), and
// `volatile` makes every read go to local memory, not to a register loaded a level before.
#define LAST_WAVEFRONT_LEVEL(s)                \
  if (LOCKSTEP >= (s)) {                       \
    T other = IDENTITY;                        \
    if (lid < (s)) other = v[lid + (s)];       \
    WARP_SYNC();                               \
    if (lid < (s)) v[lid] = OP(v[lid], other); \
    WARP_SYNC();                               \
  }

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_last_wavefront_unroll(__global const T* restrict in, __global T* restrict out,
                                  const ulong n, const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG_SIZE) + lid;
  T acc = i < n ? LOAD(in[i]) : IDENTITY;                   // either element past n is the identity
  if (i + WG_SIZE < n) acc = OP(acc, LOAD(in[i + WG_SIZE]));
  l[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 1
  for (uint s = WG_SIZE / 2; s > TREE_STOP; s >>= 1) {
    if (lid < s) l[lid] = OP(l[lid], l[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#if USE_LOCKSTEP_TAIL
  if (lid < LOCKSTEP) {
    volatile __local T* v = l;
    LAST_WAVEFRONT_LEVEL(64) LAST_WAVEFRONT_LEVEL(32) LAST_WAVEFRONT_LEVEL(16)
    LAST_WAVEFRONT_LEVEL(8) LAST_WAVEFRONT_LEVEL(4) LAST_WAVEFRONT_LEVEL(2) LAST_WAVEFRONT_LEVEL(1)
  }
#endif
  if (lid == 0) out[get_group_id(0)] = l[0];
}
