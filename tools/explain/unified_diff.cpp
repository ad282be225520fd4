// The unified diff: a longest common subsequence of lines by dynamic programming (kernel files
// are a few hundred lines, so the quadratic table is small), walked into an edit script, grouped
// into hunks with their context as `diff -u` prints them.
#include "explain/unified_diff.hpp"

#include <algorithm>
#include <sstream>

namespace clreduce {

namespace {
enum class Edit { Keep, Remove, Add };
struct Line {
  Edit edit;
  std::size_t old_index, new_index;  // the line's index in each text (the one it is not in: next line's)
};

std::vector<Line> edit_script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<unsigned>> lcs(a.size() + 1, std::vector<unsigned>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;)
    for (std::size_t j = b.size(); j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<Line> script;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      script.push_back({Edit::Keep, i++, j++});
    } else if (j < b.size() && (i == a.size() || lcs[i][j + 1] > lcs[i + 1][j])) {
      script.push_back({Edit::Add, i, j++});  // removals first where both are as long: diff's order
    } else {
      script.push_back({Edit::Remove, i++, j});
    }
  }
  // `diff` prints a change's removed lines before its added ones: reorder each run of edits.
  for (std::size_t k = 0; k < script.size();) {
    if (script[k].edit == Edit::Keep) {
      ++k;
      continue;
    }
    std::size_t end = k;
    while (end < script.size() && script[end].edit != Edit::Keep) ++end;
    std::stable_partition(script.begin() + static_cast<long>(k), script.begin() + static_cast<long>(end),
                          [](const Line& l) { return l.edit == Edit::Remove; });
    k = end;
  }
  return script;
}

// "start,count" of a hunk's range as diff -u writes it (1-based; an empty range names the line before).
std::string range(std::size_t first, std::size_t count) {
  const std::size_t start = count == 0 ? first : first + 1;
  return count == 1 ? std::to_string(start) : std::to_string(start) + "," + std::to_string(count);
}
}  // namespace

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string unified_diff(const std::string& old_name, const std::string& old_text, const std::string& new_name,
                         const std::string& new_text, unsigned context) {
  const std::vector<std::string> a = split_lines(old_text), b = split_lines(new_text);
  const std::vector<Line> script = edit_script(a, b);
  std::string out;
  std::size_t k = 0;
  while (k < script.size()) {
    while (k < script.size() && script[k].edit == Edit::Keep) ++k;
    if (k == script.size()) break;
    // A hunk: `context` lines before the first change, through changes whose gaps of kept lines
    // are at most 2 * context, to `context` lines after the last.
    const std::size_t begin = k >= context ? k - context : 0;
    std::size_t end = k;
    while (true) {
      while (end < script.size() && script[end].edit != Edit::Keep) ++end;
      std::size_t kept = end;
      while (kept < script.size() && script[kept].edit == Edit::Keep) ++kept;
      if (kept < script.size() && kept - end <= 2 * context) {
        end = kept;
        continue;
      }
      end = std::min(end + context, kept);
      break;
    }
    std::size_t old_count = 0, new_count = 0;
    for (std::size_t x = begin; x < end; ++x) {
      if (script[x].edit != Edit::Add) ++old_count;
      if (script[x].edit != Edit::Remove) ++new_count;
    }
    if (out.empty()) out = "--- " + old_name + "\n+++ " + new_name + "\n";
    out += "@@ -" + range(script[begin].old_index, old_count) + " +" + range(script[begin].new_index, new_count) +
           " @@\n";
    for (std::size_t x = begin; x < end; ++x) {
      const Line& l = script[x];
      out += l.edit == Edit::Keep ? " " + a[l.old_index] : l.edit == Edit::Remove ? "-" + a[l.old_index] : "+" + b[l.new_index];
      out += '\n';
    }
    k = end;
  }
  return out;
}

DiffCounts diff_counts(const std::string& old_text, const std::string& new_text) {
  DiffCounts c;
  for (const Line& l : edit_script(split_lines(old_text), split_lines(new_text))) {
    if (l.edit == Edit::Remove) ++c.removed;
    if (l.edit == Edit::Add) ++c.added;
  }
  return c;
}

}  // namespace clreduce
