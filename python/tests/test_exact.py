"""exact=True (the library's Summation::Exact): sum, mean, dot and the Euclidean norm of float types
against Python's exact rationals (fractions.Fraction of every element, rounded once to the result's
type here, ties to even), on hypothesis' arrays of mixed magnitudes and on adversarial ones, whole
and along each axis, on NumPy and PyOpenCL arrays; the refusals."""
import math
import os
from fractions import Fraction

import numpy as np
import pytest

import clreduce
from conftest import FULL, rng_for

hypothesis = pytest.importorskip("hypothesis", reason="python3-hypothesis is not installed")
from hypothesis import given, settings, strategies as st  # noqa: E402

DEVICE = os.environ.get("CLREDUCE_DEVICE", "")


def rounded(q, dtype):
    """The rational q rounded to nearest even in dtype (float32 or float64), inf where it overflows."""
    dtype = np.dtype(dtype)
    if q == 0:
        return dtype.type(0.0)
    f = dtype.type(float(q)) if abs(q) < Fraction(2) ** 1100 else dtype.type(math.copysign(math.inf, q))
    best = None
    cands = [f]
    for direction in (math.inf, -math.inf):
        g = f
        for _ in range(2):
            g = np.nextafter(g, dtype.type(direction))
            cands.append(g)
    for c in cands:
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - q)
        if best is None or d < best[0] or (d == best[0] and int(np.asarray(c).view(
                np.uint32 if dtype == np.float32 else np.uint64)) % 2 == 0):
            best = (d, c)
    top = Fraction(float(np.finfo(dtype).max))
    half_ulp = Fraction(2) ** (int(np.finfo(dtype).maxexp) - np.finfo(dtype).nmant - 2)
    if abs(q) >= top + half_ulp:
        return dtype.type(math.copysign(math.inf, q))
    return best[1]


def exact_sum(xs):
    return sum((Fraction(float(x)) for x in np.asarray(xs, dtype=np.float64).reshape(-1)), Fraction(0))


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.tobytes() == want.tobytes(), (got, want, got.tobytes().hex(), want.tobytes().hex())


def result_dtype(dtype):
    return np.float64 if np.dtype(dtype) == np.float64 else np.float32


def mixed(draw_or_rng, n, dtype):
    rng = draw_or_rng
    vals = rng.uniform(-1, 1, n) * np.ldexp(1.0, rng.integers(-30, 30, n))
    return vals.astype(dtype)


@settings(max_examples=40 if FULL else 8, deadline=None)
@given(n=st.integers(1, 3000), dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2 ** 32))
def test_sum_mean_dot_norm_match_the_rationals(n, dtype, seed, fp64):
    if dtype == np.float64 and not fp64:
        pytest.skip("no fp64 on this device")
    rng = np.random.default_rng(seed)
    x, y = mixed(rng, n, dtype), mixed(rng, n, dtype)
    rd = result_dtype(dtype)
    s = exact_sum(x)
    same(clreduce.sum(x, exact=True), rounded(s, rd))
    same(clreduce.mean(x, exact=True), rounded(s / n, rd))
    d = sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, y)), Fraction(0))
    same(clreduce.dot(x, y, exact=True), rounded(d, rd))
    got = clreduce.norm(x, exact=True)
    q = sum((Fraction(float(a)) ** 2 for a in x), Fraction(0))
    # the rounded square root: between the squared midpoints to its neighbours
    g = Fraction(float(got))
    up = Fraction(float(np.nextafter(got, rd(np.inf))))
    down = Fraction(float(np.nextafter(got, rd(0))))
    assert ((g + down) / 2) ** 2 <= q <= ((g + up) / 2) ** 2


