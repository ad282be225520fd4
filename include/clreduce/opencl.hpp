// The one include point for the Khronos OpenCL C++ bindings (CL/opencl.hpp from Debian's
// opencl-clhpp-headers) in clreduce's headers. clreduce's API takes and returns cl::Buffer,
// cl::CommandQueue and cl::Event, and reports OpenCL failures as clreduce::Error.
//
// The bindings are configured here unless the including program configured them first:
// exceptions on (CL_HPP_ENABLE_EXCEPTIONS) and the OpenCL 1.2 API level. A program that includes
// CL/opencl.hpp itself before a clreduce header must use the same settings (the C++ bindings are
// header-only, so two settings in one program are two different definitions of the same classes).
#pragma once

// A program that included CL/opencl.hpp first without exceptions has bindings with no cl::Error,
// and every clreduce header would fail with "'Error' in namespace 'cl' does not name a type".
#if defined(CL_HPP_) && !defined(CL_HPP_ENABLE_EXCEPTIONS)
#error "clreduce: CL/opencl.hpp was included before clreduce's headers without CL_HPP_ENABLE_EXCEPTIONS. clreduce's API reports OpenCL failures through cl::Error: #define CL_HPP_ENABLE_EXCEPTIONS (and CL_HPP_TARGET_OPENCL_VERSION 120, CL_HPP_MINIMUM_OPENCL_VERSION 120, as clreduce does) before including CL/opencl.hpp, or include a clreduce header first."
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
// OpenCL 1.2 API level: NVIDIA's driver offers OpenCL C 1.2 kernels, and targeting 3.0 with a
// 1.2 minimum fails to compile in opencl.hpp with g++ 13.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#include <CL/opencl.hpp>
#include <CL/cl_ext.h>
