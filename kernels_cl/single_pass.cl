// single_pass.cl: the whole reduction in one launch (threadFenceReduction in CUDA's samples).
// Each group reduces its grid-strided share of the input (vector_load.clh: VEC-wide loads, TIMES
// per work-item) to a partial in out[group], makes it visible, and takes a ticket from a global
// counter. The group that draws the last ticket reads every partial (volatile loads: not from a
// stale cache line), reduces them to out[0], and resets the counter to 0, so the next launch
// finds it zeroed with no host work between launches. The host zeroes the counter once.
#include "reduce_common.clh"
#include "vector_load.clh"
#include "warp_reduce.clh"

// The group reduction: warp shuffles where PTX may be used, else the unrolled tree (barrier-free
// below LOCKSTEP where the device reports it).
#ifndef SP_SHUFFLE
#define SP_SHUFFLE (NV_PTX && WARP == 32) // 1: group reduction by warp shuffles (emulated
                                          // without NV_PTX: how the tests reach this path)
#endif

// Orders this work-item's global writes before its later global accesses, across the device.
#if NV_PTX
#define GLOBAL_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

// The group's values folded; the result is valid in work-item 0. l holds WG_SIZE values.
T group_total(__local T* l, __local uint* scratch, const uint lid, const T acc) {
#if SP_SHUFFLE
  return group_reduce_shfl(l, scratch, lid, acc);
#else
  group_reduce_unrolled(l, lid, acc);
  return l[0];  // written last by work-item 0 itself (or before a barrier)
#endif
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_single_pass(__global const T* restrict in, __global T* out, const ulong n,
                        volatile __global uint* counter) {
  __local T l[WG_SIZE];
  __local uint scratch[SHFL_SCRATCH_WORDS];
  __local uint is_last;
  const uint lid = get_local_id(0);
  const uint groups = get_num_groups(0);
  const ulong stride = (ulong)groups * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  T acc = group_total(l, scratch, lid, load_vectors_strided(in, n, gid, stride));
  if (lid == 0) {
    out[get_group_id(0)] = acc;
    GLOBAL_FENCE();  // the partial is visible device-wide before the ticket is taken
    is_last = atomic_inc(counter) == groups - 1;
    GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (is_last) {  // the same for the whole group, so the barriers below are reached by all
    // The partials as VEC-wide vectors (the buffer is aligned; the groups % VEC after the last
    // whole vector by scalars), four loads issued before any is used so their latencies overlap:
    // with many groups (a TIMES-derived grid) the tail is a short streaming read, not a loop of
    // dependent loads.
    const volatile __global VT* vpartials = (const volatile __global VT*)out;
    const uint nv = groups / VEC;
    VT v0 = (VT)(IDENTITY), v1 = v0, v2 = v0, v3 = v0;
    for (uint i = lid; i < nv; i += 4 * WG_SIZE) {
      const VT p0 = vpartials[i];
      const VT p1 = i + WG_SIZE < nv ? vpartials[i + WG_SIZE] : (VT)(IDENTITY);
      const VT p2 = i + 2 * WG_SIZE < nv ? vpartials[i + 2 * WG_SIZE] : (VT)(IDENTITY);
      const VT p3 = i + 3 * WG_SIZE < nv ? vpartials[i + 3 * WG_SIZE] : (VT)(IDENTITY);
      v0 = OP(v0, p0);
      v1 = OP(v1, p1);
      v2 = OP(v2, p2);
      v3 = OP(v3, p3);
    }
    acc = fold_vector(OP(OP(v0, v1), OP(v2, v3)));
    const volatile __global T* partials = out;
    for (uint i = nv * VEC + lid; i < groups; i += WG_SIZE) acc = OP(acc, partials[i]);
    acc = group_total(l, scratch, lid, acc);
    if (lid == 0) {
      out[0] = acc;
      atomic_xchg(counter, 0u);  // ready for the next launch
    }
  }
}
