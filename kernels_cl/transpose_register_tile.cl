// transpose_register_tile.cl: each work-item moves an RT x RT block with RT RT-wide vector loads
// (T2 or T4, e.g. float2 or float4) and RT RT-wide vector stores, transposing it in registers; no
// local memory. RT 2 (register_tile2): reads and writes are each 8 bytes per work-item and access,
// half-coalesced on both sides. RT 4 (register_tile4): 16-byte accesses, four times the elements in
// flight per work-item. Blocks that are partial or unaligned (M or N not a multiple of RT) use
// checked scalar accesses. The host sets RT from the variant (`clreduce explain transpose
// register_tile4` shows the step as each variant's build sees this file).
#ifndef RT
#define RT 2 // block edge: 2 (register_tile2) or 4 (register_tile4)
#endif
#include "transpose_common.clh"

// Row i of the block from one RT-wide vector, and column j of the block as one RT-wide vector.
#if RT == 2
#define ROW_TO_REGS(e, i, v) { (e)[i][0] = (v).s0; (e)[i][1] = (v).s1; }
#define REGS_COLUMN(e, j) ((VTYPE(2))((e)[0][j], (e)[1][j]))
#elif RT == 4
#define ROW_TO_REGS(e, i, v) { (e)[i][0] = (v).s0; (e)[i][1] = (v).s1; (e)[i][2] = (v).s2; (e)[i][3] = (v).s3; }
#define REGS_COLUMN(e, j) ((VTYPE(4))((e)[0][j], (e)[1][j], (e)[2][j], (e)[3][j]))
#else
#error "RT must be 2 or 4"
#endif

// One RT x RT block per work-item, no local memory: RT vector loads of RT consecutive input rows,
// a transpose in registers, RT vector stores of RT consecutive output rows. Vector access needs
// the rows to start on a multiple of RT elements (N % RT == 0 for the loads, M % RT == 0 for the
// stores) and the block to be whole; every other block falls back to checked scalar accesses, so
// any M x N is right.
__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void transpose_register_tile(__global const T* restrict in, __global T* restrict out,
                             const uint m, const uint n) {
  const ulong c0 = (ulong)get_global_id(0) * RT;  // first input column of the block
  const ulong blocks_y = ((ulong)m + RT - 1) / RT;
  if (c0 >= n) return;
  FOR_Y(by, blocks_y) {
    const ulong r0 = by * RT;  // first input row of the block
    const bool whole = r0 + RT <= m && c0 + RT <= n;
    T e[RT][RT];  // e[i][j] = in(r0 + i, c0 + j)
    // Stage 1: load.
    if (whole && n % RT == 0) {
      for (uint i = 0; i < RT; ++i) {
        const VTYPE(RT) v = *(__global const VTYPE(RT)*)(in + IN_AT(r0 + i, c0));
        ROW_TO_REGS(e, i, v)
      }
    } else {
      for (uint i = 0; i < RT; ++i)
        for (uint j = 0; j < RT; ++j)
          e[i][j] = (r0 + i < m && c0 + j < n) ? in[IN_AT(r0 + i, c0 + j)] : (T)0;
    }
    // Stage 2: store the transposed block: output row c0 + j holds column j of e.
    if (whole && m % RT == 0) {
      for (uint j = 0; j < RT; ++j)
        *(__global VTYPE(RT)*)(out + OUT_AT(c0 + j, r0)) = REGS_COLUMN(e, j);
    } else {
      for (uint j = 0; j < RT; ++j)
        for (uint i = 0; i < RT; ++i)
          if (r0 + i < m && c0 + j < n) out[OUT_AT(c0 + j, r0 + i)] = e[i][j];
    }
  }
}
