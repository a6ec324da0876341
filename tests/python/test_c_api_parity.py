# SPDX-License-Identifier: Apache-2.0
"""Every catalogue operator gives, through the Python package, the same bytes
as through the C++ API: the `ipt run` command (which reads and writes .npy
files with its own code, not the extension's) is the other side of each
comparison. Both run on the CPU device. Inputs come from the schema; the
parameters an operator cannot go without are listed in REQUIRED below, and a
new operator without an entry there fails the coverage test, not silently."""

import json
import os
import shutil
import subprocess
import zlib

import numpy as np
import pytest

import openipt as ipt
from openipt import _arrays
from openipt._catalogue import INPUT, OUTPUT, P_OPTIONAL, P_PLANES, P_RGB, P_VECTOR, Operator

ROWS, COLS = 13, 17
COLOUR_OPS = {"ipt.rgb2gray", "ipt.rgb2hsv", "ipt.hsv2rgb", "ipt.rgb2ycbcr", "ipt.ycbcr2rgb"}
# A few operators that take RGB also run once on a (H, W, 3) image; those that
# take any number of planes also on a (H, W, 4) one.
RGB_TOO = {"ipt.imresize", "ipt.imgaussfilt", "ipt.padarray", "ipt.imadjust", "ipt.imcrop"}


def _cli():
    path = os.environ.get("IPT_CLI") or shutil.which("ipt")
    if not path:
        pytest.skip("no `ipt` command: set IPT_CLI to the ipt built with this package's libipt")
    return path


