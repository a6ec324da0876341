# SPDX-License-Identifier: Apache-2.0
"""openipt.dask: the tiled call against the whole-image call (another code
path: one call over the whole array), for every tiling kind, every window
operator, odd chunks, chunks smaller than the halo, 1xN and Nx1 chunking;
refusals; a cluster of worker processes."""

import os
import pathlib

import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="dask is not installed (tools/install-deps.sh installs it)")

import openipt as ipt  # noqa: E402
import openipt.dask as ipd  # noqa: E402

rng = np.random.default_rng(1616)


@pytest.fixture(autouse=True)
def on_the_host():
    """The tiled and the whole-image calls on one implementation (the CPU's),
    so that they are compared bit for bit: with several devices the selection
    may run them on different ones, whose floating results may differ in the
    last bit within the catalogue's bounds. The CuPy tests below pin CUDA."""
    ipt._context.set_device(ipt._ipt.DEVICE_HOST)
    yield
    ipt._context.set_device(ipt._ipt.DEVICE_ANY)
SHAPE = (37, 41)
# Odd chunks; chunks smaller than twice the halo (and than the halo: merged);
# one row or one column per chunk.
CHUNKINGS = [(7, 9), (3, 4), (1, 41), (37, 1)]


def image(dtype, shape=SHAPE):
    if dtype == np.bool_:
        return rng.random(shape) > 0.6
    if dtype in (np.float64, np.float32):
        return rng.random(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(dtype)


def tolerance(ref):
    """One unit of the catalogue's range bound: eps(class) * max(1, max|ref|)."""
    return np.finfo(ref.dtype).eps * max(1.0, float(np.nanmax(np.abs(ref)))) if ref.size else 0


def integral_bound(a):
    """Window sums taken as differences of an integral image (imboxfilt,
    adaptthresh's 'mean') round with the integral's magnitude, which grows
    with the sum of the image before the pixel; a chunk's integral starts at
    the chunk. The two results differ by at most about 8 eps * sum|A| (A on
    the [0,1] scale for integer classes) over the window's element count
    (at least 9 here)."""
    unit = float(np.iinfo(a.dtype).max) if a.dtype.kind in "iu" else 1.0
    return 8 * np.finfo(np.float64).eps * float(np.abs(a.astype(np.float64) / unit).sum()) / 9


def check_equal(tiled, whole, bound_ulps=0, a=None):
    """Bit for bit (0), within bound_ulps of the catalogue's range bound, or
    within integral_bound(a) ("integral")."""
    assert tiled.shape == whole.shape and tiled.dtype == whole.dtype, (tiled.shape, whole.shape, tiled.dtype)
    if whole.dtype.kind in "biu" or bound_ulps == 0:
        np.testing.assert_array_equal(tiled, whole)
    elif bound_ulps == "integral":
        np.testing.assert_allclose(tiled, whole, rtol=0, atol=integral_bound(a))
    else:
        np.testing.assert_allclose(tiled, whole, rtol=0, atol=bound_ulps * tolerance(whole))


# (python name, keyword arguments, dtype, 0 for bit for bit, or the bound: check_equal)
BOX = np.ones((3, 5), dtype=bool)
WINDOW_CASES = [
    ("medfilt2", {"size": [5, 5]}, np.uint8, 0),
    ("medfilt2", {"size": [4, 6], "padopt": "symmetric"}, np.float64, 0),
    ("ordfilt2", {"order": 5, "domain": np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], dtype=bool)}, np.int16, 0),
    ("conv2", {"B": rng.random((5, 3)), "shape": "same"}, np.float64, 0),
    ("conv2", {"u": rng.random(4), "v": rng.random(3), "shape": "same"}, np.float64, 0),
    ("imfilter", {"h": rng.random((5, 4)), "boundary": "replicate"}, np.uint8, 0),
    ("imfilter", {"h": rng.random((3, 3)), "boundary": "symmetric", "mode": "conv"}, np.float64, 0),
    ("imgaussfilt", {"sigma": 2}, np.uint8, 0),
    ("imgaussfilt", {"sigma": [1, 1.5], "Padding": "symmetric"}, np.float64, 0),
    ("imgaussfilt", {"sigma": 3, "FilterSize": 5}, np.float32, 0),
    ("imboxfilt", {"filterSize": 5}, np.uint8, 0),
    ("imboxfilt", {"filterSize": [3, 7]}, np.float64, "integral"),
    ("stdfilt", {}, np.uint8, 0),
    ("stdfilt", {"nhood": np.ones((5, 3), dtype=bool)}, np.float64, 0),
    ("rangefilt", {"nhood": BOX}, np.uint8, 0),
    ("entropyfilt", {}, np.uint8, 0),
    ("imdilate", {"nhood": BOX}, np.uint8, 0),
    ("imerode", {"nhood": np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)}, np.bool_, 0),
    ("imgradientxy", {"method": "sobel"}, np.uint8, 0),
    ("imgradient", {"method": "central"}, np.float64, 0),
    ("imgradient", {"method": "roberts"}, np.float64, 0),
    ("wiener2", {"size": [5, 3], "noise": 0.01}, np.uint8, 0),
    ("wiener2", {"size": [3, 3], "noise": 0.02}, np.float64, 0),
    ("adaptthresh", {"NeighborhoodSize": 7}, np.uint8, "integral"),
    ("adaptthresh", {"NeighborhoodSize": 5, "Statistic": "gaussian"}, np.float64, 0),
    ("adaptthresh", {"NeighborhoodSize": 5, "Statistic": "median"}, np.uint8, 0),
]


