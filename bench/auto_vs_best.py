#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarise `ipt bench --json` output as two markdown tables.

  bench/auto_vs_best.py ipt-bench.json [title] [--alone CUDA.json VULKAN.json] > auto-vs-best.md

1. auto against the best single implementation (overall times, from where the
   data is, results brought back there); a row is a miss when auto/best is
   over 1.1 and the two differ by more than 0.05 ms (issue 7's rule).
2. Vulkan kernel time over CUDA kernel time (data on each device, the faster
   Vulkan variant), marked where it is over 1.3x (issue 6's rule). With
   --alone, from two runs that each loaded one GPU plugin beside the CPU
   (`session.sh alone`: no second context on the GPU), else from the first file.
"""
import json
import sys

MISS_RATIO, MISS_MS, VK_LIMIT = 1.1, 0.05, 1.3


def main() -> int:
    args = sys.argv[1:]
    alone = None
    if "--alone" in args:
        k = args.index("--alone")
        alone = args[k + 1:k + 3]
        args = args[:k] + args[k + 3:]
    if not args or (alone is not None and len(alone) != 2):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = json.load(open(args[0]))["rows"]
    title = args[1] if len(args) > 1 else "ipt bench"
    print(f"# {title}: auto against the best single implementation\n")
    print(f"Overall times (ms): from where the data is, results brought back there. "
          f"`auto/best` over {MISS_RATIO} with more than {MISS_MS} ms between them is marked **miss**.\n")
    print("| op | size | data on | auto chose | auto ms | best | best ms | auto/best |")
    print("|---|---:|---|---|---:|---|---:|---:|")
    misses = 0
    for r in rows:
        if r.get("auto_ms") is None or r.get("best_ms") is None:
            continue
        ratio = r["auto_ms"] / r["best_ms"]
        miss = ratio > MISS_RATIO and r["auto_ms"] - r["best_ms"] > MISS_MS
        mark = f"{ratio:.2f}"
        # `ipt bench --check-auto` times a miss again (auto and the best
        # implementation together), then selects again, before calling it one.
        check = r.get("auto_check", "")
        if miss and check.startswith("passed when"):
            a, b = r["auto_retimed_ms"][-1] if r.get("auto_retimed_ms") else (None, None)
            again = f"{a:.3f} / {b:.3f} = {a / b:.2f}" if a and b else "within"
            mark += f" ({check.removeprefix('passed when ')}: {again})"
            miss = False
        misses += miss
        mark += " **miss**" if miss else ""
        print(f"| {r['op'].removeprefix('ipt.')} | {r['size']} | {r['where']} | {r['auto_impl']} | "
              f"{r['auto_ms']:.3f} | {r['best_impl']} | {r['best_ms']:.3f} | {mark} |")
    total = sum(1 for r in rows if r.get("auto_ms") is not None and r.get("best_ms") is not None)
    print(f"\n{total - misses} of {total} rows within {MISS_RATIO}x (+{MISS_MS} ms).\n")

    if alone:
        rows = json.load(open(alone[0]))["rows"] + json.load(open(alone[1]))["rows"]
        print("## Vulkan kernel time over CUDA kernel time (each GPU plugin alone beside the CPU, median)\n")
    else:
        print("## Vulkan kernel time over CUDA kernel time (data on each device, median)\n")
    print("| op | size | CUDA ms | Vulkan ms (best variant) | Vulkan/CUDA |")
    print("|---|---:|---:|---:|---:|")
    seen = set()
    for r in rows:
        key = (r["op"], r["size"], r.get("dtype"))
        if key in seen:
            continue
        # Kernel times do not depend on where the data started; take the row
        # whose data sits on a GPU when there is one.
        same = [x for x in rows if (x["op"], x["size"], x.get("dtype")) == key]
        cuda = [i["kernel_ms"] for x in same for i in x["impls"] if i["plugin"] == "cuda" and (i.get("kernel_ms") or -1) > 0]
        vk = [i["kernel_ms"] for x in same for i in x["impls"] if i["plugin"] == "vulkan" and (i.get("kernel_ms") or -1) > 0]
        if not cuda or not vk:
            continue
        seen.add(key)
        c, v = min(cuda), min(vk)
        ratio = v / c
        mark = f"{ratio:.2f}" + (f" **>{VK_LIMIT}**" if ratio > VK_LIMIT else "")
        print(f"| {r['op'].removeprefix('ipt.')} | {r['size']} | {c:.4f} | {v:.4f} | {mark} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
