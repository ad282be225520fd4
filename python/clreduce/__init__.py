"""clreduce: reductions of NumPy and PyOpenCL arrays on an OpenCL device, shaped like NumPy's.

    import numpy as np, clreduce
    x = np.random.rand(1 << 20).astype(np.float32)
    clreduce.sum(x)                       # as np.sum(x): a NumPy float32
    clreduce.argmax(m, axis=1)            # one index per row, as np.argmax(m, axis=1)
    clreduce.var(x, ddof=1)               # one pass (Welford), as np.var(x, ddof=1)

A NumPy array is copied to the device and the result comes back as NumPy would return it. A
PyOpenCL array (pyopencl.array.Array) is read in place, on its own queue, with no copy: a
reduction over an axis returns a PyOpenCL array on that queue, a reduction over everything a NumPy
value. Arrays are 1-D or 2-D: C-contiguous, a 2-D view with a row stride (a[:, 3:9], a padded
matrix), or a transposed (Fortran-ordered) matrix; other NumPy layouts are copied first.

Types: NumPy's bool, uint8 .. int64, float16, float32, float64 (where the device has fp64), and
bfloat16: ml_dtypes' bfloat16 where that package is installed, else a uint16 array of bfloat16
bits marked with clreduce.bfloat16(a). Integer sums accumulate in 64 bits, float16 and bfloat16 in
float32, float32 in float32 (dtype=np.float64 accumulates in double); results then take NumPy's
result type (np.sum of int32 is int64, of float16 float16: the float32 sum rounded once).

Devices: the default is the C++ library's (CLREDUCE_DEVICE, else the first GPU, else the first
device); clreduce.use_device("1") or use_device("NVIDIA") chooses another, clreduce.devices()
lists them. Every failure raises clreduce.Error (a ValueError) whose message names the problem
and the valid choices; its attributes param, valid and device say the same as data.

Thread-safety: calls may come from several threads; each device's reducers serve one call at a
time, with the GIL released while the device works.
"""

import math
import re
import threading
import warnings

import numpy as np

from . import _clreduce as _c
from ._clreduce import Error, Reduction, builtins, kernel_dir, load_reduction, reduction_from_text

# Errors raised here carry the attributes the library's do: the parameter, its valid values, the device.
Error.param, Error.valid, Error.device = "none", "", ""

__all__ = [
    "Error", "MultiDevice", "Reduction", "ReductionKernel", "all", "any", "argmax", "argmin", "bfloat16", "builtin",
    "builtins", "count_nonzero", "devices", "dot", "kernel_dir", "load_reduction", "max", "mean", "min", "nanmax",
    "nanmean", "nanmin", "nansum", "norm", "reduce", "reduction_from_text", "segment_reduce", "std",
    "sum", "use_device", "var",
]

# ---- devices ------------------------------------------------------------------------------------

_lock = threading.Lock()
_default_session = None
_queue_sessions = {}  # PyOpenCL queue int_ptr -> (queue, Session): the queue kept alive with it


def devices():
    """Every OpenCL device, as dicts (name, platform, indices, type, memory, fp64, label)."""
    return _c.devices()


def use_device(device=""):
    """Make `device` the default for NumPy arrays: an index ("0", "1") or a part of its name, as
    clreduce --device; "" goes back to CLREDUCE_DEVICE, else the first GPU. Returns its dict."""
    global _default_session
    s = _c.Session(str(device))
    with _lock:
        _default_session = s
    return s.device


def _session_default():
    global _default_session
    with _lock:
        if _default_session is None:
            _default_session = _c.Session("")
        return _default_session


def _session_of_queue(queue):
    key = queue.int_ptr
    with _lock:
        hit = _queue_sessions.get(key)
        if hit is None or hit[0] is not queue:
            hit = (queue, _c.Session.from_queue(key))
            _queue_sessions[key] = hit
        return hit[1]


# ---- types --------------------------------------------------------------------------------------

_TYPE_NAMES = {
    np.dtype(np.uint8): "u8", np.dtype(np.int8): "i8", np.dtype(np.uint16): "u16", np.dtype(np.int16): "i16",
    np.dtype(np.uint32): "u32", np.dtype(np.int32): "i32", np.dtype(np.uint64): "u64", np.dtype(np.int64): "i64",
    np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
}
_NUMPY_OF = {v: k for k, v in _TYPE_NAMES.items()}
try:  # bfloat16 as NumPy spells it with ml_dtypes, where installed
    import ml_dtypes as _ml_dtypes

    _BF16 = np.dtype(_ml_dtypes.bfloat16)
    _TYPE_NAMES[_BF16] = "bf16"
except ImportError:  # pragma: no cover - depends on the machine
    _BF16 = None


class bfloat16:
    """A uint16 array (NumPy or PyOpenCL) read as bfloat16 bits, where ml_dtypes is not installed:
    clreduce.sum(clreduce.bfloat16(bits)). Results are float32 (bfloat16 values are exact in it)."""

    def __init__(self, array):
        if np.dtype(array.dtype) != np.dtype(np.uint16):
            raise Error("clreduce.bfloat16 takes an array of uint16 (the bfloat16 bits), not %s" % array.dtype)
        self.array = array

    @property
    def shape(self):
        return self.array.shape

    @property
    def ndim(self):
        return len(self.array.shape)


_CL_ARRAY = None  # pyopencl.array.Array, once an array of it is seen (the fast path's type test)


def _is_pyopencl(a):
    global _CL_ARRAY
    t = type(a)
    if t is _CL_ARRAY:
        return True
    if t.__module__.startswith("pyopencl") and hasattr(a, "base_data") and hasattr(a, "queue"):
        if t.__name__ == "Array":
            _CL_ARRAY = t
        return True
    return False


def _type_name(dtype):
    t = _TYPE_NAMES.get(np.dtype(dtype))
    if t is None:
        raise Error("arrays of %s cannot be reduced: the types are bool, uint8, int8, uint16, int16, uint32, int32, "
                    "uint64, int64, float16, bfloat16, float32, float64" % np.dtype(dtype))
    return t


