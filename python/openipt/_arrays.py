# SPDX-License-Identifier: Apache-2.0
"""NumPy arrays to and from the C API's images (MATLAB classes, planar channels)."""

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


def to_image(op, name, value, mask):
    """(bytes, class, rows, cols, channels) of an input: 2-D is one channel,
    (H, W, C) channel-last becomes C planes (one copy), 1-D a row."""
    arr = value if isinstance(value, np.ndarray) else _literal(value, mask)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    code = CODE_OF_NUMPY.get(arr.dtype)
    if code is None:
        known = ", ".join(str(NUMPY_OF_CODE[c]) for c in accepted_codes(mask))
        raise_error(1, f"{op}: parameter '{name}': NumPy dtype {arr.dtype} has no MATLAB class in OpenIPT "
                       f"(accepted: {known})")
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


def from_image(out):
    """An output (bytes, class, rows, cols, channels) as (H, W) or (H, W, C):
    a view of the downloaded planes, no copy."""
    buf, code, rows, cols, channels = out
    arr = buf.view(NUMPY_OF_CODE[code]).reshape(channels, rows, cols)
    return arr[0] if channels == 1 else np.moveaxis(arr, 0, -1)
