#!/usr/bin/env bash
# Issue 16's evidence after round 23 (rows_split_fused the default for few long rows' sums, min
# and max), in ONE device call: `clreduce bench axis` at the issue's seven shapes, both axes
# (every default launch verified; the variants the defaults use, measured by name beside them) for
# float and uint sum, min and max, float argmax and int argmin; then torch's and CuPy's peers
# (bench/tools/axis_peers_ops.py: CUDA events around one call; torch also by the host clock
# around one call, and back to back, events around 20 calls / 20); then the GPU suites on this
# code. Table: bench/tools/axis_table.py.
#   OUT=/path bash bench/gpu_issue16_evidence6.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
git rev-parse HEAD >>"$R/log.txt" 2>&1 || true
bench_axis() {
  timeout 100 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet --variants "$3" \
    --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
}
for to in "float sum" "uint sum" "float min" "uint min" "float max" "uint max"; do
  bench_axis $to rows_warp,rows_split_fused,cols_fused,cols_stream_fused
done
for to in "float argmax" "int argmin"; do bench_axis $to rows_warp,rows_split,cols_fused,cols_stream; done
timeout 260 python3 bench/tools/axis_peers_ops.py >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
python3 bench/tools/axis_table.py "$R/peers.txt" "$R"/bench_axis_*.json >"$R/table.md" 2>>"$R/log.txt"
left=$((565 - SECONDS))  # the call's 600 s, less the packing
if [ $left -ge 60 ]; then
  (cd build-gpu && timeout $left ctest -R "^(unit|api|axis_0|axis_1|arg|segmented|user_op)$" >"$R/ctest.txt" 2>&1
   echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt")
else
  echo "ctest skipped: $left s left" >>"$R/log.txt"
fi
gpu_end
