#!/usr/bin/env bash
# Issue 16, fifteenth round (2026-11-26): round 14 found cols_stream_fused's ticket and finish cost
# 4.8 µs at 1048576x32 (52.43 µs; 47.64 without them; 46.86 streaming alone). This round splits
# that (DIAG 3: the ticket without the finish; DIAG 4: no device-wide fences) and tries a two-level
# ticket (CLUSTER groups per first-level counter, counters 128 bytes apart; CLUSTER_FOLD 1: the
# last group of a cluster folds the cluster's partial rows, so the last of all folds one row per
# cluster). Then the column tile of cols_fused/cols_tile (CLREDUCE_TEMP_TILE) at every shape whose
# default launch uses it. TEMPORARY switches, not committed: DIAG, CLUSTER, CLUSTER_FOLD,
# CLREDUCE_TEMP_TILE. ptxas -v on the programs (NULs stripped).
#   OUT=/path bash bench/gpu_issue16_round15.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1)
echo "ptxas: $PTXAS" >>"$R/log.txt"
for v in "cols_stream_fused 1048576x32" "cols_fused 4096x4096" "rows_warp 1048576x32" "rows_group 4096x4096"; do
  set -- $v
  build-gpu/clreduce explain axis $1 --shape $2 --type float --binary "$R/$1.bin" >/dev/null 2>>"$R/log.txt"
  tr -d '\000' <"$R/$1.bin" >"$R/$1.ptx" && rm -f "$R/$1.bin"
  [ -n "$PTXAS" ] && { echo "== $1" >>"$R/ptxas.txt"; "$PTXAS" -arch=sm_90 -v "$R/$1.ptx" -o /dev/null >>"$R/ptxas.txt" 2>&1; }
done
S="--axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused"
sweep_run "csf base" $S
sweep_run "csf DIAG 3 (ticket, no finish)" $S -D DIAG=3
sweep_run "csf DIAG 4 (no fences)" $S -D DIAG=4
for c in 8 16 32 64; do sweep_run "csf CLUSTER $c" $S -D CLUSTER=$c; done
for c in 16 32; do sweep_run "csf CLUSTER $c no fold" $S -D CLUSTER=$c -D CLUSTER_FOLD=0; done
for g in 1056 2112; do
  sweep_run "csf groups $g" $S --chunks $g
  for c in 32 64; do sweep_run "csf groups $g CLUSTER $c" $S --chunks $g -D CLUSTER=$c; done
done
U="--axis cols --shape 1048576x32 --type uint --op min --variant cols_stream_fused"
sweep_run "uint min csf base" $U
for c in 16 32; do sweep_run "uint min csf CLUSTER $c" $U -D CLUSTER=$c; done
W="--axis cols --shape 2097152x16 --type float --op sum --variant cols_stream_fused"
sweep_run "2097152x16 csf base" $W
for c in 16 32; do sweep_run "2097152x16 csf CLUSTER $c" $W -D CLUSTER=$c; done
sweep_run "csf base (again)" $S
for shape in 4096x4096 8192x8192 16384x16384 65536x1024 1024x65536; do
  for tile in 32x8 64x4 128x2; do
    CLREDUCE_TEMP_TILE=$tile sweep_run "$shape cols default, tile $tile" --axis cols --shape $shape --type float --op sum
  done
done
for tile in 32x8 128x2; do
  CLREDUCE_TEMP_TILE=$tile sweep_run "4096x4096 uint max cols default, tile $tile" --axis cols --shape 4096x4096 --type uint --op max
  CLREDUCE_TEMP_TILE=$tile sweep_run "4096x4096 float max cols default, tile $tile" --axis cols --shape 4096x4096 --type float --op max
done
gpu_end
