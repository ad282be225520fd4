// The columns the benchmarks' rows share, declared once for the result model
// (measure/result_table.hpp): the timing statistics, the read peak and the check. Each group is a
// function template over a kind's row type R, given the accessors of the row's parts; a kind splices
// the groups into its own column list with join(). The kinds name some of these columns apart (their
// outputs predate the model and stay as they are): the parameters say where. Thread-safety: pure
// functions; the columns they return share nothing.
#pragma once

#include "measure/result_table.hpp"
#include "printers/table.hpp"  // stats_json, peak_json, above_peak

#include <initializer_list>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace clreduce {

// A part of a row that may be missing (a timing of a point that did not run): null leaves the cells
// that read it empty.
template <class R, class P>
using PartOf = std::function<const P*(const R&)>;

// A kind's column list from its own columns and the shared groups, in that order.
template <class R>
std::vector<ColumnOf<R>> join(std::initializer_list<std::vector<ColumnOf<R>>> parts) {
  std::vector<ColumnOf<R>> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A text cell, empty where the text is "" (JSON then leaves it out).
template <class R>
std::function<Cell(const R&)> text_if(std::function<std::string(const R&)> f) {
  return [f](const R& r) {
    std::string s = f(r);
    return s.empty() ? Cell() : Cell(std::move(s));
  };
}

// The time columns of a Timed or Sampled T (keys min_us, median_us, max_us, single_us,
// single_events_us), in µs: the back-to-back median ("median µs", median_us) and, by `show`:
enum TimeShow : unsigned {
  kMinMaxText = 1,    // the back-to-back min and max in the text table ("min µs", "max µs"), not in CSV alone
  kMedianFirst = 2,   // CSV median_us, min_us, max_us (else min_us, median_us, max_us)
  kSingle = 4,        // one call at a time by the host clock: "1 call µs", single_call_median_us
  kSingleEvents = 8,  // one call by the device's events: single_call_events_median_us (CSV)
};
// csv_decimals as Column's (-1: std::to_string's 6).
template <class R, class T>
std::vector<ColumnOf<R>> time_columns(PartOf<R, T> t, unsigned show, int csv_decimals = 3) {
  const auto col = [&](const char* key, const char* text, const char* csv, Stats T::*s, double Stats::*x) {
    return ColumnOf<R>{{key, "", text, csv, Unit::Micros, 2, csv_decimals},
                       [t, s, x](const R& r) { return t(r) ? Cell((t(r)->*s).*x) : Cell(); }};
  };
  const bool mm = show & kMinMaxText;
  std::vector<ColumnOf<R>> c = {col("min_us", mm ? "min µs" : "", "min_us", &T::whole_us, &Stats::min),
                                col("median_us", "median µs", "median_us", &T::whole_us, &Stats::median),
                                col("max_us", mm ? "max µs" : "", "max_us", &T::whole_us, &Stats::max)};
  if (show & kMedianFirst) std::swap(c[0], c[1]);
  if (show & kSingle) c.push_back(col("single_us", "1 call µs", "single_call_median_us", &T::single_us, &Stats::median));
  if (show & kSingleEvents)
    c.push_back(col("single_events_us", "", "single_call_events_median_us", &T::single_events_us, &Stats::median));
  return c;
}

// The JSON's timing of a Timed or Sampled T: the back-to-back, one call's and one call's by the
// device's events stats objects (stats_json) at the paths given ("" leaves one out), "batch", the
// samples taken where `samples` names a path, and "timer_suspect".
template <class R, class T>
std::vector<ColumnOf<R>> time_json_columns(PartOf<R, T> t, const std::string& whole, const std::string& single,
                                           const std::string& single_events = "", const std::string& samples = "") {
  const auto of = [t](auto f) { return [t, f](const R& r) { return t(r) ? Cell(f(*t(r))) : Cell(); }; };
  std::vector<ColumnOf<R>> c;
  const std::pair<std::string, Stats T::*> stats[] = {
      {whole, &T::whole_us}, {single, &T::single_us}, {single_events, &T::single_events_us}};
  for (const auto& [path, s] : stats)
    if (!path.empty()) c.push_back({{path, path, "", ""}, of([s = s](const T& x) { return stats_json(x.*s); })});
  c.push_back({{"batch", "batch", "", ""}, of([](const T& x) { return u64(x.batch); })});
  if (!samples.empty()) c.push_back({{samples, samples, "", ""}, of([](const T& x) { return u64(x.repetitions); })});
  c.push_back({{"timer_suspect", "timer_suspect", "", ""}, of([](const T& x) { return x.timer_suspect; })});
  return c;
}

// Where the kinds name the read peak's columns apart (the defaults are those of most):
struct PeakNames {
  std::string peak_csv = "peak_read_$bw";  // the peak's GB/s, CSV
  std::string pct_json = "pct_of_peak";    // the row's % of the peak ("% of peak" in text)
  std::string pct_csv = "pct_of_peak";
  std::string peak_json;                   // the peak's object (peak_json), "" for none
  bool above_peak = true;                  // JSON above_peak (pct > 100) where the row has a %
  Unit unit = Unit::Bandwidth;             // of the peak's GB/s (Number: GB/s whatever --units)
  int csv_decimals = 2;
};

// The read peak (keys peak_gbps, pct, peak, above_peak): `peak` the row's measured peak, `pct` the
// row's % of it (none where the row did not run).
template <class R>
std::vector<ColumnOf<R>> peak_columns(PartOf<R, ReadBandwidth> peak,
                                      std::function<std::optional<double>(const R&)> pct, const PeakNames& n) {
  std::vector<ColumnOf<R>> c = {
      {{"peak_gbps", "", "", n.peak_csv, n.unit, 1, n.csv_decimals},
       [peak](const R& r) { return peak(r) ? Cell(peak(r)->gbps) : Cell(); }},
      {{"pct", n.pct_json, "% of peak", n.pct_csv, Unit::PctOfPeak, 1, n.csv_decimals},
       [pct](const R& r) { return pct(r) ? Cell(*pct(r)) : Cell(); }}};
  if (!n.peak_json.empty())
    c.push_back({{"peak", n.peak_json, "", ""}, [peak](const R& r) { return peak(r) ? Cell(peak_json(*peak(r))) : Cell(); }});
  if (n.above_peak)
    c.push_back({{"above_peak", "above_peak", "", ""}, [pct](const R& r) { return pct(r) ? Cell(above_peak(*pct(r))) : Cell(); }});
  return c;
}

// The check (keys status, reason, refused, error): its status cell (JSON "status", text and CSV
// "check"; status_cell's words), where `reason` is given why the row was refused, its error or
// where its check failed (CSV "reason"), and in JSON the refusal (at `refused_json`) and the error
// where not "". A null accessor leaves its column out.
template <class R>
std::vector<ColumnOf<R>> check_columns(std::function<std::string(const R&)> status,
                                       std::function<std::string(const R&)> reason,
                                       std::function<std::string(const R&)> refused,
                                       std::function<std::string(const R&)> error,
                                       const std::string& refused_json = "refused") {
  std::vector<ColumnOf<R>> c = {{{"status", "status", "check", "check"}, [status](const R& r) { return Cell(status(r)); }}};
  if (reason) c.push_back({{"reason", "", "", "reason"}, text_if(reason)});
  if (refused) c.push_back({{"refused", refused_json, "", ""}, text_if(refused)});
  if (error) c.push_back({{"error", "error", "", ""}, text_if(error)});
  return c;
}

}  // namespace clreduce
