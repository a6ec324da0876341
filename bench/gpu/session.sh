#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One call on the GPU machine, in stages that each stay inside a 10-minute
# command: build everything that builds there, then
#   conformance  `ipt conformance` on the CUDA device and, through NVIDIA's
#                Vulkan driver, on the Vulkan plugin; the CUDA harness with NPP
#   bench        `ipt bench` across CPU, CUDA and Vulkan (kernel and overall
#                times, auto vs best); the facet plugin's tests, conformance
#                and CPU-vs-CUDA table
#
#   peers        the CUDA harness with NPP, then the Python peers
#                (python_peers.py: CuPy and cuCIM on the same GPU)
#
#   timing       `ipt bench` of the CUDA and Vulkan plugins at 2048 with
#                IPT_VULKAN_TIMING=1: each Vulkan call's GPU time beside the
#                CUDA call (vulkan-timing.txt, vulkan-timing-bench.json)
#
#   host         host copies: ipt_copy_bench with the driver's staging and
#                the plugin's (IPT_CUDA_STAGING, IPT_HOST_COPY_THREADS), then
#                `ipt bench --from-host` of every GPU implementation, CUDA and
#                Vulkan, one size at a time (copy-rates.txt,
#                from-host-<plugin>-<size>.json; IPT_HOST_SIZES, default
#                2048,8192; IPT_HOST_UNTIL, the second by which it ends,
#                default 570). IPT_HOST=1 adds it to conformance in place of
#                the CUDA harness.
#
#   bench/gpu/session.sh conformance|bench|peers|timing|all|vulkan|ops|alone|host
#   (all: both, then the harness in the time left; vulkan: the Vulkan plugin's conformance, then bench;
#    ops: conformance --json of the operators in $IPT_OPS (space-separated)
#    on CUDA and on Vulkan, every failing case listed, for diagnosis)
#   alone: ipt bench of each GPU plugin with only the CPU plugin loaded (one
#   GPU context at a time), for the Vulkan-vs-CUDA kernel times; IPT_ALONE=1
#   adds it to another stage; IPT_ALONE_OPS and IPT_ALONE_SIZES narrow it.
#   IPT_SKIP_FACET=1 leaves the facet plugin out of bench/all (its numbers
#   change only with plugins/facet), leaving the time to the CUDA harness.
#   IPT_BENCH_SIZES (default 256,2048) sets ipt bench's sizes (8192 alone
#   takes most of a call: give it IPT_BENCH_UNTIL=570, the second by which
#   it must end, and IPT_SKIP_FACET=1).
#   IPT_BENCH_OPS (comma-separated) narrows ipt bench to those operators;
#   IPT_TIMING_OPS the timing stage, IPT_TIMING_UNTIL the second by which it ends.
#
# Carry (run on the development machine first):
#   .whl   optional, for the peers stage: cuCIM's wheel (cucim-cu13), which the
#          GPU machine's image lacks; its other needs are there
#   .deps  bash bench/gpu/pack-deps.sh; plus .deps/vulkan/libipt_vulkan.so,
#          built here (the GPU machine has no Vulkan headers or glslang)
#   .gl    Debian's libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 .debs
#          (the Vulkan loader, and the GL dispatch libraries NVIDIA's ICD links)
# Results go to $OUT (the files come back) with a short table printed last.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
stage="${1:-conformance}"
final="${OUT:-$root/bench-out}"
out=/tmp/gpu-results   # everything, packed into $final/results-<stage>.tgz at the end
mkdir -p "$out" "$final"
build=/tmp/ipt-build
ipt="$build/bin/ipt"
vk="$root/.deps/vulkan/libipt_vulkan.so"
summary="$out/summary-$stage.txt"
: > "$summary"
trap 'tar czf "$final/results-$stage.tgz" --exclude="vulkan-pipelines*" --exclude="vulkan-vkfft*" -C "$out" . 2>/dev/null; cp "$summary" "$final/"' EXIT
note() { echo "$*" | tee -a "$summary"; }
started=$(date +%s)
elapsed() { echo $(( $(date +%s) - started )); }

