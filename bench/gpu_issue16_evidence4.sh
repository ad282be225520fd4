#!/usr/bin/env bash
# Issue 16's evidence after round 17 (cols_stream's lanes folded by warp shuffles on NVIDIA,
# cols_fused's tile policy), in ONE device call: `clreduce bench axis` at the issue's seven shapes,
# both axes (every default launch verified; the variants the defaults use, measured by name beside
# them) for float and uint sum, min and max, float argmax and int argmin, then torch's and CuPy's
# peers (bench/tools/axis_peers_ops.py: CUDA events, and torch also by the host clock). The GPU
# suites ran on this code in round 17 (axis_0, axis_1, unit). Table: bench/tools/axis_table.py.
#   OUT=/path bash bench/gpu_issue16_evidence4.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
bench_axis() {
  timeout 100 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet --variants "$3" \
    --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
}
for to in "float sum" "uint sum" "float min" "uint min" "float max" "uint max"; do
  bench_axis $to rows_warp,cols_fused,cols_stream_fused
done
for to in "float argmax" "int argmin"; do bench_axis $to rows_warp,cols_fused,cols_stream; done
timeout 200 python3 bench/tools/axis_peers_ops.py >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
python3 bench/tools/axis_table.py "$R/peers.txt" "$R"/bench_axis_*.json >"$R/table.md" 2>>"$R/log.txt"
gpu_end
