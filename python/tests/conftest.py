"""Shared settings of the Python module's tests (python/tests/).

The product of functions x types x axes x layouts is large and every new (reduction, type,
family) is a kernel build (about 2.5 s from cold on PoCL's CPU device), so by default the tests take
a seeded covering sample: every function at every axis, every type and layout in several items,
rotating with the seed. CLREDUCE_PY_FULL=1 runs the whole product (ctest's python_full,
label full, and the GPU run). The seed is CLREDUCE_TEST_SAMPLE_SEED, else the day (days since 1970,
UTC), as the C++ tests' samples; pytest's header prints it and the line that repeats the run.
"""
import os
import time

import numpy as np
import pytest

import clreduce

SEED = int(os.environ.get("CLREDUCE_TEST_SAMPLE_SEED") or int(time.time() // 86400))
FULL = os.environ.get("CLREDUCE_PY_FULL", "0") not in ("", "0")


def _shard():
    """CLREDUCE_TEST_SHARD=i/N, as the C++ tests take it: this process runs every N-th collected test
    from the i-th (so N processes run the whole product side by side); unset or empty: all of them."""
    text = os.environ.get("CLREDUCE_TEST_SHARD", "")
    if not text:
        return None
    try:
        i, n = (int(x) for x in text.split("/"))
    except ValueError:
        i, n = -1, 0
    if n < 1 or not 0 <= i < n:
        raise pytest.UsageError("CLREDUCE_TEST_SHARD=%r: valid: i/N with 0 <= i < N (e.g. 0/4)" % text)
    return i, n


SHARD = None


def pytest_configure(config):
    global SHARD
    SHARD = _shard()


def pytest_collection_modifyitems(config, items):
    if SHARD is None:
        return
    i, n = SHARD
    keep = [t for k, t in enumerate(items) if k % n == i]
    config.hook.pytest_deselected(items=[t for k, t in enumerate(items) if k % n != i])
    items[:] = keep


def pytest_report_header(config):
    return ["clreduce: device %s" % clreduce.use_device(os.environ.get("CLREDUCE_DEVICE", ""))["label"],
            "clreduce: %s; repeat with CLREDUCE_TEST_SAMPLE_SEED=%d" % (
                "the whole product (CLREDUCE_PY_FULL=1)" if FULL else "a covering sample, seed %d" % SEED, SEED)] + (
            ["clreduce: shard %d of %d (CLREDUCE_TEST_SHARD=%d/%d)" % (SHARD[0], SHARD[1], SHARD[0], SHARD[1])]
            if SHARD else [])


@pytest.fixture(scope="session")
def fp64():
    return clreduce.use_device(os.environ.get("CLREDUCE_DEVICE", ""))["fp64"]


@pytest.fixture(scope="session")
def cl_queue():
    """A PyOpenCL queue on the device clreduce chooses by default (its platform and name), or a skip
    saying why there is none."""
    cl = pytest.importorskip("pyopencl", reason="python3-pyopencl is not installed")
    want = clreduce.use_device(os.environ.get("CLREDUCE_DEVICE", ""))
    for p in cl.get_platforms():
        if p.name != want["platform"]:
            continue
        for d in p.get_devices():
            if d.name == want["name"]:
                ctx = cl.Context([d])
                return cl.CommandQueue(ctx)
    pytest.skip("PyOpenCL sees no device named %r on platform %r" % (want["name"], want["platform"]))


def rng_for(*key):
    """A generator seeded by the test's own key and the run's seed: each case's data repeats."""
    h = 0
    for part in key:
        for ch in str(part):
            h = (h * 131 + ord(ch)) % (1 << 61)
    return np.random.default_rng((h + SEED * 1000003) % (1 << 63))
