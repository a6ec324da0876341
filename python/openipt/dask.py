# SPDX-License-Identifier: Apache-2.0
"""OpenIPT over ``dask.array``: images larger than memory, or than one machine.

``import openipt.dask as ipd`` gives one function per catalogue operator, with
the names and keyword arguments of ``openipt`` (generated from the same
schemas), whose first image is a ``dask.array`` tiled chunk by chunk. How an
operator tiles comes from its schema (``ipt_op_schema.tiling``), evaluated
for the call's parameters by the library (``ipt_call_tiling``):

- pointwise: ``map_blocks``;
- window: ``map_overlap`` with the halo the catalogue gives (a kernel's or a
  window's reach) and no padding at the image's own edge, so the operator
  pads there as it does on the whole image;
- reduce: a map over the chunks and an exact reduce (mean2, imhist,
  graythresh);
- whole, or undeclared: refused with :class:`NotTileableError` saying why.

``map_images(f, stack)`` runs any function over a stack of images, one image
per chunk. Every chunk runs in the worker's own ``openipt`` (imported there);
only arrays and plain parameters travel, never C objects. Chunks may be NumPy
or CuPy arrays: CuPy chunks stay on their GPU, in and out. See docs/python.md.
"""

import dask
import dask.array as da
import numpy as np
from dask.array import overlap as _overlap

import openipt as _openipt
from . import _catalogue
from ._errors import Error

POINTWISE, WINDOW, REDUCE, WHOLE, UNKNOWN = 1, 2, 3, 4, 0
TILING_NAMES = {UNKNOWN: "unknown", POINTWISE: "pointwise", WINDOW: "window", REDUCE: "reduce", WHOLE: "whole"}

__all__ = ["NotTileableError", "map_images", "tiling"]


class NotTileableError(Error, ValueError):
    """The operator cannot run chunk by chunk with these parameters; the
    message says why (from the operator's schema)."""


# ---- one chunk, in whichever process runs it ---------------------------------------

def _resolve(name):
    """The openipt function of a catalogue name, or of a Python name."""
    fn = _openipt._operators.get(name)
    if fn is None and name in _openipt._functions:
        fn = getattr(_openipt, name)
    if fn is None:
        _openipt._refresh()
        fn = _openipt._operators.get(name) or getattr(_openipt, name, None)
    if fn is None:
        raise LookupError(f"unknown operator '{name}'")
    return fn


def _outputs(result, nargout):
    return list(result) if nargout > 1 else [result]


def _stack(outs):
    """Several outputs of one chunk on a new last axis, in the chunk's array
    module (NumPy, or CuPy for chunks on a GPU)."""
    if hasattr(outs[0], "__cuda_array_interface__"):
        import cupy
        return cupy.stack(outs, axis=-1)
    return np.stack(outs, axis=-1)


def _host(a):
    """A small result (counts, a sum) as NumPy, wherever it was computed."""
    if hasattr(a, "__cuda_array_interface__"):
        import cupy
        return cupy.asnumpy(a)
    return np.asarray(a)


def _meta(x, ndim, dtype):
    """An empty array of x's array module (NumPy or CuPy) for dask's meta."""
    return da.utils.meta_from_array(x, ndim=ndim, dtype=dtype)


def _chunk(op, tiled, kwargs, nargout, block, *others, others_names=()):
    """One chunk: the operator over `block` (and the aligned chunks of other
    tiled inputs); several outputs stacked on a new last axis."""
    kw = dict(kwargs)
    kw[tiled] = block
    kw.update(zip(others_names, others))
    outs = _outputs(_resolve(op)(**kw, nargout=nargout), nargout)
    return outs[0] if nargout == 1 else _stack(outs)


# ---- the tiling of a call -------------------------------------------------------------

