#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU peers from Python, for the operators NPP lacks or defines differently:
CuPy (cupyx.scipy.ndimage, cupyx.scipy.signal) and cuCIM's scikit-image
functions (cucim.skimage) where cuCIM imports.

  bench/gpu/python_peers.py [--size N] [--repeats R] [--json FILE] [--ops a,b]

Each case runs the peer on the input `ipt bench` gives the operator at the
same size (its benchmark case: the class and parameters of the operator's
conformance recipe), with the data already on the GPU. Times are the median
of R runs after 3 warm-ups, measured with CUDA events by
cupyx.profiler.benchmark (GPU time). Random images stand in for the recipe's
synthetic scene; every timed function here does the same work whatever the
values. A peer computes a comparable result, not MATLAB's: the note of each
case says where its definition differs (output class, border rule, kernel).
bench/results/regenerate.py puts these times beside OpenIPT's CUDA kernel
time from `ipt bench` at the same size and class (python-peers.md).
"""
import argparse
import datetime
import json
import math
import sys


def cases(n, cp, ndi, signal, sk):
    """(operator, class of the benchmark input, peer, note, function) per case."""
    rng = cp.random.RandomState(20261127)
    u8 = rng.randint(0, 256, size=(n, n), dtype=cp.uint8)
    f64 = u8.astype(cp.float64) / 255.0
    rgb8 = rng.randint(0, 256, size=(n, n, 3), dtype=cp.uint8)
    rgbf = rgb8.astype(cp.float64) / 255.0
    out = []

    def add(op, dtype, peer, note, fn, needs_cucim=False):
        out.append((op, dtype, peer, note, fn if (sk or not needs_cucim) else None))

    # Classes and colour (channel-last RGB, as cuCIM takes it).
    if sk:
        util, color, exposure, filters, transform, feature = (sk.util, sk.color, sk.exposure, sk.filters,
                                                               sk.transform, sk.feature)
    else:
        util = color = exposure = filters = transform = feature = None
    add("ipt.im2double", "uint8", "cucim img_as_float64", "", lambda: util.img_as_float64(u8), True)
    add("ipt.im2single", "uint8", "cucim img_as_float32", "", lambda: util.img_as_float32(u8), True)
    add("ipt.imcomplement", "uint8", "cucim invert", "", lambda: util.invert(u8), True)
    add("ipt.mat2gray", "uint8", "cucim rescale_intensity", "to [0,1] doubles from the data's limits",
        lambda: exposure.rescale_intensity(u8, out_range=(0.0, 1.0)), True)
    add("ipt.rgb2gray", "uint8", "cucim rgb2gray", "Rec. 709 weights, floating output",
        lambda: color.rgb2gray(rgb8), True)
    add("ipt.rgb2hsv", "uint8", "cucim rgb2hsv", "", lambda: color.rgb2hsv(rgb8), True)
    add("ipt.hsv2rgb", "double", "cucim hsv2rgb", "", lambda: color.hsv2rgb(rgbf), True)
    add("ipt.rgb2ycbcr", "uint8", "cucim rgb2ycbcr", "floating output", lambda: color.rgb2ycbcr(rgb8), True)
    add("ipt.ycbcr2rgb", "uint8", "cucim ycbcr2rgb", "floating output", lambda: color.ycbcr2rgb(rgb8), True)

    # Geometry.
    m = math.ceil(0.6 * n)
    add("ipt.imresize", "uint8", "cucim resize order=3 anti_aliasing", "Gaussian prefilter, not a widened kernel",
        lambda: transform.resize(u8, (m, m), order=3, anti_aliasing=True, preserve_range=True), True)
    add("ipt.imresize", "uint8", "cupyx zoom order=3", "spline, no antialiasing",
        lambda: ndi.zoom(u8, 0.6, order=3))
    add("ipt.padarray", "uint8", "cupy.pad symmetric", "", lambda: cp.pad(u8, ((3, 3), (2, 2)), mode="symmetric"))
    r0, r1 = n // 4, n // 4 + n // 2
    add("ipt.imcrop", "uint8", "slice copy", "", lambda: u8[r0:r1 + 1, r0:r1 + 1].copy())
    add("ipt.imrotate", "uint8", "cupyx rotate order=1 reshape", "", lambda: ndi.rotate(u8, 30, order=1))
    add("ipt.imtranslate", "uint8", "cupyx shift order=1", "", lambda: ndi.shift(u8, (3.5, 5.25), order=1))
    c, s = math.cos(math.radians(20)), math.sin(math.radians(20))
    affine = cp.asarray([[1.1 * c, -s, 12.0], [s, 0.9 * c, -7.0], [0.0, 0.0, 1.0]])
    add("ipt.imwarp", "uint8", "cupyx affine_transform order=1", "output the size of A",
        lambda: ndi.affine_transform(u8, affine, order=1))

    # Filters.
    add("ipt.imgaussfilt", "uint8", "cupyx gaussian_filter nearest", "7 taps (truncate 3/sigma)",
        lambda: ndi.gaussian_filter(u8, 1.3, mode="nearest", truncate=3 / 1.3))
    add("ipt.imboxfilt", "uint8", "cupyx uniform_filter nearest", "", lambda: ndi.uniform_filter(u8, 5, mode="nearest"))

    def gradient_xy():
        f = u8.astype(cp.float64)
        return ndi.sobel(f, axis=1, mode="nearest"), ndi.sobel(f, axis=0, mode="nearest")

    def gradient():
        gx, gy = gradient_xy()
        return cp.hypot(gx, gy), cp.degrees(cp.arctan2(-gy, gx))

    add("ipt.imgradientxy", "uint8", "cupyx sobel x2", "double output", gradient_xy)
    add("ipt.imgradient", "uint8", "cupyx sobel x2 + hypot + arctan2", "", gradient)
    add("ipt.integralimage", "uint8", "cupy cumsum x2", "without the zero row and column",
        lambda: cp.cumsum(cp.cumsum(u8, axis=0, dtype=cp.float64), axis=1))

    def stdfilt():
        f = u8.astype(cp.float64)
        mean = ndi.uniform_filter(f, 3, mode="reflect")
        sq = ndi.uniform_filter(f * f, 3, mode="reflect")
        return cp.sqrt(cp.maximum(sq - mean * mean, 0) * (9.0 / 8.0))

    add("ipt.stdfilt", "uint8", "cupyx uniform_filter x2 + sqrt", "composed of three passes", stdfilt)
    add("ipt.rangefilt", "uint8", "cupyx maximum_filter - minimum_filter", "",
        lambda: ndi.maximum_filter(u8, 3) - ndi.minimum_filter(u8, 3))
    template = u8[100:121, 200:221].astype(cp.float64)
    add("ipt.normxcorr2", "uint8", "cucim match_template pad_input", "21x21 template, output the size of A",
        lambda: feature.match_template(u8.astype(cp.float64), template, pad_input=True), True)
    add("ipt.wiener2", "uint8", "cupyx.scipy.signal wiener 3x3", "double output",
        lambda: signal.wiener(u8.astype(cp.float64), (3, 3)))

    # Histograms and thresholds.
    add("ipt.imhist", "uint8", "cupy bincount", "", lambda: cp.bincount(u8.ravel(), minlength=256))
    add("ipt.histeq", "uint8", "cucim equalize_hist", "floating output, 256 bins",
        lambda: exposure.equalize_hist(u8, nbins=256), True)
    add("ipt.graythresh", "uint8", "cucim threshold_otsu", "", lambda: filters.threshold_otsu(u8), True)
    add("ipt.multithresh", "uint8", "cucim threshold_multiotsu classes=3", "",
        lambda: filters.threshold_multiotsu(u8, classes=3), True)
    add("ipt.imbinarize", "uint8", "cucim threshold_otsu + compare", "", lambda: u8 > filters.threshold_otsu(u8), True)
    block = 2 * (n // 16) + 1
    add("ipt.adaptthresh", "uint8", f"cucim threshold_local block {block} mean", "",
        lambda: filters.threshold_local(u8, block, method="mean"), True)
    add("ipt.adapthisteq", "uint8", "cucim equalize_adapthist 8x8 tiles", "floating output",
        lambda: exposure.equalize_adapthist(u8, kernel_size=n // 8, clip_limit=0.01, nbins=256), True)
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--repeats", type=int, default=25)
    ap.add_argument("--json", default="")
    ap.add_argument("--ops", default="", help="comma-separated operators (default: all)")
    a = ap.parse_args(argv)
    try:
        import cupy as cp
        import cupyx.profiler
        import cupyx.scipy.ndimage as ndi
        import cupyx.scipy.signal as signal
    except Exception as e:  # no CuPy or no GPU: say so and do nothing
        print(f"SKIP: CuPy unavailable ({e})")
        return 77
    try:
        cp.cuda.runtime.getDeviceCount()
    except Exception as e:
        print(f"SKIP: no CUDA device ({e})")
        return 77
    try:
        import cucim
        import cucim.skimage as sk
        import cucim.skimage.color, cucim.skimage.exposure, cucim.skimage.feature  # noqa: F401
        import cucim.skimage.filters, cucim.skimage.transform, cucim.skimage.util  # noqa: F401
        cucim_version = getattr(cucim, "__version__", "?")
    except Exception as e:
        sk, cucim_version = None, f"unavailable ({type(e).__name__}: {e})"
    wanted = set(filter(None, a.ops.split(",")))
    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.runtime.getDevice())
    rows = []
    for op, dtype, peer, note, fn in cases(a.size, cp, ndi, signal, sk):
        if wanted and op not in wanted:
            continue
        row = {"op": op, "size": a.size, "dtype": dtype, "peer": peer, "note": note, "ms": -1}
        if fn is None:
            row["note"] = "cuCIM " + cucim_version
        else:
            try:
                r = cupyx.profiler.benchmark(fn, n_repeat=a.repeats, n_warmup=3)
                times = sorted(float(t) for t in r.gpu_times.ravel())
                row["ms"] = times[len(times) // 2] * 1e3
            except Exception as e:
                row["note"] = f"failed: {type(e).__name__}: {str(e)[:160]}"
        rows.append(row)
        ms = f"{row['ms']:.4f} ms" if row["ms"] > 0 else row["note"]
        print(f"{op:18s} {dtype:7s} {peer:42s} {ms}", flush=True)
    result = {"benchmark": "python-peers", "gpu": props["name"].decode() if isinstance(props["name"], bytes)
              else str(props["name"]), "cupy": cp.__version__, "cucim": cucim_version,
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "size": a.size, "repeats": a.repeats, "rows": rows}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
