#!/usr/bin/env bash
# Issue 16, fourth round on the lent GPU: cols_fused (cols_tile's chunks meeting in one launch)
# against cols_tile at every column shape of the issue, over its chunk counts on the thin and the
# square matrix; rows_split's power-of-two chunks and argmin/argmax's ITEMS 1 as the planner now
# picks them (default launches). First the axis and arg tests on the GPU. One line per run in
# sweep.txt; everything in $OUT/all.tgz.
#   OUT=/path bash bench/gpu_issue16_round4.sh
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01]|arg)$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for shape in 4096x4096 1048576x32 8192x8192 16384x16384 65536x1024 1024x65536; do
  for t in float uint; do
    for v in cols_tile cols_fused; do sweep_run "$t sum $shape cols $v" --axis cols --shape $shape --type $t --variant $v; done
  done
  sweep_run "float argmax $shape cols cols_fused" --axis cols --shape $shape --type float --op argmax --variant cols_fused
  sweep_run "float argmax $shape cols cols_tile" --axis cols --shape $shape --type float --op argmax --variant cols_tile
done
for c in 256 512 1024 2048; do sweep_run "float sum 1048576x32 cols cols_fused chunks $c" --axis cols --shape 1048576x32 --type float --variant cols_fused --chunks $c; done
for c in 4 8 16 32 64; do sweep_run "float sum 4096x4096 cols cols_fused chunks $c" --axis cols --shape 4096x4096 --type float --variant cols_fused --chunks $c; done
for c in 4 8 16; do sweep_run "float sum 8192x8192 cols cols_fused chunks $c" --axis cols --shape 8192x8192 --type float --variant cols_fused --chunks $c; done
sweep_run "float sum 32x1048576 rows default" --axis rows --shape 32x1048576 --type float
sweep_run "float sum 1048576x32 rows default" --axis rows --shape 1048576x32 --type float
for shape in 8192x8192 16384x16384 1048576x32 32x1048576 65536x1024 1024x65536 4096x4096; do
  sweep_run "float argmax $shape rows default" --axis rows --shape $shape --type float --op argmax
done
gpu_end
