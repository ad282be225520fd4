// Kernel directory lookup, source loading with inlined headers, and the program cache.
#include "clreduce/kernels.hpp"
#include "clreduce/reduction.hpp"

#include "clreduce/error.hpp"
#include "core/user_text.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>
#include <vector>

// Set by the build: where `cmake --install` puts the kernels, and the source tree's kernels_cl/
// with the build directory (a program running from there reads the source tree's kernels, so that
// editing kernels_cl/ in a checkout takes effect even where an older copy is installed).
#ifndef CLREDUCE_INSTALLED_KERNEL_DIR
#define CLREDUCE_INSTALLED_KERNEL_DIR ""
#endif
#ifndef CLREDUCE_BUILD_TREE_KERNEL_DIR
#define CLREDUCE_BUILD_TREE_KERNEL_DIR ""
#endif
#ifndef CLREDUCE_BUILD_DIR
#define CLREDUCE_BUILD_DIR ""
#endif
// The installed kernels relative to the installed library and to the installed programs.
#ifndef CLREDUCE_LIB_TO_KERNELS
#define CLREDUCE_LIB_TO_KERNELS "../share/clreduce/kernels"
#endif
#ifndef CLREDUCE_BIN_TO_KERNELS
#define CLREDUCE_BIN_TO_KERNELS "../share/clreduce/kernels"
#endif

namespace clreduce {

namespace fs = std::filesystem;

namespace {
constexpr const char* kMarkerFile = "reduce_common.clh";  // present in every kernel directory

bool is_under(const fs::path& file, const fs::path& dir) {
  std::error_code ec;
  const fs::path f = fs::weakly_canonical(file, ec);
  if (ec) return false;
  const fs::path d = fs::weakly_canonical(dir, ec);
  if (ec || d.empty()) return false;
  const auto mismatch = std::mismatch(d.begin(), d.end(), f.begin(), f.end());
  return mismatch.first == d.end();
}

// The shared library this code is in (or the program, when the library is linked statically),
// and the running program.
fs::path this_object() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&this_object), &info) && info.dli_fname && *info.dli_fname &&
      fs::path(info.dli_fname).is_absolute())
    return info.dli_fname;
  return {};
}
fs::path this_program() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

// The library or the program this code runs in lives in clreduce's own build directory.
bool running_from_build_tree() {
  const fs::path build_dir = CLREDUCE_BUILD_DIR;
  if (build_dir.empty()) return false;
  const fs::path object = this_object(), program = this_program();
  return (!object.empty() && is_under(object, build_dir)) || (!program.empty() && is_under(program, build_dir));
}

// Where an installed copy keeps its kernels: beside the installed library, beside the installed
// program, or at the prefix the build was configured with; the first that holds them.
fs::path installed_kernel_dir() {
  std::vector<fs::path> candidates;
  if (const fs::path object = this_object(); !object.empty())
    candidates.push_back(object.parent_path() / CLREDUCE_LIB_TO_KERNELS);
  if (const fs::path program = this_program(); !program.empty())
    candidates.push_back(program.parent_path() / CLREDUCE_BIN_TO_KERNELS);
  candidates.emplace_back(CLREDUCE_INSTALLED_KERNEL_DIR);
  std::error_code ec;
  for (const fs::path& c : candidates)
    if (!c.empty() && fs::is_regular_file(c / kMarkerFile, ec)) return fs::weakly_canonical(c, ec);
  return {};
}

// Why `dir` is no directory, in the system's terms: it is a file, a part of its path is a file
// (ENOTDIR: "/etc/passwd/" or "/etc/passwd/x"), it does not exist, or the system's reason.
std::string why_not_directory(const fs::path& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0)
    return S_ISREG(st.st_mode) ? "is a regular file, not a directory" : "is not a directory";
  const int e = errno;
  if (e == ENOENT) return "does not exist";
  if (e == ENOTDIR) {
    // The first part of the path that is there but is no directory.
    fs::path part;
    for (const fs::path& piece : dir) {
      part /= piece;
      if (::stat(part.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
        return "is not a directory: '" + part.string() + "' is a " +
               (S_ISREG(st.st_mode) ? "regular file" : "file") + ", not a directory";
    }
  }
  return "cannot be used: " + std::string(std::strerror(e));
}

void require_directory(const fs::path& dir, const std::string& origin) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return;
  throw Error(Param::KernelDir,
              "kernel directory '" + dir.string() + "' (" + origin + ") " + why_not_directory(dir) +
                  "; it must be the directory holding clreduce's .cl files (kernels_cl/ in the "
                  "source tree, share/clreduce/kernels under the install prefix)",
              "a directory holding clreduce's .cl files");
}
}  // namespace

