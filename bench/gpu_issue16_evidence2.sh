#!/usr/bin/env bash
# Issue 16's evidence on the lent GPU after rounds 9 and 10 (rows_warp for short rows on NVIDIA,
# cols_stream_fused / cols_stream for thin columns, segments_sliced for short segments), in two
# device calls because one does not fit the 600 s a command may run:
#   PART=1: the axis, arg and segmented suites on the GPU, then `clreduce bench axis` (every
#           default launch verified; the variants that compete at these shapes beside it) for
#           float and uint sum, min and max;
#   PART=2: the same for float argmax and int argmin, torch's and CuPy's peers
#           (bench/tools/axis_peers_ops.py) in the same call, and the segmented rule's default
#           launches against segments_group at three segment lengths.
# The table: bench/tools/axis_table.py over both parts' files.
#   OUT=/path PART=1 bash bench/gpu_issue16_evidence2.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
PART=${PART:-1}
VARIANTS=rows_sliced,rows_warp,rows_tile,rows_vector,cols_tile,cols_fused,cols_stream,cols_stream_fused
bench_axis() {
  timeout 150 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet --variants "$VARIANTS" \
    --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
}
if [ "$PART" = 1 ]; then
  (cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01]|arg|segmented)$" --output-on-failure) >"$R/ctest.txt" 2>&1
  echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
  for to in "float sum" "uint sum" "float min" "uint min" "float max" "uint max"; do bench_axis $to; done
else
  VARIANTS=rows_sliced,rows_warp,rows_tile,rows_vector,cols_tile,cols_fused,cols_stream
  for to in "float argmax" "int argmin"; do bench_axis $to; done
  timeout 300 python3 bench/tools/axis_peers_ops.py >"$R/peers.txt" 2>&1
  echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
  for L in 32 671 8192; do
    python3 -c "import sys; L=$L; S=(1<<26)//L; sys.stdout.write(' '.join(str(L * i) for i in range(S + 1)))" >"$R/seg.txt"
    sweep_run "float sum segments length $L default" --segments "$R/seg.txt" --type float
    sweep_run "float sum segments length $L group" --segments "$R/seg.txt" --type float --wg 256 --row-width 256
    sweep_run "int argmin segments length $L default" --segments "$R/seg.txt" --type int --op argmin
  done
  rm -f "$R/seg.txt"
fi
gpu_end
