#!/usr/bin/env bash
# Writes the Op path's results of the tree at REV (default 914d6c3, the last commit before the
# reduction descriptor issue) on this machine's default device (CLREDUCE_DEVICE picks another)
# into OUT (default tests/golden/op_results.json): builds REV's library in a temporary directory,
# compiles op_results.cpp and make_op_results.cpp of this tree against its headers, runs every
# case with REV's kernels, and sets the device's entry of OUT's "devices" (the others stay). The
# first entry is the one devices without their own use ("default_device": every PoCL CPU plans
# the same launches, since op_results.cpp fixes them). The test op_results compares this tree's
# results with the file.
# REV may also be a directory holding that tree (made by `git archive REV | tar -x -C DIR`, with
# the commit in DIR/.commit), for a machine without the repository's history (the lent GPU).
# Usage: tests/golden/make_op_results.sh [REV|DIR [OUT]]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rev="${1:-914d6c3}"
out="${2:-$here/op_results.json}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -d "$rev" ]; then
  cp -r "$rev/." "$work/"
  rm -rf "$work/build" "$work/build-"*
  rev="$(cat "$rev/.commit")"
else
  git -C "$root" archive "$rev" | tar -x -C "$work"
fi
cmake -S "$work" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$work/build" -j"$(nproc)" --target clreduce_lib >/dev/null
lib="$(dirname "$(find "$work/build" -name 'libclreduce.so*' -print -quit)")"
c++ -std=c++17 -O1 \
  -I "$work/include" "$here/op_results.cpp" "$here/make_op_results.cpp" \
  -L "$lib" -Wl,-rpath,"$lib" -lclreduce -lOpenCL -o "$work/make_op_results"
"$work/make_op_results" "$work/kernels_cl" > "$work/results.json"
python3 - "$work/results.json" "$out" "$rev" <<'PY'
import json, os, sys
new, out, rev = sys.argv[1:]
run = json.load(open(new))
doc = json.load(open(out)) if os.path.exists(out) else {"source": rev, "devices": {}}
if doc["source"] != rev:
    sys.exit(f"{out} holds the results of {doc['source']}, not {rev}: give another OUT")
doc["devices"][run["device"]] = run["results"]
doc.setdefault("default_device", run["device"])
tmp = out + ".tmp"
with open(tmp, "w") as f:
    json.dump(doc, f, indent=0, sort_keys=True)
    f.write("\n")
os.replace(tmp, out)
print(f"{out}: {len(run['results'])} cases of {rev} on {run['device']}")
PY
