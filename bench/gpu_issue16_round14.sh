#!/usr/bin/env bash
# Issue 16, fourteenth round (2026-11-26): where 1048576x32 columns lose 4-5 µs against the whole
# array, and whether a wider row segment per group reads 4096x4096 columns faster. Run once on a
# working tree with two TEMPORARY switches, not committed (the diagnostics give wrong results on
# purpose): axis_cols_stream.cl's DIAG (1: no ticket and no finish; 2: no group fold nor partial
# row either, only the stream) and BLOCKED (1: each group streams its own contiguous block of rows
# instead of the grid stride), and plan.cpp's CLREDUCE_TEMP_TILE=XxY (cols_fused/cols_tile's tile).
# Also ptxas -v on the programs the driver built (registers and spills).
#   OUT=/path bash bench/gpu_issue16_round14.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
for v in "cols_stream_fused 1048576x32" "cols_fused 4096x4096" "rows_warp 1048576x32"; do
  set -- $v
  build-gpu/clreduce explain axis $1 --shape $2 --type float --binary "$R/$1.ptx" >/dev/null 2>>"$R/log.txt"
  [ -n "$PTXAS" ] && "$PTXAS" -arch=sm_90 -v "$R/$1.ptx" -o /dev/null >>"$R/ptxas.txt" 2>&1
done
S="--axis cols --shape 1048576x32 --type float --op sum"
sweep_run "float sum 32Mi whole array (default)" --n 32Mi --type float --op sum
sweep_run "csf base" $S --variant cols_stream_fused
sweep_run "csf DIAG 1 (no ticket, no finish)" $S --variant cols_stream_fused -D DIAG=1
sweep_run "csf DIAG 2 (stream only)" $S --variant cols_stream_fused -D DIAG=2
for g in 264 528 1056 2112; do
  sweep_run "csf DIAG 2 groups $g" $S --variant cols_stream_fused -D DIAG=2 --chunks $g
done
for g in 264 528 1056 2112; do
  sweep_run "csf BLOCKED groups $g" $S --variant cols_stream_fused -D BLOCKED=1 --chunks $g
  sweep_run "csf BLOCKED DIAG 2 groups $g" $S --variant cols_stream_fused -D BLOCKED=1 -D DIAG=2 --chunks $g
done
sweep_run "csf wg 128 groups 1056" $S --variant cols_stream_fused --wg 128 --chunks 1056
sweep_run "csf wg 512 groups 264" $S --variant cols_stream_fused --wg 512 --chunks 264
sweep_run "csf wg 512 groups 264 DIAG 2" $S --variant cols_stream_fused --wg 512 --chunks 264 -D DIAG=2
sweep_run "csf ITEMS 1" $S --variant cols_stream_fused -D ITEMS=1
sweep_run "csf ITEMS 4 DIAG 2" $S --variant cols_stream_fused -D ITEMS=4 -D DIAG=2
sweep_run "uint min csf base" --axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused
sweep_run "uint min csf BLOCKED 528" --axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused -D BLOCKED=1
T="--axis cols --shape 4096x4096 --type float --op sum"
sweep_run "4096 float sum 16Mi whole array (default)" --n 16Mi --type float --op sum
sweep_run "4096 rows default" --axis rows --shape 4096x4096 --type float --op sum
sweep_run "4096 cols default" $T
for tile in 32x8 64x4 128x2 64x8 128x4 256x1 256x2; do
  for c in 8 16; do
    CLREDUCE_TEMP_TILE=$tile sweep_run "4096 cols_fused $tile chunks $c" $T --variant cols_fused --chunks $c
  done
done
CLREDUCE_TEMP_TILE=128x2 sweep_run "4096 cols_fused 128x2 chunks 32" $T --variant cols_fused --chunks 32
CLREDUCE_TEMP_TILE=128x2 sweep_run "4096 cols_fused 128x2 chunks 4" $T --variant cols_fused --chunks 4
for it in 2 8; do sweep_run "4096 cols_fused 32x8 chunks 8 ITEMS $it" $T --variant cols_fused --chunks 8 -D ITEMS=$it; done
sweep_run "4096 cols default (again)" $T
sweep_run "csf base (again)" $S --variant cols_stream_fused
gpu_end