KernelDir find_kernel_dir(const fs::path& given) {
  if (!given.empty()) {
    require_directory(given, "given");
    return {given, "given"};
  }
  if (const char* env = std::getenv("CLREDUCE_KERNEL_DIR"); env && *env) {
    require_directory(env, "from CLREDUCE_KERNEL_DIR");
    return {env, "CLREDUCE_KERNEL_DIR"};
  }
  const fs::path installed = installed_kernel_dir();
  const fs::path tree = CLREDUCE_BUILD_TREE_KERNEL_DIR;
  std::error_code ec;
  const bool from_tree = running_from_build_tree();
  if (!from_tree && !installed.empty()) return {installed, "installed"};
  if (!tree.empty() && fs::is_regular_file(tree / kMarkerFile, ec)) return {tree, "build tree"};
  if (!installed.empty()) return {installed, "installed"};
  throw Error(Param::KernelDir,
              "no kernel directory found: CLREDUCE_KERNEL_DIR is not set, and neither the installed "
              "directory (" + std::string(CLREDUCE_INSTALLED_KERNEL_DIR) + ", or " + CLREDUCE_LIB_TO_KERNELS +
                  " from the library) nor the build tree's '" + tree.string() + "' holds " + kMarkerFile +
                  "; give the directory of clreduce's .cl files or set CLREDUCE_KERNEL_DIR",
              "a directory holding clreduce's .cl files");
}

