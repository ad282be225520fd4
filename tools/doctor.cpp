// clreduce doctor.
#include "doctor.hpp"

#include "clreduce/kernels.hpp"
#include "clreduce/error.hpp"
#include "measure/session.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <cerrno>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clreduce {

namespace fs = std::filesystem;

namespace {
std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  const auto e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Opens the library and looks for the ICD entry point in a child process, so that whatever the
// library does when it is loaded and unloaded stays out of this one: two vendor libraries that
// share LLVM (PoCL and Mesa's Rusticl) abort a process that loads, closes and loads them again
// ("Option 'add-wi-metadata' registered more than once"), which the ICD loader then does.
VendorLibrary probe_library(const std::string& source, const std::string& library) {
  VendorLibrary v;
  v.source = source;
  v.library = library;
  int fds[2];
  if (pipe(fds) != 0) {
    v.error = std::string("cannot probe it: pipe failed: ") + std::strerror(errno);
    return v;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    v.error = std::string("cannot probe it: fork failed: ") + std::strerror(errno);
    return v;
  }
  if (pid == 0) {  // the child: one line "<loads> <has_icd_entry> <dlerror>" to the pipe
    close(fds[0]);
    dlerror();
    void* h = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string line;
    if (!h) {
      const char* e = dlerror();
      line = "0 0 " + std::string(e ? e : "dlopen failed");
    } else {
      // The ICD loader finds a driver's entry point through the driver's own
      // clGetExtensionFunctionAddress (cl_khr_icd), or exported directly.
      using GetAddress = void* (*)(const char*);
      const auto get = reinterpret_cast<GetAddress>(dlsym(h, "clGetExtensionFunctionAddress"));
      const bool entry = dlsym(h, "clIcdGetPlatformIDsKHR") != nullptr || (get && get("clIcdGetPlatformIDsKHR") != nullptr);
      line = std::string("1 ") + (entry ? "1" : "0") + " ";
    }
    const char* p = line.data();
    for (std::size_t left = line.size(); left > 0;) {
      const ssize_t w = write(fds[1], p, left);
      if (w <= 0) break;
      p += w;
      left -= static_cast<std::size_t>(w);
    }
    _exit(0);  // no destructors, no dlclose, no atexit handlers of the library
  }
  close(fds[1]);
  std::string got;
  char buf[512];
  for (ssize_t r; (r = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(r));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got.size() < 4) {
    v.error = WIFSIGNALED(status) ? "loading it killed the probing process (signal " + std::to_string(WTERMSIG(status)) + ")"
                                  : "loading it ended the probing process (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    return v;
  }
  v.loads = got[0] == '1';
  v.has_icd_entry = got[2] == '1';
  if (!v.loads) v.error = got.substr(4);
  return v;
}

std::string us(double x) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << x << " µs";
  return s.str();
}

