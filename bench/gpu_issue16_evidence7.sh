#!/usr/bin/env bash
# Issue 16's evidence after round 24 (sums, min and max: rows_split for rows of 128 KiB or more in
# parts of 16 KiB, rows_split_fused for few long rows in parts of 32 KiB), in ONE device call:
# `clreduce bench axis` at the issue's seven shapes, both axes (every default launch verified;
# the variants the defaults use, measured by name beside them) for
# float and uint sum, min and max, float argmax and int argmin; then torch's and CuPy's peers
# (bench/tools/axis_peers_ops.py: CUDA events around one call; torch also by the host clock
# around one call, and back to back, events around 20 calls / 20). The GPU suites on this code
# run in a later call. Table: bench/tools/axis_table.py.
#   OUT=/path bash bench/gpu_issue16_evidence7.sh   (everything in $OUT/all.tgz)
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
  bench_axis $to rows_warp,rows_split,rows_split_fused,cols_fused,cols_stream_fused
done
for to in "float argmax" "int argmin"; do bench_axis $to rows_warp,rows_split,cols_fused,cols_stream; done
timeout 260 python3 bench/tools/axis_peers_ops.py >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
python3 bench/tools/axis_table.py "$R/peers.txt" "$R"/bench_axis_*.json >"$R/table.md" 2>>"$R/log.txt"
gpu_end
