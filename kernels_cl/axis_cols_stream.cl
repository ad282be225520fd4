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
// group's lanes i with (first lane + i) mod N = c; fold_lane_rows, a tree), or on NVIDIA, where a
// row's lanes are a power of two of work-items within a warp (WARP_FOLD), by shuffles inside each
// warp and one pass down the warps' rows (1048576x32 floats on the H100: 50.8-51.0 µs against
// 52.0 with the tree's five levels behind barriers, bench/results/2026-11-26_h100_axis_cols_stream_warp_fold),
// and writes one partial row of N values: row
// group_id of a (groups x N) matrix that a second pass (cols_tile, one chunk) folds, or the
// output itself when there is one group. An argmin/argmax pair carries its row, counted along
// the lane (a lane's row grows by rows_per_step each step), so no division per element.
//
// FUSED 1 (the variant cols_stream_fused): one launch, as single_pass.cl is after the two-launch
// family. Each group writes its partial row to `partials` and takes a ticket; the group drawing
// the last folds the groups' partial rows, streamed exactly as the matrix was (whole rows per
// step, so each work-item's lanes keep their columns, VEC-wide volatile loads), and sets the ticket
// back to 0 for the next launch. The meeting is cols_fused.cl's: a device-wide fence between a
// partial and the ticket. Sums, min and max only: the finish reads VEC values of T per load,
// where an argmin/argmax partial is a pair.
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
#ifndef FUSED
#define FUSED 0 // 1: one launch, the last group folds the groups' partial rows (cols_stream_fused)
#endif
#ifndef NV_PTX
#define NV_PTX 0 // 1: the device runs NVIDIA inline PTX (the device-wide fence is membar.gl, the lanes fold by shfl.sync)
#endif
#include "axis_shuffle.clh"
#ifndef WARP_FOLD
#define WARP_FOLD NV_PTX // 1: a group's lanes folded per column by warp shuffles (shfl.sync, NVIDIA PTX) where N allows
#endif
#if WARP_FOLD && !NV_PTX
#error "WARP_FOLD needs NVIDIA's PTX shuffle (NV_PTX 1)"
#endif
#if FUSED && ARG_OP
#error "cols_stream's fused finish folds VEC values of T per load; argmin/argmax keep the second pass (FUSED 0)"
#endif
#include "axis_ticket.clh"

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

// The group's WG_SIZE * VEC lanes in l as rows of N: lane i sits at place i mod N of row i / N, and
// the lanes at one place hold one column. Half the rows folded onto the other half, level after
// level behind barriers, leave each place's fold in l[0..N): log2(rows) steps where a loop down
// each place took `rows` (the lanes past WG_SIZE * VEC of a last, partial row count as identities).
// Every work-item calls it (the trips depend on N alone).
void fold_lane_rows(__local ACC* l, const uint lid, const uint n) {
  uint rows = (WG_SIZE * VEC + n - 1) / n;
  while (rows > 1) {
    const uint kept = (rows + 1) / 2;  // rows [kept, rows) fold onto rows [0, rows - kept)
    for (uint i = lid; i < (rows - kept) * n; i += WG_SIZE)
      if (kept * n + i < WG_SIZE * VEC) l[i] = ACC_OP(l[i], l[kept * n + i]);
    barrier(CLK_LOCAL_MEM_FENCE);
    rows = kept;
  }
}

#if WARP_FOLD

// Whether the warps can fold N columns: the lanes of one row are N / VEC consecutive work-items,
// a power of two of at most a warp, so that in every warp of 32 the lanes lid and lid ^ off hold
// the same VEC columns for off = N / VEC, ..., 16; and one work-item per column at the end.
bool warp_fold_fits(const uint n) {
  const uint q = n / VEC;
  return WG_SIZE % 32 == 0 && n % VEC == 0 && q >= 1 && q <= 32 && (q & (q - 1)) == 0 && n <= WG_SIZE;
}

// The group's lanes (acc[j] of work-item lid is column (lid * VEC + j) mod N) folded per column:
// the butterfly inside each warp leaves the warp's row in its lanes 0 .. N / VEC - 1, which write
// it to row `warp` of l; after one barrier work-item c < N folds column c down the WG_SIZE / 32
// rows and returns it (the others return the identity). In place of fold_lane_rows' log2(rows)
// levels behind barriers, where warp_fold_fits(N). Every work-item of the group calls it.
ACC fold_lanes_by_warps(__local ACC* l, ACC* acc, const uint lid, const uint n) {
  for (uint off = n / VEC; off < 32; off <<= 1)
    for (uint j = 0; j < VEC; ++j) acc[j] = ACC_OP(acc[j], acc_shuffle_xor(acc[j], off, 0xffffffffu));
  const uint lane = lid % 32, warp = lid / 32;
  if (lane < n / VEC)
    for (uint j = 0; j < VEC; ++j) l[warp * n + lane * VEC + j] = acc[j];
  barrier(CLK_LOCAL_MEM_FENCE);
  ACC x = ACC_IDENTITY;
  if (lid < n)
    for (uint w = 0; w < WG_SIZE / 32; ++w) x = ACC_OP(x, l[w * n + lid]);
  return x;
}
#endif