# The Vulkan loader (Debian's libvulkan1), unpacked into /.
for f in "$root"/.gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
ldconfig 2>/dev/null
# NVIDIA's ICD manifest is not always where the loader looks.
icd="$(find /usr/local/nvidia /usr/share/vulkan /etc/vulkan /usr/lib -name 'nvidia_icd*.json' 2>/dev/null | head -1)"
if [ -n "$icd" ]; then
  export VK_DRIVER_FILES="$icd"
  echo "Vulkan ICD: $icd"
else
  echo "Vulkan ICD: none found"
fi
export IPT_TUNING_CACHE="$out/tuning.json"

note "== $(date -u '+%Y-%m-%d %H:%M UTC') stage $stage"
note "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null)"

# ---- build (CUDA backend, CPU backend without FFTW, CLI, CUDA harness) -------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DIPT_WITH_CUDA=ON -DIPT_WITH_VULKAN=OFF \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DIPT_BUILD_TESTS=OFF -DIPT_BUILD_BENCH=OFF -DIPT_BUILD_CUDA_BENCH=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_TIFF=ON -DCMAKE_DISABLE_FIND_PACKAGE_OpenCV=ON \
  -DBOOST_ROOT="$root/.deps/prefix" -DBoost_NO_SYSTEM_PATHS=ON -DBoost_NO_BOOST_CMAKE=ON \
  -DCMAKE_PREFIX_PATH="$root/.deps/prefix" > "$out/configure-$stage.log" 2>&1 || { tail -30 "$out/configure-$stage.log"; exit 1; }
timeout 300 cmake --build "$build" -j 16 -- -k > "$out/build-$stage.log" 2>&1
note "build exit $? after $(elapsed) s"
grep -E "error" "$out/build-$stage.log" | head -20
[ -x "$ipt" ] || { note "ipt not built"; exit 1; }
"$ipt" info > "$out/info.txt" 2>&1
"$ipt" info --plugin "$vk" | sed -n '/^Devices/,/^Operators/p' | tee -a "$summary"

if [ "$stage" = conformance ] || [ "$stage" = all ]; then
  note "== ipt conformance --device cuda (full)"
  timeout 200 "$ipt" conformance --device cuda > "$out/conformance-cuda.txt" 2>&1
  note "cuda conformance exit $? after $(elapsed) s"
fi
if [ "$stage" = conformance ] || [ "$stage" = all ] || [ "$stage" = vulkan ]; then
  if [ -f "$vk" ]; then
    note "== ipt conformance --plugin libipt_vulkan.so (NVIDIA Vulkan driver, --quick; wave32 then forced wave64)"
    timeout 200 "$ipt" conformance --plugin "$vk" --quick > "$out/conformance-vulkan.txt" 2>&1
    note "vulkan conformance exit $? after $(elapsed) s"
    IPT_VULKAN_VARIANT=wave64 timeout 150 "$ipt" conformance --plugin "$vk" --quick > "$out/conformance-vulkan-wave64.txt" 2>&1
    note "vulkan wave64 conformance exit $? after $(elapsed) s"
  fi
  if [ "$stage" = conformance ] && [ -z "${IPT_HOST:-}" ] && [ -x "$build/bin/ipt_cuda_bench" ] && [ "$(elapsed)" -lt 480 ]; then
    note "== CUDA harness (checks, then timings with NPP)"
    timeout $(( 560 - $(elapsed) )) "$build/bin/ipt_cuda_bench" --json "$out/cuda-bench.json" > "$out/cuda-bench.txt" 2>&1
    note "harness exit $?"
  fi
  for f in conformance-cuda.txt conformance-vulkan.txt conformance-vulkan-wave64.txt; do
    [ -f "$out/$f" ] && { echo "--- $f"; grep -E "^ *(ipt\.|summary|pass|PASS|FAIL|fail)" "$out/$f" | tail -40; }
  done
fi

