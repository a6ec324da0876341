#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One entry point for a fresh machine:
#   tools/run.sh demo   install what is missing, build, run `ipt demo`
#   tools/run.sh test   install what is missing, build, run every test, build
#                       plugins/facet against the installed OpenIPT and run its
#                       tests and conformance, check the installation's
#                       versions and pkg-config file, build the Python
#                       extension against the same installation and run
#                       tests/python with pytest, then build the registry and CPU
#                       backend with ASan+UBSan and run their tests again,
#                       then build the libFuzzer targets (tests/fuzz) with
#                       clang and run each for a bounded time
# Environment: JOBS (parallel build jobs, default: number of cores),
# BUILD_DIR (default: build), IPT_CMAKE_ARGS (extra configure arguments),
# IPT_PIP_ARGS (extra arguments of the Python package's pip build),
# FUZZ_SECONDS (time each fuzz target runs, default 10).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode="${1:-}"
case "$mode" in
  demo|test) ;;
  *) echo "usage: tools/run.sh demo|test" >&2; exit 2 ;;
esac

jobs="${JOBS:-$(nproc)}"
build="${BUILD_DIR:-build}"

step() { printf '\n== %s\n' "$*"; }

step "installing missing Debian packages"
tools/install-deps.sh

# The tests build CUDA code for sm_90 only, the GPU they run on (H100/H200):
# the release set of architectures (backends/cuda/CMakeLists.txt) compiles
# five times as long. IPT_CMAKE_ARGS comes after it and may say otherwise.
cuda_arch=()
if [ "$mode" = test ]; then cuda_arch=(-DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual"); fi

step "configuring $build"
# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${cuda_arch[@]}" ${IPT_CMAKE_ARGS:-}
step "building ($jobs jobs)"
cmake --build "$build" -j "$jobs"

if [ "$mode" = demo ]; then
  step "ipt demo"
  "$build/bin/ipt" demo --out demo.png
  echo "contact sheet: $here/demo.png"
  exit 0
fi

step "tests"
status=0
main_failed=0
(cd "$build" && ctest --output-on-failure -j "$jobs" --timeout 1200) || { status=1; main_failed=1; }

# The third-party path, as an outside team takes it: install OpenIPT, build
# plugins/facet as a project of its own against the installation (public
# headers and the plugin ABI only), run its tests and certify it.
step "plugins/facet against the installed OpenIPT"
prefix="$(cd "$build" && pwd)/prefix"   # find_package wants an absolute path
facet="${build}-facet"
if cmake --install "$build" --prefix "$prefix" > /dev/null &&
   cmake -S plugins/facet -B "$facet" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" "${cuda_arch[@]}" \
     -DFACET_BUILD_BENCH=OFF > /dev/null &&
   cmake --build "$facet" -j "$jobs"; then
  (cd "$facet" && ctest --output-on-failure -j "$jobs" --timeout 1200) || status=1
  IPT_TUNING_CACHE= "$prefix/bin/ipt" conformance --plugin "$facet/plugins/libipt_facet.so" --op facet.robust --quick ||
    status=1
else
  echo "plugins/facet did not build against the installed OpenIPT"
  status=1
fi
step "the installation: one version everywhere, pkg-config"
tools/check-install.sh "$prefix" || status=1

# The Python package as a distribution builds it: only the extension, against
# the installed OpenIPT (python/pyproject.toml), into a folder of its own
# (nothing goes into the system's site-packages); libipt is not built again.
step "Python package against the installed OpenIPT"
pydir="$(cd "$build" && pwd)-python"
rm -rf "$pydir/site"
test_plugins="$(cd "$build" && pwd)/tests/plugins"  # tests/python loads the ABI test plugin from there
if PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
     --target "$pydir/site" -Ccmake.define.CMAKE_PREFIX_PATH="$prefix" -Cbuild-dir="$pydir/cmake" \
     ${IPT_PIP_ARGS:-} ./python; then
  (cd "$pydir" && IPT_TUNING_CACHE= IPT_TEST_PLUGIN_DIR="$test_plugins" IPT_CLI="$prefix/bin/ipt" PYTHONPATH="$pydir/site" \
     python3 -m pytest -q -rs -p no:cacheprovider "$here/tests/python") || status=1
else
  echo "the Python package did not build against the installed OpenIPT"
  status=1
fi

step "ASan+UBSan build of the registry and the CPU backend"
asan="${build}-asan"
# -O1 and line tables only: what the sanitizers need for their reports, and
# under a third of the compile time of -O2 -g for the CPU backend's kernels.
sanitizer_flags="-O1 -g1 -DNDEBUG"
cmake -S . -B "$asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPT_SANITIZE=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
  -DIPT_WITH_CUDA=OFF -DIPT_WITH_VULKAN=OFF -DIPT_BUILD_BENCH=OFF -DIPT_BUILD_TOOLS=OFF
cmake --build "$asan" -j "$jobs"
step "tests under ASan+UBSan"
# OpenMP's runtime keeps thread-local allocations past exit; everything else must be clean.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
(cd "$asan" && ctest --output-on-failure -j "$jobs" --timeout 1800 -E 'conformance_.*full') || status=1

# libFuzzer on the file readers, the parameter text parser and the plugin
# schema validator, everything built with clang, ASan and UBSan. A crash, a
# leak, undefined behaviour, a hang or an allocation past libFuzzer's limit
# fails the run; the input that caused it is kept under $fuzz/findings/.
step "libFuzzer targets with ASan+UBSan"
fuzz="${build}-fuzz"
fuzz_seconds="${FUZZ_SECONDS:-10}"
export IPT_TUNING_CACHE=
if cmake -S . -B "$fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
     -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
     -DIPT_FUZZ=ON -DIPT_WITH_CUDA=OFF -DIPT_WITH_VULKAN=OFF -DIPT_BUILD_BENCH=OFF -DIPT_BUILD_TESTS=OFF > /dev/null &&
   cmake --build "$fuzz" -j "$jobs" --target ipt_fuzz; then
  step "fuzzing: the seed corpus and past findings once, then ${fuzz_seconds} s per target"
  (cd "$fuzz" && ctest --output-on-failure -L fuzz) || status=1
  # The committed corpus stays as it is: each target grows a copy.
  rm -rf "$fuzz/corpus" "$fuzz/findings"
  fuzz_one() {
    local t="$1"
    cp -r "tests/fuzz/corpus/$t" "$fuzz/corpus/$t"
    mkdir -p "$fuzz/findings/$t"
    if "$fuzz/bin/fuzz_$t" -max_total_time="$fuzz_seconds" -timeout=20 -print_final_stats=1 \
         -artifact_prefix="$fuzz/findings/$t/" "$fuzz/corpus/$t" > "$fuzz/findings/$t.log" 2>&1; then
      echo "fuzz_$t: $(grep -E '^stat::number_of_executed_units' "$fuzz/findings/$t.log" | awk '{print $2}') inputs, no finding"
    else
      tail -n 80 "$fuzz/findings/$t.log"
      echo "fuzz_$t: FINDING, input kept in $fuzz/findings/$t/ (replay: $fuzz/bin/fuzz_$t FILE)"
      return 1
    fi
  }
  mkdir -p "$fuzz/corpus"
  pids=()
  while read -r t; do
    [ -n "$t" ] || continue
    fuzz_one "$t" &
    pids+=("$!")
    if [ "${#pids[@]}" -ge "$jobs" ]; then
      for p in "${pids[@]}"; do wait "$p" || status=1; done
      pids=()
    fi
  done < "$fuzz/fuzz_targets.txt"
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  echo "the fuzz targets did not build"
  status=1
fi

# A failure printed early in a long log is easy to miss: the main build's
# failed tests run once more at the very end, one at a time, with their output
# (and whether they fail again). The run's status stays failed either way.
if [ "$main_failed" = 1 ]; then
  step "the tests of $build that failed, once more, with their output"
  (cd "$build" && ctest --rerun-failed --output-on-failure --timeout 1200 2>&1 | tail -n 250) || true
fi

exit $status
