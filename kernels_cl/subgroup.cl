// subgroup.cl: the load stage of vector (vector_load.clh), then the work-group reduction by
// sub_group_reduce_<op> (cl_khr_subgroups): each sub-group reduces in hardware, its first
// work-item writes one value to local memory, and the first sub-group reduces those. The host
// offers it only where the device reports cl_khr_subgroups (built with -cl-std=CL2.0 or CL3.0);
// without the extension the file still compiles, with the local-memory tree standing in, so
// every kernel file builds on every device.
#include "reduce_common.clh"
#include "reduce_tree.clh"
#include "vector_load.clh"

#if defined(cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#define HAVE_SUBGROUPS 1
#else
#define HAVE_SUBGROUPS 0
#endif

// A user's operator (OP_ID 5) has no sub_group_reduce_*: its groups fold by the local-memory tree.
#if HAVE_SUBGROUPS && OP_ID == 5
#undef HAVE_SUBGROUPS
#define HAVE_SUBGROUPS 0
#endif

#if HAVE_SUBGROUPS
#if OP_ID == 0
#define SUB_GROUP_REDUCE(x) sub_group_reduce_add(x)
#elif TYPE_ID == 2 || TYPE_ID == 3
// Floating min/max follow fmin/fmax (reduce_common.clh): sub_group_reduce_min/max leave a NaN
// undefined, so a NaN goes in as the bound (passed over) and the answer is NaN only when every
// work-item of the sub-group held one.
#if OP_ID == 1
#define SUB_GROUP_RAW(x) sub_group_reduce_min(x)
#define NAN_STANDIN T_HIGHEST
#else
#define SUB_GROUP_RAW(x) sub_group_reduce_max(x)
#define NAN_STANDIN T_LOWEST
#endif
T sub_group_reduce_fminmax(T x) {
  const int nan = isnan(x);
  const T r = SUB_GROUP_RAW(nan ? (T)NAN_STANDIN : x);
  return sub_group_all(nan) ? (T)NAN : r;
}
#define SUB_GROUP_REDUCE(x) sub_group_reduce_fminmax(x)
#elif OP_ID == 1
#define SUB_GROUP_REDUCE(x) sub_group_reduce_min(x)
#else
#define SUB_GROUP_REDUCE(x) sub_group_reduce_max(x)
#endif
#endif

__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1)))
void reduce_subgroup(__global const T* restrict in, __global T* restrict out, const ulong n,
                     const ulong offset) {
  in += offset;  // the first element: the caller's offset (0 when a pass reads partials)
  __local T l[WG_SIZE];  // one value per sub-group (at most WG_SIZE of them), or the tree
  const uint lid = get_local_id(0);
  const ulong stride = (ulong)get_num_groups(0) * WG_SIZE;
  const ulong gid = (ulong)get_group_id(0) * WG_SIZE + lid;
  T acc = load_vectors_strided(in, n, gid, stride);
#if HAVE_SUBGROUPS
  acc = SUB_GROUP_REDUCE(acc);
  if (get_sub_group_local_id() == 0) l[get_sub_group_id()] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_sub_group_id() == 0) {  // uniform within the sub-group
    acc = IDENTITY;
    for (uint i = get_sub_group_local_id(); i < get_num_sub_groups(); i += get_sub_group_size())
      acc = OP(acc, l[i]);
    acc = SUB_GROUP_REDUCE(acc);
    if (lid == 0) out[get_group_id(0)] = acc;
  }
#else
  group_reduce_unrolled(l, lid, acc);
  if (lid == 0) out[get_group_id(0)] = l[0];
#endif
}
