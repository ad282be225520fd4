#!/usr/bin/env bash
# The test suite again on Mesa's Rusticl (device llvmpipe: OpenCL 3.0 on the CPU, no fp64, every
# kernel limited to 32 work-items, a timer that cannot time), as on PoCL: the same build, the same
# tests, the device chosen by CLREDUCE_DEVICE. Installs mesa-opencl-icd when missing. Arguments go
# to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh mesa-opencl-icd
scripts/setup.sh >/dev/null
export RUSTICL_ENABLE=llvmpipe CLREDUCE_DEVICE=llvmpipe
build/clreduce devices | grep -q "llvmpipe" || { echo "test_rusticl.sh: Rusticl shows no llvmpipe device" >&2; exit 1; }
cd build
# The install check is the same on any device (it runs on PoCL in scripts/test.sh); the tests
# labelled pocl_method choose PoCL's work-group method, which Rusticl has not. The several-device
# and MPI tests (labels multi_device, mpi) choose PoCL's CPU devices themselves (their ENVIRONMENT
# sets POCL_DEVICES and CLREDUCE_DEVICE=pthread: Rusticl shows one device), so here they would be
# scripts/test.sh's runs again, on PoCL (206 s of this stage's 933 test-seconds in a local
# clean-clone CI at 132a5a7).
ctest -j"$(nproc)" -LE "full|install|pocl_method|multi_device|mpi" --output-on-failure "$@"