namespace {
std::string read_file(const fs::path& path, const std::string& why) {
  const auto unreadable = [&](const std::string& reason) {
    return Error(Param::KernelDir, "kernel file '" + path.string() + "' cannot be read" + why + ": " + reason);
  };
  // "not found" only where nothing is there: a file the system refuses (permissions, a link
  // loop, a directory in the way) is named with the system's reason.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT)
      throw Error(Param::KernelDir, "kernel file '" + path.string() + "' not found" + why +
                                        " (the kernel directory holds clreduce's .cl files)");
    throw unreadable(std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw unreadable(std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw unreadable(S_ISDIR(st.st_mode) ? "it is a directory, not a file" : "it is not a regular file");
  }
  std::string out;
  char buf[65536];
  while (true) {
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      ::close(fd);
      throw unreadable(std::strerror(e));
    }
    if (got == 0) break;
    out.append(buf, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return out;
}

// Where each line of the inlined source came from: the file (as named in the kernel directory)
// and its line there, 1-based; entry i is the inlined source's line i + 1.
struct SourceLine {
  std::string file;
  unsigned line = 0;
};

// The headers a user operator's text replaces: user_op.clh (reduce_common.clh includes it where
// OP_ID is 5) and descriptor.clh (the generic kernels include it: a reduction descriptor's
// generated header, clreduce/reduction.hpp).
bool is_user_op_header(const std::string& file) { return file == "user_op.clh" || file == "descriptor.clh"; }

void inline_includes(const fs::path& dir, const std::string& file, std::set<std::string>& stack,
                     std::string& out, std::vector<SourceLine>& map, const std::string& why,
                     const UserOperator* user_op) {
  if (!stack.insert(file).second)
    throw Error(Param::KernelDir, "kernel file '" + file + "' includes itself");
  if (user_op && is_user_op_header(file)) {
    // The user's text instead; its lines map to the user's file in build logs.
    const std::string where = user_op->path.empty() ? "<" + user_op->name + ">" : fs::absolute(user_op->path).string();
    // A generated descriptor header marks the span of a user's file in it (kOriginMarker): those
    // lines map to that file's own, the rest to the generated text's.
    std::istringstream in(user_op->source);
    std::string line;
    unsigned number = 0;
    std::string origin;
    unsigned origin_line = 0;
    const std::string marker = std::string(kOriginMarker) + " ";
    while (std::getline(in, line)) {
      ++number;
      // A built-in descriptor's generated text names a kernel header of the directory (the exact
      // accumulator, exact_sum.clh): inlined from there, its lines mapped to it. A user's file
      // cannot (load_reduction refuses #include), so its spans are never read for one.
      if (origin.empty())
        if (const std::optional<std::string> inc = include_line(line)) {
          inline_includes(dir, *inc, stack, out, map, " (included by the descriptor " + user_op->name + ")", nullptr);
          continue;
        }
      out += line;
      out += '\n';
      if (line.compare(0, marker.size(), marker) == 0) {
        map.push_back({where, number});
        const std::string rest = line.substr(marker.size());
        const auto space = rest.find(' ');
        if (rest == "-" || space == std::string::npos) {
          origin.clear();
        } else {
          origin = rest.substr(space + 1);
          origin_line = static_cast<unsigned>(std::strtoul(rest.substr(0, space).c_str(), nullptr, 10));
        }
        continue;
      }
      if (origin.empty()) map.push_back({where, number});
      else map.push_back({origin, origin_line++});
    }
    stack.erase(file);
    return;
  }
  std::istringstream in(read_file(dir / file, why));
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (const std::optional<std::string> inc = include_line(line)) {
      inline_includes(dir, *inc, stack, out, map, " (included by " + file + ")", user_op);
    } else {
      out += line;
      out += '\n';
      map.push_back({file, number});
    }
  }
  stack.erase(file);
}

std::string load_mapped(const fs::path& dir, const std::string& file, std::vector<SourceLine>& map,
                        const UserOperator* user_op) {
  std::set<std::string> stack;
  std::string out;
  inline_includes(dir, file, stack, out, map, "", user_op);
  return out;
}

// The first place `name` stands whole in `text` (no identifier character either side), or npos.
std::size_t find_whole(const std::string& text, const std::string& name) {
  for (std::size_t p = text.find(name); p != std::string::npos; p = text.find(name, p + 1))
    if ((p == 0 || !identifier_char(text[p - 1])) &&
        (p + name.size() >= text.size() || !identifier_char(text[p + name.size()])))
      return p;
  return std::string::npos;
}

// A compiler's build log points into the inlined source it was given ("<path>:204:1: error"):
// each such place becomes the user's file and line ("<dir>/naive.cl:7:1"). The source itself
// stays as inlined (no #line), so Oclgrind's source lines and the program cache see what they did.
//
// A link error has no place: NVIDIA's compiler takes a call to a function defined nowhere and its
// ptxas ends with "Unresolved extern function 'NAME'". For each such NAME the log gets one line
// more, at the first line of the source that names it (mapped as above: a user's macro or function
// in their own file).
std::string map_build_log(const std::string& log, const fs::path& dir, const std::vector<SourceLine>& map,
                          const std::string& source) {
  // "FILE:LINE:COL:", or inside a macro's expansion (PoCL's clang) "FILE:LINE:COL <Spelling=FILE:LINE:COL>:",
  // where the spelling is the place in the macro's definition (a user file's line). FILE is a run
  // of characters other than blanks, ':', '<' and '='. Scanned by hand: std::regex recursed once
  // per character of a long run (a log quoting a user's 40 KB line overflowed the stack).
  auto mapped = [&](const std::string& file, const std::string& line_text, const std::string& col) {
    unsigned long line = 0;  // a number too long for it is no line of the map either
    const auto [end, ec] = std::from_chars(line_text.data(), line_text.data() + line_text.size(), line);
    if (ec != std::errc() || line < 1 || line > map.size()) return file + ":" + line_text + ":" + col;
    const SourceLine& l = map[line - 1];
    return (fs::path(l.file).is_absolute() || l.file.front() == '<' ? l.file : (dir / l.file).string()) + ":" +
           std::to_string(l.line) + ":" + col;
  };
  auto file_char = [](char c) { return !std::isspace(static_cast<unsigned char>(c)) && c != ':' && c != '<' && c != '='; };
  auto digits_end = [&](std::size_t i) {
    while (i < log.size() && std::isdigit(static_cast<unsigned char>(log[i]))) ++i;
    return i;
  };
  struct Place {
    std::string file, line, col;
  };
  // FILE:LINE:COL with FILE = log[start, colon): the place and the position after COL, or nothing.
  auto place_at = [&](std::size_t start, std::size_t colon, Place& p) -> std::size_t {
    if (colon == start || colon >= log.size() || log[colon] != ':') return std::string::npos;
    const std::size_t l_end = digits_end(colon + 1);
    if (l_end == colon + 1 || l_end >= log.size() || log[l_end] != ':') return std::string::npos;
    const std::size_t c_end = digits_end(l_end + 1);
    if (c_end == l_end + 1) return std::string::npos;
    p = {log.substr(start, colon - start), log.substr(colon + 1, l_end - colon - 1), log.substr(l_end + 1, c_end - l_end - 1)};
    return c_end;
  };
  std::string out;
  std::size_t from = 0;  // the end of the last place replaced
  std::size_t run = 0;   // the start of the current run of FILE characters
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (!file_char(log[i])) {
      Place p, s;
      std::size_t end = log[i] == ':' ? place_at(std::max(run, from), i, p) : std::string::npos;
      if (end != std::string::npos) {
        std::string spelled;
        const std::string tag = " <Spelling=";
        if (log.compare(end, tag.size(), tag) == 0) {
          std::size_t k = end + tag.size(), f = k;
          while (k < log.size() && file_char(log[k])) ++k;
          const std::size_t s_end = place_at(f, k, s);
          if (s_end != std::string::npos && s_end + 1 < log.size() && log[s_end] == '>' && log[s_end + 1] == ':') {
            spelled = " <Spelling=" + mapped(s.file, s.line, s.col) + ">";
            end = s_end + 1;
          }
        }
        if (end < log.size() && log[end] == ':') {
          out.append(log, from, std::max(run, from) - from);
          out += mapped(p.file, p.line, p.col) + spelled + ":";
          from = end + 1;
          i = end;
          run = from;
          continue;
        }
      }
      run = i + 1;
    }
  }
  out.append(log, from, std::string::npos);
  // "Unresolved extern function 'NAME'", NAME an identifier; found, and NAME found in the source,
  // by hand as above.
  const std::string said = "Unresolved extern function '";
  std::set<std::string> named;
  for (std::size_t at = log.find(said); at != std::string::npos; at = log.find(said, at + 1)) {
    const std::size_t a = at + said.size();
    std::size_t e = a;
    while (e < log.size() && identifier_char(log[e])) ++e;
    if (e == a || e >= log.size() || log[e] != '\'' || std::isdigit(static_cast<unsigned char>(log[a]))) continue;
    const std::string name = log.substr(a, e - a);
    if (!named.insert(name).second) continue;
    std::istringstream lines(source);
    std::string text;
    for (unsigned number = 1; std::getline(lines, text); ++number) {
      const std::size_t p = find_whole(text, name);
      if (p == std::string::npos) continue;
      if (!out.empty() && out.back() != '\n') out += '\n';
      out += mapped("<source>", std::to_string(number), std::to_string(p + 1)) + ": error: '" + name +
             "' is called here and defined nowhere (the device's linker: Unresolved extern function '" + name + "')\n";
      break;
    }
  }
  return out;
}
}  // namespace

