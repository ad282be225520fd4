// reduce_descriptor.cl: the whole-array reduction of any descriptor (clreduce/reduction.hpp) in
// one launch: inputs of any element types, a map over them, any accumulator, a finish. Each
// work-item folds its grid-strided elements into ITEMS independent accumulators (ITEMS loads of
// every input in flight, as axis_fold.clh keeps them), the group folds its work-items' values in
// a tree in local memory, writes its partial and takes a ticket (single_pass.cl's meeting, with
// axis_ticket.clh's fences); the group that draws the last ticket folds every partial, applies
// the finish and writes the one result to out[out_index]. It resets the ticket to 0, so the next
// launch needs no host work.
//
// Depth (the float bound): a work-item folds at most ceil(n / global size) elements through ITEMS
// chains, then log2(WG_SIZE) tree levels, then the last group folds the partials (ceil(groups /
// WG_SIZE) per work-item and its tree): the host's plan adds these up.
#include "descriptor.clh"

#ifndef WG_SIZE
#define WG_SIZE 256 // work-items per work-group: a power of two (the tree halves it)
#endif
#ifndef ITEMS
#define ITEMS 4 // elements each work-item loads per trip, into as many accumulators (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#ifndef NV_PTX
#define NV_PTX 0 // 1: the device runs NVIDIA inline PTX (the device-wide fence is membar.gl)
#endif
#if NV_PTX
#define GLOBAL_FENCE() __asm__ volatile("membar.gl;" ::: "memory")
#else
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

// The group's values folded in a tree with a barrier at every level (an accumulator may be a
// struct: no lockstep tail); the result is in l[0] after the last barrier, for every work-item.
void desc_group_fold(__local DESC_ACC* l, const uint lid, const DESC_ACC acc) {
  l[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_SIZE / 2; s > 0; s >>= 1) {
    if (lid < s) l[lid] = desc_combine(l[lid], l[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// A partial another group published, copied through volatile loads (never from a stale cache
// line) in 32-bit words, or bytes where the accumulator is not a whole number of words.
#if DESC_ACC_BYTES % 4 == 0
#define DESC_WORD uint
#else
#define DESC_WORD uchar
#endif
DESC_ACC desc_load_published(__global const DESC_ACC* p) {
  union {
    DESC_ACC acc;
    DESC_WORD w[DESC_ACC_BYTES / sizeof(DESC_WORD)];
  } u;
  const volatile __global DESC_WORD* src = (const volatile __global DESC_WORD*)p;
  for (uint k = 0; k < DESC_ACC_BYTES / sizeof(DESC_WORD); ++k) u.w[k] = src[k];
  return u.acc;
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_descriptor(DESC_INPUT_PARAMS, const ulong n, __global DESC_ACC* partials,
                       volatile __global uint* ticket, __global DESC_OUT* out, const ulong out_index
                       DESC_SCALAR_PARAMS) {
  __local DESC_ACC l[WG_SIZE];
  __local uint is_last;
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  const uint groups = get_num_groups(0);
  const ulong step = (ulong)groups * WG_SIZE;
  ulong k = (ulong)group * WG_SIZE + lid;

  DESC_ACC acc[ITEMS];
  for (uint j = 0; j < ITEMS; ++j) acc[j] = desc_identity();
  // Whole trips: ITEMS elements of every input, `step` apart, read before any is folded.
  for (; k + (ITEMS - 1) * step < n; k += ITEMS * step)
    for (uint j = 0; j < ITEMS; ++j) acc[j] = desc_combine(acc[j], desc_lift(DESC_ELEMENT(k + j * step), k + j * step));
  // The last partial trip, element by element (never past n).
  for (; k < n; k += step) acc[0] = desc_combine(acc[0], desc_lift(DESC_ELEMENT(k), k));
  for (uint j = 1; j < ITEMS; ++j) acc[0] = desc_combine(acc[0], acc[j]);

  desc_group_fold(l, lid, acc[0]);
  if (lid == 0) {
    partials[group] = l[0];
    GLOBAL_FENCE();  // the partial is visible device-wide before the ticket is taken
    is_last = atomic_inc(ticket) == groups - 1;
    GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!is_last) return;  // the same for the whole group: the barriers below are reached by all
  DESC_ACC mine = desc_identity();
  for (uint g = lid; g < groups; g += WG_SIZE) mine = desc_combine(mine, desc_load_published(partials + g));
  desc_group_fold(l, lid, mine);
  if (lid == 0) {
    out[out_index] = desc_finish(l[0], n);
    atomic_xchg(ticket, 0u);  // ready for the next launch
  }
}
