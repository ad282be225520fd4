// Saved result files read back: the JSON that `clreduce bench` and `clreduce bench --sizes` write
// (family_printer.hpp, sizes_printer.hpp) parsed into the Run model and the device's facts, so
// that `clreduce report` renders them again with the same printers and `clreduce compare`
// matches their rows, without a device. Every failure is an Error naming the file and what is
// wrong in it (not JSON, another kind of file, a missing or mistyped field, no raw samples).
#pragma once

#include "clreduce/device.hpp"
#include "measure/engine.hpp"

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

struct SavedRun {
  std::string path;
  std::string kind;      // "bench" or "bench_sizes"
  nlohmann::json doc;    // the file as read (its "meta" among the rest)
  DeviceInfo device;     // the facts the file keeps; no OpenCL handles
  Run run;
};

// The kinds read_saved_run accepts, for messages.
inline constexpr const char* kSavedKinds = "a JSON file written by `clreduce bench` or `clreduce bench --sizes` "
                                           "(--format json or --output-json)";

// The limits of the reader, so that any file (a user's, a hostile one) costs bounded memory and
// stack: the file's bytes, and the nesting of its arrays and objects (a bench run nests 6, a
// bench --sizes run 11).
inline constexpr std::uint64_t kSavedRunMaxBytes = 64ull << 20;
inline constexpr unsigned kSavedRunMaxDepth = 32;

// What `clreduce report` reads: those, and any document with a "schema" marker and its "table".
inline constexpr const char* kReportKinds =
    "a JSON file written by `clreduce bench` or `clreduce bench --sizes`, or one with a \"schema\" marker of version "
    "2 at most (any benchmark's --format json or --output-json)";
// The schema names a saved document may carry (result_printer.hpp's with_schema): the tables
// `report` renders, then one run's reports of `clreduce reduce` (their JSON is the record, no table).
inline constexpr const char* kTableSchemaNames =
    "clreduce.bench, clreduce.bench_sizes, clreduce.sweep, clreduce.bench_axis, clreduce.bench_descriptors, "
    "clreduce.bench_transpose, clreduce.bench_access, clreduce.bench_multi, clreduce.reduce_segments, "
    "clreduce.transpose, clreduce.tune, clreduce.tune_axis, clreduce.tune_descriptors";
inline constexpr const char* kOneRunSchemaNames = "clreduce.reduce, clreduce.reduce_axis, clreduce.reduce_descriptor";
// Both lists, for messages.
std::string all_schema_names();
// Whether `name` is in `list` (a comma-separated list of names such as those above).
bool schema_listed(const std::string& name, const std::string& list);

// The file's JSON under the limits below (bytes, nesting); Error naming the file and what is wrong
// (`expected` says what the file should have been).
nlohmann::json read_saved_document(const std::string& path, const std::string& expected = kSavedKinds);
nlohmann::json parse_saved_document(const std::string& text, const std::string& path,
                                    const std::string& expected = kSavedKinds);
// The schema a document names ("clreduce.tune"), "" where it carries no marker (version 1, written
// before the marker). Error: a marker that is not {"name": string, "version": integer}, a name
// not in all_schema_names(), or a version above kSchemaVersion.
std::string saved_schema(const nlohmann::json& doc, const std::string& path);

// Reads and parses `path`. Throws Error: the file cannot be read, is a directory, FIFO or device,
// is over kSavedRunMaxBytes, is not JSON (a number past a double's range included), nests deeper
// than kSavedRunMaxDepth, is not of a kind it knows, or lacks a field the printers need.
SavedRun read_saved_run(const std::string& path);
// The same on the file's text (`path` only names it in messages): the limits and refusals above
// but those of the file system.
SavedRun parse_saved_run(const std::string& text, const std::string& path);
// The same on a document already parsed (`path` only names it in messages).
SavedRun saved_run_of(const nlohmann::json& doc, const std::string& path);

// One row of a saved run as `compare` matches it: the configuration that identifies it and the
// back-to-back samples of its (best) launch.
struct SavedRow {
  std::string key;       // "uint sum n=1048576 warm naive"
  std::string variant, cache, launch;  // launch: "wg 256, times 8, vec 4, 2 passes"
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::uint64_t n = 0;
  const ReduceReport* report = nullptr;  // into SavedRun::run; null where nothing was measured
  std::string status;                    // "ok", or why the row cannot be compared
};
// Every row (a variant's measured launch at each size and cache), in file order; status "ok" for
// the verified ones, else "skipped: ...", "not measured", "FAILED check".
std::vector<SavedRow> saved_rows(const SavedRun& s);

}  // namespace clreduce
