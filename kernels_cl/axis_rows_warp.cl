// axis_rows_warp.cl: one value per row of an M x N row-major matrix, ROW_WIDTH lanes of one warp
// per row, their values folded by warp shuffles. The step after rows_sliced (ROW_WIDTH work-items
// per row folding through a tree in local memory, a barrier per level) and rows_vector (one
// work-item per row, no tree, but a warp's load touches 32 rows): here a row's lanes read
// consecutive VEC-element vectors, so a warp's load is one contiguous run (for 32-float rows and
// ROW_WIDTH 8: four whole rows, 512 bytes), and the lanes meet in registers by log2(ROW_WIDTH)
// butterfly shuffles, with no local memory and no barrier.
//
// Each trip a slice (ROW_WIDTH lanes) takes ITEMS rows, WG_SIZE / ROW_WIDTH rows apart, and issues
// their loads together: a row of a few vectors gives a lane one load per row, so the loads in
// flight come from the rows. A longer row is walked ROW_WIDTH vectors at a time.
//
// The shuffle: on NVIDIA (NV_PTX 1) one shfl.sync.bfly.b32 per 32-bit word of the accumulator
// (a pair of argmin/argmax is four); the lanes of a row are ROW_WIDTH consecutive lanes of one warp
// (ROW_WIDTH <= WARP), and every lane of the warp reaches every shuffle (the loop's trips depend on
// the group alone), which is what the .sync form requires; no lockstep is assumed. Elsewhere
// (NV_PTX 0) the same butterfly goes through local memory with a barrier on each side, slowly, so
// the kernel can be run and checked on any device.
//
// N must be a multiple of VEC (the planner takes the widest of 4, 2, 1 that divides N within 16
// bytes). One pass, a first pass: it reads elements, never the pairs of an earlier pass.
#include "reduce_common.clh"

#ifndef ROW_WIDTH
#define ROW_WIDTH 8 // lanes per row: a power of two, at most the warp (WARP) and WG_SIZE
#endif
#ifndef VEC
#define VEC 4 // elements per load: 1, 2 or 4, dividing N
#endif
#ifndef ITEMS
#define ITEMS 4 // rows each slice loads per trip (1, 2, 4 or 8)
#endif
#ifndef NV_PTX
#define NV_PTX 0 // 1: the device runs NVIDIA inline PTX (shfl.sync)
#endif
#ifndef WARP
#define WARP 32 // lanes of a warp: the most ROW_WIDTH may be where the shuffle is PTX
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#if (ROW_WIDTH & (ROW_WIDTH - 1)) != 0 || ROW_WIDTH > WG_SIZE
#error "ROW_WIDTH must be a power of two up to WG_SIZE"
#endif
#if NV_PTX && ROW_WIDTH > WARP
#error "ROW_WIDTH must be at most WARP: a row's lanes shuffle within one warp"
#endif
#if !FIRST_PASS
#error "rows_warp is a single first pass (FIRST_PASS 1)"
#endif
#include "axis_row_vector.clh"
#define ROWS_PER_GROUP (WG_SIZE / ROW_WIDTH)
// The lanes of a warp that exist: a group smaller than a warp has only WG_SIZE of them.
#define WARP_LANES (WG_SIZE < 32 ? WG_SIZE : 32)
#define WARP_MASK (WARP_LANES >= 32 ? 0xffffffffu : ((1u << WARP_LANES) - 1u))


#include "axis_shuffle.clh"

// The row's lanes folded: after it every lane of the slice holds the fold of all of them (the
// butterfly: lane l takes lane l ^ off for off = ROW_WIDTH / 2, ..., 1, which stays inside its
// aligned run of ROW_WIDTH lanes). Every work-item of the group calls it (the emulation's barriers).
ACC fold_lanes(__local ACC* scratch, const uint lid, ACC x) {
  for (uint off = ROW_WIDTH / 2; off > 0; off >>= 1) {
#if NV_PTX
    x = ACC_OP(x, acc_shuffle_xor(x, off, WARP_MASK));
#else
    scratch[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ACC y = scratch[lid ^ off];
    barrier(CLK_LOCAL_MEM_FENCE);  // every read done before the next level's writes
    x = ACC_OP(x, y);
#endif
  }
  return x;
}

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void axis_rows_warp(__global const T* restrict in, __global ACC* restrict out, const uint m, const uint n) {
#if NV_PTX
  __local ACC* scratch = 0;  // the shuffle needs none
#else
  __local ACC scratch[WG_SIZE];
#endif
  const uint lid = get_local_id(0);
  const uint slice = lid / ROW_WIDTH;  // which of the group's rows
  const uint sl = lid % ROW_WIDTH;     // the lane's place in its row
  const uint vectors = n / VEC;        // whole vectors per row: all of it (N is a multiple of VEC)
  // The trips depend on the group alone, so every lane of a warp meets every shuffle and every
  // work-item every barrier. Rows past M fold identities and write nothing.
  for (ulong first = (ulong)get_group_id(0) * ROWS_PER_GROUP * ITEMS; first < m;
       first += (ulong)get_num_groups(0) * ROWS_PER_GROUP * ITEMS) {
    ACC acc[ITEMS];
    for (uint k = 0; k < ITEMS; ++k) acc[k] = ACC_IDENTITY;
    for (uint j = sl; j < vectors; j += ROW_WIDTH) {
      VT v[ITEMS];
      // All the rows' loads issued before any fold; a row past M is not read.
      for (uint k = 0; k < ITEMS; ++k) {
        const ulong row = first + slice + k * ROWS_PER_GROUP;
        v[k] = row < m ? ((__global const VT*)(in + row * n))[j] : (VT)0;
      }
      for (uint k = 0; k < ITEMS; ++k)
        if (first + slice + k * ROWS_PER_GROUP < m) FOLD_VECTOR(acc[k], v[k], j * VEC);
    }
    for (uint k = 0; k < ITEMS; ++k) {
      const ACC r = fold_lanes(scratch, lid, acc[k]);
      const ulong row = first + slice + k * ROWS_PER_GROUP;
      if (sl == 0 && row < m) out[row] = r;
    }
  }
}
