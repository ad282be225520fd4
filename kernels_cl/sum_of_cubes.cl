// sum_of_cubes.cl: the access-pattern study. Both kernels compute the sum of x^3 over n uint
// elements (modulo 2^32), each work-item folding its share into one partial, then a group tree in
// local memory writing one partial per work-group (the host reduces those with a reduction
// variant). They differ only in which elements a work-item reads:
//   sum_of_cubes_contiguous:  work-item g reads one contiguous chunk [g*chunk, (g+1)*chunk), the
//     natural CPU split. Neighbouring work-items are `chunk` elements apart at every step, so on
//     a GPU each load of a warp touches as many memory segments as it has work-items (uncoalesced).
//   sum_of_cubes_interleaved: work-item g reads g, g + G, g + 2G, ... (G = global size).
//     Neighbouring work-items read neighbouring words at every step (coalesced).
// Integers wrap, so the order of additions does not change the result and both are exact.
#ifndef WG_SIZE
#define WG_SIZE 256 // work-items per work-group: a power of two
#endif
#define TYPE_ID 0 // uint
#define OP_ID 0   // sum
#include "reduce_common.clh"
#include "reduce_tree.clh"

uint cube(const uint x) { return x * x * x; }

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sum_of_cubes_contiguous(__global const uint* restrict in, __global uint* restrict out,
                             const ulong n) {
  __local uint l[WG_SIZE];
  const ulong threads = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong g = (ulong)get_group_id(0) * WG_SIZE + get_local_id(0);
  const ulong chunk = (n + threads - 1) / threads;  // the last chunks may be short or empty
  const ulong begin = g * chunk;
  const ulong end = min(begin + chunk, n);
  uint acc = 0;
  for (ulong i = begin; i < end; ++i) acc += cube(in[i]);
  group_reduce_loop(l, get_local_id(0), acc);
  if (get_local_id(0) == 0) out[get_group_id(0)] = l[0];
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void sum_of_cubes_interleaved(__global const uint* restrict in, __global uint* restrict out,
                              const ulong n) {
  __local uint l[WG_SIZE];
  const ulong threads = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong g = (ulong)get_group_id(0) * WG_SIZE + get_local_id(0);
  uint acc = 0;
  for (ulong i = g; i < n; i += threads) acc += cube(in[i]);
  group_reduce_loop(l, get_local_id(0), acc);
  if (get_local_id(0) == 0) out[get_group_id(0)] = l[0];
}
