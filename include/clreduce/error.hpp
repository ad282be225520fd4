// Errors: the one exception type clreduce throws, the parameter it is about (so that a front end
// can name its own option for it), and the single place that turns an OpenCL status code into a
// readable message.
// Thread-safety: Error is an ordinary exception value; the functions keep no state.
#pragma once

#include "clreduce/opencl.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace clreduce {

// What a failure is about. A front end maps each to its own spelling (the clreduce command line
// maps WorkGroupSize to --wg); messages name the parameter as the kernels and this library do.
enum class Param {
  None,           // not about one parameter (an OpenCL failure, a missing platform)
  Variant,        // the variant name (reduction or transpose)
  Type,           // the element type
  Op,             // the operator
  N,              // the element count
  Offset,         // the first element's index in the user's buffer
  WorkGroupSize,  // WG_SIZE (reductions), or the whole work-group (transposes)
  Times,          // TIMES: elements (or vectors) one work-item accumulates
  GroupsPerCu,    // work-groups per compute unit (TIMES then follows from n)
  Vec,            // VEC: elements per vector load
  Define,         // a user -D NAME[=VALUE]
  KernelDir,      // the directory the .cl files are read from
  TuningDb,       // the tuning database file
  Device,         // the device (selection, or a facility it lacks)
  Platform,       // the platform index
  Queue,          // the command queue given to a reducer
  Buffer,         // a buffer given to a reducer (too small for n and the offset)
  Shape,          // a transpose's M x N
  WgX,            // a transpose's work-group width
  WgY,            // a transpose's work-group height
  Tile,           // TILE: a transpose's tile edge
  Rows,           // ROWS: the work-group rows of local_tile_multi
  Axis,           // the axis of an axis reduction: rows or cols
  RowWidth,       // ROW_WIDTH: work-items per row of rows_sliced
  Chunks,         // the row chunks of cols_tile
  Segments,       // the offsets of a segmented reduction's segments
  OpFile,         // a user operator's file (Op::User)
  Devices,        // the device list of a multi-device reduction
  Split,          // how a multi-device reduction splits its input
  HostPath,       // how host data reaches a device (pageable, pinned, in place)
  Scalars,        // a reduction descriptor's run-time scalar arguments
  Launch,         // a prepared launch given to an introspection hook (clreduce/introspect.hpp)
};

// How messages name the parameter: "work-group size", "TIMES", "n", ...
std::string_view name_of(Param p);

// Every failure clreduce reports: bad input, a configuration the device refuses, a missing kernel,
// a failed build (with its log), an OpenCL error. what() is one or more complete sentences for a
// person: the problem, the valid choices and, where it matters, the device.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  // `valid`: the valid values in words ("1..1024", "a power of two up to 256"); `device`: the
  // device's name where the limit is the device's. Both are already part of `what`.
  Error(Param param, const std::string& what, std::string valid = {}, std::string device = {})
      : std::runtime_error(what), param_(param), valid_(std::move(valid)), device_(std::move(device)) {}

  Param param() const { return param_; }
  const std::string& valid() const { return valid_; }
  const std::string& device() const { return device_; }

 private:
  Param param_ = Param::None;
  std::string valid_, device_;
};

// A configuration refused before any kernel is built: a value outside its valid set, over a
// device limit, or a variant the device cannot run. A search over configurations skips it.
class ConfigError : public Error {
 public:
  using Error::Error;
};

// A configuration valid in general that the built kernel refuses by its own limits
// (CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_LOCAL_MEM_SIZE). A search skips it too.
class LimitError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// "CL_INVALID_WORK_GROUP_SIZE" for -54; "unknown OpenCL status" otherwise.
const char* cl_status_name(cl_int status);

// "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5)".
std::string describe(const cl::Error& e);

// Runs f, turning a cl::Error into clreduce::Error with `context` in front.
template <class F>
auto with_cl_context(const std::string& context, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const cl::Error& e) {
    throw Error(context + ": " + describe(e));
  }
}

}  // namespace clreduce