std::string load_kernel_source(const fs::path& dir, const std::string& file, const UserOperator* user_op) {
  std::vector<SourceLine> map;
  return load_mapped(dir, file, map, user_op);
}

bool trust_device_work_group_size() {
  const char* v = std::getenv("CLREDUCE_TRUST_DEVICE_WG");
  return v && *v && std::string(v) != "0";
}

std::size_t work_group_limit(std::size_t kernel_reported, std::size_t device_max, bool trust) {
  return trust ? std::max(kernel_reported, device_max) : kernel_reported;
}

KernelLimits kernel_limits(const cl::Kernel& k, const cl::Device& d) {
  return with_cl_context("querying kernel limits", [&] {
    KernelLimits l;
    l.reported_work_group_size = k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(d);
    l.max_work_group_size = work_group_limit(l.reported_work_group_size, d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>(),
                                             trust_device_work_group_size());
    l.local_mem_bytes = k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(d);
    l.preferred_multiple = std::max<std::size_t>(1, k.getWorkGroupInfo<CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE>(d));
    l.private_mem_bytes = k.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(d);
    return l;
  });
}

namespace {
std::string bytes_str(std::uint64_t b) {
  if (b >= (1ULL << 10) && b % (1ULL << 10) == 0) return std::to_string(b >> 10) + " KiB";
  return std::to_string(b) + " bytes";
}
}  // namespace

