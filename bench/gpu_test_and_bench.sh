#!/usr/bin/env bash
# One batched call on the lent GPU machine (no packages there): unpack the bundled headers
# (../shared/gpu/bundle.sh made .gpu/), build, run the tests on the GPU, benchmark, and run CUB
# beside it. Everything is written under $OUT (default: bench/out). Usage, from the repo root:
#   bash bench/gpu_test_and_bench.sh [extra clreduce bench args]
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log="$OUT/log.txt"
source bench/gpu_build.sh
{
  gpu_build
  build-gpu/clreduce devices
} >"$log" 2>&1
(cd build-gpu && timeout 300 ctest -j4 -LE "full|install" --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $?" >>"$OUT/ctest.txt"
tail -4 "$OUT/ctest.txt"
for t in uint float; do
  build-gpu/clreduce bench --n 2^28 --type $t --iterations 20 --output-json "$OUT/bench_2p28_$t.json" "$@" \
    >"$OUT/bench_2p28_$t.txt" 2>&1
  echo "bench 2^28 $t exit $?" >>"$log"
done
build-gpu/clreduce bench --iterations 20 >"$OUT/bench_default.txt" 2>&1
echo "bench default exit $?" >>"$log"
if command -v nvcc >/dev/null; then
  nvcc -O3 -std=c++17 -arch=sm_90 .gpu/cub_bench.cu -o /tmp/cub_bench >>"$log" 2>&1 && /tmp/cub_bench >"$OUT/cub.txt" 2>&1
fi
cat "$OUT/bench_2p28_uint.txt" "$OUT/cub.txt" 2>/dev/null | head -40
