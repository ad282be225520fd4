#!/usr/bin/env bash
# Issue 16, twelfth round (2026-11-26): cols_stream's per-column fold of a group's lanes as a tree
# (fold_lane_rows: log2(rows) levels behind barriers) instead of a loop down each column (32 steps
# for 32 columns), in the first pass and in cols_stream_fused's finish; at 1048576x32 and 2097152x16,
# ITEMS 2 and 4. The axis suites first. One line per run in sweep.txt.
#   OUT=/path bash bench/gpu_issue16_round12.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float max"; do
  set -- $to
  for shape in 1048576x32 2097152x16; do
    for it in 2 4; do
      sweep_run "$1 $2 $shape cols_stream_fused ITEMS $it" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream_fused -D ITEMS=$it
    done
    sweep_run "$1 $2 $shape cols_stream" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream
  done
done
sweep_run "int argmin 1048576x32 cols_stream" --axis cols --shape 1048576x32 --type int --op argmin --variant cols_stream
gpu_end