void check_kernel_limits(const std::string& kernel, std::size_t wg, const KernelLimits& limits,
                         const DeviceInfo& dev, Param param) {
  if (wg > limits.max_work_group_size) {
    const bool trusted = trust_device_work_group_size() && limits.max_work_group_size >= dev.max_work_group_size;
    // Where the device allows more than the kernel reports, the opt-in that launches it.
    const bool could_trust = !trusted && dev.max_work_group_size > limits.max_work_group_size &&
                             wg <= dev.max_work_group_size;
    throw LimitError(param,
                     "work-group size " + std::to_string(wg) + " is over the limit of kernel " + kernel + " on " +
                         dev.name + ", " + std::to_string(limits.max_work_group_size) +
                         (trusted ? " (CL_DEVICE_MAX_WORK_GROUP_SIZE, trusted)" : " (CL_KERNEL_WORK_GROUP_SIZE)") +
                         (could_trust ? "; the device's maximum is " + std::to_string(dev.max_work_group_size) +
                                            ": --trust-device-wg (CLREDUCE_TRUST_DEVICE_WG=1) launches up to it, "
                                            "verified by the run's check"
                                      : std::string()),
                     "at most " + std::to_string(limits.max_work_group_size), dev.name);
  }
  if (limits.local_mem_bytes > dev.local_mem_bytes)
    throw LimitError(param,
                     "kernel " + kernel + " with work-group size " + std::to_string(wg) + " needs " +
                         bytes_str(limits.local_mem_bytes) + " of local memory, more than the " +
                         bytes_str(dev.local_mem_bytes) + " of " + dev.name,
                     "a smaller work-group size", dev.name);
}

namespace {
// Where the implementation keeps its devices' loaded kernels by the program's hash alone
// (DeviceInfo::kernel_code_shared_across_devices: PoCL's CPU devices before 7.0), one kernel
// running on two of its devices at once, with different grid widths, miscounts the shared entry
// and aborts the process. A define that names the device (none for its first, so one device's
// programs are those of every other run) makes each device's program hash its own; no kernel
// reads it. The device's programs then compile once per device, not once per machine.
std::string distinct_program_options(const DeviceInfo& device, std::string options) {
  if (device.kernel_code_shared_across_devices && device.device_index > 0)
    options += (options.empty() ? "" : " ") + std::string("-D CLREDUCE_PROGRAM_OF_DEVICE=") +
               std::to_string(device.device_index);
  return options;
}
}  // namespace

namespace {
// Each -D NAME of `options` that the program's source (the kernel file, its headers, a user's
// operator or descriptor) never names is refused: the compiler would ignore it without a word.
// The declared parameters are checked against their kernel before (core/kernel_spec.cpp); this
// catches the rest, such as -D ELEM_MAP(x)=... given to a descriptor kernel, which has no ELEM_MAP.
void refuse_unread_defines(const std::string& source, const std::string& options, const std::string& file,
                           const DeviceInfo& device) {
  std::istringstream words(options);
  std::string w;
  while (words >> w) {
    std::string def;
    if (w == "-D") {
      if (!(words >> def)) break;
    } else if (w.compare(0, 2, "-D") == 0) {
      def = w.substr(2);
    } else {
      continue;
    }
    std::size_t e = 0;
    while (e < def.size() && identifier_char(def[e])) ++e;
    const std::string name = def.substr(0, e);
    if (name.empty() || find_whole(source, name) != std::string::npos) continue;
    // The macros the program sets a default for (#ifndef NAME): the ones a caller may give.
    std::vector<std::string> macros;
    std::istringstream lines(source);
    std::string line;
    while (std::getline(lines, line)) {
      std::istringstream l(line);
      std::string hash, macro;
      if (!(l >> hash >> macro) || hash != "#ifndef") continue;
      const bool guard = macro.size() > 4 && macro.compare(macro.size() - 4, 4, "_CLH") == 0;  // a header's guard
      if (!guard && std::find(macros.begin(), macros.end(), macro) == macros.end()) macros.push_back(macro);
    }
    std::string list;
    for (std::size_t i = 0; i < macros.size(); ++i) list += (i ? ", " : "") + macros[i];
    throw Error(Param::Define,
                "-D " + def + ": " + file + " (with its headers and any operator file) reads no macro " + name +
                    ", so it would be ignored; the macros it takes: " + (list.empty() ? "none" : list),
                list.empty() ? "none" : list, device.name);
  }
}
}  // namespace

