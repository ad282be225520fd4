#!/usr/bin/env python3
"""python_bench.py: clreduce's Python module beside its peers, one blocking call at a time (issue 32).

Suites, each run where its modules import (run the script once per interpreter):
  clreduce  PyOpenCL float32 arrays on the chosen OpenCL device: clreduce.sum, max, argmax, var and
            dot; pyopencl.array.sum, max and dot and a PyOpenCL ReductionKernel dot; the C++
            library's own blocking call of the same descriptor, timed in C++ with no Python between
            calls (a measuring hook of the module); and the call at n = 1, the Python overhead.
  torch     torch.sum, amax, argmax, var and dot of CUDA tensors.
What is measured: the host clock around one call that returns its value to Python (clreduce's
functions return a NumPy value; PyOpenCL's results are read with .get(), torch's with .item()),
the median of --reps calls after --warmup calls, the device idle before none of them (calls back
to back, each waiting for its value). At each size the implementations take turns, one call each
per round (the first of a round rotating), so that a drift of the device or the host over the run
falls on all of them alike rather than on whichever was measured first; clreduce's calls and the
C++ calls share rounds, PyOpenCL's have their own (their temporaries are freed when Python
collects them, inside whichever call comes next). GB/s is the bytes the call must read (4 n, dot 8 n) over that
median. Every implementation's value is checked against NumPy's in float64 on the host: sums and
dots within 4 ceil(log2 n) float32 epsilons of the sum of magnitudes, var within 1e-4 relative,
max and argmax exactly.
Usage: python_bench.py --suite clreduce|torch [--sizes 2^20,2^24] [--reps 30] [--warmup 3]
                       [--device NAME] [--json FILE]
"""
import argparse
import json
import math
import statistics
import sys
import time

import numpy as np

FUNCS = ["sum", "max", "argmax", "var", "dot"]


def parse_sizes(text):
    out = []
    for part in text.split(","):
        part = part.strip()
        if part.startswith("2^"):
            out.append(1 << int(part[2:]))
        elif part:
            out.append(int(part))
    if not out or min(out) < 1:
        sys.exit("python_bench.py: --sizes '%s': expected sizes >= 1 such as 2^20,2^24 or 1000" % text)
    return out


def interleaved(timers, reps, warmup):
    """Each timer (a function returning the seconds of one call) run `warmup` times, then `reps`
    rounds of one call each, the first of a round rotating. Returns each timer's samples."""
    for t in timers:
        for _ in range(warmup):
            t()
    samples = [[] for _ in timers]
    for k in range(reps):
        for j in range(len(timers)):
            i = (j + k) % len(timers)
            samples[i].append(timers[i]())
    return samples


def timed(call):
    def t():
        t0 = time.perf_counter()
        call()
        return time.perf_counter() - t0
    return t


class Checker:
    """NumPy's answers in float64 for one pair of host arrays."""

    def __init__(self, x, y):
        self.n = x.size
        self.want = {
            "sum": float(np.sum(x, dtype=np.float64)), "max": float(x.max()), "argmax": int(np.argmax(x)),
            "var": float(np.var(x, dtype=np.float64)), "dot": float(np.dot(x.astype(np.float64), y.astype(np.float64))),
        }
        self.scale = {"sum": float(np.sum(np.abs(x), dtype=np.float64)),
                      "dot": float(np.sum(np.abs(x.astype(np.float64) * y), dtype=np.float64))}

    def check(self, func, got):
        want = self.want[func]
        if func in ("max", "argmax"):
            return float(got) == want
        if func == "var":
            return abs(float(got) - want) <= 1e-4 * abs(want)
        bound = 4 * math.ceil(math.log2(max(self.n, 2))) * float(np.finfo(np.float32).eps) * self.scale[func]
        return abs(float(got) - want) <= bound


def host_data(n, seed):
    rng = np.random.default_rng(seed)
    return rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)


