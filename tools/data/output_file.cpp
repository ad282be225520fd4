// The output files' rule (data/output_file.hpp).
//
// Why a rename for --force, not a truncating open: the old file stays whole until the new bytes
// are all written (a full disk or a kill mid-write leaves the user's file as it was, and at worst
// a hidden temporary beside it), and a symbolic link at the path is replaced rather than followed,
// so --force can never write into a file elsewhere that the link happens to point to.
#include "data/output_file.hpp"

#include "clreduce/error.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace clreduce {

namespace {
namespace fs = std::filesystem;

[[noreturn]] void refuse(const NamedPath& o, const std::string& why) {
  throw Error(o.option + ": cannot write '" + o.path + "': " + why);
}
// Where the directory is what is wrong.
[[noreturn]] void refuse_dir(const NamedPath& o, const std::string& why) {
  refuse(o, why + "; give a writable file in an existing directory");
}

std::string dir_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

struct FileId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
};
// The file a path names, links followed; empty where there is none.
std::optional<FileId> id_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileId{st.st_dev, st.st_ino};
}

// A name for an output that does not exist yet: its absolute path, "." and ".." resolved through
// the directories that exist (so "a.json" and "./a.json" are one name).
std::string name_of(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

void write_all(int fd, std::string_view bytes, const NamedPath& o, const std::string& made) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      const int e = w < 0 ? errno : ENOSPC;
      ::close(fd);
      ::unlink(made.c_str());
      refuse(o, std::strerror(e));
    }
    done += static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0) {
    const int e = errno;
    ::unlink(made.c_str());
    refuse(o, std::strerror(e));
  }
}

std::string exists_why(const NamedPath& o) {
  return "it exists; " + o.option + " makes a new file and replaces one only with --force: give another name, or "
         "--force";
}
}  // namespace

void check_output_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs, bool force) {
  std::vector<std::pair<std::optional<FileId>, std::string>> seen;  // each earlier output: its file, its name
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const NamedPath& o = outputs[i];
    if (o.path.empty()) refuse(o, "the path is empty");
    if (o.path == "-") {
      const std::string print = o.option == "--output-json"  ? "--format json prints JSON to standard output; "
                                : o.option == "--output-csv" ? "--format csv prints CSV to standard output; "
                                                             : "";
      refuse(o, "not standard output here (it would be a file named '-'); " + print +
                    "give ./- for a file of that name");
    }
    struct stat st {};
    const std::optional<FileId> id = id_of(o.path);
    const bool exists = ::lstat(o.path.c_str(), &st) == 0;
    if (!exists && errno != ENOENT) refuse(o, std::strerror(errno));
    if (exists && (S_ISDIR(st.st_mode) || (!S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))))
      refuse(o, std::string(S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file (a FIFO, socket or device)") +
                    "; give the name of a file");
    const std::string name = name_of(o.path);
    // One of the run's inputs: the same file (links followed), or the same name where it does
    // not exist yet (tune's --db, written after the outputs).
    for (const NamedPath& in : inputs) {
      const std::optional<FileId> in_id = id_of(in.path);
      if ((id && in_id == id) || (!in_id && name_of(in.path) == name))
        refuse(o, "it is " + in.option + " " + in.path + (in.path == o.path ? "" : " (the same file)") +
                      ": a run never writes over one of its inputs, --force or not; give another name");
    }
    for (std::size_t j = 0; j < seen.size(); ++j)
      if ((id && seen[j].first == id) || seen[j].second == name)
        refuse(o, "it is " + outputs[j].option + " too: one file cannot hold both; give two names");
    seen.emplace_back(id, name);
    if (exists && !force) refuse(o, exists_why(o));
    const std::string dir = dir_of(o.path);
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0) refuse_dir(o, "directory '" + dir + "': " + std::strerror(errno));
    if (!S_ISDIR(ds.st_mode)) refuse_dir(o, "'" + dir + "' is not a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      refuse_dir(o, "cannot create a file in '" + dir + "': " + std::strerror(errno));
  }
}

void write_output_file(const NamedPath& o, std::string_view bytes, bool force) {
  struct stat st {};
  const bool exists = ::lstat(o.path.c_str(), &st) == 0;
  if (!exists || !force) {
    // O_EXCL: made here or refused; a file that appeared since the check is not replaced.
    const int fd = ::open(o.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) refuse(o, errno == EEXIST ? exists_why(o) : std::strerror(errno));
    write_all(fd, bytes, o, o.path);
    return;
  }
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    refuse(o, "it is not a regular file; --force replaces files only");
  // The new contents go to a hidden file beside the old one, then take its name in one rename.
  static std::atomic<unsigned> counter{0};
  const fs::path target(o.path);
  const std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".clreduce-" +
                                                   std::to_string(::getpid()) + "-" + std::to_string(counter++)))
                              .string();
  // The replaced file's permission bits; in place of a link, the umask's default (a link's own
  // bits mean nothing).
  const bool regular = S_ISREG(st.st_mode);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, regular ? 0600 : 0666);
  if (fd < 0) refuse(o, "cannot create '" + tmp + "': " + std::strerror(errno));
  if (regular && ::fchmod(fd, st.st_mode & 07777) != 0) {
    const int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    refuse(o, std::string("cannot set the mode of '") + tmp + "': " + std::strerror(e));
  }
  write_all(fd, bytes, o, tmp);
  if (::rename(tmp.c_str(), o.path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    refuse(o, std::string("cannot replace it: ") + std::strerror(e));
  }
}

}  // namespace clreduce
