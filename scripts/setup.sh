#!/usr/bin/env bash
# Sets up clreduce on a Debian machine: installs the missing Debian packages (apt-get, with sudo
# when not root; skipped with CLREDUCE_SKIP_APT=1), then configures and builds a Release build in
# build/. Safe to run again: it installs nothing that is there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(cmake g++ make ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd
          doctest-dev libcli11-dev nlohmann-json3-dev clinfo)
if [ "${CLREDUCE_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "installing: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
