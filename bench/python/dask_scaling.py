#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""openipt.dask against dask-image on a dask.distributed LocalCluster: a
SIZE x SIZE uint8 image (default 32768^2, 1 GiB) through medfilt2 5x5 and
imgaussfilt (sigma 2) on 1, 2 and 4 worker processes of one thread each,
median of --runs runs after a warm-up.

  bench/python/dask_scaling.py [--size N] [--chunk N] [--workers 1,2,4] [--runs 3]
                               [--json FILE] [--md FILE] [--cupy] [--peer-ops OPS]
  bench/python/dask_scaling.py --from-json FILE [--md FILE]   (the table again)

The peer is dask-image (dask_image.ndfilters.median_filter, gaussian_filter,
over scipy.ndimage; tools/install-deps.sh --bench installs it). Its Gaussian
is given truncate=2 so that both use 9 taps (MATLAB's FilterSize
2*ceil(2*sigma)+1); borders differ (scipy reflects, medfilt2 pads with zeros),
which does not change the work. The image is made on the workers and held
there (persist) before the clock starts; each run persists the result on the
workers and waits, so no pixel travels to the client.

--cupy (the GPU machine): the chunks are CuPy arrays on the GPU; dask-image
filters them with cupyx.scipy.ndimage, openipt.dask runs each one in place on
its CUDA device (no host copies on either side).

Run with openipt importable (PYTHONPATH=BUILD/python) and IPT_TUNING_CACHE=.
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time
import uuid

import dask.array as da
import numpy as np
from dask import config as dask_config

import openipt as ipt
import openipt.dask as ipd


def _to_gpu(block):
    import cupy as cp
    return cp.asarray(block)


def pipelines(device):
    """name -> (openipt function of x, dask-image function of x); both take
    NumPy or CuPy chunks. `device` pins openipt (None: the chunks' device)."""
    from dask_image import ndfilters
    dev = {"device": device} if device else {}
    return {
        "medfilt2 5x5": (lambda x: ipd.medfilt2(x, size=[5, 5], **dev),
                         lambda x: ndfilters.median_filter(x, size=5)),
        "imgaussfilt sigma 2": (lambda x: ipd.imgaussfilt(x, sigma=2, **dev),
                                lambda x: ndfilters.gaussian_filter(x, sigma=2, truncate=2.0)),
    }


def _same(block):
    return block


