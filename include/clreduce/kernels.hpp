// Kernels: where clreduce's .cl files are found at run time, how a kernel file becomes the source
// text the compiler sees, and the cache of built programs. The kernels are plain files read when
// a launch is prepared, so editing one (or passing -D options) never needs a rebuild; the cache
// key is the whole source text and the whole option string, so an edited file is built anew.
// Thread-safety: ProgramCache is; find_kernel_dir and load_kernel_source read the environment and
// files only.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/types.hpp"
#include "clreduce/user_operator.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace clreduce {

struct KernelDir {
  std::filesystem::path path;
  // Where it came from: "given", "CLREDUCE_KERNEL_DIR", "installed" or "build tree".
  std::string origin;
};

// The kernel directory: `given` if not empty; else $CLREDUCE_KERNEL_DIR if set and not empty;
// else the directory installed with the library (<prefix>/share/clreduce/kernels), unless the
// running program is one of clreduce's own build tree; else the build tree's kernels_cl/.
// Throws Error (Param::KernelDir) when the directory chosen does not exist or is not a directory,
// or when none of them does, naming each place looked at.
KernelDir find_kernel_dir(const std::filesystem::path& given = {});

// The text of `file` (relative to `dir`) with every `#include "x"` line replaced by the text of
// x from the same directory, so the program cache key covers the headers too; with `user_op`,
// "user_op.clh" is replaced by the user operator's text. Throws Error (Param::KernelDir) naming
// the path when a file is missing or unreadable, and an include cycle.
std::string load_kernel_source(const std::filesystem::path& dir, const std::string& file,
                               const UserOperator* user_op = nullptr);

// The option string handed to the OpenCL compiler: typed parameters first (each as
// -D NAME=VALUE), then the user's own -D definitions untouched. The whole string is part of the
// program cache key.
// Sets argument `index` of `k` to a reduction descriptor's run-time scalar `value`, converted to
// its declared type `type` (as every descriptor kernel takes its scalars; f16 and bf16 as float).
void set_scalar_kernel_arg(cl::Kernel& k, cl_uint index, Scalar type, const ScalarArg& value);

class BuildOptions {
 public:
  BuildOptions& set(const std::string& name, const std::string& value) {
    return add_flag("-D " + name + "=" + value);
  }
  BuildOptions& set(const std::string& name, unsigned long long value) {
    return set(name, std::to_string(value));
  }
  BuildOptions& add_user(const Define& d) { return add_flag("-D " + d.str()); }
  BuildOptions& add_user(const std::vector<Define>& ds) {
    for (const auto& d : ds) add_user(d);
    return *this;
  }
  BuildOptions& add_flag(const std::string& flag) {  // e.g. "-cl-fast-relaxed-math"
    text_ += text_.empty() ? flag : " " + flag;
    return *this;
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

// Limits a built kernel reports for its device.
struct KernelLimits {
  // CL_KERNEL_WORK_GROUP_SIZE; where the device's maximum is trusted (trust_device_work_group_size)
  // and larger, CL_DEVICE_MAX_WORK_GROUP_SIZE, with the kernel's own figure in
  // reported_work_group_size (last, so that {wg, local bytes} initialisations keep their meaning).
  std::size_t max_work_group_size = 0;
  std::uint64_t local_mem_bytes = 0;    // CL_KERNEL_LOCAL_MEM_SIZE
  // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: the work-items an implementation runs together
  // (a warp on NVIDIA; the SIMD lanes a CPU implementation packs work-items into: PoCL 8, llvmpipe 32).
  std::size_t preferred_multiple = 1;
  // CL_KERNEL_PRIVATE_MEM_SIZE: bytes of private memory per work-item as the implementation counts
  // them (NVIDIA: its local memory, i.e. arrays indexed at run time and spilled registers).
  std::uint64_t private_mem_bytes = 0;
  std::size_t reported_work_group_size = 0;  // CL_KERNEL_WORK_GROUP_SIZE as the driver said it (0: not asked)
};
KernelLimits kernel_limits(const cl::Kernel& k, const cl::Device& d);
// Whether CLREDUCE_TRUST_DEVICE_WG is set (and not "0"): launches may use work-groups up to the
// device's CL_DEVICE_MAX_WORK_GROUP_SIZE although a kernel reports a smaller
// CL_KERNEL_WORK_GROUP_SIZE (NVIDIA's driver reports 256 for every kernel on the H100, whose
// 1024-wide groups run and give the right sums). OpenCL does not promise such a launch: the
// caller's check of the result is what verifies it (the CLI's --trust-device-wg says so). Unset:
// the kernel's figure is the limit.
bool trust_device_work_group_size();
// The limit a launch keeps to: the kernel's reported size, or with `trust` the device's maximum
// where that is larger.
std::size_t work_group_limit(std::size_t kernel_reported, std::size_t device_max, bool trust);
// Throws LimitError naming the limit when a kernel built for work-groups of `wg` work-items
// allows fewer, or needs more local memory than the device has; the error names `param`, the
// parameter that set the group (Param::WorkGroupSize; a transpose's Param::Tile or Param::WgX).
void check_kernel_limits(const std::string& kernel, std::size_t wg, const KernelLimits& limits,
                         const DeviceInfo& dev, Param param = Param::WorkGroupSize);

// Whether CLREDUCE_BUILD_LOG is set (and not "0"): every build keeps the compiler's warnings and
// prints its log on stderr, mapped to the files and lines of the kernel directory. Unset, builds
// pass -w and a successful build prints nothing (a failed one always shows its log, errors only).
bool build_log_wanted();

// Built programs keyed by (context, device, source text, option string): each is compiled at most
// once and reused by every reducer and transposer that asks for it. Thread-safe. A cached program
// keeps its context alive; clear() lets go of all of them.
class ProgramCache {
 public:
  // The cache every Reducer and Transposer uses unless given another.
  static ProgramCache& shared();

  // The program of `file` in `dir` with `options` for `device` in `context`. The source is read
  // on every call (an edited file is a new key). A failed build throws Error carrying the file,
  // the option string and the compiler's build log. With `user_op` (Op::User) its text replaces
  // user_op.clh (load_kernel_source), so it is part of the key.
  cl::Program program(const cl::Context& context, const DeviceInfo& device,
                      const std::filesystem::path& dir, const std::string& file,
                      const std::string& options, const UserOperator* user_op = nullptr);
  // A new kernel object of that program (its arguments are the caller's own). Throws Error when
  // the file has no kernel of that name.
  cl::Kernel kernel(const cl::Context& context, const DeviceInfo& device,
                    const std::filesystem::path& dir, const std::string& file,
                    const std::string& kernel_name, const std::string& options,
                    const UserOperator* user_op = nullptr);

  // "<dir>/<file>" of a program this cache built, "" for another (the kernel watchdog's message).
  std::string file_of(cl_program program) const;

  std::size_t builds() const;  // programs compiled so far (cache misses)
  double build_seconds() const;  // wall-clock seconds those compilations took, all together
  void clear();

 private:
  mutable std::mutex mutex_;
  std::map<std::tuple<cl_context, cl_device_id, std::string, std::string>, cl::Program> programs_;
  mutable std::mutex files_mutex_;  // apart: file_of is asked while a build may hold mutex_
  std::map<cl_program, std::string> files_;
  std::size_t builds_ = 0;
  double build_seconds_ = 0;
};

}  // namespace clreduce
