#!/usr/bin/env bash
# The Oclgrind job (tests/oclgrind/oclgrind_job.sh): every kernel of clreduce under Oclgrind's
# data-race and uninitialised-value checks, failing on any report the design does not explain
# (tests/oclgrind/suppressions.txt); then a missing barrier planted in a copied kernel must be
# reported. Installs oclgrind when missing; builds as scripts/setup.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh oclgrind
scripts/setup.sh >/dev/null
# One shard of the case list per core, side by side; each shard's output printed whole, in order.
# The matrices' cases (variant x type x operator x shape) run as a seeded one-in-8 sample, the seed
# printed and changing daily (CLREDUCE_OCLGRIND_SAMPLE=1 runs them all; at one-in-2 the job took
# 643 s of a local clean-clone CI of 67 minutes, at one-in-3 586 s of 58 minutes, at one-in-4 603 s
# (76 cases a shard, about 8 s each) of 62 minutes, and CI 53 minutes, 2026-11-29); every other
# case runs each time: each kernel has cases of its own outside the matrices.
sample=${CLREDUCE_OCLGRIND_SAMPLE:-8}
shards=$(nproc)
logs=$(mktemp -d /tmp/clreduce-oclgrind-shards-XXXXXX)
pids=()
for ((i = 0; i < shards; i++)); do
  tests/oclgrind/oclgrind_job.sh build/clreduce --shard "$i/$shards" --sample "$sample" >"$logs/$i.txt" 2>&1 &
  pids+=($!)
done
rc=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[$i]}" || rc=1
  cat "$logs/$i.txt"
done
rm -rf "$logs"
[ $rc -eq 0 ] || { echo "test_oclgrind.sh: a shard of the Oclgrind job failed" >&2; exit 1; }
planted=$(mktemp -d /tmp/clreduce-planted-XXXXXX)
trap 'rm -rf "$planted"' EXIT
cp -r kernels_cl/. "$planted"
# naive.cl's tree without the barrier after each level: work-items read what others still write.
sed -i '/if (lid % (2 \* s) == 0) l\[lid\] = OP(l\[lid\], l\[lid + s\]);/{n;/barrier(CLK_LOCAL_MEM_FENCE);/d}' "$planted/naive.cl"
if grep -A1 'if (lid % (2 \* s) == 0)' "$planted/naive.cl" | grep -q barrier; then
  echo "test_oclgrind.sh: could not plant the missing barrier in naive.cl" >&2
  exit 1
fi
tests/oclgrind/oclgrind_job.sh build/clreduce --kernel-dir "$planted" \
  --only "reduce --variant naive --type uint --op sum" --expect-reports
