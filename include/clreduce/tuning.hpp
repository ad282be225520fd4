// The per-device tuning database: the launch parameters `clreduce tune` found best for each
// (device, element type, operator, variant), kept in one versioned JSON file that a person can
// read, and used by every Reducer on that device for the parameters its caller leaves unset.
// This file is the storage alone: reading (strict, with the JSON path of what is wrong), writing
// (merge one entry, atomic rename), where the file lives, and the lookup rules (foreign device,
// stale driver). How tuned values become a launch is the reducer's (clreduce/reduce.hpp).
// Thread-safety: the functions share no state; saves to one file from several threads or processes
// take turns under a file lock (save_tuning_entry), so none loses another's entry.
//
// Layout (version 1):
//   {"format": "clreduce-tuning-db", "version": 1, "devices": [
//     {"platform": P, "device": D, "driver": V, "entries": [
//       {"type": "uint", "op": "sum", "date": "2026-11-21T12:00:00Z", "sizes": [1048576, ...],
//        "best_variant": "single_pass", "variants": {
//          "vector": {"wg": 256, "vec": 4, "groups_per_cu": 8,
//                     "measurements": [{"n": 1048576, "tuned_us": 6.1, "default_us": 7.9,
//                                       "gbps": 687.0}, ...],
//                     "gain_over_default": 1.12}}}]}]}
// Required: format, version, devices; a device's platform, device, driver, entries; an entry's
// type, op, variants; a variant's wg. Everything else may be left out (a person may write
// {"wg": 128} by hand). Unknown fields are errors (they are typos more often than not).
//
// Axis entries (`clreduce tune axis`): a device may also hold an optional "axis_entries" array
// (still version 1: a file without it is what it always was, byte for byte; a clreduce older than
// axis tuning rejects a file with it as an unknown field, warns and uses its defaults):
//     "axis_entries": [
//       {"type": "float", "op": "sum", "axis": "rows", "class": "rows.short.many",
//        "date": "2026-11-25T16:00:00Z", "variant": "rows_sliced", "wg": 128, "row_width": 8,
//        "measurements": [{"m": 65536, "n": 512, "tuned_us": 80.1, "default_us": 95.3,
//                          "gbps": 1675.2}, ...],
//        "gain_over_default": 1.19}, ...]
// One per (type, op, axis, class). Required: type, op, axis ("rows" or "cols"), class (a class
// id of that axis, clreduce/axis.hpp shape_class_of), variant (an axis variant of that axis).
// Optional, each only where the variant takes it: wg (a power of two up to 65536; not for
// cols_tile), row_width (rows_sliced; a power of two up to 1024 and at most wg), groups_per_cu
// (rows_split and cols_tile: row chunks given as groups per compute unit, 1..4096, so that one
// value transfers across the shapes of a class and across devices of other sizes; the planner
// turns it into chunks with axis_chunks_for). An absent parameter is the planner's default.
//
// Descriptor entries (`clreduce tune descriptors`): a device may also hold an optional
// "descriptor_entries" array (still version 1, as axis_entries: a file without it is byte for
// byte what it was; a clreduce older than descriptor tuning rejects a file with it as an unknown
// field, warns and uses its defaults):
//     "descriptor_entries": [
//       {"reduction": "sum", "inputs": ["f16"], "family": "rows", "class": "rows.short.many",
//        "date": "2026-12-01T10:00:00Z", "params": {"WG_SIZE": 64, "ROW_WIDTH": 8, "ITEMS": 4, "VEC": 8},
//        "chunks": 2,
//        "measurements": [{"m": 4096, "n": 1024, "tuned_us": 80.1, "default_us": 95.3, "gbps": 104.7}, ...],
//        "gain_over_default": 1.19}, ...]
// One per (reduction, inputs, family, class). Required: reduction (a built-in's name,
// clreduce/reduction.hpp), inputs (its input types: one, or two of one type for dot and sqdist,
// a type the built-in takes), family ("whole": the whole-array kernel; "rows": the lines kernel,
// which rows and segments share; "cols": the columns kernel), class ("whole" for the whole
// family, else a shape class of that axis, shape_class_of; segments take the rows class of
// (segments, average length)), params (an object of at least one -D parameter the family's
// kernel marks tunable, src/descriptor/kernel_params.cpp, each a value it declares valid; lines:
// ROW_WIDTH at most WG_SIZE where both are given). Optional: chunks (rows: parts per line,
// 1..1024; cols: row chunks, 1..65535; not for whole), date, measurements (each: m (rows and
// cols only, required there), n, tuned_us, default_us, gbps), gain_over_default. The entry
// applies to the built-in with its default accumulator (not an --accumulate f64 one), and only to
// the parameters its caller leaves unset.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/kernel_spec.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clreduce {

