"""clreduce's NumPy-shaped functions against NumPy: every function x type x axis x layout (a
seeded covering sample by default: conftest.py), results and result types, NaN placements, empty
arrays, errors, and property tests over random shapes, types, axes and NaNs (hypothesis)."""
import itertools
import math
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import clreduce
from conftest import FULL, SEED, rng_for

DEVICE_FP64 = clreduce.use_device(os.environ.get("CLREDUCE_DEVICE", ""))["fp64"]
TYPES = [np.bool_, np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64,
         np.float16, np.float32, np.float64]
# name: (clreduce's function, NumPy's, whether NaN may be in its input)
FUNCS = {
    "sum": (clreduce.sum, np.sum), "nansum": (clreduce.nansum, np.nansum), "mean": (clreduce.mean, np.mean),
    "nanmean": (clreduce.nanmean, np.nanmean), "min": (clreduce.min, np.min), "max": (clreduce.max, np.max),
    "nanmin": (clreduce.nanmin, np.nanmin), "nanmax": (clreduce.nanmax, np.nanmax),
    "argmin": (clreduce.argmin, np.argmin), "argmax": (clreduce.argmax, np.argmax),
    "var": (clreduce.var, np.var), "std": (clreduce.std, np.std),
    "var_ddof1": (lambda a, axis=None: clreduce.var(a, axis=axis, ddof=1), lambda a, axis=None: np.var(a, axis=axis, ddof=1)),
    "std_ddof3": (lambda a, axis=None: clreduce.std(a, axis=axis, ddof=3), lambda a, axis=None: np.std(a, axis=axis, ddof=3)),
    "count_nonzero": (clreduce.count_nonzero, np.count_nonzero), "any": (clreduce.any, np.any),
    "all": (clreduce.all, np.all), "norm": (clreduce.norm, np.linalg.norm),
}
# (layout name, 1-D length or 2-D shape, how the array is made from a dense one)
LAYOUTS = [
    ("vector_1", (1,)), ("vector_4099", (4099,)), ("matrix_33x5", (33, 5)), ("matrix_1x9", (1, 9)),
    ("sliced_9x11", (9, 11)),        # a[:, 2:13] of a 9 x 15 matrix: a row stride of 15
    ("fortran_12x6", (12, 6)),       # a Fortran-ordered matrix: read as its transpose
]
AXES = [None, 0, 1, -1, -2]


def covering_cases():
    """Every function at every axis and layout; the type rotating with the seed (every type several
    times). The whole product with CLREDUCE_PY_FULL=1."""
    cases = []
    names = sorted(FUNCS)
    for i, name in enumerate(names):
        for j, (layout, shape) in enumerate(LAYOUTS):
            for k, axis in enumerate(AXES):
                if len(shape) == 1 and axis not in (None, 0, -1):
                    continue
                if FULL:
                    cases += [(name, t, layout, axis) for t in TYPES]
                    continue
                # One in four (function, layout, axis) items, rotating with the seed (CI's time: every
                # item is a kernel build on PoCL, one in two took 316 s of CI's PoCL stage with the
                # rest of this suite); each with one type, rotating too. Every function still meets
                # every axis (six layouts a residue) and every type (18 functions, 12 types).
                if (SEED + i + j + k) % 4:
                    continue
                cases.append((name, TYPES[(SEED + i * 7 + j * 3 + k) % len(TYPES)], layout, axis))
    return cases


