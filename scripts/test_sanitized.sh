#!/usr/bin/env bash
# The test suite again, built with clang under AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), with the libFuzzer targets of the input parsers and their bounded fuzz runs
# (label `fuzz`). Installs clang and its libFuzzer runtime when missing. Arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh clang
major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
scripts/install_deps.sh "libclang-rt-${major}-dev" 2>/dev/null || true  # libFuzzer (Debian 12: in libclang-rt-14-dev)
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCLREDUCE_SANITIZE=ON -DCLREDUCE_FUZZ=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
# The sanitizers check clreduce's code on PoCL only: with Mesa's ICD installed (scripts/test_rusticl.sh
# installs it first in CI) the ICD loader opens Rusticl and Clover in every process, and their
# libraries' own allocations at load time count as leaks when the process exits (CI, 2026-11-24:
# 200 bytes in libRusticlOpenCL and in an unnamed module, failing 10 tests). The loader reads only
# the file named here.
pocl_icd=$(ls /etc/OpenCL/vendors/pocl*.icd 2>/dev/null | head -1)
[ -n "$pocl_icd" ] || { echo "test_sanitized.sh: no PoCL ICD file under /etc/OpenCL/vendors" >&2; exit 1; }
export OCL_ICD_VENDORS="$pocl_icd"
# PoCL's second work-group method (label pocl_method) runs the same host code: not again here.
ctest -j"$(nproc)" -LE "full|pocl_method" --output-on-failure "$@"
