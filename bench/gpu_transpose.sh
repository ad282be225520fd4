#!/usr/bin/env bash
# One batched call on the lent GPU machine for the transpose family (and, with ACCESS=1, the
# access-pattern study): build, run the tests on the GPU, `bench transpose` for each type (every
# variant beside a device-to-device copy of the same bytes in the same run), then each launch of
# GRID for GRID_VARIANTS. Outputs go under $OUT/r, packed as $OUT/all.tgz (bench/gpu_build.sh).
# Usage, from the repo root: bash bench/gpu_transpose.sh, with any of
#   TYPES="float double"          element types (default: float uint double)
#   SHAPES=4096x4096,8192x8192    bench transpose --shapes (default: the command's own)
#   GRID_SHAPES=8192x8192         the shapes of the grid (default: SHAPES)
#   GRID="--tile 64 --rows 8 --vec 4;--tile 32 --rows 8 --vec 2"   launches, ';'-separated
#   GRID_VARIANTS=local_tile_vector  the variants the grid's options go to
#   CTEST="-R transpose"          ctest's selection (default: -LE "full|install"; "skip": none)
#   ACCESS=1                      also bench access (default launch, other group counts, 2^28)
# Issue 3's run was the defaults with ACCESS=1; issue 31 (item 4) the TYPES/SHAPES/GRID form.
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
cli=build-gpu/clreduce
TYPES=${TYPES:-float uint double}
CTEST=${CTEST:--LE "full|install"}
shapes=()
[ -n "${SHAPES:-}" ] && shapes=(--shapes "$SHAPES")
if [ "$CTEST" != skip ]; then
  (cd build-gpu && eval timeout 300 ctest -j8 "$CTEST" --output-on-failure) >"$R/ctest.txt" 2>&1
  echo "ctest exit $?" >>"$R/ctest.txt"
fi
for t in $TYPES; do
  $cli bench transpose --type "$t" "${shapes[@]}" --iterations 20 --quiet --output-json "$R/bench_transpose_$t.json" \
    >"$R/bench_transpose_$t.txt" 2>&1
  echo "bench transpose $t exit $? at ${SECONDS}s" >>"$R/log.txt"
done
if [ -n "${GRID:-}" ]; then
  grid_shapes=(--shapes "${GRID_SHAPES:-${SHAPES:-8192x8192}}")
  IFS=';' read -r -a launches <<<"$GRID"
  for t in $TYPES; do
    for l in "${launches[@]}"; do
      read -r -a opts <<<"$l"
      echo "# $t $l" >>"$R/grid_$t.txt"
      $cli bench transpose --type "$t" "${grid_shapes[@]}" --variants "${GRID_VARIANTS:-local_tile_vector}" "${opts[@]}" \
        --iterations 20 --quiet >>"$R/grid_$t.txt" 2>&1
      echo "grid $t $l exit $? at ${SECONDS}s" >>"$R/log.txt"
    done
  done
fi
if [ "${ACCESS:-0}" = 1 ]; then
  $cli bench access --iterations 20 --output-json "$R/bench_access.json" >"$R/bench_access.txt" 2>&1
  {
    for g in 264 4224 16896; do
      echo "# bench access --iterations 20 --groups $g"
      $cli bench access --iterations 20 --groups $g --format csv
    done
    echo "# bench access --n 2^28 --iterations 20"
    $cli bench access --n 2^28 --iterations 20 --format csv
  } >"$R/access_launches.csv" 2>&1
fi
gpu_end