class _Operand:
    """One input array as the library reads it: its type, its shape (n, or rows x cols with a row
    stride ld) and where it lives (a C-contiguous host span, or a device buffer and element offset)."""

    def __init__(self, a, allow_2d=True):
        bf16 = isinstance(a, bfloat16)
        if bf16:
            a = a.array
        self.device = _is_pyopencl(a)
        if not self.device and not isinstance(a, np.ndarray):
            a = np.asarray(a)
        dtype = np.dtype(a.dtype)
        self.is_bool = dtype == np.dtype(np.bool_)
        self.type = "bf16" if bf16 else ("u8" if self.is_bool else _type_name(dtype))
        self.dtype = dtype
        self.itemsize = dtype.itemsize
        shape = tuple(a.shape)
        if len(shape) > 2 or (len(shape) == 2 and not allow_2d):
            raise Error("an array of %d dimensions: clreduce reduces 1-D%s arrays" % (len(shape), " and 2-D" if allow_2d else ""))
        if len(shape) == 0:
            shape = (1,)
            a = a.reshape(1)
        self.shape = shape
        self.transposed = False  # a Fortran-ordered matrix read as its C-ordered transpose
        self.size = math.prod(shape)
        self.queue = a.queue if self.device else None
        if self.device:
            self._place_device(a)
        else:
            self._place_host(a)

    def _place_host(self, a):
        if self.is_bool:
            a = a.view(np.uint8)
        self.original = a
        if len(self.shape) == 1:
            self.host = np.ascontiguousarray(a)
            self.rows, self.cols, self.ld = 1, self.shape[0], self.shape[0]
            return
        rows, cols = self.shape
        s0, s1 = a.strides
        if a.flags.c_contiguous or (s1 == self.itemsize and s0 % self.itemsize == 0 and s0 >= cols * self.itemsize
                                    and rows > 0 and cols > 0):
            ld = s0 // self.itemsize if rows > 1 else cols
            span = (rows - 1) * ld + cols if rows and cols else 0
            self.host = np.lib.stride_tricks.as_strided(a, shape=(span,), strides=(self.itemsize,)) if span else a.reshape(-1)
            self.rows, self.cols, self.ld = rows, cols, ld
        elif a.flags.f_contiguous:
            self.host = np.ascontiguousarray(a.T).reshape(-1)
            self.rows, self.cols, self.ld, self.transposed = cols, rows, rows, True
        else:
            self.host = np.ascontiguousarray(a).reshape(-1)
            self.rows, self.cols, self.ld = rows, cols, cols

    def _place_device(self, a):
        if a.offset % self.itemsize:
            raise Error("a PyOpenCL array starting %d bytes into its buffer: the offset must be a whole number of "
                        "elements (%d bytes each)" % (a.offset, self.itemsize))
        first = a.offset // self.itemsize
        self.handle = a.base_data.int_ptr if a.base_data is not None else 0
        if len(self.shape) == 1:
            if self.shape[0] > 1 and a.strides[0] != self.itemsize:
                raise Error("a PyOpenCL array with a stride of %d bytes: clreduce reads 1-D arrays whose elements are "
                            "adjacent (make one with .copy())" % a.strides[0])
            self.rows, self.cols, self.ld, self.offset = 1, self.shape[0], self.shape[0], first
            return
        rows, cols = self.shape
        s0, s1 = a.strides
        if a.flags.c_contiguous or (s1 == self.itemsize and s0 % self.itemsize == 0 and s0 >= cols * self.itemsize):
            self.rows, self.cols, self.ld = rows, cols, (s0 // self.itemsize if rows > 1 else cols)
        elif s0 == self.itemsize and s1 % self.itemsize == 0 and s1 >= rows * self.itemsize:
            self.rows, self.cols, self.ld, self.transposed = cols, rows, (s1 // self.itemsize if cols > 1 else rows), True
        else:
            raise Error("a PyOpenCL matrix with strides %s: clreduce reads rows of adjacent elements (a C- or "
                        "Fortran-ordered matrix, or a view with a row stride)" % (tuple(a.strides),))
        self.offset = first

    def dense(self):
        """True when the matrix's elements are adjacent (ld == cols): it can be read as one vector."""
        return self.ld == self.cols or self.rows == 1

    def input(self):
        return _c.DeviceInput(self.handle, self.offset) if self.device else self.host


def _session_for(ops):
    device = [o for o in ops if o.device]
    if not device:
        return _session_default()
    if len(device) != len(ops):
        raise Error("inputs on the host and on a device together: pass all NumPy arrays or all PyOpenCL arrays")
    q = device[0].queue
    for o in device[1:]:
        if o.queue.context.int_ptr != q.context.int_ptr:
            raise Error("PyOpenCL arrays of different contexts: a reduction reads its inputs on one context")
    return _session_of_queue(q)


# ---- the one path: a descriptor over one family --------------------------------------------------

def _axis_of(op, axis):
    if axis is None:
        return None
    if isinstance(axis, tuple):
        if len(axis) == len(op.shape) and sorted(a % len(op.shape) for a in axis) == list(range(len(op.shape))):
            return None
        if len(axis) == 1:
            axis = axis[0]
        else:
            raise Error("axis=%r: one axis of a %d-D array, or None" % (axis, len(op.shape)))
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise Error("axis=%r: an integer or None" % (axis,))
    nd = len(op.shape)
    if not -nd <= axis < nd:
        raise Error("axis %d is out of bounds for an array of %d dimension%s: valid axes are %s or None"
                    % (axis, nd, "s" if nd > 1 else "", ", ".join(str(k) for k in range(-nd, nd))))
    axis %= nd
    if nd == 1:
        return None
    return axis


def _family(op, axis):
    """The library's family for NumPy's `axis` (None, 0 or 1) and the count of results."""
    if axis is None:
        return "whole", 1
    # NumPy's axis 0 of a rows x cols matrix reduces down the columns: one result per column.
    cols_of_user = (axis == 0) != op.transposed
    return ("cols", op.cols) if cols_of_user else ("rows", op.rows)


_layout_cache = {}


def _layout_dtype(r):
    """The NumPy dtype of one result of descriptor r as its bytes lie."""
    key = r.layout
    dt = _layout_cache.get(key)
    if dt is None:
        dt = _layout_cache[key] = _make_layout_dtype(r)
    return dt


def _make_layout_dtype(r):
    t = np.dtype(_NUMPY_OF[r.out_scalar])
    if r.out_kind == _c.LayoutKind.Value:
        return t
    if r.out_kind == _c.LayoutKind.Arg:
        return np.dtype({"names": ["value", "index"], "formats": [t, np.uint64], "offsets": [0, 8], "itemsize": 16})
    return np.dtype({"names": ["min", "max"], "formats": [t, t], "offsets": [0, t.itemsize], "itemsize": 2 * t.itemsize})


def _run(r, ops, axis, scalars=(), session=None):
    """Runs descriptor r over the operands (all of one shape) along NumPy's axis. Returns the raw
    results: a NumPy array of _layout_dtype(r) (host inputs, or axis None), or a PyOpenCL array of
    it (device inputs with an axis). The caller has handled empty arrays."""
    first = ops[0]
    for o in ops[1:]:
        if o.shape != first.shape:
            raise Error("inputs of shapes %s and %s: every input of a reduction has the same shape" % (first.shape, o.shape))
        if (o.rows, o.cols, o.ld, o.transposed) != (first.rows, first.cols, first.ld, first.transposed):
            raise Error("inputs of the same shape laid out differently (row strides %d and %d): pass them alike"
                        % (first.ld, o.ld))
    kind, count = _family(first, axis)
    s = session or _session_for(ops)
    fam = _c.Family()
    if kind == "whole" and not first.dense():
        kind, fam_rows = "rows", True  # a strided matrix as a whole: its rows, folded below
    else:
        fam_rows = False
    fam.kind = kind
    fam.n = first.size
    fam.rows, fam.cols, fam.ld = first.rows, first.cols, first.ld
    dt = _layout_dtype(r)
    device = first.device and kind != "whole"
    if fam_rows:
        raw = _run_strided_whole(s, r, ops, fam, dt, scalars)
        return raw
    if device:
        import pyopencl.array as cla

        out = cla.empty(first.queue, (count,), dt)
        ev = s.run(r, [o.input() for o in ops], fam, list(scalars), out.base_data.int_ptr, 0)
        _adopt_event(out, ev)
        return out
    raw = s.run(r, [o.input() for o in ops], fam, list(scalars))
    return raw.view(dt)


def _run_strided_whole(s, r, ops, fam, dt, scalars):
    """A whole-array reduction of a matrix with a row stride: the dense copy of a host one (NumPy
    copies it), or, on a device, a contiguous copy made on the device first."""
    first = ops[0]
    fam.kind = "whole"
    fam.n = first.rows * first.cols
    if not first.device:
        dense = [np.ascontiguousarray(o.original).reshape(-1) for o in ops]
        return s.run(r, dense, fam, list(scalars)).view(dt)
    import pyopencl as cl
    import pyopencl.array as cla

    copies = []
    for o in ops:
        dense = cla.empty(o.queue, (o.rows * o.cols,), o.dtype if o.type != "bf16" else np.uint16)
        cl.enqueue_copy(o.queue, dense.base_data, _buffer(o), src_origin=(o.offset * o.itemsize, 0),
                        dst_origin=(0, 0), region=(o.cols * o.itemsize, o.rows),
                        src_pitches=(o.ld * o.itemsize, 0), dst_pitches=(o.cols * o.itemsize, 0))
        copies.append(_c.DeviceInput(dense.base_data.int_ptr, 0))
    raw = s.run(r, copies, fam, list(scalars))
    return raw.view(dt)


def _buffer(o):
    import pyopencl as cl

    return cl.Buffer.from_int_ptr(o.handle, retain=True)


def _adopt_event(array, handle):
    import pyopencl as cl

    if handle:
        array.add_event(cl.Event.from_int_ptr(handle, retain=False))


def _field(raw, name, dtype=None):
    """A field of raw results (value, index, min, max) as a plain array, on the host or the device."""
    if not hasattr(raw, "queue"):
        f = raw[name] if name else raw
        return f if dtype is None or f.dtype == dtype else f.astype(dtype)
    import pyopencl as cl
    import pyopencl.array as cla

    dt = raw.dtype
    if name is None:
        out = raw
    else:
        offset = dt.fields[name][1]
        ftype = dt.fields[name][0]
        out = cla.empty(raw.queue, raw.shape, ftype)
        if raw.size:
            cl.enqueue_copy(raw.queue, out.base_data, raw.base_data, src_origin=(offset, 0), dst_origin=(0, 0),
                            region=(ftype.itemsize, raw.size), src_pitches=(dt.itemsize, 0),
                            dst_pitches=(ftype.itemsize, 0))
    if dtype is not None and np.dtype(dtype) != out.dtype:
        out = _device_cast(out, np.dtype(dtype))
    return out


_half_kernels = {}


def _device_cast(x, dtype):
    """x.astype(dtype) on the device; to float16 through vstore_half_rte (core OpenCL C: PyOpenCL's
    astype needs cl_khr_fp16 for half, which few devices report)."""
    if dtype == np.dtype(np.float64) and not x.queue.device.double_fp_config:
        # No fp64 on the device: the few results (one a row or column) converted on the host.
        import pyopencl.array as cla

        return cla.to_device(x.queue, x.get().astype(np.float64))
    if dtype != np.dtype(np.float16):
        return x.astype(dtype)
    import pyopencl.array as cla
    from pyopencl.elementwise import ElementwiseKernel

    src = x if x.dtype == np.float32 else x.astype(np.float32)
    key = src.context.int_ptr
    k = _half_kernels.get(key)
    if k is None:
        k = ElementwiseKernel(src.context, "__global const float *x, __global ushort *y",
                              "vstore_half_rte(x[i], i, (__global half *)y)", "clreduce_to_half")
        _half_kernels[key] = k
    bits = cla.empty(src.queue, src.shape, np.uint16)
    k(src, bits)
    return bits.view(np.float16)


def _finish(result, axis, out, scalar_type=None):
    """NumPy's return: a NumPy scalar for axis None, else the array; written into `out` if given."""
    if axis is None and not hasattr(result, "queue"):
        value = result[0]
        if scalar_type is not None:
            value = scalar_type(value)
        if out is not None:
            _write_out(out, np.asarray(value))
            return out
        return value
    if out is not None:
        _write_out(out, result)
        return out
    return result


def _write_out(out, result):
    if _is_pyopencl(out):
        if tuple(out.shape) != tuple(np.shape(result)):
            raise Error("out= has shape %s where the result has %s" % (tuple(out.shape), tuple(np.shape(result))))
        if hasattr(result, "queue"):
            if result.dtype != out.dtype:
                result = result.astype(out.dtype)
            out[...] = result
        else:
            out.set(np.ascontiguousarray(np.asarray(result, dtype=out.dtype)))
        return
    if not isinstance(out, np.ndarray):
        raise Error("out= must be a NumPy or PyOpenCL array, not %s" % type(out).__name__)
    if hasattr(result, "queue"):
        result = result.get()
    if out.shape != np.shape(result):
        raise Error("out= has shape %s where the result has %s" % (out.shape, np.shape(result)))
    out[...] = result


# ---- empty arrays: NumPy's answers without a launch ---------------------------------------------

def _result_shape(op, axis):
    if axis is None:
        return ()
    rows, cols = op.shape
    return (cols,) if axis == 0 else (rows,)


def _reduced_extent(op, axis):
    if axis is None:
        return op.size
    return op.shape[axis]


def _empty(op, axis, fill, dtype, name, out):
    """The result where a reduction sees no elements, or makes no results."""
    shape = _result_shape(op, axis)
    nothing_reduced = _reduced_extent(op, axis) == 0
    results = math.prod(shape)
    if fill is None and nothing_reduced and (results or axis is None):
        raise ValueError("zero-size array to reduction operation %s which has no identity" % name)
    if isinstance(fill, float) and math.isnan(fill) and nothing_reduced and results:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
    host = np.full(shape, fill if fill is not None else 0, dtype=dtype)
    if op.device and axis is not None:
        import pyopencl.array as cla

        host = cla.to_device(op.queue, host)
    if axis is None:
        return _finish(host.reshape(1), None, out)
    return _finish(host, axis, out)


def _is_empty(op, axis):
    return op.size == 0


# ---- result types, as NumPy's -------------------------------------------------------------------

def _sum_dtype(op):
    if op.type == "bf16":
        return _BF16 if _BF16 is not None and op.dtype == _BF16 else np.dtype(np.float32)
    if op.is_bool:
        return np.dtype(np.int64)
    k = op.dtype.kind
    if k == "u":
        return np.dtype(np.uint64)
    if k == "i":
        return np.dtype(np.int64)
    return op.dtype


def _float_dtype(op):
    """NumPy's result type of a mean, var or norm: the float type for floats, float64 otherwise."""
    if op.type == "bf16":
        return _BF16 if _BF16 is not None and op.dtype == _BF16 else np.dtype(np.float32)
    return op.dtype if op.dtype.kind == "f" else np.dtype(np.float64)


def _value_dtype(op):
    if op.is_bool:
        return np.dtype(np.bool_)
    if op.type == "bf16" and not (_BF16 is not None and op.dtype == _BF16):
        return np.dtype(np.float32)
    return op.dtype


def _accumulate(s, op, dtype, float_result):
    """'f64' where the device has fp64 and double is asked for (dtype=float64), or the result is
    float64 anyway (a mean or variance of integers, of float64)."""
    want = (dtype is not None and np.dtype(dtype) == np.dtype(np.float64)) or (
        float_result and op.dtype.kind in "biu" and op.type != "bf16")
    if want and op.type != "f64" and s.fp64:
        return "f64"
    return None


_builtin_cache = {}


def _builtin(name, op, accumulate=None, exact=False):
    """The built-in descriptor, made once per (name, type, accumulator, exact) and reused: a call
    then costs a dictionary lookup, not the descriptor's construction (the functions' calls at
    small n are mostly such overheads)."""
    key = (name, op.type, accumulate, exact)
    r = _builtin_cache.get(key)
    if r is None:
        r = _builtin_cache[key] = _c.builtin(name, op.type, accumulate, exact)
    return r


# ---- the short path: a whole-array call on a contiguous PyOpenCL array -------------------------
#
# A Python call costs its checks and conversions on top of the C++ call; on the H200 the general
# path added about 17 us to the C++ call's 26 us at one element (bench/NOTES.md, session 18). For
# the common call (a C-contiguous PyOpenCL array, axis, dtype and out left alone) the decisions the
# general path makes per call (the descriptor, the accumulator, the result's type and field)
# depend on the function, the element type and the device only: they are made once, by the
# general path's own helpers, and kept as a plan; a call then checks the array, looks the plan up
# and makes one C++ call (Session.whole_value) that returns Python numbers.

_MISS = object()
_plans = {}          # (function, dtype, fp64) -> (Reduction, convert)
_fast_sessions = {}  # id(queue) -> (queue, Session, fp64)


def _fast_session(queue):
    hit = _fast_sessions.get(id(queue))
    if hit is None or hit[0] is not queue:
        s = _session_of_queue(queue)
        hit = _fast_sessions[id(queue)] = (queue, s, s.fp64)
    return hit


def _make_plan(name, a, fp64):
    """The descriptor and the conversion of its value for function `name` over arrays like `a`,
    decided as the general path decides them."""
    op = _Operand(a)
    acc_float = "f64" if fp64 and op.dtype.kind in "biu" else None  # _accumulate's rule, float results
    if name in ("sum", "nansum"):
        t = _sum_dtype(op)
        return _builtin(name, op), t.type
    if name in ("mean", "nanmean", "norm"):
        t = _float_dtype(op)
        return _builtin("l2" if name == "norm" else name, op, acc_float), t.type
    if name in ("var_pop", "var_sample", "std_pop", "std_sample"):
        return _builtin(name, op, acc_float), _float_dtype(op).type
    if name in ("min", "max"):
        t = _value_dtype(op).type
        if op.dtype.kind == "f":
            return _builtin("arg" + name, op), lambda v: t(v[0])
        return _builtin(name, op), t
    if name in ("nanmin", "nanmax"):
        return _builtin(name, op), _value_dtype(op).type
    if name in ("argmin", "argmax"):
        return _builtin(name, op), lambda v: np.int64(v[1])
    if name == "count_nonzero":
        return _builtin(name, op), int
    if name in ("any", "all"):
        return _builtin(name, op), np.bool_
    if name == "dot":
        t = (np.dtype(np.bool_) if op.is_bool else op.dtype).type
        if op.dtype.kind in "iu":  # NumPy's integer dot wraps in its type: the 64-bit value's low bits
            wide = np.int64 if op.dtype.kind == "i" else np.uint64
            return _builtin("dot", op), lambda v: wide(v).astype(t)
        return _builtin("dot", op), t
    raise AssertionError(name)


def _fast(name, a, b=None):
    """The function's value for a whole C-contiguous PyOpenCL array (and b, for dot, alike), or
    _MISS where the general path must decide (any other array, an empty one, a view that starts
    inside an element)."""
    if _CL_ARRAY is None:
        _is_pyopencl(a)  # the process's first PyOpenCL array teaches the type test its type
    if type(a) is not _CL_ARRAY:  # any other array, a subclass too: the general path decides
        return _MISS
    n = a.size
    if not n or not a.flags.c_contiguous:
        return _MISS
    dtype = a.dtype
    off = a.offset
    size = dtype.itemsize
    if off % size:
        return _MISS
    handle2 = 0
    if b is not None:
        if type(b) is not _CL_ARRAY or b.dtype != dtype or b.size != n or b.offset != off or not b.flags.c_contiguous \
                or b.queue is not a.queue:
            return _MISS
        handle2 = b.base_data.int_ptr
    queue, s, fp64 = _fast_session(a.queue)
    key = (name, dtype, fp64)
    plan = _plans.get(key)
    if plan is None:
        if dtype not in _TYPE_NAMES and dtype != np.dtype(np.bool_):
            return _MISS
        plan = _plans[key] = _make_plan(name, a, fp64)
    r, convert = plan
    return convert(s.whole_value(r, a.base_data.int_ptr, handle2, off // size, n))


# ---- NumPy's functions --------------------------------------------------------------------------

def _simple(name, a, axis, out, dtype_of, fill, builtin_name=None, accumulate_float=False, dtype=None, nan_name=None,
            exact=False):
    if axis is None and dtype is None and out is None and not exact:
        v = _fast(name, a)
        if v is not _MISS:
            return v
    op = _Operand(a)
    ax = _axis_of(op, axis)
    rdt = np.dtype(dtype) if dtype is not None else dtype_of(op)
    if _is_empty(op, ax):
        return _empty(op, ax, fill, rdt, nan_name or name, out)
    s = _session_for([op])
    acc = _accumulate(s, op, dtype, accumulate_float)
    r = _builtin(builtin_name or name, op, acc, exact)
    raw = _run(r, [op], ax, session=s)
    return _finish(_field(raw, None, rdt), ax, out)


def sum(a, axis=None, dtype=None, out=None, exact=False):
    """np.sum: integers exact in 64 bits (then NumPy's result type, or `dtype`, modulo its width),
    float16/bfloat16 in float32, float32 in float32 (dtype=np.float64: in double). exact=True (float
    types): the exact sum of the elements rounded once to the result type, the same bits on every
    launch, device and axis split (float16 and bfloat16: rounded once to float32, the library's
    result, then to NumPy's result type)."""
    return _simple("sum", a, axis, out, _sum_dtype, 0, dtype=dtype, nan_name="add", exact=exact)


def nansum(a, axis=None, dtype=None, out=None):
    """np.nansum: the sum with NaN elements skipped (0 where all are NaN)."""
    return _simple("nansum", a, axis, out, _sum_dtype, 0, dtype=dtype)


def mean(a, axis=None, dtype=None, out=None, exact=False):
    """np.mean: the sum (exact for integers) over the count; float64 for integers (computed in
    double where the device has fp64, else float32), the float type for floats. exact=True (float
    types): the exact sum divided by the count, rounded once."""
    return _simple("mean", a, axis, out, _float_dtype, float("nan"), accumulate_float=True, dtype=dtype, exact=exact)


def nanmean(a, axis=None, dtype=None, out=None):
    """np.nanmean: the mean of the elements that are not NaN (NaN where all are)."""
    return _simple("nanmean", a, axis, out, _float_dtype, float("nan"), accumulate_float=True, dtype=dtype)


def count_nonzero(a, axis=None):
    """np.count_nonzero: a Python int for axis None, else an int64 array (NaN counts as nonzero)."""
    if axis is None:
        v = _fast("count_nonzero", a)
        if v is not _MISS:
            return v
    op = _Operand(a)
    ax = _axis_of(op, axis)
    if _is_empty(op, ax):
        v = _empty(op, ax, 0, np.dtype(np.int64), "count_nonzero", None)
        return int(v) if ax is None else v
    raw = _run(_builtin("count_nonzero", op), [op], ax)
    res = _field(raw, None, np.int64)
    return int(np.asarray(res).reshape(-1)[0]) if ax is None else res


def any(a, axis=None, out=None):
    """np.any: True where any element is nonzero (NaN counts)."""
    return _simple("any", a, axis, out, lambda op: np.dtype(np.bool_), False)


def all(a, axis=None, out=None):
    """np.all: True where every element is nonzero (NaN counts)."""
    return _simple("all", a, axis, out, lambda op: np.dtype(np.bool_), True)


def _minmax(name, a, axis, out):
    if axis is None and out is None:
        v = _fast(name, a)
        if v is not _MISS:
            return v
    op = _Operand(a)
    ax = _axis_of(op, axis)
    rdt = _value_dtype(op)
    if _is_empty(op, ax):
        return _empty(op, ax, None, rdt, _EMPTY_NAMES[name], out)
    # NumPy's min and max return NaN where a NaN is present; the library's min and max skip NaN
    # (fmin/fmax, which is what nanmin and nanmax are), and its argmin/argmax take the first NaN:
    # their value is NumPy's min and max.
    if name in ("min", "max") and (op.dtype.kind == "f" or op.type == "bf16"):
        raw = _run(_builtin("arg" + name, op), [op], ax)
        return _finish(_field(raw, "value", rdt), ax, out)
    raw = _run(_builtin(name, op), [op], ax)
    return _finish(_field(raw, None, rdt), ax, out)


_EMPTY_NAMES = {"min": "minimum", "max": "maximum", "nanmin": "fmin", "nanmax": "fmax"}  # NumPy's words


def min(a, axis=None, out=None):
    """np.min (np.amin): the least element; NaN where a NaN is present, as NumPy."""
    return _minmax("min", a, axis, out)


def max(a, axis=None, out=None):
    """np.max (np.amax): the greatest element; NaN where a NaN is present, as NumPy."""
    return _minmax("max", a, axis, out)


def nanmin(a, axis=None, out=None):
    """np.nanmin: the least element that is not NaN (NaN where all are)."""
    return _minmax("nanmin", a, axis, out)


def nanmax(a, axis=None, out=None):
    """np.nanmax: the greatest element that is not NaN (NaN where all are)."""
    return _minmax("nanmax", a, axis, out)


def _arg(name, a, axis, out):
    if axis is None and out is None:
        v = _fast(name, a)
        if v is not _MISS:
            return v
    op = _Operand(a)
    ax = _axis_of(op, axis)
    if _is_empty(op, ax):
        raise ValueError("attempt to get %s of an empty sequence" % name)
    if ax is None and len(op.shape) == 2 and (op.transposed or not op.dense()):
        op = _Operand(_flat_copy(a))  # NumPy's flat index counts in C order
    raw = _run(_builtin(name, op), [op], ax)
    return _finish(_field(raw, "index", np.int64), ax, out, scalar_type=np.int64)


def _flat_copy(a):
    if _is_pyopencl(a):
        raise Error("argmin/argmax over the whole of a PyOpenCL matrix that is not C-contiguous: its flat index "
                    "counts in C order; pass a C-contiguous copy, or an axis")
    return np.ascontiguousarray(a.array if isinstance(a, bfloat16) else a)


def argmin(a, axis=None, out=None):
    """np.argmin: the index of the first least element (of the first NaN where one is present)."""
    return _arg("argmin", a, axis, out)


def argmax(a, axis=None, out=None):
    """np.argmax: the index of the first greatest element (of the first NaN where one is present)."""
    return _arg("argmax", a, axis, out)


def _var(kind, a, axis, dtype, out, ddof):
    if axis is None and dtype is None and out is None and ddof in (0, 1) and not isinstance(ddof, bool) \
            and getattr(a, "size", 0) > ddof:
        v = _fast("%s_%s" % (kind, "pop" if ddof == 0 else "sample"), a)
        if v is not _MISS:
            return v
    op = _Operand(a)
    ax = _axis_of(op, axis)
    rdt = np.dtype(dtype) if dtype is not None else _float_dtype(op)
    if isinstance(ddof, bool) or not isinstance(ddof, (int, np.integer)):
        raise Error("ddof=%r: a whole number (0: population, 1: sample)" % (ddof,))
    if _is_empty(op, ax):
        return _empty(op, ax, float("nan"), rdt, kind, out)
    s = _session_for([op])
    acc = _accumulate(s, op, dtype, True)
    n = _reduced_extent(op, ax)
    if n <= ddof:
        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=3)
    if ddof in (0, 1):
        name = "%s_%s" % (kind, "pop" if ddof == 0 else "sample")
        raw = _run(_builtin(name, op, acc), [op], ax)
        res = _field(raw, None, None)
    else:
        raw = _run(_builtin("var_pop", op, acc), [op], ax)
        res = _field(raw, None, None)
        factor = n / (n - ddof) if n > ddof else float("inf")
        with np.errstate(invalid="ignore"):  # 0 x inf where n <= ddof: NaN, after the warning above
            res = res * np.float64(factor).astype(res.dtype)
        if kind == "std":
            res = np.sqrt(res) if not hasattr(res, "queue") else _device_sqrt(res)
    return _finish(_field(res, None, rdt), ax, out)


def _device_sqrt(x):
    import pyopencl.clmath as clmath

    return clmath.sqrt(x)


def var(a, axis=None, dtype=None, out=None, ddof=0):
    """np.var in one pass (Welford's count, mean and M2 per work-item, combined by Chan's formula):
    ddof 0 the population's, 1 the sample's, any other from the population's times n / (n - ddof)."""
    return _var("var", a, axis, dtype, out, ddof)


def std(a, axis=None, dtype=None, out=None, ddof=0):
    """np.std: the square root of var(a, axis, ddof=ddof)."""
    return _var("std", a, axis, dtype, out, ddof)


def dot(a, b, out=None, exact=False):
    """np.dot of two 1-D arrays of one length: the sum of a[i] * b[i] (integers modulo 2^64, then
    NumPy's result type; floats in their type, float16 in float32). exact=True (float types): the
    exact sum of the exact products, rounded once."""
    if out is None and not exact:
        v = _fast("dot", a, b)
        if v is not _MISS:
            return v
    x, y = _Operand(a, allow_2d=False), _Operand(b, allow_2d=False)
    if x.shape != y.shape:
        raise Error("dot of arrays of lengths %d and %d: the lengths must be equal" % (x.size, y.size))
    if x.type != y.type:
        if x.device or y.device:
            raise Error("dot of PyOpenCL arrays of %s and %s: the types must be equal (convert one with .astype)"
                        % (x.dtype, y.dtype))
        common = np.result_type(x.dtype, y.dtype)
        x = _Operand(np.asarray(a).astype(common), allow_2d=False)
        y = _Operand(np.asarray(b).astype(common), allow_2d=False)
    rdt = np.result_type(x.dtype, y.dtype) if not x.is_bool else np.dtype(np.bool_)
    if x.type == "bf16":
        rdt = _value_dtype(x)
    if x.size == 0:
        return _finish(np.zeros(1, dtype=rdt), None, out)
    raw = _run(_builtin("dot", x, None, exact), [x, y], None)
    return _finish(_field(raw, None, rdt), None, out)


def norm(x, ord=None, axis=None, exact=False):
    """np.linalg.norm of a vector (or of each row or column with `axis`, or of a whole matrix, the
    Frobenius norm): ord None or 2 the Euclidean norm (overflow-safe, as LAPACK's nrm2), 1 the sum of
    magnitudes, inf the largest magnitude. Float types keep their type, integers give float64.
    exact=True (the Euclidean norm of float types): the square root of the exact sum of squares,
    rounded once."""
    if ord is None and axis is None and not exact:  # a vector's 2-norm, or a whole matrix's Frobenius norm: one sum
        v = _fast("norm", x)
        if v is not _MISS:
            return v
    op = _Operand(x)
    ax = _axis_of(op, axis)
    if ax is None and len(op.shape) == 2 and ord not in (None, "fro"):
        raise Error("norm ord=%r of a whole matrix is a matrix norm: clreduce computes ord None or 'fro' of a "
                    "matrix (its Frobenius norm), and vector norms (ord None, 1, 2, inf) of a vector or along an axis" % (ord,))
    names = {None: "l2", "fro": "l2", 2: "l2", 1: "l1", math.inf: "linf"}
    if ord not in names or (ord == "fro" and len(op.shape) == 1):
        raise Error("norm ord=%r: clreduce's vector norms are ord None or 2 (Euclidean), 1, and inf" % (ord,))
    rdt = _float_dtype(op)
    if _is_empty(op, ax):
        return _empty(op, ax, 0.0, rdt, "norm", None)
    s = _session_for([op])
    name = names[ord]
    if exact and name != "l2":
        raise Error("norm ord=%r with exact=True: exact summation gives the Euclidean norm (ord None, 2 or "
                    "'fro'); the others take no sum of squares" % (ord,))
    acc = _accumulate(s, op, None, True) if name == "l2" else None
    raw = _run(_builtin(name, op, acc, exact), [op], ax)
    return _finish(_field(raw, None, rdt), ax, None)


def _segment_bounds(values, what, count_extra, n, device):
    """One array of segment bounds (CSR offsets: S + 1 values; begins or ends: S) as the library
    takes it: a PyOpenCL array in place, as (handle, clreduce type, length); a host one checked
    (integers, 0..n) and as a list. Raises Error naming `what`."""
    if _is_pyopencl(values):
        if not device:
            raise Error("PyOpenCL %s for a NumPy array: pass both on the host or both on the device" % what)
        t = _TYPE_NAMES.get(np.dtype(values.dtype))
        if t not in ("u32", "u64", "i32", "i64") or len(values.shape) != 1 or values.size < 1 + count_extra:
            raise Error("segment %s: a 1-D array of uint32, uint64, int32 or int64 values, not %s of %s"
                        % (what, tuple(values.shape), values.dtype))
        if values.offset:
            raise Error("segment %s at an offset into their buffer: pass an array that starts its buffer" % what)
        return values.base_data.int_ptr, t, values.size
    v = np.asarray(values)
    if v.ndim != 1 or v.size < 1 + count_extra or v.dtype.kind not in "iu":
        raise Error("segment %s: a 1-D integer array of %s, not %s of %s"
                    % (what, "S + 1 values (0 first, len(a) last)" if count_extra else "S values", v.shape, v.dtype))
    if v.size and v.dtype.kind == "i" and v.min() < 0:
        raise Error("segment %s: %d is negative; they count elements from 0" % (what, int(v.min())))
    if v.size and int(v.max()) > n:
        raise Error("segment %s: %d is past the array's %d elements" % (what, int(v.max()), n))
    return [int(k) for k in v.astype(np.uint64)]


def segment_reduce(a, offsets=None, op="sum", begin=None, end=None):
    """One result per segment of the 1-D array `a`, given either CSR `offsets` (segment s is
    a[offsets[s]:offsets[s + 1]]: S + 1 of them, 0 first, never decreasing, len(a) last) or
    `begin` and `end` arrays (segment s is a[begin[s]:end[s]], as CUB's segmented reductions: the
    segments may overlap, leave gaps or come in any order; an end below its begin is empty). `op`
    is a built-in's name (clreduce.builtins()) or a Reduction. A NumPy array of the results in the
    descriptor's layout (argmin/argmax: fields value and index, the index counted from the
    segment's start) for NumPy input, the bounds checked on the host; a PyOpenCL array for
    PyOpenCL input, whose bounds may then be PyOpenCL arrays of uint32, uint64, int32 or int64
    (read in place, not checked on the host: the kernel clamps each into the array). An empty
    segment's result is the reduction's identity, finished."""
    x = _Operand(a, allow_2d=False)
    if x.size == 0:
        raise Error("segment_reduce of an empty array: the library reduces at least one element")
    if (offsets is None) == (begin is None and end is None) or (begin is None) != (end is None):
        raise Error("segment_reduce takes offsets, or begin and end: one of the two forms")
    r = op if isinstance(op, Reduction) else _builtin(op, x)
    s = _session_for([x])
    fam = _c.Family()
    fam.kind = "segments"
    fam.n = x.size
    if offsets is not None:
        b = _segment_bounds(offsets, "offsets", 1, x.size, x.device)
        e = None
    else:
        fam.begin_end = True
        b = _segment_bounds(begin, "begins", 0, x.size, x.device)
        e = _segment_bounds(end, "ends", 0, x.size, x.device)
        if type(b) is not type(e) or (isinstance(b, tuple) and b[1:] != e[1:]) or (isinstance(b, list) and len(b) != len(e)):
            raise Error("segment begins and ends: one of each per segment, of one type and place")
    if isinstance(b, tuple):
        fam.offsets_handle, fam.offsets_type, length = b
        if e is not None:
            fam.ends_handle = e[0]
        count = length - (0 if fam.begin_end else 1)
        fam.segments = count
    else:
        fam.host_offsets = b
        if e is not None:
            fam.host_ends = e
        count = len(b) - (0 if fam.begin_end else 1)
    dt = _layout_dtype(r)
    if x.device:
        import pyopencl.array as cla

        res = cla.empty(x.queue, (count,), dt)
        ev = s.run(r, [x.input()], fam, [], res.base_data.int_ptr, 0)
        _adopt_event(res, ev)
        return res
    return s.run(r, [x.input()], fam, []).view(dt)


def builtin(name, dtype, accumulate=None, exact=False):
    """The built-in descriptor `name` (clreduce.builtins()) over inputs of `dtype` (a NumPy dtype or
    a name: "float32", "f32", "bfloat16"); accumulate="float64" takes sums, means, variances and
    norms in double; exact=True sums exactly (sum, mean, dot, sumsq, l2 of float types)."""
    t = dtype if isinstance(dtype, str) else _type_name(dtype)
    acc = accumulate if accumulate is None or isinstance(accumulate, str) else _type_name(accumulate)
    return _c.builtin(name, t, acc, exact)


def reduce(r, *arrays, axis=None, scalars=()):
    """Any descriptor over one to four arrays of one shape: `r` a built-in's name (taking the first
    array's type) or a Reduction (clreduce.builtin, reduction_from_text, load_reduction, or
    ReductionKernel's). Returns the results in the descriptor's layout: a NumPy value or array of
    its type, or a structured one (argmin/argmax: value, index; minmax: min, max); a PyOpenCL array
    for PyOpenCL inputs with an axis. `scalars`: the descriptor's run-time scalars, in order."""
    if not arrays:
        raise Error("reduce needs at least one array")
    ops = [_Operand(a) for a in arrays]
    if isinstance(r, str):
        r = _builtin(r, ops[0])
    ax = _axis_of(ops[0], axis)
    if ops[0].size == 0:
        raise Error("a reduction of an empty array: the library reduces at least one element")
    raw = _run(r, ops, ax, scalars)
    if ax is None and not hasattr(raw, "queue"):
        return raw[0]
    return raw


class MultiDevice:
    """One reduction over several devices of one platform (the C++ MultiReducer): a NumPy array
    split among them in proportion to each device's measured bandwidth, each part copied and reduced
    on its device, the parts' accumulators folded in device order.

        md = clreduce.MultiDevice()                 # every GPU of the default device's platform
        md = clreduce.MultiDevice(indices=[0, 1])   # devices 0 and 1 of that platform
        md.reduce("sum", x)                         # any built-in's name, or a Reduction

    `platform`: a platform index (clreduce.devices() lists them). reduce() returns the result in the
    descriptor's layout, as clreduce.reduce does (whole arrays: 1-D, or a C-contiguous matrix read
    as one vector); `last_shares` then says what each device took (offset, n) and how long it took."""

    def __init__(self, indices=None, platform=None):
        self._m = _c.MultiReducer(platform, None if indices is None else [int(i) for i in indices])
        self.last_shares = []

    @property
    def devices(self):
        return self._m.devices

    def reduce(self, op, *arrays, scalars=()):
        if not arrays:
            raise Error("MultiDevice.reduce needs at least one array")
        hosts = []
        for a in arrays:
            if _is_pyopencl(a):
                raise Error("MultiDevice reduces NumPy arrays (each device copies its part): PyOpenCL arrays "
                            "live on one device; reduce them with clreduce's functions")
            hosts.append(_Operand(a))
        n = hosts[0].size
        if [h.size for h in hosts] != [n] * len(hosts):
            raise Error("MultiDevice.reduce of arrays of sizes %s: every input has the same size" % [h.size for h in hosts])
        if n == 0:
            raise Error("a reduction of an empty array: the library reduces at least one element")
        r = _builtin(op, hosts[0]) if isinstance(op, str) else op
        data = [np.ascontiguousarray(h.original).reshape(-1) for h in hosts]
        raw, shares = self._m.reduce(r, data, n, [float(v) if isinstance(v, float) else int(v) for v in scalars])
        self.last_shares = shares
        return raw.view(_layout_dtype(r))[0]


# ---- a user reduction, as PyOpenCL's ReductionKernel ---------------------------------------------

_C_TYPES = {
    "uchar": "u8", "char": "i8", "ushort": "u16", "short": "i16", "uint": "u32", "int": "i32", "ulong": "u64",
    "long": "i64", "half": "f16", "float": "f32", "double": "f64", "unsigned char": "u8", "unsigned short": "u16",
    "unsigned int": "u32", "unsigned long": "u64", "bool": "u8",
}
_CL_OF = {"u8": "uchar", "i8": "char", "u16": "ushort", "i16": "short", "u32": "uint", "i32": "int", "u64": "ulong",
          "i64": "long", "f16": "float", "bf16": "float", "f32": "float", "f64": "double"}


class ReductionKernel:
    """A user reduction, as PyOpenCL's ReductionKernel(ctx, dtype_out, neutral, reduce_expr,
    map_expr, arguments), built once and called many times:

        dot_scaled = clreduce.ReductionKernel(np.float32, neutral="0", reduce_expr="a+b",
                                              map_expr="x[i]*y[i]*alpha",
                                              arguments="const float *x, const float *y, float alpha")
        dot_scaled(x, y, 2.0)         # a NumPy float32; x, y NumPy or PyOpenCL arrays

    `arguments`: 1 to 4 arrays (`type *name`, read at the same index i only, as x[i]) and 0 to 4
    run-time scalars (`type name`: a new value builds nothing), in any order; their types are
    OpenCL C's (float, int, uint, ...), or half for float16 arrays read into float. `map_expr`
    (default: the first array's x[i]) is OpenCL C of those names and i (ulong, the element's
    index); `reduce_expr` combines a and b (associative and commutative up to rounding: the
    kernels fold in any order); `neutral` is its identity; dtype_out the accumulator's and the
    result's type. `preamble`: helper functions and typedefs, placed first. Calls take the arrays
    and scalars in the order of `arguments`, and axis=None, 0 or 1 as the other functions."""

    def __init__(self, dtype_out, neutral, reduce_expr, map_expr=None, arguments=None, name="reduce_kernel",
                 preamble="", ctx=None):
        if arguments is None or not str(arguments).strip():
            raise Error("ReductionKernel needs arguments: 1 to 4 arrays ('const float *x') and 0 to 4 scalars")
        del ctx  # the context is the arrays' (PyOpenCL) or the default device's (NumPy)
        self._args = []  # (kind, name, type): kind "array" or "scalar", in the user's order
        for piece in str(arguments).split(","):
            text = " ".join(piece.replace("__global", " ").replace("global ", " ").replace("const", " ").split())
            m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_ ]*?)\s*(\*?)\s*([A-Za-z_][A-Za-z0-9_]*)", text.replace(" *", "*").replace("* ", "*"))
            if not m:
                raise Error("ReductionKernel argument %r: expected 'type *name' for an array or 'type name' for a scalar" % piece.strip())
            ctype, star, aname = m.group(1).strip(), m.group(2), m.group(3)
            t = _C_TYPES.get(ctype)
            if t is None:
                raise Error("ReductionKernel argument %r: type %r is none of %s" % (piece.strip(), ctype, ", ".join(sorted(_C_TYPES))))
            self._args.append(("array" if star else "scalar", aname, t))
        arrays = [a for a in self._args if a[0] == "array"]
        scalars = [a for a in self._args if a[0] == "scalar"]
        if not 1 <= len(arrays) <= 4 or len(scalars) > 4:
            raise Error("ReductionKernel takes 1 to 4 arrays and 0 to 4 scalars; arguments %r has %d and %d"
                        % (arguments, len(arrays), len(scalars)))
        names = [a[1] for a in self._args]
        if len(set(names)) != len(names):
            raise Error("ReductionKernel arguments %r name one argument twice" % arguments)
        expr = map_expr if map_expr is not None else "%s[i]" % arrays[0][1]
        for k, (_, aname, _) in enumerate(arrays):
            expr = re.sub(r"\b%s\s*\[\s*i\s*\]" % re.escape(aname), "x%d" % k, expr)
            if re.search(r"\b%s\b" % re.escape(aname), expr):
                raise Error("ReductionKernel map_expr %r reads array %s other than at %s[i]: a reduction reads every "
                            "array at the element's own index" % (map_expr, aname, aname))
        for k, (_, sname, _) in enumerate(scalars):
            expr = re.sub(r"\b%s\b" % re.escape(sname), "s%d" % k, expr)
        out_t = _type_name(dtype_out)
        acc = _CL_OF[out_t]
        r = Reduction()
        r.name = name
        r.inputs = [a[2] for a in arrays]
        r.scalars = [a[2] for a in scalars]
        r.map_type = acc
        r.map = "(%s)(%s)" % (acc, expr)
        r.prelude = preamble
        r.acc_type = acc
        r.acc_bytes = np.dtype(_NUMPY_OF[out_t]).itemsize
        r.identity = "(%s)(%s)" % (acc, neutral)
        r.lift = "v"
        r.combine = "(%s)(%s)" % (acc, reduce_expr)
        r.finish = "a"
        r.out_type = acc
        r.out_kind = _c.LayoutKind.Value
        r.out_scalar = out_t
        r.exact = out_t[0] in "ui"
        self.reduction = r
        self._arrays, self._scalars = arrays, scalars
        self.dtype_out = np.dtype(_NUMPY_OF[out_t])

    def __call__(self, *args, axis=None, out=None):
        if len(args) != len(self._args):
            raise Error("%s takes %d arguments (%s), given %d" % (self.reduction.name, len(self._args),
                                                                   ", ".join(a[1] for a in self._args), len(args)))
        arrays = [v for v, a in zip(args, self._args) if a[0] == "array"]
        scalars = [v for v, a in zip(args, self._args) if a[0] == "scalar"]
        ops = []
        for v, (_, aname, t) in zip(arrays, self._arrays):
            o = _Operand(v)
            if o.type != t:
                raise Error("%s: array %s is %s, declared %s" % (self.reduction.name, aname, o.dtype, t))
            ops.append(o)
        ax = _axis_of(ops[0], axis)
        if ops[0].size == 0:
            raise Error("%s of an empty array: a reduction reads at least one element" % self.reduction.name)
        sc = []
        for v, (_, sname, t) in zip(scalars, self._scalars):
            sc.append(float(v) if t[0] == "f" else int(v))
        raw = _run(self.reduction, ops, ax, sc)
        return _finish(_field(raw, None, self.dtype_out), ax, out)
