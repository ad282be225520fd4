// The kernel watchdog and enqueue_kernel (include/clreduce/watchdog.hpp).
//
// Why a watcher thread, not a timed wait where the host waits: clreduce waits for the device in
// some sixty places (finish, blocking reads, event waits), and a kernel that never ends is stuck
// whichever of them the host is in; a marker behind it says so wherever the host is. Why poll:
// clSetEventCallback runs on the implementation's own thread, and a callback that never comes is
// what a hang is. Why a marker per look and not an event per launch: the first design asked every
// launch for its event, and on NVIDIA's OpenCL (H200, driver 580) that took a back-to-back
// single_pass launch at 2^20 from 5.2-7.0 us to 13.0-13.2 us (bench/NOTES.md).
#include "clreduce/watchdog.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace clreduce {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Launches on one queue, in launch order: how many, and the kernels among them (the first kHeld
// kernel objects that differ; the message names the distinct names).
constexpr std::size_t kHeld = 16;
struct Span {
  std::size_t launches = 0;
  std::vector<cl::Kernel> kernels;
  Clock::time_point first_launched;

  void add(const cl::Kernel& k, Clock::time_point now) {
    if (launches++ == 0) first_launched = now;
    if (kernels.size() < kHeld &&
        std::none_of(kernels.begin(), kernels.end(), [&](const cl::Kernel& x) { return x() == k(); }))
      kernels.push_back(k);
  }
};

// A marker the watcher placed behind a span of launches: it finishes when they all have.
struct Marked {
  cl::Event marker;
  Span covered;
};

struct QueueWatch {
  cl::CommandQueue queue;  // held while watched: the watcher's markers go on it
  // Held by a launch from its record to its enqueue's return, so that a marker the watcher places
  // (under it too) is behind every launch it counts as covered.
  std::shared_ptr<std::mutex> enqueue = std::make_shared<std::mutex>();
  Span open;                     // launched since the last marker was placed
  Clock::time_point last_launch;
  std::deque<Marked> marked;     // placed, not yet seen finished, oldest first
  Clock::time_point progress;    // when the last marker was seen finished (or the watch began)
};

// A span gets its marker once the host has launched nothing on the queue for kQuiet (it waits, or
// works on the host): so a span is one burst of launches, the one a stuck kernel's host waits
// behind. A span launched without such a pause gets one at least every kLook.
constexpr auto kQuiet = std::chrono::milliseconds(1);
constexpr auto kLook = std::chrono::milliseconds(250);
constexpr auto kTick = std::chrono::milliseconds(2);  // the watcher's period while any queue is watched
constexpr std::size_t kMaxMarked = 1024;               // then a span grows until the oldest finish

