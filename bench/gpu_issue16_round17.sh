#!/usr/bin/env bash
# Issue 16, seventeenth round (2026-11-26): the two changes rounds 14-16 pointed to, with the axis
# suites first (their new case reaches cols_stream's warp fold at N = VEC ... 32 VEC).
# - cols_stream(_fused)'s lanes folded per column by warp shuffles on NVIDIA (WARP_FOLD, default
#   NV_PTX) instead of the tree of log2(rows) barrier levels, in every group and in the finish.
#   Round 15/16: the group fold cost 0.8 µs (DIAG 1 against 2), the finish's tree 0.7 (FDIAG 3).
#   Prediction: 1048576x32 columns 1-1.3 µs faster (52.1-52.3 -> 51.0), under the 90% line
#   (51.6-51.8); 2097152x16 likewise; cols_stream's argmax a little (two passes, one tree).
# - cols_fused's tile policy on NVIDIA: 128 x 2 at 2 groups per compute unit up to 64 MiB, 64 x 4
#   above (round 16). Prediction: 4096x4096 27.3 µs, 8192x8192 91.8, 16384x16384 359,
#   65536x1024 93.5 (float sum), uint and max the same.
#   OUT=/path bash bench/gpu_issue16_round17.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 300 ctest -j4 -R "^(axis_[01]|unit)$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float max"; do
  set -- $to
  for shape in 1048576x32 2097152x16; do
    sweep_run "$1 $2 $shape cols_stream_fused" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream_fused
    sweep_run "$1 $2 $shape cols_stream_fused WARP_FOLD 0" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream_fused -D WARP_FOLD=0
  done
done
for to in "float argmax" "int argmin"; do
  set -- $to
  sweep_run "$1 $2 1048576x32 cols_stream" --axis cols --shape 1048576x32 --type $1 --op $2 --variant cols_stream
  sweep_run "$1 $2 1048576x32 cols_stream WARP_FOLD 0" --axis cols --shape 1048576x32 --type $1 --op $2 --variant cols_stream -D WARP_FOLD=0
done
sweep_run "float sum 524288x64 cols_stream_fused" --axis cols --shape 524288x64 --type float --op sum --variant cols_stream_fused
sweep_run "float sum 524288x64 default" --axis cols --shape 524288x64 --type float --op sum
for to in "float sum" "uint max" "float max"; do
  set -- $to
  for shape in 4096x4096 8192x8192 16384x16384 65536x1024; do
    sweep_run "$1 $2 $shape cols default" --axis cols --shape $shape --type $1 --op $2
  done
done
sweep_run "float sum 1048576x32 cols_stream_fused (again)" --axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused
sweep_run "float sum 1048576x32 cols_stream_fused WARP_FOLD 0 (again)" --axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused -D WARP_FOLD=0
gpu_end
