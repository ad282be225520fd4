#!/usr/bin/env bash
# Issue 16's argmin/argmax evidence again after round 7 (ITEMS 1 as one loop): `clreduce bench
# axis` for float argmax and int argmin at the issue's seven shapes, both axes, and torch's and
# CuPy's argmin/argmax (bench/tools/axis_peers_ops.py argmin argmax) in the same call.
#   OUT=/path bash bench/gpu_issue16_evidence_arg.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 200 ctest -j4 -R "^(axis_[01]|arg)$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
for to in "float argmax" "int argmin"; do
  set -- $to
  timeout 150 build-gpu/clreduce bench axis --type "$1" --op "$2" --iterations 20 --quiet \
    --output-json "$R/bench_axis_$1_$2.json" >"$R/bench_axis_$1_$2.txt" 2>>"$R/log.txt"
  echo "bench axis $1 $2 exit $? at ${SECONDS}s" >>"$R/log.txt"
done
timeout 200 python3 bench/tools/axis_peers_ops.py argmin argmax >"$R/peers.txt" 2>&1
echo "peers exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
