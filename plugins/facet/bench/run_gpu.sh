#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The facet plugin on a GPU machine, end to end, the way an outside team would
# build it: install OpenIPT (with its CUDA backend), configure plugins/facet as
# a separate project against that installation, then run its tests, `ipt
# info`, `ipt conformance` for facet.robust, the thread-block shape sweep and
# the CPU-against-CUDA table from 256^2 to 2048^2.
#
#   plugins/facet/bench/run_gpu.sh [all|build|test|bench]   (from anywhere)
#
# Stages can run as separate commands (each well under 10 minutes); build
# outputs stay in $FACET_WORK between them.
# Environment:
#   FACET_WORK      build folder (default <repo>/build-facet-gpu, ignored by git)
#   OPENIPT_PREFIX  an OpenIPT already installed with its CUDA backend: skip building it
#   OUT             where result files go (default plugins/facet/bench/results)
#   JOBS            parallel build jobs (default: all cores)
#   CPU_THREADS     host threads for the CPU column (default 2: the development machine's cores)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
work="${FACET_WORK:-$root/build-facet-gpu}"
results="${OUT:-$here/results}"
jobs="${JOBS:-$(nproc)}"
cpu_threads="${CPU_THREADS:-2}"
stage="${1:-all}"
prefix="${OPENIPT_PREFIX:-$work/prefix}"
plugin="$work/facet/plugins/libipt_facet.so"
mkdir -p "$work" "$results"

gpu="$( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || true) | head -1 | tr -c 'A-Za-z0-9\n' '_' | sed 's/_*$//')"
gpu="${gpu:-gpu}"
step() { printf '\n== %s\n' "$*"; }

build() {
  if [ -z "${OPENIPT_PREFIX:-}" ]; then
    step "OpenIPT with the CUDA backend -> $prefix"
    # `ipt conformance` comes with the tools (the engine in conformance/).
    cmake -S "$root" -B "$work/openipt" -DCMAKE_BUILD_TYPE=Release -DIPT_WITH_CUDA=ON -DIPT_WITH_VULKAN=OFF \
      -DIPT_BUILD_BENCH=OFF -DIPT_BUILD_CUDA_BENCH=OFF
    cmake --build "$work/openipt" --target ipt ipt_cpu ipt_cuda ipt_cli -j "$jobs"
    cmake --install "$work/openipt" --prefix "$prefix"
  fi
  step "plugins/facet against the installed OpenIPT"
  cmake -S "$root/plugins/facet" -B "$work/facet" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DFACET_WITH_CUDA=ON
  cmake --build "$work/facet" -j "$jobs"
}

test_stage() {
  export IPT_PLUGIN_PATH="$plugin"
  step "ipt info"
  "$prefix/bin/ipt" info 2>&1 | tee "$results/info_$gpu.txt"
  step "tests"
  (cd "$work/facet" && ctest --output-on-failure --timeout 900) 2>&1 | tee "$results/tests_$gpu.txt"
  step "conformance of facet.robust (CPU reference = the plugin's host implementation)"
  set +e
  "$prefix/bin/ipt" conformance --plugin "$prefix/lib/libipt_cuda.so" --plugin "$plugin" --op facet.robust --quick \
    2>&1 | tee "$results/conformance_$gpu.txt"
  set -e
}

bench_stage() {
  export IPT_PLUGIN_PATH="$plugin"
  step "thread-block shapes (kernel time, 1024^2)"
  "$work/facet/bin/facet_shapes" --size 1024 2>&1 | tee "$results/shapes_$gpu.txt"
  step "CPU ($cpu_threads threads) against CUDA, 256^2 .. 2048^2"
  {
    echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); CPU column uses $cpu_threads threads"
    IPT_NUM_THREADS="$cpu_threads" "$work/facet/bin/facet_bench" --sizes 256,512,1024,2048 --window 5
    echo
    IPT_NUM_THREADS="$cpu_threads" "$work/facet/bin/facet_bench" --sizes 256,512,1024,2048 --window 7 --cpu-max 1024
  } 2>&1 | tee "$results/bench_$gpu.txt"
}

case "$stage" in
  build) build ;;
  test) test_stage ;;
  bench) bench_stage ;;
  all) build; test_stage; bench_stage ;;
  *) echo "usage: run_gpu.sh [all|build|test|bench]" >&2; exit 2 ;;
esac
