// Reading saved bench / bench --sizes JSON back into the Run model.
#include "printers/run_json.hpp"

#include "clreduce/error.hpp"
#include "clreduce/variants.hpp"
#include "parse.hpp"
#include "printers/result_printer.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>
#include <type_traits>

namespace clreduce {

using nlohmann::json;

namespace {
// A field of `j` at `where` ("sizes[2].rows[0].best"), or an Error naming both.
std::string format_number(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

struct Reader {
  const std::string& path;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(path + ": " + where + ": " + what + " (expected " + kSavedKinds + ")");
  }
  const json& at(const json& j, const std::string& key, const std::string& where) const {
    if (!j.is_object()) fail(where, "not an object");
    auto it = j.find(key);
    if (it == j.end()) fail(where, "no field \"" + key + "\"");
    return *it;
  }
  template <class T>
  T get(const json& j, const std::string& key, const std::string& where) const {
    const json& v = at(j, key, where);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // nlohmann converts any JSON number to an integer by a plain cast: 2e122 or 1.5 would be
      // undefined behaviour or silently cut, -1 a huge unsigned count. A count field takes a whole
      // number in T's range and nothing else.
      static_assert(std::is_unsigned_v<T>, "saved runs hold no signed integer fields");
      if (v.is_number_unsigned() && v.get<std::uint64_t>() <= std::numeric_limits<T>::max())
        return static_cast<T>(v.get<std::uint64_t>());
      if (v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
          static_cast<std::uint64_t>(v.get<std::int64_t>()) <= std::numeric_limits<T>::max())
        return static_cast<T>(v.get<std::int64_t>());
      if (v.is_number())
        fail(where + "." + key, "not a whole number from 0 to " + std::to_string(std::numeric_limits<T>::max()) +
                                    " (" + v.dump() + ")");
    }
    try {
      return v.get<T>();
    } catch (const json::exception&) {
      fail(where + "." + key, "of the wrong type (" + std::string(v.type_name()) + ")");
    }
  }
  template <class T>
  T get_or(const json& j, const std::string& key, const std::string& where, T fallback) const {
    if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return fallback;
    return get<T>(j, key, where);
  }

  // Times in µs: each finite and not negative, min <= median <= max (a measured run's always are;
  // a file that says otherwise was edited, and its comparisons would mean nothing).
  Stats stats(const json& j, const std::string& where) const {
    Stats s;
    s.min = get<double>(j, "min", where);
    s.median = get<double>(j, "median", where);
    s.max = get<double>(j, "max", where);
    s.q1 = get_or<double>(j, "q1", where, 0);
    s.q3 = get_or<double>(j, "q3", where, 0);
    s.samples = get_or<std::vector<double>>(j, "samples", where, {});
    const auto time = [&](double v, const std::string& field) {
      if (!std::isfinite(v) || v < 0)
        fail(where + "." + field, "is " + format_number(v) + "; a time in µs is finite and not negative");
    };
    time(s.min, "min");
    time(s.median, "median");
    time(s.max, "max");
    time(s.q1, "q1");
    time(s.q3, "q3");
    for (std::size_t i = 0; i < s.samples.size(); ++i) time(s.samples[i], "samples[" + std::to_string(i) + "]");
    if (s.min > s.median || s.median > s.max) fail(where, "min, median and max are not in order");
    return s;
  }

  // A bandwidth in GB/s: finite and not negative (bytes over a time that is).
  double rate(const json& j, const std::string& key, const std::string& where) const {
    const double v = get<double>(j, key, where);
    if (!std::isfinite(v) || v < 0)
      fail(where + "." + key, "is " + format_number(v) + "; a bandwidth in GB/s is finite and not negative");
    return v;
  }

  Value value(ElemType t, const std::string& text, const std::string& where) const {
    const char* b = text.c_str();
    char* e = nullptr;
    Value v;
    switch (t) {
      case ElemType::Uint: v.v = static_cast<std::uint32_t>(std::strtoull(b, &e, 10)); break;
      case ElemType::Int: v.v = static_cast<std::int32_t>(std::strtoll(b, &e, 10)); break;
      case ElemType::Float: v.v = std::strtof(b, &e); break;
      case ElemType::Double: v.v = std::strtod(b, &e); break;
    }
    if (text.empty() || *e != '\0') fail(where, "'" + text + "' is not a " + std::string(name_of(t)) + " value");
    return v;
  }

