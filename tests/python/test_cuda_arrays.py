# SPDX-License-Identifier: Apache-2.0
"""Arrays beyond NumPy: host objects with __dlpack__ or __array_interface__,
and GPU arrays (CuPy, __cuda_array_interface__, CUDA DLPack) read in place
and returned as CuPy arrays. The GPU tests skip, saying why, without CuPy or
an OpenIPT CUDA device. Run them with IPT_SELECT=static, so that the GPU and
the NumPy path run the same implementation (compared bit for bit)."""

import subprocess
import sys

import numpy as np
import pytest

import openipt as ipt
from openipt import _arrays, _ipt

rng = np.random.default_rng(16)

try:
    import cupy as cp
except ImportError:
    cp = None

CUDA = [d for d in ipt.devices() if d["kind"] == "cuda"]


def needs_gpu():
    if cp is None:
        pytest.skip("CuPy not installed")
    if not CUDA:
        pytest.skip("no CUDA device (OpenIPT's CUDA plugin reports none)")


class FakeCuda:
    """Only a __cuda_array_interface__ (the memory behind it is never read:
    every case below fails before)."""

    def __init__(self, shape, typestr, address=0x7F0000000000, strides=None):
        self.__cuda_array_interface__ = {"version": 3, "shape": shape, "typestr": typestr,
                                         "data": (address, False), "strides": strides, "stream": None}


# ---- host objects ---------------------------------------------------------------------

class OnlyDlpack:
    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class OnlyArrayInterface:
    def __init__(self, a):
        self._a = a
        self.__array_interface__ = a.__array_interface__


def test_host_dlpack_object_is_read_in_place():
    a = rng.integers(0, 256, (12, 9), dtype=np.uint8)
    kind, payload = _arrays.to_input("op", "I", OnlyDlpack(a), 1 << 1)
    assert kind == _arrays.HOST_IMAGE
    assert np.shares_memory(payload[0], a)
    before = _ipt.input_copies()
    out = ipt.imcomplement(OnlyDlpack(a))
    assert out.dtype == np.uint8  # the class is kept, not read as a double literal
    np.testing.assert_array_equal(out, 255 - a)
    assert _ipt.input_copies() == before


def test_host_array_interface_object_keeps_its_class():
    a = rng.integers(0, 60000, (7, 5), dtype=np.uint16)
    kind, payload = _arrays.to_input("op", "I", OnlyArrayInterface(a), 1 << 2)
    assert kind == _arrays.HOST_IMAGE and np.shares_memory(payload[0], a)
    out = ipt.imcomplement(OnlyArrayInterface(a))
    assert out.dtype == np.uint16
    np.testing.assert_array_equal(out, 65535 - a)


