#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The cost of a first call: `ipt run` of a few operators on a 720x477 and a
# 2048x2048 image, each in a new process with an empty tuning cache
# (IPT_SELECT=auto), against the same with static selection (IPT_SELECT=static),
# with every candidate measured on the miss (IPT_SELECT=measure) and with a
# filled cache. Prints the median wall time of RUNS processes per
# cell and whether the cold call met the goal (at most 2x static + 20 ms).
#
# Usage: bench/cold_call.sh [IPT_BINARY] [RUNS] [MEASURE_RUNS]
#        (defaults: build/bin/ipt, 7, 3: measuring every candidate takes seconds)
# The plugins loaded are those `ipt info` lists (discovery); IPT_PLUGIN_PATH
# adds others.
set -eu
IPT=${1:-build/bin/ipt}
RUNS=${2:-7}
MEASURE_RUNS=${3:-3}
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

# Wall ms of one process; $1: static, auto (empty cache), measure (empty
# cache, every candidate measured on the miss) or warm (the cache filled
# before); $2 op; $3 input; $4 params; $5 image.
run_once() {
    mode=$1 op=$2 input=$3 params=$4 img=$5
    cache="$WORK/cache_$mode.json"
    [ "$mode" = warm ] || rm -f "$cache"
    sel=auto
    { [ "$mode" = static ] || [ "$mode" = measure ]; } && sel=$mode
    set -- run "$op" --in "$input=$WORK/$img.npy"
    [ -n "$params" ] && set -- "$@" --param "$params"
    t0=$(now_ms)
    IPT_TUNING_CACHE="$cache" IPT_SELECT=$sel "$IPT" "$@" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; echo -1; return; }
    t1=$(now_ms)
    echo "$t1 $t0" | awk '{print $1 - $2}'
}

printf '| operator | image | static ms | cold auto ms | cold, measuring all ms | warm auto ms | goal (2x static + 20) | met |\n'
printf '|---|---|---:|---:|---:|---:|---:|---|\n'
echo "$CASES" | while IFS='|' read -r op input params; do
    for img in photo big; do
        size=$([ "$img" = photo ] && echo 720x477 || echo 2048x2048)
        # The warm cache: every candidate measured once, as `ipt tune` does.
        rm -f "$WORK/cache_warm.json"
        IPT_TUNING_CACHE="$WORK/cache_warm.json" IPT_SELECT=measure "$IPT" run "$op" --in "$input=$WORK/$img.npy" \
            ${params:+--param "$params"} >/dev/null 2>&1 || true
        rm -f "$WORK"/t_*
        # The modes in turn, so that each sees the same stretch of the machine's load.
        i=0
        while [ "$i" -lt "$RUNS" ]; do
            for mode in static auto warm; do run_once $mode "$op" "$input" "$params" "$img" >>"$WORK/t_$mode"; done
            [ "$i" -lt "$MEASURE_RUNS" ] && run_once measure "$op" "$input" "$params" "$img" >>"$WORK/t_measure"
            i=$((i + 1))
        done
        s=$(median <"$WORK/t_static") c=$(median <"$WORK/t_auto") m=$(median <"$WORK/t_measure") w=$(median <"$WORK/t_warm")
        goal=$(echo "$s" | awk '{printf "%.1f", 2 * $1 + 20}')
        met=$(echo "$c $goal" | awk '{print ($1 <= $2) ? "yes" : "no"}')
        printf '| %s %s | %s | %s | %s | %s | %s | %s | %s |\n' "$op" "$params" "$size" "$s" "$c" "$m" "$w" "$goal" "$met"
    done
done
