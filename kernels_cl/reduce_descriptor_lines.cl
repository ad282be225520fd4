// reduce_descriptor_lines.cl: one result per line of any descriptor (clreduce/reduction.hpp),
// where a line is a run of consecutive elements of every input: a row of a matrix (LINES 0: line
// s is elements [s * ld, s * ld + len), so a padded matrix or a sub-matrix works through ld and
// the inputs' offsets), a segment of CSR offsets (LINES 1: [offsets[s], offsets[s + 1])) or of
// begin/end arrays (LINES 2: [begin[s], end[s]), as CUB's DeviceSegmentedReduce takes them).
// The map's index i counts from the line's first element (a row's column, a segment's position).
//
// ROW_WIDTH work-items share a line, WG_SIZE / ROW_WIDTH lines per group (BLOCKED 1, a CPU's
// shape: one work-item per line, each work-item a run of consecutive lines); each work-item reads
// the line's whole VEC-element vectors (the vectors of the inputs' own index space, so ALIGNED
// loads stay aligned whatever the line's start) ROW_WIDTH apart into ITEMS chains; the elements
// before the line's first whole vector and after its last go one by one. The line's work-items
// fold in a tree in local memory with a barrier at every level (no lockstep assumption; the
// accumulator may be a struct). SPLIT 1: a line is also cut into `chunks` parts of whole vectors,
// one group each along the grid's second dimension; a part's value goes to partials[s * chunks +
// c], and the work-item that draws the line's last ticket (tickets[s]) folds the parts in order,
// finishes and writes out[s], and resets the ticket to 0 for the next launch.
//
// Bounds: every offset is clamped into [0, n] and an end below its begin gives an empty line, so
// no offset, valid or not, reads outside the inputs' n elements. An empty line's value is the
// descriptor's finish of its identity with n = 0 (a sum's 0, a mean's NaN).
//
// Depth (the float bound) of a line of L elements: ceil(ceil(L / VEC / chunks) / ROW_WIDTH)
// vectors of VEC elements per work-item, at most ceil(2 (VEC - 1) / ROW_WIDTH) single elements,
// ITEMS chains, log2(ROW_WIDTH) tree levels, and `chunks` parts: the host's plan adds these up.
#ifndef WG_SIZE
#define WG_SIZE 256 // work-items per work-group: a power of two
#endif
#ifndef ROW_WIDTH
#define ROW_WIDTH 32 // work-items per line: a power of two dividing WG_SIZE
#endif
#if WG_SIZE % ROW_WIDTH != 0
#error "ROW_WIDTH must divide WG_SIZE"
#endif
#ifndef ITEMS
#define ITEMS 2 // vectors each work-item loads per trip, into as many accumulators (1, 2, 4 or 8)
#endif
#if ITEMS != 1 && ITEMS != 2 && ITEMS != 4 && ITEMS != 8
#error "ITEMS must be 1, 2, 4 or 8"
#endif
#ifndef VEC
#define VEC 1 // consecutive elements of every input each load reads: 1, 2, 4, 8 or 16
#endif
#if VEC != 1 && VEC != 2 && VEC != 4 && VEC != 8 && VEC != 16
#error "VEC must be 1, 2, 4, 8 or 16"
#endif
#ifndef ALIGNED
#define ALIGNED 0 // 1: every input's element offset is a multiple of VEC (loads through vector pointers)
#endif
#ifndef LINES
#define LINES 0 // 0: rows (s * ld, len elements); 1: CSR offsets (S + 1 of them); 2: begin and end arrays
#endif
#ifndef OFFSET_T_ID
#define OFFSET_T_ID 1 // the offsets' element type (LINES 1 and 2): 0 uint, 1 ulong, 2 int, 3 long
#endif
#if OFFSET_T_ID == 0
#define OFFSET_T uint
#elif OFFSET_T_ID == 1
#define OFFSET_T ulong
#elif OFFSET_T_ID == 2
#define OFFSET_T int
#elif OFFSET_T_ID == 3
#define OFFSET_T long
#else
#error "OFFSET_T_ID must be 0, 1, 2 or 3"
#endif
#define OFFSET_SIGNED (OFFSET_T_ID >= 2) // a negative offset is clamped to 0
#ifndef SPLIT
#define SPLIT 0 // 1: each line cut into `chunks` parts, one group each, met by a ticket per line
#endif
#ifndef BLOCKED
#define BLOCKED 0 // 1: work-item g folds lines [g * run, g * run + run), run = ceil(lines / global size), one at a time (a CPU's contiguous stream; ROW_WIDTH 1, SPLIT 0)
#endif
#if BLOCKED && (ROW_WIDTH != 1 || SPLIT)
#error "BLOCKED takes ROW_WIDTH 1 and SPLIT 0: a work-item folds its lines alone"
#endif
#ifndef LANES
#define LANES 0 // 1 (ROW_WIDTH 1): element c of each vector folds into accumulator c of VEC, which meet at
                // the line's end (VEC independent chains in a CPU's SIMD lanes); 0: in order into ITEMS
