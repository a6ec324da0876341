# SPDX-License-Identifier: Apache-2.0
"""OpenIPT: MATLAB Image Processing Toolbox functions on the CPU and GPUs.

Every operator of the catalogue is a function of this module, named as in
MATLAB (``openipt.imgaussfilt(A, sigma=2)``), generated from its schema at
import and again when a plugin is loaded. NumPy arrays in, NumPy arrays out
(CuPy and other CUDA arrays in, CuPy arrays out, on the GPU without copies):
2-D arrays are one-channel images, ``(H, W, C)`` arrays channel-last images.
See docs/python.md.
"""

import contextlib
import contextvars
import threading

from . import _ipt
from . import _arrays
from ._arrays import from_image
from ._catalogue import Operator, make_function, python_name
from ._errors import CLASSES as _ERROR_CLASSES
from ._errors import Error, raise_error

globals().update({cls.__name__: cls for cls in _ERROR_CLASSES.values()})

__version__ = _ipt.VERSION  # the OpenIPT the extension was built with

_context = _ipt.Context(0)  # finds plugins as the C library does: IPT_PLUGIN_PATH, then beside libipt
_lock = threading.Lock()
_operators = {}  # schema name -> generated function
_functions = {}  # Python name -> schema name
_device = contextvars.ContextVar("openipt_device", default=None)

_API = ["Error", "call", "device", "devices", "explain", "info", "load_plugin", "operators"]
__all__ = list(_API) + [cls.__name__ for cls in _ERROR_CLASSES.values()]


def devices():
    """The devices of the context: a list of dicts (id, name, kind, vendor,
    plugin, identity, memory_bytes, compute_units, subgroup_size). Id 0 is the host."""
    return _context.devices()


def info():
    """Versions, the load report of every plugin found or given, and the devices."""
    return {"abi_version": _ipt.ABI_VERSION, "api_version": _ipt.API_VERSION,
            "plugins": _context.plugin_reports(), "devices": _context.devices()}


def _resolve_device(spec):
    """A device id from an id, a kind ("cpu", "vulkan": its first device),
    "kind:N" (the N-th device of that kind) or a device name, as `ipt --device`."""
    if spec is None:
        return -1
    known = _context.devices()
    text = str(spec)
    kind, _, index = text.partition(":")
    if text.isdigit():
        hits = [d for d in known if d["id"] == int(text)]
    elif index.isdigit():
        hits = [d for d in known if d["kind"] == kind][int(index):int(index) + 1]
    else:
        hits = [d for d in known if d["kind"] == text] or [d for d in known if d["name"] == text]
    if not hits:
        listing = ", ".join(f"{d['id']} {d['name']} ({d['kind']})" for d in known)
        raise_error(4, f"unknown device '{text}'; devices: {listing}")
    return hits[0]["id"]


@contextlib.contextmanager
def device(spec):
    """``with openipt.device("vulkan"):`` runs the calls of this thread (and
    its asyncio task) on that device; a call's own ``device=`` wins."""
    token = _device.set(_resolve_device(spec))
    try:
        yield
    finally:
        _device.reset(token)


def explain():
    """The dispatch record of this thread's last call: operator, plugin,
    variant, device, times, the reason, and every candidate with its cost."""
    record = _context.last_dispatch()
    if record is None:
        return None
    names = {d["id"]: d["name"] for d in _context.devices()}
    record["device"] = names.get(record["device_id"])
    for c in record["candidates"]:
        c["device"] = names.get(c["device_id"])
    return record


def _run(operator, params, outputs, want, dev):
    dev_id = _resolve_device(dev) if dev is not None else _device.get()
    # CUDA arrays: wrapped in place, the call queued on the stream of the
    # first (CuPy's current stream for CuPy arrays), outputs left on the GPU.
    stream, keep = None, []  # keep: the device inputs (and their conversions) until the call has run
    for k, (name, kind, value) in enumerate(params):
        if kind == _arrays.DEVICE_IMAGE:
            if stream is None:
                stream = (value.stream, _stream_owner(value))
            keep.append(value)
            params[k] = (name, kind, value.payload())
    results = _context.run(operator.name, params, want, outputs, -1 if dev_id is None else dev_id,
                           0 if stream is None else stream[0])
    return [from_image(r, stream) for r in results]


def _stream_owner(device_input):
    """What keeps the call's stream alive while outputs allocated on it live:
    CuPy's stream object for CuPy arrays."""
    if device_input.is_cupy:
        return _arrays._cupy().cuda.get_current_stream()
    return None


def operators():
    """Python name -> operator name of every generated function."""
    return dict(_functions)


def call(op, *args, **kwargs):
    """Runs an operator by its catalogue name ("ipt.conv2", "acme.facet"),
    with the arguments of its generated function; for operators whose MATLAB
    name is taken or is not a Python name."""
    function = _operators.get(op)
    if function is None:
        _refresh()
        function = _operators.get(op)
    if function is None:
        raise_error(4, f"unknown operator '{op}'")
    return function(*args, **kwargs)


def _refresh():
    """(Re)generates a function for every operator of the catalogue."""
    with _lock:
        for schema in _context.ops():
            if schema["name"] in _operators:
                continue
            function = make_function(Operator(schema), _run)
            _operators[schema["name"]] = function
            name = python_name(schema)
            # A name already in use (the API, or another plugin's operator) stays
            # as it is; openipt.call(full name) reaches the newcomer.
            if not name.isidentifier() or name in _functions or name in globals():
                continue
            globals()[name] = function
            _functions[name] = schema["name"]
            __all__.append(name)


def load_plugin(path):
    """Loads one plugin file (as ipt_load_plugin) and adds its operators."""
    _context.load_plugin(str(path))
    _refresh()


_refresh()
