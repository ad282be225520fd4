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
ctest -j"$(nproc)" -LE full --output-on-failure "$@"
