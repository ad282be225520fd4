// A progress bar on stderr for long jobs (sweep, tune): done/total, elapsed time, an estimate of
// the time left and what is being measured, redrawn in place. It draws only when stderr is a
// terminal and the user did not ask for --quiet, so pipes and logs stay clean.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace clreduce {

class ProgressBar {
 public:
  explicit ProgressBar(bool quiet);
  ~ProgressBar();  // clears the line
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  void operator()(std::size_t done, std::size_t total, const std::string& what);
  bool active() const { return active_; }

  // The text of one redraw (without the leading carriage return), `columns` wide at most.
  static std::string render(std::size_t done, std::size_t total, double elapsed_s,
                            const std::string& what, std::size_t columns);

 private:
  bool active_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t columns_ = 100;
};

}  // namespace clreduce
