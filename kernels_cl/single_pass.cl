// single_pass.cl: the whole reduction in one launch (threadFenceReduction in CUDA's samples).
// Each group reduces its grid-strided share of the input (vector_load.clh: VEC-wide loads, TIMES
// per work-item) to a partial; one group then folds the partials into out[0]. Two ways to meet:
// SP_FINISH 0 (any device): the group writes its partial to out[group], makes it visible, and
//   takes a ticket from a global counter. The group that draws the last ticket reads every
//   partial (volatile loads: not from a stale cache line), folds them, and resets the counter to
//   0, so the next launch finds it zeroed with no host work between launches.
// SP_FINISH 1 (NVIDIA, 32-bit types; chosen by the host there): no fence and no atomic. A group stores its partial and the
//   launch's epoch as one 64-bit word in its slot and leaves. The last-numbered group, which
//   NVIDIA dispatches last, reads every slot until it carries this launch's epoch (CUB's
//   decoupled look-back makes the same assumption of in-order dispatch), folds them, and stores
//   the epoch it used, so the next launch uses the next one. counter[0] holds that epoch; the
//   slots follow at counter + 4 (16-byte aligned: the folding group reads two slots per load).
//   The host zeroes the buffer once. Without NV_PTX the slots are volatile 64-bit accesses: the
//   tests run this path on PoCL, whose CPU threads take work-groups in order and store aligned
//   64-bit words whole; it is not for devices without in-order dispatch.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "vector_load.clh"
#include "warp_reduce.clh"

// The group reduction: warp shuffles where PTX may be used, else the unrolled tree (barrier-free
// below LOCKSTEP where the device reports it).
#ifndef SP_SHUFFLE
#define SP_SHUFFLE (NV_PTX && WARP == 32) // 1: group reduction by warp shuffles (emulated
                                          // without NV_PTX: how the tests reach this path)
#endif

#ifndef SP_FINISH
#define SP_FINISH 0 // how the partials meet: 0 last ticket folds (any device), 1 epoch-tagged
                    // slots, the last-numbered group folds (NVIDIA inline PTX, 32-bit types)
#endif
#if SP_FINISH == 1 && TYPE_ID == 3
#error "SP_FINISH 1 needs a 32-bit type (a slot holds the epoch and the partial in 64 bits)"
#endif
#if SP_FINISH != 0 && SP_FINISH != 1
#error "SP_FINISH must be 0 or 1"
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

#if SP_FINISH == 1
// Slots: the epoch in the high 32 bits, the partial's bits in the low 32, one single-copy-atomic
// 64-bit access each way (strong relaxed accesses at GPU scope).
void slot_store(__global ulong* slot, const uint epoch, const T value) {
  const ulong word = ((ulong)epoch << 32) | as_uint(value);
#if NV_PTX
  __asm__ volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"((ulong)slot), "l"(word) : "memory");
#else
  *(volatile __global ulong*)slot = word;
#endif
}
// Two neighbouring slots in one 16-byte load (each 8-byte element is a single-copy-atomic access).
ulong2 slot_load2(__global ulong* slot) {
#if NV_PTX
  ulong2 w;
  __asm__ volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                   : "=l"(w.x), "=l"(w.y)
                   : "l"((ulong)slot)
                   : "memory");
  return w;
#else
  const volatile __global ulong* v = (const volatile __global ulong*)slot;
  return (ulong2)(v[0], v[1]);
#endif
}
#define SLOT_VALUE(word) CLR_CAT(as_, T)((uint)(word))
#ifndef SLOT_LOADS
#define SLOT_LOADS 8 // 16-byte slot loads each work-item of the folding group keeps in flight
#endif
// This launch's epoch: one more than the last launch's, never 0 (the zeroed slots' epoch).
uint launch_epoch(volatile __global uint* counter) {
  const uint e = counter[0] + 1u;
  return e == 0u ? 1u : e;
}
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_single_pass(__global const T* restrict in, __global T* out, const ulong n,
                        const ulong offset,
                        volatile __global uint* counter) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  __local uint scratch[SHFL_SCRATCH_WORDS];
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  const uint groups = get_num_groups(0);
  const ulong stride = (ulong)groups * WG_SIZE;
  const ulong gid = (ulong)group * WG_SIZE + lid;
  const T mine = group_total(l, scratch, lid, load_vectors_strided(in, n, gid, stride));
#if SP_FINISH == 1
  __global ulong* slots = (__global ulong*)(counter + 4);  // 16-byte aligned
  if (group + 1 < groups) {  // publish and leave (one work-item reads the epoch, not all)
    if (lid == 0) slot_store(slots + group, launch_epoch(counter), mine);
    return;
  }
  const uint epoch = launch_epoch(counter);
  // The last-numbered group: every other group's slot, two per 16-byte load and SLOT_LOADS loads
  // in flight per work-item, each pair read again until both carry this epoch. A pair's second
  // slot past the others' (this group's own, never written) stands in as the identity.
  const uint others = groups - 1;
  const uint pairs = (others + 1) / 2;
  const ulong ready = ((ulong)epoch << 32) | as_uint((T)(IDENTITY));
  T acc = IDENTITY;
  for (uint first = lid; first < pairs; first += SLOT_LOADS * WG_SIZE) {
    ulong2 w[SLOT_LOADS];
#pragma unroll
    for (uint k = 0; k < SLOT_LOADS; ++k) {
      const uint p = first + k * WG_SIZE;
      w[k] = p < pairs ? slot_load2(slots + 2 * p) : (ulong2)(ready, ready);
    }
#pragma unroll
    for (uint k = 0; k < SLOT_LOADS; ++k) {
      const uint p = first + k * WG_SIZE;
      if (2 * p + 1 >= others) w[k].y = ready;
      while ((uint)(w[k].x >> 32) != epoch || (uint)(w[k].y >> 32) != epoch) {
        w[k] = slot_load2(slots + 2 * p);
        if (2 * p + 1 >= others) w[k].y = ready;
      }
      acc = OP(acc, OP(SLOT_VALUE(w[k].x), SLOT_VALUE(w[k].y)));
    }
  }
  if (lid == 0) acc = OP(acc, mine);
  // The first group_total's reads of l (and of the warps' sums) are done before the second one
  // writes them: without this barrier they race (Oclgrind reports it; only this group pays it).
  barrier(CLK_LOCAL_MEM_FENCE);
  acc = group_total(l, scratch, lid, acc);
  if (lid == 0) {
    out[0] = acc;
    counter[0] = epoch;  // the kernel's end orders it before the next launch reads it
  }
#else
  __local uint is_last;
  if (lid == 0) {
    out[group] = mine;
    GLOBAL_FENCE();  // the partial is visible device-wide before the ticket is taken
    is_last = atomic_inc(counter) == groups - 1;
    GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!is_last) return;  // the same for the whole group, so the barriers below are reached by all
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
  const VT all = OP(OP(v0, v1), OP(v2, v3));
  T acc = fold_vector(&all);
  const volatile __global T* partials = out;
  for (uint i = nv * VEC + lid; i < groups; i += WG_SIZE) acc = OP(acc, partials[i]);
  acc = group_total(l, scratch, lid, acc);
  if (lid == 0) {
    out[0] = acc;
    atomic_xchg(counter, 0u);  // ready for the next launch
  }
#endif
}
