#!/usr/bin/env bash
# Warm against cold caches and `compare` on the lent GPU: `bench --sizes 2^20..2^30:4` warm and cold in one call
# (the difference around the L2 size), and `compare` of two back-to-back runs of the same build
# (expect no significant difference) and of a run with a deliberately slower kernel by -D
# (ELEM_MAP divides every element by a value the compiler cannot fold to 1: the same sums, more
# work per element; expect a significant slowdown). Outputs under $OUT. Two parts, each well
# under ten minutes; the first builds:
#   OUT=/path bash bench/gpu_cache_states_and_compare.sh sizes
#   OUT=/path bash bench/gpu_cache_states_and_compare.sh compare
set -uo pipefail
OUT=${OUT:-bench/out}
part=${1:-all}
mkdir -p "$OUT"
log="$OUT/log_$part.txt"
cli=build-gpu/clreduce
source bench/gpu_build.sh
{
  gpu_build
} >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
slow='ELEM_MAP(x)=((x)/(uint)(1+(get_num_groups(0)>>40)))'
if [ "$part" = sizes ] || [ "$part" = all ]; then
  $cli bench --sizes 2^20..2^30:4 --cache warm,cold --estimate >>"$log" 2>&1
  $cli bench --sizes 2^20..2^30:4 --cache warm,cold --quiet \
    --output-json "$OUT/sizes_warm_cold.json" --output-csv "$OUT/sizes_warm_cold.csv" >"$OUT/sizes_warm_cold.txt" 2>&1
  echo "sizes warm,cold exit $? at ${SECONDS}s" >>"$log"
  $cli report "$OUT/sizes_warm_cold.json" >"$OUT/sizes_warm_cold_report.txt" 2>&1
  echo "report exit $? (identical to the run's table: $(cmp -s "$OUT/sizes_warm_cold.txt" "$OUT/sizes_warm_cold_report.txt" && echo yes || echo no))" >>"$log"
fi
if [ "$part" = compare ] || [ "$part" = all ]; then
  for run in a b; do
    $cli bench --quiet --output-json "$OUT/bench_$run.json" >"$OUT/bench_$run.txt" 2>&1
    echo "bench $run exit $? at ${SECONDS}s" >>"$log"
  done
  $cli bench --quiet -D "$slow" --output-json "$OUT/bench_slow.json" >"$OUT/bench_slow.txt" 2>&1
  echo "bench slow exit $? at ${SECONDS}s" >>"$log"
  $cli compare "$OUT/bench_a.json" "$OUT/bench_b.json" --fail-on-regression 5 >"$OUT/compare_same.txt" 2>&1
  echo "compare a b exit $? (expect 0)" >>"$log"
  $cli compare "$OUT/bench_a.json" "$OUT/bench_slow.json" --fail-on-regression 5 >"$OUT/compare_slow.txt" 2>&1
  echo "compare a slow exit $? (expect 1)" >>"$log"
  $cli compare "$OUT/bench_a.json" "$OUT/bench_slow.json" --format json >"$OUT/compare_slow.json" 2>&1
  $cli bench --variants vector,single_pass --max-noise 0.5 --max-time 5 --quiet >"$OUT/noise.txt" 2>&1
  echo "noise exit $? at ${SECONDS}s" >>"$log"
fi
cat "$log"
