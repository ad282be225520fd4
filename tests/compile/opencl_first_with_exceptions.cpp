// An application that includes the OpenCL C++ bindings first with clreduce's settings: it compiles
// (tests/CMakeLists.txt checks its syntax; the #error of opencl_first_without_exceptions.cpp is
// not in its way).
#define CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>

#include <clreduce/clreduce.hpp>

int main() {
  const std::vector<float> x(1000, 1.0f);
  return clreduce::reduce(x, clreduce::Op::Sum) == 1000.0f ? 0 : 1;
}
