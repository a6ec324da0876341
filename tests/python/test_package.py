# SPDX-License-Identifier: Apache-2.0
"""Classes, layouts, errors, devices, dispatch records, threads, plugins and
the stub of the openipt package."""

import os
import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest

import openipt as ipt

rng = np.random.default_rng(61)

CLASSES = [np.bool_, np.uint8, np.uint16, np.int16, np.int32, np.uint32, np.float32, np.float64]


@pytest.mark.parametrize("dtype", CLASSES)
def test_every_matlab_class_round_trips(dtype):
    a = (rng.random((5, 7)) * 50).astype(dtype)
    b = ipt.padarray(a, [0, 0])  # a copy in the class of A
    assert b.dtype == np.dtype(dtype) and b.shape == a.shape
    np.testing.assert_array_equal(b, a)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, np.float16, np.complex128])
def test_unsupported_dtype_names_the_parameter(dtype):
    with pytest.raises(ipt.InvalidArgumentError, match="parameter 'I'.*" + np.dtype(dtype).name):
        ipt.imcomplement(np.zeros((2, 2), dtype))


def test_class_the_operator_refuses_is_the_librarys_error():
    with pytest.raises(ipt.InvalidArgumentError, match="ipt.conv2.*'A'"):
        ipt.conv2(np.zeros((3, 3), np.uint8), np.ones((2, 2)))


def test_error_classes_follow_the_status_names():
    assert issubclass(ipt.InvalidArgumentError, ipt.Error) and issubclass(ipt.InvalidArgumentError, ValueError)
    for name in ["Unsupported", "OutOfMemory", "NotFound", "Plugin", "Device", "Internal", "Abi", "Misuse"]:
        cls = getattr(ipt, name + "Error")
        assert issubclass(cls, ipt.Error) and cls.status_name.startswith("IPT_ERR_")


def test_errors_carry_the_librarys_message():
    with pytest.raises(ipt.InvalidArgumentError, match="'sigma' must be in"):
        ipt.imgaussfilt(np.zeros((4, 4)), -1.0)
    with pytest.raises(ipt.InvalidArgumentError, match="'Padding'"):
        ipt.imgaussfilt(np.zeros((4, 4)), Padding="nope")


def test_rgb_channel_last_round_trip():
    rgb = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
    d = ipt.im2double(rgb)
    assert d.shape == (6, 8, 3) and d.dtype == np.float64
    np.testing.assert_array_equal(d, rgb / 255.0)
    back = ipt.im2uint8(d)  # an output view fed back in: planes already, no conversion
    np.testing.assert_array_equal(back, rgb)
    np.testing.assert_array_equal(ipt.imcomplement(rgb), 255 - rgb)


def test_imresize_takes_any_number_of_planes():
    # MATLAB resizes the first two dimensions: each plane as on its own.
    a = rng.random((6, 5, 4))
    b = ipt.imresize(a, 2.0)
    assert b.shape == (12, 10, 4) and b.dtype == np.float64
    for p in range(4):
        np.testing.assert_array_equal(b[:, :, p], ipt.imresize(np.ascontiguousarray(a[:, :, p]), 2.0))
    assert "(H, W, planes)" in ipt.imresize.__doc__
    # An operator that takes 1 or 3 planes still refuses 2.
    with pytest.raises(ipt.InvalidArgumentError, match="parameter 'A' must have 1 or 3 channels, got 2"):
        ipt.mean2(rng.random((6, 5, 2)))


def test_non_contiguous_and_big_endian_inputs():
    a = rng.integers(0, 1000, (8, 10)).astype(np.uint16)
    np.testing.assert_array_equal(ipt.imcomplement(a[::2, 1::3]), 65535 - a[::2, 1::3])
    np.testing.assert_array_equal(ipt.imcomplement(a.astype(">u2")), 65535 - a)
    np.testing.assert_array_equal(ipt.imcomplement(a.T), 65535 - a.T)


def test_empty_image():
    assert ipt.imcomplement(np.zeros((0, 4), np.uint8)).shape == (0, 4)


def test_devices_and_info():
    devs = ipt.devices()
    assert devs[0]["id"] == 0 and devs[0]["kind"] == "cpu"
    report = ipt.info()
    assert report["abi_version"] >= 1
    assert any(p["outcome"] == "loaded" and p["name"] for p in report["plugins"])


def test_device_keyword_on_the_cpu_and_explain():
    a = rng.random((16, 16))
    b = ipt.imgaussfilt(a, 1.0, device="cpu")
    rec = ipt.explain()
    assert rec["op"] == "ipt.imgaussfilt" and rec["device_id"] == 0
    assert rec["candidates"] and any(c["chosen"] for c in rec["candidates"])
    np.testing.assert_array_equal(b, ipt.imgaussfilt(a, 1.0, device=0))


def _vulkan():
    return next((d for d in ipt.devices() if d["kind"] == "vulkan"), None)


def test_device_keyword_on_vulkan():
    dev = _vulkan()
    if dev is None:
        pytest.skip("no Vulkan device (the Vulkan plugin is not built or no driver, e.g. lavapipe, is installed)")
    a = rng.integers(0, 256, (33, 47), dtype=np.uint8)
    np.testing.assert_array_equal(ipt.imcomplement(a, device="vulkan"), 255 - a)
    assert ipt.explain()["device_id"] == dev["id"]
    b = ipt.imgaussfilt(a, 2.0, device="vulkan:0")
    assert ipt.explain()["device_id"] == dev["id"]
    np.testing.assert_array_equal(b, ipt.imgaussfilt(a, 2.0, device="cpu"))  # integer outputs exact


