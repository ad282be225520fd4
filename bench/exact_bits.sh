#!/usr/bin/env bash
# The same exact results on every device and split, shown by their bits: each exact built-in
# (sum, mean, dot, l2) of each type (f16, bf16, f32, f64) over one generated input, reduced
#   - on each device named in DEVICES (`clreduce --platform P --device D`, e.g. "0:0 1:0": a GPU
#     and the same host's PoCL CPU), one launch;
#   - by `bench multi` over the devices of MULTI (e.g. "0,1": two GPUs of one platform), 1 and 2
#     devices in chunks;
#   - by `clreduce-mpi` (CLREDUCE_MPI, default beside CLREDUCE) under `mpirun` with 1, 2 and 3
#     ranks (RANKS=0: not; RANKS=1 with no such binary or no mpirun: said, and a failure). Its
#     ranks generate their shards by a counter-based generator (element i from the seed and i
#     alone), not the single process's sequence: another input, so its runs are compared among
#     themselves ("ranks" in the summary).
# One line per run: what ran, the built-in, the type, the result and its bits in hex; then one
# line per built-in and type saying whether every run gave the same bits. Exits 1 where they
# differ, where a run gave no exact result, or where a built-in and type ran only once (nothing
# compared). Runs anywhere clreduce runs (PoCL alone: DEVICES="0:0" with MULTI or MPI ranks).
#   [CLREDUCE=build/clreduce] [CLREDUCE_MPI=...] [DEVICES="0:0"] [MULTI=""] [N=1000003] [SEED=7]
#   [RANKS=1] [OPS="sum mean dot l2"] [TYPES="f16 bf16 f32 f64"] bash bench/exact_bits.sh
set -uo pipefail
A=${CLREDUCE:-build/clreduce}
MPI_BIN=${CLREDUCE_MPI:-$(dirname "$A")/clreduce-mpi}
DEVICES=${DEVICES:-0:0}
MULTI=${MULTI:-}
N=${N:-1000003}
SEED=${SEED:-7}
RANKS=${RANKS:-1}
OPS=${OPS:-sum mean dot l2}
TYPES=${TYPES:-f16 bf16 f32 f64}
declare -A bits
status=0
line() {  # what op type output: the "... bit for bit: VALUE (0xBITS)" the run printed
  local what=$1 op=$2 type=$3 out=$4 hex
  hex=$(grep -o "exact, bit for bit: [^ ]* (0x[0-9a-f]*)" <<<"$out" | head -1 | sed 's/exact, bit for bit: //')
  if [ -z "$hex" ]; then
    local why
    why=$(grep -m1 -iE "error|refused|check" <<<"$out" || true)
    [ -n "$why" ] || why=$(head -1 <<<"$out")
    echo "$what $op $type: no exact result (${why:-no output})"
    status=1
    return
  fi
  echo "$what $op $type: $hex"
  local key="$op $type"
  bits[$key]="${bits[$key]:-}|$hex"
}
for type in $TYPES; do
  for op in $OPS; do
    common=(--exact --op "$op" --type "$type" --n "$N" --seed "$SEED")
    for pd in $DEVICES; do
      out=$("$A" --platform "${pd%%:*}" --device "${pd##*:}" reduce "${common[@]}" --iterations 1 2>&1)
      line "device $pd" "$op" "$type" "$out"
    done
    if [ -n "$MULTI" ]; then
      out=$("$A" bench multi "${common[@]}" --devices "$MULTI" --iterations 1 2>&1)
      rc=$?
      counts=$(grep -cE "^[0-9]+ devices?: " <<<"$out")
      if [ $rc -ne 0 ] || [ "$counts" -eq 0 ]; then
        line "multi $MULTI" "$op" "$type" "$out"  # says why: no exact result
        [ $rc -ne 0 ] && status=1
      fi
      while read -r l; do line "multi ${l%%:*}" "$op" "$type" "$l"; done < <(grep -E "^[0-9]+ devices?: " <<<"$out")
    fi
    if [ "$RANKS" = 1 ] && { [ ! -x "$MPI_BIN" ] || ! command -v mpirun >/dev/null; }; then
      echo "mpi $op $type: not run: no $MPI_BIN or no mpirun (RANKS=0 leaves MPI out)"
      status=1
    elif [ "$RANKS" = 1 ]; then
      for np in 1 2 3; do
        out=$(mpirun --oversubscribe --allow-run-as-root --mca btl self,vader -np $np "$MPI_BIN" "${common[@]}" \
          --iterations 1 2>&1)
        hex=$(sed -n 's/^clreduce-mpi: .* exact = \(.*\)$/\1/p' <<<"$out" | head -1)
        if [ -n "$hex" ] && grep -q "^check: exact, bit for bit" <<<"$out"; then
          echo "mpi -np $np $op $type: $hex"
          bits["$op $type, ranks"]="${bits["$op $type, ranks"]:-}|$hex"
        else
          echo "mpi -np $np $op $type: no exact result"
          status=1
        fi
      done
    fi
  done
done
summary=()
for key in "${!bits[@]}"; do
  distinct=$(tr '|' '\n' <<<"${bits[$key]}" | sed '/^$/d' | sort -u | wc -l)
  runs=$(tr '|' '\n' <<<"${bits[$key]}" | sed '/^$/d' | wc -l)
  if [ "$runs" -lt 2 ]; then
    summary+=("ONE RUN ONLY: $key (nothing compared)")
    status=1
  elif [ "$distinct" = 1 ]; then
    summary+=("same bits: $key ($runs runs)")
  else
    summary+=("DIFFERENT bits: $key ($runs runs, $distinct values)")
    status=1
  fi
done
[ ${#summary[@]} -gt 0 ] && printf '%s\n' "${summary[@]}" | sort
exit $status
