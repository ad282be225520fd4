// kernel_limits: builds one kernel file for the first GPU (else the first device) with the given
// options and prints what the driver says about it: CL_KERNEL_WORK_GROUP_SIZE, the compile
// work-group size, local and private memory, and the build log (pass -cl-nv-verbose on NVIDIA to
// see registers). A diagnostic for "why does the kernel refuse this work-group size".
// Build: g++ -std=c++17 -O2 bench/tools/kernel_limits.cpp -lOpenCL -o kernel_limits
// Usage: kernel_limits FILE.cl KERNEL "OPTIONS"   (run from kernels_cl/ so #include finds files)
//        kernel_limits --launch  (a trivial kernel with reqd_work_group_size 64 .. 1024: what the
//                                 driver reports, and whether a launch of that size runs)
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

// Builds `__kernel reqd_work_group_size(wg)` writing get_local_size(0) everywhere, reports
// CL_KERNEL_WORK_GROUP_SIZE and launches one group of wg: "ok" when every element came back.
int launch_test(const cl::Device& dev) {
  cl::Context ctx(dev);
  cl::CommandQueue q(ctx, dev);
  for (unsigned wg : {64u, 128u, 256u, 512u, 1024u}) {
    const std::string src = "__kernel __attribute__((reqd_work_group_size(" + std::to_string(wg) +
                            ",1,1))) void k(__global uint* o) { o[get_global_id(0)] = "
                            "get_local_size(0) + get_local_id(0); }";
    cl::Program prog(ctx, src);
    prog.build({dev}, "");
    cl::Kernel k(prog, "k");
    cl::Buffer b(ctx, CL_MEM_READ_WRITE, wg * 4);
    k.setArg(0, b);
    std::vector<cl_uint> out(wg, 0);
    std::string result = "ok";
    try {
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(wg), cl::NDRange(wg));
      q.enqueueReadBuffer(b, CL_TRUE, 0, wg * 4, out.data());
      for (unsigned i = 0; i < wg; ++i)
        if (out[i] != wg + i) result = "WRONG at " + std::to_string(i);
    } catch (const cl::Error& e) {
      result = "launch failed: error " + std::to_string(e.err());
    }
    std::cout << "reqd " << wg << ": CL_KERNEL_WORK_GROUP_SIZE "
              << k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev) << ", launch of " << wg << ": "
              << result << "\n";
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3 && !(argc == 2 && std::string(argv[1]) == "--launch")) {
    std::cerr << "usage: kernel_limits FILE.cl KERNEL [OPTIONS]\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string options = std::string(argc > 3 ? argv[3] : "") + " -I .";
  try {
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    cl::Device dev;
    for (auto& p : platforms) {
      std::vector<cl::Device> ds;
      p.getDevices(CL_DEVICE_TYPE_ALL, &ds);
      for (auto& d : ds)
        if (!dev() || (d.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU)) {
          const bool had_gpu = dev() && (dev.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU);
          if (!had_gpu) dev = d;
        }
    }
    if (std::string(argv[1]) == "--launch") return launch_test(dev);
    cl::Context ctx(dev);
    cl::Program prog(ctx, ss.str());
    try {
      prog.build({dev}, options.c_str());
    } catch (const cl::Error&) {
    }
    std::cout << "device  " << dev.getInfo<CL_DEVICE_NAME>() << "\noptions " << options
              << "\nbuild log:\n" << prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(dev) << "\n";
    cl::Kernel k(prog, argv[2]);
    const auto cwg = k.getWorkGroupInfo<CL_KERNEL_COMPILE_WORK_GROUP_SIZE>(dev);
    std::cout << "CL_KERNEL_WORK_GROUP_SIZE         " << k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev)
              << "\nCL_KERNEL_COMPILE_WORK_GROUP_SIZE " << cwg[0] << "x" << cwg[1] << "x" << cwg[2]
              << "\nCL_KERNEL_LOCAL_MEM_SIZE          " << k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(dev)
              << "\nCL_KERNEL_PRIVATE_MEM_SIZE        " << k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(dev)
              << "\nPREFERRED_WORK_GROUP_SIZE_MULTIPLE "
              << k.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(dev) << "\n";
  } catch (const cl::Error& e) {
    std::cerr << "OpenCL error " << e.err() << " in " << e.what() << "\n";
    return 1;
  }
  return 0;
}
