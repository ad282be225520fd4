# Peers for issue 16's other operators and types, beside `clreduce bench axis` in the same device
# call: torch's sum / amin / amax / argmin / argmax along dim 1 (rows) and dim 0 (columns) of
# each M x N matrix, float32 and int32 (torch has no CUDA reductions of uint32: int32 moves the
# same bytes), and CuPy's sum / min / max / argmin / argmax(axis) on the same matrices, float32,
# int32 and uint32 (CUPY_ACCELERATORS=cub unless set: CUB's segmented reduce where CuPy uses it);
# the whole array's argmax, and torch.segment_reduce over CSR lengths. CUDA events around one call
# (CuPy and torch both on the legacy default stream), median of 50 after 5 warm-ups;
# GB/s = bytes read / time. Torch's axis reductions also by the host clock around one call and
# torch.cuda.synchronize() (median of 50, the device idle before each): the method of clreduce's
# one-call figure, which CUDA events do not match (they start when the GPU meets the first event).
# And torch back to back: CUDA events around 20 calls in a row, divided by 20, median of 11 such
# batches: the method of clreduce's back-to-back median (no launch gap between calls), so the two
# kernels' times compare directly.
#   python3 bench/tools/axis_peers_ops.py [ops...]   (default: sum amin amax argmin argmax)
# Environment: AXIS_SHAPES (MxN,MxN,...: default the seven shapes of `bench axis` on a GPU),
# AXIS_DTYPES (float32,int32: the default), AXIS_SEGMENTS (1, the default: the segments too; 0: not).
import os, sys, time
os.environ.setdefault("CUPY_ACCELERATORS", "cub")
import torch
try:
    import cupy as cp
except ImportError:  # torch alone
    cp = None

def bench(fn, reps=50):
    for _ in range(5): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record(); fn(); e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); return ts[len(ts) // 2] * 1e-3

def bench_host(fn, reps=50):
    for _ in range(5): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); fn(); torch.cuda.synchronize(); ts.append(time.perf_counter() - t0)
    ts.sort(); return ts[len(ts) // 2]

def bench_b2b(fn, calls=20, batches=11):
    for _ in range(5): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(batches):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        for _ in range(calls): fn()
        e.record(); e.synchronize(); ts.append(s.elapsed_time(e) / calls)
    ts.sort(); return ts[len(ts) // 2] * 1e-3

ops = sys.argv[1:] or ["sum", "amin", "amax", "argmin", "argmax"]
print("device", torch.cuda.get_device_name(), "torch", torch.__version__)
shapes = [(8192, 8192), (16384, 16384), (1 << 20, 32), (32, 1 << 20), (1 << 16, 1024), (1024, 1 << 16), (4096, 4096)]
if os.environ.get("AXIS_SHAPES"):
    shapes = [tuple(int(v) for v in s.split("x")) for s in os.environ["AXIS_SHAPES"].split(",")]
dtypes = [getattr(torch, d) for d in os.environ.get("AXIS_DTYPES", "float32,int32").split(",")]
CUPY_OP = {"sum": "sum", "amin": "min", "amax": "max", "argmin": "argmin", "argmax": "argmax"}
for dtype in dtypes:
    for (m, n) in shapes:
        a = (torch.rand(m, n, device="cuda") * 1000).to(dtype)
        gb = m * n * 4 / 1e9
        for op in ops:
            f = getattr(torch, op)
            for dim, name in [(1, "rows"), (0, "cols")]:
                t = bench(lambda: f(a, dim=dim))
                th = bench_host(lambda: f(a, dim=dim))
                tb = bench_b2b(lambda: f(a, dim=dim))
                print(f"{str(dtype)[6:]} {op} {m}x{n} {name}: torch {t*1e6:8.1f} us {gb/t:7.0f} GB/s; host clock {th*1e6:8.1f} us; back-to-back {tb*1e6:8.1f} us")
                if cp is not None:
                    ac = cp.asarray(a)
                    for cdt in ([ac] if dtype == torch.float32 else [ac, ac.astype(cp.uint32)]):
                        g = getattr(cdt, CUPY_OP[op])
                        tc = bench(lambda: g(axis=dim))
                        print(f"{cdt.dtype} {op} {m}x{n} {name}: cupy {tc*1e6:8.1f} us {gb/tc:7.0f} GB/s")
                    del ac
        t = bench(lambda: torch.argmax(a))
        print(f"{str(dtype)[6:]} argmax {m}x{n} whole: torch {t*1e6:8.1f} us {gb/t:7.0f} GB/s")
        del a
# Segments: the layouts bench/gpu_bench_axis_ops.sh gives clreduce (2^26 floats in all).
if os.environ.get("AXIS_SEGMENTS", "1") == "0":
    sys.exit(0)
n = 1 << 26
x = torch.rand(n, device="cuda")
for count in [1, 100, 1000, 100000]:
    lengths = torch.full((count,), n // count, device="cuda", dtype=torch.int64)
    lengths[-1] += n - int(lengths.sum())
    for red in ["sum", "max"]:
        try:
            t = bench(lambda: torch.segment_reduce(x, red, lengths=lengths))
            print(f"float segments {count} {red}: torch.segment_reduce {t*1e6:8.1f} us {n*4/1e9/t:7.0f} GB/s")
        except Exception as e:  # noqa: BLE001
            print(f"float segments {count} {red}: torch.segment_reduce failed: {e}")
