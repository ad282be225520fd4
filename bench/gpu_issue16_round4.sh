#!/usr/bin/env bash
# Issue 16, fourth round on the lent GPU: cols_fused (cols_tile's chunks meeting in one launch)
# against cols_tile at every column shape of the issue, over its chunk counts on the thin and the
# square matrix; rows_split's power-of-two chunks and argmin/argmax's ITEMS 1 as the planner now
# picks them (default launches). First the axis and arg tests on the GPU. One line per run in
# sweep.txt; everything in $OUT/all.tgz.
#   OUT=/path bash bench/gpu_issue16_round4.sh
set -uo pipefail
OUT=${OUT:-bench/out}
R=$OUT/r
mkdir -p "$R"
source bench/gpu_build.sh
gpu_build >"$R/log.txt" 2>&1
echo "built at ${SECONDS}s" >>"$R/log.txt"
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01]|arg)$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
C=build-gpu/clreduce
S=$R/sweep.txt
echo "label | launch | median µs (b2b) | bandwidth | check" >"$S"
run() {  # label, then clreduce reduce arguments
  local label=$1
  shift
  local t
  t=$(timeout 60 $C reduce --iterations 10 "$@" 2>&1)
  echo "$label | $(grep -m1 '^launch' <<<"$t" | cut -c12-) | $(grep -m1 '^time' <<<"$t" | sed 's/.*median \([0-9.]*\) µs.*/\1/') | $(grep -m1 '^bandwidth' <<<"$t" | cut -c12- | cut -d' ' -f1-2) | $(grep -m1 '^check' <<<"$t" | cut -c12-40)$(grep -m1 -i 'error' <<<"$t")" >>"$S"
}
for shape in 4096x4096 1048576x32 8192x8192 16384x16384 65536x1024 1024x65536; do
  for t in float uint; do
    for v in cols_tile cols_fused; do run "$t sum $shape cols $v" --axis cols --shape $shape --type $t --variant $v; done
  done
  run "float argmax $shape cols cols_fused" --axis cols --shape $shape --type float --op argmax --variant cols_fused
  run "float argmax $shape cols cols_tile" --axis cols --shape $shape --type float --op argmax --variant cols_tile
done
for c in 256 512 1024 2048; do run "float sum 1048576x32 cols cols_fused chunks $c" --axis cols --shape 1048576x32 --type float --variant cols_fused --chunks $c; done
for c in 4 8 16 32 64; do run "float sum 4096x4096 cols cols_fused chunks $c" --axis cols --shape 4096x4096 --type float --variant cols_fused --chunks $c; done
for c in 4 8 16; do run "float sum 8192x8192 cols cols_fused chunks $c" --axis cols --shape 8192x8192 --type float --variant cols_fused --chunks $c; done
run "float sum 32x1048576 rows default" --axis rows --shape 32x1048576 --type float
run "float sum 1048576x32 rows default" --axis rows --shape 1048576x32 --type float
for shape in 8192x8192 16384x16384 1048576x32 32x1048576 65536x1024 1024x65536 4096x4096; do
  run "float argmax $shape rows default" --axis rows --shape $shape --type float --op argmax
done
echo "done at ${SECONDS}s" >>"$R/log.txt"
tar czf "$OUT/all.tgz" -C "$OUT" r && rm -rf "$R"
