// reduce_descriptor.cl: the whole-array reduction of any descriptor (clreduce/reduction.hpp) in
// one launch: inputs of any element types, a map over them, any accumulator, a finish. Each
// work-item reads its grid-strided vectors of VEC consecutive elements of every input (16 bytes
// of the widest input per load) into ITEMS independent accumulators (ITEMS loads of every input
// in flight, as axis_fold.clh keeps them); DESC_FOLD_VECTOR (the descriptor's header) folds a
// vector's elements in order, or lifts the whole vector at once where the descriptor says how
// (a Welford block, a scaled sum of squares, the best of VEC for argmin). The n % VEC elements
// after the last whole vector go one by one. The group folds its work-items' values in a tree in
// local memory, writes its partial and takes a ticket (single_pass.cl's meeting, with
// axis_ticket.clh's fences); the group that draws the last ticket folds every partial, applies
// the finish and writes the one result to out[out_index]. It resets the ticket to 0, so the next
// launch needs no host work.
//
// A part of a larger reduction (the several-device path, src/multi_device: each device's chunks)
// is the same launch with PARTIAL 1: the map and the lift see each element's index in the whole
// input (index_base + its index in the part), and the last group writes its accumulator
// unfinished. reduce_descriptor_fold_parts then folds the parts in their order and finishes.
//
// With BLOCKED 1 (not a GPU) a work-item's vectors are one contiguous run instead, as many.
//
// Depth (the float bound): a work-item folds at most ceil(n / (VEC x global size)) vectors, each
// of VEC elements in order, through ITEMS chains, then one tail element; then log2(WG_SIZE) tree
// levels; then the last group folds ceil(groups / WG_SIZE) partials per work-item and its tree:
// the host's plan adds these up.
#ifndef WG_SIZE
#define WG_SIZE 256 // work-items per work-group: a power of two (the tree halves it)
#endif
#ifndef ITEMS
#define ITEMS 4 // vectors each work-item loads per trip, into as many accumulators (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#ifndef VEC
#define VEC 1 // consecutive elements of every input each load reads: 1, 2, 4, 8 or 16
#endif
#if VEC != 1 && VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 1, 2, 4, 8 or 16"
#endif
#ifndef PARTIAL
#define PARTIAL 0 // 1: out[out_index] takes the accumulator unfinished (a part of a larger
                  // reduction); 0: the finished result
#endif
#ifndef ALIGNED
#define ALIGNED 0 // 1: every input's element offset is a multiple of VEC (loads through vector
                  // pointers); 0: vloadN, which takes any offset
#endif
#ifndef BLOCKED
#define BLOCKED 0 // 1: each work-item reads one contiguous run of vectors (a CPU's cache lines and
                  // prefetcher); 0: grid-strided vectors (a GPU's loads, consecutive across work-items)
#endif
#ifndef LANES
#define LANES 0 // 1 (with BLOCKED): element c of each vector folds into accumulator c of VEC, which meet at
                // the run's end (VEC independent chains in a CPU's SIMD lanes); 0: a vector's elements in
                // order into one of ITEMS accumulators
#endif
#if LANES && !BLOCKED
#error "LANES takes BLOCKED 1: the lanes are a CPU's, over one contiguous run"
#endif
// Not here: a whole array's indices reach n, so its lanes state keeps 64-bit indices (the axis
// kernels' LANES_INDEX32 is theirs alone; the descriptor's header reads it where it is defined).
#if defined(LANES_INDEX32)
#error "LANES_INDEX32 is the axis kernels' (reduce_descriptor_cols.cl, reduce_descriptor_lines.cl): a whole array's indices reach n"
#endif
#ifndef EXACT_GROUP
#define EXACT_GROUP 0 // 1 (an exact descriptor, fp64 and 64-bit atomics): each work-item's expansion in
                      // registers and its group's digits in local memory (exact_group.clh); 0: an
                      // accumulator per work-item, as for every descriptor
#endif
#ifndef EXACT_LAST_GROUP_ROUNDS
#define EXACT_LAST_GROUP_ROUNDS 0 // with EXACT_GROUP 1: 1, the group with the last ticket reads the
                                  // launch's digits and rounds (one launch); 0, a launch of its own
                                  // does (reduce_descriptor_exact_finish), so that the rounding's
                                  // code does not set this kernel's register count
#endif
#ifndef EXACT_WHOLE_TRIPS
#define EXACT_WHOLE_TRIPS 1 // with EXACT_GROUP 1: 1, a trip whose ITEMS vectors all lie before the end
                            // loads them with no test between (one block: the loads can be issued
                            // together), only the last trip testing each; 0, every vector tested
