# SPDX-License-Identifier: Apache-2.0
"""Python functions generated from the operator schemas (ipt_ops.h), at import
and again when a plugin is loaded. No operator is written here by hand."""

import inspect
import keyword
import numbers

import numpy as np

from . import _arrays
from ._errors import raise_error

# ipt_param_kind and the flags of ipt_ops.h that shape the Python signature.
INPUT, OUTPUT, INT, FLOAT, FLOATS, ENUM = 1, 2, 3, 4, 5, 6
P_OPTIONAL, P_RGB, P_VECTOR, P_PLANES = 0x0001, 0x0002, 0x0004, 0x2000
# What the extension's run() takes for each kind of value.
_IMAGE, _INT, _FLOAT, _FLOATS, _STRING, _TEXT = 0, 1, 2, 3, 4, 5


def python_name(schema):
    """MATLAB's name ("ipt.integralimage" -> integralImage); a plugin's operator
    without one goes by the part after its namespace."""
    return schema["matlab"] or schema["name"].rsplit(".", 1)[-1]


def _arg_name(name):
    return name + "_" if keyword.iskeyword(name) else name


def _parse_default(p):
    text = p["default"]
    if text is None:
        return None
    if p["kind"] == ENUM:
        return text
    try:
        values = [float(v) for v in text.strip("[]").replace(",", " ").replace(";", " ").split()]
    except ValueError:
        return text  # a range such as "0:179": the textual form is accepted too
    if p["kind"] == INT:
        return int(values[0])
    if p["kind"] == FLOAT or len(values) == 1:
        return values[0]
    return values


