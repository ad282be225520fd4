#!/usr/bin/env bash
# clreduce-mpi under mpirun for every type and operator (double where every device has fp64):
# each run must exit 0 with its result within the reference's bound (the root prints "check:").
# Usage: mpi_matrix.sh NP N MPIEXEC NUMPROC_FLAG CLREDUCE_MPI [mpiexec flags...]
# ctest runs it with POCL_DEVICES set, so every rank reduces on several PoCL CPU devices. Where a
# device lacks cl_khr_fp64, clreduce-mpi refuses double (every rank, before any work): skipped.
set -uo pipefail
np=$1 n=$2 mpiexec=$3 npflag=$4 prog=$5
shift 5
types="uint int float double"
status=0
for type in $types; do
  for op in sum min max; do
    out=$(timeout 120 "$mpiexec" "$npflag" "$np" "$@" "$prog" --n "$n" --type "$type" --op "$op" --iterations 1 2>&1)
    rc=$?
    if [ "$type" = double ] && [ $rc -ne 0 ] && grep -q "double needs cl_khr_fp64" <<<"$out"; then
      echo "np $np n $n double $op: skipped (a device lacks cl_khr_fp64)"; continue
    fi
    if [ $rc -ne 0 ] || ! grep -q "^check: \(exact match\|within bound\)" <<<"$out"; then
      echo "FAILED: np $np n $n $type $op (exit $rc)"; echo "$out"; status=1
    else
      grep "^check:" <<<"$out" | sed "s/^/np $np n $n $type $op: /"
    fi
  done
done
exit $status