def make_data(dtype, shape, layout, key, nan_fraction=0.0):
    """Values every type holds exactly (floats: quarters up to 16 in magnitude, so float32 sums are
    exact and float16's are once rounded), NaN at random places for floats when asked."""
    rng = rng_for(*key)
    dtype = np.dtype(dtype)
    full_shape = (shape[0], shape[1] + 4) if layout.startswith("sliced") else shape
    if dtype.kind == "b":
        data = rng.random(full_shape) < 0.6
    elif dtype.kind == "u":
        hi = min(np.iinfo(dtype).max, 200) + 1
        data = rng.integers(0, hi, size=full_shape).astype(dtype)
        if data.size > 3:
            data.flat[rng.integers(0, data.size)] = np.iinfo(dtype).max  # the edge value
    elif dtype.kind == "i":
        lo, hi = max(np.iinfo(dtype).min, -100), min(np.iinfo(dtype).max, 100) + 1
        data = rng.integers(lo, hi, size=full_shape).astype(dtype)
    else:
        data = (rng.integers(-64, 65, size=full_shape) / 4.0).astype(dtype)
        if nan_fraction:
            data[rng.random(full_shape) < nan_fraction] = np.nan
    if layout.startswith("sliced"):
        return data[:, 2:2 + shape[1]]
    if layout.startswith("fortran"):
        return np.asfortranarray(data)
    return data


def reference(name, a, axis):
    """NumPy's answer, computed on float64 (or exact integer) data, then given NumPy's own result
    type for `a` (float16's reductions in NumPy accumulate in float16)."""
    cfun, nfun = FUNCS[name]
    native = nfun(a, axis=axis) if name != "count_nonzero" else np.count_nonzero(a, axis=axis)
    if a.dtype.kind == "f":
        wide = nfun(a.astype(np.float64), axis=axis)
        if name in ("argmin", "argmax"):
            return native
        return np.asarray(wide).astype(np.asarray(native).dtype)
    if name in ("mean", "nanmean", "var", "std", "var_ddof1", "std_ddof3", "norm"):
        return np.asarray(nfun(a.astype(np.float64), axis=axis))
    return native


def tolerance(name, dtype_result, a, axis):
    """Floats: a few units in the last place of the result type, and for the one-pass variance and
    the norms (rounded in float32 before the result type) a bound from float32's epsilon, the
    reduced count and the data's scale (values up to 16: squares up to 256)."""
    dt = np.dtype(dtype_result)
    if dt.kind != "f":
        return 0.0
    n = a.size if axis is None else a.shape[axis]
    eps_res = float(np.finfo(dt).eps)
    eps_acc = float(np.finfo(np.float32).eps) if dt != np.float64 or a.dtype != np.float64 else float(np.finfo(np.float64).eps)
    if a.dtype.kind in "iub" and dt == np.float64 and DEVICE_FP64:  # else computed in float32 (mean's docstring)
        eps_acc = float(np.finfo(np.float64).eps)
    return 4 * eps_res + 4 * eps_acc * (math.log2(max(n, 2)) + 4)


def check(name, a, axis, got, want):
    got_a, want_a = np.asarray(got), np.asarray(want)
    info = "%s of %s %s axis=%s: got %r, want %r" % (name, a.dtype, a.shape, axis, got, want)
    if name == "count_nonzero" and axis is None:
        assert isinstance(got, int), info
    else:
        with np.errstate(all="ignore"), _ignore_warnings():
            native = FUNCS[name][1](a, axis=axis)
        assert got_a.dtype == np.asarray(native).dtype, info + " (result type)"
    assert got_a.shape == want_a.shape, info + " (shape)"
    if got_a.dtype.kind == "f":
        rt = tolerance(name, got_a.dtype, a, axis)
        both_nan = np.isnan(got_a.astype(np.float64)) & np.isnan(want_a.astype(np.float64))
        g, w = got_a.astype(np.float64), want_a.astype(np.float64)
        close = np.isclose(g, w, rtol=rt, atol=rt * 16) | both_nan | (g == w)
        assert close.all(), info
    else:
        assert np.array_equal(got_a, want_a), info


def needs_fp64(dtype, fp64):
    if np.dtype(dtype) == np.float64 and not fp64:
        pytest.skip("the device has no fp64")


