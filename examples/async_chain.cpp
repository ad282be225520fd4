// An application with its own context, queue, buffer and kernels: it fills a buffer on the
// device, has clreduce find the maximum into a device buffer asynchronously (no host round
// trip), and its next kernel uses that maximum: each element's distance below it. The host waits
// once, at the end. (Integers, so the check is exact on every device: OpenCL lets a float
// division be off by 2.5 ulp, and NVIDIA's is.)
#include <clreduce/clreduce.hpp>
#include <clreduce/introspect/reduce.hpp>  // which variant the reducer chose, for the printout

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

static const char* kAppKernels = R"CL(
__kernel void fill(__global uint* x) {   // x[i] = (i * 7919) % 1000003
  const ulong i = get_global_id(0);
  x[i] = (uint)((i * 7919UL) % 1000003UL);
}
__kernel void below(__global const uint* x, __global const uint* max, __global uint* y) {
  const ulong i = get_global_id(0);
  y[i] = max[0] - x[i];
}
)CL";

int main() {
  try {
    const clreduce::DeviceInfo dev = clreduce::select_device({});
    cl::Context context(dev.device);
    cl::CommandQueue queue(context, dev.device);
    cl::Program program(context, kAppKernels);
    program.build();
    cl::Kernel fill(program, "fill"), below(program, "below");

    const std::size_t n = 1 << 20;
    cl::Buffer x(context, CL_MEM_READ_WRITE, n * sizeof(std::uint32_t));
    cl::Buffer max(context, CL_MEM_READ_WRITE, sizeof(std::uint32_t));
    cl::Buffer y(context, CL_MEM_WRITE_ONLY, n * sizeof(std::uint32_t));
    fill.setArg(0, x);
    queue.enqueueNDRangeKernel(fill, cl::NullRange, cl::NDRange(n));

    clreduce::Reducer reducer(queue);  // the best known launch for this device
    const cl::Event found = reducer.reduce_to<std::uint32_t>(x, n, clreduce::Op::Max, max);

    below.setArg(0, x);
    below.setArg(1, max);
    below.setArg(2, y);
    const std::vector<cl::Event> after{found};
    queue.enqueueNDRangeKernel(below, cl::NullRange, cl::NDRange(n), cl::NullRange, &after);

    std::vector<std::uint32_t> out(n);
    queue.enqueueReadBuffer(y, CL_TRUE, 0, n * sizeof(std::uint32_t), out.data());  // the one wait

    std::uint32_t expected = 0;
    for (std::uint64_t i = 0; i < n; ++i) expected = std::max<std::uint32_t>(expected, (i * 7919) % 1000003);
    std::size_t wrong = 0;
    for (std::uint64_t i = 0; i < n; ++i) wrong += out[i] != expected - (i * 7919) % 1000003;
    const auto launch = clreduce::introspect::prepare(reducer, clreduce::ElemType::Uint, clreduce::Op::Max, n);
    std::printf("max %u via %s (%s); %zu of %zu distances below it wrong\n", expected, launch->config.variant.c_str(),
                launch->chosen_by.c_str(), wrong, n);
    return wrong == 0 ? 0 : 1;
  } catch (const clreduce::Error& e) {
    std::fprintf(stderr, "async_chain: %s\n", e.what());
    return 2;
  }
}
