#!/usr/bin/env bash
# Issue 16's evidence for the thin shape after round 12 (cols_stream with ITEMS 2, the tree fold):
# `clreduce bench axis --shapes 1048576x32` for float and uint sum, min and max, every default launch
# verified, the read peak measured in the same run. (The other shapes' launches did not change
# since bench/gpu_issue16_evidence2.sh.)
#   OUT=/path bash bench/gpu_issue16_evidence3.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for to in "float sum" "uint sum" "float min" "uint min" "float max" "uint max"; do
  set -- $to
  timeout 100 build-gpu/clreduce bench axis --shapes 1048576x32 --type "$1" --op "$2" --iterations 20 --quiet \
    --variants rows_warp,cols_stream,cols_stream_fused --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
done
gpu_end
