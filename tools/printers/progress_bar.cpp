// The progress bar: a 24-cell bar, counts, elapsed and remaining time, the current item.
#include "printers/progress_bar.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sys/ioctl.h>
#include <unistd.h>

namespace clreduce {

namespace {
std::string duration(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}
// Cuts UTF-8 text to at most `columns` code points.
std::string clip(const std::string& s, std::size_t columns) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && cols++ == columns) return s.substr(0, i);
  }
  return s;
}
}  // namespace

ProgressBar::ProgressBar(bool quiet) : active_(!quiet && isatty(STDERR_FILENO)) {
  winsize w{};
  if (active_ && ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40) columns_ = w.ws_col - 1;
}

ProgressBar::~ProgressBar() {
  if (active_) std::cerr << "\r" << std::string(columns_, ' ') << "\r" << std::flush;
}

void ProgressBar::operator()(std::size_t done, std::size_t total, const std::string& what) {
  if (!active_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::cerr << "\r" << render(done, total, elapsed, what, columns_) << "\x1b[K" << std::flush;
}

std::string ProgressBar::render(std::size_t done, std::size_t total, double elapsed_s,
                                const std::string& what, std::size_t columns) {
  constexpr std::size_t cells = 24;
  const std::size_t filled = total ? std::min(cells, done * cells / total) : 0;
  std::string s = "[" + std::string(filled, '#') + std::string(cells - filled, '.') + "] " +
                  std::to_string(done) + "/" + std::to_string(total) + " " + duration(elapsed_s);
  if (done > 0 && done < total)
    s += ", ~" + duration(elapsed_s / static_cast<double>(done) * static_cast<double>(total - done)) + " left";
  s += "  " + what;
  return clip(s, columns);
}

}  // namespace clreduce
