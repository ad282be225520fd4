#!/usr/bin/env bash
# Issue 16, fifth round on the lent GPU: ITEMS 1, 2, 4 for argmin/argmax after the evidence call
# showed int argmin over rows at 60-70% of the read peak with ITEMS 1 (float argmax at 93%).
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round5.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for to in "int argmin" "uint argmin" "float argmax" "float argmin"; do
  set -- $to
  for sa in 8192x8192:rows 65536x1024:rows 4096x4096:rows 8192x8192:cols 1048576x32:rows; do
    for items in 1 2 4; do
      sweep_run "$1 $2 ${sa%:*} ${sa#*:} ITEMS $items" --axis ${sa#*:} --shape ${sa%:*} --type $1 --op $2 -D ITEMS=$items
    done
  done
done
sweep_run "float sum 1048576x32 rows rows_sliced w4 ITEMS 8" --axis rows --shape 1048576x32 --type float --row-width 4 -D ITEMS=8
sweep_run "float sum 1048576x32 rows rows_sliced w2 ITEMS 8" --axis rows --shape 1048576x32 --type float --variant rows_sliced --row-width 2 -D ITEMS=8
gpu_end
