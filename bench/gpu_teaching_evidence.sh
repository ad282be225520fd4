#!/usr/bin/env bash
# The H100 run behind docs/reduction.md and docs/transpose.md (issue 15), in one device call:
#   1. the documents' tables: `bench` over every reduction variant at n = 2^26 uint sum and
#      `bench transpose` at 8192 x 8192 float, both as JSON (the documents render their tables
#      from these files; tests/test_docs.cpp holds them to it);
#   2. `explain --run` for every step of both families and the PTX of the first seven steps
#      (bench/gpu_teaching_steps.sh);
#   3. the two questions the documents answer from evidence, each by a changed kernel measured
#      beside the original in the same process (bench/experiments/):
#      - is interleaved slower than naive because of its bank conflicts? interleaved_padded.cl
#        (one padding word per 32) in place of interleaved.cl, and both at work-group sizes
#        32..256;
#      - is complete_unroll no faster than last_wavefront_unroll because the compiler unrolls the
#        loop already? last_wavefront_unroll_rolled.cl (#pragma unroll 1), with its PTX.
#   OUT=/path bash bench/gpu_teaching_evidence.sh
# $OUT gets log.txt, the two JSON files, evidence.txt and teaching_steps.tar.gz.
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
log=$OUT/log.txt
source bench/gpu_build.sh
gpu_build >"$log" 2>&1
echo "built at ${SECONDS}s" >>"$log"
cli=build-gpu/clreduce
ev=$OUT/evidence.txt
run() { echo "\$ clreduce $*" >>"$ev"; "$cli" "$@" >>"$ev" 2>&1; echo "exit $? at ${SECONDS}s: clreduce $*" >>"$log"; }

"$cli" bench --n 2^26 --type uint --op sum --iterations 20 --no-tuning --quiet \
  --output-json "$OUT/reduction_2p26_uint_sum.json" >"$OUT/reduction_2p26_uint_sum.txt" 2>&1
echo "bench exit $? at ${SECONDS}s" >>"$log"
"$cli" bench transpose --shapes 8192x8192 --type float --iterations 20 \
  --output-json "$OUT/transpose_8192x8192_float.json" >"$OUT/transpose_8192x8192_float.txt" 2>&1
echo "bench transpose exit $? at ${SECONDS}s" >>"$log"

kd=$(mktemp -d)
cp kernels_cl/* "$kd/"
cp bench/experiments/interleaved_padded.cl "$kd/interleaved.cl"
echo "== interleaved with one padding word per 32 (bench/experiments/interleaved_padded.cl) beside the original" >>"$ev"
run bench --n 2^26 --type uint --variants naive,interleaved --iterations 20 --no-tuning --quiet
run --kernel-dir "$kd" bench --n 2^26 --type uint --variants naive,interleaved --iterations 20 --no-tuning --quiet
for wg in 32 64 128 256; do
  run bench --n 2^26 --type uint --variants naive,interleaved,divergence_free --wg $wg --iterations 20 --no-tuning --quiet
  run --kernel-dir "$kd" bench --n 2^26 --type uint --variants interleaved --wg $wg --iterations 20 --no-tuning --quiet
done
cp kernels_cl/interleaved.cl "$kd/interleaved.cl"
cp bench/experiments/last_wavefront_unroll_rolled.cl "$kd/last_wavefront_unroll.cl"
echo "== last_wavefront_unroll with its tree loop kept rolled (bench/experiments/last_wavefront_unroll_rolled.cl)" >>"$ev"
run bench --n 2^26 --type uint --variants first_add,last_wavefront_unroll,complete_unroll --iterations 20 --no-tuning --quiet
run --kernel-dir "$kd" bench --n 2^26 --type uint --variants first_add,last_wavefront_unroll,complete_unroll --iterations 20 --no-tuning --quiet

ptx=$(mktemp -d)
for v in naive interleaved divergence_free first_add last_wavefront_unroll complete_unroll stride_global; do
  "$cli" explain "$v" --n 2^26 --binary "$ptx/$v.ptx" >/dev/null 2>&1
done
"$cli" --kernel-dir "$kd" explain last_wavefront_unroll --n 2^26 --binary "$ptx/last_wavefront_unroll_rolled.ptx" >/dev/null 2>&1
cp kernels_cl/last_wavefront_unroll.cl "$kd/"
cp bench/experiments/interleaved_padded.cl "$kd/interleaved.cl"
"$cli" --kernel-dir "$kd" explain interleaved --n 2^26 --binary "$ptx/interleaved_padded.ptx" >/dev/null 2>&1
{
  echo "== PTX of the first pass, counted (instructions: lines ending in ';' that are not declarations)"
  printf '%-30s %8s %8s %8s %8s %8s %8s\n' kernel bytes instr bar.sync ld.shared st.shared bra
  for f in "$ptx"/*.ptx; do
    printf '%-30s %8s %8s %8s %8s %8s %8s\n' "$(basename "$f" .ptx)" "$(wc -c <"$f")" \
      "$(grep -aE '^\s+[@a-z].*;\s*$' "$f" | grep -avcE '^\s+\.(reg|shared|local|param|global)')" \
      "$(grep -acE '\bbar\.sync|\bbarrier\.sync' "$f")" "$(grep -acE '\bld\.(volatile\.)?shared' "$f")" \
      "$(grep -acE '\bst\.(volatile\.)?shared' "$f")" "$(grep -acE '\bbra' "$f")"
  done
} >>"$ev"
OUT=$OUT bash bench/gpu_teaching_steps.sh >>"$log" 2>&1
tar -C "$ptx" -czf "$OUT/ptx.tar.gz" . && echo "ptx archived at ${SECONDS}s" >>"$log"