  TimeSource clock(const std::string& text, const std::string& where) const {
    if (text == name_of(TimeSource::DeviceEvents)) return TimeSource::DeviceEvents;
    if (text == name_of(TimeSource::HostClock)) return TimeSource::HostClock;
    fail(where, "unknown clock '" + text + "'");
  }

  bool cold(const json& j, const std::string& where) const {
    const std::string c = get_or<std::string>(j, "cache", where, "warm");
    if (c != "warm" && c != "cold") fail(where + ".cache", "'" + c + "' is neither warm nor cold");
    return c == "cold";
  }

  ReduceReport report(const json& j, const std::string& where) const {
    ReduceReport r;
    r.config.variant = get<std::string>(j, "variant", where);
    try {
      r.config.type = parse_type(get<std::string>(j, "type", where));
      r.config.op = parse_op(get<std::string>(j, "op", where));
      r.plan.variant = &find_variant(r.config.variant);
    } catch (const Error& e) {
      fail(where, e.what());
    }
    r.n = get<std::uint64_t>(j, "n", where);
    r.data_origin = get<std::string>(j, "data", where);
    if (auto g = get_or<unsigned>(j, "groups_per_cu", where, 0)) r.config.groups_per_cu = g;
    const json& plan = at(j, "plan", where);
    r.plan.depth = get<unsigned>(plan, "depth", where + ".plan");
    const json& passes = at(plan, "passes", where + ".plan");
    if (!passes.is_array() || passes.empty()) fail(where + ".plan.passes", "not a non-empty array");
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const std::string w = where + ".plan.passes[" + std::to_string(i) + "]";
      PassPlan p;
      p.count = get<std::uint64_t>(passes[i], "count", w);
      p.groups = get<std::uint64_t>(passes[i], "groups", w);
      p.wg = get<std::size_t>(passes[i], "wg", w);
      p.times = get<unsigned>(passes[i], "times", w);
      p.vec = get<unsigned>(passes[i], "vec", w);
      p.options = get<std::string>(passes[i], "options", w);
      r.plan.passes.push_back(p);
    }
    r.timed.value = value(r.config.type, get<std::string>(j, "result", where), where + ".result");
    r.reference.value = value(r.config.type, get<std::string>(j, "reference", where), where + ".reference");
    const json& check = at(j, "check", where);
    const std::string cw = where + ".check";
    r.check.ok = get<bool>(check, "ok", cw);
    r.check.tolerance = get<double>(check, "tolerance", cw);
    r.check.error = get<double>(check, "error", cw);
    r.check.rel_error = get_or<double>(check, "rel_error", cw, -1);
    r.check.detail = get<std::string>(check, "detail", cw);
    r.timed.consistent = get<bool>(check, "consistent", cw);
    r.timed.whole_us = stats(at(j, "time_us", where), where + ".time_us");
    r.timed.first_pass_us = stats(at(j, "first_pass_us", where), where + ".first_pass_us");
    r.timed.single_us = stats(at(j, "single_call_us", where), where + ".single_call_us");
    r.timed.single_events_us = stats(at(j, "single_call_events_us", where), where + ".single_call_events_us");
    r.timed.host_whole_us = stats(at(j, "host_time_us", where), where + ".host_time_us");
    r.timed.batch = get<unsigned>(j, "batch", where);
    r.timed.repetitions = get<unsigned>(j, "repetitions", where);
    r.timed.clock = clock(get<std::string>(j, "clock", where), where + ".clock");
    r.timed.clock_note = get<std::string>(j, "clock_note", where);
    r.timed.timer_suspect = get<bool>(j, "timer_suspect", where);
    r.timed.cold = cold(j, where);
    r.timed.noise_target_pct = get_or<double>(j, "noise_target_pct", where, 0);
    r.timed.noise_reached = get_or<bool>(j, "noise_reached", where, true);
    r.gbps = rate(j, "gbps", where);
    r.chunks = get<std::uint64_t>(j, "chunks", where);
    r.chosen_by = get<std::string>(j, "chosen_by", where);
    r.tuned = get<std::vector<std::string>>(j, "tuned", where);
    r.tuned_from = get_or<std::string>(j, "tuning_db", where, "");
    r.warnings = get<std::vector<std::string>>(j, "warnings", where);
    return r;
  }

