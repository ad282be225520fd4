#!/usr/bin/env bash
# ctest bench_scripts: every script in bench/ (and bench/tools/) passes only kernel macros and
# variant names that the code knows. OpenCL ignores an unknown -D, so a script whose -D names a
# macro no kernel reads any more runs and measures something other than what it says; a variant
# that no longer exists is refused only when the script runs, on the GPU machine. Known macros:
# every `#ifndef NAME` of kernels_cl/ (each macro's default is written that way, so this is every
# macro a kernel reads). Known variants: the `variant` column of `clreduce variants --params` (every
# family's registry), and `descriptor`. Checked: `-D NAME` / `-DNAME` (CMake's own -D options aside),
# `--grid NAME=` for upper-case NAME, and `--variant`/`--variants` lists of literal names.
# Usage: check_bench_scripts.sh CLREDUCE_BINARY REPO_ROOT
set -euo pipefail
cli=$1 root=$2
macros=$(grep -hoE '^[[:space:]]*#[[:space:]]*ifndef[[:space:]]+[A-Z_][A-Z0-9_]*' "$root"/kernels_cl/*.cl "$root"/kernels_cl/*.clh |
  awk '{print $NF}' | sort -u)
variants=$( ("$cli" variants --params | awk -F'|' 'NR > 3 { gsub(/ /, "", $2); if ($2 != "") print $2 }'; echo descriptor) | sort -u)
[ -n "$macros" ] && [ "$(wc -l <<<"$variants")" -gt 10 ] || { echo "check_bench_scripts: could not read the macros or variants"; exit 2; }
bad=0 checked=0
for f in "$root"/bench/*.sh "$root"/bench/*.py "$root"/bench/tools/*; do
  [ -f "$f" ] || continue
  rel=${f#"$root"/}
  while IFS= read -r name; do
    checked=$((checked + 1))
    case $name in CMAKE_* | CLREDUCE_* | Python_* | pybind11_*) continue ;; esac
    grep -qx "$name" <<<"$macros" || { echo "$rel: -D $name: no kernel in kernels_cl/ reads it"; bad=$((bad + 1)); }
  done < <(grep -oE -- '(^|[[:space:]"'\''])(-D ?|--grid )[A-Z_][A-Z0-9_]*' "$f" | sed -E 's/.*(-D ?|--grid )//' | sort -u)
  while IFS= read -r name; do
    checked=$((checked + 1))
    grep -qx "$name" <<<"$variants" || { echo "$rel: variant $name: no registry has it"; bad=$((bad + 1)); }
  done < <(grep -oE -- '--variants? [a-z_0-9,]+' "$f" | sed -E 's/--variants? //' | tr ',' '\n' | sort -u)
done
echo "check_bench_scripts: $checked macro and variant names checked in bench/, $bad unknown"
[ "$bad" = 0 ]
