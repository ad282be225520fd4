// Runtime: context, queue, run-time kernel loading and the program cache.
#include "core/runtime.hpp"

#include "clreduce/error.hpp"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#ifndef CLREDUCE_DEFAULT_KERNEL_DIR
#define CLREDUCE_DEFAULT_KERNEL_DIR "kernels_cl"
#endif

namespace clreduce {

namespace fs = std::filesystem;

fs::path default_kernel_dir() {
  if (const char* env = std::getenv("CLREDUCE_KERNEL_DIR"); env && *env) return env;
  return CLREDUCE_DEFAULT_KERNEL_DIR;
}

Runtime::Runtime(DeviceInfo device, fs::path kernel_dir)
    : device_(std::move(device)), kernel_dir_(std::move(kernel_dir)) {
  if (!fs::is_directory(kernel_dir_))
    throw Error("kernel directory '" + kernel_dir_.string() +
                "' does not exist; pass --kernel-dir DIR or set CLREDUCE_KERNEL_DIR to the "
                "directory holding the .cl files (the source tree's kernels_cl/)");
  with_cl_context("creating a context and its queues on " + device_.name, [&] {
    context_ = cl::Context(device_.device);
    queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
    plain_queue_ = cl::CommandQueue(context_, device_.device, cl_command_queue_properties{0});
  });
}

namespace {
std::string read_file(const fs::path& path, const std::string& why) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("kernel file '" + path.string() + "' not found" + why +
                "; the kernel directory is set by --kernel-dir or CLREDUCE_KERNEL_DIR");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void inline_includes(const fs::path& dir, const std::string& file, std::set<std::string>& stack,
                     std::string& out, const std::string& why) {
  if (!stack.insert(file).second) throw Error("kernel file '" + file + "' includes itself");
  static const std::regex include_line(R"re(^\s*#\s*include\s*"([^"]+)"\s*$)re");
  std::istringstream in(read_file(dir / file, why));
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, include_line)) {
      inline_includes(dir, m[1].str(), stack, out, " (included by " + file + ")");
    } else {
      out += line;
      out += '\n';
    }
  }
  stack.erase(file);
}
}  // namespace

std::string Runtime::load_source(const std::string& file) const {
  std::set<std::string> stack;
  std::string out;
  inline_includes(kernel_dir_, file, stack, out, "");
  return out;
}

cl::Program Runtime::program(const std::string& file, const std::string& options) {
  std::string source = load_source(file);
  auto key = std::make_tuple(device_.device(), source, options);
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  cl::Program prog = with_cl_context("creating program " + file,
                                     [&] { return cl::Program(context_, source); });
  try {
    prog.build(std::vector<cl::Device>{device_.device}, options.c_str());
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device);
    } catch (const cl::Error&) {
      log = "(no build log available)";
    }
    throw Error("building kernel file '" + (kernel_dir_ / file).string() + "' for " + device_.name +
                " failed: " + cl_status_name(e.err()) + "\noptions: " + options +
                "\nbuild log:\n" + log);
  }
  ++builds_;
  cache_.emplace(std::move(key), prog);
  return prog;
}

cl::Kernel Runtime::kernel(const std::string& file, const std::string& kernel_name,
                           const std::string& options) {
  cl::Program prog = program(file, options);
  try {
    return cl::Kernel(prog, kernel_name.c_str());
  } catch (const cl::Error& e) {
    throw Error("kernel '" + kernel_name + "' not found in '" + (kernel_dir_ / file).string() +
                "': " + describe(e));
  }
}

KernelLimits Runtime::limits(const cl::Kernel& k) const {
  return with_cl_context("querying kernel limits", [&] {
    KernelLimits l;
    l.max_work_group_size = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_.device);
    l.local_mem_bytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_.device);
    return l;
  });
}

}  // namespace clreduce
