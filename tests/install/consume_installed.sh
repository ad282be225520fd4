#!/usr/bin/env bash
# The installed package as an application sees it: installs this build to a fresh temporary
# prefix, copies examples/ out of the source tree, configures and builds it there against the
# prefix alone (find_package(clreduce)), builds one example again with pkg-config instead, and runs
# them; each example checks its own result. The kernels must come from the prefix.
# Usage: consume_installed.sh BUILD_DIR EXAMPLES_DIR
set -euo pipefail
build=$1
examples=$2
work=$(mktemp -d /tmp/clreduce-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
test -f "$prefix/include/clreduce/clreduce.hpp"
test -f "$prefix/share/clreduce/kernels/reduce_common.clh"
test -f "$prefix/lib/cmake/clreduce/clreduceConfig.cmake" || test -n "$(find "$prefix" -name clreduceConfig.cmake)"
pc=$(find "$prefix" -name clreduce.pc | head -1)
test -n "$pc"

cp -r "$examples" "$work/examples"
cmake -S "$work/examples" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" -j2 >/dev/null

# Nothing points back at the source tree: the library is found in the prefix, the kernels too.
unset CLREDUCE_KERNEL_DIR
out=$("$work/build/sum_vector")
echo "$out"
echo "$out" | grep -q "kernels: $prefix/share/clreduce/kernels (installed)"
"$work/build/async_chain"
# CLREDUCE_KERNEL_DIR comes before the installed directory.
cp -r "$prefix/share/clreduce/kernels" "$work/env_kernels"
CLREDUCE_KERNEL_DIR="$work/env_kernels" "$work/build/sum_vector" | grep -q "kernels: $work/env_kernels (CLREDUCE_KERNEL_DIR)"
echo "CLREDUCE_KERNEL_DIR before installed: ok"

# pkg-config: the same example compiled by hand, with nothing but what the .pc file says, and run
# without LD_LIBRARY_PATH (its Libs carry the run path).
export PKG_CONFIG_PATH=$(dirname "$pc")
c++ -std=c++17 "$work/examples/sum_vector.cpp" -o "$work/sum_vector_pc" $(pkg-config --cflags --libs clreduce)
env -u LD_LIBRARY_PATH "$work/sum_vector_pc" | grep -q "(installed)"
echo "pkg-config: ok"
# The installed command line finds its library and kernels in the prefix too.
"$prefix/bin/clreduce" reduce --n 1000 --variant vector --iterations 1 --no-tuning | grep -q "check      ok"
echo "installed clreduce: ok"
# The Python module, where it was built: imported from the prefix alone, reading the prefix's kernels.
module=$(find "$prefix" -name "_clreduce*.so" | head -1)
if [ -n "$module" ]; then
  site=$(dirname "$(dirname "$module")")
  out=$(cd "$work" && env -u LD_LIBRARY_PATH PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c '
import clreduce, numpy as np
print(clreduce.kernel_dir()[1], clreduce.__file__)
assert clreduce.sum(np.arange(1000, dtype=np.int32)) == 499500
')
  echo "$out"
  echo "$out" | grep -q "^installed $prefix/"
  echo "installed Python module: ok"
fi
