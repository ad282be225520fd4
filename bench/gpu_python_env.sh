# Sourced on the lent GPU machine (no packages there) to run clreduce's Python module beside
# PyOpenCL: the GPU machine's own python3 has no PyOpenCL, so Debian 12's Python 3.11 travels with
# it as Debian packages in .gpu/debs-py (made here with
#   mkdir -p .gpu/debs-py && cd .gpu/debs-py && apt-get download python3.11-minimal
#     libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev python3-numpy python3-pyopencl
#     python3-pytools python3-platformdirs python3-appdirs python3-typing-extensions python3-mako
#     python3-markupsafe python3-six python3-pkg-resources libblas3 liblapack3 libgfortran5
#     libquadmath0 libffi8 pybind11-dev),
# unpacked under /tmp/gpu-py (never over /). Sets PY311 (the interpreter, with PYTHONHOME at the
# unpacked tree) and defines py311_module LIBDIR DEST: the module compiled by hand for it (its
# headers, Debian's pybind11) against LIBDIR's libclreduce, with the package's files, into
# DEST/clreduce (import it with PYTHONPATH=DEST). LIBDIR's library must be configured with
# -DCLREDUCE_PRIVATE_RUNTIME=ON: the machine's libstdc++ is an archive, and a library exporting
# its copy crashed in a Python process (CMakeLists.txt says why that is not the default). By hand, not by CMake: FindPython, configured
# for this interpreter on that machine, ran the machine's own venv python under PYTHONHOME and
# failed (session 18, call 2). Source after .gpu/env.sh (the ICD loader and the NVIDIA vendor file).
_p=/tmp/gpu-py
mkdir -p "$_p"
for _f in .gpu/debs-py/*.deb; do dpkg -x "$_f" "$_p"; done
_l="$_p/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$_l:$_l/blas:$_l/lapack${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PY311="env PYTHONHOME=$_p/usr $_p/usr/bin/python3.11"
py311_module() {
  local lib=$1 dest=$2 p=/tmp/gpu-py/usr
  mkdir -p "$dest/clreduce" && cp python/clreduce/*.py "$dest/clreduce/"
  g++ -std=c++17 -O2 -shared -fPIC python/module.cpp -Iinclude -I$p/include/python3.11 \
    -I$p/include/x86_64-linux-gnu/python3.11 -I$p/include -L"$lib" -lclreduce -lOpenCL \
    -Wl,--exclude-libs,ALL -Wl,-rpath,"$(cd "$lib" && pwd)" -o "$dest/clreduce/_clreduce.cpython-311-x86_64-linux-gnu.so"
}
unset _p _f _l