#endif
#ifndef ITEMS_UNROLL
#define ITEMS_UNROLL EXACT_GROUP // 1: the ITEMS loops unrolled by #pragma unroll (each chain its own
                                 // registers however long the fold's code); 0: as the compiler likes
#endif
#if ITEMS_UNROLL
#define DESC_ITEMS_LOOP _Pragma("unroll") for
#else
#define DESC_ITEMS_LOOP for
#endif
#if EXACT_GROUP
// The vector macros' fold (DESC_FOLD_INTO): a trip's fast fold into a chain (exact_group.clh), its
// failures counted in trip_ok.
#define DESC_FOLD_INTO(a, v, i) exact_fast_fold((a), (v), &trip_ok)
#endif
// The descriptor's types, argument lists, map, accumulator and DESC_FOLD_VECTOR (generated by the
// host for this VEC and ALIGNED).
#include "descriptor.clh"
#include "descriptor_ticket.clh"
#if EXACT_GROUP
#include "exact_group.clh"
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


#if PARTIAL
#define DESC_WHOLE_OUT DESC_ACC
#define DESC_WHOLE_FINISH(a, n) (a)
#else
#define DESC_WHOLE_OUT DESC_OUT
#define DESC_WHOLE_FINISH(a, n) desc_finish((a), (n))
#endif

#if EXACT_GROUP
// The launch's digits read and zeroed (atomic exchanges, so the next launch finds them zero) and
// rounded once into out[out_index] (PARTIAL 1: left unfinished, an accumulator). One work-item: the
// finish launch's (reduce_descriptor_exact_finish).
void exact_take_and_round(__global exact_acc* total, __global DESC_WHOLE_OUT* out, const ulong out_index,
                          const ulong n) {
  exact_acc a = exact_identity();
  for (uint k = 0; k < EXACT_DIGITS; ++k) a.d[k] = atom_xchg(&total->d[k], 0l);
  a.flags = atomic_xchg(&total->flags, 0u);
  out[out_index] = DESC_WHOLE_FINISH(a, n);
}
#endif

// index_base: the index of the first element in the whole input (0 but for a PARTIAL part).
// partials: a partial per group; with EXACT_GROUP 1 one accumulator, the launch's digits, all zero
// between launches (the host zeroes it once; the last group leaves it so).
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_descriptor(DESC_INPUT_PARAMS, const ulong n, __global DESC_ACC* partials,
                       volatile __global uint* ticket, __global DESC_WHOLE_OUT* out, const ulong out_index,
                       const ulong index_base DESC_SCALAR_PARAMS) {
#if EXACT_GROUP
  __local exact_group_acc group_exact;
  __local double l0[WG_SIZE], l1[WG_SIZE];
#else
  __local DESC_ACC l[WG_SIZE];
#endif
#if !EXACT_GROUP || EXACT_LAST_GROUP_ROUNDS
  __local uint is_last;
#endif
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  const uint groups = get_num_groups(0);
  const ulong step = (ulong)groups * WG_SIZE;
  ulong k = (ulong)group * WG_SIZE + lid;

  // DESC_FOLD_VECTOR_AT gives vector kv's elements the indices kv * VEC - base: a base of
  // -index_base (modulo 2^64) counts them from index_base.
  const ulong base = (ulong)0 - index_base;
  const ulong vectors = n / VEC;
  const ulong first = k;
#if EXACT_GROUP
  for (uint d = lid; d < EXACT_DIGITS; d += WG_SIZE) group_exact.d[d] = 0;
  if (lid == 0) group_exact.flags = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Trips of ITEMS vectors (the last ones short), each folded fast into ITEMS chains and checked;
  // a trip that fails the check is rolled back and its elements, read again, go through the exact
  // fold (exact_group_fold) one by one. Grid-strided vectors, or with BLOCKED one run each.
#if BLOCKED
  const ulong run = (vectors + step - 1) / step;
  const ulong trip_end = min(first * run + run, vectors), apart = 1;
  k = first * run;
#else
  const ulong trip_end = vectors, apart = step;
#endif
  exact_reg ex = exact_reg_identity();  // the work-item's expansion
  exact_fast chain[ITEMS];
  DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) chain[j] = exact_fast_identity();
  for (; k < trip_end; k += ITEMS * apart) {
    uint trip_ok = 1;
#if EXACT_TERM == 1
    DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) chain[j] = exact_fast_identity();
#else
    exact_fast saved[ITEMS];
    DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) saved[j] = chain[j];
#endif
#if EXACT_WHOLE_TRIPS
    if (k + (ITEMS - 1) * apart < trip_end) {
      DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VECTOR_AT(chain[j], k + j * apart, base);
    } else
