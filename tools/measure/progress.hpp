// Progress of a long job on stderr (bench, bench --sizes, sweep, tune, soak, bench transpose,
// bench access). On a terminal: a bar redrawn in place. Anywhere else (a pipe, a CI log, a file):
// one line every few seconds, so that a long run is visibly alive and says how far it got; a job
// done before the first interval prints nothing. The lines and the bar's clock keep coming while
// one step runs for minutes (a thread of the reporter's own). With --quiet: nothing. Warnings are
// not progress: --quiet keeps them.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <thread>

namespace clreduce {

// One report of a job: how many steps are done, of how many, and what runs next. work_done /
// work_total weigh the steps by what each is expected to cost (seconds, or bytes: any unit), so
// that the time left is right when the steps differ (2^10 beside 2^30); both 0: the steps count.
struct ProgressStep {
  std::size_t done = 0, total = 0;  // total 0: not known (then no bar and no time left)
  double work_done = 0, work_total = 0;
  std::string what;
  bool what_is_next = true;  // `what` is the step that runs now ("now: WHAT"); false: the state so far

  // Names `next` as the step that runs now, tells `listener` (if any), then counts the step done
  // with its weight in work (a benchmark's loop calls it before each step).
  template <class Listener>
  void begin(const std::string& next, double weight, const Listener& listener) {
    what = next;
    if (listener) listener(*this);
    ++done;
    work_done += weight;
  }
};

enum class ProgressStyle {
  Quiet,  // nothing
  Bar,    // a bar redrawn in place (stderr is a terminal)
  Lines,  // a line every interval (stderr is not a terminal)
};
// Quiet when asked, a bar on a terminal, lines elsewhere.
ProgressStyle progress_style(bool quiet);

class ProgressReporter {
 public:
  // Seconds since the reporter was made (tests pass their own clock).
  using Clock = std::function<double()>;
  static constexpr double kLineInterval = 5;  // seconds between two lines (Lines)

  // On stderr, in the style progress_style(quiet) picks, with the thread that keeps it coming.
  explicit ProgressReporter(bool quiet);
  // On `out`, `columns` wide, lines at most every `interval` seconds of `clock`; no thread (the
  // caller calls tick()).
  ProgressReporter(ProgressStyle style, std::ostream& out, std::size_t columns, double interval, Clock clock);
  ~ProgressReporter();  // stops the thread, clears the bar's line
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // A step begins (thread-safe).
  void operator()(const ProgressStep& step);
  // The clock moved (the thread calls it twice a second): the bar redrawn, a line where one is due,
  // of the last step begun.
  void tick();
  ProgressStyle style() const { return style_; }

  // The bar (without the leading carriage return), `columns` wide at most.
  static std::string render_bar(const ProgressStep& step, double elapsed_s, std::size_t columns);
  // One line of the Lines style: "clreduce: progress: 12/40, 1m05s, ~2m10s left; now: WHAT"
  // (no count where neither is known; "; WHAT" where it is not what runs next).
  static std::string render_line(const ProgressStep& step, double elapsed_s, std::size_t columns);
  // "12s", "4m05s", "2h10m".
  static std::string duration(double seconds);

 private:
  ProgressStyle style_;
  std::ostream& out_;
  std::size_t columns_;
  double interval_;
  Clock clock_;
  std::mutex mutex_;
  ProgressStep last_;
  bool seen_ = false;     // a step has begun
  double last_line_ = 0;  // when the last line was printed (Lines)
  void show(double now);  // with mutex_ held
  bool stop_ = false;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace clreduce
