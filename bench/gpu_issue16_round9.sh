#!/usr/bin/env bash
# Issue 16, ninth round on the lent GPU (written 2026-11-26, not run yet): the two variants made for
# the 1048576x32 shape, which the rules leave under 90% of the read peak (rows 87%, columns 79-84%
# in the 2026-11-25 evidence call). rows_vector (one work-item per row, 16-byte loads, no tree)
# against the default rows_sliced, and cols_stream (the matrix streamed as one array, each
# work-item's lanes keeping their columns) against the default cols_tile, over the short-row and
# thin-column shapes, sum, min, argmax and argmin, with their work-group and group counts; the
# sliced segmented kernel against segments_group on many short segments; then
# the read peak of the same bytes (bench axis's stream) for the ratio. First the axis suites on
# the GPU (both variants in the matrix). One line per run in sweep.txt (median of 10 back-to-back
# samples, every run verified against the host).
#   OUT=/path bash bench/gpu_issue16_round9.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float argmax" "int argmin"; do
  set -- $to
  for shape in 1048576x32 2097152x16 524288x64 262144x128; do
    sweep_run "$1 $2 $shape rows default" --axis rows --shape $shape --type $1 --op $2
    sweep_run "$1 $2 $shape rows rows_vector" --axis rows --shape $shape --type $1 --op $2 --variant rows_vector
    sweep_run "$1 $2 $shape cols default" --axis cols --shape $shape --type $1 --op $2
    sweep_run "$1 $2 $shape cols cols_stream" --axis cols --shape $shape --type $1 --op $2 --variant cols_stream
  done
done
for wg in 64 128 512; do
  sweep_run "float sum 1048576x32 rows rows_vector wg $wg" --axis rows --shape 1048576x32 --type float --variant rows_vector --wg $wg
  sweep_run "float sum 1048576x32 cols cols_stream wg $wg" --axis cols --shape 1048576x32 --type float --variant cols_stream --wg $wg
done
# cols_stream's groups: 1, 2, 4 (its default), 8, 16 per compute unit of the H100's 132.
for g in 132 264 528 1056 2112; do
  sweep_run "float sum 1048576x32 cols cols_stream groups $g" --axis cols --shape 1048576x32 --type float --variant cols_stream --chunks $g
done
# Many short segments: 100000 segments of 671 floats (2^26 elements, the 2026-11-25 layout that
# ran at 1674 GB/s by segments_group), by segments_group and by segments_sliced at 8, 16 and 32
# work-items per segment.
python3 -c "print(' '.join(str(671 * i) for i in range(100001)))" >"$R/seg100k.txt"
sweep_run "float sum 100000x671 segments group" --segments "$R/seg100k.txt" --type float
for w in 8 16 32; do
  sweep_run "float sum 100000x671 segments sliced $w" --segments "$R/seg100k.txt" --type float --row-width $w
done
rm -f "$R/seg100k.txt"
# The same bytes as one array (the whole-array family's best) and bench axis's table at the shape.
timeout 120 build-gpu/clreduce bench axis --shapes 1048576x32 --type float >"$R/bench_axis.txt" 2>&1
echo "bench axis exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
