#!/usr/bin/env bash
# Issue 16, third round on the lent GPU: what is in the way of the four shape-axis pairs under 90%
# of the read peak, and of float argmax over rows. Sweeps, each one `clreduce reduce --axis` (10
# samples, the median of back-to-back runs): ITEMS (axis_fold.clh's loads in flight) 1, 2, 4, 8 at
# the losing shapes and two that won; cols_tile's chunks on the thin and the square matrix; the
# second pass alone (the partials' shapes); float argmax over rows by rows_group and by rows_sliced
# at widths 32..256. One line per run in sweep.txt; everything in $OUT/all.tgz.
#   OUT=/path bash bench/gpu_issue16_round3.sh
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for shape_axis in 1048576x32:rows 32x1048576:rows 4096x4096:cols 1048576x32:cols 8192x8192:rows 8192x8192:cols 65536x1024:rows; do
  shape=${shape_axis%:*} axis=${shape_axis#*:}
  for items in 1 2 4 8; do
    sweep_run "float sum $shape $axis ITEMS $items" --axis $axis --shape $shape --type float -D ITEMS=$items
  done
done
for w in 2 4 8 16; do sweep_run "float sum 1048576x32 rows rows_sliced w$w" --axis rows --shape 1048576x32 --type float --variant rows_sliced --row-width $w; done
for c in 128 256 512 1024 2048 4096; do sweep_run "float sum 1048576x32 cols chunks $c" --axis cols --shape 1048576x32 --type float --variant cols_tile --chunks $c; done
for c in 2 4 8 16 32; do sweep_run "float sum 4096x4096 cols chunks $c" --axis cols --shape 4096x4096 --type float --variant cols_tile --chunks $c; done
for c in 1 2 4 8 16 32 64; do sweep_run "float sum 32x1048576 rows chunks $c" --axis rows --shape 32x1048576 --type float --variant rows_split --chunks $c; done
# The second passes alone: the partials' shapes.
sweep_run "float sum 1024x32 cols 1 chunk" --axis cols --shape 1024x32 --type float --variant cols_tile --chunks 1
sweep_run "float sum 8x4096 cols 1 chunk" --axis cols --shape 8x4096 --type float --variant cols_tile --chunks 1
sweep_run "float sum 32x1024 rows sliced" --axis rows --shape 32x1024 --type float --variant rows_sliced
for shape in 8192x8192 65536x1024 1024x65536 4096x4096; do
  sweep_run "float argmax $shape rows rows_group" --axis rows --shape $shape --type float --op argmax --variant rows_group
  sweep_run "float argmax $shape rows rows_group ITEMS 1" --axis rows --shape $shape --type float --op argmax --variant rows_group -D ITEMS=1
  for w in 32 64 128 256; do
    sweep_run "float argmax $shape rows sliced w$w" --axis rows --shape $shape --type float --op argmax --variant rows_sliced --row-width $w
  done
done
gpu_end
