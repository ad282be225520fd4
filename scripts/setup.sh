#!/usr/bin/env bash
# Sets up clreduce on a Debian machine: installs the missing Debian packages (scripts/install_deps.sh;
# skipped with CLREDUCE_SKIP_APT=1), then configures and builds a Release build in build/. Safe to
# run again: it installs nothing that is there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
