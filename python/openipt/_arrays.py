# SPDX-License-Identifier: Apache-2.0
"""Arrays to and from the C API's images (MATLAB classes, planar channels):
NumPy (and anything with __array_interface__ or a host __dlpack__) on the
host; CuPy and anything with __cuda_array_interface__ or a CUDA __dlpack__
on the GPU, wrapped in place (docs/python.md, "Arrays")."""

import sys

import numpy as np

from . import _ipt
from ._errors import raise_error

# MATLAB class (ipt_dtype code) <-> NumPy dtype, from the library's own names.
_NUMPY_OF_NAME = {"logical": np.dtype(np.bool_), "single": np.dtype(np.float32), "double": np.dtype(np.float64)}
NUMPY_OF_CODE = {}
for _code, _name in _ipt.dtype_names().items():
    NUMPY_OF_CODE[_code] = _NUMPY_OF_NAME.get(_name) or np.dtype(_name)
CODE_OF_NUMPY = {dt: code for code, dt in NUMPY_OF_CODE.items()}
NAME_OF_CODE = dict(_ipt.dtype_names())
DOUBLE = CODE_OF_NUMPY[np.dtype(np.float64)]
LOGICAL = CODE_OF_NUMPY[np.dtype(np.bool_)]


def accepted_codes(mask):
    return [c for c in NUMPY_OF_CODE if mask & (1 << c)]


def _literal(value, mask):
    """A Python number, list or nested list as MATLAB reads a literal: double,
    logical for booleans, or the parameter's only class when it has one."""
    arr = np.asarray(value)
    codes = accepted_codes(mask)
    if len(codes) == 1:
        return arr.astype(NUMPY_OF_CODE[codes[0]])
    if arr.dtype == np.bool_:
        return arr
    return arr.astype(np.float64)


# Parameter kinds of _ipt.Context.run for images.
HOST_IMAGE, DEVICE_IMAGE = 0, 6

# DLPack device types (dlpack.h).
_DL_CPU, _DL_CUDA, _DL_CUDA_HOST, _DL_CUDA_MANAGED = 1, 2, 3, 13


def _cupy():
    """CuPy when it is installed (imported on first use only), else None."""
    if "cupy" in sys.modules:
        return sys.modules["cupy"]
    try:
        import cupy
    except ImportError:
        return None
    return cupy


def _class_error(op, name, what, dtype, mask):
    known = ", ".join(str(NUMPY_OF_CODE[c]) for c in accepted_codes(mask))
    raise_error(1, f"{op}: parameter '{name}': {what} dtype {dtype} has no MATLAB class in OpenIPT "
                   f"(accepted: {known})")


def to_input(op, name, value, mask):
    """(kind, payload) of an input: HOST_IMAGE with (bytes, class, rows, cols,
    channels) for host arrays, DEVICE_IMAGE with a DeviceInput for CUDA
    arrays. 2-D is one channel, (H, W, C) channel-last becomes C planes (one
    copy), 1-D a row."""
    if not isinstance(value, np.ndarray):
        if hasattr(value, "__cuda_array_interface__"):
            return DEVICE_IMAGE, _device_input(op, name, value, value.__cuda_array_interface__, mask)
        if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
            kind, _ = value.__dlpack_device__()
            if kind in (_DL_CUDA, _DL_CUDA_MANAGED):
                cp = _cupy()
                if cp is None:
                    raise_error(1, f"{op}: parameter '{name}': a CUDA DLPack array without "
                                   f"__cuda_array_interface__ needs CuPy to be read in place (CuPy is not installed)")
                arr = cp.from_dlpack(value)  # in place, ordered after the producer's stream
                return DEVICE_IMAGE, _device_input(op, name, arr, arr.__cuda_array_interface__, mask)
            if kind not in (_DL_CPU, _DL_CUDA_HOST):
                raise_error(1, f"{op}: parameter '{name}': DLPack device type {kind} is neither the host "
                               f"nor CUDA")
            value = np.from_dlpack(value)
        elif hasattr(value, "__array_interface__") or hasattr(value, "__array_struct__"):
            value = np.asarray(value)
    return HOST_IMAGE, to_image(op, name, value, mask)