#endif
#if LANES && ROW_WIDTH != 1
#error "LANES takes ROW_WIDTH 1: the lanes are a CPU's, over a line (or part) one work-item folds alone"
#endif
#ifndef LANES_INDEX32
#define LANES_INDEX32 0 // 1 (LANES): the lanes state may keep its indices (places in a line) in 32 bits: no line
                        // has more than 2^32 - 1 elements
#endif
#include "descriptor.clh"
#include "descriptor_ticket.clh"

#define LINE_SLOTS (WG_SIZE / ROW_WIDTH) // lines per group

// The barrier of a line's tree. A line of at most 32 work-items lies within one NVIDIA warp (the
// lines are ROW_WIDTH-aligned runs of local ids; a warp is 32 consecutive ones), so there the
// warp's own barrier (bar.warp.sync, which also orders the warp's memory accesses) is enough;
// elsewhere, and for wider lines, the group's.
#if NV_PTX && ROW_WIDTH <= 32
#define LINE_BARRIER() __asm__ volatile("bar.warp.sync -1;" ::: "memory")
#else
#define LINE_BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#endif

#if OFFSET_SIGNED
#define LINE_CLAMP(x) min((x) < 0 ? (ulong)0 : (ulong)(x), n)
#else
#define LINE_CLAMP(x) min((ulong)(x), n)
#endif


