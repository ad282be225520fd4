// The family benchmark's points.
#include "benchmarks/family.hpp"

namespace clreduce {

std::uint64_t default_bench_n(const DeviceInfo& dev) {
  return dev.is_gpu ? (std::uint64_t{1} << 26) : (std::uint64_t{1} << 22);
}

std::function<std::vector<Point>(const Variant&, std::uint64_t)> family_points(const ReduceParams& given,
                                                                               bool use_tuning) {
  return [given, use_tuning](const Variant& v, std::uint64_t) {
    Point p;
    p.params.wg = given.wg;
    p.params.defines = given.defines;
    if (v.uses_times()) p.params.times = given.times;
    if (v.takes_groups_per_cu()) p.params.groups_per_cu = given.groups_per_cu;
    if (v.uses_vec()) p.params.vec = given.vec;
    p.use_tuning = use_tuning;
    return std::vector<Point>{p};
  };
}

}  // namespace clreduce
