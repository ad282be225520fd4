#!/usr/bin/env bash
# Issue 16, round 22 (2026-11-26): rows_even, every group an equal share of the flat matrix in one
# wave (1056 groups of 256 on the H100), a cut row's pieces meeting at its ticket. Round 21 put
# rows_split_fused's cost in its groups' fences (16384 groups: +4-8 µs), and 1024x65536 at
# 92.6-92.8 µs by rows_group or 8 parts a row, against 88.7-88.8 for 8192x8192 by rows_group.
# Prediction: rows_even at 89-90 µs on every 256 MiB shape with rows of 8192 or more (1024x65536,
# 256x262144, 2048x32768, 4096x16384, 8192x8192), 32x1048576 at 48-48.5 (rows_split_fused 49.7),
# 16384x16384 at 346-348; argmax/argmin within 2% of rows_group where that is at the peak. Group
# counts 528 and 2112 beside the default, to see the wave's effect. Then the GPU suites.
#   OUT=/path bash bench/gpu_issue16_round22.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for shape in 1024x65536 32x1048576 256x262144 2048x32768 4096x16384 8192x8192 16384x16384 4096x4096 16384x2048; do
    S="--axis rows --shape $shape --type float --op sum"
    sweep_run "r$round $shape default" $S
    sweep_run "r$round $shape rows_even" $S --variant rows_even
    if [ $round = 1 ]; then
      sweep_run "r$round $shape rows_even 528" $S --variant rows_even --chunks 528
      sweep_run "r$round $shape rows_even 2112" $S --variant rows_even --chunks 2112
    fi
  done
done
for to in "uint min" "float argmax" "int argmin"; do
  for shape in 1024x65536 32x1048576 8192x8192 4096x4096; do
    S="--axis rows --shape $shape --type ${to% *} --op ${to#* }"
    sweep_run "$to $shape default" $S
    sweep_run "$to $shape rows_even" $S --variant rows_even
  done
done
(cd build-gpu && timeout 300 ctest -R "^(axis_0|axis_1|arg)$" >"$R/ctest.txt" 2>&1; echo "ctest exit $?" >>"$R/ctest.txt")
gpu_end
