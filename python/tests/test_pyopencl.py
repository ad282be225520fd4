"""PyOpenCL arrays read in place: on their own queue, no host copy, results as NumPy would return
them (a value) or as PyOpenCL arrays on that queue (an axis), views with offsets and row strides."""
import numpy as np
import pytest

import clreduce
from conftest import FULL, SEED, rng_for

cl = pytest.importorskip("pyopencl", reason="python3-pyopencl is not installed")
cla = pytest.importorskip("pyopencl.array")


def device_only(queue, host):
    """A PyOpenCL array whose values were written on the device (a kernel of PyOpenCL's), never held
    by the host under that buffer: a right answer then proves it was read in place."""
    a = cla.to_device(queue, np.zeros_like(host))
    src = cla.to_device(queue, host)
    a[...] = src  # a device-to-device copy
    del src
    return a


def test_in_place_on_the_arrays_queue(cl_queue):
    host = (rng_for("inplace").integers(-40, 41, size=(64, 48)) / 4.0).astype(np.float32)
    a = device_only(cl_queue, host)
    s = clreduce._session_of_queue(cl_queue)
    assert s.context_int_ptr == cl_queue.context.int_ptr and s.queue_int_ptr == cl_queue.int_ptr
    assert clreduce.sum(a) == host.sum()
    cols = clreduce.max(a, axis=0)
    assert isinstance(cols, cla.Array) and cols.queue is cl_queue and cols.dtype == np.float32
    assert np.array_equal(cols.get(), host.max(axis=0))
    rows = clreduce.argmax(a, axis=1)
    assert isinstance(rows, cla.Array) and rows.dtype == np.int64
    assert np.array_equal(rows.get(), host.argmax(axis=1))
    # an event-ordered chain on the same queue: the result feeds PyOpenCL's next operation
    assert float(cla.sum(clreduce.sum(a, axis=1)).get()) == host.sum()


def test_views_offsets_and_strides(cl_queue):
    host = rng_for("views", SEED).integers(-1000, 1000, size=(30, 20)).astype(np.int32)
    a = cla.to_device(cl_queue, host)
    sub = a[5:25]  # an offset into the buffer
    assert clreduce.sum(sub) == host[5:25].sum()
    assert np.array_equal(clreduce.min(sub, axis=0).get(), host[5:25].min(axis=0))
    view = a[:, 3:17]  # a row stride of 20
    assert np.array_equal(clreduce.sum(view, axis=1).get(), host[:, 3:17].sum(axis=1))
    assert clreduce.sum(view) == host[:, 3:17].sum()  # whole: a dense copy made on the device
    t = a.T  # Fortran-ordered
    assert np.array_equal(clreduce.max(t, axis=0).get(), host.T.max(axis=0))
    assert np.array_equal(clreduce.max(t, axis=1).get(), host.T.max(axis=1))
    v = cla.to_device(cl_queue, np.arange(100, dtype=np.int64))
    assert clreduce.sum(v[7:93]) == np.arange(7, 93).sum()
    with pytest.raises(clreduce.Error, match="stride"):
        clreduce.sum(v[::2])


def test_functions_and_types(cl_queue, fp64):
    types = [np.uint8, np.int16, np.uint32, np.int64, np.float16, np.float32] + ([np.float64] if fp64 else [])
    for k, dtype in enumerate(types):
        if not FULL and (k - SEED) % len(types) >= 3:  # three types a run, rotating with the seed
            continue
        rng = rng_for("types", k)
        host = rng.integers(0, 50, size=(17, 23)).astype(dtype)
        a = cla.to_device(cl_queue, host)
        for name, f, g in [("mean", clreduce.mean, np.mean), ("var", clreduce.var, np.var),
                           ("count_nonzero", clreduce.count_nonzero, np.count_nonzero),
                           ("nanmax", clreduce.nanmax, np.nanmax)]:
            for axis in (None, (SEED + k) % 2):
                got = f(a, axis=axis)
                got = got.get() if isinstance(got, cla.Array) else got
                want = g(host.astype(np.float64) if host.dtype.kind == "f" else host, axis=axis)
                assert np.allclose(np.asarray(got, dtype=np.float64), want, rtol=2e-3), (name, dtype, axis, got, want)