@pytest.mark.parametrize("name,dtype,layout,axis", covering_cases(),
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_function_against_numpy(name, dtype, layout, axis, fp64):
    needs_fp64(dtype, fp64)
    shape = dict(LAYOUTS)[layout]
    a = make_data(dtype, shape, layout, (name, np.dtype(dtype).name, layout, axis))
    cfun = FUNCS[name][0]
    if a.ndim == 1 and axis == -1:
        axis = 0
    if name in ("std_ddof3", "var_ddof1") and (a.size if axis is None else a.shape[axis % a.ndim]) <= (3 if "3" in name else 1):
        with pytest.warns(RuntimeWarning, match="Degrees of freedom"):  # as NumPy's
            got = cfun(a, axis=axis)
    else:
        got = cfun(a, axis=axis)
    with np.errstate(all="ignore"), _ignore_warnings():
        want = reference(name, a, axis)
    check(name, a, axis, got, want)


NAN_FUNCS = ["sum", "nansum", "mean", "nanmean", "min", "max", "nanmin", "nanmax", "argmin", "argmax", "var",
             "count_nonzero", "any", "all"]


@pytest.mark.parametrize("name", NAN_FUNCS)
@pytest.mark.parametrize("placement", ["some", "all", "first", "last"])
def test_nan_placements(name, placement):
    """NumPy's NaN rules: min, max, sum, mean and var give NaN where one is present; argmin/argmax
    the first NaN's index; the nan* functions skip them (NaN where all are); NaN counts as nonzero."""
    dtype = [np.float32, np.float16][(SEED + len(name)) % 2]  # one per function: its kernels serve every placement
    a = make_data(dtype, (37, 12), "matrix", (name, placement))
    if placement == "some":
        a[a > 10] = np.nan
    elif placement == "all":
        a[:] = np.nan
    elif placement == "first":
        a[0, :] = np.nan
        a[:, 0] = np.nan
    else:
        a[-1, -1] = np.nan
    for axis in (None, 0, 1):
        with np.errstate(all="ignore"), _ignore_warnings():
            got = FUNCS[name][0](a, axis=axis)
            want = reference(name, a, axis)
        check(name, a, axis, got, want)


class _ignore_warnings:
    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._w.__exit__(*exc)


def test_dot_against_numpy(fp64):
    for k, dtype in enumerate(TYPES):
        if (k + SEED) % 2 and not FULL and dtype not in (np.float32, np.int32):
            continue
        if np.dtype(dtype) == np.float64 and not fp64:
            continue
        x = make_data(dtype, (1001,), "vector", ("dot x", k))
        y = make_data(dtype, (1001,), "vector", ("dot y", k))
        got = clreduce.dot(x, y)
        native = np.dot(x, y)
        assert np.asarray(got).dtype == np.asarray(native).dtype, dtype
        if np.dtype(dtype).kind == "f":
            want = np.dot(x.astype(np.float64), y.astype(np.float64))
            assert abs(float(got) - want) <= 1e-3 * abs(want) + 1e-2, (dtype, got, want)
        else:
            assert got == native, (dtype, got, native)
    # mixed types: NumPy's result type (float64 here: on a device without fp64, refused by name)
    if fp64:
        assert clreduce.dot(np.arange(5, dtype=np.int32), np.arange(5, dtype=np.float32)) == 30.0
    else:
        with pytest.raises(clreduce.Error, match="cl_khr_fp64"):
            clreduce.dot(np.arange(5, dtype=np.int32), np.arange(5, dtype=np.float32))


def test_sum_dtype_and_wrap():
    a = np.full(1000, 200, dtype=np.uint8)
    assert clreduce.sum(a) == 200000 and clreduce.sum(a).dtype == np.uint64
    assert clreduce.sum(a, dtype=np.uint8) == np.sum(a, dtype=np.uint8)  # modulo 256, as NumPy
    b = np.full(3, 2**31 - 1, dtype=np.int32)
    assert clreduce.sum(b) == 3 * (2**31 - 1)  # 64 bits, no wrap
    assert clreduce.sum(b, dtype=np.int32) == np.sum(b, dtype=np.int32)
    h = np.full(5000, 1.0, dtype=np.float16)
    assert clreduce.sum(h) == np.float16(5000)  # accumulated in float32; NumPy's float16 sum reads 4096
    assert clreduce.sum(h, dtype=np.float32) == np.float32(5000)


def test_out_argument():
    m = make_data(np.float32, (6, 5), "matrix", ("out",))
    out = np.empty(5, dtype=np.float32)
    assert clreduce.sum(m, axis=0, out=out) is out
    assert np.allclose(out, m.sum(axis=0))
    with pytest.raises(clreduce.Error, match="shape"):
        clreduce.sum(m, axis=1, out=out)


def test_empty_arrays():
    e = np.zeros(0, dtype=np.float32)
    assert clreduce.sum(e) == 0 and clreduce.count_nonzero(e) == 0
    assert clreduce.any(e) == False and clreduce.all(e) == True  # noqa: E712 (NumPy's bools)
    with pytest.warns(RuntimeWarning):
        assert math.isnan(clreduce.mean(e))
    for f in (clreduce.min, clreduce.max, clreduce.argmin, clreduce.argmax):
        with pytest.raises(ValueError):
            f(e)
    m = np.zeros((0, 4), dtype=np.int32)
    assert np.array_equal(clreduce.sum(m, axis=0), np.zeros(4, dtype=np.int64))
    assert clreduce.sum(m, axis=1).shape == (0,)


def test_errors_name_the_problem():
    x = np.arange(10, dtype=np.float32)
    with pytest.raises(clreduce.Error, match=r"axis 2 is out of bounds .* valid axes are -1, 0 or None"):
        clreduce.sum(x, axis=2)
    with pytest.raises(clreduce.Error, match="complex128"):
        clreduce.sum(np.zeros(3, dtype=np.complex128))
    with pytest.raises(clreduce.Error, match="3 dimensions"):
        clreduce.sum(np.zeros((2, 2, 2)))
    with pytest.raises(clreduce.Error, match="lengths 10 and 9"):
        clreduce.dot(x, x[:9])
    with pytest.raises(clreduce.Error, match="ord=3"):
        clreduce.norm(x, ord=3)
    with pytest.raises(clreduce.Error, match="ddof"):
        clreduce.var(x, ddof=0.5)
    # the library's own errors: the parameter as data
    with pytest.raises(clreduce.Error) as e:
        clreduce.builtin("median", np.float32)
    assert e.value.param == "operator" and "sum" in str(e.value)
    with pytest.raises(clreduce.Error) as e:
        clreduce.builtin("dot", "f32", accumulate="u8")
    assert "accumulat" in str(e.value)


def test_segment_reduce():
    x = make_data(np.int32, (100,), "vector", ("segments",))
    offsets = np.array([0, 10, 10, 55, 100], dtype=np.int64)
    got = clreduce.segment_reduce(x, offsets, "sum")
    want = [x[a:b].sum() for a, b in zip(offsets[:-1], offsets[1:])]
    assert list(got) == want and got.dtype == np.int64
    arg = clreduce.segment_reduce(x, offsets, "argmax")
    assert arg.dtype.names == ("value", "index")
    for s, (a, b) in enumerate(zip(offsets[:-1], offsets[1:])):
        if b > a:
            assert arg["index"][s] == np.argmax(x[a:b]) and arg["value"][s] == x[a:b].max()
    with pytest.raises(clreduce.Error, match="offsets"):
        clreduce.segment_reduce(x, np.array([0, 50, 40, 100]), "sum")
    with pytest.raises(clreduce.Error, match="negative"):
        clreduce.segment_reduce(x, np.array([0, -1, 100]), "sum")
    # begin and end arrays, as CUB's: overlapping, out of order, a gap, an empty one
    begin = np.array([50, 0, 10, 95, 7], dtype=np.uint32)
    end = np.array([100, 60, 20, 95, 3], dtype=np.uint32)
    got = clreduce.segment_reduce(x, begin=begin, end=end, op="sum")
    assert list(got) == [x[b:e].sum() if e > b else 0 for b, e in zip(begin, end)]
    mx = clreduce.segment_reduce(x, begin=begin[:3], end=end[:3], op="max")
    assert list(mx) == [x[b:e].max() for b, e in zip(begin[:3], end[:3])]
    with pytest.raises(clreduce.Error, match="past the array's 100 elements"):
        clreduce.segment_reduce(x, begin=[0], end=[101])
    with pytest.raises(clreduce.Error, match="one of the two forms"):
        clreduce.segment_reduce(x, offsets, begin=begin, end=end)
    with pytest.raises(clreduce.Error, match="one of each per segment"):
        clreduce.segment_reduce(x, begin=[0, 1], end=[5])


def test_reduce_any_descriptor():
    x = make_data(np.float32, (300,), "vector", ("minmax",))
    mm = clreduce.reduce("minmax", x)
    assert mm["min"] == x.min() and mm["max"] == x.max()
    m = x.reshape(20, 15)
    rows = clreduce.reduce("sumsq", m, axis=1)
    assert np.allclose(rows, (m.astype(np.float64) ** 2).sum(axis=1))
    y = make_data(np.float32, (300,), "vector", ("sqdist",))
    assert np.isclose(clreduce.reduce("sqdist", x, y), ((x.astype(np.float64) - y) ** 2).sum(), rtol=1e-5)


def test_reduction_kernel_two_inputs_and_a_scalar():
    k = clreduce.ReductionKernel(np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]*alpha",
                                 arguments="__global const float *x, __global const float *y, float alpha")
    x = make_data(np.float32, (777,), "vector", ("rk x",))
    y = make_data(np.float32, (777,), "vector", ("rk y",))
    want = float(np.dot(x.astype(np.float64), y.astype(np.float64)))
    for alpha in (1.0, 2.5, -3.0):  # a new scalar builds nothing
        assert np.isclose(k(x, y, alpha), alpha * want, rtol=1e-5)
    m = k(x.reshape(21, 37), y.reshape(21, 37), 1.0, axis=0)
    assert np.allclose(m, (x.astype(np.float64) * y).reshape(21, 37).sum(axis=0), rtol=1e-5)
    # a struct-free integer one, by index: the count of elements whose index is even and value positive
    c = clreduce.ReductionKernel(np.uint64, "0", "a+b", "(i % 2 == 0 && v[i] > 0) ? 1 : 0", "const int *v")
    v = make_data(np.int32, (1001,), "vector", ("rk v",))
    assert c(v) == int(((np.arange(1001) % 2 == 0) & (v > 0)).sum())
    with pytest.raises(clreduce.Error, match=r"other than at x\[i\]"):
        clreduce.ReductionKernel(np.float32, "0", "a+b", "x[i+1]", "const float *x")
    with pytest.raises(clreduce.Error, match="takes 3 arguments"):
        k(x, y)
    # a broken expression: the build log, mapped
    bad = clreduce.ReductionKernel(np.float32, "0", "a+b", "x[i] +* 2", "const float *x")
    with pytest.raises(clreduce.Error, match="error"):
        bad(x)


