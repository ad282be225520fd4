// contiguous_blocks.cl: the CPU's reduction (the AMD OpenCL guide's CPU advice; Boost.Compute's
// reduce on CPUs): a few work-items per core, each reducing one contiguous block of the input in a
// plain loop of VEC-wide loads into four independent accumulators, which a CPU compiler turns into
// SIMD instructions and its prefetcher streams from memory. Each work-item's block is sized at run
// time from n (whole vectors, n / VEC split over the work-items), so one program serves every n;
// the last work-item adds the n % VEC elements after the last whole vector. Then the group tree
// (work-groups of one work-item by default, where it is nothing). On a GPU it runs, slowly: one
// work-item streaming its own block is the access a GPU wants least (bench access says why).
#include "reduce_common.clh"
#include "reduce_tree.clh"
#ifndef VEC
#define VEC 16 // elements per vector load (16 x 4 bytes: one 64-byte cache line, an AVX-512 register)
#endif
#include "vector_load.clh"

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_contiguous_blocks(__global const T* restrict in, __global T* restrict out, const ulong n,
                              const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong items = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  const ulong vectors = n / VEC;                          // whole vectors
  const ulong per_item = (vectors + items - 1) / items;   // each work-item's block, in vectors
  const ulong first = min(gid * per_item, vectors);
  const ulong last = min(first + per_item, vectors);
  VT a0 = (VT)(IDENTITY), a1 = a0, a2 = a0, a3 = a0;
  ulong v = first;
  for (; v + 4 <= last; v += 4) {  // four loads in flight, four dependency chains
    a0 = OP(a0, LOAD(VECTOR_AT(in, v)));
    a1 = OP(a1, LOAD(VECTOR_AT(in, v + 1)));
    a2 = OP(a2, LOAD(VECTOR_AT(in, v + 2)));
    a3 = OP(a3, LOAD(VECTOR_AT(in, v + 3)));
  }
  for (; v < last; ++v) a0 = OP(a0, LOAD(VECTOR_AT(in, v)));
  const VT all = OP(OP(a0, a1), OP(a2, a3));
  T acc = fold_vector(&all);
  if (gid + 1 == items)  // the elements after the last whole vector
    for (ulong i = vectors * VEC; i < n; ++i) acc = OP(acc, LOAD(in[i]));
  group_reduce_loop(l, lid, acc);
  if (lid == 0) out[get_group_id(0)] = l[0];
}
