#pragma once
// The kernel watchdog: a kernel that never finishes (a loop without end in a kernel directory's
// file or a user's operator file) would leave its caller waiting forever, and OpenCL has no way
// to stop a kernel once it runs. With a timeout set, every kernel clreduce launches is watched;
// one that runs longer than the timeout ends the process: one line on stderr naming the kernel,
// its file, its directory, the device and the timeout, then exit status 3 (std::_Exit: no
// destructors run, since the device may never give its queue back).
//
// How it watches, and what the timeout bounds: a thread looks every 2 ms while a queue is watched.
// Once the host has launched nothing on a queue for 1 ms (it waits, or works on the host), or
// every 0.25 s of launching without a pause, it places a marker (clEnqueueMarkerWithWaitList,
// then clFlush) behind that burst of launches. A burst whose marker has not finished the timeout
// after the burst could start (the later of its first launch and the end of the marker before it)
// ends the process. So the timeout bounds one burst, in practice the one kernel the host waits
// for. A launch that has not returned for the timeout (a driver blocked behind a stuck kernel)
// ends it too. The message names the first kernel of the burst and, where the burst had more
// launches, how many and which kernels.
//
// Off in the library unless the application sets it (ending the application's process is its
// call); the `clreduce` tool sets it (--kernel-timeout, CLREDUCE_KERNEL_TIMEOUT, 300 s unless
// given). Watching costs three uncontended lock takes per launch and a marker per burst; no
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
