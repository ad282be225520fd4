#!/usr/bin/env bash
# Issue 16, nineteenth round (2026-11-26): with the warps' fold (round 17) in place, the finish's
# loads in flight again (TEMPORARY FINISH_ITEMS, not committed; round 13 measured it with the
# tree), and fewer groups with more loads in flight (264 or 396 groups at ITEMS 4 or 8: a shorter
# finish, the stream's bytes in flight kept). Prediction: none of these beats 528 groups at ITEMS
# 2 by more than the noise (0.3 µs), unless round 13's loss came from the tree's code beside it.
#   OUT=/path bash bench/gpu_issue16_round19.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  S="--axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused"
  sweep_run "r$round base" $S
  for fi in 1 4 8; do sweep_run "r$round FINISH_ITEMS $fi" $S -D FINISH_ITEMS=$fi; done
  for g in 264 396; do
    for it in 4 8; do sweep_run "r$round groups $g ITEMS $it" $S --chunks $g -D ITEMS=$it; done
    sweep_run "r$round groups $g ITEMS 4 FINISH_ITEMS 2" $S --chunks $g -D ITEMS=4 -D FINISH_ITEMS=2
  done
done
gpu_end