DTYPES_ST = st.sampled_from([np.uint8, np.int16, np.int32, np.uint64, np.float16, np.float32])
FUNCS_ST = st.sampled_from(["sum", "max", "argmax", "nanmean", "var", "count_nonzero"])


@settings(max_examples=200 if FULL else 12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@seed(SEED)
@given(name=FUNCS_ST, dtype=DTYPES_ST, rows=st.integers(1, 40), cols=st.integers(1, 40),
       axis=st.sampled_from([None, 0, 1]), nans=st.sampled_from([0.0, 0.1, 1.0]), layout=st.sampled_from(["matrix", "sliced"]))
def test_property_against_numpy(name, dtype, rows, cols, axis, nans, layout):
    """Random shapes, types, axes, layouts and NaN placements against NumPy."""
    a = make_data(dtype, (rows, cols), layout, (name, rows, cols, axis, nans, layout), nan_fraction=nans)
    with np.errstate(all="ignore"), _ignore_warnings():
        got = FUNCS[name][0](a, axis=axis)
        want = reference(name, a, axis)
    check(name, a, axis, got, want)


def bf16_bits(values):
    """bfloat16 bits of float32 values that bfloat16 holds exactly (the upper half of their bits)."""
    return (np.asarray(values, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def test_bfloat16():
    """bfloat16 as a uint16 array of its bits marked with clreduce.bfloat16 (and as ml_dtypes'
    dtype where installed): read into float32, results float32 (ml_dtypes: NumPy's bfloat16)."""
    m = make_data(np.float32, (19, 23), "matrix", ("bf16",))  # quarters up to 16: exact in bfloat16
    b = clreduce.bfloat16(bf16_bits(m))
    assert clreduce.sum(b) == m.sum() and clreduce.sum(b).dtype == np.float32
    assert np.array_equal(clreduce.max(b, axis=0), m.max(axis=0))
    assert np.array_equal(clreduce.argmin(b, axis=1), m.argmin(axis=1))
    assert np.allclose(clreduce.mean(b, axis=0), m.astype(np.float64).mean(axis=0), rtol=1e-6)
    with pytest.raises(clreduce.Error, match="uint16"):
        clreduce.bfloat16(m)
    try:
        import ml_dtypes
    except ImportError:
        return
    a = m.astype(ml_dtypes.bfloat16)
    assert clreduce.sum(a).dtype == np.dtype(ml_dtypes.bfloat16)
    assert float(clreduce.sum(a)) == float(np.float32(m.sum()).astype(ml_dtypes.bfloat16))
    assert np.array_equal(clreduce.max(a, axis=1).astype(np.float32), m.max(axis=1))


def test_gil_released_while_the_device_works():
    """Another Python thread runs while a reduction works (the GIL is released): a counting thread's
    ticks never leave a gap of half a call. With the GIL held through the call, the call is one gap."""
    import threading
    import time

    x = np.ones(1 << 25, dtype=np.float32)  # 128 MiB: copied and reduced, tens of milliseconds or more
    clreduce.sum(x[:1000])  # the program built beforehand
    ticks = []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0)

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.01)
        start = time.perf_counter()
        assert clreduce.sum(x) == 1 << 25
        end = time.perf_counter()
    finally:
        done.set()
        t.join()
    inside = [start] + [v for v in ticks if start < v < end] + [end]
    gap = max(b - a for a, b in zip(inside, inside[1:]))
    assert gap < 0.5 * (end - start), "a gap of %.4f s in a call of %.4f s" % (gap, end - start)


def test_multi_device_over_three_pocl_devices():
    """Several devices: three PoCL CPU devices (POCL_DEVICES) in a child process, every part
    counted, the result NumPy's."""
    import subprocess
    import sys

    script = r"""
import numpy as np, clreduce
x = (np.arange(100003) % 1000).astype(np.int32)
pocl = [d["platform_index"] for d in clreduce.devices() if d["platform"] == "Portable Computing Language"][0]
md = clreduce.MultiDevice(indices=[0, 1, 2], platform=pocl)
assert len(md.devices) == 3, md.devices
assert md.reduce("sum", x) == x.sum()
assert sum(s["n"] for s in md.last_shares) == x.size
y = (np.arange(100003) % 7).astype(np.float32)
assert md.reduce("dot", y, y) == np.dot(y.astype(np.float64), y)
a = md.reduce("argmax", x)
assert a["index"] == np.argmax(x) and a["value"] == x.max()
print("ok", [s["n"] for s in md.last_shares])
"""
    # PoCL names its CPU devices "pthread-..." (3.x) or "cpu-..." (5.x): the platform is chosen by name.
    env = dict(os.environ, POCL_DEVICES="pthread pthread pthread")
    env.pop("CLREDUCE_DEVICE", None)
    probe = subprocess.run([sys.executable, "-c", "import clreduce; print([d['platform'] for d in clreduce.devices()])"],
                           env=env, capture_output=True, text=True)
    if "Portable Computing Language" not in probe.stdout:
        pytest.skip("PoCL is not installed here: %s" % (probe.stdout + probe.stderr).strip()[-200:])
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.startswith("ok"), out.stdout + out.stderr
