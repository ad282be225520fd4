// clreduce soak: random reductions (variant, type, operator, n, work-group size, TIMES / VEC)
// against the host reference until the time is up. Stops at the first mismatch with the command
// line that reproduces it; configurations the device refuses are counted and skipped.
#pragma once

#include "measure/session.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace clreduce {

struct SoakOptions {
  double seconds = 10;
  std::uint64_t seed = 1;
  std::uint64_t max_n = 0;  // 0: 2^24 on a GPU, 2^20 elsewhere
  std::size_t max_wg = 0;   // 0: the device maximum (at most 4096)
};

struct SoakReport {
  std::uint64_t seed = 0;
  double seconds = 0;                         // spent
  std::uint64_t checked = 0;                  // reductions run and compared
  std::uint64_t skipped = 0;                  // configurations the device refused
  std::map<std::string, std::uint64_t> per_variant;
  std::map<std::string, std::uint64_t> skip_reasons;  // first words of each refusal
  bool failed = false;
  std::string failure;      // what differed
  std::string reproduce;    // the clreduce command line that reproduces it
  std::string current;      // the configuration being run (for progress lines)
};

// `progress` hears the report before each reduction (may be empty).
SoakReport run_soak(const Session& rt, const SoakOptions& opt,
                    const std::function<void(const SoakReport&)>& progress = {});

std::string soak_text(const SoakReport& r, const DeviceInfo& dev);

}  // namespace clreduce
