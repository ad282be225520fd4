// The files the tool writes for its user (--output-json, --output-csv, --chart, reduce --output,
// --binary) and the one rule they all follow:
//   - a path that does not exist is created (O_EXCL: a file made there meanwhile is not replaced);
//   - an existing file is refused, unless the command was given --force; then only a regular file
//     is replaced (never a directory, FIFO, socket or device), through a new file beside it that is
//     renamed over the path, so the old contents stay whole until the new ones are complete and a
//     symbolic link at the path is replaced itself, never the file it points to; the old file's
//     permission bits are kept;
//   - never one of the run's inputs, --force or not: the same file under another name, through a
//     hard or symbolic link, is refused too (device and inode compared);
//   - no two outputs of one run name the same file.
// Everything is checked before the run's long work starts (check_output_files); the write checks
// again, so a file made in between is refused, not replaced. A failed write removes what it made.
// Errors: clreduce::Error, one line naming the option, the path, the reason and the way out.
// Thread-safety: no shared state.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

// An option and the path given to it: {"--output-json", "run.json"}, {"--input", "x.bin"}.
struct NamedPath {
  std::string option;
  std::string path;
};

// Throws Error unless every output can be written under the rule above: the path is not empty
// and not "-", its directory exists and is writable, an existing file is a regular one and
// `force` is given, it is none of `inputs` (missing inputs are skipped: their own reader names
// them) and no other output names it.
void check_output_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs, bool force);
// Writes `bytes` to `out.path` under the rule (created, or with `force` replaced by rename).
void write_output_file(const NamedPath& out, std::string_view bytes, bool force);

}  // namespace clreduce