def test_device_context_manager():
    a = rng.random((8, 8))
    with ipt.device("cpu"):
        ipt.imboxfilt(a)
        assert ipt.explain()["device_id"] == 0
        dev = _vulkan()
        if dev is not None:
            ipt.imboxfilt(a, device=dev["id"])  # the call's own device wins
            assert ipt.explain()["device_id"] == dev["id"]


def test_unknown_device():
    with pytest.raises(ipt.NotFoundError, match="unknown device 'nope'; devices: 0 "):
        ipt.imcomplement(np.zeros((2, 2), np.uint8), device="nope")


def test_threads_run_calls_in_parallel():
    images = [rng.random((64, 64)) for _ in range(8)]
    expect = [ipt.imgaussfilt(a, 2.0, device="cpu") for a in images]
    results = [None] * len(images)
    errors = []

    def work(i):
        try:
            for _ in range(5):
                results[i] = ipt.imgaussfilt(images[i], 2.0, device="cpu")
                assert ipt.explain()["op"] == "ipt.imgaussfilt"  # per thread
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(images))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for r, e in zip(results, expect):
        np.testing.assert_array_equal(r, e)


def test_load_plugin_failure_is_reported():
    with pytest.raises(ipt.PluginError):
        ipt.load_plugin("/nonexistent/libipt_nothing.so")
    assert any(p["path"] == "/nonexistent/libipt_nothing.so" and p["outcome"] == "failed"
               for p in ipt.info()["plugins"])


def test_call_by_operator_name():
    a = np.arange(4, dtype=np.uint8).reshape(2, 2)
    np.testing.assert_array_equal(ipt.call("ipt.imcomplement", a), 255 - a)
    with pytest.raises(ipt.NotFoundError):
        ipt.call("acme.nothing", a)


def test_plugin_operator_appears_after_load_plugin():
    folder = os.environ.get("IPT_TEST_PLUGIN_DIR", "")
    plugin = pathlib.Path(folder) / "libipt_abi_oldest.so"
    if not folder or not plugin.exists():
        pytest.skip("IPT_TEST_PLUGIN_DIR does not name the build's tests/plugins folder (libipt_abi_oldest.so)")
    # In a process of its own: the plugin's device must not join the other tests' context.
    code = f"""
import numpy as np, openipt as ipt
assert not hasattr(ipt, "scale")
ipt.load_plugin({str(plugin)!r})
b = ipt.scale(np.ones((2, 3)), 3.0, mode="add")
assert (b == 4).all(), b
assert "abi_oldest.scale" in ipt.scale.__doc__
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    # IPT_PLUGIN_PATH, read when the context is made at import, as in C.
    code = """
import openipt as ipt
assert ipt.operators()["scale"] == "abi_oldest.scale"
assert any(p["source"] == "IPT_PLUGIN_PATH" and p["name"] == "abi_oldest" for p in ipt.info()["plugins"])
print("ok")
"""
    env = dict(os.environ, IPT_PLUGIN_PATH=str(plugin))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_stub_is_current():
    from openipt import _stub
    stub = pathlib.Path(ipt.__file__).with_name("__init__.pyi")
    assert stub.read_text() == _stub.generate(), "python/openipt/__init__.pyi is stale: run python -m openipt._stub"


def test_inputs_are_not_copied():
    from openipt import _arrays, _ipt
    a = rng.random((32, 32))
    assert np.shares_memory(_arrays.to_image("op", "A", a, 1 << 8)[0], a)  # the array's own bytes
    planes = ipt.im2double(rng.integers(0, 256, (4, 5, 3), dtype=np.uint8))  # (H, W, 3) view of planes
    assert np.shares_memory(_arrays.to_image("op", "A", planes, 1 << 8)[0], planes)
    before = _ipt.input_copies()
    np.testing.assert_array_equal(ipt.imcomplement(a), 1 - a)
    np.testing.assert_array_equal(ipt.imcomplement(planes), 1 - planes)
    assert _ipt.input_copies() == before  # wrapped by ipt_image_wrap_host, not copied
    # Misaligned for its class: the library copies it, the result is the same.
    raw = np.zeros(8 * 16 + 1, np.uint8)
    odd = np.frombuffer(raw.data, dtype=np.float64, count=16, offset=1).reshape(4, 4)
    assert not odd.flags.aligned
    np.testing.assert_array_equal(ipt.imcomplement(odd), 1 - odd)
    assert _ipt.input_copies() == before + 1


def test_inputs_are_never_written():
    a = rng.integers(0, 256, (16, 16), dtype=np.uint8)
    a.flags.writeable = False  # read-only memory is fine: it is only read
    keep = a.copy()
    for f in (ipt.imcomplement, ipt.medfilt2, ipt.imgaussfilt):
        f(a)
    np.testing.assert_array_equal(a, keep)


def test_one_version_for_the_library_and_the_package():
    cmake = (pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt").read_text()
    want = cmake.split("project(OpenIPT VERSION ", 1)[1].split()[0]
    assert ipt.__version__ == want
    try:
        from importlib.metadata import PackageNotFoundError, version
        assert version("openipt") == want
    except PackageNotFoundError:
        pass  # run from a build folder: no distribution metadata