enum class Axis;  // clreduce/axis.hpp

// Limits of the reader, so that a hostile or broken file stays cheap to reject.
constexpr std::size_t kTuningDbMaxDevices = 256;       // devices in a file
constexpr std::size_t kTuningDbMaxEntries = 256;       // entries of one device
constexpr std::size_t kTuningDbMaxVariants = 256;      // variants of one entry
constexpr std::size_t kTuningDbMaxMeasurements = 256;  // measurements of a variant, sizes of an entry
constexpr std::size_t kTuningDbMaxAxisEntries = 256;  // axis entries of one device
constexpr std::size_t kTuningDbMaxAxisWg = 65536;      // an axis entry's wg
constexpr unsigned kTuningDbMaxRowWidth = 1024;        // an axis entry's row_width
constexpr unsigned kTuningDbMaxAxisGroupsPerCu = 4096; // an axis entry's groups_per_cu
constexpr std::size_t kTuningDbMaxDescriptorEntries = 4096;  // descriptor entries of one device (25 built-ins x
                                                            // 12 types x 10 classes fit)
constexpr std::size_t kTuningDbMaxDescriptorParams = 16;    // params of one descriptor entry
constexpr std::uint64_t kTuningDbMaxLineParts = 1024;       // a rows entry's chunks (parts per line)
constexpr std::uint64_t kTuningDbMaxColumnChunks = 65535;   // a cols entry's chunks (row chunks)
constexpr std::size_t kTuningDbMaxDepth = 32;          // nesting of JSON arrays and objects
// Size of the file: a device tuned for all 12 (type, op) pairs takes about 150 KB; a hostile file
// of this size still costs nlohmann up to ~150 MB to hold.
constexpr std::size_t kTuningDbMaxBytes = 4u << 20;
constexpr int kTuningDbVersion = 1;

// A device as the database knows it.
struct DeviceKey {
  std::string platform, device, driver;
  bool operator==(const DeviceKey& o) const {
    return platform == o.platform && device == o.device && driver == o.driver;
  }
};
DeviceKey device_key(const DeviceInfo& dev);  // platform_name, name, driver_version
// "NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver 580.159.04)"
std::string describe(const DeviceKey& k);