@pytest.mark.parametrize("chunks", CHUNKINGS, ids=lambda c: f"{c[0]}x{c[1]}")
@pytest.mark.parametrize("name,kwargs,dtype,ulps", WINDOW_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(WINDOW_CASES)])
def test_window_operator_equals_whole_image(name, kwargs, dtype, ulps, chunks):
    a = image(dtype)
    whole = getattr(ipt, name)(a, **kwargs)
    tiled = getattr(ipd, name)(da.from_array(a, chunks=chunks), **kwargs)
    check_equal(tiled.compute(scheduler="sync"), whole, ulps, a)


def test_every_window_operator_is_tested():
    window = {ipt._catalogue.python_name(s) for s in ipt._context.ops()
              if s["name"].startswith("ipt.") and s["tiling"] == ipd.WINDOW}
    assert window == {c[0] for c in WINDOW_CASES}


def test_window_halo_comes_from_the_catalogue():
    assert ipd.tiling("medfilt2", size=[5, 7]) == {"kind": "window", "halo": (2, 3), "reason": ""}
    assert ipd.tiling("imgaussfilt", sigma=2)["halo"] == (4, 4)  # FilterSize 2*ceil(2*2)+1 = 9
    assert ipd.tiling("imgaussfilt", sigma=2, FilterSize=[3, 5])["halo"] == (1, 2)
    assert ipd.tiling("imfilter", h=np.ones((7, 2)))["halo"] == (3, 1)
    assert ipd.tiling("entropyfilt")["halo"] == (4, 4)  # default true(9)
    assert ipd.tiling(ipt.conv2, u=np.ones(5), v=np.ones(9), shape="same")["halo"] == (2, 4)


def test_multiple_outputs_of_a_window_operator():
    a = image(np.float64)
    gx, gy = ipt.imgradientxy(a, nargout=2)
    tx, ty = ipd.imgradientxy(da.from_array(a, chunks=(9, 8)), nargout=2)
    check_equal(tx.compute(), gx)
    check_equal(ty.compute(), gy)


def test_rgb_window_operator_keeps_channels_together():
    a = image(np.uint8, SHAPE + (3,))
    whole = ipt.imgaussfilt(a, sigma=1.5)
    tiled = ipd.imgaussfilt(da.from_array(a, chunks=(10, 10, 1)), sigma=1.5)
    check_equal(tiled.compute(), whole)


POINTWISE_CASES = [
    ("imcomplement", {}, np.uint8),
    ("im2double", {}, np.uint16),
    ("im2uint8", {}, np.float64),
    ("intlut", {"LUT": np.arange(256, dtype=np.uint8)[::-1].copy()}, np.uint8),
    ("mat2gray", {"limits": [0.2, 0.7]}, np.float64),
    ("imadjust", {"low_high_in": [0.1, 0.8]}, np.uint8),
]


