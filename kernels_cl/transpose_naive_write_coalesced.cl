// transpose_naive_write_coalesced.cl: the mirror image of the naive transpose. Work-item (x, y)
// writes output (row y, column x) and reads input (row x, column y): consecutive work-items write
// consecutive addresses (coalesced) and read addresses N elements apart. On GPUs whose caches
// absorb the scattered reads better than scattered writes, this one is the faster of the two.
#include "transpose_common.clh"

__kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1)))
void transpose_naive_write_coalesced(__global const T* restrict in, __global T* restrict out,
                                     const uint m, const uint n) {
  const ulong r = get_global_id(0);  // x walks output columns = input rows
  if (r < m) FOR_Y(c, n) out[OUT_AT(c, r)] = in[IN_AT(r, c)];
}
