#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On the GPU machine: OpenIPT from Octave against Octave's image package at
# 2048² (matlab/bench/octave_peers.m), once with the CUDA device and once with
# the CPU plugin, from the Octave that bench/gpu/pack-octave.sh packed
# (.octave.tar.xz, carried) and a libipt with its plugins in LIB_DIR (the
# build's lib folder: libipt, the CPU and CUDA plugins, and FFTW where the
# machine lacks it). Writes matlab-octave-peers-cuda.md and
# matlab-octave-peers-cpu.md, and each run's log, into $OUT.
#   bench/gpu/octave_peers.sh LIB_DIR
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
lib_dir="$(cd "${1:?usage: bench/gpu/octave_peers.sh LIB_DIR}" && pwd)"
out="${OUT:-$root/bench-out}"
mkdir -p "$out"
work="$(mktemp -d)"
tar xJf "$root/.octave.tar.xz" -C "$work"
read -r version multiarch < "$work/octave/VERSION"
r="$work/octave/root"
export OCTAVE_HOME="$r/usr"
export LD_LIBRARY_PATH="$lib_dir:$r/lib:$r/usr/lib/$multiarch/octave/$version:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
export IPT_PLUGIN_PATH="$lib_dir" IPT_TUNING_CACHE=
# The image package by its folders (pkg's index names the development
# machine's paths), then the shadow folder in front of it.
image="$(find "$r/usr/share/octave/packages" -maxdepth 1 -name 'image-*' | head -1)"
image_oct="$(find "$r/usr/lib/$multiarch/octave/packages" -name '*.oct' -path '*image-*' -printf '%h\n' | head -1)"
paths="addpath('$image'); addpath('$image_oct'); addpath('$work/octave/ipt'); addpath('$root/matlab/bench');"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for device in cuda cpu; do
  start=$(date +%s)
  timeout 280 "$r/usr/bin/octave-cli" --norc --no-site-file \
    --eval "$paths octave_peers('$out/matlab-octave-peers-$device.md', '$device', 2048)" > "$out/octave-$device.log" 2>&1
  echo "octave_peers $device: exit $? after $(( $(date +%s) - start )) s"
done
rm -rf "$work"
