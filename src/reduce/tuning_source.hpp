// The tuning database one reducer uses (Reducer, AxisReducer, SegmentedReducer): the one its caller
// shares (TuningSource::loaded), else its file read once, on first use; none when tuning is off.
// Not thread-safe: one per reducer, used as the reducer is.
#pragma once

#include "clreduce/reduce.hpp"
#include "clreduce/tuning.hpp"

#include <memory>

namespace clreduce {

class TuningLookup {
 public:
  const LoadedTuningDb* get(const TuningSource& source) {
    if (!source.enabled) return nullptr;
    if (!looked_up_) {
      looked_up_ = true;
      if (source.loaded)
        db_ = source.loaded;
      else
        db_ = std::make_shared<LoadedTuningDb>(
            load_tuning_db(tuning_db_path(source.path), tuning_db_path_is_explicit(source.path)));
    }
    return db_.get();
  }

 private:
  std::shared_ptr<const LoadedTuningDb> db_;
  bool looked_up_ = false;
};

}  // namespace clreduce
