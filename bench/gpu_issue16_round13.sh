#!/usr/bin/env bash
# Issue 16, thirteenth round (2026-11-26, run once at commit 6996449 plus a FINISH_ITEMS macro in
# axis_cols_stream.cl's finish, since reverted: it lost): cols_stream_fused's finish with more loads
# in flight (FINISH_ITEMS, the last group's loads per trip over the groups' partial rows; it is the
# kernel's ITEMS, 2). Prediction: the finish reads 528 x 32 partials in 16.5 vector loads per work-item, 8
# dependent trips at ITEMS 2, alone at the kernel's end: 8 or 16 in flight take 1048576x32 columns
# from 52.3 to about 50.5 µs (over the 90% line, 51.6-51.8). The axis suites first.
#   OUT=/path bash bench/gpu_issue16_round13.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float max"; do
  set -- $to
  for shape in 1048576x32 2097152x16; do
    for fi in 2 8 16; do
      sweep_run "$1 $2 $shape cols_stream_fused FINISH_ITEMS $fi" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream_fused -D FINISH_ITEMS=$fi
    done
  done
done
timeout 100 build-gpu/clreduce bench axis --shapes 1048576x32,4096x4096 --type float --iterations 20 --quiet \
  --variants cols_stream,cols_stream_fused >"$R/bench_axis_float_sum.txt" 2>>"$R/log.txt"
echo "bench axis exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
