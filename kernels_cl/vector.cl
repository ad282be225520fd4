// vector.cl: each work-item loads VEC-wide vectors (uint2/4/8/16, or the element type's vector
// type), TIMES of them spaced one global size apart, then folds the vector to a scalar
// (AMD Vector-Size). The n % VEC elements after the last whole vector are added by scalar loads.
// Then the completely unrolled tree.
#include "reduce_common.clh"

#ifndef TIMES
#define TIMES 4 // vectors each work-item accumulates before the tree
#endif
#ifndef VEC
#define VEC 4 // elements per vector load: 2, 4, 8 or 16
#endif
#if VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 2, 4, 8 or 16"
#endif

typedef VTYPE(VEC) VT;

// The vector's elements folded with OP, halving the width each step.
T fold_vector(const VT v) {
#if VEC == 16
  const VTYPE(8) v8 = OP(v.lo, v.hi);
#elif VEC == 8
  const VTYPE(8) v8 = v;
#endif
#if VEC >= 8
  const VTYPE(4) v4 = OP(v8.lo, v8.hi);
#elif VEC == 4
  const VTYPE(4) v4 = v;
#endif
#if VEC >= 4
  const VTYPE(2) v2 = OP(v4.lo, v4.hi);
#else
  const VTYPE(2) v2 = v;
#endif
  return OP(v2.x, v2.y);
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_vector(__global const T* restrict in, __global T* restrict out, const ulong n) {
  __local T l[WG_SIZE];
  const uint lid = get_local_id(0);
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  const ulong vectors = n / VEC;  // whole vectors
  __global const VT* restrict vin = (__global const VT*)in;
  VT vacc = (VT)(IDENTITY);
  ACCUMULATE_STRIDED(vacc, vin, gid, stride, vectors)
  T acc = fold_vector(vacc);
  for (ulong i = vectors * VEC + gid; i < n; i += stride) acc = OP(acc, LOAD(in[i]));  // tail
  group_reduce_unrolled(l, lid, acc);
  if (lid == 0) out[get_group_id(0)] = l[0];
}
