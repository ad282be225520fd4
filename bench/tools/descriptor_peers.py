# Torch beside the reduction descriptors (bench/gpu_descriptors.sh) in the same device call: the
# whole-array reductions torch offers for each built-in, over inputs of BYTES bytes each (default
# 256 MiB, as the script's), timed back to back (CUDA events around 20 calls in a row, divided by
# 20, median of 11 batches: the method of clreduce's back-to-back median). One CSV row each:
# reduction, dtype, n, torch call, µs, GB/s of the inputs' bytes.
#   python3 bench/tools/descriptor_peers.py [BYTES]
# With "axis" and M x N shapes, the same along dim 1 (rows) and dim 0 (cols) of each matrix of
# float32 and float16 (AXIS_CASES): reduction,dtype,shape,axis,torch_us,GB_per_s.
#   python3 bench/tools/descriptor_peers.py axis 8192x8192 1048576x32 ...
import sys
import torch

def b2b(fn, calls=20, batches=11):
    for _ in range(5): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(batches):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        for _ in range(calls): fn()
        e.record(); e.synchronize(); ts.append(s.elapsed_time(e) / calls)
    ts.sort(); return ts[len(ts) // 2] * 1e3  # µs

AXIS = len(sys.argv) > 1 and sys.argv[1] == "axis"
BYTES = int(sys.argv[1]) if len(sys.argv) > 1 and not AXIS else 1 << 28
f32 = torch.float32
# (clreduce name, torch dtype, inputs, the torch call of the same reduction)
CASES = [
    ("sum", torch.float32, 1, lambda x: torch.sum(x)),
    ("sum", torch.float16, 1, lambda x: torch.sum(x, dtype=f32)),
    ("sum", torch.bfloat16, 1, lambda x: torch.sum(x, dtype=f32)),
    ("sum", torch.int32, 1, lambda x: torch.sum(x)),           # into int64, as clreduce's u32/i32 sum
    ("sum", torch.uint8, 1, lambda x: torch.sum(x)),
    ("mean", torch.float32, 1, lambda x: torch.mean(x)),
    ("mean", torch.float16, 1, lambda x: torch.mean(x, dtype=f32)),
    ("var_pop", torch.float32, 1, lambda x: torch.var_mean(x, correction=0)),
    ("var_pop", torch.float16, 1, lambda x: torch.var_mean(x.float(), correction=0)),  # torch: no f16 var in f32 without a copy
    ("std_pop", torch.float32, 1, lambda x: torch.std(x, correction=0)),
    ("nansum", torch.float32, 1, lambda x: torch.nansum(x)),
    ("max", torch.float32, 1, lambda x: torch.amax(x)),
    ("max", torch.float16, 1, lambda x: torch.amax(x)),
    ("max", torch.int32, 1, lambda x: torch.amax(x)),
    ("minmax", torch.float32, 1, lambda x: torch.aminmax(x)),
    ("argmax", torch.float32, 1, lambda x: torch.argmax(x)),
    ("argmax", torch.float16, 1, lambda x: torch.argmax(x)),
    ("argmax", torch.int32, 1, lambda x: torch.argmax(x)),
    ("count_nonzero", torch.float32, 1, lambda x: torch.count_nonzero(x)),
    ("any", torch.float32, 1, lambda x: torch.any(x)),
    ("l1", torch.float32, 1, lambda x: torch.linalg.vector_norm(x, 1)),
    ("l2", torch.float32, 1, lambda x: torch.linalg.vector_norm(x)),
    ("l2", torch.float16, 1, lambda x: torch.linalg.vector_norm(x, dtype=f32)),
    ("linf", torch.float32, 1, lambda x: torch.linalg.vector_norm(x, float("inf"))),
    ("sumsq", torch.float32, 1, lambda x: torch.dot(x, x)),       # x . x: cuBLAS reads x as both operands
    ("sumsq", torch.float16, 1, lambda x: torch.dot(x, x)),
    ("dot", torch.float32, 2, lambda x, y: torch.dot(x, y)),
    ("dot", torch.float16, 2, lambda x, y: torch.dot(x, y)),     # torch's half dot (accumulates in f32 inside cuBLAS)
    ("sqdist", torch.float32, 2, lambda x, y: torch.dist(x, y)),  # the norm of x - y (a temporary), as torch does it
]
# Along a dimension d: (clreduce name, torch dtype, inputs, the call).
AXIS_CASES = [
    ("sum", torch.float32, 1, lambda d, x: torch.sum(x, dim=d)),
    ("sum", torch.float16, 1, lambda d, x: torch.sum(x, dim=d, dtype=f32)),
    ("mean", torch.float32, 1, lambda d, x: torch.mean(x, dim=d)),
    ("var_pop", torch.float32, 1, lambda d, x: torch.var_mean(x, dim=d, correction=0)),
    ("max", torch.float32, 1, lambda d, x: torch.amax(x, dim=d)),
    ("argmax", torch.float32, 1, lambda d, x: torch.argmax(x, dim=d)),
    ("argmax", torch.float16, 1, lambda d, x: torch.argmax(x, dim=d)),
    ("l2", torch.float32, 1, lambda d, x: torch.linalg.vector_norm(x, dim=d)),
    ("dot", torch.float32, 2, lambda d, x, y: torch.linalg.vecdot(x, y, dim=d)),
]
print("device", torch.cuda.get_device_name(), "torch", torch.__version__)
if AXIS:
    print("reduction,dtype,shape,axis,torch_us,GB_per_s")
    for shape in sys.argv[2:]:
        m, n = (int(v) for v in shape.split("x"))
        for name, dt, k, fn in AXIS_CASES:
            xs = [(torch.rand(m, n, device="cuda") * 2 - 1).to(dt) for _ in range(k)]
            nbytes = k * m * n * xs[0].element_size()
            for d, axis in ((1, "rows"), (0, "cols")):
                us = b2b(lambda: fn(d, *xs))
                print(f"{name},{str(dt).replace('torch.', '')},{shape},{axis},{us:.2f},{nbytes / us / 1e3:.1f}")
            del xs
            torch.cuda.empty_cache()
    sys.exit(0)
print("reduction,dtype,n,torch_us,GB_per_s")
for name, dt, k, fn in CASES:
    n = BYTES // torch.tensor([], dtype=dt).element_size()
    if dt.is_floating_point:
        xs = [(torch.rand(n, device="cuda") * 2 - 1).to(dt) for _ in range(k)]
    else:
        xs = [torch.randint(0, 100, (n,), device="cuda", dtype=dt) for _ in range(k)]
    us = b2b(lambda: fn(*xs))
    print(f"{name},{str(dt).replace('torch.', '')},{n},{us:.2f},{k * BYTES / us / 1e3:.1f}")
    del xs
    torch.cuda.empty_cache()
