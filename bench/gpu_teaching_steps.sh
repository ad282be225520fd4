#!/usr/bin/env bash
# The teaching steps (issue 15) on the lent GPU, after `bench/gpu_compare_builds.sh` has built the
# working tree in build-gpu/: `clreduce explain --run` for every neighbouring pair of both
# families (the reductions at n = 2^26 uint sum, the transposes at 8192x8192 float), and the PTX
# the driver made of the first pass of the first six reduction steps (`explain --binary`), so the
# documents can show what each step changed in the machine code.
#   OUT=/path bash bench/gpu_teaching_steps.sh
# Writes explain_<variant>.txt, transpose_<variant>.txt and ptx_<variant>.ptx into one archive,
# $OUT/teaching_steps.tar.gz (the device tool returns at most 8 files a call).
set -uo pipefail
FINAL=${OUT:-bench/out}
OUT=$(mktemp -d)
mkdir -p "$FINAL"
source .gpu/env.sh >/dev/null 2>&1
cli=build-gpu/clreduce
for v in naive interleaved divergence_free first_add last_wavefront_unroll complete_unroll stride_global \
         stride_local vector warp_shuffle subgroup contiguous_blocks single_pass; do
  "$cli" explain "$v" --run --n 2^26 --iterations 20 --warmup 3 >"$OUT/explain_$v.txt" 2>&1
  echo "explain $v exit $? at ${SECONDS}s"
done
for v in naive naive_write_coalesced local_tile local_tile_padded local_tile_multi register_tile2 register_tile4; do
  "$cli" explain transpose "$v" --run --shape 8192x8192 --iterations 20 --warmup 3 >"$OUT/transpose_$v.txt" 2>&1
  echo "explain transpose $v exit $? at ${SECONDS}s"
done
for v in naive interleaved divergence_free first_add last_wavefront_unroll complete_unroll; do
  "$cli" explain "$v" --n 2^26 --binary "$OUT/ptx_$v.ptx" >/dev/null 2>&1
  echo "ptx $v exit $? ($(wc -c <"$OUT/ptx_$v.ptx" 2>/dev/null) bytes)"
done
tar -C "$OUT" -czf "$FINAL/teaching_steps.tar.gz" . && echo "archived $(ls "$OUT" | wc -l) files in $FINAL/teaching_steps.tar.gz"
