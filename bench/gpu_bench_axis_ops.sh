#!/usr/bin/env bash
# Issue 16 on the lent GPU, the operators and types beyond float sum: `clreduce bench axis` for
# uint sum, float max, uint min, float argmax and int argmin at the default shapes (both axes, every
# launch verified), segmented reductions of 2^26 floats in 1, 100, 1000 and 100000 segments by
# both kernels, and torch's peers (bench/tools/axis_peers_ops.py) in the same call; first the axis,
# arg and segmented tests on the GPU.
#   OUT=/path bash bench/gpu_bench_axis_ops.sh
set -uo pipefail
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build >"$OUT/log.txt" 2>&1
echo "built at ${SECONDS}s" >>"$OUT/log.txt"
(cd build-gpu && timeout 150 ctest -j4 -R "^(axis_[01]|arg|segmented|unit)$" --output-on-failure) >"$OUT/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$OUT/log.txt"
for to in "uint sum" "float max" "uint min" "float argmax" "int argmin"; do
  set -- $to
  timeout 150 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet \
    --output-json "$OUT/bench_axis_$1_$2.json" >"$OUT/bench_axis_$1_$2.txt" 2>>"$OUT/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$OUT/log.txt"
done
n=$((1 << 26))
for count in 1 100 1000 100000; do
  python3 -c "
n, c = $n, $count
step = n // c
print(' '.join(str(min(i * step, n)) if i < c else str(n) for i in range(c + 1)))" >"$OUT/offsets_$count.txt"
  for parts in default 1 8 64; do
    extra=(); [ $parts = default ] || extra=(--chunks $parts)
    for op in sum argmax; do
      timeout 60 build-gpu/clreduce reduce --segments "$OUT/offsets_$count.txt" --type float --op $op --iterations 20 \
        "${extra[@]}" >"$OUT/seg_${count}_${parts}_$op.txt" 2>&1
      echo "segments $count parts $parts $op exit $? at ${SECONDS}s" >>"$OUT/log.txt"
    done
  done
done
timeout 200 python3 bench/tools/axis_peers_ops.py >"$OUT/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$OUT/log.txt"
