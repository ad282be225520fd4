#!/usr/bin/env bash
# Issue 16, sixteenth round (2026-11-26): round 15 put 3.6 µs of 1048576x32's columns in
# cols_stream_fused's finish (52.1 µs; 48.5 with the ticket but no finish) and found a two-level
# ticket slower. Here the finish taken apart (TEMPORARY FDIAG: 1 no loads, 2 plain loads instead
# of volatile, 3 no tree; timing only where the result is wrong) with the SASS of its loads, and
# cols_fused's tile (TEMPORARY CLREDUCE_TEMP_TILE) by chunk count at every shape where it is the
# default: groups of 256 work-items, 256, 512 and 1024 of them.
#   OUT=/path bash bench/gpu_issue16_round16.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
B=/usr/local/cuda/bin
build-gpu/clreduce explain axis cols_stream_fused --shape 1048576x32 --type float --binary "$R/csf.bin" >/dev/null 2>>"$R/log.txt"
tr -d '\000' <"$R/csf.bin" >"$R/csf.ptx" && rm -f "$R/csf.bin"
$B/ptxas -arch=sm_90 "$R/csf.ptx" -o "$R/csf.cubin" 2>>"$R/log.txt" && $B/cuobjdump -sass "$R/csf.cubin" >"$R/csf.sass" 2>>"$R/log.txt"
rm -f "$R/csf.cubin"
S="--axis cols --shape 1048576x32 --type float --op sum --variant cols_stream_fused"
sweep_run "csf base" $S
for f in 1 2 3; do sweep_run "csf FDIAG $f" $S -D FDIAG=$f; done
sweep_run "csf DIAG 3 (ticket, no finish)" $S -D DIAG=3
sweep_run "csf base (again)" $S
sweep() {  # shape tile chunks...
  local shape=$1 tile=$2
  shift 2
  for c in "$@"; do
    CLREDUCE_TEMP_TILE=$tile sweep_run "$shape cols_fused $tile chunks $c" --axis cols --shape $shape --type float --op sum --variant cols_fused --chunks $c
  done
}
sweep 4096x4096 32x8 2 4 8
sweep 4096x4096 64x4 4 8 16
sweep 4096x4096 128x2 8 16
sweep 8192x8192 32x8 1 2 4
sweep 8192x8192 64x4 2 4 8
sweep 8192x8192 128x2 4 8 16
sweep 16384x16384 32x8 1 2
sweep 16384x16384 64x4 1 2 4
sweep 16384x16384 128x2 2 4 8
sweep 65536x1024 32x8 8 16 32
sweep 65536x1024 64x4 16 32 64
sweep 65536x1024 128x2 32 64 128
sweep 1024x65536 32x8 1
sweep 1024x65536 64x4 1
sweep 1024x65536 128x2 1
sweep 4096x4096 32x8 8
sweep 4096x4096 128x2 8
gpu_end