class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = new Watchdog();  // never destroyed: its thread may outlive main's return
    return *w;
  }

  void set_timeout(double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    timeout_s_ = seconds;
    on_.store(seconds > 0, std::memory_order_relaxed);
    if (seconds > 0 && !thread_started_) {
      thread_started_ = true;
      // At exit the OpenCL implementation may be torn down under the watcher: it stops first.
      std::atexit([] {
        Watchdog& w = instance();
        std::lock_guard<std::mutex> stop(w.mutex_);
        w.stopped_ = true;
      });
      std::thread([this] { watch(); }).detach();
    }
    wake_.notify_all();
  }
  double timeout() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return timeout_s_;
  }
  void set_note(const std::string& note) {
    std::lock_guard<std::mutex> lock(mutex_);
    note_ = note;
  }
  // Asked on every launch: a flag read, no lock (the library's default is off).
  bool on() const { return on_.load(std::memory_order_relaxed); }

  // The lock a launch on `q` holds from record() to its enqueue's return. The watcher forgets an
  // idle queue only while no launch holds a copy of it.
  std::shared_ptr<std::mutex> launch_lock(const cl::CommandQueue& q) {
    std::lock_guard<std::mutex> lock(mutex_);
    return entry(q).enqueue;
  }
  // Counts a launch of `k` on `q` as made (its enqueue is next, under launch_lock(q)).
  void record(const cl::CommandQueue& q, const cl::Kernel& k) {
    const Clock::time_point now = Clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    QueueWatch& w = entry(q, now);
    w.open.add(k, now);
    w.last_launch = now;
  }

 private:
  QueueWatch& entry(const cl::CommandQueue& q, Clock::time_point now = Clock::now()) {
    QueueWatch& w = queues_[q()];
    if (!w.queue()) {
      w.queue = q;
      w.progress = now;
      wake_.notify_all();  // the watcher waits longer while it watches no queue
    }
    return w;
  }

  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait_for(lock, queues_.empty() ? std::chrono::milliseconds(kLook) : std::chrono::milliseconds(kTick));
      if (stopped_) return;
      if (timeout_s_ <= 0) continue;
      const Clock::time_point now = Clock::now();
      for (auto it = queues_.begin(); it != queues_.end();) {
        QueueWatch& w = it->second;
        while (!w.marked.empty() && finished(w.marked.front().marker)) {
          w.marked.pop_front();
          w.progress = now;
        }
        // The oldest unfinished span could start when the marker before it was seen finished.
        if (!w.marked.empty() &&
            seconds_between(std::max(w.marked.front().covered.first_launched, w.progress), now) > timeout_s_)
          expire(w.marked.front().covered, w.queue);
        if (w.open.launches > 0 && w.marked.size() < kMaxMarked &&
            (now - w.last_launch >= kQuiet || now - w.open.first_launched >= kLook)) {
          if (w.enqueue->try_lock()) {
            try {
              Marked m;
              w.queue.enqueueMarkerWithWaitList(nullptr, &m.marker);
              w.queue.flush();  // else the marker may wait, unsubmitted, for the host's next wait
              m.covered = std::move(w.open);
              w.marked.push_back(std::move(m));
            } catch (const cl::Error&) {
              // A queue the implementation no longer takes commands on runs nothing more to watch.
            }
            w.open = Span();
            w.enqueue->unlock();
          } else if (w.marked.empty() &&
                     seconds_between(std::max(w.open.first_launched, w.progress), now) > timeout_s_) {
            expire(w.open, w.queue);  // a launch blocked in its enqueue all this time (the queue's lock held)
          }
        }
        if (w.marked.empty() && w.open.launches == 0 && w.enqueue.use_count() == 1) {
          it = queues_.erase(it);  // idle: the queue is released, and its handle may be reused
          continue;
        }
        ++it;
      }
    }
  }

  static bool finished(const cl::Event& e) {
    cl_int status = CL_QUEUED;
    if (clGetEventInfo(e(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) != CL_SUCCESS)
      return true;  // an event the implementation no longer answers for is no running kernel
    return status == CL_COMPLETE || status < 0;  // done, or ended by an error its waiter reports
  }

  static std::string name_of(const cl::Kernel& k) {
    std::string name = k.getInfo<CL_KERNEL_FUNCTION_NAME>();
    while (!name.empty() && name.back() == '\0') name.pop_back();
    return name;
  }

  // Called with mutex_ held; never returns.
  [[noreturn]] void expire(const Span& span, const cl::CommandQueue& queue) {
    std::string name = "(unnamed)", file, device_name = "the device", others;
    try {
      if (!span.kernels.empty()) {
        name = name_of(span.kernels.front());
        file = ProgramCache::shared().file_of(span.kernels.front().getInfo<CL_KERNEL_PROGRAM>()());
      }
      if (span.launches > 1) {
        std::vector<std::string> names;
        for (const cl::Kernel& k : span.kernels)
          if (std::find(names.begin(), names.end(), name_of(k)) == names.end()) names.push_back(name_of(k));
        others = " (or one of the " + std::to_string(span.launches - 1) + " launches after it without a pause";
        if (names.size() > 1) {
          others += "; their kernels:";
          for (std::size_t i = 1; i < names.size(); ++i) others += (i > 1 ? ", '" : " '") + names[i] + "'";
          if (span.kernels.size() == kHeld) others += " and maybe more";
        }
        others += ")";
      }
      device_name = queue.getInfo<CL_QUEUE_DEVICE>().getInfo<CL_DEVICE_NAME>();
      while (!device_name.empty() && device_name.back() == '\0') device_name.pop_back();
    } catch (const cl::Error&) {
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s_);
    const std::string line = "clreduce: error: kernel '" + name + "'" + (file.empty() ? "" : " of " + file) +
                             (note_.empty() ? "" : " (" + note_ + ")") + " has run on " + device_name +
                             " for more than " + seconds + " s without finishing" + others +
                             "; OpenCL cannot stop a running kernel, so clreduce ends "
                             "the process (exit status 3). The limit is --kernel-timeout SECONDS "
                             "(CLREDUCE_KERNEL_TIMEOUT); 0 waits forever.\n";
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(3);
  }

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  double timeout_s_ = 0;
  std::atomic<bool> on_{false};  // timeout_s_ > 0
  bool thread_started_ = false;
  bool stopped_ = false;  // the process is exiting: the watcher calls no more OpenCL
  std::string note_;
  std::map<cl_command_queue, QueueWatch> queues_;
};
}  // namespace

void set_kernel_timeout(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0)
    throw Error(Param::None, "kernel timeout " + std::to_string(seconds) + " s: give a number of seconds >= 0 (0 turns the watchdog off)",
                ">= 0 seconds");
  Watchdog::instance().set_timeout(seconds);
}

double kernel_timeout() { return Watchdog::instance().timeout(); }

void set_kernel_timeout_note(const std::string& note) { Watchdog::instance().set_note(note); }

void enqueue_kernel(const cl::CommandQueue& queue, const cl::Kernel& kernel, const cl::NDRange& offset,
                    const cl::NDRange& global, const cl::NDRange& local, const std::vector<cl::Event>* wait,
                    cl::Event* event) {
  Watchdog& w = Watchdog::instance();
  if (!w.on()) {
    queue.enqueueNDRangeKernel(kernel, offset, global, local, wait, event);
    return;
  }
  const std::shared_ptr<std::mutex> launch = w.launch_lock(queue);
  std::lock_guard<std::mutex> hold(*launch);
  w.record(queue, kernel);
  queue.enqueueNDRangeKernel(kernel, offset, global, local, wait, event);
}

}  // namespace clreduce
