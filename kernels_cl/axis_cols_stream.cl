// axis_cols_stream.cl: one value per column of an M x N row-major matrix with few columns, the
// matrix read as one flat stream of VEC-wide loads, the way the whole-array family reads an array.
// The step after cols_tile for thin matrices (N of a few dozen): cols_tile gives each column a
// work-item per row-slice, so a warp's load covers one short row, and it needs many row chunks
// (and a long second pass over their partial rows) to fill the device.
//
// The idea: element e of the matrix is in column e mod N. A work-item that reads the VEC elements
// at lane = gid * VEC, then lane + STRIDE, lane + 2 * STRIDE, ..., with STRIDE a multiple of N,
// meets the same VEC columns at every step: its VEC accumulators are VEC columns' partials. So
// the whole grid streams the matrix front to back in aligned VEC-wide loads (a warp reads one
// contiguous run of 32 * VEC elements), each work-item folding its own columns in registers.
// STRIDE = rows_per_step * N elements: the grid's active work-items (lanes_total = STRIDE / VEC)
// cover rows_per_step whole rows per step; the host makes STRIDE a multiple of VEC, so every load
// stays aligned. Work-items past lanes_total (the last group's rest) fold nothing.
//
// Then each group folds its lanes per column in local memory (the lanes of column c are the
// group's lanes i with (first lane + i) mod N = c) and writes one partial row of N values: row
// group_id of a (groups x N) matrix that a second pass (cols_tile, one chunk) folds, or the
// output itself when there is one group. An argmin/argmax pair carries its row, counted along
// the lane (a lane's row grows by rows_per_step each step), so no division per element.
#include "reduce_common.clh"

#ifndef VEC
#define VEC 4 // elements per load: 1, 2 or 4 (the host keeps VEC elements within 16 bytes)
#endif
#if VEC != 1 && VEC != 2 && VEC != 4
#error "VEC must be 1, 2 or 4"
#endif
#if !FIRST_PASS
#error "cols_stream reads the matrix (FIRST_PASS 1); its partials are folded by cols_tile"
#endif

#ifndef ITEMS
#define ITEMS 4 // steps each work-item loads before it folds them (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif

#if VEC == 1
typedef T VT;
#define LANE(v, j) (v)
#elif VEC == 2
typedef VTYPE(2) VT;
#define LANE(v, j) ((j) == 0 ? (v).s0 : (v).s1)
#else
typedef VTYPE(4) VT;
#define LANE(v, j) ((j) == 0 ? (v).s0 : (j) == 1 ? (v).s1 : (j) == 2 ? (v).s2 : (v).s3)
#endif

// One step's vector folded into the lanes' accumulators (argmin/argmax: with each lane's row,
// which then moves on by rows_per_step).
#if ARG_OP
#define FOLD_STEP(v)                                        \
  for (uint j = 0; j < VEC; ++j) {                          \
    acc[j] = ACC_NEXT(acc[j], LANE((v), j), row[j]);        \
    row[j] += rows_per_step;                                \
  }
#else
#define FOLD_STEP(v) \
  for (uint j = 0; j < VEC; ++j) acc[j] = ACC_NEXT(acc[j], LANE((v), j), 0);
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_cols_stream(__global const T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                      const uint rows_per_step) {
  __local ACC l[WG_SIZE * VEC];
  const ulong total = (ulong)m * n;
  const ulong stride = (ulong)rows_per_step * n;  // elements per step: a multiple of N and of VEC
  const ulong lanes_total = stride / VEC;          // active work-items
  const ulong gid = get_global_id(0);
  const uint lid = get_local_id(0);
  ACC acc[VEC];
  for (uint j = 0; j < VEC; ++j) acc[j] = ACC_IDENTITY;
  if (gid < lanes_total) {
    const ulong first = gid * VEC;             // the work-item's first element
#if ARG_OP
    ulong row[VEC];                            // the row of lane j's element at this step
    for (uint j = 0; j < VEC; ++j) row[j] = (first + j) / n;
#endif
    ulong e = first;
    // Whole trips: ITEMS steps whose vectors all exist, loaded before any is folded (ITEMS loads in
    // flight per work-item, the TIMES lesson); then step by step while a whole vector exists.
    for (; e + (ulong)(ITEMS - 1) * stride + VEC <= total; e += (ulong)ITEMS * stride) {
      VT v[ITEMS];
      for (uint k = 0; k < ITEMS; ++k) v[k] = *(__global const VT*)(in + e + k * stride);
      for (uint k = 0; k < ITEMS; ++k) FOLD_STEP(v[k]);
    }
    for (; e + VEC <= total; e += stride) {
      const VT v = *(__global const VT*)(in + e);
      FOLD_STEP(v);
    }
    // The matrix's last elements when M * N is not a multiple of VEC: lane by lane.
    if (e < total)
      for (uint j = 0; j < VEC; ++j)
        if (e + j < total) {
#if ARG_OP
          acc[j] = ACC_NEXT(acc[j], in[e + j], row[j]);
#else
          acc[j] = ACC_NEXT(acc[j], in[e + j], 0);
#endif
        }
  }
  for (uint j = 0; j < VEC; ++j) l[lid * VEC + j] = acc[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Column c's lanes in this group: local lane i holds column (base + i) mod N.
  const uint base = (uint)(((ulong)get_group_id(0) * WG_SIZE * VEC) % n);
  for (uint c = lid; c < n; c += WG_SIZE) {
    ACC a = ACC_IDENTITY;
    for (uint i = c >= base ? c - base : c + (n - base); i < WG_SIZE * VEC; i += n) a = ACC_OP(a, l[i]);
    out[(ulong)get_group_id(0) * n + c] = a;
  }
}