bool build_log_wanted() {
  const char* v = std::getenv("CLREDUCE_BUILD_LOG");
  return v && *v && std::string(v) != "0";
}

ProgramCache& ProgramCache::shared() {
  // Never destroyed: at exit the OpenCL implementation may already be torn down (Oclgrind's heap
  // is corrupted by programs released from a static destructor), and the process ends anyway.
  static ProgramCache* cache = new ProgramCache();
  return *cache;
}

cl::Program ProgramCache::program(const cl::Context& context, const DeviceInfo& device,
                                  const fs::path& dir, const std::string& file,
                                  const std::string& options, const UserOperator* user_op) {
  std::vector<SourceLine> map;
  std::string source = load_mapped(dir, file, map, user_op);
  // A successful build prints nothing: the compiler's warnings are off (-w, an option of every
  // OpenCL compiler), or PoCL's clang writes "2 warnings generated." straight to the process's
  // stderr, into the tool's output and an application's. CLREDUCE_BUILD_LOG=1 keeps them and
  // shows every build's log (build_log_wanted). The option string built with is the key.
  const bool show_log = build_log_wanted();
  const std::string build_options =
      distinct_program_options(device, show_log ? options : options + (options.empty() ? "-w" : " -w"));
  auto key = std::make_tuple(context(), device.device(), std::move(source), build_options);
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  refuse_unread_defines(std::get<2>(key), options, file, device);
  cl::Program prog = with_cl_context("creating program " + file,
                                     [&] { return cl::Program(context, std::get<2>(key)); });
  const auto t0 = std::chrono::steady_clock::now();
  try {
    prog.build(std::vector<cl::Device>{device.device}, build_options.c_str());
  } catch (const cl::Error& e) {
    std::string log;
    try {
      log = prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device);
    } catch (const cl::Error&) {
      log = "(no build log available)";
    }
    throw Error("building kernel file '" + (dir / file).string() + "'" +
                (user_op ? " with the operator '" + user_op->name + "'" : std::string()) + " for " + device.name +
                " failed: " + cl_status_name(e.err()) + "\noptions: " + options +
                "\nbuild log:\n" + map_build_log(log, dir, map, std::get<2>(key)));
  }
  if (show_log) {
    std::string log;
    try {
      log = prog.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device);
    } catch (const cl::Error&) {
      log.clear();
    }
    if (log.find_first_not_of(" \t\r\n") != std::string::npos)
      std::cerr << "clreduce: build log of '" << (dir / file).string() << "' for " << device.name
                << " (CLREDUCE_BUILD_LOG; options: " << build_options << "):\n"
                << map_build_log(log, dir, map, std::get<2>(key)) << (log.back() == '\n' ? "" : "\n");
  }
  ++builds_;
  build_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  {
    std::lock_guard<std::mutex> files_lock(files_mutex_);
    files_[prog()] = (dir / file).string() +
                     (user_op ? " with the operator " + (user_op->path.empty() ? "'" + user_op->name + "'"
                                                                                : user_op->path.string())
                              : std::string());
  }
  programs_.emplace(std::move(key), prog);
  return prog;
}

std::string ProgramCache::file_of(cl_program program) const {
  std::lock_guard<std::mutex> lock(files_mutex_);
  const auto it = files_.find(program);
  return it == files_.end() ? std::string() : it->second;
}

cl::Kernel ProgramCache::kernel(const cl::Context& context, const DeviceInfo& device,
                                const fs::path& dir, const std::string& file,
                                const std::string& kernel_name, const std::string& options,
                                const UserOperator* user_op) {
  cl::Program prog = program(context, device, dir, file, options, user_op);
  try {
    return cl::Kernel(prog, kernel_name.c_str());
  } catch (const cl::Error& e) {
    throw Error("kernel '" + kernel_name + "' not found in '" + (dir / file).string() + "': " + describe(e));
  }
}

std::size_t ProgramCache::builds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return builds_;
}

double ProgramCache::build_seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return build_seconds_;
}

void ProgramCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  programs_.clear();
  std::lock_guard<std::mutex> files_lock(files_mutex_);
  files_.clear();
}

}  // namespace clreduce
