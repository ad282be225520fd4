#!/usr/bin/env bash
# Issue 16, fifth round on the lent GPU: ITEMS 1, 2, 4 for argmin/argmax after the evidence call
# showed int argmin over rows at 60-70% of the read peak with ITEMS 1 (float argmax at 93%).
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round5.sh   (everything in $OUT/all.tgz)
set -uo pipefail
OUT=${OUT:-bench/out}
R=$OUT/r
mkdir -p "$R"
source bench/gpu_build.sh
gpu_build >"$R/log.txt" 2>&1
echo "built at ${SECONDS}s" >>"$R/log.txt"
C=build-gpu/clreduce
S=$R/sweep.txt
echo "label | launch | median µs (b2b) | bandwidth | check" >"$S"
run() {  # label, then clreduce reduce arguments
  local label=$1
  shift
  local t
  t=$(timeout 60 $C reduce --iterations 10 "$@" 2>&1)
  echo "$label | $(grep -m1 '^launch' <<<"$t" | cut -c12-) | $(grep -m1 '^time' <<<"$t" | sed 's/.*median \([0-9.]*\) µs.*/\1/') | $(grep -m1 '^bandwidth' <<<"$t" | cut -c12- | cut -d' ' -f1-2) | $(grep -m1 '^check' <<<"$t" | cut -c12-40)$(grep -m1 -i 'error' <<<"$t")" >>"$S"
}
for to in "int argmin" "uint argmin" "float argmax" "float argmin"; do
  set -- $to
  for sa in 8192x8192:rows 65536x1024:rows 4096x4096:rows 8192x8192:cols 1048576x32:rows; do
    for items in 1 2 4; do
      run "$1 $2 ${sa%:*} ${sa#*:} ITEMS $items" --axis ${sa#*:} --shape ${sa%:*} --type $1 --op $2 -D ITEMS=$items
    done
  done
done
run "float sum 1048576x32 rows rows_sliced w4 ITEMS 8" --axis rows --shape 1048576x32 --type float --row-width 4 -D ITEMS=8
run "float sum 1048576x32 rows rows_sliced w2 ITEMS 8" --axis rows --shape 1048576x32 --type float --variant rows_sliced --row-width 2 -D ITEMS=8
echo "done at ${SECONDS}s" >>"$R/log.txt"
tar czf "$OUT/all.tgz" -C "$OUT" r && rm -rf "$R"