def test_adversarial_cancellation_ties_zeros_and_specials(fp64):
    types = [np.float32] + ([np.float64] if fp64 else [])
    for dtype in types:
        big = np.float64(1e30 if dtype == np.float32 else 1e300)
        for order in ([big, 1.0, -big], [1.0, big, -big], [-big, big, 1.0]):
            same(clreduce.sum(np.array(order, dtype=dtype), exact=True), result_dtype(dtype)(1.0))
        eps = 2.0 ** (-24 if dtype == np.float32 else -53)
        same(clreduce.sum(np.array([1.0, eps], dtype=dtype), exact=True), result_dtype(dtype)(1.0))  # a tie: to even
        tiny = np.finfo(dtype).smallest_subnormal
        same(clreduce.sum(np.array([1.0, eps, tiny], dtype=dtype), exact=True),
             np.nextafter(result_dtype(dtype)(1.0), result_dtype(dtype)(2.0)))
        same(clreduce.sum(np.array([-0.0, -0.0], dtype=dtype), exact=True), result_dtype(dtype)(-0.0))
        same(clreduce.sum(np.array([-0.0, 0.0], dtype=dtype), exact=True), result_dtype(dtype)(0.0))
        assert np.isnan(clreduce.sum(np.array([np.inf, 1.0, -np.inf], dtype=dtype), exact=True))
        assert clreduce.sum(np.array([np.inf, 1.0], dtype=dtype), exact=True) == np.inf
        mx = np.finfo(dtype).max
        assert clreduce.sum(np.array([mx, mx, -mx], dtype=dtype), exact=True) == mx
        assert clreduce.sum(np.array([mx, mx], dtype=dtype), exact=True) == np.inf


def test_axes_each_line_exact_and_the_same_bits_as_the_whole(fp64):
    rng = rng_for("exact axes")
    for dtype in [np.float32] + ([np.float64] if fp64 else []):
        a = mixed(rng, 37 * 53, dtype).reshape(37, 53)
        rd = result_dtype(dtype)
        rows = clreduce.sum(a, axis=1, exact=True)
        cols = clreduce.sum(a, axis=0, exact=True)
        same(rows, np.array([rounded(exact_sum(r), rd) for r in a], dtype=rd))
        same(cols, np.array([rounded(exact_sum(c), rd) for c in a.T], dtype=rd))
        same(clreduce.mean(a[:, 5:40], axis=0, exact=True),
             np.array([rounded(exact_sum(c) / 37, rd) for c in a[:, 5:40].T], dtype=rd))
        # a row alone, a column alone: the same bits as within the matrix
        same(clreduce.sum(np.ascontiguousarray(a[3]), exact=True), rows[3])
        same(clreduce.sum(np.ascontiguousarray(a[:, 7]), exact=True), cols[7])


def test_pyopencl_arrays_in_place(cl_queue):
    cla = pytest.importorskip("pyopencl.array")
    rng = rng_for("exact pyopencl")
    x = mixed(rng, 100003, np.float32)
    y = mixed(rng, 100003, np.float32)
    dx, dy = cla.to_device(cl_queue, x), cla.to_device(cl_queue, y)
    same(clreduce.sum(dx, exact=True), clreduce.sum(x, exact=True))
    same(clreduce.sum(dx, exact=True), rounded(exact_sum(x), np.float32))
    same(clreduce.dot(dx, dy, exact=True), clreduce.dot(x, y, exact=True))


def test_refusals():
    with pytest.raises(clreduce.Error, match="valid: f16, bf16, f32, f64"):
        clreduce.sum(np.arange(10, dtype=np.int32), exact=True)
    with pytest.raises(clreduce.Error, match="exact=True"):
        clreduce.norm(np.ones(4, dtype=np.float32), ord=1, exact=True)
    r = clreduce.builtin("sum", np.float32, exact=True)
    assert r.summation == "exact"
    assert clreduce.builtin("sum", np.float32).summation == "default"
    with pytest.raises(clreduce.Error, match="valid: sum, mean, dot, sumsq, l2"):
        clreduce.builtin("max", np.float32, exact=True)
