// The kernel watchdog and enqueue_kernel (include/clreduce/watchdog.hpp).
//
// Why a watcher thread and an event per launch, not a timed wait where the host waits: clreduce
// waits for the device in some sixty places (finish, blocking reads, event waits), and a kernel
// that never ends is stuck whichever of them the host is in; its event says so wherever the host
// is. Why poll: clSetEventCallback runs on the implementation's own thread, and a callback that
// never comes is what a hang is.
#include "clreduce/watchdog.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/watchdog.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace clreduce {

namespace {
using Clock = std::chrono::steady_clock;

struct Launch {
  cl::Event done;
  cl::Kernel kernel;
  Clock::time_point launched;
};

struct QueueWatch {
  std::deque<Launch> pending;  // in launch order; the first not yet seen finished is running
  Clock::time_point front_since;  // when the first pending one became the first
  cl::Device device;
};

// Launches not yet seen finished, per queue, at most this many (then a launch goes unwatched: the
// oldest, the one that can be stuck, is still watched).
constexpr std::size_t kMaxPending = 1 << 16;

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

  void track(const cl::CommandQueue& q, const cl::Kernel& k, const cl::Event& done) {
    const Clock::time_point now = Clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    QueueWatch& w = queues_[q()];
    if (w.pending.size() >= kMaxPending) return;
    if (w.pending.empty()) {
      w.front_since = now;
      if (!w.device()) w.device = q.getInfo<CL_QUEUE_DEVICE>();
    }
    w.pending.push_back(Launch{done, k, now});
  }

 private:
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait_for(lock, std::chrono::milliseconds(250));
      if (timeout_s_ <= 0) continue;
      const Clock::time_point now = Clock::now();
      for (auto it = queues_.begin(); it != queues_.end();) {
        QueueWatch& w = it->second;
        while (!w.pending.empty() && finished(w.pending.front().done)) {
          w.pending.pop_front();
          w.front_since = now;
        }
        if (w.pending.empty()) {
          it = queues_.erase(it);  // a queue released and its handle reused starts afresh
          continue;
        }
        const Launch& first = w.pending.front();
        const Clock::time_point since = std::max(first.launched, w.front_since);
        if (std::chrono::duration<double>(now - since).count() > timeout_s_) expire(first, w.device);
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

  // Called with mutex_ held; never returns.
  [[noreturn]] void expire(const Launch& l, const cl::Device& device) {
    std::string name = "(unnamed)", file, device_name = "the device";
    try {
      name = l.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
      while (!name.empty() && name.back() == '\0') name.pop_back();
      file = ProgramCache::shared().file_of(l.kernel.getInfo<CL_KERNEL_PROGRAM>()());
      device_name = device.getInfo<CL_DEVICE_NAME>();
      while (!device_name.empty() && device_name.back() == '\0') device_name.pop_back();
    } catch (const cl::Error&) {
    }
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", timeout_s_);
    const std::string line = "clreduce: error: kernel '" + name + "'" + (file.empty() ? "" : " of " + file) +
                             (note_.empty() ? "" : " (" + note_ + ")") + " has run on " + device_name +
                             " for more than " + seconds +
                             " s without finishing; OpenCL cannot stop a running kernel, so clreduce ends "
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
  cl::Event done;
  queue.enqueueNDRangeKernel(kernel, offset, global, local, wait, &done);
  w.track(queue, kernel, done);
  if (event) *event = done;
}

}  // namespace clreduce
