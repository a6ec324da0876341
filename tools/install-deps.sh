#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages OpenIPT's build and tests need, then the PyPI
# packages the Python package and its tests need (pip, for the python3 on
# PATH); Octave with its image package and mkoctfile (about 50 MiB to
# download, 200 MiB installed) for the MEX gateway and tests/octave; with
# --bench also the peer libraries of the CPU benchmarks (OpenCV,
# ~150 MiB, for bench/cpu's ipt_cpu_bench; dask-image and scipy for
# bench/python/dask_scaling.py; scikit-image and OpenCV-Python for
# bench/python/peers.py). Idempotent: only packages
# that are missing are installed.
#   tools/install-deps.sh [--bench]
set -euo pipefail

bench=0
for arg in "$@"; do
  case "$arg" in
    --bench) bench=1 ;;
    *) echo "usage: tools/install-deps.sh [--bench]" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake pkg-config git
  libboost-dev                 # Boost.DLL (header-only with BOOST_DLL_USE_STD_FS)
  libgtest-dev libgmock-dev    # GoogleTest
  libcli11-dev nlohmann-json3-dev
  libpng-dev libtiff-dev       # image codecs for `ipt run` and `ipt demo`
  libjpeg62-turbo-dev          # JPEG for `ipt run` (libjpeg-turbo)
  libfftw3-dev                 # FFT variant of conv2 on the CPU
  libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers
  libvkfft-dev glslang-dev     # conv2's fft variant on Vulkan (glslang linked statically)
  gnuplot-nox                  # charts of `ipt bench`
  clang libclang-rt-dev        # libFuzzer and the sanitizer runtimes for clang (tests/fuzz)
  python3-dev python3-pip      # the Python package (python/) and its tests
  octave liboctave-dev octave-image  # the MEX gateway (mkoctfile) and tests/octave (image-package test blocks)
)
if [ "$bench" = 1 ]; then
  packages+=(libopencv-dev)     # the CPU peer of bench/cpu (ipt_cpu_bench)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# PyPI: import name and package name of each.
py_modules=(numpy pytest nanobind scikit_build_core dask distributed)
py_packages=(numpy pytest nanobind scikit-build-core "dask[array]" distributed)
if [ "$bench" = 1 ]; then
  # the peer of bench/python/dask_scaling.py: dask-image over scipy.ndimage;
  # those of bench/python/peers.py: scikit-image and OpenCV-Python
  py_modules+=(dask_image scipy skimage cv2)
  py_packages+=(dask-image scipy scikit-image opencv-python-headless)
fi
py_missing=()
for i in "${!py_modules[@]}"; do
  python3 -c "import ${py_modules[$i]}" 2>/dev/null || py_missing+=("${py_packages[$i]}")
done
if [ ${#py_missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#py_modules[@]} Python packages present"
  exit 0
fi
echo "install-deps: pip installing ${py_missing[*]}"
pip_flags=(-q --disable-pip-version-check)
# A Python that Debian manages refuses pip (PEP 668) unless told; these are
# packages that Debian does not ship (nanobind, scikit-build-core) or newer.
if python3 -c 'import os, sys, sysconfig
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["stdlib"], "EXTERNALLY-MANAGED")))'; then
  pip_flags+=(--break-system-packages)
fi
python3 -m pip install "${pip_flags[@]}" "${py_missing[@]}"
