// `clreduce bench --sizes`: at each size, every variant's best configuration out of a small
// candidate set (work-group size, grid, vector width), each candidate timed both ways and
// verified, beside the read bandwidth measured on the same buffer.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/reduce.hpp"
#include "measure/engine.hpp"

namespace clreduce {

// The configurations tried for a variant on a device (for elements of `type`):
//  - work-group sizes: 128, 256, 512, 1024 on GPUs (those the device and its local memory
//    allow), or `wg` when given; on devices without occupancy facts (CPUs) only the default
//    (0: 256, or the largest power of two the device and the built kernel allow under it);
//  - variants with TIMES: the variant's default TIMES, and groups per compute unit R/2, R and 2R
//    with R from occupancy (resident_groups_per_cu), on CPUs R alone; variants that fill the
//    device by default (single_pass) only the latter, and on GPUs also grids of many short
//    groups (TIMES 4, 8, 16 with 16- and 32-byte vectors);
//  - VEC = 16 bytes / element size (16-byte loads) for the variants with VEC.
std::vector<ReduceParams> size_candidates(const Variant& v, const DeviceInfo& dev, ElemType type,
                                          std::size_t wg = 0);

// The points of `bench --sizes`: the candidates, and one more with the tuned parameters (under
// `wg` when given) where the tuning database has them and use_tuning.
std::function<std::vector<Point>(const Variant&, std::uint64_t)> sizes_points(const DeviceInfo& dev, ElemType type,
                                                                              std::size_t wg, bool use_tuning);

}  // namespace clreduce
