// Errors: one exception type for every problem clreduce reports, and the single place that turns
// an OpenCL status code into a readable message.
#pragma once

#include "clreduce/opencl.hpp"

#include <stdexcept>
#include <string>

namespace clreduce {

// Every user-facing failure: bad input, a missing kernel, a failed build, an OpenCL error.
// what() is one or more complete sentences meant for a person.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A configuration valid in general that this device or built kernel refuses by its limits
// (CL_KERNEL_WORK_GROUP_SIZE, local memory). A benchmark search skips such a candidate.
class LimitError : public Error {
 public:
  using Error::Error;
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