// The launch parameters tune chose for one variant. Never both times and groups_per_cu.
struct TunedParams {
  std::size_t wg = 0;  // a power of two
  std::optional<unsigned> times, groups_per_cu, vec;
};
struct TunedMeasurement {
  std::uint64_t n = 0;
  double tuned_us = 0, default_us = 0, gbps = 0;
};
struct TunedVariant {
  TunedParams params;
  std::vector<TunedMeasurement> measurements;
  double gain_over_default = 1;  // geometric mean of default_us / tuned_us
};
struct TuningEntry {
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  std::string date;  // when tune ran, ISO 8601 UTC
  std::vector<std::uint64_t> sizes;
  // The best variant overall: empty, or a variant name (one whose default launch was kept by
  // tune is not among `variants`).
  std::string best_variant;
  std::map<std::string, TunedVariant> variants;
};
// The launch `clreduce tune axis` chose for one class of shapes (see the layout above).
struct TunedAxisMeasurement {
  std::uint64_t m = 0, n = 0;  // the shape measured
  double tuned_us = 0, default_us = 0, gbps = 0;
};
struct TunedAxisEntry {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  Axis axis{};               // Axis::Rows
  std::string shape_class;   // "rows.short.many"
  std::string date;          // when tune ran, ISO 8601 UTC
  std::string variant;       // an axis variant of `axis`
  std::optional<std::size_t> wg;
  std::optional<unsigned> row_width, groups_per_cu;
  std::vector<TunedAxisMeasurement> measurements;
  double gain_over_default = 1;  // geometric mean of default_us / tuned_us
  // "rows_sliced, wg 128, row width 8" / "cols_tile, 16 groups per CU"
  std::string launch_label() const;
};
// What identifies an axis entry within a device.
struct AxisEntryKey {
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  Axis axis{};
  std::string shape_class;
  bool operator==(const AxisEntryKey& o) const {
    return type == o.type && op == o.op && axis == o.axis && shape_class == o.shape_class;
  }
};
AxisEntryKey key_of(const TunedAxisEntry& e);

// The launch `clreduce tune descriptors` chose for one (built-in, inputs, family, class).
enum class DescriptorFamily { Whole, Rows, Cols };
std::string_view name_of(DescriptorFamily f);  // "whole", "rows", "cols"
// "whole", "rows" or "cols"; throws Error naming the valid names.
DescriptorFamily parse_descriptor_family(std::string_view text);
// The kernel a family's entries parameterize: whole_kernel, lines_kernel (rows and segments),
// columns_kernel (src/descriptor/kernel_params.hpp).
const KernelSpec& kernel_of(DescriptorFamily f);
// The class of a whole-array launch ("whole": one class for every n).
inline constexpr const char* kWholeClass = "whole";
struct TunedDescriptorEntry {
  std::string reduction;           // a built-in's name: "sum", "argmax"
  std::vector<Scalar> inputs;      // its input types: {F16}; dot: {F32, F32}
  DescriptorFamily family = DescriptorFamily::Whole;
  std::string shape_class = kWholeClass;  // "whole", "rows.short.many", "cols.square"
  std::string date;                // when tune ran, ISO 8601 UTC
  // The chosen -D parameters, by name (each tunable in kernel_of(family), a valid value), in the
  // order of the kernel's table (as tune writes them and the reader orders them).
  std::vector<std::pair<std::string, std::uint64_t>> params;
  std::optional<std::uint64_t> chunks;          // rows: parts per line; cols: row chunks
  std::vector<TunedAxisMeasurement> measurements;  // m 0 for the whole array
  double gain_over_default = 1;    // geometric mean of default_us / tuned_us
  // "WG_SIZE=64 ITEMS=8 VEC=16", "TILE_X=8 ROWS_Y=4 ITEMS=4 BLOCK=0 chunks=4"
  std::string launch_label() const;
};
// The class of a descriptor launch: "whole" for the whole family; else shape_class_of (clreduce/axis.hpp)
// of the M x N matrix (rows: M lines of N elements; segments: M segments of N elements on average)
// along rows or columns, with the bytes of the widest input. Never throws.
std::string descriptor_shape_class(DescriptorFamily f, std::uint64_t m, std::uint64_t n, std::size_t widest_input_bytes,
                                   unsigned compute_units);
// What identifies a descriptor entry within a device.
struct DescriptorEntryKey {
  std::string reduction;
  std::vector<Scalar> inputs;
  DescriptorFamily family = DescriptorFamily::Whole;
  std::string shape_class;
  bool operator==(const DescriptorEntryKey& o) const {
    return reduction == o.reduction && inputs == o.inputs && family == o.family && shape_class == o.shape_class;
  }
};
DescriptorEntryKey key_of(const TunedDescriptorEntry& e);
// "sum f16 rows rows.short.many", "dot f32 x f32 whole whole"
std::string describe(const DescriptorEntryKey& k);