class Operator:
    """One schema and the signature, docstring and argument conversion made from it."""

    def __init__(self, schema):
        self.schema = schema
        self.name = schema["name"]
        self.params = [p for p in schema["params"] if p["kind"] != OUTPUT]
        self.outputs = [p for p in schema["params"] if p["kind"] == OUTPUT]
        required = [i for i, p in enumerate(self.outputs) if not p["flags"] & P_OPTIONAL]
        self.default_nargout = max(required, default=0) + 1
        self.arg_of = {_arg_name(p["name"]): p for p in self.params}
        self.signature = self._signature()

    def _alternative_params(self):
        groups = (self.schema["alternatives"] or "").replace(",", "|").split("|")
        return {g for g in groups if g}

    def _signature(self):
        alternatives = self._alternative_params()
        sig_params, seen_default, keyword_only = [], False, False
        for p in self.params:
            if p["default"] is not None:
                default = _parse_default(p)
            elif p["flags"] & P_OPTIONAL or p["name"] in alternatives:
                default = None
            else:
                default = inspect.Parameter.empty
            # A required parameter after one with a default, and all after it, can only be keywords.
            keyword_only |= seen_default and default is inspect.Parameter.empty
            seen_default |= default is not inspect.Parameter.empty
            kind = inspect.Parameter.KEYWORD_ONLY if keyword_only else inspect.Parameter.POSITIONAL_OR_KEYWORD
            sig_params.append(inspect.Parameter(_arg_name(p["name"]), kind, default=default))
        for extra, default in (("nargout", self.default_nargout), ("device", None)):
            if extra not in self.arg_of:
                sig_params.append(inspect.Parameter(extra, inspect.Parameter.KEYWORD_ONLY, default=default))
        return inspect.Signature(sig_params)

    # ---- conversion of one call ------------------------------------------------------
    def convert(self, arg, value):
        p, op = self.arg_of[arg], self.name
        name, kind = p["name"], p["kind"]
        if kind == INPUT:
            kind, image = _arrays.to_input(op, name, value, p["dtypes"])
            return (name, kind, image)
        if isinstance(value, str):
            return (name, _STRING if kind == ENUM else _TEXT, value)
        if kind == ENUM:
            raise_error(1, f"{op}: parameter '{name}': expected one of {p['values']} as a string, "
                           f"got {type(value).__name__}")
        if kind == INT:
            if isinstance(value, numbers.Integral):
                return (name, _INT, int(value))
            if isinstance(value, numbers.Real) and float(value).is_integer():
                return (name, _INT, int(value))
            raise_error(1, f"{op}: parameter '{name}': expected a whole number, got {value!r}")
        if kind == FLOAT:
            if isinstance(value, numbers.Real) or (isinstance(value, np.ndarray) and value.size == 1):
                return (name, _FLOAT, float(np.asarray(value, dtype=np.float64).reshape(-1)[0]))
            raise_error(1, f"{op}: parameter '{name}': expected a number, got {type(value).__name__}")
        if kind == FLOATS:
            try:
                values = np.asarray(value, dtype=np.float64).reshape(-1)  # row by row, as the CLI's text
            except (TypeError, ValueError):
                raise_error(1, f"{op}: parameter '{name}': expected numbers, got {value!r}")
            return (name, _FLOATS, values.tolist())
        raise_error(1, f"{op}: parameter '{name}': kind {kind} is not known to this package")

    def outputs_for(self, nargout):
        if not isinstance(nargout, numbers.Integral) or not 1 <= nargout <= len(self.outputs):
            raise_error(1, f"{self.name}: nargout must be 1 to {len(self.outputs)}, got {nargout!r}")
        chosen = self.outputs[:max(nargout, self.default_nargout)]
        want = [p["name"] for p in chosen if p["flags"] & P_OPTIONAL]
        return [p["name"] for p in chosen], want, nargout

    # ---- documentation ---------------------------------------------------------------
    def _type_text(self, p):
        kind = p["kind"]
        if kind in (INPUT, OUTPUT):
            classes = ", ".join(_arrays.NAME_OF_CODE[c] for c in _arrays.accepted_codes(p["dtypes"]))
            shape = "2-D"
            if p["flags"] & P_PLANES:  # overrides P_RGB
                shape = "2-D or (H, W, planes)"
            elif p["flags"] & P_RGB:
                shape = "2-D or (H, W, 3)"
            if p["flags"] & P_VECTOR:
                shape = "vector"
            return f"ndarray ({classes}; {shape})" if kind == INPUT else f"ndarray ({classes})"
        if kind == ENUM:
            return "{" + ", ".join(repr(v) for v in p["values"].split("|")) + "}"
        if kind == INT:
            return "int" + (f" in {{{p['values'].replace('|', ', ')}}}" if p["values"] else "")
        if kind == FLOAT:
            return "float"
        lo, hi = p["min_count"], p["max_count"]
        return f"float or sequence of {lo} to {hi} floats" if lo != hi else f"sequence of {lo} floats"

    @staticmethod
    def _bounds_text(p):
        if p["kind"] not in (INT, FLOAT, FLOATS):
            return ""
        lo, hi = p["min"], p["max"]
        if lo == hi == 0 or (lo <= -1.7e308 and hi >= 1.7e308):
            return ""
        fmt = lambda v: "inf" if v >= 1.7e308 else "-inf" if v <= -1.7e308 else f"{v:g}"  # noqa: E731
        return f", in [{fmt(lo)}, {fmt(hi)}]"

    def docstring(self):
        s = self.schema
        lines = [f"{python_name(s)}{self.signature}", "",
                 f"{s['summary']} (MATLAB: {s['matlab'] or '-'}; OpenIPT operator {s['name']}).", ""]
        if s["alternatives"]:
            lines += [f"Exactly one group of {s['alternatives']!r} is given.", ""]
        lines += ["Parameters", "----------"]
        for p in self.params:
            default = (f", default {p['default']}" if p["default"] is not None
                       else ", optional" if p["flags"] & P_OPTIONAL else "")
            lines += [f"{_arg_name(p['name'])} : {self._type_text(p)}{default}{self._bounds_text(p)}",
                      f"    {p['doc'] or ''}"]
        lines += [f"nargout : int, default {self.default_nargout}",
                  f"    how many outputs to return, in MATLAB's order (1 to {len(self.outputs)})",
                  "device : int or str, optional",
                  "    run on this device only (id, kind, 'kind:N' or name; see openipt.devices())",
                  "", "Returns", "-------"]
        for p in self.outputs:
            opt = " (only with a larger nargout)" if p["flags"] & P_OPTIONAL else ""
            lines += [f"{p['name']} : {self._type_text(p)}{opt}", f"    {p['doc'] or ''}"]
        return "\n".join(lines)


def make_function(operator, run):
    """The module-level function of one operator; `run(operator, params,
    outputs, want, device)` does the call."""
    sig = operator.signature

    def function(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)  # only what the caller gave; the library fills defaults
        nargout, device = operator.default_nargout, None
        params = []
        for arg, value in bound.arguments.items():
            if arg == "nargout" and arg not in operator.arg_of:
                nargout = value
            elif arg == "device" and arg not in operator.arg_of:
                device = value
            elif value is not None:
                params.append(operator.convert(arg, value))
        names, want, n = operator.outputs_for(nargout)
        results = run(operator, params, names, want, device)[:n]
        return results[0] if n == 1 else tuple(results)

    function.__name__ = function.__qualname__ = python_name(operator.schema)
    function.__module__ = "openipt"
    function.__signature__ = sig
    function.__doc__ = operator.docstring()
    function.operator = operator.name
    return function
