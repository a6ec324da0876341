# SPDX-License-Identifier: Apache-2.0
"""Operators through the generated functions, against values from MATLAB's
documentation or computed here by brute force."""

import numpy as np
import pytest

import openipt as ipt

rng = np.random.default_rng(16)


def test_every_catalogue_operator_is_a_function():
    ops = ipt.operators()
    assert len(ops) >= 50
    for name, op in ops.items():
        f = getattr(ipt, name)
        assert callable(f) and f.operator == op
        assert op in f.__doc__ and "Parameters" in f.__doc__
    assert ops["integralImage"] == "ipt.integralimage"  # MATLAB's name, not the schema's


def test_imcomplement_uint8_is_255_minus_x():
    a = np.arange(256, dtype=np.uint8).reshape(16, 16)
    b = ipt.imcomplement(a)
    assert b.dtype == np.uint8 and b.shape == a.shape
    np.testing.assert_array_equal(b, 255 - a)


@pytest.mark.parametrize("dtype,expect", [
    (np.bool_, lambda a: ~a), (np.int16, lambda a: -1 - a), (np.float64, lambda a: 1 - a),
    (np.float32, lambda a: np.float32(1) - a), (np.uint16, lambda a: 65535 - a)])
def test_imcomplement_classes(dtype, expect):
    a = (rng.random((7, 9)) * 100).astype(dtype)
    b = ipt.imcomplement(a)
    assert b.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(b, expect(a))


def test_rgb2gray_coefficients():
    rgb = rng.integers(0, 256, (11, 13, 3), dtype=np.uint8)
    w = np.array([0.298936021293775, 0.587043074451121, 0.114020904255103])
    expect = np.floor(rgb.astype(np.float64) @ w + 0.5).astype(np.uint8)
    gray = ipt.rgb2gray(rgb)
    assert gray.shape == (11, 13) and gray.dtype == np.uint8
    assert np.abs(gray.astype(int) - expect).max() <= 0  # exact for integer classes


@pytest.mark.parametrize("method,np_mode", [("replicate", "edge"), ("symmetric", "symmetric"),
                                            ("circular", "wrap")])
def test_padarray_by_hand(method, np_mode):
    a = rng.integers(0, 100, (4, 5)).astype(np.int32)
    b = ipt.padarray(a, [2, 3], method)
    np.testing.assert_array_equal(b, np.pad(a, ((2, 2), (3, 3)), mode=np_mode))


def test_padarray_constant_and_direction():
    a = np.ones((2, 3), np.uint8)
    b = ipt.padarray(a, [1, 2], padval=7, direction="post")
    np.testing.assert_array_equal(b, np.pad(a, ((0, 1), (0, 2)), constant_values=7))


def _gauss_brute(a, sigma):
    r = int(np.ceil(2 * sigma))
    x = np.arange(-r, r + 1)
    g = np.exp(-(x[:, None] ** 2 + x[None, :] ** 2) / (2 * sigma**2))
    g /= g.sum()
    p = np.pad(a, r, mode="edge")
    out = np.zeros_like(a, dtype=np.float64)
    for i in range(2 * r + 1):
        for j in range(2 * r + 1):
            out += g[i, j] * p[i:i + a.shape[0], j:j + a.shape[1]]
    return out


def test_imgaussfilt_against_brute_force_correlation():
    a = rng.random((23, 31))
    b = ipt.imgaussfilt(a, sigma=2)
    np.testing.assert_allclose(b, _gauss_brute(a, 2.0), rtol=0, atol=1e-12)
    np.testing.assert_allclose(ipt.imgaussfilt(a), _gauss_brute(a, 0.5), rtol=0, atol=1e-12)  # default sigma


def test_imgaussfilt_rgb_filters_each_plane_alike():
    a = rng.random((12, 10, 3))
    b = ipt.imgaussfilt(a, 1.5)
    assert b.shape == a.shape
    for c in range(3):
        np.testing.assert_allclose(b[:, :, c], _gauss_brute(a[:, :, c], 1.5), rtol=0, atol=1e-12)


def test_medfilt2_default_size_and_zero_padding():
    a = rng.integers(0, 255, (9, 8), dtype=np.uint8)
    p = np.pad(a, 1)
    windows = np.stack([p[i:i + 9, j:j + 8] for i in range(3) for j in range(3)])
    np.testing.assert_array_equal(ipt.medfilt2(a), np.median(windows, axis=0).astype(np.uint8))


def test_medfilt2_of_eye():
    # Three ones in every 3x3 window: the median is 0 everywhere.
    np.testing.assert_array_equal(ipt.medfilt2(np.eye(5, dtype=np.uint8)), np.zeros((5, 5), np.uint8))


def test_positional_and_keyword_arguments_agree():
    a = rng.random((10, 10))
    np.testing.assert_array_equal(ipt.imboxfilt(a, 5, "symmetric"),
                                  ipt.imboxfilt(a, filterSize=5, Padding="symmetric"))
    np.testing.assert_array_equal(ipt.imboxfilt(a), ipt.imboxfilt(a, 3))  # MATLAB's default 3


def test_lists_are_matlab_literals():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = ipt.imfilter(a, [[0, 0, 0], [0, 1, 0], [0, 0, 0]])  # a list becomes double, as 1 in MATLAB
    np.testing.assert_array_equal(b, a)
    nhood = [[1, 1, 1]]  # the only class nhood takes: logical
    np.testing.assert_array_equal(ipt.imdilate(np.eye(3, dtype=np.uint8), nhood),
                                  np.array([[1, 1, 0], [1, 1, 1], [0, 1, 1]], np.uint8))


def test_scalar_outputs_are_1x1():
    m = ipt.mean2(np.array([[1.0, 2.0], [3.0, 6.0]]))
    assert m.shape == (1, 1) and m.item() == 3.0


def test_several_outputs_in_matlabs_order():
    a = np.array([[0, 0, 255], [128, 64, 255]], np.uint8)
    counts = ipt.imhist(a, 4)
    assert counts.shape == (4, 1)
    counts2, locations = ipt.imhist(a, 4, nargout=2)
    np.testing.assert_array_equal(counts2, counts)
    # MATLAB: 4 bins of uint8 at linspace(0, 255, 4), each pixel in the nearest bin (64 -> 85, 128 -> 170).
    np.testing.assert_array_equal(locations.ravel(), [0, 85, 170, 255])
    np.testing.assert_array_equal(counts.ravel(), [2, 1, 1, 2])


def test_gradients_two_outputs():
    ramp = np.tile(np.arange(6, dtype=np.float64), (5, 1))
    gx, gy = ipt.imgradientxy(ramp, "central", nargout=2)
    np.testing.assert_allclose(gx[:, 1:-1], 1.0)
    np.testing.assert_array_equal(gy, 0.0)
    assert isinstance(ipt.imgradientxy(ramp), np.ndarray)


def test_nargout_out_of_range():
    with pytest.raises(ipt.InvalidArgumentError, match="nargout must be 1 to 2"):
        ipt.imhist(np.zeros((2, 2), np.uint8), nargout=3)


def test_operator_without_image_inputs():
    h = ipt.fspecial("average", 3)
    np.testing.assert_allclose(h, np.full((3, 3), 1 / 9))
    nhood = ipt.strel("square", 3)
    assert nhood.dtype == np.bool_ and nhood.all() and nhood.shape == (3, 3)


def test_required_arguments_are_required():
    with pytest.raises(TypeError):
        ipt.imrotate(np.zeros((3, 3)))  # angle has no default in MATLAB