// seg_a: the offsets (LINES 1) or the begins (LINES 2); seg_b: the ends (LINES 2; else unused).
// n: the elements every input holds from its offset (the clamp). ld, len: LINES 0's rows.
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_descriptor_lines(DESC_INPUT_PARAMS, const ulong n, __global const OFFSET_T* seg_a,
                             __global const OFFSET_T* seg_b, const ulong lines, const ulong ld, const ulong len,
                             const uint chunks, __global DESC_ACC* partials, volatile __global uint* tickets,
                             __global DESC_OUT* out, const ulong out_index DESC_SCALAR_PARAMS) {
#if ROW_WIDTH > 1 || SPLIT
  __local DESC_ACC l[WG_SIZE];  // the lines' trees (a line of one work-item needs none)
#endif
  const uint lid = get_local_id(0);
  const uint lane = lid % ROW_WIDTH;
  const uint slot = lid / ROW_WIDTH;
  const uint chunk = get_group_id(1);
#if BLOCKED
  // A work-item's run of lines (BLOCKED takes ROW_WIDTH 1 and SPLIT 0: no barrier in the loop).
  const ulong run = (lines + get_global_size(0) - 1) / get_global_size(0);
  ulong t = 0;
#if LANES && DESC_LANES_VECTOR && LINES == 0 && ALIGNED && VEC > 1
  // Rows of whole vectors (ld and len multiples of VEC): VEC rows at a time, each row's lanes in a
  // vector as below, the VEC rows' lanes met at once (DESC_VLANES_MEET_T: the same pairs, so the
  // same bits, in VEC - 1 whole-vector operations where one row's meet takes log2(VEC) mostly
  // empty ones). On short rows the meet, not the loads, set the time (rows of 32 floats).
  if (ld % VEC == 0 && len % VEC == 0) {
    const ulong first_row_ = get_global_id(0) * run;  // not s0: a descriptor's scalar
    const ulong vectors = len / VEC;
    for (; t + VEC <= run && first_row_ + t + VEC <= lines; t += VEC) {
      desc_lanes_v lv[VEC];
      for (uint r = 0; r < VEC; ++r) {
        const ulong b = (first_row_ + t + r) * ld;
        lv[r] = (desc_lanes_v)(desc_identity());
        for (ulong k = 0; k < vectors; ++k) DESC_FOLD_VLANES_AT(lv[r], b / VEC + k, b);
      }
      desc_lanes_v met;
      DESC_VLANES_MEET_T(lv, met);
#define DESC_LINES_STORE_ROW(v, c) out[out_index + first_row_ + t + (c)] = desc_finish((v), len);
      DESC_VLANES_EACH(met, DESC_LINES_STORE_ROW)
#undef DESC_LINES_STORE_ROW
    }
  }
#endif
  for (; t < run; ++t) {
    const ulong s = get_global_id(0) * run + t;
#else
  for (ulong first = (ulong)get_group_id(0) * LINE_SLOTS; first < lines; first += (ulong)get_num_groups(0) * LINE_SLOTS) {
    const ulong s = first + slot;
#endif
    ulong b = 0, e = 0;  // the line's elements [b, e); none for the slots past the last line
    if (s < lines) {
#if LINES == 0
      b = s * ld;
      e = b + len;
#elif LINES == 1
      b = LINE_CLAMP(seg_a[s]);
      e = LINE_CLAMP(seg_a[s + 1]);
#else
      b = LINE_CLAMP(seg_a[s]);
      e = LINE_CLAMP(seg_b[s]);
#endif
      // An end below its begin: an empty line. (Signed differences: offsets are at most n < 2^63,
      // and Oclgrind cannot run the saturating subtraction LLVM makes of the unsigned form.)
      e = b + (ulong)max((long)e - (long)b, 0L);
    }
    // The whole vectors [kv0, kv1) of the line; the single elements [b, hv) and [tv, e) around them.
    const ulong kv0 = (b + VEC - 1) / VEC, kv1 = e / VEC;
    const ulong nv = (ulong)max((long)kv1 - (long)kv0, 0L);
    const int has_vectors = nv > 0;
    const ulong hv = has_vectors ? kv0 * VEC : e;
    const ulong tv = has_vectors ? kv1 * VEC : e;
#if SPLIT
    const ulong per = (nv + chunks - 1) / chunks;  // vectors per part
    const ulong cb = kv0 + min(nv, (ulong)chunk * per), ce = kv0 + min(nv, ((ulong)chunk + 1) * per);
#else
    const ulong cb = kv0, ce = kv0 + nv;  // one part: no division a line
#endif

    DESC_ACC acc[ITEMS];
    for (uint j = 0; j < ITEMS; ++j) acc[j] = desc_identity();
    ulong k = cb + lane;
#if LANES && VEC > 1
    // Each element of a vector into its lane's accumulator (ITEMS vectors a trip), the lanes met
    // after the line's whole vectors (ROW_WIDTH is 1 here): one vector of accumulators where the
    // accumulator is of a scalar type (SIMD operations on a CPU), the descriptor's lanes state
    // where it has one, else an array met in a tree.
#if DESC_LANES_VECTOR
    desc_lanes_v lanes = (desc_lanes_v)(desc_identity());
    for (; k + ITEMS - 1 < ce; k += ITEMS)
      for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VLANES_AT(lanes, k + j, b);
    for (; k < ce; ++k) DESC_FOLD_VLANES_AT(lanes, k, b);
    DESC_VLANES_MEET(lanes, acc[0]);
#elif DESC_HAS_LANES_STATE
    // The descriptor's lanes state (argmin/argmax: values and indices as vectors), met at the
    // line's end in a tree (desc_lanes_meet: on whole vectors where the descriptor can, else unpacked).
    desc_lanes_s lanes = desc_lanes_identity();
    for (; k + ITEMS - 1 < ce; k += ITEMS)
      for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_SLANES_AT(lanes, k + j, b);
    for (; k < ce; ++k) DESC_FOLD_SLANES_AT(lanes, k, b);
    acc[0] = desc_lanes_meet(&lanes);
#else
    DESC_ACC lanes[VEC];
    for (uint c = 0; c < VEC; ++c) lanes[c] = desc_identity();
    for (; k + ITEMS - 1 < ce; k += ITEMS)
      for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_LANES_AT(lanes, k + j, b);
    for (; k < ce; ++k) DESC_FOLD_LANES_AT(lanes, k, b);
    for (uint w = VEC / 2; w > 0; w >>= 1)
      for (uint c = 0; c < w; ++c) lanes[c] = desc_combine(lanes[c], lanes[c + w]);
    acc[0] = lanes[0];
#endif
#else
    for (; k + (ITEMS - 1) * ROW_WIDTH < ce; k += ITEMS * ROW_WIDTH)
      for (uint j = 0; j < ITEMS; ++j) DESC_FOLD_VECTOR_AT(acc[j], k + j * ROW_WIDTH, b);
    for (; k < ce; k += ROW_WIDTH) DESC_FOLD_VECTOR_AT(acc[0], k, b);
#endif
    if (chunk == 0) {
      // Before the first whole vector and after the last: one element per work-item.
      for (ulong x = b + lane; x < hv; x += ROW_WIDTH) desc_fold_into(&acc[0], DESC_ELEMENT_AT(x, x - b), x - b);
      for (ulong x = tv + lane; x < e; x += ROW_WIDTH) desc_fold_into(&acc[0], DESC_ELEMENT_AT(x, x - b), x - b);
    }
    for (uint j = 1; j < ITEMS; ++j) acc[0] = desc_combine(acc[0], acc[j]);

#if ROW_WIDTH == 1 && !SPLIT
    // A line of one work-item: its value is the line's, with no tree and no barrier (so a CPU's
    // compiler keeps the work-items' loops apart).
    if (s < lines) out[out_index + s] = desc_finish(acc[0], e - b);
#else
    // The line's ROW_WIDTH values folded in a tree; every work-item of the group passes every
    // barrier (the loop's trip count is the group's, so every lane of a warp too).
    l[lid] = acc[0];
    LINE_BARRIER();
    for (uint w = ROW_WIDTH / 2; w > 0; w >>= 1) {
      if (lane < w) l[lid] = desc_combine(l[lid], l[lid + w]);
      LINE_BARRIER();
    }
    if (lane == 0 && s < lines) {
#if SPLIT
      partials[s * chunks + chunk] = l[lid];
      GLOBAL_FENCE();  // the part is visible device-wide before the ticket is taken
      if (atomic_inc(tickets + s) == chunks - 1) {
        GLOBAL_FENCE();  // and the last one's reads of the parts come after its ticket
        DESC_ACC v = desc_identity();
        for (uint c = 0; c < chunks; ++c) v = desc_combine(v, desc_load_published(partials + s * chunks + c));
        out[out_index + s] = desc_finish(v, e - b);
        atomic_xchg(tickets + s, 0u);  // ready for the next launch
      }
#else
      out[out_index + s] = desc_finish(l[lid], e - b);
#endif
    }
#endif
    // l[lid] of lane 0 is read above by its own work-item only; the next line's first write to
    // l[] comes after every work-item has left this tree (the last barrier), so no barrier here.
  }
}
