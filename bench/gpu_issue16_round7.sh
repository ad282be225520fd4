#!/usr/bin/env bash
# Issue 16, seventh round on the lent GPU: FOLD_ONE_LOOP 0 and 1 (axis_fold.clh, ITEMS 1: two loops or one) after
# round 6: int argmin over rows at 66% of the read peak whatever the counter (95 µs by the loop before axis_fold.clh).
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round7.sh   (everything in $OUT/all.tgz)
# FOLD_ONE_LOOP existed in kernels_cl/axis_fold.clh at commit 1590a05 only (one loop won and is now how
# ITEMS 1 folds): run this script on that commit to repeat it.
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for fu in 0 1; do
  for tos in "int argmin 8192x8192:rows" "int argmin 65536x1024:rows" "int argmin 4096x4096:rows" "int argmin 8192x8192:cols" \
    "int argmin 1048576x32:rows" "float argmax 8192x8192:rows" "float argmax 65536x1024:rows" "float argmax 4096x4096:rows" \
    "float argmax 8192x8192:cols" "int argmin 1024x65536:rows" "int argmin 32x1048576:rows" "uint argmin 8192x8192:rows" \
    "float argmax 1024x65536:rows" "int argmin 65536x1024:cols" "float argmin 8192x8192:rows"; do
    set -- $tos
    sweep_run "$1 $2 ${3%:*} ${3#*:} FOLD_ONE_LOOP $fu" --axis ${3#*:} --shape ${3%:*} --type $1 --op $2 -D FOLD_ONE_LOOP=$fu
  done
done
gpu_end
