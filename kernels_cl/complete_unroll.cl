// complete_unroll.cl: last_wavefront_unroll with every tree level written out for the
// compile-time WG_SIZE (AMD Completely-Unroll, NVIDIA reduction #6): no loop counter, no
// loop branch; levels below the reported lockstep width run without barriers.
#include "reduce_common.clh"
#include "lockstep.clh"

#if WG_SIZE > 4096
#error "WG_SIZE over 4096: complete_unroll writes out levels up to 2048"
#endif

// Levels at or below this run in the barrier-free tail; 0: none do.
#define TREE_STOP (USE_LOCKSTEP_TAIL ? LOCKSTEP : 0)

// One level of the tree, kept only where the group is at least 2s wide and the level is above
// the tail: both tests are on constants, so the compiler keeps exactly log2(WG_SIZE) levels.
#define TREE_LEVEL(s)                                   \
  if (WG_SIZE >= 2 * (s) && (s) > TREE_STOP) {          \
    if (lid < (s)) l[lid] = OP(l[lid], l[lid + (s)]);   \
    barrier(CLK_LOCAL_MEM_FENCE);                       \
  }

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
void reduce_complete_unroll(__global const T* restrict in, __global T* restrict out,
                            const ulong n, const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG_SIZE) + lid;
  T acc = i < n ? LOAD(in[i]) : IDENTITY;                   // either element past n is the identity
  if (i + WG_SIZE < n) acc = OP(acc, LOAD(in[i + WG_SIZE]));
  l[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  TREE_LEVEL(2048) TREE_LEVEL(1024) TREE_LEVEL(512) TREE_LEVEL(256) TREE_LEVEL(128) TREE_LEVEL(64)
  TREE_LEVEL(32) TREE_LEVEL(16) TREE_LEVEL(8) TREE_LEVEL(4) TREE_LEVEL(2) TREE_LEVEL(1)
#if USE_LOCKSTEP_TAIL
  if (lid < LOCKSTEP) {
    volatile __local T* v = l;
    LAST_WAVEFRONT_LEVEL(64) LAST_WAVEFRONT_LEVEL(32) LAST_WAVEFRONT_LEVEL(16)
    LAST_WAVEFRONT_LEVEL(8) LAST_WAVEFRONT_LEVEL(4) LAST_WAVEFRONT_LEVEL(2) LAST_WAVEFRONT_LEVEL(1)
  }
#endif
  if (lid == 0) out[get_group_id(0)] = l[0];
}
