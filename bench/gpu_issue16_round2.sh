#!/usr/bin/env bash
# Issue 16, second round on the lent GPU: the arg, user-operator and segmented tests on NVIDIA;
# `bench` with a user operator (kernels_cl/examples/product.clh on uint, sum_of_squares.clh on
# float) over every whole-array variant at 2^26; `bench axis` for float argmax (after arg_next)
# and for the sum of squares; the segmented planner at 1, 100, 1000 and 100000 segments of 2^26
# floats (default launch). Everything lands in $OUT/all.tgz (one file comes back).
#   OUT=/path bash bench/gpu_issue16_round2.sh
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
(cd build-gpu && timeout 150 ctest -j4 -R "^(arg|user_op|segmented|axis_[01])$" --output-on-failure) >"$R/ctest.txt" 2>&1
echo "ctest exit $? at ${SECONDS}s" >>"$R/log.txt"
E=kernels_cl/examples
timeout 100 build-gpu/clreduce bench --op-file $E/product.clh --type uint --n 2^26 --quiet \
  --output-json "$R/bench_product_uint.json" >"$R/bench_product_uint.txt" 2>>"$R/log.txt"
echo "bench product exit $? at ${SECONDS}s" >>"$R/log.txt"
timeout 100 build-gpu/clreduce bench --type uint --n 2^26 --quiet >"$R/bench_sum_uint.txt" 2>>"$R/log.txt"
echo "bench sum exit $? at ${SECONDS}s" >>"$R/log.txt"
timeout 100 build-gpu/clreduce bench --op-file $E/sum_of_squares.clh --n 2^26 --quiet \
  --output-json "$R/bench_squares.json" >"$R/bench_squares.txt" 2>>"$R/log.txt"
echo "bench squares exit $? at ${SECONDS}s" >>"$R/log.txt"
timeout 150 build-gpu/clreduce bench axis --type float --op argmax --iterations 20 --quiet \
  --output-json "$R/bench_axis_float_argmax.json" >"$R/bench_axis_float_argmax.txt" 2>>"$R/log.txt"
echo "bench axis argmax exit $? at ${SECONDS}s" >>"$R/log.txt"
timeout 150 build-gpu/clreduce bench axis --op-file $E/sum_of_squares.clh --iterations 20 --quiet \
  --output-json "$R/bench_axis_squares.json" >"$R/bench_axis_squares.txt" 2>>"$R/log.txt"
echo "bench axis squares exit $? at ${SECONDS}s" >>"$R/log.txt"
n=$((1 << 26))
for count in 1 100 1000 100000; do
  python3 -c "
n, c = $n, $count
step = n // c
print(' '.join(str(i * step) if i < c else str(n) for i in range(c + 1)))" >"$R/offsets_$count.txt"
  timeout 60 build-gpu/clreduce reduce --segments "$R/offsets_$count.txt" --type float --iterations 20 \
    >"$R/seg_${count}_default_sum.txt" 2>&1
  echo "segments $count exit $? at ${SECONDS}s" >>"$R/log.txt"
done
rm -f "$R"/offsets_*.txt
gpu_end
