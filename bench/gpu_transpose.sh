#!/usr/bin/env bash
# One batched call on the lent GPU machine for the transpose family and the access-pattern study:
# build, run the tests on the GPU, `bench transpose` (float and uint) and `bench access`, then a
# few TILE/ROWS and work-group shapes at 8192x8192 float. Outputs go under $OUT (default
# bench/out). Usage, from the repo root: bash bench/gpu_transpose.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log="$OUT/log.txt"
{
  source .gpu/env.sh
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  date -u
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-gpu -j16 2>&1 | grep -E "error|warning" || true
} >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
cli=build-gpu/clreduce
(cd build-gpu && timeout 240 ctest -j4 -LE full --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $?" >>"$OUT/ctest.txt"
tail -3 "$OUT/ctest.txt"
for t in float uint; do
  $cli bench transpose --type $t --iterations 20 --output-json "$OUT/bench_transpose_$t.json" \
    >"$OUT/bench_transpose_$t.txt" 2>&1
  echo "bench transpose $t exit $?" >>"$log"
done
$cli bench access --iterations 20 --output-json "$OUT/bench_access.json" >"$OUT/bench_access.txt" 2>&1
echo "bench access exit $?" >>"$log"
# Shapes of the fastest variants at 8192x8192 float.
{
  for tr in 32x8 32x4 32x16 32x32 64x8 64x16 16x4 16x8; do
    $cli bench transpose --shapes 8192x8192 --variants local_tile_multi --tile ${tr%x*} --rows ${tr#*x} \
      --iterations 20 --format csv | tail -n +2
  done
  for wg in 32x8 64x4 16x16 8x32 32x4 64x8 128x2; do
    $cli bench transpose --shapes 8192x8192 --variants register_tile4,register_tile2,naive_write_coalesced \
      --wg-x ${wg%x*} --wg-y ${wg#*x} --iterations 20 --format csv | tail -n +2
  done
} >"$OUT/shapes_8192.csv" 2>&1
cat "$OUT/bench_transpose_float.txt" "$OUT/bench_access.txt" "$OUT/shapes_8192.csv"
