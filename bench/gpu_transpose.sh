#!/usr/bin/env bash
# One batched call on the lent GPU machine for the transpose family and the access-pattern study:
# build, run the tests on the GPU, `bench transpose` (float, uint, double) and `bench access`
# (default launch, other group counts, 2^28), and the kernel_limits launch probe. Outputs go
# under $OUT (default bench/out). Usage, from the repo root: bash bench/gpu_transpose.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log="$OUT/log.txt"
source bench/gpu_build.sh
{
  gpu_build
  g++ -std=c++17 -O2 bench/tools/kernel_limits.cpp -lOpenCL -o build-gpu/kernel_limits && build-gpu/kernel_limits --launch
} >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
cli=build-gpu/clreduce
(cd build-gpu && timeout 240 ctest -j4 -LE "full|install" --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $?" >>"$OUT/ctest.txt"
tail -3 "$OUT/ctest.txt"
for t in float uint double; do
  $cli bench transpose --type $t --iterations 20 --output-json "$OUT/bench_transpose_$t.json" \
    >"$OUT/bench_transpose_$t.txt" 2>&1
  echo "bench transpose $t exit $?" >>"$log"
done
$cli bench access --iterations 20 --output-json "$OUT/bench_access.json" >"$OUT/bench_access.txt" 2>&1
echo "bench access exit $?" >>"$log"
{
  for g in 264 4224 16896; do
    echo "# bench access --iterations 20 --groups $g"
    $cli bench access --iterations 20 --groups $g --format csv
  done
  echo "# bench access --n 2^28 --iterations 20"
  $cli bench access --n 2^28 --iterations 20 --format csv
} >"$OUT/access_launches.csv" 2>&1
cat "$log" "$OUT/bench_transpose_float.txt" "$OUT/bench_access.txt" "$OUT/access_launches.csv"
