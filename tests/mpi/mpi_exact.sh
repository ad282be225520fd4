#!/usr/bin/env bash
# clreduce-mpi --exact: the ranks' exact accumulators folded at rank 0 give the same bits for 1, 2
# and 3 ranks (each rank on the devices ctest gives it: two PoCL devices), for every type and
# exact built-in, every chunk size, and the bits the root's reference (each rank's exact rational
# sum, merged) expects. A covering list: every type, every built-in, each data kind and
# --accumulate f64, chunks of 1000 beside the default; MPI_EXACT_FULL=1 runs every type x built-in.
# Then the refusals, each one line before any work.
# Usage: mpi_exact.sh N MPIEXEC NUMPROC_FLAG CLREDUCE_MPI [mpiexec flags...]
set -uo pipefail
n=$1 mpiexec=$2 npflag=$3 prog=$4
shift 4
flags=("$@")
cases=(
  "f32 sum random"        "f16 mean random 1000" "bf16 dot random"      "f64 sumsq random 1000"
  "f32 l2 random 1000"    "f64 dot random"       "f32 sum max"          "bf16 sum iota 1000"
  "f16 sumsq ones"        "f32 dot random 1000 f64" "f64 mean random"   "bf16 l2 random"
)
if [ "${MPI_EXACT_FULL:-0}" = 1 ]; then
  cases=()
  for t in f16 bf16 f32 f64; do for op in sum mean dot sumsq l2; do for c in "" 1000; do
    cases+=("$t $op random $c")
  done; done; done
fi
status=0
for c in "${cases[@]}"; do
  read -r type op data chunk acc <<<"$c"
  args=(--exact --n "$n" --type "$type" --op "$op" --data "$data" --iterations 1)
  [ -n "${chunk:-}" ] && args+=(--chunk-elements "$chunk")
  [ -n "${acc:-}" ] && args+=(--accumulate "$acc")
  bits=()
  for np in 1 2 3; do
    out=$(timeout 120 "$mpiexec" "$npflag" "$np" "${flags[@]}" "$prog" "${args[@]}" 2>&1)
    rc=$?
    if [ "$type" = f64 ] || [ -n "${acc:-}" ]; then
      if [ $rc -ne 0 ] && grep -q "needs cl_khr_fp64" <<<"$out"; then echo "np $np $c: skipped (no fp64)"; continue; fi
    fi
    hex=$(sed -n 's/^clreduce-mpi: .* exact = .* (\(0x[0-9a-f]*\))$/\1/p' <<<"$out")
    if [ $rc -ne 0 ] || ! grep -q "^check: exact, bit for bit" <<<"$out" || [ -z "$hex" ]; then
      echo "FAILED: np $np $c (exit $rc)"; echo "$out"; status=1; continue
    fi
    bits+=("$hex")
    echo "np $np $c: $hex"
  done
  if [ ${#bits[@]} -gt 1 ] && [ "$(printf '%s\n' "${bits[@]}" | sort -u | wc -l)" -ne 1 ]; then
    echo "FAILED: $c: the rank counts gave different bits: ${bits[*]}"; status=1
  fi
done

# refused RC_NOTE LINE ARGS...: one rank, refused before any work with LINE in its output.
refused() {
  local line=$1
  shift
  local out rc
  out=$(timeout 60 "$mpiexec" "$npflag" 1 "${flags[@]}" "$prog" --n 1000 "$@" 2>&1)
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -qF -- "$line" <<<"$out"; then
    echo "FAILED: $* was not refused with: $line"; echo "$out"; status=1
  else
    echo "refused ($*): $(grep -F -- "$line" <<<"$out" | head -1)"
  fi
}
refused "--op mean runs across ranks with --exact only" --op mean
refused "valid: f16, bf16, f32, f64" --exact --type i32
refused "--accumulate is for --exact" --accumulate f64
refused "--chunk-elements must be at least 1" --chunk-elements 0
refused "unknown data kind 'zero'" --data zero
exit $status
