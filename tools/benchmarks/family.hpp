// `clreduce bench`: the whole family on one input, beside the read peak measured on it. One point
// per variant: the parameters the user gave (each to the variants that take it), the rest from
// the tuning database where it has them, else the variant's defaults.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/reduce.hpp"
#include "measure/engine.hpp"

#include <cstdint>

namespace clreduce {

// Default benchmark size: 2^26 elements on a GPU, 2^22 elsewhere (a CPU).
std::uint64_t default_bench_n(const DeviceInfo& dev);

// The points of `bench`: `given` applied to every variant (TIMES and groups per CU only to the
// variants with TIMES, VEC only to those with VEC); use_tuning: the database fills the rest.
std::function<std::vector<Point>(const Variant&, std::uint64_t)> family_points(const ReduceParams& given,
                                                                               bool use_tuning);

}  // namespace clreduce
