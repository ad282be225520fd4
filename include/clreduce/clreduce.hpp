// clreduce: parallel reductions and transposes of OpenCL buffers, at the memory-bandwidth limit
// of the device, with kernels read at run time. The one header an application includes:
//
//   #include <clreduce/clreduce.hpp>
//   float s = clreduce::reduce(std::vector<float>{...}, clreduce::Op::Sum);   // host data
//   clreduce::Reducer r(queue);                                               // your queue
//   std::uint32_t m = r.reduce<std::uint32_t>(buffer, n, clreduce::Op::Max);   // your buffer
//   cl::Event e = r.reduce_to<float>(buffer, n, clreduce::Op::Sum, out);     // no host round trip
//
// What each header holds:
//   types.hpp      element types, operators, Value, -D definitions
//   error.hpp      clreduce::Error and the parameter it names
//   device.hpp     devices: listing, facts, selection, occupancy
//   kernels.hpp    where the .cl files are found, option strings, the program cache
//   variants.hpp   the reduction family's registry
//   reduce.hpp     Reducer (a user's queue and buffers), clreduce::reduce (host data)
//   transpose.hpp  Transposer and the transpose family's registry
//   axis.hpp       AxisReducer: one value per row or per column of a matrix, and its registry
//   segmented.hpp  SegmentedReducer: one value per segment of an array (CSR offsets)
//   multi_device.hpp  MultiReducer: one reduction over several devices, values folded in device order
//   tuning.hpp     the per-device tuning database `clreduce tune` writes
//   timing.hpp     timing device work as clreduce's benchmarks do
//
// Not included here: clreduce/introspect.hpp, the measuring hooks (the launch a reducer resolves,
// enqueued on a queue of one's own, the buffers it keeps), which clreduce's tools and tests use.
#pragma once

#include "clreduce/axis.hpp"
#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/fill.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/multi_device.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/timing.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/tuning.hpp"
#include "clreduce/types.hpp"
#include "clreduce/user_operator.hpp"
#include "clreduce/variants.hpp"
#include "clreduce/watchdog.hpp"

namespace clreduce {
// The library's version (also in the CMake package and the pkg-config file).
inline constexpr const char* kVersion = "0.2.0";
}  // namespace clreduce
