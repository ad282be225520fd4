// An application that includes the OpenCL C++ bindings first, without exceptions, then clreduce:
// the build must stop at clreduce's #error saying what to define (tests/CMakeLists.txt expects
// its text), not at "'Error' in namespace 'cl' does not name a type".
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>

#include <clreduce/clreduce.hpp>

int main() { return 0; }
