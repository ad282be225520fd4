// check_matrix: one wording of the matrix jobs' refusals; the axis and segmented kernels' lockstep options.
#include "core/matrix.hpp"

#include "clreduce/error.hpp"

namespace clreduce {

std::string shape_text(std::uint64_t m, std::uint64_t n) { return std::to_string(m) + "x" + std::to_string(n); }

void check_type_on_device(const DeviceInfo& dev, ElemType type) {
  if (type == ElemType::Double && !dev.fp64)
    throw ConfigError(Param::Type,
                      "type double needs the cl_khr_fp64 extension, which " + dev.name +
                          " does not report; valid types here: uint, int, float",
                      "uint, int, float", dev.name);
}

void check_matrix(const DeviceInfo& dev, ElemType type, std::uint64_t m, std::uint64_t n) {
  constexpr std::uint64_t kMaxDim = 0xffffffffULL;
  if (m == 0 || n == 0 || m > kMaxDim || n > kMaxDim)
    throw ConfigError(Param::Shape,
                      "matrix " + shape_text(m, n) +
                          ": rows and columns must each be in 1..4294967295 (the kernels take 32-bit M, N)",
                      "M and N in 1..4294967295");
  check_type_on_device(dev, type);
  const std::uint64_t es = size_of(type);
  if (m > dev.max_alloc_bytes / es / n)
    throw ConfigError(Param::Shape,
                      "matrix " + shape_text(m, n) + " of " + std::string(name_of(type)) +
                          " is over the largest single allocation of " + dev.name + ", " +
                          std::to_string(dev.max_alloc_bytes) + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                      "M * N * element size <= " + std::to_string(dev.max_alloc_bytes), dev.name);
}

void set_lockstep(BuildOptions& o, Op op, const DeviceInfo& dev) {
  if (is_arg_op(op)) return;
  o.set("LOCKSTEP", dev.lockstep_width);
  if (dev.is_nvidia) o.set("NV_WARP_SYNC", 1ULL);
}

}  // namespace clreduce