def _split(operator, bound):
    """(tiled argument, other dask arrays by argument, the plain keyword arguments)."""
    inputs = [a for a, p in operator.arg_of.items() if p["kind"] == _catalogue.INPUT]
    if not inputs:
        raise NotTileableError(f"{operator.name} takes no image")
    tiled = inputs[0]
    others, plain = {}, {}
    for arg, value in bound.arguments.items():
        if arg in ("nargout", "device") and arg not in operator.arg_of:
            continue
        if arg == tiled or value is None:
            continue
        if isinstance(value, da.Array):
            others[arg] = value
        else:
            plain[arg] = value
    return tiled, others, plain


def _query(operator, plain):
    params = [operator.convert(arg, value) for arg, value in plain.items() if arg in operator.arg_of]
    return _openipt._context.tiling(operator.name, params)


def tiling(op, **params):
    """How `op` (a function of openipt or openipt.dask, or a name) tiles with
    these parameters (the small images among them, such as a kernel, given as
    arrays; the tiled image left out): a dict with kind ("pointwise",
    "window", "reduce", "whole" or "unknown"), halo (rows, cols) and reason."""
    name = op if isinstance(op, str) else getattr(op, "operator", None)
    operator = _catalogue.Operator(_schema(_resolve(name).operator if name else None))
    kind, hr, hc, reason = _query(operator, {k: v for k, v in params.items() if v is not None})
    return {"kind": TILING_NAMES.get(kind, "unknown"), "halo": (hr, hc), "reason": reason or ""}


def _schema(name):
    for s in _openipt._context.ops():
        if s["name"] == name:
            return s
    raise LookupError(f"unknown operator '{name}'")


# ---- pointwise and window operators -----------------------------------------------------

def _probe(operator, tiled, x, others, plain, nargout, device):
    """Class and shape beyond (rows, cols) of the outputs for a small image of
    x's class: what every chunk will return."""
    shape = (min(x.shape[0], 8), min(x.shape[1], 8)) + tuple(x.shape[2:])
    kw = dict(plain)
    kw[tiled] = np.zeros(shape, dtype=x.dtype)
    for arg, arr in others.items():
        kw[arg] = np.zeros(shape[:2] + tuple(arr.shape[2:]), dtype=arr.dtype)
    if device is not None:
        kw["device"] = device
    outs = _outputs(_resolve(operator.name)(**kw, nargout=nargout), nargout)
    for i, o in enumerate(outs):
        if o.shape[:2] != shape[:2]:
            raise NotTileableError(
                f"{operator.name}: output {i + 1} is {o.shape[0]}x{o.shape[1]} for a {shape[0]}x{shape[1]} "
                f"image; only outputs of the input's size are tiled (ask for fewer outputs with nargout)")
    if nargout > 1 and len({(o.dtype, o.shape) for o in outs}) != 1:
        raise NotTileableError(f"{operator.name}: its outputs differ in class or shape; "
                               f"tile with nargout=1 (the first output)")
    return outs[0].dtype, tuple(outs[0].shape[2:])


def _as_image_array(x, name):
    if not isinstance(x, da.Array):
        x = da.asarray(x)
    if x.ndim not in (2, 3):
        raise ValueError(f"{name}: a 2-D image or an (H, W, C) image was expected, got {x.ndim}-D; "
                         f"for a stack of images use openipt.dask.map_images")
    if x.ndim == 3 and x.numblocks[2] != 1:
        x = x.rechunk({2: -1})  # the channels of a pixel stay together
    return x


def _halo_fit(x, halo):
    """The array and the depth per axis: an axis whose halo reaches across
    the whole image becomes one chunk (no overlap needed), and chunks smaller
    than the halo are merged with a neighbour (map_overlap's rule)."""
    depth = {a: 0 for a in range(x.ndim)}
    for axis in (0, 1):
        h = int(halo[axis])
        if h == 0:
            continue
        if h >= x.shape[axis] or x.numblocks[axis] == 1:
            x = x.rechunk({axis: -1})
        else:
            if min(x.chunks[axis]) < h:
                x = x.rechunk({axis: _overlap.ensure_minimum_chunksize(h, x.chunks[axis])})
            depth[axis] = h
    return x, depth


