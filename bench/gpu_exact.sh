#!/usr/bin/env bash
# Exact summation (Summation::Exact, kernels_cl/exact_sum.clh) on the lent GPU machine, in one
# call: build (bench/gpu_build.sh); the exact, unit and descriptor test suites on the GPU
# (TESTS=1); then for each type of TYPES at 2^k elements for each k of LOGS:
#   - clreduce's exact sum (and exact dot where DOT=1) and its plain sum (and dot), each one
#     `clreduce reduce ... --iterations 10` (time back to back, device events; the result in hex);
#     the exact ones also with -D EXACT_GROUP=0 (rows "exact_generic", "dot_exact_generic": the
#     accumulator per work-item instead of the fast path) where GENERIC=1 (the default);
#   - CUB's DeviceReduce::Sum in its run_to_run (default) and gpu_to_gpu modes
#     (bench/cub_reduce_modes.cu, built against CCCL 3.1 from CuPy's site-packages);
#   - with BEFORE=.before (an older tree, carried with .gpu; bench/gpu_compare_builds.sh says how
#     to make one): its plain sum, run just before the working tree's, for the generic kernels'
#     change that must not move them.
# DATA="random ones": the exact rows once per data kind (clreduce's --data; label suffix _KIND
# after the first), to tell a slow fold from a slow data path. PTXAS=1: each type's exact sum and
# dot launch at the first of LOGS written as PTX (--binary) and assembled by `ptxas -v -arch=sm_90`
# (registers, stack frame, spills: $OUT/ptxas.txt).
# Writes $OUT/log.txt, $OUT/tests.txt, $OUT/rows.txt (one line per measurement as it is taken:
# what, type, 2^k, µs, the read rate, the result), $OUT/cub.txt, and every command's output in
# $RAW (default $OUT/raw). TEST_SAMPLE=M: the exact suite's sample (CLREDUCE_TEST_SAMPLE; unset:
# all of it); SUITES="unit descriptor": more test suites after it.
#   OUT=... [TYPES="f32 f64"] [LOGS="20 22 24 26 28 30"] [DOT=1] [GENERIC=1] [TESTS=1] [BEFORE=.before]
#           [DATA="random ones"] [PTXAS=1] bash bench/gpu_exact.sh
set -uo pipefail
OUT=${OUT:-bench/out}
TYPES=${TYPES:-f32 f64}
LOGS=${LOGS:-20 22 24 26 28 30}
RAW=${RAW:-$OUT/raw}
mkdir -p "$OUT" "$RAW"
source bench/gpu_build.sh
gpu_build >>"$OUT/log.txt" 2>&1
if [ -n "${BEFORE:-}" ]; then
  echo "before: $BEFORE ($(cat "$BEFORE/.commit" 2>/dev/null || echo 'commit not recorded'))" >>"$OUT/log.txt"
  (cd "$BEFORE" && cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null &&
     cmake --build build-gpu -j"${JOBS:-16}" --target clreduce 2>&1 | grep -E "error:" || true) >>"$OUT/log.txt" 2>&1
fi
cupy_dir=$(python3 -c 'import cupy, os; print(os.path.dirname(cupy.__file__))' 2>>"$OUT/log.txt")
cccl="$cupy_dir/_core/include/cupy/_cccl"
nvcc -O3 -std=c++17 -arch=sm_90 -I"$cccl/libcudacxx" -I"$cccl/cub" -I"$cccl/thrust" \
  bench/cub_reduce_modes.cu -o /tmp/cub_reduce_modes >>"$OUT/log.txt" 2>&1 || echo "cub_reduce_modes: build failed" >>"$OUT/log.txt"