struct DeviceTuning {
  DeviceKey key;
  std::vector<TuningEntry> entries;  // at most one per (type, op)
  std::vector<TunedAxisEntry> axis_entries = {};  // at most one per (type, op, axis, class)
  std::vector<TunedDescriptorEntry> descriptor_entries = {};  // at most one per DescriptorEntryKey
};
struct TuningDb {
  std::vector<DeviceTuning> devices;  // at most one per device key
};

// Parses and validates the whole text. Throws Error naming what is wrong and where: JSON syntax
// (with the byte offset), nesting deeper than kTuningDbMaxDepth, a wrong "format", an unsupported
// "version", any field missing, unknown, of the wrong kind or out of range, with its JSON path,
// e.g. "devices[0].entries[1].variants.vector.wg: expected a power of two >= 1, got 300".
// Unknown type/op names give parse_type/parse_op's messages. Variant names are not checked
// against the registry (the user of a lookup does that). Also rejected: both times and
// groups_per_cu in one variant, two
// devices with the same key, two entries of a device with the same (type, op), two axis entries
// with the same (type, op, axis, class), an axis entry's class or variant not of its axis, a
// parameter its variant does not take, a descriptor entry against the rules of its layout above
// (e.g. "devices[0].descriptor_entries[2].params.TILE_X: ..."), two descriptor entries with the
// same key, and more than the kTuningDbMax* limits (bytes, nesting, devices, entries, axis
// entries, descriptor entries and their params, variants, measurements and sizes).
TuningDb parse_tuning_db(std::string_view json_text);
// Pretty JSON (indent 2, fields in the layout's order); round-trips through parse_tuning_db.
std::string tuning_db_json(const TuningDb& db);

// Where the database lives: `flag` (a path the caller was given) if set, else $CLREDUCE_TUNING_DB if set and
// non-empty, else $XDG_CONFIG_HOME/clreduce/tuning.json (an absolute XDG_CONFIG_HOME), else
// $HOME/.config/clreduce/tuning.json, else "clreduce-tuning.json" in the working directory.
// Throws Error (Param::TuningDb) for an empty flag.
std::string tuning_db_path(const std::optional<std::string>& flag);
// True when the user named the file (the flag or $CLREDUCE_TUNING_DB): load_tuning_db's
// `explicit_path` for the path tuning_db_path gives.
bool tuning_db_path_is_explicit(const std::optional<std::string>& flag);

// Loading for use by a reducer: never throws for a missing, unreadable or malformed file.
struct LoadedTuningDb {
  std::string path;
  std::optional<TuningDb> db;          // empty: missing or unusable
  std::vector<std::string> warnings;   // each one or more complete sentences
};
// `explicit_path`: the user named the file, so a missing file is a warning too; a missing file at
// the default location is silent (nobody has tuned yet). A whole-array entry naming a variant this
// clreduce does not have (best_variant or a key of variants) is a warning naming its JSON path
// and the valid names; the rest of the file is used.
LoadedTuningDb load_tuning_db(const std::string& path, bool explicit_path);

// What a reducer uses for a variant on a device.
struct TunedLookup {
  const TuningEntry* entry = nullptr;     // the entry for (device, type, op), if any
  const TunedVariant* variant = nullptr;  // the variant within it, if tuned
  std::vector<std::string> warnings;      // foreign device or stale driver
};
// An entry whose platform, device name and driver all match is used. The same platform and
// device with only other drivers: a "stale" warning, nothing used. No entry for the platform and
// device at all: a "foreign" warning listing what the file holds, nothing used. An entry for the
// device but none for (type, op), or no such variant in it: no warning, nothing used. No
// database (db.db empty): nothing, and no warning (load_tuning_db gave it).
// The pointers point into `db` and live as long as it does.
TunedLookup find_tuned(const LoadedTuningDb& db, const DeviceInfo& dev, ElemType type, Op op,
                       const std::string& variant);
