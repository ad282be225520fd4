// user_reference.cl: the reference of a user's operator (OP_ID 5), which the host cannot compute
// (the operator is the user's OpenCL C). Deliberately unlike every variant: no tree, no local
// memory; one work-item per output folds that output's elements one after another in index order,
// as a host loop would. The tools check every variant's result against it.
//   reference_fold: output o = OP over k < count of LOAD(in[o * out_stride + k * elem_stride]),
//   stopping at n (the whole array runs as outputs of `count` consecutive elements, then
//   reference_fold_partials folds those in order); rows and columns of a matrix are the strides.
//   reference_segments: output s folds in[offsets[s] .. offsets[s+1]) (IDENTITY when empty).
#ifndef OP_ID
#define OP_ID 0 // the operator: the host passes 5 (a user's file); any built-in one folds the same way
#endif
#include "reduce_common.clh"

__kernel void reference_fold(__global const T* restrict in, __global T* restrict out, const ulong outputs,
                             const ulong count, const ulong out_stride, const ulong elem_stride, const ulong n) {
  const ulong o = get_global_id(0);
  if (o >= outputs) return;
  T acc = IDENTITY;
  for (ulong k = 0; k < count; ++k) {
    const ulong i = o * out_stride + k * elem_stride;
    if (i >= n) break;
    acc = OP(acc, LOAD(in[i]));
  }
  out[o] = acc;
}

// One work-item: the partials of reference_fold, in order (already mapped: no ELEM_MAP).
__kernel void reference_fold_partials(__global const T* restrict partials, __global T* restrict out, const ulong count) {
  if (get_global_id(0) != 0) return;
  T acc = IDENTITY;
  for (ulong k = 0; k < count; ++k) acc = OP(acc, partials[k]);
  out[0] = acc;
}

__kernel void reference_segments(__global const T* restrict in, __global const ulong* restrict offsets,
                                 __global T* restrict out, const ulong segments) {
  const ulong s = get_global_id(0);
  if (s >= segments) return;
  T acc = IDENTITY;
  for (ulong j = offsets[s]; j < offsets[s + 1]; ++j) acc = OP(acc, LOAD(in[j]));
  out[s] = acc;
}