if [ "$stage" = host ] || [ "${IPT_HOST:-}" = 1 ]; then
  note "== host copies (ipt_copy_bench --mib 4,16,64)"
  for cfg in "IPT_CUDA_STAGING=0" "IPT_CUDA_STAGING=1 IPT_HOST_COPY_THREADS=0" "IPT_CUDA_STAGING=1 IPT_HOST_COPY_THREADS=3" \
             "IPT_CUDA_STAGING=1 IPT_HOST_COPY_THREADS=7" "IPT_CUDA_STAGING=1 IPT_HOST_COPY_THREADS=15"; do
    echo "### $cfg"
    env $cfg timeout 60 "$build/bin/ipt_copy_bench" --mib 4,16,64 --runs 15 2>&1 | grep -E "^\| (ipt|cuda|host)"
  done > "$out/copy-rates.txt"
  # One size at a time, CUDA (the plugins beside libipt) before Vulkan alone
  # beside the CPU: each JSON is written only when its run completes.
  until="${IPT_HOST_UNTIL:-570}"
  for size in $(echo "${IPT_HOST_SIZES:-2048,8192}" | tr , ' '); do
    [ "$(elapsed)" -lt $(( until - 20 )) ] || break
    timeout $(( until - $(elapsed) )) "$ipt" bench --from-host --sizes "$size" --repeats 5 --budget 0.5 --json \
      > "$out/from-host-cuda-$size.json" 2>> "$out/from-host.log"
    note "from-host CUDA $size exit $? after $(elapsed) s"
  done
  for size in $(echo "${IPT_HOST_SIZES:-2048,8192}" | tr , ' '); do
    [ -f "$vk" ] && [ "$(elapsed)" -lt $(( until - 20 )) ] || break
    timeout $(( until - $(elapsed) )) "$ipt" bench --from-host --no-discovery --plugin "$build/lib/libipt_cpu.so" \
      --plugin "$vk" --sizes "$size" --repeats 5 --budget 0.5 --json > "$out/from-host-vulkan-$size.json" 2>> "$out/from-host.log"
    note "from-host Vulkan $size exit $? after $(elapsed) s"
  done
  grep -E "^device" "$out/from-host.log" | sort -u | tee -a "$summary"
fi

