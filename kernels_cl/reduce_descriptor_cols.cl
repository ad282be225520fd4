// reduce_descriptor_cols.cl: one result per column of an m x ncols matrix of any descriptor
// (clreduce/reduction.hpp): out[j] = the reduction over rows r of element r * ld + j of every
// input (ld >= ncols: a padded matrix, or a sub-matrix with the inputs' offsets). The map's index
// i is the row.
//
// Each work-item owns VEC consecutive columns and reads them with one VEC-wide load per row
// (16 bytes of the widest input: a warp's loads are whole rows' runs however narrow the type),
// into VEC accumulators per chain; the last columns, where fewer than VEC remain, go one by one.
// SPAN > 1 (a CPU's shape): a work-item owns SPAN x VEC consecutive columns, SPAN loads a row.
// LANES 1 (a CPU's shape, for a descriptor with lanes: argmin/argmax): a chain's VEC columns are
// one desc_lanes_s (the values and the indices as vectors, compared lane-wise) instead of an array
// of VEC pairs, which PoCL's compiler left as scalar code; unpacked into the array at the end.
// A group is TILE_X work-items along the columns (TILE_X x VEC columns, a column tile) x ROWS_Y
// row slices; where TILE_X x VEC is at least the row and ld == ncols, consecutive work-items read
// consecutive rows: a narrow dense matrix is read as one stream. The grid's second dimension cuts
// the rows into `chunks` runs of rows_per_chunk rows; work-item (x, y) of chunk c folds rows
// c * rows_per_chunk + y, + ROWS_Y, ... into ITEMS chains; the ROWS_Y slices fold in a tree in
// local memory, one column of the VEC at a time. One chunk: each column's value is finished and
// written. More: the chunk's partial row goes to partials[c * ncols + j]; each writer fences it,
// and the group that draws the column tile's last ticket (tickets[tile]) folds every chunk's
// partials of its columns (slice y takes chunks y, y + ROWS_Y, ...), finishes and writes them,
// and resets the ticket to 0 for the next launch.
//
// BLOCK 1 (a descriptor with a lift_vector): each trip's ITEMS rows are consecutive and lifted
// at once, desc_lift_vector of an ITEMS-wide vector (the best of ITEMS by value, a Welford block's
// mean and M2 in registers), into one chain per column: one combine per ITEMS elements. With VEC
// > 1 each row of the block is read VEC columns at once, and each column lifted. Work-item y
// takes the blocks y, y + ROWS_Y, ... of ITEMS rows from r0; the rows after the last whole block
// (fewer than ITEMS) go one by one to work-items 0, 1, ... For these accumulators a column costs
// its combines, not its loads: on the H200 f16 argmax and var_pop columns took as long as f32's
// (91-112 and 97-100 us at 8192 x 8192 against 94-106 and 87-97 us), 30-37% of the read peak,
// with ITEMS 2, 4 or 8 chains alike (bench/NOTES.md, columns of 16-bit structs).
//
// Depth (the float bound) of a column: ceil(rows_per_chunk / ROWS_Y) elements, ITEMS chains,
// log2(ROWS_Y) levels, then (chunks > 1) ceil(chunks / ROWS_Y) partials and log2(ROWS_Y) levels.
// BLOCK's chain is shorter (ceil(rows_per_chunk / (ROWS_Y x ITEMS)) blocks of at most ITEMS
// each, and one tail row), so the same count bounds it.
#ifndef TILE_X
#define TILE_X 32 // work-items along the columns per group: a power of two
#endif
#ifndef ROWS_Y
#define ROWS_Y 8 // row slices per group: a power of two (TILE_X * ROWS_Y work-items)
#endif
#ifndef ITEMS
#define ITEMS 4 // rows each work-item loads per trip, into as many chains (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#ifndef VEC
#define VEC 1 // consecutive columns each work-item owns and loads at once: 1, 2, 4, 8 or 16
#endif
#if VEC != 1 && VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 1, 2, 4, 8 or 16"
#endif
#ifndef ALIGNED
#define ALIGNED 0 // 1: ld and every input's element offset are multiples of VEC (vector-pointer loads)
#endif
#ifndef BLOCK
#define BLOCK 0 // 1: each trip's ITEMS consecutive rows lifted at once (desc_lift_vector)
#endif
#ifndef SPAN
#define SPAN 1 // VEC-wide loads each work-item makes along a row: it owns SPAN x VEC consecutive columns (1, 2, 4 or 8)
#endif
#if SPAN != 1 && SPAN != 2 && SPAN != 4 && SPAN != 8
#error "SPAN must be 1, 2, 4 or 8"
#endif
#if SPAN > 1 && (BLOCK || VEC == 1)
#error "SPAN takes BLOCK 0 and VEC > 1: a span is several VEC-wide loads of a row"
#endif
#ifndef LANES
#define LANES 0 // 1: a work-item's VEC columns a chain held as the descriptor's lanes state (desc_lanes_s, vectors), unpacked at the end
#endif
#if LANES && (BLOCK || VEC == 1)
#error "LANES takes BLOCK 0 and VEC > 1: the lanes are a row's VEC columns"
#endif
// COLS_VEC: the columns a work-item owns (the VEC above). Under BLOCK the descriptor's header is
// built with VEC = ITEMS, the width its desc_lift_vector then takes (VEC 1 is not used by it).
#if BLOCK
#if ITEMS == 1
#error "BLOCK takes ITEMS 2, 4 or 8"
#endif
// COLS_VEC takes VEC's value here, before VEC is redefined (a macro's body expands where used).
#if VEC == 1
#define COLS_VEC 1
#elif VEC == 2
#define COLS_VEC 2
#elif VEC == 4
#define COLS_VEC 4
#elif VEC == 8
#define COLS_VEC 8
#else
#define COLS_VEC 16
#endif
#define COLS_CHAINS 1 // one chain per column: a block's ITEMS rows are one lift
#if COLS_VEC > 1
#define DESC_BLOCK_COLS COLS_VEC // the header's row loads: COLS_VEC columns at once
#endif
#undef VEC
#define VEC ITEMS
#else
#define COLS_VEC VEC
#define COLS_CHAINS ITEMS // a chain per row of the trip
#endif
#define COLS_N (COLS_VEC * SPAN) // the columns a work-item owns
#ifndef LANES_INDEX32
#define LANES_INDEX32 0 // 1 (LANES): the lanes state may keep its indices in 32 bits: the matrix has at most 2^32 - 1 rows
#endif
#include "descriptor.clh"
#if BLOCK && !DESC_HAS_LIFT_VECTOR
#error "BLOCK takes a descriptor with a lift_vector"
#endif
#if LANES && !DESC_HAS_LANES_STATE
#error "LANES takes a descriptor with lanes (lanes_type, lanes_identity, lanes_fold, lanes_unpack)"
#endif
#include "descriptor_ticket.clh"

