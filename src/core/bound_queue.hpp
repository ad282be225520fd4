// What a Reducer and a Transposer hold of the application's queue they are bound to, and the
// small cache of their resolved launches (most recently used first, bounded).
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <optional>
#include <utility>

namespace clreduce {

struct BoundQueue {
  cl::CommandQueue queue;
  cl::Context context;
  DeviceInfo device;
  KernelDir kernel_dir;
  ProgramCache* programs = nullptr;
  // This binding's number, unique in the process and never reused: a launch names the reducer
  // that prepared it by it, so a launch of a destroyed reducer is not taken for one of a new
  // reducer that happens to live at the same address.
  std::uint64_t serial = 0;

  // Throws Error (Param::Launch) unless `owner` (a launch's owner_) is this binding's serial: a
  // launch is enqueued, read and looked into only by the reducer (`who`) that prepared it.
  void check_owner(std::uint64_t owner, const char* who) const;
};

// Checks that `queue` runs in order (Error, Param::Queue, naming `who`), reads its context and
// device (the facts `device` gives, or queried), and finds the kernel directory (`kernel_dir`
// if not empty). `programs` null: ProgramCache::shared().
BoundQueue bind_queue(const cl::CommandQueue& queue, const std::optional<DeviceInfo>& device,
                      const std::filesystem::path& kernel_dir, ProgramCache* programs, const char* who);

// At most `Capacity` launches by key, the most recently used first: a program that reduces many
// different shapes keeps its memory bounded; each launch holds a few kernel objects.
template <class Key, class Launch, std::size_t Capacity = 64>
class LaunchCache {
 public:
  std::shared_ptr<Launch> find(const Key& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == key) {
        if (it != entries_.begin()) entries_.splice(entries_.begin(), entries_, it);
        return entries_.front().second;
      }
    return nullptr;
  }
  void insert(const Key& key, std::shared_ptr<Launch> launch) {
    entries_.emplace_front(key, std::move(launch));
    if (entries_.size() > Capacity) entries_.pop_back();
  }

 private:
  std::list<std::pair<Key, std::shared_ptr<Launch>>> entries_;
};

}  // namespace clreduce
