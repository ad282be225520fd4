// The clreduce subcommands, given their options as typed text exactly as the user wrote it
// (parsing and validation happen in the library, so every message is the library's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clreduce::cli {

struct DeviceOptions {
  std::optional<std::size_t> platform;
  std::optional<std::string> device;
  std::optional<std::string> kernel_dir;
};

struct RunOptions {  // shared by reduce and bench
  std::string type = "uint", op = "sum", data = "random", format = "table";
  std::optional<std::string> n, input, output_json, output_csv;
  std::optional<std::size_t> wg;
  std::optional<unsigned> times, groups_per_cu, vec, batch;
  std::vector<std::string> defines;
  unsigned iterations = 10, warmup = 2;
  unsigned long long seed = 42;
  // The tuning database (tuning_db.hpp): --db FILE, or the default location; --no-tuning uses
  // the built-in defaults.
  std::optional<std::string> db;
  bool no_tuning = false;
};

struct ReduceOptions : RunOptions {
  std::string variant;
};

struct BenchOptions : RunOptions {
  std::vector<std::string> variants;
  std::vector<std::string> sizes;  // non-empty: the size sweep
  std::optional<std::string> chart;  // SVG: GB/s per variant, or time and GB/s vs n with --sizes
};

// Options of the timed jobs outside the reduction family (transpose, bench transpose, bench
// access): the timing, data and output options they share with reduce and bench.
struct MeasureOptions {
  std::string data = "random", format = "table";
  std::optional<std::string> output_json, output_csv;
  std::optional<unsigned> batch;
  std::vector<std::string> defines;
  unsigned iterations = 10, warmup = 2;
  unsigned long long seed = 42;
};

struct TransposeShapeOptions : MeasureOptions {  // shared by transpose and bench transpose
  std::string type = "float";
  std::optional<std::size_t> wg_x, wg_y;
  std::optional<unsigned> tile, rows;
};

struct TransposeOptions : TransposeShapeOptions {
  std::string variant;
  std::string shape = "2048x512";
};

struct BenchTransposeOptions : TransposeShapeOptions {
  std::vector<std::string> shapes, variants;
};

struct BenchAccessOptions : MeasureOptions {
  std::optional<std::string> n;
  std::optional<std::size_t> wg;
  std::optional<std::uint64_t> groups;
};

// The parameter grid of sweep and tune, as typed: lists or ranges (parse_size_list).
struct GridTexts {
  std::optional<std::string> wg, times, groups_per_cu, vec;
};

struct SweepCliOptions : MeasureOptions {
  std::string type = "uint", op = "sum";
  std::optional<std::string> n, input;
  std::vector<std::string> variants;
  GridTexts grid;
  std::optional<std::string> chart, chart_variant;
  std::string chart_x = "wg", chart_y = "times";
  bool quiet = false;
};

struct TuneCliOptions : MeasureOptions {
  std::string type = "uint", op = "sum";
  std::vector<std::string> sizes, variants;
  GridTexts grid;
  std::optional<std::string> db;
  bool dry_run = false;  // measure and print, write nothing
  bool quiet = false;
};

// Each returns the process exit code: 0 all checks passed, 1 a check failed.
// Errors are thrown as clreduce::Error.
int cmd_devices(const DeviceOptions& d, const std::string& format);
int cmd_variants();
int cmd_reduce(const DeviceOptions& d, const ReduceOptions& o);
int cmd_bench(const DeviceOptions& d, const BenchOptions& o);
int cmd_doctor(const DeviceOptions& d);
struct SoakCliOptions {
  double seconds = 10;
  unsigned long long seed = 0;  // 0: from the clock (printed)
  std::optional<std::string> max_n;
  std::optional<std::size_t> max_wg;
  bool verbose = false;
};
int cmd_soak(const DeviceOptions& d, const SoakCliOptions& o);
int cmd_sweep(const DeviceOptions& d, const SweepCliOptions& o);
int cmd_tune(const DeviceOptions& d, const TuneCliOptions& o);
int cmd_transpose(const DeviceOptions& d, const TransposeOptions& o);
int cmd_bench_transpose(const DeviceOptions& d, const BenchTransposeOptions& o);
int cmd_bench_access(const DeviceOptions& d, const BenchAccessOptions& o);

}  // namespace clreduce::cli
