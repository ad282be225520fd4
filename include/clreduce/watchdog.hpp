#pragma once
// The kernel watchdog: a kernel that never finishes (a loop without end in a kernel directory's
// file or a user's operator file) would leave its caller waiting forever, and OpenCL has no way
// to stop a kernel once it runs. With a timeout set, every kernel clreduce launches is watched;
// one that runs longer than the timeout ends the process: one line on stderr naming the kernel,
// its file, its directory, the device and the timeout, then exit status 3 (std::_Exit: no
// destructors run, since the device may never give its queue back).
//
// How it watches, and what the timeout bounds: a thread looks every 0.25 s. Each look places a
// marker (clEnqueueMarkerWithWaitList, then clFlush) behind the launches made on a queue since its
// last marker, once that marker has finished; a marker not finished the timeout after its launches
// could start (the later of their launch and the end of the marker before it) ends the process.
// So the timeout bounds the launches the host made on one queue within one 0.25 s look, in practice
// one kernel: a host waits for its results within a look, or launches short kernels. A launch that
// has not returned for the timeout (a driver blocked behind a stuck kernel) ends it too. The message
// names the first kernel of those launches and, where there were several, how many and which.
//
// Off in the library unless the application sets it (ending the application's process is its
// call); the `clreduce` tool sets it (--kernel-timeout, CLREDUCE_KERNEL_TIMEOUT, 300 s unless
// given). Watching costs two uncontended locks per launch and one marker per queue per look; no
// event per launch (NVIDIA's OpenCL took about 8 us per launch for one, bench/NOTES.md).
//
// Thread-safety: every function may be called from any thread; with the watchdog on, launches on
// one queue from several threads take turns (a lock per queue around the enqueue).
#include "clreduce/opencl.hpp"

#include <string>
#include <vector>

namespace clreduce {

// Seconds one kernel may run before the process ends; 0 turns the watchdog off (the default).
// Throws Error (Param::None) for a negative or non-finite value.
void set_kernel_timeout(double seconds);
double kernel_timeout();

// Words added to the watchdog's message, after the kernel's directory (the tool says where the
// directory came from: "the kernel directory from CLREDUCE_KERNEL_DIR").
void set_kernel_timeout_note(const std::string& note);

// clEnqueueNDRangeKernel (cl::CommandQueue::enqueueNDRangeKernel, the same arguments), and with
// the watchdog on, the launch watched: every kernel of clreduce is launched through it, and an
// application's own kernels may be. Throws cl::Error as the enqueue does.
void enqueue_kernel(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& offset,
                    const cl::NDRange& global, const cl::NDRange& local,
                    const std::vector<cl::Event>* wait = nullptr, cl::Event* event = nullptr);

}  // namespace clreduce
