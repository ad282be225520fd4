// What every printer shares: the output formats, an aligned text table (numbers right-aligned)
// that also renders as CSV, and the number formats of clreduce's tables.
#pragma once

#include "clreduce/timing.hpp"
#include "format.hpp"  // fixed, size_label: the number formats below the printers
#include "measure/host_reduce.hpp"
#include "measure/read_bandwidth.hpp"

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace clreduce {

enum class Format { Table, Csv, Json };
Format parse_format(const std::string& text);  // table | csv | json; Error naming the choices

// A table of strings: rendered aligned (numbers right-aligned) or as CSV.
struct TextTable {
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
  std::string render_text() const;
  std::string render_csv() const;
};

// A measured point's check cell: "refused" (the device or the variant declined it), "ERROR" (it
// did not run: no report), "FAILED" (its result off the reference), "ok, timer?" (right, but
// the device clock disagreed with the host's: its GB/s not trusted), else "ok".
std::string status_cell(bool refused, bool ran, bool ok, bool timer_suspect);
std::string stats_cell(double us);          // microseconds: 2 decimals under 100, else 1
std::string bytes_human(std::uint64_t b);   // "4.0 MiB"
std::string rel_error_cell(double e);       // "1.23e-07"; "" for a negative (not applicable)
// A "% of peak" cell: "87.3%", or "112.3% *" where the variant read faster than the measured read
// peak (above_peak: pct > 100), which on such a device (PoCL on a CPU) is no ceiling; a table that
// marks a cell ends with kAbovePeakNote. JSON keeps the flag as "above_peak".
bool above_peak(double pct);
std::string pct_of_peak_cell(double pct, int decimals);
extern const char* const kAbovePeakNote;
// {"min", "median", "max", "q1", "q3", "spread_pct" (IQR / median, %), "samples" (every sample,
// in the order taken)}, in the unit of s (µs for times).
nlohmann::json stats_json(const Stats& s);
// The relative spread of a median's samples: "1.2%" (interquartile range over the median), "-"
// for fewer than 2 samples.
std::string spread_cell(const Stats& s);

// The bandwidth unit of text and CSV output (`--units GB|GiB` of bench and report; GB, 10^9
// bytes, everywhere else), passed to the printers by the command that chose it. JSON always keeps
// GB/s ("gbps"). parse_bandwidth_unit throws Error naming the valid units.
enum class BandwidthUnit { GB, GiB };
BandwidthUnit parse_bandwidth_unit(const std::string& text);
double bandwidth_in_unit(double gbps, BandwidthUnit u);
std::string bandwidth_label(BandwidthUnit u);      // "GB/s" or "GiB/s"
std::string bandwidth_csv_label(BandwidthUnit u);  // "GB_per_s" or "GiB_per_s"
std::string bandwidth_cell(double gbps, int decimals, BandwidthUnit u);
// The read peak ({"gbps", "time_us", "kernel", "groups", "wg"}) and the host's std::reduce
// ({"gbps", "time_us", "threads"}; null where not measured) as every result file keeps them.
nlohmann::json peak_json(const ReadBandwidth& peak);
nlohmann::json host_reduce_json(const HostReduceRate& host);

// The line every text output adds when its times come from the host clock because the device's
// timer cannot time ("" with the device's events).
std::string clock_line(TimeSource clock, const std::string& why);
// The line every text output of bench and bench --sizes adds about the cache: "cache:  warm (...)"
// or "cache:  COLD (note)"; and about noise-based stopping ("" without a target).
std::string cache_line(bool cold, const std::string& note);
std::string noise_line(double target_pct);

}  // namespace clreduce
