#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The cost of a first call: `ipt run` of a few operators on a 720x477 and a
# 2048x2048 image, each in a new process with an empty tuning cache
# (IPT_SELECT=auto), against the same with static selection (IPT_SELECT=static)
# and with a filled cache. Prints the median wall time of RUNS processes per
# cell and whether the cold call met the goal (at most 2x static + 20 ms).
#
# Usage: bench/cold_call.sh [IPT_BINARY] [RUNS]   (defaults: build/bin/ipt, 5)
# The plugins loaded are those `ipt info` lists (discovery); IPT_PLUGIN_PATH
# adds others.
set -eu
IPT=${1:-build/bin/ipt}
RUNS=${2:-5}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(7)
for name, (r, c) in {"photo": (477, 720), "big": (2048, 2048)}.items():
    y, x = np.mgrid[0:r, 0:c]
    img = 128 + 60 * np.sin(x / 37.0) * np.cos(y / 23.0) + rng.normal(0, 12, (r, c))
    img[(x // 97 + y // 61) % 3 == 0] += 50
    np.save(f"{sys.argv[1]}/{name}.npy", np.clip(img, 0, 255).astype(np.uint8))
PY

# operator | image input | parameter
CASES='edge|I|method=canny
medfilt2|A|
imgaussfilt|A|sigma=2
imresize|A|Scale=0.5
mean2|A|'

now_ms() { date +%s%N | awk '{printf "%.3f", $1 / 1e6}'; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m}'; }

# Median wall ms of RUNS processes; $1: auto, static or warm; $2 op; $3 input; $4 params; $5 image.
time_runs() {
    mode=$1 op=$2 input=$3 params=$4 img=$5
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        cache="$WORK/cache_$mode.json"
        [ "$mode" = warm ] || rm -f "$cache"
        sel=auto
        [ "$mode" = static ] && sel=static
        set -- run "$op" --in "$input=$WORK/$img.npy"
        [ -n "$params" ] && set -- "$@" --param "$params"
        t0=$(now_ms)
        IPT_TUNING_CACHE="$cache" IPT_SELECT=$sel "$IPT" "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; echo -1; return; }
        t1=$(now_ms)
        echo "$t1 $t0" | awk '{print $1 - $2}'
        i=$((i + 1))
    done | median
}

printf '| operator | image | static ms | cold auto ms | warm auto ms | goal (2x static + 20) | met |\n'
printf '|---|---|---:|---:|---:|---:|---|\n'
echo "$CASES" | while IFS='|' read -r op input params; do
    for img in photo big; do
        size=$([ "$img" = photo ] && echo 720x477 || echo 2048x2048)
        s=$(time_runs static "$op" "$input" "$params" "$img")
        c=$(time_runs auto "$op" "$input" "$params" "$img")
        # A filled cache: `ipt tune`-like, one measuring run first.
        rm -f "$WORK/cache_warm.json"
        IPT_TUNING_CACHE="$WORK/cache_warm.json" IPT_SELECT=measure "$IPT" run "$op" --in "$input=$WORK/$img.npy" \
            ${params:+--param "$params"} >/dev/null 2>&1 || true
        w=$(time_runs warm "$op" "$input" "$params" "$img")
        goal=$(echo "$s" | awk '{printf "%.1f", 2 * $1 + 20}')
        met=$(echo "$c $goal" | awk '{print ($1 <= $2) ? "yes" : "no"}')
        printf '| %s %s | %s | %s | %s | %s | %s | %s |\n' "$op" "$params" "$size" "$s" "$c" "$w" "$goal" "$met"
    done
done