TunedLookup find_tuned(const LoadedTuningDb& db, const DeviceKey& key, ElemType type, Op op,
                       const std::string& variant);

// The axis entry for (device, type, op, axis, class), with the same device rules and warnings as
// find_tuned (foreign device, stale driver); `entry` null when there is none. Points into `db`.
struct TunedAxisLookup {
  const TunedAxisEntry* entry = nullptr;
  std::vector<std::string> warnings;
};
TunedAxisLookup find_tuned_axis(const LoadedTuningDb& db, const DeviceKey& key, const AxisEntryKey& what);

// The descriptor entry for `what` on the device, with find_tuned's device rules and warnings
// (foreign device, stale driver); `entry` null when there is none. Points into `db`.
struct TunedDescriptorLookup {
  const TunedDescriptorEntry* entry = nullptr;
  std::vector<std::string> warnings;
};
TunedDescriptorLookup find_tuned_descriptor(const LoadedTuningDb& db, const DeviceKey& key,
                                            const DescriptorEntryKey& what);

// Before a long `tune`: throws the Error a save would throw where it can be known now ("cannot
// write tuning database '<path>': <reason>"): a file there that is not a tuning database or
// cannot be read, a directory that does not exist (outside the default location) or cannot be
// written. Reads the file; writes nothing.
void check_tuning_db_writable(const std::string& path);
// Merges `entry` into the database file at `path` for `key`, replacing an entry with the same
// (device key, type, op); entries of other devices and other (type, op) pairs are kept.
// Files it never replaces or makes: a file at `path` that is not a tuning database (malformed,
// foreign: an Error, the file untouched); directories other than the default location's
// ($XDG_CONFIG_HOME/clreduce or ~/.config/clreduce: an Error where a named path's directory is
// missing); a file at the lock's name through a symbolic link there (an Error).
// Writes a temporary file in the same directory (SIGINT, SIGTERM and SIGHUP held back meanwhile;
// one left by a process killed mid-write is removed by the next save) and renames it over the
// target (a symbolic link's target, keeping its permission bits), so no reader ever sees a torn
// file. Throws Error "cannot write tuning database '<path>': <reason>" when it cannot, or when
// `entry` would not read back (e.g. wg not a power of two). `warnings` gets nothing today (kept
// for callers).
// Saves take turns: read-merge-write runs under an exclusive flock on path + ".lock" (created
// beside the file, removed by its holder), so concurrent saves lose no entry; a lock held
// elsewhere for over 120 s gives the Error naming the lock file.
void save_tuning_entry(const std::string& path, const DeviceKey& key, const TuningEntry& entry,
                       std::vector<std::string>& warnings);
// The same for axis entries, in one locked read-merge-write: each of `entries` replaces the
// device's axis entry with its (type, op, axis, class) or is added; each key of `cleared` (a class
// where tune kept the default rule) removes that entry if present. Everything else is kept.
// Throws as save_tuning_entry (also for more than kTuningDbMaxAxisEntries).
void save_tuning_axis_entries(const std::string& path, const DeviceKey& key, const std::vector<TunedAxisEntry>& entries,
                              const std::vector<AxisEntryKey>& cleared, std::vector<std::string>& warnings);
// The same for descriptor entries: each of `entries` replaces the device's descriptor entry with
// its key or is added; each key of `cleared` (a class where tune kept the default launch) removes
// that entry if present. Throws as save_tuning_entry (also for more than
// kTuningDbMaxDescriptorEntries, or an entry that would not read back).
void save_tuning_descriptor_entries(const std::string& path, const DeviceKey& key,
                                    const std::vector<TunedDescriptorEntry>& entries,
                                    const std::vector<DescriptorEntryKey>& cleared, std::vector<std::string>& warnings);

}  // namespace clreduce
