// The one include point for the Khronos OpenCL C++ bindings (CL/opencl.hpp from
// opencl-clhpp-headers), configured the same way for every translation unit.
#pragma once

#define CL_HPP_ENABLE_EXCEPTIONS
// OpenCL 1.2 API level: NVIDIA's driver offers OpenCL C 1.2 kernels, and targeting 3.0 with a
// 1.2 minimum fails to compile in opencl.hpp with g++ (see ../shared/gpu/README.md).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#include <CL/opencl.hpp>
#include <CL/cl_ext.h>