// The profiling timer of one device against the host clock.
void check_timer(const DeviceInfo& dev, std::vector<Finding>& out) {
  const std::string who = " (" + dev.name + ")";
  const std::uint64_t res = dev.timer_resolution_ns;
  out.push_back({"timer resolution" + who, res > 0 && res <= 1000000,
                 std::to_string(res) + " ns (CL_DEVICE_PROFILING_TIMER_RESOLUTION)" +
                     (res >= 1000 ? "; coarse: short kernels are timed in batches" : "")});
  const Session rt(dev);
  cl::Kernel k = rt.kernel("stream_read.cl", "stream_read", BuildOptions().set("WG_SIZE", 64).str());
  const std::uint64_t words = dev.is_gpu ? (std::uint64_t{1} << 24) : (std::uint64_t{1} << 22);
  cl::Buffer in(rt.context(), CL_MEM_READ_ONLY, words * 4);
  cl::Buffer sink(rt.context(), CL_MEM_WRITE_ONLY, 4);
  rt.queue().enqueueFillBuffer(in, cl_uint{1}, 0, words * 4);
  k.setArg(0, in);
  k.setArg(1, static_cast<cl_ulong>(words));
  k.setArg(2, cl_uint{0});  // the sink may be written; its value is not used
  k.setArg(3, sink);
  const cl::NDRange global(std::uint64_t{std::max(1u, dev.compute_units)} * 64 * 8), local(64);
  rt.queue().finish();

  // Order of the four timestamps, and START..END inside the host's wall time, per call.
  bool ordered = true, inside = true;
  double worst_excess = 0, span_sum = 0;
  cl_ulong last_end = 0;
  bool monotonic = true;
  for (int i = 0; i < 5; ++i) {
    cl::Event e;
    const auto t0 = std::chrono::steady_clock::now();
    enqueue_kernel(rt.queue(), k, cl::NullRange, global, local, nullptr, &e);
    rt.queue().finish();
    const auto t1 = std::chrono::steady_clock::now();
    const cl_ulong q = e.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
    const cl_ulong s = e.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>();
    const cl_ulong b = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong f = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    ordered = ordered && q <= s && s <= b && b <= f;
    monotonic = monotonic && b >= last_end;
    last_end = f;
    const double span = static_cast<double>(f - std::min(b, f)) * 1e-3;
    const double wall = std::chrono::duration<double, std::micro>(t1 - t0).count();
    span_sum += span;
    const double slack = static_cast<double>(res) * 1e-3 + 1.0;
    worst_excess = std::max(worst_excess, span - wall);
    inside = inside && span <= wall + slack;
  }
  out.push_back({"QUEUED <= SUBMIT <= START <= END" + who, ordered,
                 ordered ? "in order for 5 kernels" : "out of order: the driver's timestamps are not usable"});
  out.push_back({"END >= START and later kernels start after earlier ones end" + who, monotonic,
                 monotonic ? "yes" : "a kernel started before the previous one ended on an in-order queue"});
  out.push_back({"event time within host wall time" + who, inside,
                 inside ? "mean kernel " + us(span_sum / 5) + ", never longer than the host's wait"
                        : "a kernel's START..END exceeded the host's enqueue-to-finish time by " +
                              us(worst_excess) + ": the device clock runs fast or is mis-scaled"});

  // Clock rate: a long batch timed both ways. The device span excludes launch gaps, so it may be
  // shorter than the host's, but not longer, and not far shorter for a busy queue.
  std::vector<cl::Event> ev(2);
  const auto t0 = std::chrono::steady_clock::now();
  double host_us = 0;
  int launched = 0;
  do {
    const bool first = launched == 0;
    enqueue_kernel(rt.queue(), k, cl::NullRange, global, local, nullptr, first ? &ev[0] : &ev[1]);
    ++launched;
    if (launched % 16 == 0) rt.queue().finish();
    host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  } while (host_us < 20000 && launched < 100000);
  rt.queue().finish();
  host_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  const double dev_us = static_cast<double>(ev[1].getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                            ev[0].getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
                        1e-3;
  const double ratio = host_us > 0 ? dev_us / host_us : 0;
  std::ostringstream d;
  d.precision(3);
  d << launched << " kernels: device " << us(dev_us) << " first START to last END, host " << us(host_us)
    << " (ratio " << ratio << ")";
  const bool agrees = ratio > 0.2 && ratio <= 1.02;
  if (!agrees) d << ": the device timer does not track the host clock";
  out.push_back({"device timer agrees with the host clock" + who, agrees, d.str()});
}
}  // namespace

std::vector<VendorLibrary> find_vendor_libraries(std::string* vendors_dir, std::string* origin) {
  std::vector<VendorLibrary> out;
  if (const char* names = std::getenv("OCL_ICD_FILENAMES"); names && *names) {
    std::stringstream ss(names);
    std::string lib;
    while (std::getline(ss, lib, ':'))
      if (!trim(lib).empty()) out.push_back(probe_library("OCL_ICD_FILENAMES", trim(lib)));
  }
  const char* env = std::getenv("OCL_ICD_VENDORS");
  const std::string dir = env && *env ? env : "/etc/OpenCL/vendors";
  if (vendors_dir) *vendors_dir = dir;
  if (origin) *origin = env && *env ? "OCL_ICD_VENDORS" : "default";
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.path().extension() == ".icd") files.push_back(e.path());
  } else if (fs::is_regular_file(dir, ec)) {
    files.push_back(dir);  // ocl-icd also accepts one .icd file here
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string lib;
    std::getline(in, lib);
    out.push_back(probe_library(f.string(), trim(lib)));
  }
  return out;
}