if [ "$stage" = peers ]; then
  if [ -x "$build/bin/ipt_cuda_bench" ]; then
    note "== CUDA harness (checks, then timings with NPP)"
    timeout 360 "$build/bin/ipt_cuda_bench" --json "$out/cuda-bench.json" > "$out/cuda-bench.txt" 2>&1
    note "harness exit $? after $(elapsed) s"
  fi
  if ls "$root"/.whl/*.whl > /dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
      "$root"/.whl/*.whl > "$out/pip.log" 2>&1 && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
  fi
  note "== Python peers (CuPy, cuCIM), 2048"
  timeout $(( 585 - $(elapsed) )) python3 "$root/bench/gpu/python_peers.py" --size 2048 --json "$out/python-peers.json" \
    > "$out/python-peers.txt" 2>&1
  note "python peers exit $? after $(elapsed) s"
  cat "$out/python-peers.txt"
fi

if [ "$stage" = ops ]; then
  for op in ${IPT_OPS:-}; do
    timeout 150 "$ipt" conformance --device cuda --op "$op" --json > "$out/cuda-$op.json" 2> "$out/cuda-$op.err"
    note "cuda $op exit $? after $(elapsed) s"
    [ -f "$vk" ] || continue
    timeout 150 "$ipt" conformance --plugin "$vk" --quick --op "$op" --json > "$out/vulkan-$op.json" 2> "$out/vulkan-$op.err"
    note "vulkan $op exit $? after $(elapsed) s"
  done
  python3 - "$out" <<'PY' 2>/dev/null | tee -a "$summary"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-*.json")):
    try: j = json.load(open(f))
    except Exception: continue
    for d in j.get("devices", []):
        for r in d.get("operators", d.get("ops", [])):
            if r.get("fail"):
                print(f"{f.split('/')[-1]} {r['implementation']}: {r['fail']} fail")
                for x in r.get("failures", [])[:40]: print("   ", x["case"], "|", x["message"][:150])
PY
fi

if [ "$stage" = bench ] || [ "$stage" = all ] || [ "$stage" = vulkan ]; then
  bench_sizes="${IPT_BENCH_SIZES:-256,2048}"
  note "== ipt bench: CPU, CUDA and Vulkan, sizes $bench_sizes"
  bench_ops=(); [ -n "${IPT_BENCH_OPS:-}" ] && bench_ops=(--ops "$IPT_BENCH_OPS")
  timeout $(( ${IPT_BENCH_UNTIL:-420} - $(elapsed) )) "$ipt" bench --plugin "$vk" --sizes "$bench_sizes" "${bench_ops[@]}" --repeats 7 --budget 1 --check-auto 1.1 \
    --chart "$out/ipt-bench.png" --json > "$out/ipt-bench.json" 2> "$out/ipt-bench.err"
  note "ipt bench exit $? after $(elapsed) s"
  if [ "$(elapsed)" -lt 420 ] && [ -z "${IPT_SKIP_FACET:-}" ]; then
    note "== facet plugin"
    cmake --install "$build" --prefix /tmp/ipt-prefix > /dev/null 2>&1
    for facet_stage in build test bench; do
      OPENIPT_PREFIX=/tmp/ipt-prefix OUT="$out" timeout $(( 580 - $(elapsed) )) bash "$root/plugins/facet/bench/run_gpu.sh" \
        $facet_stage >> "$out/facet.txt" 2>&1
      note "facet $facet_stage exit $? after $(elapsed) s"
    done
    tail -25 "$out/facet.txt"
  fi
fi
if [ "$stage" = timing ] && [ -f "$vk" ]; then
  # Per-dispatch GPU times of the Vulkan plugin (IPT_VULKAN_TIMING) beside the
  # CUDA call times of the same run, every operator (or $IPT_TIMING_OPS) at 2048.
  note "== Vulkan GPU timestamps and CUDA, ipt bench at 2048"
  timing_ops=(); [ -n "${IPT_TIMING_OPS:-}" ] && timing_ops=(--ops "$IPT_TIMING_OPS")
  IPT_VULKAN_TIMING=1 timeout $(( ${IPT_TIMING_UNTIL:-570} - $(elapsed) )) "$ipt" bench --no-discovery --plugin "$build/lib/libipt_cuda.so" \
    --plugin "$vk" --sizes 2048 "${timing_ops[@]}" --repeats 5 --budget 1 --chart '' --json \
    > "$out/vulkan-timing-bench.json" 2> "$out/vulkan-timing.txt"
  note "vulkan timing exit $? after $(elapsed) s"
fi
if [ "$stage" = alone ] || [ "${IPT_ALONE:-}" = 1 ]; then
  # Each GPU plugin with only the CPU beside it: no second context on the GPU.
  # With CUDA and Vulkan contexts both active the GPU switches between them,
  # and small Vulkan calls took ~0.05 ms instead of ~0.02 in some runs.
  cpu_plugin="$build/lib/libipt_cpu.so"
  for gpu in cuda vulkan; do
    lib="$build/lib/libipt_cuda.so"; [ "$gpu" = vulkan ] && lib="$vk"
    [ -f "$lib" ] || continue
    note "== ipt bench: CPU and $gpu alone, 256 and 2048"
    ops_arg=(); [ -n "${IPT_ALONE_OPS:-}" ] && ops_arg=(--ops "$IPT_ALONE_OPS")
    timeout 200 "$ipt" bench --no-discovery --plugin "$cpu_plugin" --plugin "$lib" --sizes "${IPT_ALONE_SIZES:-256,2048}" \
      "${ops_arg[@]}" --repeats 7 --budget 1 --chart '' --json > "$out/ipt-bench-$gpu-alone.json" 2> "$out/ipt-bench-$gpu-alone.err"
    note "$gpu alone exit $? after $(elapsed) s"
  done
fi
if [ "$stage" = all ] && [ -x "$build/bin/ipt_cuda_bench" ] && [ "$(elapsed)" -lt 500 ]; then
  note "== CUDA harness with NPP (the time left)"
  timeout $(( 575 - $(elapsed) )) "$build/bin/ipt_cuda_bench" --json "$out/cuda-bench.json" > "$out/cuda-bench.txt" 2>&1
  note "harness exit $? after $(elapsed) s"
fi
echo "=== summary"
cat "$summary"
python3 "$root/bench/results/regenerate.py" --results "$final/bench-results" "$out"  # refreshed tables: copy $OUT/bench-results/* over bench/results/
