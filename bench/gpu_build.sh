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
