#!/usr/bin/env bash
# Issue 16, round 25 (2026-11-26): rows of 64 KiB in a matrix of 512 MiB or more split too
# (rows_split, parts of 16 KiB). Prediction from round 24: 16384x16384 rows 345-346 µs for every
# operator, against rows_group's 347-348.5 and torch's back to back 346.7 (evidence7), and the
# 256 MiB shapes unchanged (4096x16384 and 8192x8192 stay with rows_group). Torch back to back in
# the same call (events around 20 calls / 20, median of 11). Every launch checked against the host.
#   OUT=/path bash bench/gpu_issue16_round25.sh   (everything in $OUT/all.tgz)
set -uo pipefail
source bench/gpu_build.sh
gpu_begin
for round in 1 2; do
  for to in "float sum" "float min" "float max" "uint sum" "uint min" "uint max"; do
    S="--axis rows --shape 16384x16384 --type ${to% *} --op ${to#* }"
    sweep_run "r$round $to 16384x16384 default" $S
    sweep_run "r$round $to 16384x16384 rows_group" $S --variant rows_group
  done
  sweep_run "r$round float sum 4096x16384 default" --axis rows --shape 4096x16384 --type float --op sum
  sweep_run "r$round float sum 8192x8192 default" --axis rows --shape 8192x8192 --type float --op sum
done
timeout 120 python3 - >"$R/torch_b2b.txt" 2>&1 <<'PY'
import torch
def b2b(fn, calls=20, batches=11):
    for _ in range(5): fn()
    torch.cuda.synchronize(); ts = []
    for _ in range(batches):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        for _ in range(calls): fn()
        e.record(); e.synchronize(); ts.append(s.elapsed_time(e) / calls)
    ts.sort(); return ts[len(ts) // 2] * 1e3
print("device", torch.cuda.get_device_name(), "torch", torch.__version__)
for dt in [torch.float32, torch.int32]:
    a = (torch.rand(16384, 16384, device="cuda") * 1000).to(dt)
    for op in ["sum", "amin", "amax"]:
        f = getattr(torch, op)
        print(f"{dt} {op} 16384x16384 rows: torch back-to-back {b2b(lambda: f(a, dim=1)):.1f} us")
    del a
PY
echo "torch exit $? at ${SECONDS}s" >>"$R/log.txt"
gpu_end
