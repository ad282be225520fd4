// The tuning database's descriptor entries at the launch site (src/descriptor/tuned.hpp).
#include "descriptor/tuned.hpp"

#include "clreduce/error.hpp"

#include <algorithm>

namespace clreduce {

namespace {
bool caller_defines(const DescriptorCallerSet& c, const std::string& name) {
  return std::any_of(c.defines.begin(), c.defines.end(), [&](const Define& d) { return d.name == name; });
}
// The caller's numeric -D value of `name`, where given as a number.
std::optional<std::uint64_t> caller_number(const DescriptorCallerSet& c, const std::string& name) {
  for (const Define& d : c.defines)
    if (d.name == name && d.value) try {
        std::size_t used = 0;
        const unsigned long long x = std::stoull(*d.value, &used, 0);
        if (used == d.value->size()) return x;
      } catch (...) {
        // not a number: the planner names it
      }
  return std::nullopt;
}
}  // namespace

DescriptorTuning descriptor_tuning(const LoadedTuningDb& db, const DeviceInfo& dev, const Reduction& r,
                                   DescriptorFamily family, const std::string& shape_class,
                                   const DescriptorCallerSet& caller) {
  DescriptorTuning t;
  t.shape_class = shape_class;
  t.warnings = db.warnings;  // the file's own (missing where named, malformed)
  if (!db.db || !r.builtin || r.inputs.empty()) return t;
  // Only a built-in as builtin() makes it (its default accumulator): what tune measured.
  try {
    if (!(builtin(*r.builtin, r.inputs.front()) == r)) return t;
  } catch (const Error&) {
    return t;
  }
  TunedDescriptorLookup found =
      find_tuned_descriptor(db, device_key(dev), {std::string(name_of(*r.builtin)), r.inputs, family, shape_class});
  t.warnings.insert(t.warnings.end(), found.warnings.begin(), found.warnings.end());
  if (!found.entry) return t;
  const TunedDescriptorEntry& e = *found.entry;
  t.from = db.path;
  t.date = e.date;
  t.label = e.launch_label();
  const auto tuned = [&](const char* name) -> std::optional<std::uint64_t> {
    for (const auto& [n, x] : e.params)
      if (n == name) return x;
    return std::nullopt;
  };
  const bool cols = family == DescriptorFamily::Cols;
  // Columns: the group is one choice (TILE_X x ROWS_Y, or wg with TILE_X).
  const bool group_fixed = cols && (caller.wg || caller_defines(caller, "TILE_X") || caller_defines(caller, "ROWS_Y"));
  const std::optional<std::uint64_t> caller_wg =
      caller.wg_value ? caller.wg_value : caller_number(caller, "WG_SIZE");
  for (const auto& [name, value] : e.params) {
    if (caller_defines(caller, name)) continue;
    if (name == "WG_SIZE" && caller.wg) continue;
    if (name == "VEC" && caller.vec) continue;
    if ((name == "TILE_X" || name == "ROWS_Y") && group_fixed) continue;
    if (name == "ROW_WIDTH") {
      if (caller.row_width) continue;
      // At most the caller's work-group, or the tuned one where the caller gave none.
      const std::optional<std::uint64_t> wg = caller_wg ? caller_wg : tuned("WG_SIZE");
      if (wg && value > *wg) continue;
    }
    if (name == "BLOCK" && value == 1) {
      const std::optional<std::uint64_t> vec = caller_number(caller, "VEC");
      const std::optional<std::uint64_t> items = caller_number(caller, "ITEMS");
      if ((vec && *vec != 1) || (items && *items == 1)) continue;
    }
    t.defines.push_back(Define{name, std::to_string(value)});
    t.filled.push_back(name + "=" + std::to_string(value));
  }
  if (e.chunks && !caller.chunks && family != DescriptorFamily::Whole) {
    t.chunks = e.chunks;
    t.filled.push_back("chunks=" + std::to_string(*e.chunks));
  }
  return t;
}

void note_tuning(const DescriptorTuning& t, DescriptorLaunch& l) {
  l.warnings.insert(l.warnings.end(), t.warnings.begin(), t.warnings.end());
  l.shape_class = t.shape_class;
  if (t.refused) {
    l.warnings.push_back(t.refusal);
    return;
  }
  if (!t.any()) return;
  l.tuned = t.filled;
  l.tuned_from = t.from;
  l.tuned_date = t.date;
}

DescriptorTuning& DescriptorTuningCache::of(const DeviceInfo& dev, const Reduction& r, DescriptorFamily family,
                                            const std::string& shape_class, const DescriptorCallerSet& caller) {
  for (auto it = items_.begin(); it != items_.end(); ++it)
    if (it->family == family && it->shape_class == shape_class && it->wg == caller.wg && it->vec == caller.vec &&
        it->row_width == caller.row_width && it->chunks == caller.chunks && it->wg_value == caller.wg_value &&
        it->defines == caller.defines && it->r == r) {
      if (it != items_.begin()) std::rotate(items_.begin(), it, it + 1);
      return items_.front().tuning;
    }
  const LoadedTuningDb* db = db_ ? db_() : nullptr;
  Item item{r, family, shape_class, caller.defines, caller.wg, caller.vec, caller.row_width, caller.chunks,
            caller.wg_value, DescriptorTuning{}};
  if (db) item.tuning = descriptor_tuning(*db, dev, r, family, shape_class, caller);
  if (items_.size() >= 64) items_.pop_back();
  items_.insert(items_.begin(), std::move(item));
  return items_.front().tuning;
}

}  // namespace clreduce
