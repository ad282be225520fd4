#!/usr/bin/env bash
# The test suite again, built with clang under AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/), with the libFuzzer targets of the input parsers and their bounded fuzz runs
# (label `fuzz`). Installs clang and its libFuzzer runtime when missing. Arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh clang
major=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
scripts/install_deps.sh "libclang-rt-${major}-dev" 2>/dev/null || true  # libFuzzer (Debian 12: in libclang-rt-14-dev)
# -O1 and line tables only (file and line in every report, no variables): a quarter less compile
# time than RelWithDebInfo's -O2 -g (test_descriptor.cpp with clang under ASan: 36 s, 27 s).
CC=clang CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCLREDUCE_SANITIZE=ON -DCLREDUCE_FUZZ=ON -DCLREDUCE_VARIANTS_SAMPLE=6 -DCLREDUCE_AXIS_SAMPLE=6 >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
# The sanitizers check clreduce's code on PoCL only: with Mesa's ICD installed (scripts/test_rusticl.sh
# installs it first in CI) the ICD loader opens Rusticl and Clover in every process, and their
# libraries' own allocations at load time count as leaks when the process exits (CI, 2026-11-24:
# 200 bytes in libRusticlOpenCL and in an unnamed module, failing 10 tests). The loader reads only
# the file named here.
pocl_icd=$(ls /etc/OpenCL/vendors/pocl*.icd 2>/dev/null | head -1)
[ -n "$pocl_icd" ] || { echo "test_sanitized.sh: no PoCL ICD file under /etc/OpenCL/vendors" >&2; exit 1; }
export OCL_ICD_VENDORS="$pocl_icd"
# PoCL's second work-group method (label pocl_method) runs the same host code: not again here,
# nor soak_workitemloops (soak's host code under that method); of the several-device tests only
# multi_device_2, the host code of multi_device_3 with one device fewer (87 s sanitized at 132a5a7
# against 129 s for multi_device_3 in the local clean-clone CI of 2026-11-29).
# The matrices (types x operators x variants x shapes) repeat the same host code for every item:
# here a seeded one-in-6 sample of each (printed by the tests; CLREDUCE_TEST_SAMPLE=1 runs them
# whole). The axis and variants tests take one-in-6 too (their ctest ENVIRONMENT, set at configure
# above): with the same seed a one-in-6 sample is a part of the PoCL stage's one-in-3 (in_shard
# keeps an item when a hash of it is 0 modulo the sample), so their kernels come from PoCL's
# cache: samples that were not a part (one-in-3 beside PoCL's one-in-2) were other items, built
# from cold, and the stage's tests took 446 s instead of 376 s (local clean-clone CI at 1c57284).
export CLREDUCE_TEST_SAMPLE=${CLREDUCE_TEST_SAMPLE:-6}
rc=0
ctest -j"$(nproc)" -LE "full|pocl_method" -E "^(multi_device_3|soak_workitemloops)$" --output-on-failure "$@" || rc=$?
[ "$rc" -eq 0 ] && exit 0
# One fault is not clreduce's: LeakSanitizer's own tracer, which stops the process's threads at
# exit to scan them, at times dies of SIGSEGV ("Tracer caught signal 11", then "LeakSanitizer has
# encountered a fatal error"), the tests having passed (clean-clone CI on this project's 2-core
# machine, 2026-11-26: the runtime suite after all 13 of its cases passed, and a `clreduce soak`
# child of the cli suite after "no mismatch"; neither came back in four runs of the runtime suite
# alone or beside the cli suite). One cause is known and removed: the tracer's scan of a dynamic TLS
# range it had misread (tests/CMakeLists.txt, intercept_tls_get_addr=0; at e250a9a it killed the
# unit suite every time). Only when every failed test's output carries that line are those tests
# run once more, and the run says so; any other failure, or the same tests failing again, fails.
failed=$(sed -n 's/^[0-9]*:\(.*\)$/\1/p' Testing/Temporary/LastTestsFailed.log 2>/dev/null)
[ -n "$failed" ] || exit "$rc"
for t in $failed; do
  # The test's section of the log: from "<i>/<n> Testing: <name>" to ""<name>" end time: ...".
  if ! awk -v t="$t" '$0 ~ "^[0-9]+/[0-9]+ Testing: " t "$" {on = 1}
                       on && /^Tracer caught signal/ {hit = 1}
                       on && index($0, "\"" t "\" end time:") == 1 {on = 0}
                       END {exit !hit}' Testing/Temporary/LastTest.log; then
    echo "test_sanitized.sh: $t failed, and not by LeakSanitizer's tracer" >&2
    exit "$rc"
  fi
done
echo "test_sanitized.sh: LeakSanitizer's tracer crashed at exit in: $(echo $failed); running them once more" >&2
ctest --rerun-failed --output-on-failure
