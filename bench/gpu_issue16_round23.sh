#!/usr/bin/env bash
# Issue 16, round 23 (2026-11-26): the ticket's fence. Rounds 21-22 put a fused launch's cost in
# its groups' fences (rows_split_fused with 16384 groups +4-8 µs; at 8 parts a row 92.6 µs for
# 1024x65536, where rows_group reads 8192x8192's same-sized groups at 88.8). membar.gl is
# fence.sc.gpu; the ticket needs release/acquire only: fence.acq_rel.gpu (NV_FENCE_ACQ_REL 1,
# axis_ticket.clh). Prediction: the acq_rel fence cheaper, rows_split_fused at 8-16 parts of
# 1024x65536 near 89-90 µs, cols_stream_fused over 1048576x32 0.3-0.5 µs faster, cols_fused
# unchanged (few groups). Each launch checked against the host.
#   OUT=/path bash bench/gpu_issue16_round23.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for f in 0 1; do
    F="-D NV_FENCE_ACQ_REL=$f"
    R1="--axis rows --shape 1024x65536 --type float --op sum"
    for c in 8 16 32; do sweep_run "r$round fence $f 1024x65536 rows_split_fused $c" $R1 --variant rows_split_fused --chunks $c $F; done
    sweep_run "r$round fence $f 8192x8192 rows_split_fused 2" --axis rows --shape 8192x8192 --type float --op sum --variant rows_split_fused --chunks 2 $F
    sweep_run "r$round fence $f 32x1048576 rows_split_fused 32" --axis rows --shape 32x1048576 --type float --op sum --variant rows_split_fused --chunks 32 $F
    sweep_run "r$round fence $f 256x262144 rows_split_fused 4" --axis rows --shape 256x262144 --type float --op sum --variant rows_split_fused --chunks 4 $F
    sweep_run "r$round fence $f 256x262144 rows_split_fused 32" --axis rows --shape 256x262144 --type float --op sum --variant rows_split_fused --chunks 32 $F
    sweep_run "r$round fence $f 1048576x32 cols_stream_fused" --axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused $F
    sweep_run "r$round fence $f 1048576x32 cols_stream_fused uint min" --axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused $F
    sweep_run "r$round fence $f 4096x4096 cols_fused" --axis cols --shape 4096x4096 --type float --op sum --variant cols_fused $F
    sweep_run "r$round fence $f 65536x1024 cols_fused" --axis cols --shape 65536x1024 --type float --op sum --variant cols_fused $F
    sweep_run "r$round fence $f 1024x65536 argmax rows_split_fused 8" --axis rows --shape 1024x65536 --type float --op argmax --variant rows_split_fused --chunks 8 $F
  done
  sweep_run "r$round 1024x65536 rows_group" --axis rows --shape 1024x65536 --type float --op sum --variant rows_group
  sweep_run "r$round 1024x65536 rows_split 16" --axis rows --shape 1024x65536 --type float --op sum --variant rows_split --chunks 16
done
gpu_end