def _blockwise(operator, tiled, x, others, plain, nargout, device, halo):
    dtype, tail = _probe(operator, tiled, x, others, plain, nargout, device)
    kwargs = dict(plain)
    if device is not None:
        kwargs["device"] = device
    names = tuple(others)
    x, depth = _halo_fit(x, halo)
    arrays = []
    for arg in names:  # further images of a pointwise operator, chunked as x
        a = _as_image_array(others[arg], f"{operator.name}: parameter '{arg}'")
        if a.shape[:2] != x.shape[:2]:
            raise NotTileableError(f"{operator.name}: parameter '{arg}' is a dask array of shape {a.shape}, "
                                   f"not of the tiled image's {x.shape[:2]}; pass a NumPy array to give it whole")
        arrays.append(a.rechunk(x.chunks[:2] + a.chunks[2:]))
    overlapped = any(depth.values())
    if overlapped:
        # No padding at the image's own edge: the operator pads there itself.
        x = _overlap.overlap(x, depth, {a: "none" for a in depth})
    # Output axes: rows, cols, the output's channels, then one for several outputs.
    tail = tail + ((nargout,) if nargout > 1 else ())
    out_ndim = 2 + len(tail)
    kw = dict(dtype=dtype, meta=_meta(x, out_ndim, dtype),
              chunks=x.chunks[:2] + tuple((n,) for n in tail))
    if out_ndim < x.ndim:
        kw["drop_axis"] = list(range(out_ndim, x.ndim))
    elif out_ndim > x.ndim:
        kw["new_axis"] = list(range(x.ndim, out_ndim))
    y = da.map_blocks(_chunk, operator.name, tiled, kwargs, nargout, x, *arrays, others_names=names,
                      **kw)
    if overlapped:
        trim = {a: (depth[a] if a < 2 else 0) for a in range(out_ndim)}
        y = _overlap.trim_internal(y, trim, boundary={a: "none" for a in trim})
    if nargout == 1:
        return y
    return tuple(y[..., i] for i in range(nargout))


# ---- reductions -----------------------------------------------------------------------

def _delayed_blocks(x):
    return list(x.to_delayed().ravel())


def _mean2_part(block):
    if block.dtype.kind in "biu":  # integers and logical: an exact sum
        return int(block.sum(dtype=np.uint64 if block.dtype.kind == "u" else np.int64)), block.size
    return float(block.sum(dtype=np.float64)), block.size


def _mean2_total(parts, single):
    total = sum(p[0] for p in parts)
    n = sum(p[1] for p in parts)
    m = float(total) / n
    return np.array([[m]], dtype=np.float32 if single else np.float64)


def _reduce_mean2(x, plain, nargout, device):
    if x.ndim == 3 and x.numblocks[2] != 1:
        x = x.rechunk({2: -1})
    parts = [dask.delayed(_mean2_part)(b) for b in _delayed_blocks(x)]
    single = x.dtype == np.float32
    total = dask.delayed(_mean2_total)(parts, single)
    return da.from_delayed(total, (1, 1), dtype=np.float32 if single else np.float64)


def _imhist_part(block, n, device):
    kw = {"n": n} if n is not None else {}
    if device is not None:
        kw["device"] = device
    counts, locations = _resolve("ipt.imhist")(block, nargout=2, **kw)
    return _host(counts).astype(np.float64), _host(locations)


def _graythresh_part(block, device):
    kw = {} if device is None else {"device": device}
    u8 = _resolve("ipt.im2uint8")(block, **kw)
    counts = _resolve("ipt.imhist")(u8, n=256, **kw)
    return _host(counts).astype(np.float64), None


def _sum_counts(parts):
    counts = parts[0][0].copy()
    for c, _ in parts[1:]:
        counts += c  # integer counts in double: exact below 2^53
    return counts, parts[0][1]


def _pick(result, i):
    return result[i]


