#!/usr/bin/env bash
# Issue 16, round 24 (2026-11-26): long rows by rows_split's two launches with short parts.
# evidence6 left torch's kernel 1-2% ahead over 1024x65536 rows (rows_group 93.5-94.2 µs against
# 92.1-93.1); rows_split at 16 parts (4096 elements each) measured 91.4-91.9 there (rounds 20,
# 23). rows_group falls off the peak as rows grow (8192x8192 88.8, 4096x16384 90.7, 2048x32768
# 91.6, 1024x65536 93, 256x262144 101.5): fewer, longer streams at once. Prediction: parts of
# 2048-8192 elements, second launch included, read every 256 MiB shape with rows of 16384 or more
# at 91-92 µs (the peak plus the second launch's 2-3 µs), so they win from 32768-element rows
# on and lose at 16384 and below. Every launch checked against the host.
#   OUT=/path bash bench/gpu_issue16_round24.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for shape in 1024x65536 2048x32768 4096x16384 512x131072 256x262144 16384x16384 8192x8192; do
    S="--axis rows --shape $shape --type float --op sum"
    sweep_run "r$round $shape default" $S
    n=${shape#*x}
    for len in 2048 4096 8192 16384; do
      c=$((n / len))
      [ $c -ge 2 ] && sweep_run "r$round $shape rows_split $c ($len each)" $S --variant rows_split --chunks $c
    done
  done
done
for to in "uint min" "float max" "uint sum" "float argmax" "int argmin"; do
  S="--axis rows --shape 1024x65536 --type ${to% *} --op ${to#* }"
  sweep_run "$to 1024x65536 default" $S
  for c in 8 16 32; do sweep_run "$to 1024x65536 rows_split $c" $S --variant rows_split --chunks $c; done
done
gpu_end
