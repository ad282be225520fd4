# The issue-16 table from one device call's files: every `clreduce bench axis --output-json`
# file given (bench_axis_<type>_<op>.json) beside the torch and CuPy lines of axis_peers_ops.py's
# output (peers.txt) from the same call. Per shape, axis, type and operator: the default launch,
# its back-to-back median, one call by the host clock and by the device's events (the median of
# 20 calls each), torch's and CuPy's one call (CUDA events, median of 50), the ratio clreduce /
# peer (host clock: enqueue to wait, which includes what CUDA events leave out), and % of the
# read peak of the same bytes. Where the same launch was also measured by name in the same file
# (bench axis measures every variant), its one-call median is given too: a default row measured
# first after the scalar run has shown a slower one call than the identical launch after it.
# Where peers.txt also gives torch's one call by the host clock (enqueue to synchronize, as
# clreduce's), that figure and the ratio of the two host clocks follow; where it gives torch back
# to back (events around 20 calls in a row / 20), that and the ratio of the two back-to-back
# medians (kernel against kernel, no launch in either).
#   python3 bench/tools/axis_table.py peers.txt bench_axis_*.json > table.md
import json, re, sys

peers = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) (\w+) (\d+)x(\d+) (rows|cols): (torch|cupy)\s+([\d.]+) us", line)
    if m:
        dt, op, mm, nn, axis, who, us = m.groups()
        peers[(dt, op, int(mm), int(nn), axis, who)] = float(us)
        h = re.search(r"host clock\s+([\d.]+) us", line)
        if h:
            peers[(dt, op, int(mm), int(nn), axis, who + "_host")] = float(h.group(1))
        b = re.search(r"back-to-back\s+([\d.]+) us", line)
        if b:
            peers[(dt, op, int(mm), int(nn), axis, who + "_b2b")] = float(b.group(1))
TORCH_OP = {"sum": "sum", "min": "amin", "max": "amax", "argmin": "argmin", "argmax": "argmax"}
TORCH_DT = {"float": "float32", "uint": "int32", "int": "int32"}
CUPY_DT = {"float": "float32", "uint": "uint32", "int": "int32"}

print("| type op | shape | axis | default launch | b2b median µs | 1 call µs host (events) | same launch by name, 1 call µs | torch µs | cupy µs | 1 call / torch | 1 call / cupy | torch 1 call µs, host clock | 1 call / torch, both host clock | torch b2b µs | b2b / torch b2b | % of read peak |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for path in sys.argv[2:]:
    d = json.load(open(path))
    t, op = d["type"], d["op"]
    for s in d["shapes"]:
        m, n = s["m"], s["n"]
        for r in s["rows"]:
            if r["chosen_by"] != "default":
                continue
            twin = [x for x in s["rows"] if x["chosen_by"] == r["variant"] and x["axis"] == r["axis"] and x["launch"] == r["launch"]]
            one = r["single_call_us"]["median"]
            ev = r["single_call_events_us"]["median"]
            tw = f'{twin[0]["single_call_us"]["median"]:.1f}' if twin else "-"
            tor = peers.get((TORCH_DT.get(t, t), TORCH_OP[op], m, n, r["axis"], "torch"))
            cup = peers.get((CUPY_DT.get(t, t), TORCH_OP[op], m, n, r["axis"], "cupy"))
            toh = peers.get((TORCH_DT.get(t, t), TORCH_OP[op], m, n, r["axis"], "torch_host"))
            tob = peers.get((TORCH_DT.get(t, t), TORCH_OP[op], m, n, r["axis"], "torch_b2b"))
            b2b = r["time_us"]["median"]
            f = lambda x: f"{x:.1f}" if x else "-"
            ratio = lambda p: f"{one / p:.2f}" if p else "-"
            print(f'| {t} {op} | {m}x{n} | {r["axis"]} | {r["variant"]} {r["launch"]} | {r["time_us"]["median"]:.1f} | {one:.1f} ({ev:.1f}) | {tw} | {f(tor)} | {f(cup)} | {ratio(tor)} | {ratio(cup)} | {f(toh)} | {ratio(toh)} | {f(tob)} | {f"{b2b / tob:.2f}" if tob else "-"} | {r["pct_of_peak"]:.1f}% |')