def to_image(op, name, value, mask):
    """(bytes, class, rows, cols, channels) of a host input: 2-D is one
    channel, (H, W, C) channel-last becomes C planes (one copy), 1-D a row."""
    arr = value if isinstance(value, np.ndarray) else _literal(value, mask)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    code = CODE_OF_NUMPY.get(arr.dtype)
    if code is None:
        _class_error(op, name, "NumPy", arr.dtype, mask)
    if arr.ndim == 0:
        arr = arr.reshape(1, 1)
    elif arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim == 2:
        rows, cols = arr.shape
        channels = 1
        planar = np.ascontiguousarray(arr)
    elif arr.ndim == 3:
        rows, cols, channels = arr.shape
        # A no-op (a view) when arr is itself a channel-last view of planes.
        planar = np.ascontiguousarray(np.moveaxis(arr, -1, 0))
    else:
        raise_error(1, f"{op}: parameter '{name}': {arr.ndim}-D array; expected 2-D (one channel) "
                       f"or 3-D (H, W, C) channel-last")
    return (planar.reshape(-1).view(np.uint8), code, rows, cols, channels)


class DeviceInput:
    """A CUDA array as the extension wraps it: its address, class and shape
    (planes), the stream its data is ordered on, and what must stay alive."""

    def __init__(self, address, code, rows, cols, channels, stream, keep, is_cupy):
        self.address, self.code, self.rows, self.cols, self.channels = address, code, rows, cols, channels
        self.stream, self.keep, self.is_cupy = stream, keep, is_cupy

    def payload(self):
        return (self.address, self.code, self.rows, self.cols, self.channels)


def _device_input(op, name, value, cai, mask):
    """Reads a __cuda_array_interface__ (version 2 or 3): C-contiguous 2-D
    rows are used in place; (H, W, C) is used in place when it is a
    channel-last view of planes, else converted to planes once on the GPU
    (with CuPy); other strides are an error."""
    where = f"{op}: parameter '{name}'"
    try:
        shape = tuple(int(n) for n in cai["shape"])
        typestr = cai["typestr"]
        address = int(cai["data"][0])
    except (KeyError, TypeError, ValueError, IndexError):
        raise_error(1, f"{where}: __cuda_array_interface__ lacks shape, typestr or data")
    if cai.get("mask") is not None:
        raise_error(1, f"{where}: masked CUDA arrays are not supported")
    try:
        dtype = np.dtype(typestr)
    except TypeError:
        raise_error(1, f"{where}: CUDA array typestr {typestr!r} is not a NumPy type")
    if not dtype.isnative and dtype.itemsize > 1:
        raise_error(1, f"{where}: CUDA array typestr {typestr!r} is not in this machine's byte order")
    dtype = dtype.newbyteorder("=")
    code = CODE_OF_NUMPY.get(dtype)
    if code is None:
        _class_error(op, name, f"CUDA array (typestr {typestr!r})", dtype, mask)
    item = dtype.itemsize
    strides = cai.get("strides")
    strides = None if strides is None else tuple(int(s) for s in strides)
    if len(shape) not in (0, 1, 2, 3):
        raise_error(1, f"{where}: {len(shape)}-D array; expected 2-D (one channel) or 3-D (H, W, C) channel-last")

    def c_strides(dims):
        out, step = [], item
        for n in reversed(dims):
            out.append(step)
            step *= n
        return tuple(reversed(out))

    def same_layout(dims, have, want):
        # Strides of dimensions of extent 1 do not matter.
        return have is None or all(n == 1 or a == b for n, a, b in zip(dims, have, want))

    cp = _cupy()
    is_cupy = cp is not None and isinstance(value, cp.ndarray)
    keep = [value]
    if 0 in shape:
        raise_error(1, f"{where}: empty CUDA array (shape {shape}); OpenIPT wraps device memory of non-empty "
                       f"arrays only")
    if len(shape) == 3 and not (shape[2] == 1 and same_layout(shape, strides, c_strides(shape))):
        rows, cols, channels = shape
        planes = (cols * item, item, rows * cols * item)
        if strides is None or not same_layout(shape, strides, planes):
            if cp is None:
                raise_error(1, f"{where}: a channel-last (H, W, C) CUDA array is converted to planes on the GPU "
                               f"with CuPy, which is not installed; pass planes (C, H, W) as a channel-last view")
            # One conversion on the GPU, on the current stream.
            planar = cp.ascontiguousarray(cp.moveaxis(cp.asarray(value), -1, 0))
            address = planar.data.ptr
            keep.append(planar)
    else:
        dims = {0: (1, 1), 1: (1,) + shape[:1], 2: shape[:2], 3: shape[:2]}[len(shape)]
        if not same_layout(shape, strides, c_strides(shape)):
            raise_error(1, f"{where}: CUDA array with shape {shape} and strides {strides} is not C-contiguous; "
                           f"OpenIPT reads whole rows in place (make a contiguous copy first, e.g. with "
                           f"cupy.ascontiguousarray)")
        rows, cols = dims
        channels = 1
    if address % item:
        raise_error(1, f"{where}: CUDA array data address {address:#x} is not aligned to its element size "
                       f"({item} bytes)")
    return DeviceInput(address, code, rows, cols, channels, _stream_of(cai, is_cupy, cp), keep, is_cupy)