@pytest.mark.parametrize("name,kwargs,dtype", POINTWISE_CASES, ids=[c[0] for c in POINTWISE_CASES])
def test_pointwise_operator_equals_whole_image(name, kwargs, dtype):
    a = image(dtype)
    whole = getattr(ipt, name)(a, **kwargs)
    tiled = getattr(ipd, name)(da.from_array(a, chunks=(5, 7)), **kwargs)
    check_equal(tiled.compute(), whole)


def test_pointwise_rgb_to_gray_drops_the_channel_axis():
    a = image(np.uint8, SHAPE + (3,))
    tiled = ipd.rgb2gray(da.from_array(a, chunks=(6, 7, 3)))
    assert tiled.shape == SHAPE
    check_equal(tiled.compute(), ipt.rgb2gray(a))


def test_pointwise_with_two_tiled_images():
    a, b = image(np.uint8), image(np.uint8)
    whole = ipt.imlincomb([0.5, 0.25, 3], a, b)
    tiled = ipd.imlincomb([0.5, 0.25, 3], da.from_array(a, chunks=(8, 8)), da.from_array(b, chunks=(5, 11)))
    check_equal(tiled.compute(), whole)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.bool_, np.float64])
def test_mean2_is_a_map_and_a_reduce(dtype):
    a = image(dtype, (53, 47))
    whole = ipt.mean2(a)
    tiled = ipd.mean2(da.from_array(a, chunks=(10, 13))).compute()
    check_equal(tiled, whole, 0 if dtype != np.float64 else 16)


def test_imhist_and_graythresh_reduce_exactly():
    a = image(np.uint8, (53, 47))
    x = da.from_array(a, chunks=(10, 13))
    counts, locations = ipt.imhist(a, n=64, nargout=2)
    tc, tl = ipd.imhist(x, n=64, nargout=2)
    check_equal(tc.compute(), counts)
    check_equal(tl.compute(), locations)
    d = image(np.float64, (40, 30))
    t, em = ipt.graythresh(d, nargout=2)
    tt, tem = ipd.graythresh(da.from_array(d, chunks=(7, 11)), nargout=2)
    check_equal(tt.compute(), t)
    check_equal(tem.compute(), em)


@pytest.mark.parametrize("name,kwargs,needle", [
    ("histeq", {}, "needs the whole image: the transformation comes from the histogram"),
    ("bwdist", {}, "nearest nonzero pixel"),
    ("conv2", {"B": np.ones((3, 3))}, "tiles only when shape=same"),
    ("imfilter", {"h": np.ones((3, 3)), "boundary": "circular"}, "circular padding"),
    ("imgaussfilt", {"sigma": 1, "Padding": "circular"}, "circular padding"),
    ("wiener2", {}, "noise power is the mean of the local variances"),
    ("mat2gray", {}, "minimum and maximum of the whole image"),
    ("imadjust", {}, "stretchlim"),
    ("imresize", {"Scale": 0.5}, "needs the whole image"),
])
def test_refusals_say_why(name, kwargs, needle):
    x = da.from_array(image(np.float64), chunks=(10, 10))
    with pytest.raises(ipd.NotTileableError, match=needle) as err:
        getattr(ipd, name)(x, **kwargs)
    assert isinstance(err.value, ipt.Error)


def test_map_images_one_image_per_chunk():
    stack = np.stack([image(np.uint8, (24, 20)) for _ in range(5)])
    out = ipd.map_images("imgaussfilt", da.from_array(stack, chunks=(2, 12, 10)), sigma=1.5)
    assert out.chunks[0] == (1,) * 5
    np.testing.assert_array_equal(out.compute(), np.stack([ipt.imgaussfilt(s, sigma=1.5) for s in stack]))
    gx, gy = ipd.map_images(ipt.imgradientxy, stack, nargout=2)
    np.testing.assert_array_equal(gy.compute()[3], ipt.imgradientxy(stack[3], nargout=2)[1])
    m = ipd.map_images(lambda im: ipt.mean2(im) * 2, stack).compute()
    np.testing.assert_array_equal(m[:, 0, 0], [2 * ipt.mean2(s)[0, 0] for s in stack])


