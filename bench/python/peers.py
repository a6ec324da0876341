#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""OpenIPT from Python against the Python libraries people use for the same
functions, in one process on one machine: scikit-image and OpenCV-Python on
the CPU; CuPy (cupyx.scipy.ndimage) and cuCIM on an NVIDIA GPU (--gpu).

  bench/python/peers.py [--size 2048] [--runs 15] [--gpu] [--json FILE] [--md FILE]

Each row is one function on one 2048x2048 image (uint8 unless the row says),
the median of --runs calls (at least 3, fewer than --runs where a call takes
over 0.2 s) after two warm-up calls. CPU rows time the call
with time.perf_counter (NumPy in, NumPy out); GPU rows time it with CUDA
events on the current stream, data already on the GPU: OpenIPT gets CuPy
arrays where the package accepts them (zero copies), otherwise the row says
"from host" and includes both transfers. A peer missing here is left out of
its column ('-'), never guessed. The peers do not always compute MATLAB's
function (scikit-image's rgb2gray weights, OpenCV's border rules): the notes
say where a row compares different arithmetic. Peers: `tools/install-deps.sh
--bench` installs scikit-image and OpenCV-Python; CuPy and cuCIM come with the
GPU machine.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import time

import numpy as np

import openipt as ipt


def _optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except Exception:  # noqa: BLE001 - any import failure means "not here"
        return None


def median_ms(fn, runs, sync=None):
    for _ in range(2):
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        once = time.perf_counter() - t0
    # A call of a second or more (scikit-image's rank filters) gets fewer runs.
    runs = max(3, min(runs, int(3.0 / max(once, 1e-9))))
    t = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        if sync:
            sync()
        t.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(t)


