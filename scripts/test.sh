#!/usr/bin/env bash
# Sets everything up, then runs the test suite (doctest through ctest) on the default device.
# The full cross-product matrix is left out (label `full`); run it with: cd build && ctest -L full
set -euo pipefail
cd "$(dirname "$0")/.."
# Mesa's OpenCL ICD beside PoCL, as on a desktop: the suite must pass with both installed (the
# ICD loader loads both; doctor probes both). scripts/test_rusticl.sh runs it on Rusticl itself.
# Open MPI: clreduce-mpi and its mpirun tests (built and registered only where CMake finds MPI).
# pytest, hypothesis and PyOpenCL: the Python module's tests (python/tests/), on /usr/bin/python3.
scripts/install_deps.sh mesa-opencl-icd openmpi-bin libopenmpi-dev python3-pytest python3-hypothesis python3-pyopencl
scripts/setup.sh
cd build
ctest -j"$(nproc)" -LE full --output-on-failure "$@"
