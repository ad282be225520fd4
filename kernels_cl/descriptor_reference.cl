// descriptor_reference.cl: the reference of a reduction descriptor the host cannot compute (a
// user's descriptor file: its map and combine are the user's OpenCL C). Deliberately unlike the
// descriptor kernels: no vectors, no tree, no local memory; one work-item per piece folds that
// piece's elements one after another in index order, as a host loop would, and one work-item per
// result folds its pieces in order and finishes.
//   reference_pieces: piece p is (first, count, index) = pieces[3p .. 3p + 2]: the elements
//     first, first + stride, ... (count of them) of every input, the map's index counting from
//     `index`; its accumulator goes to accs[p] (and with MAGNITUDE the sum of |each lifted value|
//     to mags[p], in float: a scale, not a result).
//   reference_finish: result r folds accs[parts[3r] ..] (parts[3r + 1] of them) and finishes
//     with n = parts[3r + 2] into out[r].
// A whole array is pieces of consecutive elements (index = first) of one result; a row, a column
// or a segment is one piece of its own result (index from 0).
#ifndef VEC
#define VEC 1 // the generated header's vector width: the reference reads element by element
#endif
#ifndef MAGNITUDE
#define MAGNITUDE 0 // 1 (an accumulator of float or double): also sum |lift| of the elements into mags, the scale a sum's rounding bound needs
#endif
#include "descriptor.clh"

__kernel void reference_pieces(DESC_INPUT_PARAMS, __global const ulong* restrict pieces, const ulong count_pieces,
                               const ulong stride, __global DESC_ACC* restrict accs, __global float* restrict mags
                               DESC_SCALAR_PARAMS) {
  const ulong p = get_global_id(0);
  if (p >= count_pieces) return;
  const ulong first = pieces[3 * p], count = pieces[3 * p + 1], index = pieces[3 * p + 2];
  DESC_ACC acc = desc_identity();
  float mag = 0.0f;
  for (ulong k = 0; k < count; ++k) {
    const ulong e = first + k * stride;
    const DESC_ACC lifted = desc_lift(DESC_ELEMENT_AT(e, index + k), index + k);
#if MAGNITUDE
    mag += (float)fabs(lifted);
#endif
    acc = desc_combine(acc, lifted);
  }
  accs[p] = acc;
  mags[p] = mag;
}

__kernel void reference_finish(__global const DESC_ACC* restrict accs, __global const ulong* restrict parts,
                               const ulong results, __global DESC_OUT* restrict out, __global const float* restrict mags,
                               __global float* restrict out_mags) {
  const ulong r = get_global_id(0);
  if (r >= results) return;
  DESC_ACC acc = desc_identity();
  float mag = 0.0f;
  for (ulong k = 0; k < parts[3 * r + 1]; ++k) {
    acc = desc_combine(acc, accs[parts[3 * r] + k]);
    mag += mags[parts[3 * r] + k];
  }
  out[r] = desc_finish(acc, parts[3 * r + 2]);
  out_mags[r] = mag;
}
