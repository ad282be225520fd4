#!/usr/bin/env bash
# Axis reductions (issue 16) on the lent GPU beside torch.sum(dim) and CuPy sum(axis) in the same
# call: the issue's seven shapes, both axes, float sum; clreduce's default launch and each variant
# of the axis named, each verified against the host reference (`clreduce reduce --axis`, median
# of 20 back-to-back samples by device events), and the read peak of the same machine.
#   cp ../shared/gpu/axis_peers.py .gpu/   (here, once: the peers' script travels in .gpu)
#   OUT=/path bash bench/gpu_axis_vs_torch.sh
# $OUT gets log.txt, axis.csv (one row per run), peers.txt (torch and CuPy: CUDA events around
# one call, median of 50) and peak.txt.
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
cli=build-gpu/clreduce
echo "built at ${SECONDS}s" >>"$OUT/log.txt"
"$cli" bench --n 2^28 --type float --variants single_pass --iterations 10 --quiet >"$OUT/peak.txt" 2>&1
first=1
for shape in 8192x8192 16384x16384 1048576x32 32x1048576 65536x1024 1024x65536 4096x4096; do
  for axis in rows cols; do
    if [ $axis = rows ]; then variants=("" rows_group rows_sliced rows_split); else variants=("" cols_item cols_tile); fi
    for v in "${variants[@]}"; do
      args=(reduce --axis $axis --shape $shape --type float --iterations 20 --format csv)
      [ -n "$v" ] && args+=(--variant "$v")
      out=$(timeout 120 "$cli" "${args[@]}" 2>>"$OUT/log.txt")
      echo "exit $? at ${SECONDS}s: ${args[*]}" >>"$OUT/log.txt"
      if [ $first = 1 ]; then echo "chosen_by,$(head -1 <<<"$out")" >"$OUT/axis.csv"; first=0; fi
      echo "${v:-default},$(sed -n 2p <<<"$out")" >>"$OUT/axis.csv"
    done
  done
done
python3 .gpu/axis_peers.py >"$OUT/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$OUT/log.txt"