def cpu_rows(n):
    """(function, OpenIPT call, {peer: call}, note) on host arrays."""
    rng = np.random.default_rng(2048)
    u8 = rng.integers(0, 256, (n, n), dtype=np.uint8)
    rgb = rng.integers(0, 256, (n, n, 3), dtype=np.uint8)
    f32 = rng.random((n, n), dtype=np.float32)
    bw = rng.random((n, n)) < 0.999
    k7 = rng.random((7, 7)).astype(np.float32)
    se = np.ones((5, 5), bool)
    lut = (255 - np.arange(256)).astype(np.uint8)
    sk = {m: _optional(f"skimage.{m}") for m in ("color", "transform", "filters", "exposure", "morphology",
                                                  "feature", "util")}
    rank = _optional("skimage.filters.rank")
    cv2 = _optional("cv2")
    ndi = _optional("scipy.ndimage")
    rows = []

    def add(name, mine, peers, note=""):
        rows.append((name, mine, {k: v for k, v in peers.items() if v is not None}, note))

    s = sk
    add("im2double", lambda: ipt.im2double(u8),
        {"skimage": s["util"] and (lambda: s["util"].img_as_float64(u8)),
         "opencv": cv2 and (lambda: u8.astype(np.float64) / 255)},
        "opencv: NumPy's astype and divide")
    add("imcomplement", lambda: ipt.imcomplement(u8),
        {"skimage": s["util"] and (lambda: s["util"].invert(u8)), "opencv": cv2 and (lambda: cv2.bitwise_not(u8))})
    add("intlut", lambda: ipt.intlut(u8, lut), {"opencv": cv2 and (lambda: cv2.LUT(u8, lut))})
    add("rgb2gray", lambda: ipt.rgb2gray(rgb),
        {"skimage": s["color"] and (lambda: s["color"].rgb2gray(rgb)),
         "opencv": cv2 and (lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))},
        "skimage: other weights, double output; opencv: fixed-point weights")
    add("rgb2hsv", lambda: ipt.rgb2hsv(rgb),
        {"skimage": s["color"] and (lambda: s["color"].rgb2hsv(rgb)),
         "opencv": cv2 and (lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV_FULL))},
        "opencv: uint8 H, S, V")
    add("rgb2ycbcr", lambda: ipt.rgb2ycbcr(rgb),
        {"skimage": s["color"] and (lambda: s["color"].rgb2ycbcr(rgb)),
         "opencv": cv2 and (lambda: cv2.cvtColor(rgb, cv2.COLOR_RGB2YCrCb))},
        "opencv: full-range JPEG YCrCb, not ITU-R BT.601 video range")
    add("imresize bilinear x0.5", lambda: ipt.imresize(u8, 0.5, method="bilinear"),
        {"skimage": s["transform"] and (lambda: s["transform"].resize(u8, (n // 2, n // 2), order=1,
                                                                       anti_aliasing=True)),
         "opencv": cv2 and (lambda: cv2.resize(u8, (n // 2, n // 2), interpolation=cv2.INTER_AREA))},
        "opencv: INTER_AREA (its antialiased shrink)")
    add("imresize bicubic x2", lambda: ipt.imresize(u8, 2.0),
        {"skimage": s["transform"] and (lambda: s["transform"].resize(u8, (2 * n, 2 * n), order=3)),
         "opencv": cv2 and (lambda: cv2.resize(u8, (2 * n, 2 * n), interpolation=cv2.INTER_CUBIC))},
        "opencv: a = -0.75")
    add("imrotate 30 bilinear", lambda: ipt.imrotate(u8, 30.0, "bilinear"),
        {"skimage": s["transform"] and (lambda: s["transform"].rotate(u8, 30, order=1, resize=True)),
         "opencv": cv2 and (lambda: cv2.warpAffine(u8, cv2.getRotationMatrix2D((n / 2, n / 2), 30, 1),
                                                   (n, n), flags=cv2.INTER_LINEAR))},
        "opencv: 'crop' output size")
    add("imgaussfilt sigma 2", lambda: ipt.imgaussfilt(u8, 2.0),
        {"skimage": s["filters"] and (lambda: s["filters"].gaussian(u8, sigma=2, mode="nearest", truncate=2.0,
                                                                     preserve_range=True)),
         "opencv": cv2 and (lambda: cv2.GaussianBlur(u8, (9, 9), 2, borderType=cv2.BORDER_REPLICATE))},
        "skimage: double output")
    add("imboxfilt 11", lambda: ipt.imboxfilt(u8, 11.0),
        {"skimage": ndi and (lambda: ndi.uniform_filter(u8, 11, mode="reflect")),
         "opencv": cv2 and (lambda: cv2.blur(u8, (11, 11)))},
        "skimage column: scipy.ndimage.uniform_filter")
    add("imfilter single 7x7", lambda: ipt.imfilter(f32, k7),
        {"skimage": ndi and (lambda: ndi.correlate(f32, k7, mode="constant")),
         "opencv": cv2 and (lambda: cv2.filter2D(f32, -1, k7, borderType=cv2.BORDER_CONSTANT))},
        "skimage column: scipy.ndimage.correlate")
    add("medfilt2 5x5", lambda: ipt.medfilt2(u8, [5, 5]),
        {"skimage": s["filters"] and (lambda: s["filters"].median(u8, np.ones((5, 5), bool), mode="constant")),
         "opencv": cv2 and (lambda: cv2.medianBlur(u8, 5))},
        "opencv: replicated borders")
    add("imgradientxy sobel single", lambda: ipt.imgradientxy(f32, nargout=2),
        {"skimage": s["filters"] and (lambda: (s["filters"].sobel_h(f32), s["filters"].sobel_v(f32))),
         "opencv": cv2 and (lambda: (cv2.Sobel(f32, -1, 1, 0), cv2.Sobel(f32, -1, 0, 1)))})
    add("imdilate square 5", lambda: ipt.imdilate(u8, se),
        {"skimage": s["morphology"] and (lambda: s["morphology"].dilation(u8, se)),
         "opencv": cv2 and (lambda: cv2.dilate(u8, se.astype(np.uint8)))})
    add("imerode square 5", lambda: ipt.imerode(u8, se),
        {"skimage": s["morphology"] and (lambda: s["morphology"].erosion(u8, se)),
         "opencv": cv2 and (lambda: cv2.erode(u8, se.astype(np.uint8)))})
    add("bwdist", lambda: ipt.bwdist(bw),
        {"skimage": ndi and (lambda: ndi.distance_transform_edt(~bw)),
         "opencv": cv2 and (lambda: cv2.distanceTransform((~bw).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE))},
        "skimage column: scipy.ndimage.distance_transform_edt")
    add("entropyfilt 9x9", lambda: ipt.entropyfilt(u8),
        {"skimage": rank and (lambda: rank.entropy(u8, np.ones((9, 9), np.uint8)))},
        "skimage: rank.entropy (log2, uint8 histogram)")
    add("integralImage", lambda: ipt.integralImage(u8),
        {"skimage": s["transform"] and (lambda: s["transform"].integral_image(u8)),
         "opencv": cv2 and (lambda: cv2.integral(u8, sdepth=cv2.CV_64F))})
    add("normxcorr2 31x31", lambda: ipt.normxcorr2(u8[:31, :31], u8),
        {"skimage": s["feature"] and (lambda: s["feature"].match_template(u8, u8[:31, :31], pad_input=True)),
         "opencv": cv2 and (lambda: cv2.matchTemplate(u8, u8[:31, :31], cv2.TM_CCOEFF_NORMED))},
        "opencv: 'valid' part only")
    add("imhist", lambda: ipt.imhist(u8),
        {"skimage": s["exposure"] and (lambda: s["exposure"].histogram(u8, source_range="dtype")),
         "opencv": cv2 and (lambda: cv2.calcHist([u8], [0], None, [256], [0, 256]))})
    add("histeq", lambda: ipt.histeq(u8),
        {"skimage": s["exposure"] and (lambda: s["exposure"].equalize_hist(u8)),
         "opencv": cv2 and (lambda: cv2.equalizeHist(u8))},
        "MATLAB's 64-level target; the peers equalize to 256 levels")
    add("adapthisteq", lambda: ipt.adapthisteq(u8),
        {"skimage": s["exposure"] and (lambda: s["exposure"].equalize_adapthist(u8)),
         "opencv": cv2 and (lambda: cv2.createCLAHE(clipLimit=2.56, tileGridSize=(8, 8)).apply(u8))})
    add("graythresh", lambda: ipt.graythresh(u8),
        {"skimage": s["filters"] and (lambda: s["filters"].threshold_otsu(u8)),
         "opencv": cv2 and (lambda: cv2.threshold(u8, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU))},
        "opencv: also thresholds the image")
    add("adaptthresh", lambda: ipt.adaptthresh(u8),
        {"skimage": s["filters"] and (lambda: s["filters"].threshold_local(u8, 2 * (n // 16) + 1, "mean")),
         "opencv": cv2 and (lambda: cv2.adaptiveThreshold(u8, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY,
                                                           2 * (n // 16) + 1, 0))})
    add("edge canny", lambda: ipt.edge(u8, "canny"),
        {"skimage": s["feature"] and (lambda: s["feature"].canny(u8, sigma=np.sqrt(2))),
         "opencv": cv2 and (lambda: cv2.Canny(u8, 50, 100))},
        "opencv: fixed thresholds, no Gaussian")
    add("padarray 64 symmetric", lambda: ipt.padarray(u8, [64, 64], "symmetric"),
        {"skimage": lambda: np.pad(u8, 64, mode="symmetric"),
         "opencv": cv2 and (lambda: cv2.copyMakeBorder(u8, 64, 64, 64, 64, cv2.BORDER_REFLECT))},
        "skimage column: numpy.pad")
    return rows


def gpu_rows(n):
    """The same functions on CuPy arrays: OpenIPT's CUDA backend against
    cupyx.scipy.ndimage and cuCIM."""
    import cupy as cp

    cndi = _optional("cupyx.scipy.ndimage")
    cucim = {m: _optional(f"cucim.skimage.{m}") for m in ("color", "transform", "filters", "exposure",
                                                           "morphology", "feature")}
    rng = cp.random.default_rng(2048)
    u8 = rng.integers(0, 256, (n, n), dtype=cp.uint8)
    rgb = rng.integers(0, 256, (n, n, 3), dtype=cp.uint8)
    f32 = rng.random((n, n), dtype=cp.float32)
    bw = rng.random((n, n)) < 0.999
    k7 = rng.random((7, 7), dtype=cp.float32)
    se = cp.ones((5, 5), bool)
    # Zero copies when the package takes CuPy arrays; the host otherwise.
    try:
        ipt.imcomplement(u8, device="cuda")
        feed, how = (lambda a: a), ""
    except Exception:  # noqa: BLE001
        feed, how = cp.asnumpy, "from host"
    h = {"u8": feed(u8), "rgb": feed(rgb), "f32": feed(f32), "bw": feed(bw), "k7": feed(k7), "se": feed(se)}
    c = cucim
    rows = []

    def add(name, mine, peers, note=""):
        rows.append((name, mine, {k: v for k, v in peers.items() if v is not None}, (how + "; " + note).strip("; ")))

    d = "cuda"
    add("imcomplement", lambda: ipt.imcomplement(h["u8"], device=d), {"cupy": lambda: ~u8})
    add("rgb2gray", lambda: ipt.rgb2gray(h["rgb"], device=d),
        {"cucim": c["color"] and (lambda: c["color"].rgb2gray(rgb))}, "cucim: other weights, float output")
    add("rgb2hsv", lambda: ipt.rgb2hsv(h["rgb"], device=d),
        {"cucim": c["color"] and (lambda: c["color"].rgb2hsv(rgb))})
    add("imresize bilinear x0.5", lambda: ipt.imresize(h["u8"], 0.5, method="bilinear", device=d),
        {"cucim": c["transform"] and (lambda: c["transform"].resize(u8, (n // 2, n // 2), order=1,
                                                                     anti_aliasing=True)),
         "cupy": cndi and (lambda: cndi.zoom(u8, 0.5, order=1))}, "cupy: zoom, no antialiasing")
    add("imrotate 30 bilinear", lambda: ipt.imrotate(h["u8"], 30.0, "bilinear", device=d),
        {"cucim": c["transform"] and (lambda: c["transform"].rotate(u8, 30, order=1, resize=True)),
         "cupy": cndi and (lambda: cndi.rotate(u8, 30, order=1))})
    add("imgaussfilt sigma 2", lambda: ipt.imgaussfilt(h["u8"], 2.0, device=d),
        {"cucim": c["filters"] and (lambda: c["filters"].gaussian(u8, sigma=2, mode="nearest", truncate=2.0,
                                                                   preserve_range=True)),
         "cupy": cndi and (lambda: cndi.gaussian_filter(u8, 2, mode="nearest", truncate=2.0))})
    add("imboxfilt 11", lambda: ipt.imboxfilt(h["u8"], 11.0, device=d),
        {"cupy": cndi and (lambda: cndi.uniform_filter(u8, 11, mode="reflect"))})
    add("imfilter single 7x7", lambda: ipt.imfilter(h["f32"], h["k7"], device=d),
        {"cupy": cndi and (lambda: cndi.correlate(f32, k7, mode="constant"))})
    add("medfilt2 5x5", lambda: ipt.medfilt2(h["u8"], [5, 5], device=d),
        {"cupy": cndi and (lambda: cndi.median_filter(u8, 5, mode="constant")),
         "cucim": c["filters"] and (lambda: c["filters"].median(u8, cp.ones((5, 5), bool), mode="constant"))})
    add("imgradientxy sobel single", lambda: ipt.imgradientxy(h["f32"], nargout=2, device=d),
        {"cupy": cndi and (lambda: (cndi.sobel(f32, 1), cndi.sobel(f32, 0)))})
    add("imdilate square 5", lambda: ipt.imdilate(h["u8"], h["se"], device=d),
        {"cupy": cndi and (lambda: cndi.grey_dilation(u8, footprint=se)),
         "cucim": c["morphology"] and (lambda: c["morphology"].dilation(u8, se))})
    add("bwdist", lambda: ipt.bwdist(h["bw"], device=d),
        {"cupy": cndi and (lambda: cndi.distance_transform_edt(~bw))})
    add("integralImage", lambda: ipt.integralImage(h["u8"], device=d),
        {"cucim": c["transform"] and (lambda: c["transform"].integral_image(u8))})
    add("normxcorr2 31x31", lambda: ipt.normxcorr2(h["u8"][:31, :31].copy(), h["u8"], device=d),
        {"cucim": c["feature"] and (lambda: c["feature"].match_template(u8, u8[:31, :31], pad_input=True))})
    add("imhist", lambda: ipt.imhist(h["u8"], device=d),
        {"cupy": lambda: cp.bincount(u8.ravel(), minlength=256)})
    add("histeq", lambda: ipt.histeq(h["u8"], device=d),
        {"cucim": c["exposure"] and (lambda: c["exposure"].equalize_hist(u8))})
    add("adapthisteq", lambda: ipt.adapthisteq(h["u8"], device=d),
        {"cucim": c["exposure"] and (lambda: c["exposure"].equalize_adapthist(u8))})
    add("graythresh", lambda: ipt.graythresh(h["u8"], device=d),
        {"cucim": c["filters"] and (lambda: c["filters"].threshold_otsu(u8))})
    add("edge canny", lambda: ipt.edge(h["u8"], "canny", device=d),
        {"cucim": c["feature"] and (lambda: c["feature"].canny(u8, sigma=np.sqrt(2)))})
    return rows, cp.cuda.get_current_stream().synchronize


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--gpu", action="store_true", help="CuPy and cuCIM on the CUDA device instead of the CPU peers")
    ap.add_argument("--json")
    ap.add_argument("--md")
    o = ap.parse_args()
    if o.gpu:
        rows, sync = gpu_rows(o.size)
        peers = ["cupy", "cucim"]
    else:
        rows, sync = cpu_rows(o.size), None
        peers = ["skimage", "opencv"]
        ipt_device = ipt.device("cpu")  # the CPU backend, whatever else is loaded
        ipt_device.__enter__()
    results = []
    for name, mine, theirs, note in rows:
        r = {"function": name, "openipt_ms": median_ms(mine, o.runs, sync), "note": note}
        for p in peers:
            if p in theirs:
                try:
                    r[p + "_ms"] = median_ms(theirs[p], o.runs, sync)
                except Exception as e:  # noqa: BLE001 - a peer that fails is reported, not fatal
                    r[p + "_error"] = f"{type(e).__name__}: {e}"[:120]
        results.append(r)
        print(name, {k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items() if k != "function"},
              flush=True)
    versions = {"openipt": ipt.__version__, "numpy": np.__version__}
    for mod, key in (("skimage", "scikit-image"), ("cv2", "opencv-python"), ("cupy", "cupy"), ("cucim", "cucim")):
        m = _optional(mod)
        if m is not None:
            versions[key] = getattr(m, "__version__", "?")
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": platform.processor() or platform.machine(), "cpus": os.cpu_count(),
            "size": o.size, "runs": o.runs, "gpu": o.gpu, "versions": versions,
            "devices": [d["name"] for d in ipt.devices()]}
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"meta": meta, "rows": results}, f, indent=1)
    if o.md:
        with open(o.md, "w") as f:
            f.write(table(meta, results, peers))


def table(meta, results, peers):
    where = "CUDA, data on the GPU, CUDA events" if meta["gpu"] else "CPU, NumPy in and out"
    lines = ["<!-- Generated by bench/python/peers.py; do not edit. -->", "",
             f"# OpenIPT from Python against {', '.join(peers)} ({where})", "",
             f"{meta['size']}x{meta['size']}, median of {meta['runs']} calls (3 or more for calls over 0.2 s) after two "
             f"warm-up calls, "
             f"{meta['date']}, {meta['machine']} ({meta['cpus']} CPUs), devices: {', '.join(meta['devices'])}. "
             f"Versions: {', '.join(f'{k} {v}' for k, v in meta['versions'].items())}. "
             "A ratio is the peer's time over OpenIPT's: above 1, OpenIPT is faster.", "",
             "| function | OpenIPT ms | " + " | ".join(f"{p} ms | {p} / OpenIPT" for p in peers) + " | notes |",
             "|---|---:|" + "---:|---:|" * len(peers) + "---|"]
    for r in results:
        cells = [r["function"], f"{r['openipt_ms']:.3f}"]
        for p in peers:
            t = r.get(p + "_ms")
            cells += [f"{t:.3f}", f"{t / r['openipt_ms']:.2f}"] if t else ["-", "-"]
        errors = [f"{p} failed: {r[p + '_error']}" for p in peers if p + "_error" in r]
        cells.append("; ".join([r["note"]] * bool(r["note"]) + errors))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
