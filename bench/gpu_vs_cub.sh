#!/usr/bin/env bash
# clreduce against CUB on the lent GPU, one call: the GPU test suite, single_pass's two finishes side by side
# (launch_latency, 100-unit back-to-back batches), sum/min/max interleaved, `bench --sizes` for uint and float sum (every
# candidate verified; b2b and one call by the host clock), min and max, CUB's one call by the
# host clock (bench/tools/cuda_latency.cu) and cub_bench.cu, and a short soak.
#   OUT=/path bash bench/gpu_vs_cub.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT/files"
f="$OUT/files"
log="$f/log.txt"
cli=build-gpu/clreduce
lat=build-gpu/launch_latency
sizes=2^20,2^24,2^26,2^28,2^30
fast=stride_local,vector,warp_shuffle,single_pass
source bench/gpu_build.sh
{ gpu_build; } >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
(nvcc -O3 -std=c++17 -arch=sm_90 bench/tools/cuda_latency.cu -o /tmp/cuda_latency &&
  nvcc -O3 -std=c++17 -arch=sm_90 .gpu/cub_bench.cu -o /tmp/cub_bench) >"$f/nvcc.txt" 2>&1 &
nvcc_pid=$!
# Smoke first: stop here, with the reason, if single_pass does not reduce correctly.
for t in uint float int; do
  for n in 1 1000003 16777259; do
    $cli reduce --n $n --type $t --variant single_pass --op max >>"$f/smoke.txt" 2>&1 ||
      { echo "SMOKE FAILED: $t n=$n"; tail -5 "$f/smoke.txt"; exit 1; }
  done
done
echo "smoke ok at ${SECONDS}s" >>"$log"
(cd build-gpu && ctest -j4 -LE "full|soak|install" 2>&1 | tail -20) >"$f/ctest.txt" 2>&1
echo "ctest done at ${SECONDS}s: $(grep -E 'tests passed|tests failed' "$f/ctest.txt")" >>"$log"
export CLREDUCE_KERNEL_DIR=$PWD/kernels_cl
{
  for cfg in "--sizes 2^20 --wg 256 --times 8" "--sizes 2^24 --wg 128 --groups-per-cu 8" \
    "--sizes 2^24 --wg 256 --times 16" "--sizes 2^26 --wg 256 --times 16" \
    "--sizes 2^26 --wg 256 --times 16 --vec 8" "--sizes 2^28 --wg 256 --times 16"; do
    for knob in "-D SP_FINISH=0" "" ; do
      echo "#### $cfg ${knob:-(default: SP_FINISH=1)}"
      $lat $cfg --no-empty --quick --reps 15 $knob 2>&1 | grep -E "^==|b2b|marker_to_end |start_to_end|launch_latency"
    done
  done
} >"$f/finish_knob.txt" 2>&1
echo "knobs done at ${SECONDS}s" >>"$log"
{  # sum, min, max interleaved at one configuration per size (the launch-bound sizes drift
   # between runs by more than the operators differ)
  for cfg in "--sizes 2^20 --wg 256 --times 4" "--sizes 2^24 --wg 256 --times 4 --vec 8" \
    "--sizes 2^26 --wg 256 --times 16" "--sizes 2^28 --wg 256 --times 16" \
    "--sizes 2^30 --wg 256 --times 16" "--sizes 2^26 --wg 256 --times 16 --vec 8"; do
    for round in 1 2; do
      for op in sum min max; do
        echo "#### $cfg --op $op (round $round)"
        $lat $cfg --no-empty --quick --reps 15 --op $op 2>&1 | grep -E "b2b|wall_noprof|launch_latency"
      done
    done
  done
} >"$f/ops_interleaved.txt" 2>&1
echo "ops interleaved done at ${SECONDS}s" >>"$log"
for t in uint float; do
  $cli bench --sizes $sizes --type $t --variants $fast --iterations 21 --output-json "$f/sizes_$t.json" \
    --output-csv "$f/sizes_$t.csv" >"$f/sizes_$t.txt" 2>&1
  echo "sizes $t exit $? at ${SECONDS}s" >>"$log"
done
for op in min max; do
  $cli bench --sizes $sizes --op $op --variants single_pass,stride_local --iterations 21 \
    --output-json "$f/ops_$op.json" >"$f/ops_$op.txt" 2>&1
  echo "ops $op exit $? at ${SECONDS}s" >>"$log"
done
$cli bench --output-json "$f/family_default.json" >"$f/family_default.txt" 2>&1
echo "family (README's main job) exit $? at ${SECONDS}s" >>"$log"
wait $nvcc_pid
/tmp/cuda_latency >"$f/cuda_latency.txt" 2>&1
/tmp/cub_bench >"$f/cub.txt" 2>&1
echo "cub done at ${SECONDS}s" >>"$log"
$cli soak --seconds 30 --seed 2026112201 >"$f/soak.txt" 2>&1
echo "soak exit $? at ${SECONDS}s" >>"$log"
tar czf "$OUT/issue4.tar.gz" -C "$f" .
{
  cat "$log" "$f/ctest.txt" | grep -vE "^\s*$" | tail -25
  cat "$f/finish_knob.txt"
  awk '/^####/{h=$3" "$(NF-2)" round "$NF} /b2b/{b=$2} /wall_noprof/{print h, "b2b", b, "1call", $2}' "$f/ops_interleaved.txt"
  for x in "$f"/sizes_*.txt "$f"/ops_*.txt; do echo "== $(basename "$x")"; grep -E "^n = |^best |FAILED|ERROR" "$x"; done
  grep -A4 "CUB DeviceReduce" "$f/cuda_latency.txt" | grep -E "==|wall_sync|events"
  cat "$f/cub.txt" "$f/soak.txt" | tail -20
} >"$OUT/summary.txt"
head -c 11500 "$OUT/summary.txt"
