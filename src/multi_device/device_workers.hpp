// DeviceWorkers: host threads kept for a MultiReducer's life, one per device after the first, so
// that a call hands each device its part without starting a thread. The calling thread runs the
// first device's part itself, then waits for the others: first by polling for a bounded time (the
// parts usually end together, and a sleeping thread is woken late), then asleep.
//
// Why: on two H200s a call took 105-283 µs longer than its slowest part (bench/NOTES.md, issue
// 18), with a std::thread started and joined per device per call. Whether this removes that
// gap is for the next two-GPU run (bench multi's start and tail columns) to say.
//
// run() is for one thread at a time (the MultiReducer's contract). Tasks must not throw (the
// MultiReducer's catch everything into their device's error slot).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace clreduce {

class DeviceWorkers {
 public:
  DeviceWorkers() = default;
  DeviceWorkers(const DeviceWorkers&) = delete;
  DeviceWorkers& operator=(const DeviceWorkers&) = delete;
  ~DeviceWorkers();  // stops and joins the workers

  // Runs task(i) for every i with which[i], each on its own thread: the first such i on the
  // calling thread, the others on workers (started on first use and kept). Returns once all have
  // returned.
  void run(const std::vector<bool>& which, const std::function<void(std::size_t)>& task);

 private:
  void loop(std::size_t worker);
  void start(std::size_t workers);

  std::vector<std::thread> threads_;   // thread k runs device k + 1
  std::mutex mu_;
  std::condition_variable work_, done_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::vector<bool> pending_;          // per worker: its device has a part this round
  std::atomic<std::size_t> remaining_{0};
  std::uint64_t round_ = 0;
  bool stop_ = false;
};

}  // namespace clreduce
