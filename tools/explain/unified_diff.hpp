// A line diff of two texts in the unified format of `diff -u` (headers, @@ hunks, ' ', '-', '+'
// lines), for `clreduce explain` to show what one teaching step changes in a kernel file.
#pragma once

#include <string>
#include <vector>

namespace clreduce {

struct DiffCounts {
  std::size_t removed = 0;  // lines only in the old text
  std::size_t added = 0;    // lines only in the new text
};

// The lines of `text` (a last line without '\n' counts; "" has none).
std::vector<std::string> split_lines(const std::string& text);

// The unified diff of `old_text` (named old_name) against `new_text` (new_name) with `context`
// unchanged lines around each change; "" when the texts are equal. The edit script is a longest
// common subsequence of lines, so the lines shown as changed are as few as possible.
std::string unified_diff(const std::string& old_name, const std::string& old_text, const std::string& new_name,
                         const std::string& new_text, unsigned context = 3);

// The changed lines of that diff, counted.
DiffCounts diff_counts(const std::string& old_text, const std::string& new_text);

}  // namespace clreduce