def suite_clreduce(args):
    import pyopencl as cl
    import pyopencl.array as cla
    from pyopencl.reduction import ReductionKernel

    import clreduce
    from clreduce import _clreduce as _c

    dev = None
    for p in cl.get_platforms():
        for d in p.get_devices():
            if args.device.lower() in d.name.lower() or args.device.lower() in p.name.lower():
                dev = dev or d
    if dev is None:
        sys.exit("python_bench.py: no OpenCL device matches --device '%s'" % args.device)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    print("# device: %s (%s, driver %s); pyopencl %s; numpy %s; python %s" % (
        dev.name, dev.platform.name, dev.driver_version, cl.VERSION_TEXT, np.__version__, sys.version.split()[0]))
    rk_dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                             arguments="__global const float *x, __global const float *y")
    session = clreduce._session_of_queue(q)
    cpp_builtin = {"sum": "sum", "max": "argmax", "argmax": "argmax", "var": "var_pop", "dot": "dot"}
    rows = []
    for n in args.sizes:
        x, y = host_data(n, n)
        chk = Checker(x, y)
        a, b = cla.to_device(q, x), cla.to_device(q, y)
        impls = {
            ("sum", "clreduce"): lambda: clreduce.sum(a),
            ("sum", "pyopencl.array.sum"): lambda: cla.sum(a).get(),
            ("max", "clreduce"): lambda: clreduce.max(a),
            ("max", "pyopencl.array.max"): lambda: cla.max(a).get(),
            ("argmax", "clreduce"): lambda: clreduce.argmax(a),
            ("var", "clreduce"): lambda: clreduce.var(a),
            ("dot", "clreduce"): lambda: clreduce.dot(a, b),
            ("dot", "pyopencl.array.dot"): lambda: cla.dot(a, b).get(),
            ("dot", "pyopencl ReductionKernel"): lambda: rk_dot(a, b).get(),
        }
        entries = []  # (func, impl, timer, check)
        for (func, impl), call in impls.items():
            if func not in args.funcs:
                continue
            value = call()
            entries.append((func, impl, timed(call), "ok" if chk.check(func, value) else "MISMATCH %r" % (value,)))
        # The C++ library's own blocking call of the same descriptor: the hook times it in C++.
        for func in args.funcs:
            r = clreduce.builtin(cpp_builtin[func], np.float32)
            ins = [_c.DeviceInput(a.base_data.int_ptr, 0)] + ([_c.DeviceInput(b.base_data.int_ptr, 0)] if func == "dot" else [])
            entries.append((func, "C++ Reducer::reduce", lambda r=r, ins=ins: session._time_whole(r, ins, n, 1)[0],
                            "(the same launch as clreduce's)"))
        # Two sets of rounds: clreduce's calls with the C++ calls, then PyOpenCL's. PyOpenCL's
        # temporaries are released when Python collects them, possibly inside the next timed call:
        # in rounds shared with them (session 18, call 7) clreduce's and the C++ calls' medians at
        # 2^24 rose by up to 22 us, more in one than the other.
        ours = [e for e in entries if not e[1].startswith("pyopencl")]
        peers = [e for e in entries if e[1].startswith("pyopencl")]
        entries = ours + peers
        samples = (interleaved([e[2] for e in ours], args.reps, args.warmup) +
                   interleaved([e[2] for e in peers], args.reps, args.warmup))
        for (func, impl, _, check), smp in zip(entries, samples):
            rows.append(dict(n=n, func=func, impl=impl, median_us=statistics.median(smp) * 1e6,
                             samples_us=[v * 1e6 for v in smp], bytes=(8 if func == "dot" else 4) * n, check=check))
        del a, b
    # The call overhead: one element, Python against C++.
    one = cla.to_device(q, np.ones(1, dtype=np.float32))
    r1, in1 = clreduce.builtin("sum", np.float32), [_c.DeviceInput(one.base_data.int_ptr, 0)]
    s_py, s_cpp = interleaved([timed(lambda: clreduce.sum(one)), lambda: session._time_whole(r1, in1, 1, 1)[0]],
                              args.reps * 4, args.warmup)
    rows.append(dict(n=1, func="sum", impl="clreduce", median_us=statistics.median(s_py) * 1e6,
                     samples_us=[v * 1e6 for v in s_py], bytes=4, check="ok" if clreduce.sum(one) == 1 else "MISMATCH"))
    rows.append(dict(n=1, func="sum", impl="C++ Reducer::reduce", median_us=statistics.median(s_cpp) * 1e6,
                     samples_us=[v * 1e6 for v in s_cpp], bytes=4, check="(the same launch)"))
    return rows


def suite_torch(args):
    import torch

    dev = torch.device("cuda")
    print("# device: %s; torch %s (CUDA %s); numpy %s; python %s" % (
        torch.cuda.get_device_name(0), torch.__version__, torch.version.cuda, np.__version__, sys.version.split()[0]))
    rows = []
    for n in args.sizes:
        x, y = host_data(n, n)
        chk = Checker(x, y)
        a, b = torch.from_numpy(x).to(dev), torch.from_numpy(y).to(dev)
        impls = {"sum": lambda: torch.sum(a).item(), "max": lambda: torch.amax(a).item(),
                 "argmax": lambda: torch.argmax(a).item(), "var": lambda: torch.var(a, correction=0).item(),
                 "dot": lambda: torch.dot(a, b).item()}
        entries = []
        for func, call in impls.items():
            if func not in args.funcs:
                continue
            value = call()
            entries.append((func, timed(call), "ok" if chk.check(func, value) else "MISMATCH %r" % (value,)))
        for (func, _, check), smp in zip(entries, interleaved([e[1] for e in entries], args.reps, args.warmup)):
            rows.append(dict(n=n, func=func, impl="torch", median_us=statistics.median(smp) * 1e6,
                             samples_us=[v * 1e6 for v in smp], bytes=(8 if func == "dot" else 4) * n, check=check))
        del a, b
        torch.cuda.empty_cache()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", required=True, choices=["clreduce", "torch"])
    ap.add_argument("--sizes", default="2^20,2^22,2^24,2^26,2^28", type=parse_sizes)
    ap.add_argument("--funcs", default=",".join(FUNCS))
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--device", default="", help="a part of the OpenCL device's or platform's name (clreduce suite)")
    ap.add_argument("--json", help="write every sample here")
    args = ap.parse_args()
    args.funcs = [f.strip() for f in args.funcs.split(",") if f.strip()]
    bad = [f for f in args.funcs if f not in FUNCS]
    if bad or args.reps < 1 or args.warmup < 0:
        sys.exit("python_bench.py: --funcs takes %s; --reps >= 1, --warmup >= 0" % ", ".join(FUNCS))
    rows = suite_clreduce(args) if args.suite == "clreduce" else suite_torch(args)
    print("| n | function | implementation | median µs | GB/s | check |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %d | %s | %s | %.1f | %.1f | %s |" % (r["n"], r["func"], r["impl"], r["median_us"],
                                                      r["bytes"] / r["median_us"] / 1e3, r["check"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(suite=args.suite, reps=args.reps, warmup=args.warmup, rows=rows), f, indent=1)
    if any(r["check"].startswith("MISMATCH") for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
