#!/usr/bin/env bash
# The reduction descriptors on the lent GPU machine, in one call: build (bench/gpu_build.sh), the
# descriptor and unit test suites on the GPU, then `clreduce reduce` of every built-in (OPS) over
# every type (TYPES) with inputs of BYTES bytes each (default 256 MiB), one CSV row each
# ($OUT/descriptors.csv: time back to back, read rate, % of the read peak measured in the same
# run), and beside them the families' own kernels for sum/min/max of uint and float at the same
# bytes (`reduce` without a descriptor; $OUT/families.txt). Usage, from the repo root:
#   OUT=... [OPS="sum dot"] [TYPES="f32 f16"] [BYTES=$((1<<28))] [TESTS=0] [PEERS=0] [FAMILIES=0] bash bench/gpu_descriptors.sh
# (PEERS=1, the default: torch's reductions at the same bytes, $OUT/torch.csv)
# AXIS_SHAPES="8192x8192 1048576x32 ...": instead of the whole arrays, every op of AXIS_OPS x type
# of AXIS_TYPES along both axes of each shape ($OUT/axis.csv), the families' own float sum on the
# same shapes ($OUT/axis_families.csv) and torch along the same dims ($OUT/torch_axis.csv).
# TESTS=1 then runs descriptor_families_full too.
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
build-gpu/clreduce devices >>"$OUT/log.txt" 2>&1
if [ "${TESTS:-1}" = 1 ]; then
  tests="^(unit|descriptor_full|api)$"
  [ -n "${AXIS_SHAPES:-}" ] && tests="^(unit|descriptor_families_full|api)$"
  (cd build-gpu && timeout ${TEST_TIMEOUT:-420} ctest -R "$tests" --output-on-failure) >"$OUT/ctest.txt" 2>&1
  echo "ctest exit $?" >>"$OUT/ctest.txt"
  tail -5 "$OUT/ctest.txt"
fi
if [ -n "${AXIS_SHAPES:-}" ]; then
  acsv="$OUT/axis.csv"
  for shape in $AXIS_SHAPES; do
    for axis in rows cols; do
      for t in ${AXIS_TYPES:-f32 f16}; do
        for op in ${AXIS_OPS:-sum argmax var_pop dot}; do
          line=$(timeout 120 build-gpu/clreduce reduce --op "$op" --type "$t" --axis $axis --shape "$shape" --iterations 20 --format csv 2>&1)
          rc=$?
          [ -f "$acsv" ] || echo "shape,axis,$(head -1 <<<"$line")" >"$acsv"
          if [ $rc -le 1 ] && [ "$(wc -l <<<"$line")" -ge 2 ]; then echo "$shape,$axis,$(tail -1 <<<"$line")" >>"$acsv"; else echo "$shape,$axis,$op,$t,ERROR rc=$rc: $(tr '\n' ' ' <<<"$line" | cut -c1-300)" >>"$acsv"; fi
        done
      done
      line=$(timeout 120 build-gpu/clreduce reduce --op sum --type float --axis $axis --shape "$shape" --iterations 20 --format csv 2>&1)
      [ -f "$OUT/axis_families.csv" ] || echo "shape,axis,$(head -1 <<<"$line")" >"$OUT/axis_families.csv"
      echo "$shape,$axis,$(tail -1 <<<"$line")" >>"$OUT/axis_families.csv"
    done
  done
  [ "${PEERS:-1}" = 1 ] && timeout 300 python3 bench/tools/descriptor_peers.py axis $AXIS_SHAPES >"$OUT/torch_axis.csv" 2>&1
  echo "done at ${SECONDS}s" >>"$OUT/log.txt"
  exit 0
fi
OPS=${OPS:-"sum sum_wrap min max argmin argmax minmax mean nanmean var_pop var_sample std_pop std_sample count_nonzero any all nansum nanmin nanmax l1 l2 linf dot sqdist"}
TYPES=${TYPES:-"f32 f16 bf16 u32 i8 f64"}
BYTES=${BYTES:-$((1 << 28))}
size() { case $1 in u8|i8) echo 1;; u16|i16|f16|bf16) echo 2;; u32|i32|f32) echo 4;; *) echo 8;; esac; }
csv="$OUT/descriptors.csv"
for t in $TYPES; do
  n=$((BYTES / $(size "$t")))
  for op in $OPS; do
    line=$(timeout 120 build-gpu/clreduce reduce --op "$op" --type "$t" --n "$n" --iterations 20 --format csv 2>&1)
    rc=$?
    [ -f "$csv" ] || head -1 <<<"$line" >"$csv"
    if [ $rc -le 1 ] && [ "$(wc -l <<<"$line")" -ge 2 ]; then tail -1 <<<"$line" >>"$csv"; else echo "$op,$t,$n,ERROR rc=$rc: $(tr '\n' ' ' <<<"$line" | cut -c1-300)" >>"$csv"; fi
  done
done
# The families' own kernels at the same bytes (the default launch of `reduce`), and the
# descriptor kernel on the same operators (--variant descriptor), back to back in this call.
[ "${FAMILIES:-1}" = 1 ] && {
  for t in uint float; do
    for op in sum min max; do
      echo "== $op $t: families' kernels"
      timeout 120 build-gpu/clreduce reduce --op $op --type $t --n $((BYTES / 4)) --iterations 20 2>&1 | grep -E "^(variant|launch|time|bandwidth|check)"
      echo "== $op $t: descriptor kernel"
      timeout 120 build-gpu/clreduce reduce --variant descriptor --op $op --type $t --n $((BYTES / 4)) --iterations 20 2>&1 | grep -E "^(launch|time|read rate|check)"
    done
  done
} >"$OUT/families.txt" 2>&1
# Torch's whole-array reductions at the same bytes, back to back (bench/tools/descriptor_peers.py).
[ "${PEERS:-1}" = 1 ] && timeout 300 python3 bench/tools/descriptor_peers.py "$BYTES" >"$OUT/torch.csv" 2>&1
echo "done at ${SECONDS}s" >>"$OUT/log.txt"
cut -d, -f1,2,7,14,16,18 "$csv" | head -80