def test_dot_and_segments_on_device(cl_queue):
    x = rng_for("dot").integers(-8, 9, size=5000).astype(np.float32)
    y = rng_for("dot y").integers(-8, 9, size=5000).astype(np.float32)
    assert clreduce.dot(cla.to_device(cl_queue, x), cla.to_device(cl_queue, y)) == np.dot(x, y)
    offsets = np.array([0, 1000, 1000, 4999, 5000], dtype=np.uint32)
    res = clreduce.segment_reduce(cla.to_device(cl_queue, x), cla.to_device(cl_queue, offsets), "sum")
    assert isinstance(res, cla.Array)
    assert np.array_equal(res.get(), np.array([x[a:b].sum() for a, b in zip(offsets[:-1], offsets[1:])], np.float32))
    begin = cla.to_device(cl_queue, np.array([4000, 0, 10], dtype=np.int64))
    end = cla.to_device(cl_queue, np.array([5000, 4500, 5], dtype=np.int64))
    res = clreduce.segment_reduce(cla.to_device(cl_queue, x), begin=begin, end=end, op="sum")
    assert np.array_equal(res.get(), np.array([x[4000:5000].sum(), x[0:4500].sum(), 0], np.float32))
    with pytest.raises(clreduce.Error, match="host and on a device"):
        clreduce.dot(cla.to_device(cl_queue, x), y)


def test_out_on_device(cl_queue):
    host = np.arange(60, dtype=np.float32).reshape(6, 10)
    a = cla.to_device(cl_queue, host)
    out = cla.empty(cl_queue, (10,), np.float32)
    assert clreduce.sum(a, axis=0, out=out) is out
    assert np.array_equal(out.get(), host.sum(axis=0))


FAST = ["sum", "nansum", "mean", "nanmean", "min", "max", "nanmin", "nanmax", "argmin", "argmax", "var", "std",
        "count_nonzero", "any", "all", "norm"]


def test_short_path_equals_the_general_path(cl_queue, fp64):
    """A whole C-contiguous PyOpenCL array takes the short path (a plan per function, type and
    device); its value and type must be the general path's for the same data (a NumPy copy)."""
    types = [np.bool_, np.uint8, np.int16, np.uint32, np.int64, np.float16, np.float32] + ([np.float64] if fp64 else [])
    if not FULL:  # three types a run, rotating with the seed (each type x function is a kernel build)
        types = [types[(SEED + j) % len(types)] for j in range(3)]
    for k, dtype in enumerate(types):
        host = make_values(dtype, 1000 + k, ("short", k))
        a = cla.to_device(cl_queue, host)
        for name in FAST:
            f = getattr(clreduce, name)
            fast, general = f(a), f(host)
            assert type(fast) is type(general), (name, dtype, type(fast), type(general))
            assert np.array_equal(np.asarray(fast), np.asarray(general), equal_nan=np.dtype(dtype).kind == "f"), \
                (name, dtype, fast, general)
        for ddof in (0, 1):
            got, want = clreduce.var(a, ddof=ddof), clreduce.var(host, ddof=ddof)
            assert type(got) is type(want) and np.array_equal(got, want, equal_nan=True), (dtype, ddof, got, want)
        got, want = clreduce.dot(a, a), clreduce.dot(host, host)
        assert type(got) is type(want) and np.array_equal(got, want, equal_nan=np.dtype(dtype).kind == "f"), \
            (dtype, got, want)
    # the short path's plan is made once per function, type and device
    assert ("sum", np.dtype(types[0]), fp64) in clreduce._plans


FIRST_ARRAY = """
import os, sys
import numpy as np, pyopencl as cl, pyopencl.array as cla, clreduce
want = clreduce.use_device(os.environ.get("CLREDUCE_DEVICE", ""))
dev = [d for p in cl.get_platforms() if p.name == want["platform"] for d in p.get_devices() if d.name == want["name"]][0]
q = cl.CommandQueue(cl.Context([dev]))
a = cla.to_device(q, np.arange(1, 1001, dtype=np.int32))
assert clreduce.sum(a) == 500500
print(sorted(k[0] for k in clreduce._plans))
"""


def test_the_first_pyopencl_array_of_a_process_takes_the_short_path(cl_queue):
    """The short path's type test learns PyOpenCL's Array type from the first such array it sees;
    that first call must take the short path too (a fresh interpreter: here the type is known)."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", FIRST_ARRAY], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['sum']", (done.stdout, done.stderr)


def make_values(dtype, n, key):
    rng = rng_for(*key)
    if np.dtype(dtype).kind == "b":
        return rng.random(n) < 0.5
    if np.dtype(dtype).kind == "f":
        v = (rng.integers(-64, 65, size=n) / 4.0).astype(dtype)
        v[n // 3] = np.nan if n % 2 else v[n // 3]
        return v
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, size=n).astype(dtype)
