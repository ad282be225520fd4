// Output formats, text tables and number formats.
#include "printers/table.hpp"

#include "clreduce/error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

namespace clreduce {

using nlohmann::json;

Format parse_format(const std::string& text) {
  if (text == "table") return Format::Table;
  if (text == "csv") return Format::Csv;
  if (text == "json") return Format::Json;
  throw Error("unknown format '" + text + "'; valid formats: table, csv, json");
}

std::string status_cell(bool refused, bool ran, bool ok, bool timer_suspect) {
  if (refused) return "refused";
  if (!ran) return "ERROR";
  if (!ok) return "FAILED";
  return timer_suspect ? "ok, timer?" : "ok";
}

bool above_peak(double pct) { return pct > 100.0; }

std::string pct_of_peak_cell(double pct, int decimals) {
  return fixed(pct, decimals) + "%" + (above_peak(pct) ? " *" : "");
}

const char* const kAbovePeakNote =
    "* above 100% of the read peak: a variant read faster than the streaming-read kernel measured "
    "here, so that peak is no ceiling on this device (its percentages compare, they do not bound)\n";

namespace {
bool looks_numeric(const std::string& s) {
  return !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-') &&
         s.find_first_not_of("0123456789.-+e%x") == std::string::npos;
}
// Display width of UTF-8 text (counts code points; µ is one column).
std::size_t width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char c : s) w += (c & 0xC0) != 0x80;
  return w;
}
std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

std::string rel_error_cell(double e) {
  if (e < 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", e);
  return buf;
}

std::string stats_cell(double us) { return fixed(us, us < 100 ? 2 : 1); }

std::string bytes_human(std::uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double x = static_cast<double>(b);
  int u = 0;
  while (x >= 1024 && u < 4) {
    x /= 1024;
    ++u;
  }
  return fixed(x, u ? 1 : 0) + " " + units[u];
}

std::string TextTable::render_text() const {
  std::vector<std::size_t> w(headers.size());
  for (std::size_t c = 0; c < headers.size(); ++c) w[c] = width(headers[c]);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size() && c < w.size(); ++c) w[c] = std::max(w[c], width(r[c]));
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t c = 0; c < w.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(w[c] - width(cell), ' ');
      const bool right = !header && looks_numeric(cell);
      out << (c ? " | " : "") << (right ? pad + cell : cell + (c + 1 < w.size() ? pad : ""));
    }
    out << '\n';
  };
  line(headers, true);
  for (std::size_t c = 0; c < w.size(); ++c) out << (c ? "-+-" : "") << std::string(w[c], '-');
  out << '\n';
  for (const auto& r : rows) line(r, false);
  return out.str();
}

std::string TextTable::render_csv() const {
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) out << (c ? "," : "") << csv_cell(cells[c]);
    out << '\n';
  };
  line(headers);
  for (const auto& r : rows) line(r);
  return out.str();
}

std::string clock_line(TimeSource clock, const std::string& why) {
  if (clock == TimeSource::DeviceEvents) return "";
  return "clock:  HOST CLOCK around enqueue and wait, not the device's events: " + why +
         ". Back-to-back times include the host's enqueue cost; the first pass and the device-clock one-call figure "
         "are not measured (shown as 0)\n";
}

std::string cache_line(bool cold, const std::string& note) {
  if (!cold)
    return "cache:  warm (samples follow each other: an input that fits the last-level cache is read from it; "
           "--cold evicts it)\n";
  return "cache:  COLD, the last-level cache evicted before every sample, outside the timed span (" + note +
         "); one reduction per back-to-back sample\n";
}

std::string noise_line(double target_pct) {
  if (target_pct <= 0) return "";
  return "noise:  sampled until the spread (interquartile range / median) fell to " + fixed(target_pct, 2) +
         "% or --max-time passed\n";
}

json stats_json(const Stats& s) {
  return json{{"min", s.min},         {"median", s.median}, {"max", s.max},
              {"q1", s.q1},           {"q3", s.q3},         {"spread_pct", s.spread_pct()},
              {"samples", s.samples}};
}

BandwidthUnit parse_bandwidth_unit(const std::string& text) {
  if (text == "GB") return BandwidthUnit::GB;
  if (text == "GiB") return BandwidthUnit::GiB;
  throw Error("unknown unit '" + text + "'; valid units: GB (10^9 bytes), GiB (2^30 bytes)");
}
double bandwidth_in_unit(double gbps, BandwidthUnit u) {
  return u == BandwidthUnit::GB ? gbps : gbps * 1e9 / static_cast<double>(1ull << 30);
}
std::string bandwidth_label(BandwidthUnit u) { return u == BandwidthUnit::GB ? "GB/s" : "GiB/s"; }
std::string bandwidth_csv_label(BandwidthUnit u) { return u == BandwidthUnit::GB ? "GB_per_s" : "GiB_per_s"; }
std::string bandwidth_cell(double gbps, int decimals, BandwidthUnit u) {
  return fixed(bandwidth_in_unit(gbps, u), decimals);
}
std::string spread_cell(const Stats& s) { return s.samples.size() < 2 ? "-" : fixed(s.spread_pct(), 1) + "%"; }

json peak_json(const ReadBandwidth& peak) {
  return json{{"gbps", peak.gbps}, {"time_us", stats_json(peak.us)}, {"kernel", "stream_read.cl: " + peak.kernel},
              {"groups", peak.groups}, {"wg", peak.wg}};
}

json host_reduce_json(const HostReduceRate& host) {
  if (!host.threads) return nullptr;
  return json{{"gbps", host.gbps}, {"time_us", stats_json(host.us)}, {"threads", host.threads},
              {"how", "std::reduce, one contiguous block per thread, host memory"}};
}

}  // namespace clreduce
