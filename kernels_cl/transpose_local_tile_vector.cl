// transpose_local_tile_vector.cl: local_tile_multi with VEC-wide accesses on both sides. A
// (TILE / VEC) x ROWS work-group moves the padded TILE x (TILE + 1) tile: each work-item reads VEC
// neighbouring elements of an input row as one vector and writes VEC neighbouring elements of an
// output row as one vector, gathered from VEC rows of the tile. With 4-byte elements a lane then
// moves 8 or 16 bytes per access where local_tile_multi moves 4 (on the H100 the 8-byte double
// local_tile_multi reached 97.4% of the copy, the 4-byte float 93.2%). Tiles cut by the matrix's
// edge move element by element with a bound check on each, so nothing is read or written past
// the matrix; whole tiles of a matrix whose rows do not all start on a whole vector (ALIGNED 0)
// move through vloadn/vstoren, which need only the element's alignment.
#ifndef TILE
#define TILE 64 // tile edge in elements; a multiple of VEC
#endif
#ifndef ROWS
#define ROWS 16 // work-group rows; must divide TILE: each work-item moves TILE / ROWS vectors each way
#endif
#ifndef VEC
#define VEC 4 // elements per access on both sides: 1, 2 or 4
#endif
#ifndef BAND
#define BAND 0 // 0: groups take tiles in launch order; B > 0: in bands of B tile columns (the host: 16 for 8-byte elements)
#endif
#ifndef ALIGNED
#define ALIGNED 0 // 1: M and N are multiples of VEC, so every row of both matrices starts on a whole vector (set by the host)
#endif
#if TILE % ROWS != 0
#error "ROWS must divide TILE"
#endif
#if VEC != 1 && VEC != 2 && VEC != 4
#error "VEC must be 1, 2 or 4"
#endif
#if TILE % VEC != 0
#error "VEC must divide TILE"
#endif
#define WG_X (TILE / VEC)
#define WG_Y ROWS
#include "transpose_common.clh"

// A vector of VEC elements: loaded from and stored to global memory in one access where ALIGNED,
// put into the local tile element by element (the padded rows do not start on whole vectors) and
// gathered from it into a private array of VEC elements, which VEC_OF reads as one vector (vloadn
// from private memory). A vector built element by element, (float2)(a, b), is reported as
// uninitialised when stored by Oclgrind 21.10's --uninitialized although every lane is set (four
// work-items storing four local floats each reproduce it); vloadn of the array is not. VEC 1 is
// local_tile_multi's scalar access.
#if VEC == 1
#define VT T
#define LOAD_V(p) (*(p))
#define STORE_V(v, p) (*(p) = (v))
#define PUT_V(row, col, v) (tile[row][col] = (v))
#define VEC_OF(g) ((g)[0])
#else
#define VT VTYPE(VEC)
#if ALIGNED
#define LOAD_V(p) (*(__global const VT*)(p))
#define STORE_V(v, p) (*(__global VT*)(p) = (v))
#else
#define LOAD_V(p) TR_CAT(vload, VEC)(0, p)
#define STORE_V(v, p) TR_CAT(vstore, VEC)(v, 0, p)
#endif
#if VEC == 2
#define PUT_V(row, col, v) (tile[row][col] = (v).s0, tile[row][(col) + 1] = (v).s1)
#define VEC_OF(g) vload2(0, g)
#else
#define PUT_V(row, col, v) \
  (tile[row][col] = (v).s0, tile[row][(col) + 1] = (v).s1, tile[row][(col) + 2] = (v).s2, tile[row][(col) + 3] = (v).s3)
#define VEC_OF(g) vload4(0, g)
#endif
#endif

__kernel __attribute__((reqd_work_group_size(WG_X, ROWS, 1)))
void transpose_local_tile_vector(__global const T* restrict in, __global T* restrict out,
                                 const uint m, const uint n) {
  __local T tile[TILE][TILE + 1];  // one padding column, as local_tile_multi
  const uint lx = get_local_id(0), ly = get_local_id(1);
  const uint x = lx * VEC;  // the work-item's first tile column on the load, first tile row on the store
#if BAND
  // Groups launched together take a band of BAND tile columns, going down it BAND tiles a row:
  // their reads share BAND x TILE input rows' pages and their writes BAND x TILE output rows',
  // where launch order spreads a wave's writes over the output rows of a whole tile row of the
  // input. A bijection of the launched grid onto itself.
  const ulong nx = get_num_groups(0), ny = get_num_groups(1);
  const ulong lin = (ulong)get_group_id(1) * nx + get_group_id(0);
  const ulong band = lin / ((ulong)BAND * ny), first = band * BAND, in_band = lin - band * BAND * ny;
  const ulong width = min((ulong)BAND, nx - first);
  // (The remainder as a difference, not %: with both % and / of one value LLVM pairs them through a
  // `freeze`, an instruction Oclgrind 21.10's uninitialized-value check stops at.)
  const ulong gy = in_band / width, gx = first + (in_band - gy * width);
#else
  const ulong gx = get_group_id(0), gy = get_group_id(1);
#endif
  const ulong c0 = gx * TILE;  // first input column (= output row) of the tile
  const ulong tiles_y = ((ulong)m + TILE - 1) / TILE;
  for (ulong ty = gy; ty < tiles_y; ty += get_num_groups(1)) {
    const ulong r0 = ty * TILE;  // first input row (= output column) of the tile
    // The same for the whole group (it depends on group ids only), so the barriers below are
    // reached by every work-item either way.
    const bool whole = r0 + TILE <= m && c0 + TILE <= n;
    // Load: work-item (lx, ly) reads input rows r0 + ly + k at columns c0 + x .. c0 + x + VEC - 1;
    // neighbours in x read neighbouring vectors of one row (coalesced).
    if (whole) {
      for (uint k = 0; k < TILE; k += ROWS) {
        const VT v = LOAD_V(in + IN_AT(r0 + ly + k, c0 + x));
        PUT_V(ly + k, x, v);
      }
    } else {
      for (uint k = 0; k < TILE; k += ROWS)
        for (uint j = 0; j < VEC; ++j)
          if (r0 + ly + k < m && c0 + x + j < n) tile[ly + k][x + j] = in[IN_AT(r0 + ly + k, c0 + x + j)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Store: work-item (lx, ly) writes output rows c0 + ly + k at columns r0 + x .. r0 + x + VEC - 1,
    // from tile rows x .. x + VEC - 1 of tile column ly + k; neighbours in x write neighbouring
    // vectors of one output row (coalesced).
    if (whole) {
      for (uint k = 0; k < TILE; k += ROWS) {
        T g[VEC];
        for (uint j = 0; j < VEC; ++j) g[j] = tile[x + j][ly + k];
        STORE_V(VEC_OF(g), out + OUT_AT(c0 + ly + k, r0 + x));
      }
    } else {
      for (uint k = 0; k < TILE; k += ROWS)
        for (uint j = 0; j < VEC; ++j)
          if (c0 + ly + k < n && r0 + x + j < m) out[OUT_AT(c0 + ly + k, r0 + x + j)] = tile[x + j][ly + k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is refilled by the next trip, if any
  }
}
