# Sourced by the bench/gpu_*.sh scripts on the lent GPU machine (no packages there): gpu_build
# unpacks the bundled headers and loader (.gpu/env.sh, made by ../shared/gpu/bundle.sh), prints
# the GPU, driver and date, and builds a Release tree in build-gpu/ (errors and warnings only).
# It runs in the calling shell, so the environment of env.sh stays set for the commands after it.
gpu_build() {
  source .gpu/env.sh
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  date -u
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build-gpu -j"${JOBS:-16}" 2>&1 | grep -E "error:|warning:" || true
}

# The frame of a device call whose files come back as one tarball: gpu_begin makes $R
# ($OUT/r), builds (gpu_build) with its output in $R/log.txt; gpu_end packs $R into $OUT/all.tgz.
gpu_begin() {
  OUT=${OUT:-bench/out}
  R=$OUT/r
  mkdir -p "$R"
  gpu_build >"$R/log.txt" 2>&1
  echo "built at ${SECONDS}s" >>"$R/log.txt"
}
gpu_end() {
  echo "done at ${SECONDS}s" >>"$R/log.txt"
  tar czf "$OUT/all.tgz" -C "$OUT" r && rm -rf "$R"
}

# A sweep: each `sweep_run LABEL ARGS...` runs `clreduce reduce --iterations 10 ARGS` (10 samples
# back-to-back) and appends one line to $R/sweep.txt: the label, the launch, the median in µs, the
# bandwidth and the check (or the error).
sweep_run() {
  local label=$1
  shift
  local t
  [ -f "$R/sweep.txt" ] || echo "label | launch | median µs (b2b) | bandwidth | check" >"$R/sweep.txt"
  t=$(timeout 60 build-gpu/clreduce reduce --iterations 10 "$@" 2>&1)
  echo "$label | $(grep -m1 '^launch' <<<"$t" | cut -c12-) | $(grep -m1 '^time' <<<"$t" | sed 's/.*median \([0-9.]*\) µs.*/\1/') | $(grep -m1 '^bandwidth' <<<"$t" | cut -c12- | cut -d' ' -f1-2) | $(grep -m1 '^check' <<<"$t" | cut -c12-40)$(grep -m1 -i 'error' <<<"$t")" >>"$R/sweep.txt"
}

# CUB's whole-array reductions beside the descriptors' (bench/cub_descriptor_peers.cu), built
# against CCCL 3.1 from CuPy's site-packages (CUDA 13.0's own headers are older): prints its CSV.
cub_descriptor_peers() {
  local cccl
  cccl="$(python3 -c 'import cupy, os; print(os.path.dirname(cupy.__file__))')/_core/include/cupy/_cccl"
  [ -x /tmp/cub_descriptor_peers ] ||
    nvcc -O3 -std=c++17 -arch=sm_90 -I"$cccl/libcudacxx" -I"$cccl/cub" -I"$cccl/thrust" \
      bench/cub_descriptor_peers.cu -o /tmp/cub_descriptor_peers >/tmp/cub_descriptor_peers.log 2>&1 ||
    { cat /tmp/cub_descriptor_peers.log >&2; return 1; }  # the warnings stay out of the CSV
  timeout 120 /tmp/cub_descriptor_peers "$@"
}