  DeviceInfo device(const json& j) const {
    const std::string w = "device";
    DeviceInfo d;
    d.platform_index = get<std::size_t>(j, "platform_index", w);
    d.device_index = get<std::size_t>(j, "device_index", w);
    d.platform_name = get<std::string>(j, "platform", w);
    d.platform_vendor = get<std::string>(j, "platform_vendor", w);
    d.platform_version = get<std::string>(j, "platform_version", w);
    d.name = get<std::string>(j, "name", w);
    d.vendor = get<std::string>(j, "vendor", w);
    d.type_name = get<std::string>(j, "type", w);
    d.is_gpu = d.type_name == "GPU";
    d.driver_version = get<std::string>(j, "driver_version", w);
    d.device_version = get<std::string>(j, "device_version", w);
    d.opencl_c_version = get<std::string>(j, "opencl_c_version", w);
    d.compute_units = get<unsigned>(j, "compute_units", w);
    d.max_work_group_size = get<std::size_t>(j, "max_work_group_size", w);
    d.local_mem_bytes = get<std::uint64_t>(j, "local_mem_bytes", w);
    d.max_alloc_bytes = get<std::uint64_t>(j, "max_alloc_bytes", w);
    d.global_mem_bytes = get<std::uint64_t>(j, "global_mem_bytes", w);
    d.lockstep_width = get<unsigned>(j, "lockstep_width", w);
    d.lockstep_source = get<std::string>(j, "lockstep_source", w);
    // Written since 2026-11-26; files from before it have none (no limit known then).
    d.loop_trip_limit = get_or<std::uint64_t>(j, "loop_trip_limit", w, 0);
    d.timer_resolution_ns = get<std::uint64_t>(j, "timer_resolution_ns", w);
    d.resident_items_per_cu = get<unsigned>(j, "resident_items_per_cu", w);
    d.resident_groups_limit = get<unsigned>(j, "resident_groups_limit", w);
    d.occupancy_source = get<std::string>(j, "occupancy_source", w);
    d.fp64 = get<bool>(j, "fp64", w);
    d.is_nvidia = d.platform_vendor.find("NVIDIA") != std::string::npos;
    return d;
  }

  ReadBandwidth peak(const json& j, const std::string& where) const {
    ReadBandwidth p;
    p.gbps = rate(j, "gbps", where);
    p.us = stats(at(j, "time_us", where), where + ".time_us");
    std::string k = get<std::string>(j, "kernel", where);
    const std::string prefix = "stream_read.cl: ";
    p.kernel = k.rfind(prefix, 0) == 0 ? k.substr(prefix.size()) : k;
    p.groups = get<std::uint64_t>(j, "groups", where);
    p.wg = get<std::size_t>(j, "wg", where);
    return p;
  }

  HostReduceRate host(const json& j, const std::string& where) const {
    HostReduceRate h;
    if (j.is_null()) return h;
    h.gbps = rate(j, "gbps", where);
    h.us = stats(at(j, "time_us", where), where + ".time_us");
    h.threads = get<unsigned>(j, "threads", where);
    return h;
  }

  // What a size shares in both kinds of file.
  SizeRun size(const json& j, const std::string& where) const {
    SizeRun s;
    s.n = get<std::uint64_t>(j, "n", where);
    s.cold = cold(j, where);
    s.data_origin = get<std::string>(j, "data", where);
    s.peak = peak(at(j, "peak_read", where), where + ".peak_read");
    s.host = host(at(j, "host_reduce", where), where + ".host_reduce");
    return s;
  }

  const json& array(const json& j, const std::string& key, const std::string& where) const {
    const json& a = at(j, key, where);
    if (!a.is_array()) fail(where + "." + key, "not an array");
    return a;
  }
};
}  // namespace

