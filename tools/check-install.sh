#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks an installed OpenIPT as its users meet it:
#   tools/check-install.sh PREFIX
# - one version everywhere: CMakeLists.txt's project(VERSION), `ipt --version`,
#   the CMake package (OpenIPTConfigVersion.cmake), pkg-config (openipt.pc)
#   and the top entry of CHANGELOG.md;
# - a C program built with nothing but `pkg-config --cflags --libs openipt`
#   links libipt, opens a context and finds the catalogue;
# - where the MEX gateway was installed and octave-cli is present, Octave
#   runs an operator from the installed MATLAB folder (docs/matlab.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$(cd "${1:?usage: tools/check-install.sh PREFIX}" && pwd)"
fail() { echo "check-install: $*" >&2; exit 1; }

version="$(sed -n 's/^project(OpenIPT VERSION \([0-9.]*\).*/\1/p' "$here/CMakeLists.txt")"
[ -n "$version" ] || fail "no project(OpenIPT VERSION ...) in CMakeLists.txt"

cli="$("$prefix/bin/ipt" --version)"
case "$cli" in "ipt $version "*) ;; *) fail "ipt --version says '$cli', CMakeLists.txt $version" ;; esac

config="$(find "$prefix" -name OpenIPTConfigVersion.cmake | head -1)"
[ -n "$config" ] || fail "no OpenIPTConfigVersion.cmake under $prefix"
grep -q "PACKAGE_VERSION \"$version\"" "$config" || fail "$config does not say $version"

changelog="$(sed -n 's/^## \[\([0-9.]*\)\].*/\1/p' "$here/CHANGELOG.md" | head -1)"
[ "$changelog" = "$version" ] || fail "CHANGELOG.md's top entry is '$changelog', CMakeLists.txt $version"

pc_dir="$(dirname "$(find "$prefix" -name openipt.pc | head -1)")"
[ -f "$pc_dir/openipt.pc" ] || fail "no openipt.pc under $prefix"
export PKG_CONFIG_PATH="$pc_dir"
pc_version="$(pkg-config --modversion openipt)"
[ "$pc_version" = "$version" ] || fail "pkg-config says $pc_version, CMakeLists.txt $version"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/hello.c" <<'C'
#include <ipt/ipt.h>
#include <stdio.h>
int main(void) {
    ipt_context* ctx = NULL;
    if (ipt_context_create(0, &ctx) != IPT_OK) {
        fprintf(stderr, "ipt_context_create: %s\n", ipt_last_error());
        return 1;
    }
    const unsigned ops = ipt_op_count(ctx);
    printf("OpenIPT ABI %u, %u operators\n", ipt_version_abi(), ops);
    ipt_context_destroy(ctx);
    return ops > 0 ? 0 : 1;
}
C
# shellcheck disable=SC2046
cc -o "$work/hello" "$work/hello.c" $(pkg-config --cflags --libs openipt) ||
  fail "a C program does not build with pkg-config's flags"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir openipt)" "$work/hello" || fail "the pkg-config build does not run"
echo "check-install: version $version agrees everywhere; pkg-config builds and runs a C program"

mex_dir="$prefix/share/openipt/matlab/ipt"
if [ -f "$mex_dir/openipt_mex.mex" ] && command -v octave-cli > /dev/null; then
  octave-cli --norc --quiet --eval "addpath('$mex_dir'); exit(double(~isequal(openipt.call('ipt.imcomplement', uint8([0 7])), uint8([255 248]))))" \
    > /dev/null 2>&1 || fail "Octave does not run an operator from the installed $mex_dir"
  echo "check-install: Octave runs OpenIPT from $mex_dir"
fi