#endif
    {
      DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) {
        const ulong kv = k + j * apart;
        if (kv < trip_end) DESC_FOLD_VECTOR_AT(chain[j], kv, base);
      }
    }
#if EXACT_TERM == 1
    // The chains' sums are exact where the trip's exponents are close enough: then one TwoSum.
    exact_fast all = chain[0];
    DESC_ITEMS_LOOP (uint j = 1; j < ITEMS; ++j) exact_fast_join(&all, chain[j]);
    trip_ok = exact_fast_exact(all);
    if (trip_ok) exact_reg_add(&ex, all.d, &group_exact);
#endif
    if (!trip_ok) {
#if EXACT_TERM != 1
      DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) chain[j] = saved[j];
#endif
      for (uint j = 0; j < ITEMS; ++j)
        for (uint c = 0; c < VEC; ++c) {
          const ulong e = (k + j * apart) * VEC + c;
          if (k + j * apart < trip_end) exact_group_fold(&ex, DESC_ELEMENT_AT(e, e + index_base), &group_exact);
        }
    }
  }
  // The n % VEC elements after the last whole vector, one each for the first work-items.
  for (ulong e = vectors * VEC + first; e < n; e += step)
    exact_group_fold(&ex, DESC_ELEMENT_AT(e, e + index_base), &group_exact);
#if EXACT_TERM != 1
  DESC_ITEMS_LOOP (uint j = 0; j < ITEMS; ++j) exact_fast_merge(&ex, chain[j], &group_exact);
#endif
#else
  DESC_ACC acc[ITEMS];
  for (uint j = 0; j < ITEMS; ++j) acc[j] = desc_identity();
#if BLOCKED
  // The work-item's run: ceil(vectors / step) consecutive vectors from first * that (none past the
  // last whole vector; the last work-items' runs may be short or empty), ITEMS at a time.
  const ulong run = (vectors + step - 1) / step;
  const ulong end = min(first * run + run, vectors);
#if LANES && VEC > 1
  // Each element of a vector into its lane's accumulator (ITEMS vectors a trip, unrolled), the
  // lanes met at the end: VEC chains where a vector folded in order is one. An accumulator of a
  // scalar type: the lanes are one vector (desc_lanes_v), which a CPU's compiler keeps in SIMD
  // registers; a descriptor's lanes state where it has one; else an array, met in a tree of
  // halves (log2 VEC levels, not VEC - 1 steps).
#if DESC_LANES_VECTOR
  desc_lanes_v lanes = (desc_lanes_v)(desc_identity());
  for (k = first * run; k + ITEMS <= end; k += ITEMS)
    for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VLANES_AT(lanes, k + j, base);
  for (; k < end; ++k) DESC_FOLD_VLANES_AT(lanes, k, base);
  DESC_VLANES_MEET(lanes, acc[0]);
#elif DESC_HAS_LANES_STATE
  // The descriptor's lanes state (argmin/argmax: values and indices as vectors), met at the
  // run's end in a tree (desc_lanes_meet: on whole vectors where the descriptor can, else unpacked).
  desc_lanes_s lanes = desc_lanes_identity();
  for (k = first * run; k + ITEMS <= end; k += ITEMS)
    for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_SLANES_AT(lanes, k + j, base);
  for (; k < end; ++k) DESC_FOLD_SLANES_AT(lanes, k, base);
  acc[0] = desc_lanes_meet(&lanes);
#else
  DESC_ACC lanes[VEC];
  for (uint c = 0; c < VEC; ++c) lanes[c] = desc_identity();
  for (k = first * run; k + ITEMS <= end; k += ITEMS)
    for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_LANES_AT(lanes, k + j, base);
  for (; k < end; ++k) DESC_FOLD_LANES_AT(lanes, k, base);
  for (uint w = VEC / 2; w > 0; w >>= 1)
    for (uint c = 0; c < w; ++c) lanes[c] = desc_combine(lanes[c], lanes[c + w]);
  acc[0] = lanes[0];
#endif
#else
  for (k = first * run; k + ITEMS <= end; k += ITEMS)
    for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VECTOR_AT(acc[j], k + j, base);
  for (; k < end; ++k) DESC_FOLD_VECTOR_AT(acc[0], k, base);
#endif
#else
  // Whole trips: ITEMS vectors of every input, `step` vectors apart, none past the last whole one.
  for (; k + (ITEMS - 1) * step < vectors; k += ITEMS * step)
    for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VECTOR_AT(acc[j], k + j * step, base);
  // The last partial trip, vector by vector.
  for (; k < vectors; k += step) DESC_FOLD_VECTOR_AT(acc[0], k, base);
