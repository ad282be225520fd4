// The tuning database's descriptor entries (clreduce/tuning.hpp, "descriptor_entries") at the
// launch site: what an entry adds to a descriptor launch's parameters before its planner runs.
// A tuned value only ever fills a parameter the caller left unset (a -D of the same name, the
// option that sets it: wg, row width, VEC, chunks), as -D defines the planner reads like the
// caller's own; a tuned launch the planner, the device or the built kernel refuses is said once
// and the planner's defaults are used (the reducers: Reducer, AxisReducer, SegmentedReducer).
// Thread-safety: a DescriptorTuningCache belongs to one reducer (one thread at a time).
#pragma once

#include "clreduce/introspect/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/tuning.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// What the caller fixed of a launch, beside its -D defines.
struct DescriptorCallerSet {
  std::vector<Define> defines;
  bool wg = false;         // --wg / ReduceParams::wg / FamilyParams::wg
  bool vec = false;        // the whole array's ReduceParams::vec
  bool row_width = false;  // lines: FamilyParams::row_width
  bool chunks = false;     // lines, columns: FamilyParams::chunks
  std::optional<std::uint64_t> wg_value;  // the caller's work-group size where given
};

// The tuned part of one launch: defines to append and chunks to set (empty: nothing tuned).
struct DescriptorTuning {
  std::vector<Define> defines;          // tuned -D NAME=VALUE the caller left unset
  std::optional<std::uint64_t> chunks;  // tuned chunks the caller left unset
  std::vector<std::string> filled;      // "WG_SIZE=64", "chunks=4": what the entry filled
  std::string from, date, shape_class, label;  // the database, the entry's date, class and launch label
  std::vector<std::string> warnings;    // the database's own (unreadable, foreign device, stale driver)
  bool refused = false;                 // the tuned launch did not plan or build here once: not tried again
  std::string refusal;                  // the warning said for it
  bool any() const { return !filled.empty(); }
};

// The entry for (r, family, class) on `dev` in `db`, as the defines and chunks it fills for a
// caller who fixed `caller`. Nothing for a descriptor that is not a built-in with its default
// accumulator. Coherence: columns take their group (TILE_X, ROWS_Y) from the entry only where the
// caller fixed none of wg, TILE_X, ROWS_Y; lines take ROW_WIDTH only where it fits the caller's
// work-group; columns take BLOCK=1 only where the caller's VEC is 1 and ITEMS above 1.
DescriptorTuning descriptor_tuning(const LoadedTuningDb& db, const DeviceInfo& dev, const Reduction& r,
                                   DescriptorFamily family, const std::string& shape_class,
                                   const DescriptorCallerSet& caller);

// Writes what `t` tuned into `l` (tuned, tuned_from, tuned_date, shape_class), or, where it was
// refused, its warning; the database's warnings in both cases.
void note_tuning(const DescriptorTuning& t, DescriptorLaunch& l);

// The tuning of each (descriptor, family, class, caller) a reducer has launched, looked up once.
// `db` gives the reducer's loaded database (null: tuning disabled); a lookup without one is empty.
class DescriptorTuningCache {
 public:
  explicit DescriptorTuningCache(std::function<const LoadedTuningDb*()> db = {}) : db_(std::move(db)) {}
  DescriptorTuning& of(const DeviceInfo& dev, const Reduction& r, DescriptorFamily family,
                       const std::string& shape_class, const DescriptorCallerSet& caller);

 private:
  struct Item {
    Reduction r;
    DescriptorFamily family;
    std::string shape_class;
    std::vector<Define> defines;
    bool wg, vec, row_width, chunks;
    std::optional<std::uint64_t> wg_value;
    DescriptorTuning tuning;
  };
  std::function<const LoadedTuningDb*()> db_;
  std::vector<Item> items_;  // most recent first, at most 64
};

}  // namespace clreduce
