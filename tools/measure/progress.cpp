// The progress reporter: a 24-cell bar on a terminal, a timed line elsewhere; the time left is
// the elapsed time scaled by the weighted work still to do.
#include "measure/progress.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <iostream>
#include <sys/ioctl.h>
#include <unistd.h>
#include <vector>

namespace clreduce {

namespace {
// Cuts UTF-8 text to at most `columns` code points.
std::string clip(const std::string& s, std::size_t columns) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && cols++ == columns) return s.substr(0, i);
  }
  return s;
}

// "12/40", "12" when the total is not known, "" when neither is.
std::string count(const ProgressStep& s) {
  if (s.total) return std::to_string(s.done) + "/" + std::to_string(s.total);
  return s.done ? std::to_string(s.done) : "";
}

// ", " between the parts that are there.
std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : ", ") + p;
  return out;
}

// The time left, "" when it cannot be told yet: the elapsed time scaled by the work to do.
std::string left(const ProgressStep& s, double elapsed_s) {
  const bool weighted = s.work_total > 0;
  const double done = weighted ? s.work_done : static_cast<double>(s.done);
  const double total = weighted ? s.work_total : static_cast<double>(s.total);
  if (!(done > 0) || !(total > done) || elapsed_s <= 0) return "";
  return "~" + ProgressReporter::duration(elapsed_s / done * (total - done)) + " left";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

ProgressStyle progress_style(bool quiet) {
  if (quiet) return ProgressStyle::Quiet;
  return isatty(STDERR_FILENO) ? ProgressStyle::Bar : ProgressStyle::Lines;
}

std::string ProgressReporter::duration(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.0fs", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}

ProgressReporter::ProgressReporter(bool quiet)
    : ProgressReporter(progress_style(quiet), std::cerr, progress_style(quiet) == ProgressStyle::Lines ? 200 : 100,
                       kLineInterval,
                       [t0 = std::chrono::steady_clock::now()] { return seconds_since(t0); }) {
  winsize w{};
  if (style_ == ProgressStyle::Bar && ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40)
    columns_ = w.ws_col - 1;
  if (style_ != ProgressStyle::Quiet)
    ticker_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stop_; })) show(clock_());
    });
}

ProgressReporter::ProgressReporter(ProgressStyle style, std::ostream& out, std::size_t columns, double interval,
                                   Clock clock)
    : style_(style), out_(out), columns_(columns), interval_(interval), clock_(std::move(clock)) {}

ProgressReporter::~ProgressReporter() {
  if (ticker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    ticker_.join();
  }
  if (style_ == ProgressStyle::Bar && seen_) out_ << "\r" << std::string(columns_, ' ') << "\r" << std::flush;
}

void ProgressReporter::operator()(const ProgressStep& step) {
  if (style_ == ProgressStyle::Quiet) return;
  std::lock_guard<std::mutex> lock(mutex_);
  last_ = step;
  seen_ = true;
  show(clock_());
}

void ProgressReporter::tick() {
  std::lock_guard<std::mutex> lock(mutex_);
  show(clock_());
}

void ProgressReporter::show(double now) {
  if (style_ == ProgressStyle::Quiet || !seen_) return;
  if (style_ == ProgressStyle::Bar) {
    out_ << "\r" << render_bar(last_, now, columns_) << "\x1b[K" << std::flush;
    return;
  }
  if (now - last_line_ < interval_) return;  // a line every interval, none for a short job
  last_line_ = now;
  out_ << render_line(last_, now, columns_) << "\n" << std::flush;
}

std::string ProgressReporter::render_bar(const ProgressStep& s, double elapsed_s, std::size_t columns) {
  constexpr std::size_t cells = 24;
  std::string out;
  if (s.total || s.work_total > 0) {
    const double frac = s.work_total > 0 ? s.work_done / s.work_total
                                         : static_cast<double>(s.done) / static_cast<double>(s.total);
    const auto filled = std::min(cells, static_cast<std::size_t>(std::max(0.0, frac) * cells));
    out = "[" + std::string(filled, '#') + std::string(cells - filled, '.') + "] ";
  }
  out += count(s).empty() ? duration(elapsed_s) : count(s) + " " + duration(elapsed_s);
  const std::string l = left(s, elapsed_s);
  if (!l.empty()) out += ", " + l;
  out += "  " + s.what;
  return clip(out, columns);
}

std::string ProgressReporter::render_line(const ProgressStep& s, double elapsed_s, std::size_t columns) {
  std::string out = "clreduce: progress: " + joined({count(s), duration(elapsed_s), left(s, elapsed_s)});
  if (!s.what.empty()) out += (s.what_is_next ? "; now: " : "; ") + s.what;
  return clip(out, columns);
}

}  // namespace clreduce
