#!/usr/bin/env bash
# Installs the Debian packages clreduce needs that are missing (apt-get, with sudo when not
# root), plus any package names given as arguments. CLREDUCE_SKIP_APT=1 skips it all.
set -euo pipefail
packages=(cmake g++ make ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd
          doctest-dev libcli11-dev nlohmann-json3-dev libexpat1-dev clinfo pkgconf
          pybind11-dev python3-dev python3-numpy "$@")
[ "${CLREDUCE_SKIP_APT:-0}" = 1 ] && exit 0
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
