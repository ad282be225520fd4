// libFuzzer target: parse_saved_run (a saved `bench` or `bench --sizes` run, the JSON that
// `compare` and `report` read, from any file a user hands them).
// Properties: only clreduce::Error escapes the reader (no nlohmann exception, no crash on deep
// nesting or numbers that do not fit); an accepted run renders as `report` renders it (table, CSV,
// JSON, its chart) and as `compare` matches it (saved_rows) with nothing but Error escaping; and the
// JSON `report` writes of it reads back as a run of the same kind.
#include "clreduce/error.hpp"
#include "printers/charts.hpp"
#include "printers/family_printer.hpp"
#include "printers/result_charts.hpp"
#include "printers/run_json.hpp"
#include "printers/sizes_printer.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  clreduce::SavedRun s;
  try {
    s = clreduce::parse_saved_run(text, "fuzz.json");
  } catch (const clreduce::Error&) {
    return 0;
  }
  if (s.kind != "bench" && s.kind != "bench_sizes") std::abort();
  nlohmann::json j;
  try {
    (void)clreduce::saved_rows(s);
    if (s.kind == "bench") {
      j = clreduce::bench_json(s.run, s.device);
      (void)clreduce::bench_text(s.run, s.device);
      (void)clreduce::bench_csv(s.run);
      (void)clreduce::render_svg(clreduce::bench_chart(s.run, s.device));
    } else {
      j = clreduce::sizes_json(s.run, s.device);
      (void)clreduce::sizes_text(s.run, s.device);
      (void)clreduce::sizes_csv(s.run, s.device);
      (void)clreduce::render_svg(clreduce::scaling_chart(s.run, s.device));
    }
  } catch (const clreduce::Error&) {
    return 0;  // a run the printers refuse, in words
  }
  if (s.doc.contains("meta")) j["meta"] = s.doc["meta"];
  const std::string again = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  clreduce::SavedRun back;
  try {
    back = clreduce::parse_saved_run(again, "fuzz-again.json");
  } catch (const clreduce::Error&) {
    std::abort();  // what report writes must read back
  }
  if (back.kind != s.kind) std::abort();
  return 0;
}
