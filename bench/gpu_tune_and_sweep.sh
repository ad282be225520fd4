#!/usr/bin/env bash
# Tuning and the design-space sweep on the lent GPU, in two calls (each under the 10-minute limit of one call):
#   OUT=/path bash bench/gpu_tune_and_sweep.sh tune      build, tests, `clreduce tune` (default sizes and
#                                                 grid, every variant) into $OUT/tuning.json
#   OUT=/path DB=/path/tuning.json bash bench/gpu_tune_and_sweep.sh explore
#                                                 tune float sum into a copy of DB (TUNE_FLOAT=0: not), the full sweep at 2^26 (CSV, JSON, heat maps),
#                                                 bench with and without the tuned parameters
#                                                 (chart), and the scaling run 2^10..2^30 (chart)
# Files land under $OUT; the console gets a summary. Only 8 files come back per call, so the
# outputs are packed into $OUT/explore.tar.gz besides the summaries.
set -uo pipefail
stage=${1:?tune or explore}
OUT=${OUT:-bench/out}
mkdir -p "$OUT/files"
f="$OUT/files"
log="$f/log.txt"
cli=build-gpu/clreduce
source bench/gpu_build.sh
{ gpu_build; } >"$log" 2>&1
source .gpu/env.sh >/dev/null 2>&1
case $stage in
tune)
  (cd build-gpu && ctest -j4 -LE "full|soak|install" 2>&1 | tail -20) >"$f/ctest.txt" 2>&1
  echo "ctest done at ${SECONDS}s" >>"$log"
  $cli tune --db "$f/tuning.json" --iterations 5 --quiet --output-json "$f/tune.json" \
    --output-csv "$f/tune.csv" >"$f/tune.txt" 2>&1
  echo "tune exit $? at ${SECONDS}s" >>"$log"
  cp "$f/tuning.json" "$OUT/tuning.json" 2>/dev/null
  cat "$f/ctest.txt" "$f/tune.txt" "$log" >"$OUT/summary.txt"
  ;;
explore)
  # The database of the tune call, plus a float sum entry tuned here.
  cp "${DB:?DB=path of the tuning database}" "$f/tuning.json"
  db="$f/tuning.json"
  if [ "${TUNE_FLOAT:-1}" = 1 ]; then
    $cli tune --type float --db "$db" --iterations 5 --quiet --output-csv "$f/tune_float.csv" \
      >"$f/tune_float.txt" 2>&1
    echo "tune float exit $? at ${SECONDS}s" >>"$log"
  fi
  $cli sweep --n 2^26 --iterations 5 --quiet --output-csv "$f/sweep_2p26.csv" \
    --output-json "$f/sweep_2p26.json" --chart "$f/sweep_vector_wg_times.svg" --chart-variant vector \
    --chart-x wg --chart-y times >"$f/sweep_2p26.txt" 2>&1
  echo "sweep exit $? at ${SECONDS}s" >>"$log"
  $cli sweep --n 2^26 --variants single_pass --vec 4 --iterations 5 --quiet \
    --chart "$f/sweep_single_pass_wg_gpc.svg" --chart-x wg --chart-y groups-per-cu \
    --output-csv "$f/sweep_single_pass_2p26.csv" >"$f/sweep_single_pass_2p26.txt" 2>&1
  echo "sweep single_pass exit $? at ${SECONDS}s" >>"$log"
  $cli bench --iterations 20 --db "$db" --chart "$f/bench_tuned.svg" --output-json "$f/bench_tuned.json" \
    >"$f/bench_tuned.txt" 2>&1
  echo "bench tuned exit $? at ${SECONDS}s" >>"$log"
  $cli bench --iterations 20 --no-tuning --chart "$f/bench_defaults.svg" \
    --output-json "$f/bench_defaults.json" >"$f/bench_defaults.txt" 2>&1
  echo "bench defaults exit $? at ${SECONDS}s" >>"$log"
  $cli bench --sizes 1Ki..1Gi:4 --variants naive,divergence_free,stride_local,vector,single_pass \
    --iterations 5 --db "$db" --chart "$f/scaling.svg" --output-json "$f/scaling.json" \
    --output-csv "$f/scaling.csv" >"$f/scaling.txt" 2>&1
  echo "scaling exit $? at ${SECONDS}s" >>"$log"
  {
    cat "$log" "$f/tune_float.txt" 2>/dev/null
    grep -A40 "^best point per variant" "$f/sweep_2p26.txt"
    grep -A20 "^best point per variant" "$f/sweep_single_pass_2p26.txt"
    cat "$f/bench_tuned.txt" "$f/bench_defaults.txt"
    grep -E "^n = |^best " "$f/scaling.txt"
  } >"$OUT/summary.txt"
  ;;
esac
tar -czf "$OUT/explore_$stage.tar.gz" -C "$f" .
cat "$OUT/summary.txt"
