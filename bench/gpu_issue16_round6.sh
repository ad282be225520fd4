#!/usr/bin/env bash
# Issue 16, sixth round on the lent GPU: FOLD_UINT 0 and 1 (axis_fold.clh's 64- or 32-bit loop counter) after
# round 5 showed int argmin over rows at 66% of the read peak whatever ITEMS.
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round6.sh   (everything in $OUT/all.tgz)
# FOLD_UINT existed in kernels_cl/axis_fold.clh at commit 34311f1 only (the 32-bit counter lost): run this
# script on that commit to repeat it.
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for fu in 0 1; do
  for tos in "int argmin 8192x8192:rows" "int argmin 65536x1024:rows" "int argmin 4096x4096:rows" "int argmin 8192x8192:cols" \
    "int argmin 1048576x32:rows" "float argmax 8192x8192:rows" "float argmax 65536x1024:rows" "float argmax 4096x4096:rows" \
    "float argmax 8192x8192:cols" "float sum 8192x8192:rows" "float sum 8192x8192:cols" "float sum 1048576x32:rows" \
    "float sum 1048576x32:cols" "float sum 32x1048576:rows" "uint min 8192x8192:rows" "uint min 4096x4096:cols"; do
    set -- $tos
    sweep_run "$1 $2 ${3%:*} ${3#*:} FOLD_UINT $fu" --axis ${3#*:} --shape ${3%:*} --type $1 --op $2 -D FOLD_UINT=$fu
  done
done
gpu_end
