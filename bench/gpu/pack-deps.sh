#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run on the development machine (Debian, with tools/install-deps.sh done) before
# a GPU run: copies the header-only dependencies the build needs into
# <repo>/.deps (git-ignored), because the GPU machine has no Debian packages
# and no network. Carry it with the run (carry: [".deps"]); bench/gpu/run.sh
# points CMake at it.
#   .deps/prefix/include/boost      the part of Boost that Boost.DLL needs (bcp)
#   .deps/prefix/include/CLI        CLI11, with its CMake config
#   .deps/prefix/include/nlohmann   nlohmann-json, with its CMake config
#   .deps/googletest                GoogleTest sources (run.sh builds them when tests are on)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
deps="$root/.deps"
prefix="$deps/prefix"
rm -rf "$deps"
mkdir -p "$prefix/include" "$prefix/share/cmake"

if ! command -v bcp >/dev/null; then
  echo "pack-deps: bcp not found (apt-get install libboost-tools-dev)" >&2
  exit 1
fi
# Boost.DLL and what it includes, found by bcp's dependency scan.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bcp --boost=/usr/include boost/dll.hpp boost/dll/shared_library.hpp boost/dll/runtime_symbol_info.hpp \
    boost/version.hpp boost/config.hpp "$tmp" >/dev/null 2>&1
cp -r "$tmp/boost" "$prefix/include/"

cp -r /usr/include/CLI "$prefix/include/"
cp -r /usr/include/nlohmann "$prefix/include/"
cp -r /usr/share/cmake/CLI11 /usr/share/cmake/nlohmann_json "$prefix/share/cmake/"

# GoogleTest sources (CMake project at the top).
cp -r /usr/src/googletest "$deps/googletest"

# --cpu-ref BUILD_DIR: also carry a CPU reference plugin built here, with the
# shared libraries it needs that the GPU machine lacks (FFTW), for when the
# tree's CPU plugin cannot be built there.
if [ "${1:-}" = "--cpu-ref" ] && [ -n "${2:-}" ]; then
  mkdir -p "$deps/cpu-ref"
  cp "$2/lib/libipt_cpu.so" "$deps/cpu-ref/"
  for l in $(ldd "$2/lib/libipt_cpu.so" | awk '/fftw|gomp/ {print $3}'); do cp -L "$l" "$deps/cpu-ref/"; done
fi

echo "pack-deps: $(du -sh "$deps" | cut -f1) in $deps"
du -sh "$prefix/include/"* "$deps/googletest" | sed 's/^/  /'
