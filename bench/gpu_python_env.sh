# Sourced on the lent GPU machine (no packages there) to run clreduce's Python module beside
# PyOpenCL: the GPU machine's own python3 has no PyOpenCL, so Debian 12's Python 3.11 travels with
# it as Debian packages in .gpu/debs-py (made here with
#   mkdir -p .gpu/debs-py && cd .gpu/debs-py && apt-get download python3.11-minimal
#     libpython3.11-minimal libpython3.11-stdlib libpython3.11-dev python3-numpy python3-pyopencl
#     python3-pytools python3-platformdirs python3-appdirs python3-typing-extensions python3-mako
#     python3-markupsafe python3-six python3-pkg-resources libblas3 liblapack3 libgfortran5
#     libquadmath0 libffi8 pybind11-dev),
# unpacked under /tmp/gpu-py (never over /). Sets PY311 (the interpreter, with PYTHONHOME at the
# unpacked tree) and PY311_CMAKE (the CMake flags that build the module for it: its headers and
# Debian's pybind11). Source after .gpu/env.sh (the ICD loader and the NVIDIA vendor file).
_p=/tmp/gpu-py
mkdir -p "$_p"
for _f in .gpu/debs-py/*.deb; do dpkg -x "$_f" "$_p"; done
_l="$_p/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$_l:$_l/blas:$_l/lapack${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
PY311="env PYTHONHOME=$_p/usr $_p/usr/bin/python3.11"
PY311_CMAKE="-DPython_EXECUTABLE=$_p/usr/bin/python3.11 -DPython_ROOT_DIR=$_p/usr -Dpybind11_DIR=$_p/usr/lib/cmake/pybind11"
export PYTHONHOME_311="$_p/usr"
unset _p _f _l
