// transpose_naive.cl: the naive transpose. A 2-D range of WG_X x WG_Y groups, one element per
// work-item: work-item (x, y) reads input (row y, column x) and writes output (row x, column y).
// Consecutive work-items read consecutive addresses (coalesced) but write addresses M elements
// apart (one memory transaction per element). Work-items past the edges of the matrix do nothing.
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void transpose_naive(__global const T* restrict in, __global T* restrict out, const uint m,
                     const uint n) {
  const ulong c = get_global_id(0);
  if (c < n) FOR_Y(r, m) out[OUT_AT(c, r)] = in[IN_AT(r, c)];
}