#endif
  // The n % VEC elements after the last whole vector, one each for the first work-items.
  for (ulong e = vectors * VEC + first; e < n; e += step)
    desc_fold_into(&acc[0], DESC_ELEMENT_AT(e, e + index_base), e + index_base);
#endif
#if EXACT_GROUP
  // The group's expansions in a tree; what a level's adds cannot hold goes to the group's digits.
  l0[lid] = ex.e0;
  l1[lid] = ex.e1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG_SIZE / 2; s > 0; s >>= 1) {
    if (lid < s) {
      exact_reg r = {l0[lid], l1[lid]};
      exact_reg_merge(&r, l0[lid + s], l1[lid + s], &group_exact);
      l0[lid] = r.e0;
      l1[lid] = r.e1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __global exact_acc* total = partials;
  // The tree's expansion into the group's digits, then the group's digits into the launch's, a
  // work-item a digit (exact_global_add_digit: pieces below 2^32 in magnitude, so up to 2^30 groups
  // may meet; the finish propagates the carries), rather than one work-item carrying all of them
  // (a double's 68) through private memory while the others wait.
  if (lid == 0) {
    exact_local_add_double_bits(group_exact.d, as_ulong(l0[0]));
    exact_local_add_double_bits(group_exact.d, as_ulong(l1[0]));
    const uint flags = group_exact.flags | (as_ulong(l0[0]) != EXACT_NEGZERO_BITS ? EXACT_NOT_NEGZERO : 0u);
    if (flags) atomic_or(&total->flags, flags);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = lid; k < EXACT_DIGITS; k += WG_SIZE) exact_global_add_digit(total->d, k, group_exact.d[k]);
#if EXACT_LAST_GROUP_ROUNDS
  GLOBAL_FENCE();                // each work-item's digits added device-wide,
  barrier(CLK_LOCAL_MEM_FENCE);  // every work-item's before the ticket is taken
  if (lid == 0) {
    is_last = atomic_inc(ticket) == groups - 1;
    GLOBAL_FENCE();  // and the last group's reads of them come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (is_last) {  // the same for the whole group: the barrier below is reached by all
    // The launch's digits read and zeroed for the next launch, a work-item a digit, into the
    // group's (no longer needed), then rounded by one.
    for (uint k = lid; k < EXACT_DIGITS; k += WG_SIZE) group_exact.d[k] = atom_xchg(&total->d[k], 0l);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      exact_acc a = exact_identity();
      for (uint k = 0; k < EXACT_DIGITS; ++k) a.d[k] = group_exact.d[k];
      a.flags = atomic_xchg(&total->flags, 0u);
      out[out_index] = DESC_WHOLE_FINISH(a, n);
      atomic_xchg(ticket, 0u);  // ready for the next launch
    }
  }
#endif
  // Else the rounding is reduce_descriptor_exact_finish's, a launch of its own after this one.
#else
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
    out[out_index] = DESC_WHOLE_FINISH(l[0], n);
    atomic_xchg(ticket, 0u);  // ready for the next launch
  }
#endif
}

#if EXACT_GROUP
// EXACT_GROUP's finish, one work-item launched after reduce_descriptor on the same queue: the
// launch's digits read and zeroed (atomic exchanges, so the next launch finds them zero) and
// rounded once (or, PARTIAL 1, left unfinished as an accumulator). A kernel of its own because
// the rounding's code inside reduce_descriptor set the register count of the whole kernel: on the
// H200 an f64 sum took 229 registers a work-item with it and 64 without, so one group of 256 per
// compute unit (bench/NOTES.md, "EXACT_GROUP's registers").
__kernel void reduce_descriptor_exact_finish(__global exact_acc* total, __global DESC_WHOLE_OUT* out,
                                             const ulong out_index, const ulong n) {
  if (get_global_id(0) == 0) exact_take_and_round(total, out, out_index, n);
}
#endif

// The parts of a reduction cut in pieces (PARTIAL launches, e.g. each device's chunks in device
// then chunk order) folded in that order by one work-item, finished for the whole input's n
// elements and written to out[out_index]. A few hundred parts at most: one work-item is enough,
// and the order (so a float result's bits) depends only on how the input was cut.
__kernel void reduce_descriptor_fold_parts(__global const DESC_ACC* parts, const uint count, const ulong n,
                                           __global DESC_OUT* out, const ulong out_index) {
  if (get_global_id(0) != 0) return;
  DESC_ACC a = parts[0];
  for (uint k = 1; k < count; ++k) a = desc_combine(a, parts[k]);
  out[out_index] = desc_finish(a, n);
}
