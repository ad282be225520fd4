// DeviceWorkers (device_workers.hpp): a round is posted under the mutex (the task, which workers
// have a part, how many remain, a new round number) and every worker is woken; each worker with a
// part runs it outside the mutex and counts itself done. The caller runs its own part meanwhile,
// then polls `remaining_` for a bounded time before sleeping on `done_`.
#include "multi_device/device_workers.hpp"

#include <chrono>

namespace clreduce {

namespace {
// How long the caller polls for the workers' parts before it sleeps. Parts of one split usually
// end within microseconds of each other; a poll this short costs little where they do not.
constexpr std::chrono::microseconds kPoll{200};
}  // namespace

DeviceWorkers::~DeviceWorkers() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void DeviceWorkers::start(std::size_t workers) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.resize(workers, false);
  for (std::size_t k = threads_.size(); k < workers; ++k) threads_.emplace_back([this, k] { loop(k); });
}

void DeviceWorkers::loop(std::size_t worker) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(std::size_t)>* task = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [&] { return stop_ || (round_ != seen && pending_[worker]); });
      if (stop_) return;
      seen = round_;
      task = task_;
    }
    (*task)(worker + 1);
    bool last = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      pending_[worker] = false;
      last = remaining_.fetch_sub(1) == 1;
    }
    if (last) done_.notify_one();
  }
}

void DeviceWorkers::run(const std::vector<bool>& which, const std::function<void(std::size_t)>& task) {
  std::size_t first = which.size();
  for (std::size_t i = 0; i < which.size() && first == which.size(); ++i)
    if (which[i]) first = i;
  if (first == which.size()) return;
  std::size_t others = 0;
  for (std::size_t i = first + 1; i < which.size(); ++i) others += which[i] ? 1 : 0;
  if (others > 0) {
    start(which.size() - 1);
    {
      std::lock_guard<std::mutex> lock(mu_);
      task_ = &task;
      for (std::size_t k = 0; k + 1 < which.size(); ++k) pending_[k] = k + 1 > first && which[k + 1];
      remaining_.store(others);
      ++round_;
    }
    work_.notify_all();
  }
  task(first);
  if (others == 0) return;
  const auto until = std::chrono::steady_clock::now() + kPoll;
  while (remaining_.load() != 0 && std::chrono::steady_clock::now() < until) std::this_thread::yield();
  std::unique_lock<std::mutex> lock(mu_);
  done_.wait(lock, [&] { return remaining_.load() == 0; });
}

}  // namespace clreduce