def timed(client, make, x, runs):
    """Median seconds of `runs` runs after a warm-up (imports, plugin
    discovery, first touch of memory). Each run starts from a renamed view
    of the input (an identity per chunk), so that no result of an earlier
    run is found among the cluster's keys."""
    from distributed import wait
    t = []
    for i in range(runs + 1):
        xi = x.map_blocks(_same, dtype=x.dtype, name=f"input-{uuid.uuid4().hex}")
        t0 = time.perf_counter()
        y = client.persist(make(xi))
        wait(y)
        if i:
            t.append(time.perf_counter() - t0)
        client.cancel(y)
        del y, xi
    return statistics.median(t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=32768)
    ap.add_argument("--chunk", type=int, default=4096)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--md", help="write the markdown table here")
    ap.add_argument("--cupy", action="store_true", help="CuPy chunks on the GPU (see above)")
    ap.add_argument("--note", default="", help="a line for the table's notes (the machine)")
    ap.add_argument("--peer-ops", default=None,
                    help="comma-separated operators (as in the table) that run dask-image too (default: all)")
    ap.add_argument("--from-json", metavar="FILE",
                    help="only write the table (--md, else stdout) of the results in FILE")
    o = ap.parse_args()
    if o.from_json:
        with open(o.from_json) as f:
            saved = json.load(f)
        table = markdown(saved["meta"], saved["results"])
        if o.md:
            with open(o.md, "w") as f:
                f.write(table)
        else:
            sys.stdout.write(table)
        return
    from distributed import Client, LocalCluster, wait

    env = {k: os.environ[k] for k in ("PYTHONPATH", "IPT_PLUGIN_PATH") if k in os.environ}
    env["IPT_TUNING_CACHE"] = ""
    # One thread per worker, and none hidden inside the libraries either.
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1", IPT_NUM_THREADS="1")
    results = []
    for n in [int(w) for w in o.workers.split(",")]:
        with dask_config.set({"distributed.worker.memory.target": False, "distributed.worker.memory.spill": False}), \
                LocalCluster(n_workers=n, processes=True, threads_per_worker=1, host="127.0.0.1",
                             dashboard_address=None, env=env) as cluster, Client(cluster) as client:
            x = da.random.default_rng(16).integers(0, 256, size=(o.size, o.size), chunks=o.chunk, dtype=np.uint8)
            if o.cupy:
                x = x.map_blocks(_to_gpu, dtype=np.uint8)
            x = client.persist(x)
            wait(x)
            for name, (ours, peer) in pipelines(None if o.cupy else "cpu").items():
                t_ours = timed(client, ours, x, o.runs)
                t_peer = timed(client, peer, x, o.runs) if o.peer_ops is None or name in o.peer_ops.split(",") \
                    else None
                results.append({"op": name, "workers": n, "openipt_s": t_ours, "dask_image_s": t_peer})
                print(f"{name:22s} workers={n}  openipt {t_ours:8.2f} s  dask-image {t_peer or float('nan'):8.2f} s",
                      flush=True)
    meta = {"size": o.size, "chunk": o.chunk, "runs": o.runs, "cupy": o.cupy,
            "date": datetime.date.today().isoformat(), "python": platform.python_version(),
            "machine": platform.machine(), "cpus": os.cpu_count(), "openipt": ipt.__version__, "note": o.note}
    if o.json:
        with open(o.json, "w") as f:
            json.dump({"meta": meta, "results": results}, f, indent=2)
    table = markdown(meta, results)
    if o.md:
        with open(o.md, "w") as f:
            f.write(table)
    sys.stdout.write(table)


def markdown(meta, results):
    fewest = min(x["workers"] for x in results)
    base = {(r["op"], "o"): r["openipt_s"] for r in results if r["workers"] == fewest}
    base.update({(r["op"], "p"): r["dask_image_s"] for r in results if r["workers"] == fewest})

    def peer(r):
        t, b = r["dask_image_s"], base[(r["op"], "p")]
        if t is None:
            return "not run | - | -"
        return f"{t:.2f} | {b / t:.2f}x | {t / r['openipt_s']:.2f}" if b else f"{t:.2f} | - | {t / r['openipt_s']:.2f}"

    side = "CuPy chunks (GPU)" if meta["cupy"] else "CPU"
    lines = [f"# openipt.dask vs dask-image on a LocalCluster ({side})", "",
             f"{meta['size']}x{meta['size']} uint8, chunks {meta['chunk']}^2, worker processes of one thread; "
             f"median of {meta['runs']} runs after a warm-up; the input held on the workers, the result "
             f"persisted there (bench/python/dask_scaling.py, {meta['date']}, Python {meta['python']}, "
             f"{meta['cpus']} CPUs, OpenIPT {meta['openipt']}).", "",
             "| Operator | Workers | openipt.dask (s) | speed-up | dask-image (s) | speed-up | dask-image / openipt |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r['op']} | {r['workers']} | {r['openipt_s']:.2f} | "
                     f"{base[(r['op'], 'o')] / r['openipt_s']:.2f}x | {peer(r)} |")
    lines += ["", "Speed-up: against the fewest workers measured. Above 1 in the last column, openipt.dask is "
              "faster. dask-image's Gaussian uses truncate=2 (9 taps, as imgaussfilt's 2*ceil(2*sigma)+1)."]
    if meta["note"]:
        lines += ["", meta["note"]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