#if FUSED
// The last group's fold's fold of the G x N partial rows (sums, min, max: ACC is T). Streamed as the
// matrix is: frows whole rows per step (frows * N a multiple of VEC, so the loads stay aligned and
// each work-item's lanes keep their columns), then the group's lanes folded per column in l.
// Where one step of whole rows needs more lanes than the group has (N over WG_SIZE * VEC / unit),
// each work-item folds whole columns instead.
void finish_partials(__local ACC* l, const volatile __global T* partials, __global ACC* out, const uint g,
                     const uint n) {
  const uint lid = get_local_id(0);
  uint a = n, b = VEC;  // unit: the rows whose elements make whole vectors, VEC / gcd(N, VEC)
  while (b) {
    const uint t = a % b;
    a = b;
    b = t;
  }
  const uint unit = VEC / a;
  const uint frows = (WG_SIZE * VEC / n) / unit * unit;
  // Both ways meet the one barrier below: a barrier behind an early return is one some compilers
  // (PoCL's) cannot place, although every work-item takes the same way.
  ACC acc[VEC];
  for (uint j = 0; j < VEC; ++j) acc[j] = ACC_IDENTITY;
  if (frows == 0) {
    for (uint c = lid; c < n; c += WG_SIZE) {
      ACC x = ACC_IDENTITY;
      for (uint r = 0; r < g; ++r) x = ACC_OP(x, partials[(ulong)r * n + c]);
      out[c] = x;
    }
  } else {
    const ulong total = (ulong)g * n, stride = (ulong)frows * n;
    if (lid < stride / VEC) {
      ulong e = (ulong)lid * VEC;
      for (; e + (ulong)(ITEMS - 1) * stride + VEC <= total; e += (ulong)ITEMS * stride) {
        VT v[ITEMS];
        for (uint k = 0; k < ITEMS; ++k) v[k] = *(const volatile __global VT*)(partials + e + k * stride);
        for (uint k = 0; k < ITEMS; ++k)
          for (uint j = 0; j < VEC; ++j) acc[j] = ACC_OP(acc[j], LANE(v[k], j));
      }
      for (; e + VEC <= total; e += stride) {
        const VT v = *(const volatile __global VT*)(partials + e);
        for (uint j = 0; j < VEC; ++j) acc[j] = ACC_OP(acc[j], LANE(v, j));
      }
      for (uint j = 0; j < VEC; ++j)
        if (e + j < total) acc[j] = ACC_OP(acc[j], partials[e + j]);  // G * N not a multiple of VEC
    }
  }
#if WARP_FOLD
  if (warp_fold_fits(n)) {  // then frows = WG_SIZE * VEC / N: every work-item loaded whole rows' lanes
    const ACC x = fold_lanes_by_warps(l, acc, lid, n);
    if (lid < n) out[lid] = x;
  } else
#endif
  {
    for (uint j = 0; j < VEC; ++j) l[lid * VEC + j] = acc[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    fold_lane_rows(l, lid, n);
    if (frows != 0)
      for (uint c = lid; c < n; c += WG_SIZE) out[c] = l[c];  // frows >= 1: N <= WG_SIZE * VEC
  }
}
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
#if FUSED
void axis_cols_stream(__global const T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                      const uint rows_per_step, __global ACC* partials, volatile __global uint* tickets) {
#else
void axis_cols_stream(__global const T* restrict in, __global ACC* restrict out, const uint m, const uint n,
                      const uint rows_per_step) {
#endif
  __local ACC l[WG_SIZE * VEC];
#if FUSED
  __local uint is_last;  // whether this group drew the last ticket
#endif
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
#if FUSED
  __global ACC* rows_out = partials;  // the partial rows the last group folds
#else
  __global ACC* rows_out = out;       // the partial rows of the second pass (or the output: one group)
#endif
#if WARP_FOLD
  if (warp_fold_fits(n)) {  // the same for the whole group; N divides WG_SIZE * VEC, so the group's first lane is column 0
    const ACC x = fold_lanes_by_warps(l, acc, lid, n);
    if (lid < n) rows_out[(ulong)get_group_id(0) * n + lid] = x;
  } else
#endif
  {
    for (uint j = 0; j < VEC; ++j) l[lid * VEC + j] = acc[j];
    barrier(CLK_LOCAL_MEM_FENCE);
    // Column c's lanes in this group: local lane i holds column (base + i) mod N.
    const uint base = (uint)(((ulong)get_group_id(0) * WG_SIZE * VEC) % n);
    fold_lane_rows(l, lid, n);
    for (uint c = lid; c < n; c += WG_SIZE) {
      const uint i = c >= base ? c - base : c + (n - base);  // column c's place
      rows_out[(ulong)get_group_id(0) * n + c] = i < WG_SIZE * VEC ? l[i] : ACC_IDENTITY;
    }
  }
#if FUSED
  GLOBAL_FENCE();  // this work-item's partials visible device-wide before the group's ticket
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);  // every partial of the group written and fenced
  if (lid == 0) {
    is_last = atomic_inc(tickets) == get_num_groups(0) - 1;
    GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // is_last set; every read of l above done before the finish rewrites it
  if (is_last) {  // the same for the whole group, so the finish's barrier is reached by all
    finish_partials(l, (const volatile __global T*)partials, out, get_num_groups(0), n);
    if (lid == 0) atomic_xchg(tickets, 0u);  // ready for the next launch
  }
#endif
}