SavedRun saved_run_of(const json& doc, const std::string& path) {
  const Reader rd{path};
  SavedRun s;
  s.path = path;
  s.doc = doc;
  if (!doc.is_object()) rd.fail("the document", "not a JSON object");
  if (const std::string schema = saved_schema(doc, path);
      !schema.empty() && schema != "clreduce.bench" && schema != "clreduce.bench_sizes")
    rd.fail("schema", "'" + schema + "' is a kind this command does not read");
  if (!doc.contains("kind"))
    rd.fail("the document", "no field \"kind\" (a file of another kind, or written before clreduce 0.2 kept it)");
  s.kind = rd.get<std::string>(doc, "kind", "the document");
  if (s.kind != "bench" && s.kind != "bench_sizes")
    rd.fail("kind", "'" + s.kind + "' is a kind this command does not read");
  s.device = rd.device(rd.at(doc, "device", "the document"));
  Run& run = s.run;
  try {
    run.type = parse_type(rd.get<std::string>(doc, "type", "the document"));
    run.op = parse_op(rd.get<std::string>(doc, "op", "the document"));
  } catch (const Error& e) {
    rd.fail("the document", e.what());
  }
  run.clock = rd.clock(rd.get<std::string>(doc, "clock", "the document"), "clock");
  run.clock_note = rd.get<std::string>(doc, "clock_note", "the document");
  run.cache_note = rd.get_or<std::string>(doc, "cache_note", "the document", "");
  run.noise_target_pct = rd.get_or<double>(doc, "noise_target_pct", "the document", 0);
  if (s.kind == "bench") {
    SizeRun size = rd.size(doc, "the document");
    const json& rows = rd.array(doc, "rows", "the document");
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const std::string w = "rows[" + std::to_string(i) + "]";
      VariantRun v;
      v.variant = rd.get<std::string>(rows[i], "variant", w);
      v.unavailable = rd.get_or<std::string>(rows[i], "skipped", w, "");
      if (v.unavailable.empty()) {
        Measured m;
        // A row is a measured run (its plan and figures), an error, or skipped: one with none of
        // them was not written by clreduce, and would print as a bare ERROR.
        m.error = rd.get_or<std::string>(rows[i], "error", w, "");
        if (!rows[i].contains("plan") && m.error.empty())
          rd.fail(w, "neither a measured run (no field \"plan\"), an \"error\" nor \"skipped\"");
        if (rows[i].contains("plan")) m.report = rd.report(rows[i], w);
        v.points.push_back(std::move(m));
      }
      size.variants.push_back(std::move(v));
    }
    run.sizes.push_back(std::move(size));
  } else {
    const json& sizes = rd.array(doc, "sizes", "the document");
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const std::string w = "sizes[" + std::to_string(i) + "]";
      SizeRun size = rd.size(sizes[i], w);
      const json& rows = rd.array(sizes[i], "rows", w);
      for (std::size_t k = 0; k < rows.size(); ++k) {
        const std::string rw = w + ".rows[" + std::to_string(k) + "]";
        VariantRun v;
        v.variant = rd.get<std::string>(rows[k], "variant", rw);
        v.unavailable = rd.get_or<std::string>(rows[k], "skipped", rw, "");
        const json& candidates = rd.array(rows[k], "candidates", rw);
        for (std::size_t c = 0; c < candidates.size(); ++c) {
          const std::string cw = rw + ".candidates[" + std::to_string(c) + "]";
          const json& cj = candidates[c];
          Measured m;
          m.point.params.variant = v.variant;
          m.point.params.wg = rd.get<std::size_t>(cj, "wg", cw);
          if (cj.contains("groups_per_cu")) m.point.params.groups_per_cu = rd.get<unsigned>(cj, "groups_per_cu", cw);
          if (cj.contains("vec")) m.point.params.vec = rd.get<unsigned>(cj, "vec", cw);
          if (cj.contains("b2b_us") && !cj.contains("report"))
            rd.fail(cw, "a measured candidate without its \"report\" (written before clreduce kept them)");
          if (cj.contains("report")) {
            m.report = rd.report(rd.at(cj, "report", cw), cw + ".report");
            // The candidate's parameters as launched (the printer writes the report's own).
            m.report->config.wg = m.point.params.wg;
            m.report->config.groups_per_cu = m.point.params.groups_per_cu;
            m.report->config.vec = m.point.params.vec;
          }
          m.skipped = rd.get_or<std::string>(cj, "refused", cw, "");
          m.error = rd.get_or<std::string>(cj, "error", cw, "");
          if (!m.report && m.skipped.empty() && m.error.empty())
            rd.fail(cw, "neither a measured candidate (no field \"report\"), \"refused\" nor an \"error\"");
          v.points.push_back(std::move(m));
        }
        size.variants.push_back(std::move(v));
      }
      run.sizes.push_back(std::move(size));
    }
  }
  return s;
}

