#!/usr/bin/env bash
# The fast variants against CUB across sizes on the lent GPU: the fast variants only (stride_local, vector,
# warp_shuffle, single_pass) at every size for uint and float sum, min and max at 2^28, a
# LOAD_UNROLL comparison for single_pass at 2^28, and CUB beside them. Outputs under $OUT.
#   OUT=/path bash bench/gpu_sizes_fast_variants.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log="$OUT/log.txt"
cli=build-gpu/clreduce
fast=stride_local,vector,warp_shuffle,single_pass
source bench/gpu_build.sh
{
  gpu_build
} >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
(nvcc -O3 -std=c++17 -arch=sm_90 .gpu/cub_bench.cu -o /tmp/cub_bench >"$OUT/nvcc.txt" 2>&1) &
cub_pid=$!
for t in uint float; do
  $cli bench --sizes 2^20,2^24,2^26,2^28,2^30 --type $t --variants $fast \
    --output-json "$OUT/sizes_$t.json" >"$OUT/sizes_$t.txt" 2>&1
  echo "sizes $t exit $? at ${SECONDS}s" >>"$log"
done
for op in min max; do
  $cli bench --sizes 2^28 --op $op --variants $fast >"$OUT/ops_$op.txt" 2>&1
  echo "ops $op exit $? at ${SECONDS}s" >>"$log"
done
for u in 1 2 4; do
  echo "# LOAD_UNROLL=$u"
  $cli bench --sizes 2^26,2^28 --variants single_pass -D LOAD_UNROLL=$u 2>&1 | grep -E "^n = |^single_pass"
done >"$OUT/unroll.txt"
wait $cub_pid && /tmp/cub_bench >"$OUT/cub.txt" 2>&1
{
  for f in "$OUT"/sizes_*.txt "$OUT"/ops_*.txt; do echo "== $(basename "$f")"; grep -E "^n = |^best |FAILED|ERROR" "$f"; done
  cat "$OUT/unroll.txt" "$OUT/cub.txt"
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
