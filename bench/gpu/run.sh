#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine (nvcc, CMake, NPP, cuFFT; no Debian packages, no network):
# builds OpenIPT with the CUDA backend, runs `ipt conformance` on the CUDA
# device, runs bench/gpu's check-and-benchmark harness (with NPP side by side),
# and prints the benchmark table last. Everything written goes to $OUT
# (default: <repo>/bench-out): run.log, conformance.json, bench.json.
#
# Before the call, on the development machine: bash bench/gpu/pack-deps.sh,
# then carry .deps (the header-only dependencies: Boost.DLL, CLI11,
# nlohmann-json, GoogleTest sources).
#
# Environment: BUILD_DIR (default /tmp/ipt-build), JOBS (16), TESTS=ON to also
# build and run the GoogleTest suites, CONFORMANCE_ARGS (default --quick),
# BENCH_ARGS (extra arguments of ipt_cuda_bench).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT:-$root/bench-out}"
mkdir -p "$out"
exec > >(tee -a "$out/run.log") 2>&1
deps="$root/.deps"
build="${BUILD_DIR:-/tmp/ipt-build}"
jobs="${JOBS:-16}"
tests="${TESTS:-OFF}"

echo "== machine: $(date -u '+%Y-%m-%d %H:%M UTC')"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null || echo "nvidia-smi: not available"
nvcc --version 2>/dev/null | tail -1
cmake --version | head -1

prefix_path="$deps/prefix"
if [ "$tests" = "ON" ]; then
  if [ -d "$deps/googletest" ] && [ ! -d /tmp/gtest-prefix ]; then
    echo "== GoogleTest from .deps"
    cmake -S "$deps/googletest" -B /tmp/gtest-build -DCMAKE_INSTALL_PREFIX=/tmp/gtest-prefix -DCMAKE_BUILD_TYPE=Release >/dev/null &&
      cmake --build /tmp/gtest-build -j "$jobs" >/dev/null && cmake --install /tmp/gtest-build >/dev/null
  fi
  prefix_path="$prefix_path;/tmp/gtest-prefix"
fi

echo "== configure"
t0=$(date +%s)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DIPT_WITH_CUDA=ON -DIPT_WITH_VULKAN=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DIPT_BUILD_TESTS="$tests" -DIPT_BUILD_BENCH=OFF -DIPT_BUILD_CUDA_BENCH=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenCV=ON \
  -DBOOST_ROOT="$deps/prefix" -DBoost_NO_SYSTEM_PATHS=ON -DBoost_NO_BOOST_CMAKE=ON \
  -DCMAKE_PREFIX_PATH="$prefix_path" > "$out/configure.log" 2>&1
status=$?
grep -E "OpenIPT|NPP|Error|error" "$out/configure.log"
if [ $status -ne 0 ]; then echo "configure failed (see configure.log)"; tail -30 "$out/configure.log"; exit 1; fi

echo "== build (-j$jobs)"
# The CUDA plugin and its harness first, then everything (-k: build what can
# be built even if one part fails, then report).
cmake --build "$build" -j "$jobs" --target ipt_cuda ipt_cuda_bench > "$out/build.log" 2>&1
cmake --build "$build" -j "$jobs" -- -k >> "$out/build.log" 2>&1
build_status=$?
grep -E "error|Error" "$out/build.log" | head -40
echo "build status $build_status in $(( $(date +%s) - t0 )) s"
ls "$build/lib" "$build/bin" 2>/dev/null

if [ -x "$build/bin/ipt" ]; then
  echo "== ipt info"
  "$build/bin/ipt" info 2>&1 | head -40
  echo "== ipt conformance --device cuda ${CONFORMANCE_ARGS:---quick} --json"
  timeout 240 "$build/bin/ipt" conformance --device cuda ${CONFORMANCE_ARGS:---quick} --json > "$out/conformance.json" 2> "$out/conformance.err"
  echo "conformance exit $?"
  tail -5 "$out/conformance.err"
  python3 - "$out/conformance.json" <<'PY' || head -c 3000 "$out/conformance.json"
import json, sys, collections
data = json.load(open(sys.argv[1]))
counts = collections.Counter(); bad = []
def walk(x, path=""):
    if isinstance(x, dict):
        v = x.get("verdict", x.get("status", x.get("result")))
        if isinstance(v, str) and ("op" in x or "case" in x or "label" in x):
            counts[v] += 1
            if v.lower() not in ("pass", "passed", "ok", "skip", "skipped"):
                bad.append({k: x[k] for k in x if isinstance(x[k], (str, int, float))})
        for k, y in x.items(): walk(y, path + "/" + k)
    elif isinstance(x, list):
        for y in x: walk(y, path)
walk(data)
print("conformance verdicts:", dict(counts))
for b in bad[:40]: print("  ", json.dumps(b)[:400])
PY
else
  echo "== ipt CLI not built; conformance skipped (see build.log)"
fi

if [ "$tests" = "ON" ]; then
  echo "== ctest"
  (cd "$build" && timeout 300 ctest --output-on-failure -j 8 2>&1 | tail -30)
fi

if [ -x "$build/bin/ipt_cuda_bench" ]; then
  echo "== bench/gpu: checks against the CPU reference, then timings"
  cpu_ref=()
  # When this tree's CPU plugin does not build here, a reference plugin built
  # on the development machine may travel in .deps/cpu-ref (pack-deps.sh --cpu-ref).
  if [ ! -f "$build/lib/libipt_cpu.so" ] && [ -f "$deps/cpu-ref/libipt_cpu.so" ]; then
    export LD_LIBRARY_PATH="$deps/cpu-ref${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    cpu_ref=(--cpu-lib "$deps/cpu-ref/libipt_cpu.so")
    echo "reference: the CPU plugin carried in .deps/cpu-ref"
  fi
  timeout 240 "$build/bin/ipt_cuda_bench" --json "$out/bench.json" "${cpu_ref[@]}" ${BENCH_ARGS:-}
  echo "ipt_cuda_bench exit $?"
else
  echo "== ipt_cuda_bench not built (see build.log)"
fi