json read_saved_document(const std::string& path, const std::string& expected) {
  // What the path is, before anything is opened: a FIFO would block the open, a directory is no
  // file, and a file past the limit is refused without reading it.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(path + ": cannot be read: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw Error(path + ": is a directory; expected " + expected);
  if (!S_ISREG(st.st_mode))
    throw Error(path + ": is not a regular file (a FIFO, socket or device); expected " + expected);
  const auto too_big = [&] {
    return Error(path + ": is larger than " + std::to_string(kSavedRunMaxBytes >> 20) +
                 " MiB, the most a saved run may be read at; expected " + expected);
  };
  if (static_cast<std::uint64_t>(st.st_size) > kSavedRunMaxBytes) throw too_big();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot be read: " + std::strerror(errno));
  std::string text;
  char buf[1 << 16];
  while (in && text.size() <= kSavedRunMaxBytes) {  // bounded though the file grows meanwhile
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (text.size() > kSavedRunMaxBytes) throw too_big();
  return parse_saved_document(text, path, expected);
}

json parse_saved_document(const std::string& text, const std::string& path, const std::string& expected) {
  if (text.size() > kSavedRunMaxBytes)
    throw Error(path + ": is larger than " + std::to_string(kSavedRunMaxBytes >> 20) +
                " MiB, the most a saved run may be read at; expected " + expected);
  try {
    // The parser's own depth, checked as it goes: a file of 200000 nested arrays is refused at
    // the first one too deep, before anything deep is built.
    return json::parse(text, [&](int depth, json::parse_event_t, json&) {
      if (depth > static_cast<int>(kSavedRunMaxDepth))
        throw Error(path + ": JSON nested deeper than " + std::to_string(kSavedRunMaxDepth) + " levels; expected " +
                    expected);
      return true;
    });
  } catch (const json::exception& e) {  // syntax, and numbers past a double (1e400): out_of_range
    throw Error(path + ": not JSON (" + std::string(e.what()) + "); expected " + expected);
  }
}

std::string all_schema_names() { return std::string(kTableSchemaNames) + ", " + kOneRunSchemaNames; }

bool schema_listed(const std::string& name, const std::string& list) {
  std::istringstream names(list);
  for (std::string one; std::getline(names >> std::ws, one, ',');)
    if (one == name) return true;
  return false;
}

std::string saved_schema(const json& doc, const std::string& path) {
  if (!doc.is_object() || !doc.contains("schema")) return "";
  const json& m = doc["schema"];
  if (!m.is_object() || !m.contains("name") || !m["name"].is_string() || !m.contains("version") ||
      !m["version"].is_number_integer())
    throw Error(path + ": \"schema\" is not {\"name\": \"clreduce.<kind>\", \"version\": N}; valid schemas: " +
                all_schema_names() + " (version " + std::to_string(kSchemaVersion) + " at most)");
  const std::string name = m["name"].get<std::string>();
  if (!schema_listed(name, all_schema_names()))
    throw Error(path + ": schema '" + name + "' is not one this clreduce reads; valid schemas: " + all_schema_names());
  const std::int64_t version = m["version"].get<std::int64_t>();
  if (version > kSchemaVersion)
    throw Error(path + ": schema " + name + " version " + std::to_string(version) +
                " is newer than this clreduce reads (version " + std::to_string(kSchemaVersion) +
                " at most); render it with the clreduce that wrote it, or a newer one");
  if (version < 2)
    throw Error(path + ": schema " + name + " version " + std::to_string(version) +
                " was never written (version 1 files carry no marker; the marker starts at version 2)");
  return name;
}

SavedRun read_saved_run(const std::string& path) { return saved_run_of(read_saved_document(path), path); }

SavedRun parse_saved_run(const std::string& text, const std::string& path) {
  return saved_run_of(parse_saved_document(text, path), path);
}

std::vector<SavedRow> saved_rows(const SavedRun& s) {
  std::vector<SavedRow> out;
  for (const SizeRun& size : s.run.sizes)
    for (const VariantRun& v : size.variants) {
      const Measured* m = s.kind == "bench" ? (v.points.empty() ? nullptr : &v.points.front()) : v.best_point();
      SavedRow row;
      row.variant = v.variant;
      row.cache = size.cold ? "cold" : "warm";
      row.type = s.run.type;
      row.op = s.run.op;
      row.n = size.n;
      row.key = std::string(name_of(row.type)) + " " + std::string(name_of(row.op)) + " n=" +
                std::to_string(row.n) + " " + row.cache + " " + row.variant;
      if (!v.unavailable.empty()) row.status = "skipped: " + v.unavailable;
      else if (!m || !m->report) row.status = "not measured";
      else if (!m->report->ok()) row.status = "FAILED check";
      else row.status = "ok";
      if (m && m->report) {
        const ReduceReport& r = *m->report;
        const PassPlan& p = r.plan.passes.front();
        row.launch = "wg " + std::to_string(p.wg) + ", times " + std::to_string(p.times) + ", vec " +
                     std::to_string(p.vec) + ", " + std::to_string(r.plan.passes.size()) + " passes";
        row.report = &r;
      }
      out.push_back(row);
    }
  return out;
}

}  // namespace clreduce
