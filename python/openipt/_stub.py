# SPDX-License-Identifier: Apache-2.0
"""Writes openipt/__init__.pyi from the built-in catalogue (no plugins loaded).

    python -m openipt._stub [path]     (default: print to stdout)

tests/python/test_package.py fails when the committed stub differs from what
this prints, so it cannot go stale.
"""

import inspect
import sys

from . import _ipt
from ._catalogue import ENUM, FLOAT, FLOATS, INPUT, INT, Operator, python_name

_HEADER = '''# SPDX-License-Identifier: Apache-2.0
"""Type stub of openipt, generated from the operator catalogue by
python -m openipt._stub; do not edit."""

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal

import numpy.typing as npt

_Array = npt.NDArray[Any]
_Device = int | str | None

__version__: str

class Error(Exception):
    status: int | None
    status_name: str | None

{errors}
def devices() -> list[dict[str, Any]]: ...
def info() -> dict[str, Any]: ...
def device(spec: int | str) -> AbstractContextManager[None]: ...
def explain() -> dict[str, Any] | None: ...
def operators() -> dict[str, str]: ...
def call(op: str, *args: Any, **kwargs: Any) -> Any: ...
def load_plugin(path: str) -> None: ...
'''


def _annotation(p):
    kind = p["kind"]
    if kind == INPUT:
        return "npt.ArrayLike"
    if kind == ENUM:
        return "Literal[" + ", ".join(repr(v) for v in p["values"].split("|")) + "] | str"
    if kind == INT:
        return "int"
    if kind == FLOAT:
        return "float"
    assert kind == FLOATS
    return "float | Sequence[float] | npt.ArrayLike | str"


def _function(operator):
    parts, star = [], False
    for q in operator.signature.parameters.values():
        if q.kind is inspect.Parameter.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if q.name == "nargout":
            ann = "int"
        elif q.name == "device":
            ann = "_Device"
        else:
            ann = _annotation(operator.arg_of[q.name])
            if q.default is None:
                ann += " | None"
        parts.append(f"{q.name}: {ann}" + ("" if q.default is inspect.Parameter.empty else " = ..."))
    ret = "_Array" if len(operator.outputs) == 1 else "_Array | tuple[_Array, ...]"
    summary = operator.schema["summary"]
    return (f"def {python_name(operator.schema)}({', '.join(parts)}) -> {ret}:\n"
            f'    """{summary} (MATLAB: {operator.schema["matlab"]})."""\n')


def generate():
    from ._errors import CLASSES
    errors = "".join(f"class {c.__name__}(Error{''.join(', ' + b.__name__ for b in c.__bases__[1:])}): ...\n"
                     for c in CLASSES.values())
    ctx = _ipt.Context(_ipt.CONTEXT_NO_DISCOVERY)
    ops = sorted((Operator(s) for s in ctx.ops()), key=lambda o: python_name(o.schema))
    return _HEADER.format(errors=errors) + "\n" + "\n".join(_function(o) for o in ops)


def main(argv):
    text = generate()
    if len(argv) > 1:
        with open(argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
