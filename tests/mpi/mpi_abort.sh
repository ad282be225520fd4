#!/usr/bin/env bash
# A rank given a bad argument ends the whole job: rank 0 is given good arguments, rank 1 a bad
# --type, then a bad --kernel-timeout (MPMD syntax, so only one rank sees it). The job must end
# (within the timeout) with a non-zero exit code and the failing rank's one line.
# Usage: mpi_abort.sh MPIEXEC NUMPROC_FLAG CLREDUCE_MPI [mpiexec flags...]
set -uo pipefail
mpiexec=$1 npflag=$2 prog=$3
shift 3
# rank1_refused WHAT LINE ARG...: rank 1 given ARG... ends the job with LINE in its output.
rank1_refused() {
  local what=$1 line=$2
  shift 2
  local out rc
  out=$(timeout 60 "$mpiexec" "${flags[@]}" "$npflag" 1 "$prog" --n 1000 : "$npflag" 1 "$prog" --n 1000 "$@" 2>&1)
  rc=$?
  echo "$out"
  echo "exit code: $rc"
  [ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "FAILED ($what): expected a non-zero exit, not a timeout"; exit 1; }
  grep -qF "$line" <<<"$out" || { echo "FAILED ($what): rank 1's message is missing"; exit 1; }
  echo "ok: the job ended with rank 1's message ($what)"
}
flags=("$@")
rank1_refused "--type" "clreduce-mpi: rank 1: error: unknown type 'half'; valid types: uint, int, float, double" \
  --type half
# The watchdog's limit is checked on every rank too, before any device work.
rank1_refused "--kernel-timeout" \
  "clreduce-mpi: rank 1: error: --kernel-timeout: 'soon' is not a number of seconds from 0 (wait forever) to 86400, e.g. 60 or 0.5" \
  --kernel-timeout soon
