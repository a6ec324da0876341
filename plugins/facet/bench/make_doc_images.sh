#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The pictures of docs/facet.md: the synthetic images (facet_synthetic) and
# facet.robust's output on them, written as PNG by the `ipt` program.
#   make_doc_images.sh IPT_PROGRAM FACET_BUILD_DIR [OUTDIR]
# e.g. make_doc_images.sh /opt/openipt/bin/ipt build-facet docs/facet
set -euo pipefail
ipt="$1"
build="$2"
out="${3:-docs/facet}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
"$build/bin/facet_synthetic" "$tmp" 256
export IPT_PLUGIN_PATH="$build/plugins/libipt_facet.so"
# Inputs go to PNG through ipt.imlincomb with K = 1 (a copy); outputs are in [0, 1].
for name in clean s1 s2 textured; do
  "$ipt" run ipt.imlincomb --in "A1=$tmp/$name.npy" --param "K=[1]" --out "Z=$out/$name.png" >/dev/null
  "$ipt" run facet.robust --in "I=$tmp/$name.npy" --out "J=$out/${name}_facet.png" >/dev/null
done
"$ipt" run ipt.medfilt2 --in "A=$tmp/s2.npy" --param "size=[5 5]" --param padopt=symmetric --out "B=$out/s2_median.png" >/dev/null
ls -l "$out"
