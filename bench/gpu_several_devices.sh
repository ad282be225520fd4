#!/usr/bin/env bash
# One reduction over several GPUs of one host (bench multi, clreduce-mpi), in one device call whose device time is
# short: every step is bounded, the most wanted first, and each result is written under $OUT as
# soon as it exists (a call cut at its limit still brings back what was done).
#   OUT=/path bash bench/gpu_several_devices.sh
# Binaries: a prebuilt `.gpurun/` (clreduce, clreduce-mpi, libclreduce.so.0 from a Release build
# on the development machine: saves the build's minute) is used when it runs there; else the
# script builds clreduce in build-gpu/ (bench/gpu_build.sh). Made from the project root with
#   echo /.gpurun/ >>.git/info/exclude; mkdir -p .gpurun && cp build/clreduce build/clreduce-mpi .gpurun/ &&
#   cp -L build/libclreduce.so.0 .gpurun/ && strip .gpurun/* && git rev-parse HEAD >.gpurun/COMMIT
# and carried with .gpu (Debian 12's build needs glibc 2.34 and GLIBCXX 3.4.29 there). Open MPI comes from .gpu/debs
# (../shared/gpu/bundle.sh openmpi-bin libopenmpi3 openmpi-common libpmix2 libhwloc15
# libevent-core-2.1-7 libevent-pthreads-2.1-7), unpacked by .gpu/env.sh under /tmp/gpu-root and
# relocated there with OPAL_PREFIX and PMIX_INSTALL_PREFIX.
# $OUT gets log.txt (GPUs, driver, date, topology, each step's exit and time), multi.txt (every
# `bench multi` table, each under the command that made it), mpi.txt (every clreduce-mpi run,
# likewise) and json.tgz (the JSON of each bench multi run).
set -uo pipefail
OUT=${OUT:-bench/out}
JSON=/tmp/several_devices_json
mkdir -p "$OUT" "$JSON/json"
LOG=$OUT/log.txt
{
  source .gpu/env.sh
  nvidia-smi --query-gpu=index,name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv
  nvidia-smi topo -m
  date -u
  cat .gpurun/COMMIT 2>/dev/null || true
} >"$LOG" 2>&1
export CLREDUCE_KERNEL_DIR=$PWD/kernels_cl

CLR=.gpurun/clreduce
MPI_BIN=.gpurun/clreduce-mpi
export LD_LIBRARY_PATH=$PWD/.gpurun${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if ! timeout 60 "$CLR" devices >>"$LOG" 2>&1; then
  echo "prebuilt .gpurun/clreduce did not run: building at ${SECONDS}s" >>"$LOG"
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >>"$LOG" 2>&1
  cmake --build build-gpu --target clreduce -j"$(nproc)" 2>&1 | grep -E "error:|warning:" >>"$LOG"
  CLR=build-gpu/clreduce
  timeout 60 "$CLR" devices >>"$LOG" 2>&1
fi
echo "clreduce ready at ${SECONDS}s: $CLR" >>"$LOG"

multi() {  # multi NAME ARGS...: one bench multi run, its table appended to multi.txt
  local name=$1
  shift
  local t0=$SECONDS
  {
    echo "## $name: clreduce bench multi $*"
    timeout 240 "$CLR" bench multi "$@" --output-json "$JSON/json/$name.json" 2>&1
    echo "(exit $?)"
    echo
  } >>"$OUT/multi.txt"
  echo "$name: $((SECONDS - t0)) s, done at ${SECONDS}s" >>"$LOG"
  tar czf "$OUT/json.tgz" -C "$JSON" json
}

mpi() {  # mpi NAME ARGS...: clreduce-mpi with one rank per GPU, appended to mpi.txt
  local name=$1
  shift
  local t0=$SECONDS gpus
  gpus=$(nvidia-smi -L | wc -l)
  {
    echo "## $name: mpirun -np $gpus clreduce-mpi $* --device-per-rank"
    OPAL_PREFIX=/tmp/gpu-root/usr PMIX_INSTALL_PREFIX=/tmp/gpu-root/usr/lib/x86_64-linux-gnu/pmix2 \
      OMPI_MCA_mca_base_component_show_load_errors=0 \
      timeout 240 /tmp/gpu-root/usr/bin/mpirun.openmpi -np "$gpus" --allow-run-as-root --mca btl self,vader \
      "$MPI_BIN" "$@" --device-per-rank 2>&1
    echo "(exit $?)"
    echo
  } >>"$OUT/mpi.txt"
  echo "$name: $((SECONDS - t0)) s, done at ${SECONDS}s" >>"$LOG"
}

# 2^30 first (4 GiB): resident, then copied from the host; then MPI; then 2^32 (16 GiB).
multi uint_p30_resident --n 2^30 --type uint --op sum --resident --iterations 10
multi float_p30_resident --n 2^30 --type float --op sum --resident --iterations 10
multi uint_p30 --n 2^30 --type uint --op sum --iterations 5
multi float_p30 --n 2^30 --type float --op sum --iterations 5
if [ -x "$MPI_BIN" ]; then
  mpi mpi_uint_p30 --n 2^30 --type uint --op sum --iterations 5
  mpi mpi_float_p30 --n 2^30 --type float --op sum --iterations 5
else
  echo "no prebuilt clreduce-mpi: the MPI runs were skipped" >>"$LOG"
fi
multi uint_p32_resident --n 2^32 --type uint --op sum --resident --iterations 5
multi float_p32_resident --n 2^32 --type float --op sum --resident --iterations 5
multi uint_p32 --n 2^32 --type uint --op sum --iterations 3
multi float_p32 --n 2^32 --type float --op sum --iterations 3
[ -x "$MPI_BIN" ] && mpi mpi_float_p32 --n 2^32 --type float --op sum --iterations 3
echo "done at ${SECONDS}s" >>"$LOG"