// The ROWS_Y slices of one column folded in a tree; the column's value is returned to slice 0
// (and is in l[x] after the last barrier, for every work-item). One slice (ROWS_Y 1): the
// work-item's own value, no local memory and no barrier (COLS_DONE neither): a work-item of VEC
// columns would otherwise pay two barriers a column.
#if ROWS_Y > 1
DESC_ACC cols_fold(__local DESC_ACC* l, const uint x, const uint y, const DESC_ACC acc) {
  l[y * TILE_X + x] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = ROWS_Y / 2; w > 0; w >>= 1) {
    if (y < w) l[y * TILE_X + x] = desc_combine(l[y * TILE_X + x], l[(y + w) * TILE_X + x]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return l[x];
}
#define COLS_DONE() barrier(CLK_LOCAL_MEM_FENCE)  // l[] read before the next column's tree writes it
#else
#define cols_fold(l, x, y, acc) (acc)
#define COLS_DONE()
#endif

// The rows r0 + y, + ROWS_Y, ... < r1 of this work-item's columns folded into A by FOLD(A[t],
// row): ITEMS rows a trip, one chain each, then the rows left over into chain 0.
#define COLS_FOLD_RUN_INTO(FOLD, A)                                                 \
  do {                                                                              \
    ulong r = r0 + y;                                                               \
    for (; r + (ITEMS - 1) * ROWS_Y < r1; r += ITEMS * ROWS_Y) {                    \
      _Pragma("unroll") for (uint t = 0; t < ITEMS; ++t) FOLD(A[t], r + t * ROWS_Y); \
    }                                                                               \
    for (; r < r1; r += ROWS_Y) FOLD(A[0], r);                                      \
  } while (0)
#define COLS_FOLD_RUN(FOLD) COLS_FOLD_RUN_INTO(FOLD, acc)
// Row `row`'s element of column j0 folded into acc[0] (VEC 1).
#define COLS_FOLD_ONE(acc, row) desc_fold_into(&(acc)[0], DESC_ELEMENT_AT((row) * ld + j0, (row)), (row))
#if COLS_VEC > 1
// Row `row`'s elements of columns j0 .. j0 + VEC - 1 folded into acc[0 .. VEC - 1]: one VEC-wide
// load where all VEC columns exist (COLS_FOLD_WHOLE), else those that do, one by one
// (COLS_FOLD_PART). The choice is made once per work-item, outside the loop: inside it, the
// branch stood between one trip's loads (on the H100 each f16 load waited for the one before:
// bench/results/2026-11-28_h100_descriptor_columns, the second call's PTX).
#if SPAN > 1
// SPAN loads along the row, each into its VEC accumulators: a CPU's work-item reads SPAN x VEC x
// the element size contiguous bytes a row, not VEC's one cache line a row ld apart.
#define COLS_FOLD_WHOLE(acc, row)                                                                   \
  do {                                                                                              \
    _Pragma("unroll") for (uint s_ = 0; s_ < SPAN; ++s_)                                            \
      DESC_FOLD_COLUMNS((acc) + s_ * COLS_VEC, (row) * ld + j0 + s_ * COLS_VEC, (row));             \
  } while (0)
#else
#define COLS_FOLD_WHOLE(acc, row) DESC_FOLD_COLUMNS(acc, (row) * ld + j0, (row))
#endif
#if LANES
// The same into the chain's lanes state L[SPAN] (one desc_lanes_s per VEC columns).
#define COLS_FOLD_LANES(L, row)                                                                     \
  do {                                                                                              \
    _Pragma("unroll") for (uint s_ = 0; s_ < SPAN; ++s_)                                            \
      DESC_FOLD_COLUMNS_LANES((L)[s_], (row) * ld + j0 + s_ * COLS_VEC, (row));                     \
  } while (0)
#endif
#define COLS_FOLD_PART(acc, row)                                                                      \
  do {                                                                                                \
    const ulong e_ = (row) * ld + j0;                                                                 \
    _Pragma("unroll") for (uint c_ = 0; c_ < COLS_N; ++c_) /* constant indices: acc in registers */     \
      if (j0 + c_ < ncols) desc_fold_into(&(acc)[c_], DESC_ELEMENT_AT(e_ + c_, (row)), (row)); \
  } while (0)
#endif
#if BLOCK
// The blocks of ITEMS consecutive rows r (r - r0 = (y + k ROWS_Y) ITEMS) of column j0, each lifted
// at once into acc[0][0] (the other chains stay empty), then the rows after the last whole block
// one by one. The block's elements go through a private array, as the header's own helpers do.
#define COLS_FOLD_BLOCKS()                                                                        \
  do {                                                                                            \
    const ulong whole_end = r0 + (r1 - r0) / ITEMS * ITEMS;                                       \
    for (ulong r = r0 + (ulong)y * ITEMS; r < whole_end; r += (ulong)ITEMS * ROWS_Y) {            \
      desc_vec_u u_;                                                                              \
      _Pragma("unroll") for (uint t = 0; t < ITEMS; ++t) u_.a[t] = DESC_ELEMENT_AT((r + t) * ld + j0, r + t); \
      acc[0][0] = desc_combine(acc[0][0], desc_lift_vector(u_.v, r));                             \
    }                                                                                             \
    for (ulong r = whole_end + y; r < r1; r += ROWS_Y) COLS_FOLD_ONE(acc[0], r);                  \
  } while (0)
#if COLS_VEC > 1
// BLOCK with COLS_VEC columns a work-item, all of them there: each of the block's ITEMS rows read
// with one COLS_VEC-wide load per input (a u8 work-item reads 4 or more bytes a row, not 1: on the
// H200 a u8 column sum at one byte a load read 38% of the peak, f16 at two bytes 70%, f32 93%:
// bench/NOTES.md), then each column's ITEMS values lifted at once into its own chain acc[0][c].
// The rows after the last whole block go column by column (COLS_FOLD_PART).
#define COLS_FOLD_BLOCKS_WHOLE()                                                                  \
  do {                                                                                            \
    const ulong whole_end = r0 + (r1 - r0) / ITEMS * ITEMS;                                       \
    for (ulong r = r0 + (ulong)y * ITEMS; r < whole_end; r += (ulong)ITEMS * ROWS_Y) {            \
      DESC_BLOCK_ROWS                                                                             \
      _Pragma("unroll") for (uint t = 0; t < ITEMS; ++t) DESC_BLOCK_LOAD(t, (r + t) * ld + j0);   \
      _Pragma("unroll") for (uint c = 0; c < COLS_VEC; ++c) {                                     \
        desc_vec_u u_;                                                                            \
        _Pragma("unroll") for (uint t = 0; t < ITEMS; ++t) u_.a[t] = DESC_BLOCK_ELEMENT(t, c, r + t); \
        acc[0][c] = desc_combine(acc[0][c], desc_lift_vector(u_.v, r));                           \
      }                                                                                           \
    }                                                                                             \
    for (ulong r = whole_end + y; r < r1; r += ROWS_Y) COLS_FOLD_PART(acc[0], r);                 \
  } while (0)
// The same where the matrix ends inside this work-item's COLS_VEC columns: the columns that
// exist, each block read element by element.
#define COLS_FOLD_BLOCKS_PART()                                                                   \
  do {                                                                                            \
    const ulong whole_end = r0 + (r1 - r0) / ITEMS * ITEMS;                                       \
    for (ulong r = r0 + (ulong)y * ITEMS; r < whole_end; r += (ulong)ITEMS * ROWS_Y) {            \
      _Pragma("unroll") for (uint c = 0; c < COLS_VEC; ++c) {                                     \
        if (j0 + c < ncols) {                                                                     \
          desc_vec_u u_;                                                                          \
          _Pragma("unroll") for (uint t = 0; t < ITEMS; ++t) u_.a[t] = DESC_ELEMENT_AT((r + t) * ld + j0 + c, r + t); \
          acc[0][c] = desc_combine(acc[0][c], desc_lift_vector(u_.v, r));                         \
        }                                                                                         \
      }                                                                                           \
    }                                                                                             \
    for (ulong r = whole_end + y; r < r1; r += ROWS_Y) COLS_FOLD_PART(acc[0], r);                 \
  } while (0)
#endif
#endif

__kernel __attribute__((reqd_work_group_size(TILE_X, ROWS_Y, 1)))
void reduce_descriptor_cols(DESC_INPUT_PARAMS, const ulong m, const ulong ncols, const ulong ld,
                            const ulong rows_per_chunk, __global DESC_ACC* partials, volatile __global uint* tickets,
                            __global DESC_OUT* out, const ulong out_index DESC_SCALAR_PARAMS) {
#if ROWS_Y > 1
  __local DESC_ACC l[TILE_X * ROWS_Y];
#endif
  __local uint is_last;
  const uint x = get_local_id(0), y = get_local_id(1);
  const ulong j0 = get_global_id(0) * COLS_N;  // this work-item's first column
#if COLS_VEC > 1
  const int whole = j0 + COLS_N <= ncols;        // all of its columns exist
#endif
  const uint chunk = get_group_id(1), chunks = get_num_groups(1);
  const ulong r0 = min(m, (ulong)chunk * rows_per_chunk), r1 = min(m, r0 + rows_per_chunk);

  DESC_ACC acc[COLS_CHAINS][COLS_N];
  for (uint t = 0; t < COLS_CHAINS; ++t)
    for (uint c = 0; c < COLS_N; ++c) acc[t][c] = desc_identity();
  if (j0 < ncols) {
#if BLOCK && COLS_VEC > 1
    if (whole)
      COLS_FOLD_BLOCKS_WHOLE();
    else
      COLS_FOLD_BLOCKS_PART();
#elif BLOCK
    COLS_FOLD_BLOCKS();
#elif LANES
    if (whole) {
      desc_lanes_s lanes[COLS_CHAINS][SPAN];
      for (uint t = 0; t < COLS_CHAINS; ++t)
        for (uint s_ = 0; s_ < SPAN; ++s_) lanes[t][s_] = desc_lanes_identity();
      COLS_FOLD_RUN_INTO(COLS_FOLD_LANES, lanes);
      for (uint t = 0; t < COLS_CHAINS; ++t)
        for (uint s_ = 0; s_ < SPAN; ++s_) desc_lanes_unpack(&lanes[t][s_], &acc[t][s_ * COLS_VEC]);
    } else
      COLS_FOLD_RUN(COLS_FOLD_PART);
#elif COLS_VEC > 1
    if (whole)
      COLS_FOLD_RUN(COLS_FOLD_WHOLE);
    else
      COLS_FOLD_RUN(COLS_FOLD_PART);
#else
    COLS_FOLD_RUN(COLS_FOLD_ONE);
#endif
    for (uint t = 1; t < COLS_CHAINS; ++t)
      for (uint c = 0; c < COLS_N; ++c) acc[0][c] = desc_combine(acc[0][c], acc[t][c]);
  }
#if ROWS_Y == 1 && COLS_VEC > 1
  // One row slice (a CPU's shape: no tree): its columns written as one run, the test of the
  // matrix's end one the compiler takes out of the loop where all of them are there (whole), so
  // that the run becomes vector stores. On PoCL a test and a scalar store a column cost as much
  // as a chunk's loads where chunks are short (1024 x 1024 floats in 16 chunks: 64 rows, 8 x 128
  // columns a group; perf). One store a destination, so that its source line survives (Oclgrind's
  // reports name it; two stores of one address merged lost theirs).
  if (chunks == 1) {
    for (uint c = 0; c < COLS_N; ++c)
      if (whole || j0 + c < ncols) out[out_index + j0 + c] = desc_finish(acc[0][c], m);
  } else {
    __global DESC_ACC* const dst = partials + (ulong)chunk * ncols + j0;  // its run of the chunk's partial row
    for (uint c = 0; c < COLS_N; ++c)
      if (whole || j0 + c < ncols) dst[c] = acc[0][c];
  }
#else
  // Each of its columns in turn: the slices folded, then written (one chunk) or published.
#pragma unroll
  for (uint c = 0; c < COLS_N; ++c) {
    const ulong j = j0 + c;
    const DESC_ACC v = cols_fold(l, x, y, acc[0][c]);
    if (y == 0 && j < ncols) {
      if (chunks == 1) {
        out[out_index + j] = desc_finish(v, m);
      } else {
        partials[(ulong)chunk * ncols + j] = v;
        GLOBAL_FENCE();  // each writer's partial is visible device-wide before the ticket is taken
      }
    }
    COLS_DONE();
  }
#endif
  // One chunk reaches these two barriers too and leaves after them, not before: PoCL 3.1's
  // workitemloops method miscompiled a `return` of one chunk ahead of them (reads past the rows,
  // writes past the partials; tests/test_axis.cpp, cols_descriptor in row chunks).
#if ROWS_Y == 1 && COLS_VEC > 1
  // The run's partials visible device-wide before the ticket is taken: one fence after all of
  // them (a fence orders every write before it). The loop of the other shapes keeps its fence a
  // column: without it the compiler merged its two stores, which then lost their source lines.
  if (chunks > 1) GLOBAL_FENCE();
#endif
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (chunks > 1 && x == 0 && y == 0) {
    is_last = atomic_inc(tickets + get_group_id(0)) == chunks - 1;
    GLOBAL_FENCE();  // and the last group's reads of the partials come after its ticket
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (chunks == 1 || !is_last) return;  // the same for the whole group: the barriers below are reached by all
#if ROWS_Y == 1 && COLS_VEC > 1
  // One row slice: the chunks' partial rows read a row at a time (its run of COLS_N values, each
  // column's chain of combines independent of the others'), not a column at a time down the
  // chunks (one dependent load ncols apart after another: on PoCL that loop held a third of the
  // kernel's time at 1024 x 1024 floats in 16 chunks, perf). Each column's combines in the same
  // order as the tree's below with one slice, so the same bits.
  DESC_ACC fin[COLS_N];
  for (uint c = 0; c < COLS_N; ++c) fin[c] = desc_identity();
  for (uint k = 0; k < chunks; ++k)
    for (uint c = 0; c < COLS_N; ++c)
      if (whole || j0 + c < ncols) fin[c] = desc_combine(fin[c], desc_load_published(partials + (ulong)k * ncols + j0 + c));
  for (uint c = 0; c < COLS_N; ++c)
    if (whole || j0 + c < ncols) out[out_index + j0 + c] = desc_finish(fin[c], m);
#else
  for (uint c = 0; c < COLS_N; ++c) {
    const ulong j = j0 + c;
    DESC_ACC mine = desc_identity();
    if (j < ncols)
      for (uint k = y; k < chunks; k += ROWS_Y) mine = desc_combine(mine, desc_load_published(partials + (ulong)k * ncols + j));
    const DESC_ACC v = cols_fold(l, x, y, mine);
    if (y == 0 && j < ncols) out[out_index + j] = desc_finish(v, m);
    COLS_DONE();
  }
#endif
  if (x == 0 && y == 0) atomic_xchg(tickets + get_group_id(0), 0u);  // ready for the next launch
}
