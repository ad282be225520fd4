#!/usr/bin/env bash
# Sets everything up, then runs the test suite (doctest through ctest) on the default device.
# The full cross-product matrix is left out (label `full`); run it with: cd build && ctest -L full
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest -j"$(nproc)" -LE full --output-on-failure "$@"
