# The built-ins x families table of issue 29 from one session's files: `clreduce bench descriptors
# --format csv` files (any families, shapes and types; a later file's row replaces an earlier one's
# for the same built-in, types, family and shape, so list the files oldest first) beside torch's
# back-to-back figures from bench/tools/descriptor_peers.py (its whole-array CSV and its "axis"
# CSV). One row per built-in, one column per (family, shape, type) seen: the back-to-back median
# in µs, its % of the read peak measured in the same process, and where torch has the reduction,
# the ratio torch µs / clreduce µs (over 1: clreduce faster), and where CUB has it (--cub: the CSV of
# bench/cub_descriptor_peers.cu, whole arrays) the ratio CUB µs / clreduce µs. Only the default
# launch of each point.
#   python3 bench/tools/descriptor_table.py --torch torch_whole.csv --torch torch_axis.csv [--cub cub.csv] a.csv b.csv > table.md
import csv, sys

args = sys.argv[1:]
torch_files, cub_files, files = [], [], []
while args:
    a = args.pop(0)
    if a == "--torch":
        torch_files.append(args.pop(0))
    elif a == "--cub":
        cub_files.append(args.pop(0))
    else:
        files.append(a)
DT = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32", "u8": "uint8", "f64": "float64"}
torch = {}  # (op, dtype, family, shape) -> µs
for f in torch_files:
    for r in csv.DictReader(line for line in open(f) if not line.startswith("device")):
        if "axis" in r:
            torch[(r["reduction"], r["dtype"], r["axis"], r["shape"])] = float(r["torch_us"])
        else:
            torch[(r["reduction"], r["dtype"], "whole", "")] = float(r["torch_us"])
cub = {}  # (op, dtype) -> µs, whole arrays
def from_header(f):  # the CSV from its header on (a compiler's lines before it are not rows)
    seen = False
    for line in open(f):
        seen = seen or line.startswith("reduction,")
        if seen:
            yield line


for f in cub_files:
    for r in csv.reader(from_header(f)):
        # reduction,dtype,n,cub_call,cub_us,GB_per_s; a call named with a comma before 12-06 ("(x*x, +)")
        # splits into one more field: the time is the last but one either way.
        if r and r[0] != "reduction":
            cub[(r[0], r[1])] = float(r[-2])
cells, columns, ops = {}, [], []
for f in files:
    for r in csv.DictReader(open(f)):
        if r.get("launch") != "default" or not r.get("median_us"):
            continue
        fam = r["family"]
        n = int(r["n"])
        # whole arrays: the element count, as 2^k where it is one (files of several sizes side by side)
        shape = (f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)) if fam == "whole" else f"{r['m']}x{r['n']}"
        t = r["inputs"].split(" x ")[0]
        col = (fam, shape, t)
        if col not in columns:
            columns.append(col)
        if r["reduction"] not in ops:
            ops.append(r["reduction"])
        us, pct = float(r["median_us"]), float(r["pct_of_read_peak"])
        tu = torch.get((r["reduction"], DT.get(t, t), fam, "" if fam == "whole" else shape))
        cell = f"{us:.1f} ({pct:.1f}%)"
        if r["check"] not in ("ok", "exact"):
            cell += f" check {r['check']}"
        if tu:
            cell += f" t {tu / us:.2f}"
        cu = cub.get((r["reduction"], DT.get(t, t))) if fam == "whole" else None
        if cu:
            cell += f" c {cu / us:.2f}"
        cells[(r["reduction"], col)] = cell
head = ["built-in"] + [f"{fam} {shape} {t}".replace("  ", " ") for fam, shape, t in columns]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for op in ops:
    print("| " + " | ".join([op] + [cells.get((op, c), "") for c in columns]) + " |")
