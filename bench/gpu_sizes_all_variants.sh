#!/usr/bin/env bash
# The whole family against CUB across sizes on the lent GPU, in one batched call of about
# 8 minutes: build; smoke-run the new kernels; sweep 2^20..2^30 for uint sum (every variant)
# and float sum (the fast variants): each variant's best configuration, timed back-to-back and
# one call at a time, every candidate verified; sum, min and max at 2^28 with the fast variants; CUB beside them (compiled while the
# GPU works); then the test suite with the time that is left. Each size runs as its own process,
# so a timeout loses one size, not the table. Everything goes under $OUT (default bench/out).
# Needs .gpu/ (../shared/gpu/bundle.sh) carried with the tree. From the repo root:
#   OUT=/path bash bench/gpu_sizes_all_variants.sh
set -uo pipefail
OUT=${OUT:-bench/out}
BUDGET=${BUDGET:-470}  # seconds for the whole script; ctest gets what is left (at least 60)
SIZES=${SIZES:-"2^20 2^24 2^26 2^28 2^30"}  # the sweep (override only to try the script out)
OPS_N=${OPS_N:-2^28}                       # the size of the sum/min/max comparison
JOBS=${JOBS:-16}
mkdir -p "$OUT"
log="$OUT/log.txt"
cli=build-gpu/clreduce
fast=stride_global,stride_local,vector,warp_shuffle,single_pass,subgroup
source bench/gpu_build.sh
{
  gpu_build
  $cli devices
  echo "build done at ${SECONDS}s"
} >"$log" 2>&1

cub_pid=
if command -v nvcc >/dev/null; then
  (nvcc -O3 -std=c++17 -arch=sm_90 .gpu/cub_bench.cu -o /tmp/cub_bench >"$OUT/nvcc.txt" 2>&1) &
  cub_pid=$!
fi

# The new kernels first, so a build failure on NVIDIA shows at the top.
for v in single_pass warp_shuffle vector; do
  for t in uint float double; do
    echo "== $v $t"
    timeout 30 $cli reduce --variant $v --type $t --n 1000003 --format csv 2>&1
  done
done >"$OUT/smoke.txt"
echo "smoke done at ${SECONDS}s" >>"$log"

# uint: the whole family; float: the variants that can reach the floor (saves builds).
for t in uint float; do
  only=()
  [ "$t" = float ] && only=(--variants "$fast")
  for s in $SIZES; do
    tag=${t}_2p${s#2^}
    timeout 100 $cli bench --sizes $s --type $t "${only[@]}" --output-json "$OUT/sizes_$tag.json" \
      >"$OUT/sizes_$tag.txt" 2>&1
    echo "bench --sizes $s --type $t exit $? at ${SECONDS}s" >>"$log"
  done
done
for op in sum min max; do
  timeout 60 $cli bench --sizes $OPS_N --op $op --variants $fast --output-json "$OUT/ops_$op.json" \
    >"$OUT/ops_$op.txt" 2>&1
  echo "bench --sizes $OPS_N --op $op exit $? at ${SECONDS}s" >>"$log"
done

if [ -n "$cub_pid" ]; then
  if wait "$cub_pid"; then
    timeout 60 /tmp/cub_bench >"$OUT/cub.txt" 2>&1
    echo "cub exit $? at ${SECONDS}s" >>"$log"
  else
    echo "cub_bench did not compile (see nvcc.txt)" >>"$log"
  fi
fi

left=$((BUDGET - SECONDS))
[ "$left" -lt 60 ] && left=60
if [ -z "${SKIP_CTEST:-}" ]; then
  (cd build-gpu && timeout "$left" ctest -j${CTEST_JOBS:-8} -LE "full|install" --output-on-failure) >"$OUT/ctest.txt" 2>&1
  echo "ctest exit $? (timeout ${left}s) at ${SECONDS}s" >>"$log"
fi

# A summary: each size's best lines, and CUB.
for f in "$OUT"/sizes_*.txt "$OUT"/ops_*.txt; do
  echo "== $(basename "$f")"
  grep -E "^n = |^best |FAILED|ERROR|error:" "$f"
done >"$OUT/summary.txt" 2>/dev/null
cat "$OUT/cub.txt" >>"$OUT/summary.txt" 2>/dev/null
tail -3 "$OUT/ctest.txt" >>"$OUT/summary.txt" 2>/dev/null
cat "$OUT/summary.txt"
