#!/usr/bin/env bash
# Issue 16's evidence on the lent GPU, after rounds 3 and 4: `clreduce bench axis` (every default
# launch verified) for float and uint sum, min and max, float argmax and int argmin at the issue's
# seven shapes, both axes; torch's and CuPy's peers (bench/tools/axis_peers_ops.py) in the same
# call. First the axis and arg suites on the GPU. The table: bench/tools/axis_table.py.
#   OUT=/path bash bench/gpu_issue16_evidence.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01]|arg)$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float sum" "uint sum" "float min" "uint min" "float max" "uint max" "float argmax" "int argmin"; do
  set -- $to
  timeout 150 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet \
    --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
done
timeout 300 python3 bench/tools/axis_peers_ops.py >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