def _reduce_imhist(x, plain, nargout, device):
    n = plain.get("n")
    parts = [dask.delayed(_imhist_part)(b, n, device) for b in _delayed_blocks(x)]
    total = dask.delayed(_sum_counts)(parts)
    probe = _resolve("ipt.imhist")(np.zeros((1, 1), dtype=x.dtype), nargout=1, **({"n": n} if n else {}))
    counts = da.from_delayed(dask.delayed(_pick)(total, 0), probe.shape, dtype=np.float64)
    if nargout == 1:
        return counts
    return counts, da.from_delayed(dask.delayed(_pick)(total, 1), probe.shape, dtype=np.float64)


def _otsu(total, nargout, device):
    kw = {} if device is None else {"device": device}
    return _resolve("ipt.otsuthresh")(total[0], nargout=nargout, **kw)


def _reduce_graythresh(x, plain, nargout, device):
    parts = [dask.delayed(_graythresh_part)(b, device) for b in _delayed_blocks(x)]
    result = dask.delayed(_otsu)(dask.delayed(_sum_counts)(parts), nargout, device)
    if nargout == 1:
        return da.from_delayed(result, (1, 1), dtype=np.float64)
    return tuple(da.from_delayed(dask.delayed(_pick)(result, i), (1, 1), dtype=np.float64)
                 for i in range(nargout))


# The reduce of each REDUCE operator openipt.dask knows. A plugin's operator
# that declares REDUCE but is not here is refused.
_REDUCES = {"ipt.mean2": _reduce_mean2, "ipt.imhist": _reduce_imhist, "ipt.graythresh": _reduce_graythresh}


# ---- the generated functions -------------------------------------------------------------

def _make(operator):
    sig = operator.signature

    def function(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)
        nargout = bound.arguments.get("nargout", operator.default_nargout) \
            if "nargout" not in operator.arg_of else operator.default_nargout
        device = bound.arguments.get("device") if "device" not in operator.arg_of else None
        operator.outputs_for(nargout)  # the same check as openipt's
        tiled, others, plain = _split(operator, bound)
        x = bound.arguments.get(tiled)
        if x is None:
            raise NotTileableError(f"{operator.name}: the image '{tiled}' is missing")
        x = _as_image_array(x, f"{operator.name}: parameter '{tiled}'")
        kind, hr, hc, reason = _query(operator, plain)
        if kind == REDUCE:
            reduce = _REDUCES.get(operator.name)
            if reduce is None:
                raise NotTileableError(f"{operator.name} declares a reduce ({reason}) that openipt.dask "
                                       f"does not know")
            if others:
                raise NotTileableError(f"{operator.name}: only its first image is tiled")
            return reduce(x, plain, nargout, device)
        if kind not in (POINTWISE, WINDOW):
            raise NotTileableError(reason or f"{operator.name} is not tiled")
        if kind == WINDOW and others:
            raise NotTileableError(f"{operator.name}: a window operator tiles its first image only; "
                                   f"give {', '.join(others)} as NumPy arrays")
        return _blockwise(operator, tiled, x, others, plain, nargout, device, (hr, hc) if kind == WINDOW else (0, 0))

    function.__name__ = function.__qualname__ = _catalogue.python_name(operator.schema)
    function.__module__ = __name__
    function.__signature__ = sig
    function.__doc__ = (f"{operator.name} over a dask.array, chunk by chunk; the result is lazy.\n"
                        f"Tiling: {TILING_NAMES.get(operator.schema.get('tiling', 0), 'unknown')}"
                        + (f" ({operator.schema['tiling_rule']})" if operator.schema.get("tiling_rule") else "")
                        + ".\n\n" + operator.docstring())
    function.operator = operator.name
    return function


_operators = {}


def _refresh():
    for schema in _openipt._context.ops():
        if schema["name"] in _operators:
            continue
        function = _make(_catalogue.Operator(schema))
        _operators[schema["name"]] = function
        name = _catalogue.python_name(schema)
        if name.isidentifier() and name not in globals() and name in _openipt._functions:
            globals()[name] = function
            __all__.append(name)