def _image(rng, dtype, shape, unit=False):
    """Random data over the class's range; [0, 1] for floating classes where
    the operator reads intensities (unit)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.4
    if dtype.kind == "f":
        v = rng.random(shape) if unit else rng.normal(0, 2, shape)
        return v.astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, shape, dtype=dtype)


# Parameters an operator needs beyond its images, as (Python value, CLI text),
# and small parameter images, as functions of the main input.
REQUIRED = {
    "ipt.intlut": {"LUT": lambda rng, a: _image(rng, a.dtype, (256 if a.dtype.itemsize == 1 else 65536,))},
    "ipt.imlincomb": {"K": ([0.5], "0.5")},
    "ipt.ordfilt2": {"order": (2, "2"), "domain": lambda rng, a: np.array([[1, 0, 1], [1, 1, 0]], bool)},
    "ipt.conv2": {"B": lambda rng, a: rng.normal(0, 1, (3, 4)).astype(a.dtype)},
    "ipt.imfilter": {"h": lambda rng, a: rng.normal(0, 1, (3, 2))},
    "ipt.fspecial": {"type": ("gaussian", "gaussian")},
    "ipt.strel": {"shape": ("disk", "disk"), "r": (3, "3")},
    "ipt.imdilate": {"nhood": lambda rng, a: np.array([[0, 1, 0], [1, 1, 1], [1, 0, 0]], bool)},
    "ipt.imerode": {"nhood": lambda rng, a: np.array([[1, 1], [0, 1], [1, 1]], bool)},
    "ipt.imresize": {"Scale": ([0.7], "0.7")},
    "ipt.padarray": {"padsize": ([2, 3], "[2 3]")},
    "ipt.imcrop": {"rect": ([2.5, 1.5, 7, 5], "[2.5 1.5 7 5]")},
    "ipt.imrotate": {"angle": (33.0, "33")},
    "ipt.imtranslate": {"translation": ([1.5, -2.25], "[1.5 -2.25]")},
    "ipt.imwarp": {"T": ([1, 0.2, 0, -0.1, 0.9, 0, 3, 1, 1], "[1 0.2 0 -0.1 0.9 0 3 1 1]")},
    "ipt.otsuthresh": {},
    "ipt.normxcorr2": {"A": lambda rng, a: _image(rng, a.dtype, (ROWS + 4, COLS + 3), unit=True)},
}
FIRST_SHAPE = {"ipt.normxcorr2": (4, 5)}
# The CPU backend's FFT plans are chosen by timing them (FFTW_MEASURE) in each
# process, so two processes may round a floating FFT result differently:
# these outputs are compared within the operator's declared bound instead.
FFT_FLOATING = {"ipt.normxcorr2"}  # the template, smaller than A
# The first input of otsuthresh is a histogram, not an image.
FIRST_INPUT = {"ipt.otsuthresh": lambda rng, dtype: rng.integers(0, 50, (1, 256)).astype(dtype)}


def _schemas():
    return {s["name"]: s for s in ipt._context.ops() if s["name"].startswith("ipt.")}


def test_every_operator_with_required_parameters_has_an_entry():
    missing = []
    for name, s in _schemas().items():
        op = Operator(s)
        needs = [p["name"] for p in op.params[1:]
                 if p["default"] is None and not p["flags"] & P_OPTIONAL
                 and p["name"] not in (s["alternatives"] or "").replace(",", "|").split("|")]
        if s["alternatives"]:
            needs.append(s["alternatives"])
        if needs and name not in REQUIRED:
            missing.append(f"{name}: {needs}")
    assert not missing, "add these operators to REQUIRED: " + "; ".join(missing)


def _cases():
    for name, s in sorted(_schemas().items()):
        op = Operator(s)
        first = next((p for p in op.params if p["kind"] == INPUT), None)
        if first is None:  # fspecial, strel: parameters only
            yield pytest.param(name, None, 1, id=name)
            continue
        for code in _arrays.accepted_codes(first["dtypes"]):
            yield pytest.param(name, _arrays.NUMPY_OF_CODE[code], 3 if name in COLOUR_OPS else 1,
                               id=f"{name}-{_arrays.NAME_OF_CODE[code]}")
        if name in RGB_TOO and first["flags"] & (P_RGB | P_PLANES):
            yield pytest.param(name, np.dtype(np.uint8), 3, id=f"{name}-uint8-rgb")
        if name in RGB_TOO and first["flags"] & P_PLANES:
            yield pytest.param(name, np.dtype(np.uint16), 4, id=f"{name}-uint16-4planes")


@pytest.mark.parametrize("name,dtype,channels", list(_cases()))
def test_python_equals_the_cli_bit_for_bit(name, dtype, channels, tmp_path):
    cli = _cli()
    s = _schemas()[name]
    op = Operator(s)
    rng = np.random.default_rng(zlib.crc32(f"{name} {dtype} {channels}".encode()))
    first = next((p for p in op.params if p["kind"] == INPUT), None)
    kwargs, cli_args, a = {}, [], None
    if first is not None:
        if name in FIRST_INPUT:
            a = FIRST_INPUT[name](rng, dtype)
        else:
            shape = (ROWS, COLS, channels) if channels > 1 else (ROWS, COLS)
            if first["flags"] & P_VECTOR:
                shape = (1, COLS)
            shape = FIRST_SHAPE.get(name, shape)
            a = _image(rng, dtype, shape, unit=True)
        kwargs[first["name"]] = a
        np.save(tmp_path / f"{first['name']}.npy", a)
        cli_args += ["--in", f"{first['name']}={tmp_path / (first['name'] + '.npy')}"]
    for pname, spec in REQUIRED.get(name, {}).items():
        if callable(spec):
            v = spec(rng, a)
            kwargs[pname] = v
            np.save(tmp_path / f"{pname}.npy", v)
            cli_args += ["--in", f"{pname}={tmp_path / (pname + '.npy')}"]
        else:
            kwargs[pname] = spec[0]
            cli_args += ["--param", f"{pname}={spec[1]}"]
    outputs = [p["name"] for p in s["params"] if p["kind"] == OUTPUT]
    try:
        got = ipt.call(name, **kwargs, nargout=len(outputs), device="cpu")
    except ipt.Error as e:
        assert channels <= 3, f"{name} refused {channels} planes: {e}"
        # The same refusal must come from the C++ side: nothing to compare then.
        r = subprocess.run([cli, "run", name, "--device", "cpu", *cli_args,
                            "--out", f"{outputs[0]}={tmp_path / 'o.npy'}"], capture_output=True, text=True)
        assert r.returncode != 0, f"Python refused ({e}) but ipt run accepted"
        return
    got = got if isinstance(got, tuple) else (got,)
    outs = []
    for o in outputs:
        outs += ["--out", f"{o}={tmp_path / ('out_' + o + '.npy')}"]
    r = subprocess.run([cli, "run", name, "--device", "cpu", *cli_args, *outs], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for o, mine in zip(outputs, got):
        theirs = np.load(tmp_path / f"out_{o}.npy")
        mine = np.asarray(mine)
        assert mine.dtype == theirs.dtype, o
        # The CLI writes a vector as (n,) or (1, n): compare the elements in order.
        assert mine.size == theirs.size, (o, mine.shape, theirs.shape)
        if theirs.ndim == mine.ndim:
            assert mine.shape == theirs.shape, o
        mine, theirs = np.ascontiguousarray(mine).reshape(-1), np.ascontiguousarray(theirs).reshape(-1)
        if name in FFT_FLOATING and mine.dtype.kind == "f":
            info = json.loads(subprocess.run([cli, "info", "--json", "--op", name], capture_output=True,
                                             text=True, check=True).stdout)
            compare = info["ops"][0]["compare"]
            assert compare["kind"] == "range_eps"
            bound = compare["tolerance"] * np.finfo(mine.dtype).eps * max(1.0, float(np.abs(theirs).max(initial=0)))
            assert np.abs(mine.astype(np.float64) - theirs).max(initial=0) <= bound, f"{name}: output {o}"
            continue
        assert mine.tobytes() == theirs.tobytes(), f"{name}: output {o} differs"

