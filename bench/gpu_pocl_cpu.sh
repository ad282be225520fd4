#!/usr/bin/env bash
# The GPU machine's own CPU OpenCL device (its PoCL, newer than Debian 12's 3.1), after gpu_build:
# whether it reports cl_khr_subgroups (the `subgroup` variant runs nowhere else here), the family
# table on it with defaults, and the variants tests on it (the subgroup variant among them where
# the extension is reported; the three variants shards and fp64). Writes $OUT/pocl_*.txt. Usage, from the repo root, after
# `source bench/gpu_build.sh && gpu_build`:   OUT=... bash bench/gpu_pocl_cpu.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
name=$(build-gpu/clreduce devices | sed -n 's/^ *device [0-9]*:[0-9]*: \(.*\) \[CPU\]$/\1/p' | head -1)
{
  echo "CPU device: ${name:-none}"
  clinfo 2>/dev/null | grep -E "Platform Name|Platform Version|Device Name|Device Version|Driver Version" | sort -u
  if [ -n "$name" ]; then
    if clinfo 2>/dev/null | grep -A200 "Device Name *$name" | grep -m1 "Device Extensions" | grep -q cl_khr_subgroups; then
      echo "cl_khr_subgroups: reported"
    else
      echo "cl_khr_subgroups: not reported"
    fi
  fi
} >"$OUT/pocl_device.txt" 2>&1
cat "$OUT/pocl_device.txt"
[ -n "$name" ] || exit 0
export CLREDUCE_DEVICE="$name"
timeout 150 build-gpu/clreduce bench --iterations 10 >"$OUT/pocl_bench.txt" 2>&1
echo "bench exit $?" >>"$OUT/pocl_bench.txt"
(cd build-gpu && timeout 300 ctest -j3 -R "^(variants_[0-9]+|fp64)$" --output-on-failure) >"$OUT/pocl_variants.txt" 2>&1
echo "ctest exit $?" >>"$OUT/pocl_variants.txt"
tail -5 "$OUT/pocl_variants.txt"