def __getattr__(name):
    """Operators of plugins loaded since import (openipt.load_plugin)."""
    _refresh()
    if name in globals():
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def call(op, *args, **kwargs):
    """An operator by its catalogue name ("ipt.conv2"), over a dask.array."""
    if op not in _operators:
        _refresh()
    if op not in _operators:
        raise LookupError(f"unknown operator '{op}'")
    return _operators[op](*args, **kwargs)


__all__.append("call")


def tiling_table():
    """The markdown table of every built-in operator's tiling and rule, as
    docs/python.md shows it."""
    rows = ["| Operator | Tiling | Rule or reason |", "|---|---|---|"]
    for s in sorted(_openipt._context.ops(), key=lambda s: _catalogue.python_name(s).lower()):
        if not s["name"].startswith("ipt."):
            continue
        rule = (s["tiling_rule"] or "").replace("|", "\\|")
        rows.append(f"| {_catalogue.python_name(s)} | {TILING_NAMES.get(s['tiling'], 'unknown')} | "
                    f"{'`' + rule + '`' if rule and s['tiling'] in (POINTWISE, WINDOW) else rule} |")
    return "\n".join(rows) + "\n"


__all__.append("tiling_table")


# ---- stacks of images ------------------------------------------------------------------

def _apply_image(func, name, block, params, nargout):
    f = _resolve(name) if name is not None else func
    kw = dict(params)
    if nargout is not None:
        kw["nargout"] = nargout
    return f(block[0], **kw)


def _take(result, i):
    out = result[i] if isinstance(result, tuple) else result
    return (out if hasattr(out, "__cuda_array_interface__") else np.asarray(out))[None]


def map_images(func, stack, **params):
    """``func`` (an openipt function, a catalogue or MATLAB name, or any
    function of one image) over every image of ``stack`` (N, H, W) or
    (N, H, W, C), one image per chunk: a dask array (N, ...) of the results,
    or a tuple of them when the function returns several (``nargout=2``...),
    each computed once per image. Every image must give outputs of one shape."""
    name = None
    if isinstance(func, str):
        name = func
        func_obj = _resolve(name)
    else:
        func_obj = func
        if getattr(func, "operator", None) and getattr(func, "__module__", "") in ("openipt", __name__):
            name = func.operator  # the worker resolves it in its own openipt
            func_obj = _resolve(name)
    if not isinstance(stack, da.Array):
        stack = da.from_array(stack, chunks=(1,) + tuple(-1 for _ in range(np.ndim(stack) - 1)))
    if stack.ndim not in (3, 4):
        raise ValueError(f"map_images: a stack (N, H, W) or (N, H, W, C) was expected, got {stack.ndim}-D")
    stack = stack.rechunk((1,) + tuple(-1 for _ in range(stack.ndim - 1)))
    nargout = params.pop("nargout", None)
    # What one image gives, from an image of zeros of the stack's size and class.
    zeros = np.zeros
    if hasattr(stack._meta, "__cuda_array_interface__"):
        import cupy
        zeros = cupy.zeros
    probe = func_obj(zeros(stack.shape[1:], dtype=stack.dtype), **params,
                     **({"nargout": nargout} if nargout is not None else {}))
    outs = list(probe) if isinstance(probe, tuple) else [probe]
    outs = [_host(o) for o in outs]
    ship = None if name is not None else func
    results = [dask.delayed(_apply_image)(ship, name, b, params, nargout) for b in _delayed_blocks(stack)]
    arrays = []
    for i, o in enumerate(outs):
        meta = _meta(stack._meta, o.ndim + 1, o.dtype)  # CuPy stacks give CuPy results
        parts = [da.from_delayed(dask.delayed(_take)(r, i), (1,) + o.shape, dtype=o.dtype, meta=meta)
                 for r in results]
        arrays.append(da.concatenate(parts, axis=0))
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


_refresh()
