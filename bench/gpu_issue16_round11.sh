#!/usr/bin/env bash
# Issue 16, eleventh round (2026-11-26, after the evidence call): what holds 1048576x32 columns at
# 87% of the read peak under cols_stream_fused (its group count and loads in flight, so the finish's
# partial rows against the first pass's bytes in flight), and 4096x4096 columns at 89.9% under
# cols_fused (its chunk count). One line per run in sweep.txt (median of 10 back-to-back samples,
# every run verified against the host).
#   OUT=/path bash bench/gpu_issue16_round11.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for g in 132 264 396 528 792 1056; do
  sweep_run "float sum 1048576x32 cols_stream_fused groups $g" --axis cols --shape 1048576x32 --type float --variant cols_stream_fused --chunks $g
done
for it in 2 8; do
  sweep_run "float sum 1048576x32 cols_stream_fused ITEMS $it" --axis cols --shape 1048576x32 --type float --variant cols_stream_fused -D ITEMS=$it
done
sweep_run "float sum 1048576x32 cols_stream_fused wg 128 groups 1056" --axis cols --shape 1048576x32 --type float --variant cols_stream_fused --wg 128 --chunks 1056
sweep_run "float sum 1048576x32 whole array (same bytes)" --n 33554432 --type float
for c in 4 8 16 32; do
  sweep_run "float sum 4096x4096 cols_fused chunks $c" --axis cols --shape 4096x4096 --type float --variant cols_fused --chunks $c
done
sweep_run "float sum 4096x4096 cols_tile chunks 8" --axis cols --shape 4096x4096 --type float --variant cols_tile --chunks 8
gpu_end
