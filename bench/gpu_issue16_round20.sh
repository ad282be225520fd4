#!/usr/bin/env bash
# Issue 16, twentieth round (2026-11-26), committed code, no switches:
#  a) 1048576x32 columns by cols_stream_fused with wider groups: the same work-items in flight in
#     fewer groups (wg 512 at 264 groups, wg 1024 at 132 and 264), so the last group's finish reads
#     2-4x fewer partial rows. Prediction: wg 512 x 264 about 50.3 µs (the finish's 2.3 µs of loads
#     halved), unless the wider group's fold (16 or 32 warps' rows) costs it back.
#  b) 1024x65536 rows (96% of the peak by rows_group, one group per row: 1024 groups on 132
#     compute units, 7 or 8 rows each in one wave): rows_group at wg 128/512/1024, rows_split at
#     2-33 chunks a row. Prediction: rows_split at 8+ chunks within 1% of the peak (the second
#     pass over 1024 x chunks partials is short), rows_group's width changes nothing.
#  c) torch back to back (CUDA events around 20 calls / 20) beside one call, float sum/amax and
#     int32 amin, the seven shapes: the kernel against kernel comparison.
#   OUT=/path bash bench/gpu_issue16_round20.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  S="--axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused"
  sweep_run "r$round base" $S
  sweep_run "r$round wg 512 264 groups" $S --wg 512 --chunks 264
  sweep_run "r$round wg 512 528 groups" $S --wg 512 --chunks 528
  sweep_run "r$round wg 1024 132 groups" $S --wg 1024 --chunks 132
  sweep_run "r$round wg 1024 264 groups" $S --wg 1024 --chunks 264
  sweep_run "r$round wg 512 264 groups ITEMS 4" $S --wg 512 --chunks 264 -D ITEMS=4
  sweep_run "r$round uint min base" --axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused
  sweep_run "r$round uint min wg 512 264" --axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused --wg 512 --chunks 264
  R2="--axis rows --shape 1024x65536 --type float --op sum"
  sweep_run "r$round rows default" $R2
  for wg in 128 512 1024; do sweep_run "r$round rows_group wg $wg" $R2 --variant rows_group --wg $wg; done
  for c in 2 4 8 16 33; do sweep_run "r$round rows_split $c chunks" $R2 --variant rows_split --chunks $c; done
  sweep_run "r$round 16384^2 rows default" --axis rows --shape 16384x16384 --type float --op sum
  sweep_run "r$round 16384^2 rows_split 2" --axis rows --shape 16384x16384 --type float --op sum --variant rows_split --chunks 2
done
timeout 200 python3 bench/tools/axis_peers_ops.py sum amax >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
