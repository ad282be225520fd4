// libFuzzer target: parse_tuning_db (the per-device tuning database, a JSON file).
// Properties: only clreduce::Error escapes (no nlohmann exception, no crash on deep nesting or
// numbers that do not fit); an accepted database re-serialised by tuning_db_json parses again to
// the same JSON text; every tuned wg (and vec) is a power of two; no variant has both times and
// groups_per_cu; the reader's limits hold; every axis entry's class and variant belong to its
// axis, its wg and row_width are powers of two (row_width at most wg), its groups_per_cu in range
// and only where its variant takes it, and no two share (type, op, axis, class).
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/tuning.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {
bool power_of_two(std::uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  clreduce::TuningDb db;
  try {
    db = clreduce::parse_tuning_db(text);
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (db.devices.size() > clreduce::kTuningDbMaxDevices) std::abort();
  for (const auto& d : db.devices) {
    if (d.entries.size() > clreduce::kTuningDbMaxEntries) std::abort();
    for (const auto& e : d.entries) {
      if (e.variants.size() > clreduce::kTuningDbMaxVariants) std::abort();
      for (const auto& [name, v] : e.variants) {
        if (name.empty() || !power_of_two(v.params.wg)) std::abort();
        if (v.params.vec && !power_of_two(*v.params.vec)) std::abort();
        if (v.params.times && v.params.groups_per_cu) std::abort();
        if (v.params.times == 0u || v.params.groups_per_cu == 0u) std::abort();
        if (v.measurements.size() > clreduce::kTuningDbMaxMeasurements) std::abort();
      }
    }
    if (d.axis_entries.size() > clreduce::kTuningDbMaxAxisEntries) std::abort();
    for (std::size_t i = 0; i < d.axis_entries.size(); ++i) {
      const auto& e = d.axis_entries[i];
      if (!clreduce::is_axis_shape_class(e.axis, e.shape_class)) std::abort();
      const clreduce::AxisVariant& v = clreduce::find_axis_variant(e.variant);  // throws Error: a finding
      if (v.axis != e.axis) std::abort();
      if (e.wg && (!v.uses_wg() || !power_of_two(*e.wg) || *e.wg > clreduce::kTuningDbMaxAxisWg)) std::abort();
      if (e.row_width && (!v.uses_row_width() || !power_of_two(*e.row_width) || (e.wg && *e.row_width > *e.wg)))
        std::abort();
      if (e.groups_per_cu && (!(v.uses_tile() || v.splits_rows()) || *e.groups_per_cu == 0 ||
                              *e.groups_per_cu > clreduce::kTuningDbMaxAxisGroupsPerCu))
        std::abort();
      if (e.measurements.size() > clreduce::kTuningDbMaxMeasurements) std::abort();
      for (std::size_t j = 0; j < i; ++j)
        if (clreduce::key_of(d.axis_entries[j]) == clreduce::key_of(e)) std::abort();
    }
  }
  const std::string once = clreduce::tuning_db_json(db);
  clreduce::TuningDb again;
  try {
    again = clreduce::parse_tuning_db(once);
  } catch (const clreduce::Error&) {
    std::abort();  // what we write must read back
  }
  if (clreduce::tuning_db_json(again) != once) std::abort();
  return 0;
}
