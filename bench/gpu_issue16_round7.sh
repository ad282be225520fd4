#!/usr/bin/env bash
# Issue 16, seventh round on the lent GPU: FOLD_ONE_LOOP 0 and 1 (axis_fold.clh, ITEMS 1: two loops or one) after
# round 6: int argmin over rows at 66% of the read peak whatever the counter (95 µs by the loop before axis_fold.clh).
# One line per run in sweep.txt (median of 10 back-to-back samples, every run verified).
#   OUT=/path bash bench/gpu_issue16_round7.sh   (everything in $OUT/all.tgz)
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
for fu in 0 1; do
  for tos in "int argmin 8192x8192:rows" "int argmin 65536x1024:rows" "int argmin 4096x4096:rows" "int argmin 8192x8192:cols" \
    "int argmin 1048576x32:rows" "float argmax 8192x8192:rows" "float argmax 65536x1024:rows" "float argmax 4096x4096:rows" \
    "float argmax 8192x8192:cols" "int argmin 1024x65536:rows" "int argmin 32x1048576:rows" "uint argmin 8192x8192:rows" \
    "float argmax 1024x65536:rows" "int argmin 65536x1024:cols" "float argmin 8192x8192:rows"; do
    set -- $tos
    run "$1 $2 ${3%:*} ${3#*:} FOLD_ONE_LOOP $fu" --axis ${3#*:} --shape ${3%:*} --type $1 --op $2 -D FOLD_ONE_LOOP=$fu
  done
done
echo "done at ${SECONDS}s" >>"$R/log.txt"
tar czf "$OUT/all.tgz" -C "$OUT" r && rm -rf "$R"
