#!/usr/bin/env bash
# clreduce against CUB, the comparisons that drift: one call at 2^24 and 2^26 (clreduce and CUB alternating,
# round after round, each by the host clock and by device events) and sum/min/max at 2^20
# (launch-bound: the host's enqueue rate sets the back-to-back time there). Nothing else runs
# meanwhile (the CUDA tools are compiled first).
#   OUT=/path ROUNDS=8 bash bench/gpu_vs_cub_alternating.sh
set -uo pipefail
OUT=${OUT:-bench/out}
ROUNDS=${ROUNDS:-8}
mkdir -p "$OUT"
log="$OUT/log.txt"
lat=build-gpu/launch_latency
source bench/gpu_build.sh
{ gpu_build; } >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
nvcc -O3 -std=c++17 -arch=sm_90 bench/tools/cuda_latency.cu -o /tmp/cuda_latency >>"$log" 2>&1
export CLREDUCE_KERNEL_DIR=$PWD/kernels_cl
for r in $(seq "$ROUNDS"); do
  /tmp/cuda_latency 101 24 26 | awk -v r=$r '/^==/{split($0,a," "); t=a[4]; n=a[5]} /events/{e=$2} /wall_sync/{print "round", r, "cub", t, n, "events", e, "wall", $2}'
  for t in uint float; do
    for cfg in "--sizes 2^24 --wg 256 --times 4 --vec 8" "--sizes 2^26 --wg 256 --times 16"; do
      $lat $cfg --type $t --no-empty --quick --reps 101 |
        awk -v r=$r -v t=$t '/^==/{n=$3} /marker_to_end/{m=$2} /wall_noprof/{print "round", r, "clreduce", t, n, "marker", m, "wall", $2}'
    done
  done
  for op in sum min max; do
    build-gpu/launch_latency --sizes 2^20 --wg 256 --times 8 --op $op --no-empty --quick --reps 41 |
      awk -v r=$r -v o=$op '/b2b/{b=$2} /wall_noprof/{print "round", r, "ops2^20", o, "b2b", b, "wall", $2}'
  done
done >"$OUT/pairs.txt" 2>&1
echo "done at ${SECONDS}s" >>"$log"
cat "$log" | tail -3
cat "$OUT/pairs.txt"
