#!/usr/bin/env bash
# Issue 16, eighth round on the lent GPU: rows_tile (one work-item per row, the group's rows staged
# through local memory) against the default rows_sliced on short rows, for sum, min, argmax and
# argmin, and rows_tile's work-group size; first the axis suites on the GPU (rows_tile included).
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round8.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float argmax" "int argmin"; do
  set -- $to
  for shape in 1048576x32 2097152x16 524288x64 262144x128 65536x1024; do
    sweep_run "$1 $2 $shape rows default" --axis rows --shape $shape --type $1 --op $2
    sweep_run "$1 $2 $shape rows rows_tile" --axis rows --shape $shape --type $1 --op $2 --variant rows_tile
  done
done
for wg in 64 128 512; do
  sweep_run "float sum 1048576x32 rows rows_tile wg $wg" --axis rows --shape 1048576x32 --type float --variant rows_tile --wg $wg
done
gpu_end