def _stream_of(cai, is_cupy, cp):
    """The stream the call is queued on: CuPy's current stream for CuPy arrays,
    else the array's own (__cuda_array_interface__ version 3), else the legacy
    default stream (1), which every blocking stream waits for."""
    if is_cupy:
        ptr = cp.cuda.get_current_stream().ptr
        return ptr or 1
    stream = cai.get("stream")
    return int(stream) if stream else 1


def from_image(out, stream=None):
    """An output as (H, W) or (H, W, C): a NumPy view of the planes (bytes,
    class, rows, cols, channels), the host image itself or its download; or, for an image left on
    its GPU (ImageRef, class, rows, cols, channels), a CuPy array over its
    memory (an object with __cuda_array_interface__ without CuPy)."""
    if isinstance(out[0], _ipt.ImageRef):
        return _device_output(out, stream)
    buf, code, rows, cols, channels = out
    arr = buf.view(NUMPY_OF_CODE[code]).reshape(channels, rows, cols)
    return arr[0] if channels == 1 else np.moveaxis(arr, 0, -1)


class CudaArray:
    """An output image on a GPU for consumers other than CuPy (PyTorch,
    Numba, ...): __cuda_array_interface__ version 3 over the image's memory,
    which lives as long as this object or an array made from it."""

    def __init__(self, ref, dtype, shape, strides, stream):
        self._ref = ref
        self.dtype, self.shape, self.strides = dtype, shape, strides
        self._stream = stream

    @property
    def __cuda_array_interface__(self):
        return {"version": 3, "shape": self.shape, "typestr": self.dtype.str, "data": (self._ref.address, False),
                "strides": self.strides, "stream": self._stream}


def _device_output(out, stream):
    ref, code, rows, cols, channels = out
    dtype = NUMPY_OF_CODE[code]
    item = dtype.itemsize
    stream_ptr, stream_obj = stream if stream is not None else (1, None)
    # The image holds the stream it is freed on, and lets it go only after
    # the free: an owner that held both could release the stream first.
    if stream_obj is not None:  # (None: the legacy default stream, never destroyed)
        ref.stream = stream_obj
    cp = _cupy()
    if cp is None:
        if channels == 1:
            return CudaArray(ref, dtype, (rows, cols), None, stream_ptr)
        return CudaArray(ref, dtype, (rows, cols, channels), (cols * item, item, rows * cols * item), stream_ptr)
    nbytes = rows * cols * channels * item
    device = cp.cuda.runtime.pointerGetAttributes(ref.address).device
    # The owner keeps the image (and through it the stream its memory is
    # freed on) alive as long as any array over the memory.
    memory = cp.cuda.UnownedMemory(ref.address, nbytes, ref, device)
    arr = cp.ndarray((channels, rows, cols), dtype, cp.cuda.MemoryPointer(memory, 0))
    return arr[0] if channels == 1 else cp.moveaxis(arr, 0, -1)
