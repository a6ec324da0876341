#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run on the development machine (Debian, Octave and its image package
# installed by tools/install-deps.sh, a build with the MEX gateway) before
# an Octave run on the GPU machine, which has no Octave and takes no
# packages: packs into <repo>/.octave.tar.xz (git-ignored, about 42 MB; carry
# it) what bench/gpu/octave_peers.sh needs there:
#   root/usr/...   octave-cli, Octave's own files and the image package,
#                  without what a benchmark never loads (the Qt and FLTK
#                  front-ends, gnuplot, GraphicsMagick's image reading, the
#                  documentation, translations and test blocks)
#   root/lib       the shared libraries these need that are not the C and
#                  C++ runtimes (ldd of every binary and library in root/usr)
#   ipt            the build's MEX gateway folder (BUILD_DIR/matlab/ipt)
# A run carries at most 64 MiB: this, libipt and the CUDA plugin fit.
#   bench/gpu/pack-octave.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
[ -f "$build/matlab/ipt/openipt_mex.mex" ] || { echo "pack-octave: no MEX gateway in $build/matlab/ipt" >&2; exit 1; }
command -v octave-cli > /dev/null || { echo "pack-octave: octave-cli not found" >&2; exit 1; }
version="$(octave-cli --norc --no-site-file --eval 'disp(OCTAVE_VERSION)' 2>/dev/null)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
stage="$tmp/octave"
mkdir -p "$stage/root/lib"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)"
(cd "$stage/root" && cp -a --parents "$(command -v octave-cli)" "/usr/lib/$multiarch/octave" /usr/share/octave .)
(cd "$stage/root" && find . \( -name 'liboctgui*' -o -name '__init_qt__*' -o -name '__init_fltk__*' \
    -o -name '__fltk_uigetfile__*' -o -name '__init_gnuplot__*' -o -name '__magick_read__*' \) -exec rm -rf {} + &&
  rm -rf "usr/share/octave/$version/doc" "usr/share/octave/$version/locale" "usr/share/octave/$version/etc/tests" \
    "usr/share/octave/$version/etc/doc-cache" "usr/share/octave/$version/etc/built-in-docstrings")
find "$stage/root/usr" -type f \( -name '*.so*' -o -name '*.oct' -o -path '*/bin/*' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
    case "$lib" in
      */libc.so*|*/libm.so*|*/libstdc++*|*/libgcc_s*|*/ld-linux*|*/libpthread*|*/libdl.so*|*/librt.so*|*/octave/*) ;;
      *) cp -L "$lib" "$stage/root/lib/" ;;
    esac
  done
cp -a "$build/matlab/ipt" "$stage/ipt"
echo "$version $multiarch" > "$stage/VERSION"
tar cf - -C "$tmp" octave | xz -9 -T0 > "$root/.octave.tar.xz"
ls -la "$root/.octave.tar.xz"
