#!/usr/bin/env bash
# The hardening checks on the lent GPU: build, the test suite, `clreduce doctor`, a soak, and the largest
# inputs (past 2^32 bytes and past 2^32 elements). Outputs under $OUT.
#   OUT=/path bash bench/gpu_limits_and_soak.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
cli=build-gpu/clreduce
source bench/gpu_build.sh
{
  gpu_build
} >"$OUT/log.txt" 2>&1
source .gpu/env.sh >/dev/null 2>&1
(cd build-gpu && ctest -j8 -LE "full|install" --output-on-failure 2>&1 | tail -25) >"$OUT/ctest.txt"
$cli doctor >"$OUT/doctor.txt" 2>&1; echo "doctor exit $?" >>"$OUT/doctor.txt"
$cli soak --seconds 90 --seed 2026112101 >"$OUT/soak.txt" 2>&1; echo "soak exit $?" >>"$OUT/soak.txt"
{
  for v in single_pass stride_local vector; do
    echo "# reduce --variant $v --n 2^31 (8 GiB uint)"
    $cli reduce --variant $v --n 2^31 --iterations 3 --format csv; echo "exit $?"
  done
  echo "# reduce --variant single_pass --n 4294967303 (2^32 + 7 uint, 16 GiB)"
  $cli reduce --variant single_pass --n 4294967303 --iterations 3 --format csv; echo "exit $?"
  echo "# reduce --variant stride_local --type float --n 4294967303"
  $cli reduce --variant stride_local --type float --n 4294967303 --iterations 3 --format csv; echo "exit $?"
} >"$OUT/huge.txt" 2>&1
cat "$OUT/ctest.txt" "$OUT/doctor.txt" "$OUT/soak.txt" "$OUT/huge.txt"
