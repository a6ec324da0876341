# SPDX-License-Identifier: Apache-2.0
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

class InvalidArgumentError(Error, ValueError): ...
class UnsupportedError(Error): ...
class OutOfMemoryError(Error, MemoryError): ...
class NotFoundError(Error, LookupError): ...
class PluginError(Error): ...
class DeviceError(Error): ...
class InternalError(Error): ...
class AbiError(Error): ...
class MisuseError(Error): ...

def devices() -> list[dict[str, Any]]: ...
def info() -> dict[str, Any]: ...
def device(spec: int | str) -> AbstractContextManager[None]: ...
def explain() -> dict[str, Any] | None: ...
def operators() -> dict[str, str]: ...
def call(op: str, *args: Any, **kwargs: Any) -> Any: ...
def load_plugin(path: str) -> None: ...

def adapthisteq(I: npt.ArrayLike, NumTiles: float | Sequence[float] | npt.ArrayLike | str = ..., ClipLimit: float = ..., NBins: int = ..., Range: Literal['full', 'original'] | str = ..., Distribution: Literal['uniform', 'rayleigh', 'exponential'] | str = ..., Alpha: float | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """contrast-limited adaptive histogram equalization (CLAHE) (MATLAB: adapthisteq)."""

def adaptthresh(I: npt.ArrayLike, sensitivity: float = ..., NeighborhoodSize: float | Sequence[float] | npt.ArrayLike | str | None = ..., ForegroundPolarity: Literal['bright', 'dark'] | str = ..., Statistic: Literal['mean', 'median', 'gaussian'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """adaptive image threshold using local first-order statistics (MATLAB: adaptthresh)."""

def bwdist(BW: npt.ArrayLike, method: Literal['euclidean', 'cityblock', 'chessboard', 'quasi-euclidean'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """distance transform of binary image (MATLAB: bwdist)."""

def conv2(A: npt.ArrayLike, B: npt.ArrayLike | None = ..., u: npt.ArrayLike | None = ..., v: npt.ArrayLike | None = ..., shape: Literal['full', 'same', 'valid'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """2-D convolution (MATLAB: conv2)."""

def dither(I: npt.ArrayLike, map: npt.ArrayLike | None = ..., Qm: int = ..., Qe: int = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """Floyd-Steinberg dithering (MATLAB: dither)."""

def edge(I: npt.ArrayLike, method: Literal['sobel', 'prewitt', 'roberts', 'log', 'zerocross', 'canny'] | str = ..., threshold: float | Sequence[float] | npt.ArrayLike | str | None = ..., direction: Literal['both', 'horizontal', 'vertical'] | str = ..., thinning: Literal['thinning', 'nothinning'] | str = ..., sigma: float | None = ..., h: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """find edges (MATLAB: edge)."""

def entropyfilt(I: npt.ArrayLike, nhood: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """local entropy of grayscale image (MATLAB: entropyfilt)."""

def fspecial(type: Literal['average', 'disk', 'gaussian', 'laplacian', 'log', 'motion', 'prewitt', 'sobel', 'unsharp'] | str, hsize: float | Sequence[float] | npt.ArrayLike | str | None = ..., sigma: float | None = ..., alpha: float | None = ..., radius: float | None = ..., len: float | None = ..., theta: float | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """predefined 2-D filter (MATLAB: fspecial)."""

def graythresh(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """global image threshold using Otsu's method (MATLAB: graythresh)."""

def histeq(I: npt.ArrayLike, n: int | None = ..., hgram: float | Sequence[float] | npt.ArrayLike | str | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """enhance contrast using histogram equalization (MATLAB: histeq)."""

def hsv2rgb(HSV: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert HSV colors to RGB (MATLAB: hsv2rgb)."""

def im2double(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert image to double precision (MATLAB: im2double)."""

def im2int16(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert image to 16-bit signed integers (MATLAB: im2int16)."""

def im2single(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert image to single precision (MATLAB: im2single)."""

def im2uint16(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert image to 16-bit unsigned integers (MATLAB: im2uint16)."""

def im2uint8(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert image to 8-bit unsigned integers (MATLAB: im2uint8)."""

def imadjust(I: npt.ArrayLike, low_high_in: float | Sequence[float] | npt.ArrayLike | str | None = ..., low_high_out: float | Sequence[float] | npt.ArrayLike | str = ..., gamma: float | Sequence[float] | npt.ArrayLike | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """adjust intensity values (MATLAB: imadjust)."""

def imbinarize(I: npt.ArrayLike, method: Literal['global', 'adaptive'] | str = ..., T: npt.ArrayLike | None = ..., Sensitivity: float = ..., ForegroundPolarity: Literal['bright', 'dark'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """binarize 2-D grayscale image by thresholding (MATLAB: imbinarize)."""

def imboxfilt(A: npt.ArrayLike, filterSize: float | Sequence[float] | npt.ArrayLike | str = ..., Padding: Literal['replicate', 'circular', 'symmetric', 'constant'] | str = ..., X: float = ..., NormalizationFactor: float | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """2-D box filtering of images (MATLAB: imboxfilt)."""

def imcomplement(I: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """complement image (MATLAB: imcomplement)."""

def imcrop(I: npt.ArrayLike, rect: float | Sequence[float] | npt.ArrayLike | str, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """crop image (MATLAB: imcrop)."""

def imdilate(A: npt.ArrayLike, nhood: npt.ArrayLike, heights: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """dilate image (MATLAB: imdilate)."""

def imerode(A: npt.ArrayLike, nhood: npt.ArrayLike, heights: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """erode image (MATLAB: imerode)."""

def imfilter(A: npt.ArrayLike, h: npt.ArrayLike, boundary: Literal['constant', 'symmetric', 'replicate', 'circular'] | str = ..., X: float = ..., output: Literal['same', 'full'] | str = ..., mode: Literal['corr', 'conv'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """N-D filtering of images (MATLAB: imfilter)."""

def imgaussfilt(A: npt.ArrayLike, sigma: float | Sequence[float] | npt.ArrayLike | str = ..., FilterSize: float | Sequence[float] | npt.ArrayLike | str | None = ..., Padding: Literal['replicate', 'circular', 'symmetric', 'constant'] | str = ..., X: float = ..., FilterDomain: Literal['auto', 'spatial', 'frequency'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """2-D Gaussian filtering of images (MATLAB: imgaussfilt)."""

def imgradient(I: npt.ArrayLike, method: Literal['sobel', 'prewitt', 'central', 'intermediate', 'roberts'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """find gradient magnitude and direction of 2-D image (MATLAB: imgradient)."""

def imgradientxy(I: npt.ArrayLike, method: Literal['sobel', 'prewitt', 'central', 'intermediate'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """find directional gradients of 2-D image (MATLAB: imgradientxy)."""

def imhist(I: npt.ArrayLike, n: int | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """histogram of image data (MATLAB: imhist)."""

def imlincomb(K: float | Sequence[float] | npt.ArrayLike | str, A1: npt.ArrayLike, A2: npt.ArrayLike | None = ..., A3: npt.ArrayLike | None = ..., A4: npt.ArrayLike | None = ..., A5: npt.ArrayLike | None = ..., A6: npt.ArrayLike | None = ..., A7: npt.ArrayLike | None = ..., A8: npt.ArrayLike | None = ..., outclass: Literal['default', 'uint8', 'uint16', 'int16', 'int32', 'uint32', 'single', 'double'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """linear combination of images (MATLAB: imlincomb)."""

def imregionalmax(I: npt.ArrayLike, conn: int = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """regional maxima (MATLAB: imregionalmax)."""

def imresize(A: npt.ArrayLike, Scale: float | Sequence[float] | npt.ArrayLike | str | None = ..., OutputSize: float | Sequence[float] | npt.ArrayLike | str | None = ..., method: Literal['nearest', 'bilinear', 'bicubic', 'box', 'triangle', 'cubic', 'lanczos2', 'lanczos3'] | str = ..., Antialiasing: int | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """resize image (MATLAB: imresize)."""

def imrotate(I: npt.ArrayLike, angle: float, method: Literal['nearest', 'bilinear', 'bicubic'] | str = ..., bbox: Literal['loose', 'crop'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """rotate image (MATLAB: imrotate)."""

def imtranslate(A: npt.ArrayLike, translation: float | Sequence[float] | npt.ArrayLike | str, method: Literal['nearest', 'linear', 'cubic'] | str = ..., OutputView: Literal['same', 'full'] | str = ..., FillValues: float | Sequence[float] | npt.ArrayLike | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """translate image (MATLAB: imtranslate)."""

def imwarp(A: npt.ArrayLike, T: float | Sequence[float] | npt.ArrayLike | str, interp: Literal['nearest', 'linear', 'cubic'] | str = ..., OutputView: float | Sequence[float] | npt.ArrayLike | str | None = ..., FillValues: float | Sequence[float] | npt.ArrayLike | str = ..., SmoothEdges: int = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """apply geometric transformation to image (MATLAB: imwarp)."""

def integralImage(I: npt.ArrayLike, orientation: Literal['upright', 'rotated'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """calculate 2-D integral image (MATLAB: integralImage)."""

def intlut(A: npt.ArrayLike, LUT: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert integer values using a lookup table (MATLAB: intlut)."""

def mat2gray(A: npt.ArrayLike, limits: float | Sequence[float] | npt.ArrayLike | str | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert matrix to grayscale image (MATLAB: mat2gray)."""

def mean2(A: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """average of matrix elements (MATLAB: mean2)."""

def medfilt2(A: npt.ArrayLike, size: float | Sequence[float] | npt.ArrayLike | str = ..., padopt: Literal['zeros', 'symmetric', 'indexed'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """2-D median filtering (MATLAB: medfilt2)."""

def multithresh(A: npt.ArrayLike, N: int = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """multilevel image thresholds using Otsu's method (MATLAB: multithresh)."""

def normxcorr2(template: npt.ArrayLike, A: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """normalized 2-D cross-correlation (MATLAB: normxcorr2)."""

def ordfilt2(A: npt.ArrayLike, order: int, domain: npt.ArrayLike, S: npt.ArrayLike | None = ..., padopt: Literal['zeros', 'symmetric'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """2-D order-statistic filtering (MATLAB: ordfilt2)."""

def otsuthresh(counts: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """global histogram threshold using Otsu's method (MATLAB: otsuthresh)."""

def padarray(A: npt.ArrayLike, padsize: float | Sequence[float] | npt.ArrayLike | str, method: Literal['constant', 'circular', 'replicate', 'symmetric'] | str = ..., padval: float = ..., direction: Literal['both', 'pre', 'post'] | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """pad array (MATLAB: padarray)."""

def radon(I: npt.ArrayLike, theta: float | Sequence[float] | npt.ArrayLike | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """Radon transform (MATLAB: radon)."""

def rangefilt(I: npt.ArrayLike, nhood: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """local range of image (MATLAB: rangefilt)."""

def rgb2gray(RGB: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert RGB image to grayscale (MATLAB: rgb2gray)."""

def rgb2hsv(RGB: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert RGB colors to HSV (MATLAB: rgb2hsv)."""

def rgb2ycbcr(RGB: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert RGB color values to YCbCr color space (MATLAB: rgb2ycbcr)."""

def stdfilt(I: npt.ArrayLike, nhood: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """local standard deviation of image (MATLAB: stdfilt)."""

def strel(shape: Literal['square', 'rectangle', 'diamond', 'octagon', 'line', 'disk', 'periodicline', 'arbitrary'] | str, w: int | None = ..., size: float | Sequence[float] | npt.ArrayLike | str | None = ..., r: int | None = ..., n: int = ..., len: float | None = ..., deg: float | None = ..., P: int | None = ..., V: float | Sequence[float] | npt.ArrayLike | str | None = ..., nhood_in: npt.ArrayLike | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """morphological structuring element (MATLAB: strel)."""

def stretchlim(I: npt.ArrayLike, tol: float | Sequence[float] | npt.ArrayLike | str = ..., *, nargout: int = ..., device: _Device = ...) -> _Array:
    """limits for contrast stretching (MATLAB: stretchlim)."""

def wiener2(I: npt.ArrayLike, size: float | Sequence[float] | npt.ArrayLike | str = ..., noise: float | None = ..., *, nargout: int = ..., device: _Device = ...) -> _Array | tuple[_Array, ...]:
    """2-D adaptive noise-removal filtering (MATLAB: wiener2)."""

def ycbcr2rgb(YCBCR: npt.ArrayLike, *, nargout: int = ..., device: _Device = ...) -> _Array:
    """convert YCbCr color values to RGB color space (MATLAB: ycbcr2rgb)."""
