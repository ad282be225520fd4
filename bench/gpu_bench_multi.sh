#!/usr/bin/env bash
# Issue 18 on a machine with several GPUs (NOT RUN YET: no multi-GPU machine was available when it
# was written): `clreduce bench multi` at n = 2^30 and 2^32 for uint and float sums, host-copied
# and resident, over 1, 2, ... all GPUs of the platform (every result verified against the host);
# then clreduce-mpi with one rank per GPU (--device-per-rank) where MPI is installed.
#   OUT=/path bash bench/gpu_bench_multi.sh
# $OUT gets log.txt, multi_<type>_<n>[_resident].txt and .json, mpi_<type>_<n>.txt.
# 2^32 elements are 16 GiB of host memory (and, resident, in the one-GPU run one 16 GiB buffer:
# over the largest allocation of many GPUs, which bench multi refuses in one line before any work).
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
echo "built at ${SECONDS}s" >>"$OUT/log.txt"
build-gpu/clreduce devices >>"$OUT/log.txt" 2>&1
for n in 2^30 2^32; do
  tag=${n/^/p}
  for type in uint float; do
    for mode in "" --resident; do
      name="multi_${type}_${tag}${mode:+_resident}"
      timeout 900 build-gpu/clreduce bench multi --n "$n" --type "$type" --op sum $mode --iterations 10 \
        --output-json "$OUT/$name.json" >"$OUT/$name.txt" 2>>"$OUT/log.txt"
      echo "$name exit $? at ${SECONDS}s" >>"$OUT/log.txt"
    done
  done
done
if [ -x build-gpu/clreduce-mpi ] && command -v mpirun >/dev/null; then
  gpus=$(nvidia-smi -L | wc -l)
  for n in 2^30 2^32; do
    for type in uint float; do
      name="mpi_${type}_${n/^/p}"
      timeout 900 mpirun -np "$gpus" --oversubscribe --allow-run-as-root --mca btl self,vader \
        build-gpu/clreduce-mpi --n "$n" --type "$type" --op sum --device-per-rank --iterations 10 \
        >"$OUT/$name.txt" 2>&1
      echo "$name ($gpus ranks) exit $? at ${SECONDS}s" >>"$OUT/log.txt"
    done
  done
else
  echo "clreduce-mpi not built or no mpirun: the MPI runs were skipped" >>"$OUT/log.txt"
fi