echo "built at ${SECONDS}s" >>"$OUT/log.txt"
if [ "${TESTS:-1}" = 1 ]; then
  (cd build-gpu && CLREDUCE_TEST_SAMPLE=${TEST_SAMPLE:-} timeout 300 tests/clreduce_tests --test-suite=exact) \
    >"$OUT/tests.txt" 2>&1
  echo "exact tests exit $? at ${SECONDS}s: $(grep -E 'test cases:' "$OUT/tests.txt" | tr '\n' ' ')" >>"$OUT/log.txt"
  for suite in ${SUITES:-}; do
    (cd build-gpu && timeout 300 tests/clreduce_tests --test-suite="$suite") >>"$OUT/tests.txt" 2>&1
    echo "$suite tests exit $? at ${SECONDS}s" >>"$OUT/log.txt"
  done
fi
# One clreduce measurement: LABEL BINARY TYPE LOG ARGS...
measure() {
  local label=$1 bin=$2 type=$3 lg=$4
  shift 4
  local f="$RAW/${label}_${type}_$lg.txt"
  timeout 120 "$bin" reduce --type "$type" --n "2^$lg" --iterations 10 "$@" >"$f" 2>&1
  echo "$label | $type | 2^$lg | $(grep -m1 '^time' "$f" | sed 's/^time *\([0-9.]*\) us.*/\1/') us | $(grep -m1 '^read rate' "$f" | sed 's/^read rate *//; s/ back to back.*//') | $(grep -m1 '^result' "$f" | sed 's/^result *//') | $(grep -m1 '^check' "$f" | cut -c13-40)" >>"$OUT/rows.txt"
}
DATA=${DATA:-random}
first_data=${DATA%% *}
for type in $TYPES; do
  if [ "${PTXAS:-0}" = 1 ]; then
    for op in sum dot; do
      ptx="$RAW/exact_${op}_${type}.ptx"
      rm -f "$ptx"
      timeout 120 build-gpu/clreduce reduce --type "$type" --n "2^${LOGS%% *}" --op "$op" --exact --iterations 1 \
        --binary "$ptx" >/dev/null 2>&1
      ptxas=$(command -v ptxas || echo "$(dirname "$(readlink -f "$(command -v nvcc)")")/ptxas")
      { echo "== exact $op $type ($(wc -c <"$ptx" 2>/dev/null || echo no) bytes of PTX)";
        tr -d '\000' <"$ptx" >"$ptx.txt"  # the driver's PTX ends in NUL bytes, which ptxas refuses
        "$ptxas" -v -arch=sm_90 "$ptx.txt" -o /dev/null 2>&1 | grep -vE "^ptxas info *: *(Compiling entry|Function properties)" | head -20; } \
        >>"$OUT/ptxas.txt"
    done
  fi
  for lg in $LOGS; do
    [ -n "${BEFORE:-}" ] && measure plain_before "$BEFORE/build-gpu/clreduce" "$type" "$lg" --op sum
    measure plain build-gpu/clreduce "$type" "$lg" --op sum
    for data in $DATA; do
      sfx=$([ "$data" = "$first_data" ] || echo "_$data")
      measure "exact$sfx" build-gpu/clreduce "$type" "$lg" --op sum --exact --data "$data"
    done
    [ "${GENERIC:-1}" = 1 ] && measure exact_generic build-gpu/clreduce "$type" "$lg" --op sum --exact -D EXACT_GROUP=0
    if [ "${DOT:-1}" = 1 ]; then
      measure dot_plain build-gpu/clreduce "$type" "$lg" --op dot
      for data in $DATA; do
        sfx=$([ "$data" = "$first_data" ] || echo "_$data")
        measure "dot_exact$sfx" build-gpu/clreduce "$type" "$lg" --op dot --exact --data "$data"
      done
      [ "${GENERIC:-1}" = 1 ] && measure dot_exact_generic build-gpu/clreduce "$type" "$lg" --op dot --exact -D EXACT_GROUP=0
    fi
  done
  [ -x /tmp/cub_reduce_modes ] && timeout 300 /tmp/cub_reduce_modes "$type" $LOGS >>"$OUT/cub.txt" 2>&1
  echo "$type done at ${SECONDS}s" >>"$OUT/log.txt"
done