def test_docs_table_matches_the_catalogue():
    docs = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    assert ipd.tiling_table() in docs.read_text(encoding="utf-8"), \
        "docs/python.md's tiling table differs from the catalogue: paste openipt.dask.tiling_table()"


def test_local_cluster_of_worker_processes():
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    a = image(np.uint8, (96, 80))
    stack = np.stack([image(np.uint8, (32, 30)) for _ in range(4)])
    env = {k: os.environ[k] for k in ("PYTHONPATH", "IPT_PLUGIN_PATH", "IPT_TUNING_CACHE") if k in os.environ}
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, env=env) as cluster, \
            distributed.Client(cluster) as client:
        tiled = ipd.medfilt2(da.from_array(a, chunks=(25, 30)), size=[5, 5])
        mapped = ipd.map_images(ipt.imgaussfilt, da.from_array(stack, chunks=(1, 32, 30)), sigma=2)
        got, maps = client.compute([tiled, mapped], sync=True)
        pids = client.run(os.getpid)
    assert len(set(pids.values())) == 2 and os.getpid() not in pids.values()
    np.testing.assert_array_equal(got, ipt.medfilt2(a, size=[5, 5]))
    np.testing.assert_array_equal(maps, np.stack([ipt.imgaussfilt(s, sigma=2) for s in stack]))


# ---- CuPy chunks (the GPU machine) -------------------------------------------------------

def cupy_or_skip():
    try:
        import cupy
    except ImportError:
        pytest.skip("CuPy not installed")
    if not [d for d in ipt.devices() if d["kind"] == "cuda"]:
        pytest.skip("no CUDA device (OpenIPT's CUDA plugin reports none)")
    ipt._context.set_device(ipt._ipt.DEVICE_ANY)  # CuPy chunks run where they are
    return cupy


def test_cupy_chunks_stay_on_the_gpu_and_equal_the_whole_image_call():
    cp = cupy_or_skip()
    a = image(np.uint8, (53, 47))
    x = da.from_array(a, chunks=(10, 13)).map_blocks(cp.asarray, dtype=np.uint8)
    for tiled, whole in [(ipd.medfilt2(x, size=[5, 5]), ipt.medfilt2(a, size=[5, 5], device="cuda")),
                         (ipd.imgaussfilt(x, sigma=2), ipt.imgaussfilt(a, sigma=2, device="cuda")),
                         (ipd.imcomplement(x), ipt.imcomplement(a, device="cuda"))]:
        assert isinstance(tiled._meta, cp.ndarray)
        got = tiled.compute()
        assert isinstance(got, cp.ndarray), type(got)
        np.testing.assert_array_equal(cp.asnumpy(got), whole)
    gx, gy = ipd.imgradientxy(x.astype(np.float64), nargout=2)
    np.testing.assert_array_equal(cp.asnumpy(gy.compute()), ipt.imgradientxy(a.astype(np.float64), nargout=2,
                                                                            device="cuda")[1])


def test_cupy_chunks_reduce_and_map_images():
    cp = cupy_or_skip()
    a = image(np.uint8, (53, 47))
    x = da.from_array(a, chunks=(10, 13)).map_blocks(cp.asarray, dtype=np.uint8)
    check_equal(np.asarray(ipd.mean2(x).compute()), ipt.mean2(a))
    check_equal(np.asarray(ipd.imhist(x).compute()), ipt.imhist(a))
    check_equal(np.asarray(ipd.graythresh(x).compute()), ipt.graythresh(a))
    stack = np.stack([image(np.uint8, (24, 20)) for _ in range(3)])
    out = ipd.map_images("imgaussfilt", da.from_array(stack, chunks=(1, 24, 20)).map_blocks(cp.asarray,
                                                                                             dtype=np.uint8),
                         sigma=1.5)
    got = out.compute()
    assert isinstance(got, cp.ndarray), type(got)
    np.testing.assert_array_equal(cp.asnumpy(got),
                                  np.stack([ipt.imgaussfilt(s, sigma=1.5, device="cuda") for s in stack]))
