#!/usr/bin/env bash
# ctest bench_scripts: every script in bench/ (and bench/tools/) passes only kernel macros and
# variant names that the code knows. OpenCL ignores an unknown -D, so a script whose -D names a
# macro no kernel reads any more runs and measures something other than what it says; a variant
# that no longer exists is refused only when the script runs, on the GPU machine. Known macros:
# every `#ifndef NAME` of kernels_cl/ (each macro's default is written that way, so this is every
# macro a kernel reads). Known variants: the `variant` column of `clreduce variants --params` (every
# family's registry), and `descriptor`. Checked: `-D NAME` / `-DNAME` (not on lines that run
# cmake, nor the CMAKE_ and CLREDUCE_ options named elsewhere: those are CMake's), `--grid NAME=`
# for upper-case NAME (lower-case ones are options: wg, chunks), and `--variant`/`--variants` lists
# of literal names. Not checked: names a script holds in shell variables (`--variants $fast`),
# which the script's own run refuses where they are unknown.
# Usage: check_bench_scripts.sh CLREDUCE_BINARY REPO_ROOT
set -euo pipefail
cli=$1 root=$2
# (include guards, NAME_CLH or NAME_H, are no parameters)
macros=$( (grep -hoE '^[[:space:]]*#[[:space:]]*ifndef[[:space:]]+[A-Z_][A-Z0-9_]*' "$root"/kernels_cl/*.cl "$root"/kernels_cl/*.clh |
  awk '{print $NF}' | grep -vE '_(CLH|H)$' | sort -u) || true)
variants=$( ("$cli" variants --params | awk -F'|' 'NR > 3 { gsub(/ /, "", $2); if ($2 != "") print $2 }'; echo descriptor) | sort -u || true)
[ -n "$macros" ] && [ "$(wc -l <<<"$variants")" -gt 10 ] || { echo "check_bench_scripts: could not read the macros or variants"; exit 2; }
bad=0 checked=0
for f in "$root"/bench/*.sh "$root"/bench/*.py "$root"/bench/tools/*; do
  [ -f "$f" ] || continue
  rel=${f#"$root"/}
  while IFS= read -r name; do
    checked=$((checked + 1))
    case $name in CMAKE_* | CLREDUCE_*) continue ;; esac  # the project's CMake options, named in prose
    grep -qx "$name" <<<"$macros" || { echo "$rel: -D $name: no kernel in kernels_cl/ reads it"; bad=$((bad + 1)); }
  done < <({ { grep -vE '(^|[^a-z_])cmake ' "$f" | grep -oE -- '(^|[[:space:]"'\''])-D ?[A-Za-z_][A-Za-z0-9_]*' | sed -E 's/.*-D ?//'; } || true
             { grep -oE -- '--grid [A-Z_][A-Z0-9_]*=' "$f" | sed -E 's/--grid //; s/=$//'; } || true; } | sort -u)
  while IFS= read -r name; do
    checked=$((checked + 1))
    grep -qx "$name" <<<"$variants" || { echo "$rel: variant $name: no registry has it"; bad=$((bad + 1)); }
  done < <({ grep -oE -- '--variants?[ =]"?[A-Za-z_0-9,]+' "$f" | sed -E 's/--variants?[ =]"?//' | tr ',' '\n' | grep -v '^$' | sort -u; } || true)
done
echo "check_bench_scripts: $checked macro and variant names checked in bench/, $bad unknown"
[ "$bad" = 0 ]