bool DoctorReport::ok() const {
  return std::all_of(findings.begin(), findings.end(), [](const Finding& f) { return f.ok; });
}

DoctorReport run_doctor(const DeviceSelector& device) {
  DoctorReport r;
  r.libraries = find_vendor_libraries(&r.vendors_dir, &r.vendors_dir_origin);
  const bool any_file = std::any_of(r.libraries.begin(), r.libraries.end(),
                                    [](const VendorLibrary& v) { return v.source != "OCL_ICD_FILENAMES"; });
  if (r.libraries.empty()) {
    r.findings.push_back({"ICD vendor files", false,
                          "no .icd file in " + r.vendors_dir + " (" + r.vendors_dir_origin +
                              ") and OCL_ICD_FILENAMES unset: install a driver package (e.g. "
                              "pocl-opencl-icd, nvidia-opencl-icd) or point OCL_ICD_VENDORS at a "
                              "directory whose .icd file names the vendor library"});
  } else {
    r.findings.push_back({"ICD vendor files", true,
                          std::to_string(r.libraries.size()) + " vendor librar" +
                              (r.libraries.size() == 1 ? "y" : "ies") + " named (" +
                              (any_file ? r.vendors_dir : std::string("OCL_ICD_FILENAMES")) + ")"});
  }
  for (const auto& v : r.libraries) {
    std::string d = v.library + " (from " + v.source + "): ";
    if (!v.loads) d += "does not load: " + v.error;
    else if (!v.has_icd_entry) d += "loads, but provides no clIcdGetPlatformIDsKHR: not an ICD driver";
    else d += "loads";
    r.findings.push_back({"vendor library loads", v.loads && v.has_icd_entry, d});
  }

  std::vector<DeviceInfo> all;
  try {
    all = list_devices();
  } catch (const Error& e) {
    r.findings.push_back({"OpenCL platforms", false, e.what()});
    return r;
  }
  std::size_t gpus = 0;
  std::ostringstream seen;
  for (const auto& d : all) {
    gpus += d.is_gpu;
    seen << (seen.tellp() > 0 ? "; " : "") << d.platform_index << ":" << d.device_index << " "
         << d.name << " [" << d.type_name << "]";
  }
  r.findings.push_back({"OpenCL platforms and devices", !all.empty(),
                        std::to_string(all.size()) + " device(s): " + seen.str()});
  r.findings.push_back(
      {"a GPU", true,
       gpus ? std::to_string(gpus) + " GPU(s); the default device is the first"
            : "none: the default device is the first CPU device. A GPU needs its vendor's ICD (a "
              ".icd file naming e.g. libnvidia-opencl.so.1) and the driver loaded; check the "
              "vendor library lines above"});
  try {
    check_timer(select_device(all, device), r.findings);
  } catch (const Error& e) {
    r.findings.push_back({"timer check", false, e.what()});
  } catch (const cl::Error& e) {
    r.findings.push_back({"timer check", false, describe(e)});
  }
  return r;
}

std::string doctor_text(const DoctorReport& r) {
  std::ostringstream out;
  out << "ICD vendor files: " << r.vendors_dir << " (" << r.vendors_dir_origin << ")";
  if (const char* f = std::getenv("OCL_ICD_FILENAMES"); f && *f) out << "; OCL_ICD_FILENAMES=" << f;
  out << "\n";
  for (const auto& f : r.findings)
    out << (f.ok ? "  ok    " : "  FAIL  ") << f.check << ": " << f.detail << "\n";
  out << (r.ok() ? "all checks passed\n" : "some checks failed (FAIL above)\n");
  return out.str();
}

}  // namespace clreduce
