#!/usr/bin/env bash
# Sets everything up, then benchmarks the whole reduction family on the default device (the first
# GPU, else PoCL's CPU device). Extra arguments go to `clreduce bench`, e.g. --n 2^28 --type float.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh openmpi-bin libopenmpi-dev  # clreduce-mpi (bench/gpu_several_devices.sh)
scripts/setup.sh >/dev/null
exec build/clreduce bench "$@"
