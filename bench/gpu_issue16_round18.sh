#!/usr/bin/env bash
# Issue 16, eighteenth round (2026-11-26): is cols_stream_fused's finish (2.3 µs for its loads in
# round 16, and slower with MORE loads in flight in rounds 12 and 13) paying for code the last
# group runs once, cold in the instruction cache? TEMPORARY switches, not committed:
# FINISH_COMPACT 1 (the finish's loop one load per trip, not unrolled: the least code) and
# NOINLINE_FOLD 1 (the warps' fold one function for both calls, so the finish runs code every
# group ran). Prediction if so: FINISH_COMPACT faster than the default (ITEMS 2 trips), and
# ITEMS 4 with it no slower than ITEMS 2. Two rounds, interleaved, float sum and uint min.
#   OUT=/path bash bench/gpu_issue16_round18.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for to in "float sum" "uint min"; do
    set -- $to
    S="--axis cols --shape 1048576x32 --type $1 --op $2 --variant cols_stream_fused"
    sweep_run "r$round $1 $2 base" $S
    sweep_run "r$round $1 $2 FINISH_COMPACT" $S -D FINISH_COMPACT=1
    sweep_run "r$round $1 $2 NOINLINE_FOLD" $S -D NOINLINE_FOLD=1
    sweep_run "r$round $1 $2 both" $S -D FINISH_COMPACT=1 -D NOINLINE_FOLD=1
    sweep_run "r$round $1 $2 ITEMS 4 FINISH_COMPACT" $S -D ITEMS=4 -D FINISH_COMPACT=1
  done
done
for g in 396 660; do
  sweep_run "float sum groups $g" --axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused --chunks $g
  sweep_run "float sum groups $g FINISH_COMPACT" --axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused --chunks $g -D FINISH_COMPACT=1
done
gpu_end
