#!/usr/bin/env bash
# Issue 16, round 21 (2026-11-26): rows_split_fused (rows_split in one launch, a ticket per row).
# Round 20 found 1024x65536 rows at 93.0-93.1 µs by rows_group (one group per row, 1024 groups:
# one wave, 7 or 8 rows per compute unit) against 91.8-91.9 by rows_split at 16 chunks, whose
# second launch is included; rows_split at 8 chunks gives each group the 8192 elements of a
# rows_group group at 8192x8192 (89.3 µs, the peak). Prediction: rows_split_fused at 8-16 chunks
# takes 1024x65536 to 89.5-90.5 µs (99%+), 32x1048576 from rows_split's 51.4 to about 48-49 at
# 128-256 chunks, and no loss against rows_group where it is already at the peak (8192x8192,
# 16384x16384) at 2 chunks. Then the GPU suites on this code.
#   OUT=/path bash bench/gpu_issue16_round21.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for shape in 1024x65536 32x1048576 256x262144 2048x32768 4096x16384 8192x8192 16384x16384 4096x4096; do
    S="--axis rows --shape $shape --type float --op sum"
    sweep_run "r$round $shape default" $S
    sweep_run "r$round $shape rows_group" $S --variant rows_group
    m=${shape%x*}
    for c in 2 4 8 16 32 64 128 256 512; do
      [ $((m * c)) -le 65536 ] && [ $((m * c)) -ge 512 ] && sweep_run "r$round $shape rows_split_fused $c" $S --variant rows_split_fused --chunks $c
    done
  done
done
for to in "uint min" "float argmax" "int argmin"; do
  for shape in 1024x65536 32x1048576; do
    S="--axis rows --shape $shape --type ${to% *} --op ${to#* }"
    sweep_run "$to $shape default" $S
    for c in 8 16 64 256; do sweep_run "$to $shape rows_split_fused $c" $S --variant rows_split_fused --chunks $c; done
  done
done
(cd build-gpu && timeout 300 ctest -R "^(axis_0|axis_1|arg|api)$" >"$R/ctest.txt" 2>&1; echo "ctest exit $?" >>"$R/ctest.txt")
gpu_end
