// lanes16.cl: the smallest kernel that shows Oclgrind 21.10 (Debian 12) misreading the upper lanes
// of a 16-lane vector. Every value here is defined: the input is initialised by the .sim file and
// the kernel folds one float16 to a scalar as fold_vector (kernels_cl/vector_load.clh) does at
// VEC 16. Oclgrind --uninitialized still says "Controlflow depends on uninitialized value" at the
// first max(): lanes 8-15 taken out of a 16-lane vector (.hi, .odd, .s89abcdef, through a union
// too) come out marked uninitialised; .lo alone, or an 8-lane double8's .hi, do not.
// oclgrind_job.sh runs this first: while it reports, the job checks the 16-lane cases for races
// alone and their logic for uninitialised reads at VEC 8; once it stops reporting, every case runs
// with both checks.
__kernel void lanes16(__global const float* in, __global float* out) {
  const float16 v = ((__global const float16*)in)[0];
  const float8 v8 = max(v.lo, v.hi);
  const float4 v4 = max(v8.lo, v8.hi);
  const float2 v2 = max(v4.lo, v4.hi);
  out[0] = max(v2.x, v2.y);
}
