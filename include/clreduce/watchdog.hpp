#pragma once
// The kernel watchdog: a kernel that never finishes (a loop without end in a kernel directory's
// file or a user's operator file) would leave its caller waiting forever, and OpenCL has no way
// to stop a kernel once it runs. With a timeout set, every kernel clreduce launches is watched;
// one that runs longer than the timeout ends the process: one line on stderr naming the kernel,
// its file, its directory, the device and the timeout, then exit status 3 (std::_Exit: no
// destructors run, since the device may never give its queue back).
//
// A kernel's run is counted from the later of its launch and the end of the kernel before it on
// the same queue (every queue clreduce launches on is in order), as seen by a thread that looks
// every 0.25 s. The timeout bounds one kernel, not a batch of them.
//
// Off in the library unless the application sets it (ending the application's process is its
// call); the `clreduce` tool sets it (--kernel-timeout, CLREDUCE_KERNEL_TIMEOUT, 300 s unless
// given). Watching costs one event per launch and the watcher thread's polls.
//
// Thread-safety: every function may be called from any thread.
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
