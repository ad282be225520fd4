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
# AXIS_AXES="cols": only those axes (default rows cols). AXIS_LAUNCHES="--chunks 8|-D VEC=2 -D ITEMS=1":
# after each point's default launch, the same point with each '|'-separated set of launch options
# (the CSV's args column says which).
# TESTS=1 then runs descriptor_families_full too.
# BEFORE=.before (an older tree, made as bench/gpu_compare_builds.sh says, carried with .gpu):
# built too, and every whole-array row run by it just before the working tree's
# ($OUT/descriptors_before.csv), for a change that must not move performance.
# MULTI="var_sample:f16 argmax:f32 ...": `bench multi` of each op:type at BYTES per input, resident
# and host-copied, over every GPU of the machine ($OUT/multi_<op>_<type>_<path>.json), and the
# multi_device test suite on those GPUs (MULTI_TESTS=1, the default).
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
build-gpu/clreduce devices >>"$OUT/log.txt" 2>&1
if [ -n "${BEFORE:-}" ]; then
  echo "before: $BEFORE ($(cat "$BEFORE/.commit" 2>/dev/null || echo 'commit not recorded'))" >>"$OUT/log.txt"
  (cd "$BEFORE" && cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null &&
     cmake --build build-gpu -j"${JOBS:-16}" --target clreduce 2>&1 | grep -E "error:" || true) >>"$OUT/log.txt" 2>&1
  echo "built both at ${SECONDS}s" >>"$OUT/log.txt"
fi
if [ -n "${MULTI:-}" ]; then
  gpus=$(nvidia-smi -L | wc -l)
  if [ "${MULTI_TESTS:-1}" = 1 ]; then
    # The suite's CPU setting (POCL_DEVICES, CLREDUCE_DEVICE=pthread) is for PoCL: here the GPUs.
    (cd build-gpu && CLREDUCE_TEST_DEVICES=$gpus timeout 300 tests/clreduce_tests --test-suite=multi_device) \
      >"$OUT/multi_device_tests.txt" 2>&1
    echo "multi_device suite on $gpus GPUs: exit $? ($(tail -2 "$OUT/multi_device_tests.txt" | head -1))" >>"$OUT/log.txt"
  fi
  for c in $MULTI; do
    op=${c%%:*} t=${c#*:}
    case $t in u8|i8) es=1;; u16|i16|f16|bf16) es=2;; u32|i32|f32) es=4;; *) es=8;; esac
    for path in resident host; do
      flag=; [ $path = resident ] && flag=--resident
      timeout 200 build-gpu/clreduce bench multi --op "$op" --type "$t" --n $(( ${BYTES:-$((1 << 28))} / es )) \
        --split even $flag --iterations 10 --format json >"$OUT/multi_${op}_${t}_${path}.json" 2>&1
      echo "bench multi $op $t $path: exit $?" >>"$OUT/log.txt"
    done
  done
fi
if [ "${TESTS:-1}" = 1 ]; then
  tests="^(unit|descriptor_full|api)$"
  [ -n "${AXIS_SHAPES:-}" ] && tests="^(unit|descriptor_families_full_[0-3]|api)$"
  (cd build-gpu && timeout ${TEST_TIMEOUT:-420} ctest -j4 -R "$tests" --output-on-failure) >"$OUT/ctest.txt" 2>&1
  echo "ctest exit $?" >>"$OUT/ctest.txt"
  tail -5 "$OUT/ctest.txt"
fi
if [ -n "${AXIS_SHAPES:-}" ]; then
  acsv="$OUT/axis.csv"
  IFS='|' read -r -a launches <<<"${AXIS_LAUNCHES:-}"
  launches=("" "${launches[@]}")
  for shape in $AXIS_SHAPES; do
    for axis in ${AXIS_AXES:-rows cols}; do
      for t in ${AXIS_TYPES:-f32 f16}; do
        for op in ${AXIS_OPS:-sum argmax var_pop dot}; do
          for args in "${launches[@]}"; do
            # shellcheck disable=SC2086  # the launch options are words
            line=$(timeout 120 build-gpu/clreduce reduce --op "$op" --type "$t" --axis $axis --shape "$shape" $args --iterations 20 --format csv 2>&1)
            rc=$?
            [ -f "$acsv" ] || echo "shape,axis,args,$(head -1 <<<"$line")" >"$acsv"
            if [ $rc -le 1 ] && [ "$(wc -l <<<"$line")" -ge 2 ]; then echo "$shape,$axis,${args:-default},$(tail -1 <<<"$line")" >>"$acsv"; else echo "$shape,$axis,${args:-default},$op,$t,ERROR rc=$rc: $(tr '\n' ' ' <<<"$line" | cut -c1-300)" >>"$acsv"; fi
          done
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
OPS=${OPS:-"sum sum_wrap min max argmin argmax minmax mean nanmean var_pop var_sample std_pop std_sample count_nonzero any all nansum nanmin nanmax l1 l2 linf sumsq dot sqdist"}
TYPES=${TYPES:-"f32 f16 bf16 u32 i8 f64"}
BYTES=${BYTES:-$((1 << 28))}
size() { case $1 in u8|i8) echo 1;; u16|i16|f16|bf16) echo 2;; u32|i32|f32) echo 4;; *) echo 8;; esac; }
csv="$OUT/descriptors.csv"
# One row of `reduce` by the binary $1 into the CSV $2.
row() {
  local bin=$1 out=$2 op=$3 t=$4 n=$5 line rc
  line=$(timeout 120 "$bin" reduce --op "$op" --type "$t" --n "$n" --iterations 20 --format csv 2>&1)
  rc=$?
  [ -f "$out" ] || head -1 <<<"$line" >"$out"
  if [ $rc -le 1 ] && [ "$(wc -l <<<"$line")" -ge 2 ]; then tail -1 <<<"$line" >>"$out"; else echo "$op,$t,$n,ERROR rc=$rc: $(tr '\n' ' ' <<<"$line" | cut -c1-300)" >>"$out"; fi
}
for t in $TYPES; do
  n=$((BYTES / $(size "$t")))
  for op in $OPS; do
    [ -n "${BEFORE:-}" ] && row "$BEFORE/build-gpu/clreduce" "$OUT/descriptors_before.csv" "$op" "$t" "$n"
    row build-gpu/clreduce "$csv" "$op" "$t" "$n"
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
# CUB's DeviceReduce at the same bytes (bench/cub_descriptor_peers.cu: Sum, Min, Max, ArgMax, ArgMin,
# and TransformReduce for the f16 sum into float, sumsq and l1), against CCCL 3.1 from CuPy.
[ "${PEERS:-1}" = 1 ] && cub_descriptor_peers "$BYTES" >"$OUT/cub.csv" 2>&1
echo "done at ${SECONDS}s" >>"$OUT/log.txt"
cut -d, -f1,2,7,14,16,18 "$csv" | head -80
