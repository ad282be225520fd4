// How the tuning database's parameters fill a configuration at the launch site (Reducer::prepare).
#pragma once

#include "clreduce/reduce.hpp"
#include "clreduce/tuning.hpp"

#include <string>
#include <vector>

namespace clreduce {

// Fills the parameters the caller left unset from the tuned ones: wg when 0; the launch mode
// (TIMES or groups per CU) only when the caller set neither (they are one choice); vec when
// unset. Returns what it filled, e.g. {"wg=256", "vec=4", "groups_per_cu=8"} (empty if none).
std::vector<std::string> apply_tuned(const TunedParams& tuned, ReduceParams& cfg);

}  // namespace clreduce
