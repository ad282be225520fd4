// libFuzzer target: parse_tuning_db (the per-device tuning database, a JSON file).
// Properties: only clreduce::Error escapes (no nlohmann exception, no crash on deep nesting or
// numbers that do not fit); an accepted database re-serialised by tuning_db_json parses again to
// the same JSON text; every tuned wg (and vec) is a power of two; no variant has both times and
// groups_per_cu; the reader's limits hold.
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
