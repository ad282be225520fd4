// Renderings of one measured descriptor reduction (text, CSV, JSON).
#include "printers/descriptor_printer.hpp"

#include "printers/reduce_printer.hpp"
#include "printers/table.hpp"

#include <cstdio>
#include <sstream>

namespace clreduce {

using nlohmann::json;

namespace {
// "whole array", "rows of 4096 x 1024 (ld 1024)", "cols of ...", "27 segments"
std::string family_of(const DescriptorReport& r) {
  switch (r.family) {
    case DescriptorJob::Family::Whole: return "whole array";
    case DescriptorJob::Family::Segments: return std::to_string(r.results.size()) + " segments";
    default:
      return std::string(name_of(r.family)) + " of " + std::to_string(r.shape.rows) + " x " +
             std::to_string(r.shape.cols) + " (ld " + std::to_string(r.shape.stride()) + ")";
  }
}
// The first results, then "..." (every value: --output FILE).
std::string results_of(const DescriptorReport& r) {
  std::string s;
  // Exact summation: each value's bits in hex beside it (the same on every device, launch and split).
  const bool bits = r.reduction.summation == Summation::Exact;
  for (std::size_t k = 0; k < r.results.size() && k < 4; ++k) {
    s += (k ? ", " : "") + r.results[k].str();
    if (bits) s += bits_hex(r.results[k]);
  }
  if (r.results.size() > 4) s += ", ... (" + std::to_string(r.results.size()) + " results: --output FILE writes them all)";
  return s;
}
std::string types_of(const DescriptorReport& r) {
  std::vector<std::string> names;
  for (Scalar s : r.input_types) names.emplace_back(name_of(s));
  return join(names, " x ");
}
}  // namespace

namespace {
// The first kFirstResults results (rows, columns, segments: "result" is the first of them), with a
// note where there are more, so that a script reading the JSON is told, not left to guess, that
// the rest are in --output's file.
constexpr std::size_t kFirstResults = 16;
json first_results_json(const DescriptorReport& r) {
  json values = json::array();
  for (std::size_t k = 0; k < r.results.size() && k < kFirstResults; ++k) values.push_back(r.results[k].str());
  json o{{"values", values}};
  if (r.results.size() > kFirstResults)
    o["note"] = "the first " + std::to_string(kFirstResults) + " of " + std::to_string(r.results.size()) +
                " results: --output FILE writes them all";
  return o;
}
}  // namespace

json descriptor_json(const DescriptorReport& r, const DeviceInfo& dev) {
  json inputs = json::array();
  for (std::size_t j = 0; j < r.input_types.size(); ++j)
    inputs.push_back(json{{"type", name_of(r.input_types[j])}, {"origin", r.origins[j]}});
  return json{{"device", device_json(dev)},
              {"reduction", r.reduction.name},
              {"inputs", inputs},
              {"n", r.n},
              {"accumulator", accumulator_str(r.reduction)},
              {"result_layout", r.out_layout_str()},
              {"family", name_of(r.family)},
              {"results", r.results.size()},
              {"result", r.result.str()},
              {"first_results", first_results_json(r)},
              {"launch", json{{"kernel", r.launch.kernel},
                              {"label", r.launch.label()},
                              {"wg", r.launch.wg},
                              {"groups", r.launch.groups},
                              {"vec", r.launch.vec},
                              {"items", r.launch.items},
                              {"depth", r.launch.depth},
                              {"private_bytes", r.launch.private_bytes},
                              {"options", r.launch.options},
                              {"tuned", r.launch.tuned},
                              {"tuning_db", r.launch.tuned_from.empty() ? json() : json(r.launch.tuned_from)},
                              {"tuned_date", r.launch.tuned_date},
                              {"shape_class", r.launch.shape_class}}},
              {"check", json{{"ok", r.check.ok},
                             {"tolerance", r.check.tolerance},
                             {"error", r.check.error},
                             {"detail", r.check.detail},
                             {"reference", r.reference_how}}},
              {"bytes_read", r.bytes_read},
              {"clock", r.clock == TimeSource::DeviceEvents ? "device events" : "host clock"},
              {"back_to_back_us", stats_json(r.timing.whole_us)},
              {"one_call_us", stats_json(r.timing.single_us)},
              {"batch", r.timing.batch},
              {"read_GB_per_s", r.read_gbs()},
              {"peak", peak_json(r.peak)},
              {"pct_of_read_peak", r.pct_of_peak()}};
}

std::string descriptor_text(const DescriptorReport& r, const DeviceInfo& dev) {
  std::ostringstream o;
  o << "device      " << dev.name << " (" << dev.platform_name << ", driver " << dev.driver_version << ")\n"
    << "reduction   " << r.reduction.name << " of " << types_of(r) << ", " << family_of(r) << ", n = " << r.n << " ("
    << bytes_human(r.bytes_read) << " read)\n"
    << "accumulator " << accumulator_str(r.reduction) << ", result " << r.out_layout_str() << "\n"
    << "launch      " << r.launch.kernel << ": " << r.launch.label() << ", depth " << r.launch.depth << " (one launch)"
    << (r.launch.private_bytes ? ", " + std::to_string(r.launch.private_bytes) + " bytes of private memory per work-item (CL_KERNEL_PRIVATE_MEM_SIZE)" : std::string())
    << "\n"
    << (r.launch.tuned.empty() ? std::string()
                               : "tuned       " + join(r.launch.tuned) + " from the tuning database " +
                                     r.launch.tuned_from + " (class " + r.launch.shape_class +
                                     (r.launch.tuned_date.empty() ? std::string() : ", " + r.launch.tuned_date) + ")\n")
    << (r.results.size() > 1 ? "results     " : "result      ") << results_of(r) << "\n"
    << "check       " << (r.check.ok ? "" : "FAILED ") << r.check.detail << "\n"
    << "time        " << stats_cell(r.timing.whole_us.median) << " us back to back (median of "
    << r.timing.whole_us.samples.size() << " samples of " << r.timing.batch << " launches, "
    << (r.clock == TimeSource::DeviceEvents ? "device events" : "host clock") << "), "
    << stats_cell(r.timing.single_us.median) << " us one call (host clock)\n";
  if (r.bytes_read == 0) {  // segments all empty: no rate, no peak to compare with
    o << "read rate   none: no elements read\n";
    return o.str();
  }
  o << "read rate   " << fixed(r.read_gbs(), 1) << " GB/s back to back: " << fixed(r.pct_of_peak(), 1)
    << "% of the read peak " << fixed(r.peak.gbps, 1) << " GB/s (" << r.peak.kernel << " over " << r.peak_over << ", " << stats_cell(r.peak.us.median) << " us)\n";
  return o.str();
}

std::string descriptor_csv(const DescriptorReport& r) {
  std::ostringstream o;
  o << "reduction,family,results,inputs,n,accumulator,result_layout,result,check,wg,groups,vec,items,depth,bytes_read,"
       "back_to_back_us,one_call_us,"
       "GB_per_s,peak_GB_per_s,pct_of_read_peak\n"
    << r.reduction.name << "," << name_of(r.family) << "," << r.results.size() << "," << types_of(r) << "," << r.n << "," << accumulator_str(r.reduction) << ","
    << r.out_layout_str() << ",\"" << r.result.str() << "\"," << (r.check.ok ? "ok" : "FAILED") << ","
    << r.launch.wg << "," << r.launch.groups << "," << r.launch.vec << "," << r.launch.items << "," << r.launch.depth << ","
    << r.bytes_read << "," << r.timing.whole_us.median << "," << r.timing.single_us.median << ","
    << r.read_gbs() << "," << r.peak.gbps << "," << r.pct_of_peak() << "\n";
  return o.str();
}

}  // namespace clreduce
