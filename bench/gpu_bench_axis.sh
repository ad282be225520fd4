#!/usr/bin/env bash
# `clreduce bench axis` on the lent GPU (issue 16) with torch.sum(dim) and CuPy sum(axis) in the
# same call: the default shapes (the seven), both axes, float sum, every launch verified;
# then the axis tests on the GPU.
#   cp ../shared/gpu/axis_peers.py .gpu/   (here, once: the peers' script travels in .gpu)
#   OUT=/path bash bench/gpu_bench_axis.sh
# $OUT gets log.txt, bench_axis.txt and .json, peers.txt (torch and CuPy: CUDA events around one
# call, median of 50) and ctest.txt.
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
echo "built at ${SECONDS}s" >>"$OUT/log.txt"
timeout 400 build-gpu/clreduce bench axis --iterations 20 --quiet --output-json "$OUT/bench_axis.json" \
  >"$OUT/bench_axis.txt" 2>>"$OUT/log.txt"
echo "bench axis exit $? at ${SECONDS}s" >>"$OUT/log.txt"
python3 .gpu/axis_peers.py >"$OUT/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$OUT/log.txt"
(cd build-gpu && timeout 120 ctest -j2 -R "^(axis_[01]|unit)$" --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$OUT/log.txt"
