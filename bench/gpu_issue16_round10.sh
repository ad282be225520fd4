#!/usr/bin/env bash
# Issue 16, tenth round on the lent GPU (written 2026-11-26 after round 9): rows_warp (a row's
# lanes in one warp, consecutive 16-byte loads, ITEMS rows per trip, folded by shfl.sync) against
# the rules' rows_sliced and round 9's rows_vector and round 8's rows_tile, over the narrow and short
# row shapes, sum, min, argmax and argmin; its ITEMS and work-group at 1048576x32; cols_stream's
# ITEMS and group counts around round 9's best (528); and the segment lengths at which
# segments_sliced beats segments_group (round 9 measured 671 only). First the axis suites on the
# GPU (rows_warp's PTX shuffle in every type x operator x shape). One line per run in sweep.txt
# (median of 10 back-to-back samples, every run verified against the host).
#   OUT=/path bash bench/gpu_issue16_round10.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint min" "float argmax" "int argmin"; do
  set -- $to
  for shape in 1048576x32 2097152x16 524288x64 262144x128 65536x1024; do
    sweep_run "$1 $2 $shape rows default" --axis rows --shape $shape --type $1 --op $2
    sweep_run "$1 $2 $shape rows rows_warp" --axis rows --shape $shape --type $1 --op $2 --variant rows_warp
  done
  for shape in 1048576x32 524288x64; do
    sweep_run "$1 $2 $shape rows rows_tile" --axis rows --shape $shape --type $1 --op $2 --variant rows_tile
  done
done
sweep_run "float max 1048576x32 rows rows_warp" --axis rows --shape 1048576x32 --type float --op max --variant rows_warp
sweep_run "uint sum 1048576x32 rows rows_warp" --axis rows --shape 1048576x32 --type uint --variant rows_warp
for it in 1 2 8; do
  sweep_run "float sum 1048576x32 rows rows_warp ITEMS $it" --axis rows --shape 1048576x32 --type float --variant rows_warp -D ITEMS=$it
  sweep_run "float argmax 1048576x32 rows rows_warp ITEMS $it" --axis rows --shape 1048576x32 --type float --op argmax --variant rows_warp -D ITEMS=$it
done
for wg in 64 128; do
  sweep_run "float sum 1048576x32 rows rows_warp wg $wg" --axis rows --shape 1048576x32 --type float --variant rows_warp --wg $wg
done
for w in 4 16 32; do
  sweep_run "float sum 1048576x32 rows rows_warp width $w" --axis rows --shape 1048576x32 --type float --variant rows_warp --row-width $w
done
# cols_stream around round 9's best (528 groups = 4 per compute unit, ITEMS 4).
for it in 2 8; do
  sweep_run "float sum 1048576x32 cols cols_stream ITEMS $it" --axis cols --shape 1048576x32 --type float --variant cols_stream -D ITEMS=$it
  sweep_run "float argmax 1048576x32 cols cols_stream ITEMS $it" --axis cols --shape 1048576x32 --type float --op argmax --variant cols_stream -D ITEMS=$it
done
for g in 396 660 792; do
  sweep_run "float sum 1048576x32 cols cols_stream groups $g" --axis cols --shape 1048576x32 --type float --variant cols_stream --chunks $g
done
sweep_run "float sum 1048576x32 cols cols_stream wg 128 groups 1056" --axis cols --shape 1048576x32 --type float --variant cols_stream --wg 128 --chunks 1056
# Segments of one length L (2^26 floats in 2^26 / L segments): segments_group against
# segments_sliced at slices 4 to 32.
for L in 32 128 512 2048 8192; do
  python3 -c "import sys; L=$L; S=(1<<26)//L; sys.stdout.write(' '.join(str(L * i) for i in range(S + 1)))" >"$R/seg.txt"
  sweep_run "float sum segments length $L group" --segments "$R/seg.txt" --type float
  for w in 4 8 16 32; do
    [ "$w" -le "$L" ] && sweep_run "float sum segments length $L sliced $w" --segments "$R/seg.txt" --type float --row-width $w
  done
done
sweep_run "int argmin segments length 8192 group" --segments "$R/seg.txt" --type int --op argmin
rm -f "$R/seg.txt"
gpu_end