def test_numpy_users_never_import_cupy():
    code = ("import sys, numpy as np, openipt as ipt; ipt.medfilt2(np.eye(5, dtype=np.uint8)); "
            "ipt.imcomplement(np.eye(3)); assert 'cupy' not in sys.modules, 'cupy imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- errors of GPU arrays, without a GPU ---------------------------------------------------

def test_cuda_array_on_a_device_openipt_does_not_have():
    with pytest.raises(ipt.NotFoundError, match="'I'") as info:
        ipt.imcomplement(FakeCuda((4, 4), "|u1"))
    msg = str(info.value)
    assert "no CUDA device" in msg or "no OpenIPT CUDA device holds" in msg


@pytest.mark.parametrize("typestr, why", [("<i8", "int64"), ("<c8", "complex64"), ("<f2", "float16"),
                                          ("zz", "not a NumPy type"), (">f4" if sys.byteorder == "little"
                                                                      else "<f4", "byte order")])
def test_unsupported_typestr_names_the_parameter(typestr, why):
    with pytest.raises(ipt.InvalidArgumentError, match=r"imcomplement: parameter 'I'") as info:
        ipt.imcomplement(FakeCuda((4, 4), typestr))
    assert why in str(info.value)


def test_strides_that_are_not_rows_are_an_error():
    with pytest.raises(ipt.InvalidArgumentError, match="not C-contiguous"):
        ipt.imcomplement(FakeCuda((4, 4), "|u1", strides=(8, 1)))  # every other row
    with pytest.raises(ipt.InvalidArgumentError, match="not C-contiguous"):
        ipt.imcomplement(FakeCuda((4, 4), "|u1", strides=(1, 4)))  # a transpose
    # Strides of a dimension of extent 1 do not matter.
    with pytest.raises(ipt.NotFoundError):
        ipt.imcomplement(FakeCuda((1, 4), "|u1", strides=(99, 1)))


def test_other_gpu_array_errors():
    with pytest.raises(ipt.InvalidArgumentError, match="not aligned"):
        ipt.imcomplement(FakeCuda((4, 4), "<f4", address=0x7F0000000001))
    with pytest.raises(ipt.InvalidArgumentError, match="4-D"):
        ipt.imcomplement(FakeCuda((2, 2, 2, 2), "|u1"))
    with pytest.raises(ipt.InvalidArgumentError, match="empty"):
        ipt.imcomplement(FakeCuda((0, 4), "|u1"))
    with pytest.raises(ipt.InvalidArgumentError, match="lacks"):
        ipt.imcomplement(type("Broken", (), {"__cuda_array_interface__": {"shape": (2, 2)}})())


def test_channel_last_and_cuda_dlpack_need_cupy():
    if cp is not None:
        pytest.skip("CuPy is installed: these are the errors without it")
    with pytest.raises(ipt.InvalidArgumentError, match="CuPy, which is not installed"):
        ipt.imcomplement(FakeCuda((4, 4, 3), "|u1"))

    class CudaDlpack:
        def __dlpack__(self, **kwargs):
            raise AssertionError("must not be called")

        def __dlpack_device__(self):
            return (2, 0)

    with pytest.raises(ipt.InvalidArgumentError, match="needs CuPy"):
        ipt.imcomplement(CudaDlpack())


def test_channel_last_view_of_planes_needs_no_conversion():
    # (H, W, C) with the strides of planes: read in place, CuPy or not.
    h, w = 4, 5
    fake = FakeCuda((h, w, 3), "|u1", strides=(w, 1, h * w))
    with pytest.raises(ipt.NotFoundError):  # got as far as wrapping
        ipt.imcomplement(fake)


# ---- on the GPU -------------------------------------------------------------------------

def cuda_id():
    return CUDA[0]["id"]


def test_cupy_in_cupy_out_without_copies():
    needs_gpu()
    a_host = rng.integers(0, 256, (64, 48), dtype=np.uint8)
    a = cp.asarray(a_host)
    before = _ipt.input_copies()
    out = ipt.imcomplement(a)
    assert isinstance(out, cp.ndarray) and out.dtype == cp.uint8 and out.shape == (64, 48)
    # The output is the image's own memory: the owner holds the ImageRef.
    ref = out.data.mem._owner
    assert isinstance(ref, _ipt.ImageRef)
    assert out.data.ptr == ref.address
    rec = ipt.explain()
    assert rec["device_id"] == cuda_id()
    assert rec["transfer_ms"] == 0
    assert _ipt.input_copies() == before
    # The wrapped input is the array itself.
    kind, dev_in = _arrays.to_input("op", "I", a, 1 << 1)
    assert kind == _arrays.DEVICE_IMAGE and dev_in.address == a.data.ptr and len(dev_in.keep) == 1
    np.testing.assert_array_equal(cp.asnumpy(out), 255 - a_host)
    np.testing.assert_array_equal(cp.asnumpy(a), a_host)  # never written
    # An output is an input of the next call in place.
    again = ipt.imcomplement(out)
    np.testing.assert_array_equal(cp.asnumpy(again), a_host)


def test_results_equal_the_numpy_path_bit_for_bit():
    needs_gpu()
    dev = cuda_id()
    img = rng.random((97, 131)).astype(np.float32)
    u8 = rng.integers(0, 256, (97, 131), dtype=np.uint8)
    rgb = rng.integers(0, 256, (45, 67, 3), dtype=np.uint8)
    kernel = rng.random((5, 3))
    cases = [
        (lambda x: ipt.conv2(x, kernel.astype(np.float32)), img),
        (lambda x: ipt.conv2(x, kernel, shape="same"), img.astype(np.float64)),
        (lambda x: ipt.imgaussfilt(x, 2.0), img),
        (lambda x: ipt.imgaussfilt(x, 1.5), u8),
        (lambda x: ipt.medfilt2(x, [5, 5]), u8),
        (lambda x: ipt.rgb2gray(x), rgb),
    ]
    for f, host in cases:
        with ipt.device(dev):
            expect = f(host)
        variant = ipt.explain()["variant"]
        got = f(cp.asarray(host))
        # The same implementation (IPT_SELECT=static makes the choice fixed).
        assert ipt.explain()["variant"] == variant
        assert isinstance(got, cp.ndarray)
        assert got.dtype == expect.dtype and got.shape == expect.shape
        np.testing.assert_array_equal(cp.asnumpy(got), expect)


def test_channel_last_inputs_and_outputs():
    needs_gpu()
    rgb = rng.integers(0, 256, (33, 21, 3), dtype=np.uint8)
    d = cp.asarray(rgb)  # C-contiguous (H, W, 3): converted to planes once on the GPU
    kind, dev_in = _arrays.to_input("op", "RGB", d, 1 << 1)
    assert len(dev_in.keep) == 2
    double = ipt.im2double(d)
    assert double.shape == (33, 21, 3)
    # The output is a channel-last view of planes: the next call reads it in place.
    kind, dev_in = _arrays.to_input("op", "A", double, 1 << 9)
    assert len(dev_in.keep) == 1 and dev_in.address == double.data.ptr
    with ipt.device(cuda_id()):
        expect = ipt.rgb2gray(ipt.im2double(rgb))
    np.testing.assert_array_equal(cp.asnumpy(ipt.rgb2gray(double)), expect)


def test_on_a_non_default_stream():
    needs_gpu()
    host = rng.random((1024, 1024)).astype(np.float32)
    with ipt.device(cuda_id()):
        expect = ipt.imgaussfilt(host, 3.0)
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        a = cp.asarray(host) * 2  # queued on the stream, not yet done
        a = a / 2
        out = ipt.imgaussfilt(a, 3.0)  # queued after it on the same stream
        assert out.data.mem._owner.stream.ptr == stream.ptr  # the output keeps its stream alive
        got = out.get(stream=stream)  # ordered after the call on the stream
    stream.synchronize()
    np.testing.assert_array_equal(got, expect)
    # The output is the last holder of its stream: freeing it frees the image
    # on the stream before the stream goes.
    del stream, a
    out = None
    cp.cuda.Device().synchronize()
    # The plugin's own stream is back: a NumPy call afterwards works.
    np.testing.assert_array_equal(ipt.imgaussfilt(host, 3.0, device=cuda_id()), expect)


def test_other_cuda_array_objects():
    needs_gpu()
    host = rng.integers(0, 256, (16, 24), dtype=np.uint8)
    a = cp.asarray(host)

    class Interface:  # as Numba or PyTorch expose theirs
        def __init__(self, arr):
            self.__cuda_array_interface__ = arr.__cuda_array_interface__

    class Dlpack:  # a CUDA DLPack producer only
        def __init__(self, arr):
            self._arr = arr

        def __dlpack__(self, **kwargs):
            return self._arr.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self._arr.__dlpack_device__()

    for obj in (Interface(a), Dlpack(a)):
        out = ipt.imcomplement(obj)
        np.testing.assert_array_equal(cp.asnumpy(out), 255 - host)
    with pytest.raises(ipt.InvalidArgumentError, match="not C-contiguous"):
        ipt.imcomplement(a[:, ::2])


def test_device_keyword_moves_gpu_inputs_to_the_host():
    needs_gpu()
    host = rng.integers(0, 256, (16, 24), dtype=np.uint8)
    out = ipt.imcomplement(cp.asarray(host), device="cpu")
    assert isinstance(out, np.ndarray)  # ran on the host: a NumPy result
    np.testing.assert_array_equal(out, 255 - host)
