#!/usr/bin/env bash
# The same clreduce command from two builds on the lent GPU, one after the other and alternating
# round by round: an older tree carried in $BEFORE (made here by
#   mkdir -p .before && git archive <commit> | tar -x -C .before
# with /.before/ in .git/info/exclude, then carry .before and .gpu) and the working tree. For a
# change that must not move performance. Also the GPU test suite of the working tree first.
#   OUT=/path BEFORE=.before ROUNDS=2 bash bench/gpu_compare_builds.sh bench --sizes 2^20,2^26 --type uint
# Writes $OUT/log.txt, $OUT/ctest.txt, $OUT/before_<r>.txt and $OUT/after_<r>.txt.
set -uo pipefail
OUT=${OUT:-bench/out}
BEFORE=${BEFORE:-.before}
ROUNDS=${ROUNDS:-1}
mkdir -p "$OUT"
log="$OUT/log.txt"
source bench/gpu_build.sh
{
  gpu_build
  echo "before: $BEFORE ($(cat "$BEFORE/.commit" 2>/dev/null || echo 'commit not recorded'))"
  (cd "$BEFORE" && cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null &&
     cmake --build build-gpu -j"${JOBS:-16}" --target clreduce 2>&1 | grep -E "error:" || true)
  echo "built both at ${SECONDS}s"
} >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
(cd build-gpu && timeout "${CTEST_TIMEOUT:-240}" ctest -j8 -LE "full|soak|install|pocl_method" --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s: $(grep -E 'tests passed|tests failed' "$OUT/ctest.txt")" >>"$log"
for r in $(seq 1 "$ROUNDS"); do
  "$BEFORE/build-gpu/clreduce" "$@" >"$OUT/before_$r.txt" 2>&1
  echo "before round $r exit $? at ${SECONDS}s" >>"$log"
  build-gpu/clreduce "$@" >"$OUT/after_$r.txt" 2>&1
  echo "after round $r exit $? at ${SECONDS}s" >>"$log"
done
cat "$log"
