// The per-device tuning database: strict reading with JSON paths in the messages, pretty
// writing, where the file lives, loading that never fails, lookup, and the atomic merge-save.
#include "clreduce/tuning.hpp"

#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/variants.hpp"
#include "descriptor/kernel_params.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <set>
#include <thread>
#include <utility>

#include <csignal>
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace clreduce {

namespace fs = std::filesystem;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

constexpr const char* kFormatTag = "clreduce-tuning-db";
constexpr std::size_t kNestingOfTheLayout = 9;  // root, devices, device, entries, entry, ...

// Text from the file for a message: control characters escaped, at most about `max` bytes (cut
// at a UTF-8 character boundary, then "...").
std::string printable(std::string_view s, std::size_t max = 80) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (out.size() >= max && (c & 0xC0) != 0x80) {
      out += "...";
      break;
    }
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += s[i];
    }
  }
  return out;
}

// ---- Reading -----------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(path.empty() ? what : path + ": " + what);
}

// "devices[0].entries" + "variants" -> "devices[0].entries.variants"; names that are not
// identifiers are quoted: variants["my variant"].
std::string member_path(const std::string& parent, std::string_view key) {
  const bool identifier =
      !key.empty() && !(key[0] >= '0' && key[0] <= '9') &&
      std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (!identifier) return parent + "[\"" + printable(key, 40) + "\"]";
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}
std::string index_path(const std::string& parent, std::size_t i) {
  return parent + "[" + std::to_string(i) + "]";
}

// What a value is, for "expected X, got Y".
std::string got(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::null: return "null";
    case json::value_t::string: return "the string \"" + printable(v.get_ref<const std::string&>(), 40) + "\"";
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    default: return v.dump();  // numbers: 300, -3, 2.5
  }
}

// One JSON object's fields: unknown ones are errors, required ones are named when missing.
class Fields {
 public:
  Fields(const json& v, std::string path, std::initializer_list<const char*> known)
      : v_(v), path_(std::move(path)) {
    if (!v.is_object()) fail(path_, "expected an object, got " + got(v));
    for (const auto& item : v.items()) {
      const bool ok = std::any_of(known.begin(), known.end(),
                                  [&](const char* k) { return item.key() == k; });
      if (!ok) {
        std::vector<std::string> names(known.begin(), known.end());
        fail(member_path(path_, item.key()), "unknown field; valid fields: " + join(names));
      }
    }
  }
  const json* find(const char* key) const {
    const auto it = v_.find(key);
    return it == v_.end() ? nullptr : &*it;
  }
  const json& need(const char* key) const {
    if (const json* x = find(key)) return *x;
    fail(path_, std::string("missing field \"") + key + "\"");
  }
  std::string at(std::string_view key) const { return member_path(path_, key); }
  const std::string& path() const { return path_; }

 private:
  const json& v_;
  std::string path_;
};

std::optional<std::uint64_t> as_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(v.get<std::int64_t>());
  return std::nullopt;
}

std::string read_string(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string, got " + got(v));
  return v.get<std::string>();
}

// An integer >= 1 of 64 bits (element counts).
std::uint64_t read_count(const json& v, const std::string& path) {
  const auto u = as_u64(v);
  if (!u || *u == 0) fail(path, "expected an integer >= 1, got " + got(v));
  return *u;
}

// An integer from 1 to 2^32 - 1 (TIMES, groups per compute unit).
unsigned read_unsigned(const json& v, const std::string& path) {
  const auto u = as_u64(v);
  if (!u || *u == 0 || *u > std::numeric_limits<unsigned>::max())
    fail(path, "expected an integer from 1 to " + std::to_string(std::numeric_limits<unsigned>::max()) +
                   ", got " + got(v));
  return static_cast<unsigned>(*u);
}

// A power of two from 1 to `max`.
std::uint64_t read_power_of_two(const json& v, const std::string& path, std::uint64_t max) {
  const auto u = as_u64(v);
  if (!u || *u == 0 || (*u & (*u - 1)) != 0 || *u > max)
    fail(path, (max == std::numeric_limits<std::uint64_t>::max()
                    ? std::string("expected a power of two >= 1")
                    : "expected a power of two from 1 to " + std::to_string(max)) +
                   ", got " + got(v));
  return *u;
}

// A number (JSON numbers are always finite) > 0, or >= 0 when `zero_ok`.
double read_number(const json& v, const std::string& path, bool zero_ok) {
  if (!v.is_number()) fail(path, std::string("expected a number ") + (zero_ok ? ">= 0" : "> 0") + ", got " + got(v));
  const double x = v.get<double>();
  if (zero_ok ? !(x >= 0) : !(x > 0))
    fail(path, std::string("expected a number ") + (zero_ok ? ">= 0" : "> 0") + ", got " + got(v));
  return x;
}

// Returns &v (a pointer, not a reference: g++ 13 would take a reference bound to a temporary path).
const json* read_array(const json& v, const std::string& path, std::size_t limit, const char* what) {
  if (!v.is_array()) fail(path, "expected an array, got " + got(v));
  if (v.size() > limit)
    fail(path, std::to_string(v.size()) + " " + what + ", more than the " + std::to_string(limit) +
                   " a tuning database may hold");
  return &v;
}

TunedMeasurement read_measurement(const json& v, const std::string& path) {
  const Fields f(v, path, {"n", "tuned_us", "default_us", "gbps"});
  TunedMeasurement m;
  m.n = read_count(f.need("n"), f.at("n"));
  m.tuned_us = read_number(f.need("tuned_us"), f.at("tuned_us"), false);
  m.default_us = read_number(f.need("default_us"), f.at("default_us"), false);
  m.gbps = read_number(f.need("gbps"), f.at("gbps"), true);
  return m;
}

TunedVariant read_variant(const json& v, const std::string& path) {
  const Fields f(v, path, {"wg", "times", "groups_per_cu", "vec", "measurements", "gain_over_default"});
  TunedVariant t;
  t.params.wg = static_cast<std::size_t>(
      read_power_of_two(f.need("wg"), f.at("wg"), std::numeric_limits<std::size_t>::max()));
  if (const json* x = f.find("times")) t.params.times = read_unsigned(*x, f.at("times"));
  if (const json* x = f.find("groups_per_cu"))
    t.params.groups_per_cu = read_unsigned(*x, f.at("groups_per_cu"));
  if (t.params.times && t.params.groups_per_cu)
    fail(path, "has both times and groups_per_cu; they are two launch modes and a variant keeps one");
  if (const json* x = f.find("vec"))
    t.params.vec = static_cast<unsigned>(read_power_of_two(*x, f.at("vec"), 1u << 31));
  if (const json* x = f.find("measurements")) {
    const json& a = *read_array(*x, f.at("measurements"), kTuningDbMaxMeasurements, "measurements");
    for (std::size_t i = 0; i < a.size(); ++i)
      t.measurements.push_back(read_measurement(a[i], index_path(f.at("measurements"), i)));
  }
  if (const json* x = f.find("gain_over_default"))
    t.gain_over_default = read_number(*x, f.at("gain_over_default"), false);
  return t;
}

TuningEntry read_entry(const json& v, const std::string& path) {
  const Fields f(v, path, {"type", "op", "date", "sizes", "best_variant", "variants"});
  TuningEntry e;
  // parse_type/parse_op name the text in their messages: it is made printable first (a valid
  // name stays valid, an invalid one stays invalid).
  try {
    e.type = parse_type(printable(read_string(f.need("type"), f.at("type"))));
  } catch (const Error& err) {
    fail(f.at("type"), err.what());
  }
  try {
    e.op = parse_op(printable(read_string(f.need("op"), f.at("op"))));
  } catch (const Error& err) {
    fail(f.at("op"), err.what());
  }
  if (const json* x = f.find("date")) e.date = read_string(*x, f.at("date"));
  if (const json* x = f.find("sizes")) {
    const json& a = *read_array(*x, f.at("sizes"), kTuningDbMaxMeasurements, "sizes");
    for (std::size_t i = 0; i < a.size(); ++i) e.sizes.push_back(read_count(a[i], index_path(f.at("sizes"), i)));
  }
  const json& vs = f.need("variants");
  if (!vs.is_object()) fail(f.at("variants"), "expected an object, got " + got(vs));
  if (vs.size() > kTuningDbMaxVariants)
    fail(f.at("variants"), std::to_string(vs.size()) + " variants, more than the " +
                               std::to_string(kTuningDbMaxVariants) + " a tuning database may hold");
  for (const auto& item : vs.items()) {
    if (item.key().empty()) fail(f.at("variants"), "a variant has an empty name");
    e.variants.emplace(item.key(), read_variant(item.value(), member_path(f.at("variants"), item.key())));
  }
  if (const json* x = f.find("best_variant")) {
    // The overall winner; it may be a variant whose default launch was kept (not in variants).
    e.best_variant = read_string(*x, f.at("best_variant"));
  }
  return e;
}

TunedAxisMeasurement read_axis_measurement(const json& v, const std::string& path) {
  const Fields f(v, path, {"m", "n", "tuned_us", "default_us", "gbps"});
  TunedAxisMeasurement m;
  m.m = read_count(f.need("m"), f.at("m"));
  m.n = read_count(f.need("n"), f.at("n"));
  m.tuned_us = read_number(f.need("tuned_us"), f.at("tuned_us"), false);
  m.default_us = read_number(f.need("default_us"), f.at("default_us"), false);
  m.gbps = read_number(f.need("gbps"), f.at("gbps"), true);
  return m;
}

// An axis entry: the names checked against the axis registry and its shape classes (unlike a
// whole-array entry's variant names, which the lookup checks), each parameter against the
// variant that takes it, so that a hand-edited entry fails here with its path rather than later
// as a launch refused.
// The axis variants (of `axis`, or of both) for which `pred` holds, as "a, b and c".
template <class Pred>
std::string takers(std::optional<Axis> axis, Pred pred) {
  const std::vector<std::string> names = axis_variant_names_where(axis, pred);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

TunedAxisEntry read_axis_entry(const json& v, const std::string& path) {
  const Fields f(v, path,
                 {"type", "op", "axis", "class", "date", "variant", "wg", "row_width", "groups_per_cu", "measurements",
                  "gain_over_default"});
  TunedAxisEntry e;
  try {
    e.type = parse_type(printable(read_string(f.need("type"), f.at("type"))));
  } catch (const Error& err) {
    fail(f.at("type"), err.what());
  }
  try {
    e.op = parse_op(printable(read_string(f.need("op"), f.at("op"))));
  } catch (const Error& err) {
    fail(f.at("op"), err.what());
  }
  const std::string axis = read_string(f.need("axis"), f.at("axis"));
  if (axis == "rows") e.axis = Axis::Rows;
  else if (axis == "cols") e.axis = Axis::Cols;
  else fail(f.at("axis"), "expected \"rows\" or \"cols\", got " + got(f.need("axis")));
  e.shape_class = read_string(f.need("class"), f.at("class"));
  if (!is_axis_shape_class(e.axis, e.shape_class))
    fail(f.at("class"), "unknown shape class '" + printable(e.shape_class, 40) + "' for " + axis +
                            "; valid: " + axis_shape_class_names(e.axis));
  e.variant = read_string(f.need("variant"), f.at("variant"));
  const AxisVariant* var = nullptr;
  for (const auto& x : axis_variants())
    if (x.name == e.variant && x.axis == e.axis) var = &x;
  if (!var) {
    std::vector<std::string> fitting;
    for (const auto& x : axis_variants())
      if (x.axis == e.axis) fitting.push_back(x.name);
    fail(f.at("variant"), "unknown axis variant '" + printable(e.variant, 40) + "' for " + axis + "; valid: " +
                              join(fitting));
  }
  if (!var->takes(e.op)) {
    std::vector<std::string> fitting;
    for (const auto& x : axis_variants())
      if (x.axis == e.axis && x.takes(e.op)) fitting.push_back(x.name);
    fail(f.at("variant"), "axis variant " + var->name + " does not take " + std::string(name_of(e.op)) + "; valid: " +
                              join(fitting));
  }
  if (const json* x = f.find("wg")) {
    if (!var->uses_wg())
      fail(f.at("wg"), "axis variant " + var->name + " takes no wg (its group is TILE_X x ROWS_Y)");
    e.wg = static_cast<std::size_t>(read_power_of_two(*x, f.at("wg"), kTuningDbMaxAxisWg));
  }
  if (const json* x = f.find("row_width")) {
    if (!var->uses_row_width())
      fail(f.at("row_width"), "axis variant " + var->name + " takes no row_width; " +
                                  takers(e.axis, [](const AxisVariant& a) { return a.uses_row_width(); }) + " do");
    e.row_width = static_cast<unsigned>(read_power_of_two(*x, f.at("row_width"), kTuningDbMaxRowWidth));
    if (const KernelParam* p = var->spec.find("ROW_WIDTH"); !p->valid_value(*e.row_width))
      fail(f.at("row_width"), "row width " + std::to_string(*e.row_width) + " for " + var->name + " is not one of " +
                                  p->valid_text() + " (" + p->rule + ")");
    if (e.wg && *e.row_width > *e.wg)
      fail(f.at("row_width"), "row width " + std::to_string(*e.row_width) + " is more than wg " +
                                  std::to_string(*e.wg) + "; it must divide the work-group");
  }
  if (const json* x = f.find("groups_per_cu")) {
    // (The descriptor variants take chunks as given; their family's planner sizes its own.)
    const auto by_groups = [](const AxisVariant& a) { return a.takes_chunks() && !a.runs_descriptor(); };
    if (!by_groups(*var))
      fail(f.at("groups_per_cu"), "axis variant " + var->name +
                                      (var->runs_descriptor() ? " takes its chunks as given, not by groups per compute unit; "
                                                              : " does not split into chunks; ") +
                                      takers(std::nullopt, by_groups) + " take groups_per_cu");
    const auto u = as_u64(*x);
    if (!u || *u == 0 || *u > kTuningDbMaxAxisGroupsPerCu)
      fail(f.at("groups_per_cu"),
           "expected an integer from 1 to " + std::to_string(kTuningDbMaxAxisGroupsPerCu) + ", got " + got(*x));
    e.groups_per_cu = static_cast<unsigned>(*u);
  }
  if (const json* x = f.find("date")) e.date = read_string(*x, f.at("date"));
  if (const json* x = f.find("measurements")) {
    const json& a = *read_array(*x, f.at("measurements"), kTuningDbMaxMeasurements, "measurements");
    for (std::size_t i = 0; i < a.size(); ++i)
      e.measurements.push_back(read_axis_measurement(a[i], index_path(f.at("measurements"), i)));
  }
  if (const json* x = f.find("gain_over_default"))
    e.gain_over_default = read_number(*x, f.at("gain_over_default"), false);
  return e;
}

// A descriptor entry: every name checked against the built-ins, the family's kernel table and the
// shape classes, so a hand-edited entry fails here with its path, not later as a launch refused.
TunedDescriptorEntry read_descriptor_entry(const json& v, const std::string& path) {
  const Fields f(v, path,
                 {"reduction", "inputs", "family", "class", "date", "params", "chunks", "measurements",
                  "gain_over_default"});
  TunedDescriptorEntry e;
  e.reduction = read_string(f.need("reduction"), f.at("reduction"));
  Builtin b{};
  try {
    b = parse_builtin(printable(e.reduction));
  } catch (const Error& err) {
    fail(f.at("reduction"), err.what());
  }
  e.reduction = std::string(name_of(b));  // the canonical name
  const json& ins = *read_array(f.need("inputs"), f.at("inputs"), 4, "inputs");
  for (std::size_t i = 0; i < ins.size(); ++i) {
    const std::string at = index_path(f.at("inputs"), i);
    try {
      e.inputs.push_back(parse_scalar(printable(read_string(ins[i], at))));
    } catch (const Error& err) {
      fail(at, err.what());
    }
  }
  if (e.inputs.empty()) fail(f.at("inputs"), "expected the built-in's input types, got an empty array");
  std::vector<Scalar> reads;
  try {
    reads = builtin(b, e.inputs.front()).inputs;
  } catch (const Error& err) {  // a type the built-in does not take
    fail(f.at("inputs"), err.what());
  }
  if (reads != e.inputs) {
    std::vector<std::string> want;
    for (Scalar s : reads) want.emplace_back(name_of(s));
    fail(f.at("inputs"), e.reduction + " of " + std::string(name_of(e.inputs.front())) + " reads [" + join(want) +
                             "], not these " + std::to_string(e.inputs.size()) + " input(s)");
  }
  const std::string family = read_string(f.need("family"), f.at("family"));
  try {
    e.family = parse_descriptor_family(printable(family));
  } catch (const Error& err) {
    fail(f.at("family"), err.what());
  }
  e.shape_class = read_string(f.need("class"), f.at("class"));
  if (e.family == DescriptorFamily::Whole) {
    if (e.shape_class != kWholeClass)
      fail(f.at("class"), "the whole family has one class, \"whole\"; got '" + printable(e.shape_class, 40) + "'");
  } else {
    const Axis axis = e.family == DescriptorFamily::Rows ? Axis::Rows : Axis::Cols;
    if (!is_axis_shape_class(axis, e.shape_class))
      fail(f.at("class"), "unknown shape class '" + printable(e.shape_class, 40) + "' for " + family +
                              "; valid: " + axis_shape_class_names(axis));
  }
  const KernelSpec& k = kernel_of(e.family);
  const json& ps = f.need("params");
  if (!ps.is_object()) fail(f.at("params"), "expected an object, got " + got(ps));
  if (ps.size() > kTuningDbMaxDescriptorParams)
    fail(f.at("params"), std::to_string(ps.size()) + " parameters, more than the " +
                             std::to_string(kTuningDbMaxDescriptorParams) + " a tuning database may hold");
  std::vector<std::string> tunables;
  for (const KernelParam& p : k.params)
    if (p.tunable) tunables.push_back(p.define);
  for (const auto& item : ps.items()) {
    const std::string at = member_path(f.at("params"), item.key());
    const KernelParam* p = k.find(item.key());
    if (!p || !p->tunable)
      fail(at, "not a tunable parameter of " + k.file + " (the " + family + " family); valid: " + join(tunables));
    const auto u = as_u64(item.value());
    if (!u || !p->valid_value(*u))
      fail(at, "expected one of " + p->valid_text() + ", got " + got(item.value()));
    e.params.emplace_back(item.key(), *u);
  }
  // In the kernel table's order (the reader's objects sort their keys): as tune writes them.
  const auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < k.params.size(); ++i)
      if (k.params[i].define == name) return i;
    return k.params.size();
  };
  std::stable_sort(e.params.begin(), e.params.end(),
                   [&](const auto& x, const auto& y) { return index(x.first) < index(y.first); });
  const auto param = [&](const char* name) -> std::optional<std::uint64_t> {
    for (const auto& [n, x] : e.params)
      if (n == name) return x;
    return std::nullopt;
  };
  if (e.family == DescriptorFamily::Rows && param("ROW_WIDTH") && param("WG_SIZE") && *param("ROW_WIDTH") > *param("WG_SIZE"))
    fail(f.at("params"), "ROW_WIDTH " + std::to_string(*param("ROW_WIDTH")) + " is more than WG_SIZE " +
                             std::to_string(*param("WG_SIZE")) + "; it must divide the work-group");
  if (const json* x = f.find("chunks")) {
    if (e.family == DescriptorFamily::Whole)
      fail(f.at("chunks"), "the whole family is not cut into chunks; rows and cols take chunks");
    const std::uint64_t most = e.family == DescriptorFamily::Rows ? kTuningDbMaxLineParts : kTuningDbMaxColumnChunks;
    const auto u = as_u64(*x);
    if (!u || *u == 0 || *u > most)
      fail(f.at("chunks"), "expected an integer from 1 to " + std::to_string(most) + ", got " + got(*x));
    e.chunks = *u;
  }
  if (e.params.empty() && !e.chunks)
    fail(f.at("params"), "expected at least one parameter (an entry that sets nothing is the default launch)");
  if (const json* x = f.find("date")) e.date = read_string(*x, f.at("date"));
  if (const json* x = f.find("measurements")) {
    const json& a = *read_array(*x, f.at("measurements"), kTuningDbMaxMeasurements, "measurements");
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string at = index_path(f.at("measurements"), i);
      if (e.family == DescriptorFamily::Whole) {
        const TunedMeasurement m = read_measurement(a[i], at);
        e.measurements.push_back(TunedAxisMeasurement{0, m.n, m.tuned_us, m.default_us, m.gbps});
      } else {
        e.measurements.push_back(read_axis_measurement(a[i], at));
      }
    }
  }
  if (const json* x = f.find("gain_over_default"))
    e.gain_over_default = read_number(*x, f.at("gain_over_default"), false);
  return e;
}

std::string describe_axis_key(const AxisEntryKey& k) {
  return std::string(name_of(k.type)) + " " + std::string(name_of(k.op)) + " " + std::string(name_of(k.axis)) + " " +
         k.shape_class;
}

DeviceTuning read_device(const json& v, const std::string& path) {
  const Fields f(v, path, {"platform", "device", "driver", "entries", "axis_entries", "descriptor_entries"});
  DeviceTuning d;
  d.key.platform = read_string(f.need("platform"), f.at("platform"));
  d.key.device = read_string(f.need("device"), f.at("device"));
  d.key.driver = read_string(f.need("driver"), f.at("driver"));
  const json& a = *read_array(f.need("entries"), f.at("entries"), kTuningDbMaxEntries, "entries");
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string at = index_path(f.at("entries"), i);
    TuningEntry e = read_entry(a[i], at);
    for (std::size_t j = 0; j < d.entries.size(); ++j)
      if (d.entries[j].type == e.type && d.entries[j].op == e.op)
        fail(at, "a second entry for " + std::string(name_of(e.type)) + " " + std::string(name_of(e.op)) +
                     " (the first is " + index_path(f.at("entries"), j) + ")");
    d.entries.push_back(std::move(e));
  }
  if (const json* x = f.find("axis_entries")) {
    const json& ax = *read_array(*x, f.at("axis_entries"), kTuningDbMaxAxisEntries, "axis entries");
    for (std::size_t i = 0; i < ax.size(); ++i) {
      const std::string at = index_path(f.at("axis_entries"), i);
      TunedAxisEntry e = read_axis_entry(ax[i], at);
      for (std::size_t j = 0; j < d.axis_entries.size(); ++j)
        if (key_of(d.axis_entries[j]) == key_of(e))
          fail(at, "a second axis entry for " + describe_axis_key(key_of(e)) + " (the first is " +
                       index_path(f.at("axis_entries"), j) + ")");
      d.axis_entries.push_back(std::move(e));
    }
  }
  if (const json* x = f.find("descriptor_entries")) {
    const json& de = *read_array(*x, f.at("descriptor_entries"), kTuningDbMaxDescriptorEntries, "descriptor entries");
    for (std::size_t i = 0; i < de.size(); ++i) {
      const std::string at = index_path(f.at("descriptor_entries"), i);
      TunedDescriptorEntry e = read_descriptor_entry(de[i], at);
      for (std::size_t j = 0; j < d.descriptor_entries.size(); ++j)
        if (key_of(d.descriptor_entries[j]) == key_of(e))
          fail(at, "a second descriptor entry for " + describe(key_of(e)) + " (the first is " +
                       index_path(f.at("descriptor_entries"), j) + ")");
      d.descriptor_entries.push_back(std::move(e));
    }
  }
  return d;
}

// Rejects nesting deeper than kTuningDbMaxDepth before nlohmann builds anything (exact for valid
// JSON; invalid JSON is rejected by the parser anyway).
void check_nesting(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kTuningDbMaxDepth)
        throw Error("JSON nested deeper than " + std::to_string(kTuningDbMaxDepth) + " levels at byte " +
                    std::to_string(i) + "; a tuning database nests " + std::to_string(kNestingOfTheLayout));
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string json_message(const nlohmann::json::exception& e) {
  const std::string w = e.what();
  const auto close = w.find("] ");
  return w.rfind("[json.exception.", 0) == 0 && close != std::string::npos ? w.substr(close + 2) : w;
}

// ---- Writing -----------------------------------------------------------------------------

ordered_json variant_json(const TunedVariant& v) {
  ordered_json j = ordered_json::object();
  j["wg"] = v.params.wg;
  if (v.params.times) j["times"] = *v.params.times;
  if (v.params.groups_per_cu) j["groups_per_cu"] = *v.params.groups_per_cu;
  if (v.params.vec) j["vec"] = *v.params.vec;
  j["measurements"] = ordered_json::array();
  for (const auto& m : v.measurements) {
    ordered_json mj = ordered_json::object();
    mj["n"] = m.n;
    mj["tuned_us"] = m.tuned_us;
    mj["default_us"] = m.default_us;
    mj["gbps"] = m.gbps;
    j["measurements"].push_back(std::move(mj));
  }
  j["gain_over_default"] = v.gain_over_default;
  return j;
}

ordered_json entry_json(const TuningEntry& e) {
  ordered_json j = ordered_json::object();
  j["type"] = std::string(name_of(e.type));
  j["op"] = std::string(name_of(e.op));
  j["date"] = e.date;
  j["sizes"] = e.sizes;
  j["best_variant"] = e.best_variant;
  j["variants"] = ordered_json::object();
  for (const auto& [name, v] : e.variants) j["variants"][name] = variant_json(v);
  return j;
}

ordered_json axis_entry_json(const TunedAxisEntry& e) {
  ordered_json j = ordered_json::object();
  j["type"] = std::string(name_of(e.type));
  j["op"] = std::string(name_of(e.op));
  j["axis"] = std::string(name_of(e.axis));
  j["class"] = e.shape_class;
  j["date"] = e.date;
  j["variant"] = e.variant;
  if (e.wg) j["wg"] = *e.wg;
  if (e.row_width) j["row_width"] = *e.row_width;
  if (e.groups_per_cu) j["groups_per_cu"] = *e.groups_per_cu;
  j["measurements"] = ordered_json::array();
  for (const auto& m : e.measurements) {
    ordered_json mj = ordered_json::object();
    mj["m"] = m.m;
    mj["n"] = m.n;
    mj["tuned_us"] = m.tuned_us;
    mj["default_us"] = m.default_us;
    mj["gbps"] = m.gbps;
    j["measurements"].push_back(std::move(mj));
  }
  j["gain_over_default"] = e.gain_over_default;
  return j;
}

ordered_json descriptor_entry_json(const TunedDescriptorEntry& e) {
  ordered_json j = ordered_json::object();
  j["reduction"] = e.reduction;
  j["inputs"] = ordered_json::array();
  for (Scalar s : e.inputs) j["inputs"].push_back(std::string(name_of(s)));
  j["family"] = std::string(name_of(e.family));
  j["class"] = e.shape_class;
  j["date"] = e.date;
  j["params"] = ordered_json::object();
  for (const auto& [name, value] : e.params) j["params"][name] = value;
  if (e.chunks) j["chunks"] = *e.chunks;
  j["measurements"] = ordered_json::array();
  for (const auto& m : e.measurements) {
    ordered_json mj = ordered_json::object();
    if (e.family != DescriptorFamily::Whole) mj["m"] = m.m;
    mj["n"] = m.n;
    mj["tuned_us"] = m.tuned_us;
    mj["default_us"] = m.default_us;
    mj["gbps"] = m.gbps;
    j["measurements"].push_back(std::move(mj));
  }
  j["gain_over_default"] = e.gain_over_default;
  return j;
}

// ---- Files -------------------------------------------------------------------------------

enum class FileState { Read, Missing, Failed };

// Reads at most kTuningDbMaxBytes + 1 bytes of the file (more is rejected by the parser anyway).
FileState read_text(const fs::path& path, std::string& text, std::string& why) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found) return FileState::Missing;
  if (ec) {
    why = ec.message();
    return FileState::Failed;
  }
  if (!fs::is_regular_file(st)) {
    why = "it is not a regular file";
    return FileState::Failed;
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = errno ? std::strerror(errno) : "it cannot be opened";
    return FileState::Failed;
  }
  text.clear();
  char buf[1 << 16];
  while (text.size() <= kTuningDbMaxBytes && in) {
    in.read(buf, sizeof buf);
    text.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    why = "reading it failed";
    return FileState::Failed;
  }
  return FileState::Read;
}

// Writes `text` to a new file beside `target` and renames it over `target`. Returns the reason
// on failure (the temporary file is removed), else an empty string.
// Called under the database's lock (DbLock), where every writer writes: a temporary of another
// process can only be one it left when it was killed mid-write (SIGKILL, a power cut).
void remove_stale_temporaries(const fs::path& target) {
  const std::string prefix = target.filename().string() + ".tmp-";
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = name.substr(prefix.size());  // PID-N
    const std::size_t dash = rest.find('-');
    const auto digits = [](const std::string& t) {
      return !t.empty() && t.size() <= 20 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (dash == std::string::npos || !digits(rest.substr(0, dash)) || !digits(rest.substr(dash + 1))) continue;
    std::error_code rm;
    if (fs::is_regular_file(fs::symlink_status(it->path(), rm))) fs::remove(it->path(), rm);
  }
}

// SIGINT, SIGTERM and SIGHUP held back while the temporary exists, so that Ctrl-C or a job
// control's kill between its creation and the rename cannot leave it behind (they arrive after).
class HoldSignals {
 public:
  HoldSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~HoldSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  HoldSignals(const HoldSignals&) = delete;
  HoldSignals& operator=(const HoldSignals&) = delete;

 private:
  sigset_t old_;
};

std::string write_atomically(const fs::path& target, const std::string& text) {
  remove_stale_temporaries(target);
  const HoldSignals held;
  static unsigned counter = 0;
  const fs::path tmp = target.string() + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return "cannot create '" + tmp.string() + "': " + std::strerror(errno);
  std::string why;
  for (std::size_t done = 0; done < text.size() && why.empty();) {
    const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) why = std::string("writing '") + tmp.string() + "' failed: " + std::strerror(errno);
    else done += static_cast<std::size_t>(w);
  }
  if (why.empty() && ::fsync(fd) != 0) why = std::string("fsync failed: ") + std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = std::string("closing '") + tmp.string() + "' failed: " + std::strerror(errno);
  std::error_code ec;
  if (why.empty()) {
    // Keep the permissions the user gave an existing file.
    const fs::file_status old = fs::status(target, ec);
    if (!ec && fs::is_regular_file(old)) fs::permissions(tmp, old.permissions(), ec);
    fs::rename(tmp, target, ec);
    if (ec) why = "cannot rename '" + tmp.string() + "' to it: " + ec.message();
  }
  if (!why.empty()) {
    fs::remove(tmp, ec);
    return why;
  }
  // Make the rename itself durable (best effort).
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

// An exclusive flock on `target` + ".lock" (created beside it), held for its lifetime, so that
// concurrent saves take turns over read-merge-write instead of the last rename dropping the
// others' entries. Waits at most `wait_s` seconds, then names the lock file. The holder removes
// the lock file before it unlocks, so only the database stays; a process that locked a file
// already removed (its inode no longer the path's) opens the path again.
class DbLock {
 public:
  DbLock(const fs::path& target, double wait_s, const std::function<Error(const std::string&)>& cannot)
      : lock_(target.string() + ".lock") {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    while (true) {
      // O_NOFOLLOW: a link planted at the lock's name must not make an empty file at its target.
      fd_ = ::open(lock_.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd_ < 0 && errno == ELOOP)
        throw cannot("its lock file '" + lock_.string() + "' is a symbolic link, which clreduce never made; remove it");
      if (fd_ < 0) throw cannot("cannot open the lock file '" + lock_.string() + "': " + std::strerror(errno));
      while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        if (e != EWOULDBLOCK && e != EINTR) {
          ::close(fd_);
          throw cannot("cannot lock '" + lock_.string() + "': " + std::strerror(e));
        }
        if (std::chrono::steady_clock::now() > deadline) {
          ::close(fd_);
          throw cannot("another process has held its lock file '" + lock_.string() + "' for over " +
                       std::to_string(static_cast<int>(wait_s)) + " s");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
      struct stat held {}, named {};
      if (::fstat(fd_, &held) == 0 && ::stat(lock_.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
          held.st_ino == named.st_ino)
        return;  // the lock file the path names: ours
      ::close(fd_);  // removed by its last holder meanwhile: lock the path's file again
    }
  }
  DbLock(const DbLock&) = delete;
  DbLock& operator=(const DbLock&) = delete;
  ~DbLock() {
    ::unlink(lock_.c_str());
    ::close(fd_);  // closing releases the lock
  }

 private:
  fs::path lock_;
  int fd_ = -1;
};

// The file a path names: a symbolic link's target (so the link stays a link).
fs::path resolve_links(fs::path p) {
  std::error_code ec;
  for (int i = 0; i < 16 && fs::is_symlink(fs::symlink_status(p, ec)); ++i) {
    const fs::path link = fs::read_symlink(p, ec);
    if (ec) break;
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
  return p;
}

std::string list_devices_held(const TuningDb& db) {
  if (db.devices.empty()) return "it holds no device";
  constexpr std::size_t kShown = 4;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < db.devices.size() && i < kShown; ++i)
    names.push_back(printable(describe(db.devices[i].key), 160));
  std::string out = "it holds: " + join(names, "; ");
  if (db.devices.size() > kShown) out += "; and " + std::to_string(db.devices.size() - kShown) + " more";
  return out;
}

}  // namespace

DeviceKey device_key(const DeviceInfo& dev) { return {dev.platform_name, dev.name, dev.driver_version}; }

std::string describe(const DeviceKey& k) { return k.device + " (" + k.platform + ", driver " + k.driver + ")"; }

TuningDb parse_tuning_db(std::string_view json_text) {
  if (json_text.size() > kTuningDbMaxBytes)
    throw Error("the text is larger than " + std::to_string(kTuningDbMaxBytes >> 20) +
                " MiB, more than a tuning database may be");
  if (json_text.find_first_not_of(" \t\r\n") == std::string_view::npos) throw Error("the text is empty");
  check_nesting(json_text);
  json root;
  try {
    root = json::parse(json_text.begin(), json_text.end());
  } catch (const json::parse_error& e) {
    throw Error("invalid JSON at byte " + std::to_string(e.byte) + ": " + json_message(e));
  } catch (const json::exception& e) {  // e.g. out_of_range: a number too large for a double
    throw Error("invalid JSON: " + json_message(e));
  }
  if (!root.is_object()) fail("", "expected a JSON object at the top level, got " + got(root));
  const auto format = root.find("format");
  if (format == root.end() || !format->is_string() || format->get_ref<const std::string&>() != kFormatTag)
    throw Error(std::string("not a clreduce tuning database: \"format\" is ") +
                (format == root.end() ? "missing" : got(*format)) + ", expected \"" + kFormatTag + "\"");
  const auto version = root.find("version");
  if (version == root.end()) fail("", "missing field \"version\"");
  if (!version->is_number_integer()) fail("version", "expected an integer, got " + got(*version));
  if (as_u64(*version) != std::optional<std::uint64_t>(kTuningDbVersion))
    throw Error("unsupported version " + version->dump() + "; this clreduce reads version " +
                std::to_string(kTuningDbVersion) + " only");
  const Fields f(root, "", {"format", "version", "devices"});
  TuningDb db;
  const json& a = *read_array(f.need("devices"), "devices", kTuningDbMaxDevices, "devices");
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string at = index_path("devices", i);
    DeviceTuning d = read_device(a[i], at);
    for (std::size_t j = 0; j < db.devices.size(); ++j)
      if (db.devices[j].key == d.key)
        fail(at, "the same device as devices[" + std::to_string(j) + "] (" +
                     printable(describe(d.key), 160) + ")");
    db.devices.push_back(std::move(d));
  }
  return db;
}

std::string tuning_db_json(const TuningDb& db) {
  ordered_json j = ordered_json::object();
  j["format"] = kFormatTag;
  j["version"] = kTuningDbVersion;
  j["devices"] = ordered_json::array();
  for (const auto& d : db.devices) {
    ordered_json dj = ordered_json::object();
    dj["platform"] = d.key.platform;
    dj["device"] = d.key.device;
    dj["driver"] = d.key.driver;
    dj["entries"] = ordered_json::array();
    for (const auto& e : d.entries) dj["entries"].push_back(entry_json(e));
    if (!d.axis_entries.empty()) {  // absent when empty: a file without axis tuning stays as it was
      dj["axis_entries"] = ordered_json::array();
      for (const auto& e : d.axis_entries) dj["axis_entries"].push_back(axis_entry_json(e));
    }
    if (!d.descriptor_entries.empty()) {  // absent when empty, as axis_entries
      dj["descriptor_entries"] = ordered_json::array();
      for (const auto& e : d.descriptor_entries) dj["descriptor_entries"].push_back(descriptor_entry_json(e));
    }
    j["devices"].push_back(std::move(dj));
  }
  // Invalid UTF-8 in a name (from a driver) becomes U+FFFD rather than an exception.
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string tuning_db_path(const std::optional<std::string>& flag) {
  if (flag) {
    if (flag->empty())
      throw Error(Param::TuningDb, "the tuning database path is empty; give a file name", "a file name");
    return *flag;
  }
  if (const char* env = std::getenv("CLREDUCE_TUNING_DB"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && fs::path(xdg).is_absolute())
    return (fs::path(xdg) / "clreduce" / "tuning.json").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".config" / "clreduce" / "tuning.json").string();
  return "clreduce-tuning.json";
}

bool tuning_db_path_is_explicit(const std::optional<std::string>& flag) {
  const char* env = std::getenv("CLREDUCE_TUNING_DB");
  return flag.has_value() || (env && *env);
}

LoadedTuningDb load_tuning_db(const std::string& path, bool explicit_path) {
  LoadedTuningDb out;
  out.path = path;
  const std::string named = "tuning database '" + path + "'";
  std::string text, why;
  switch (read_text(path, text, why)) {
    case FileState::Missing:
      if (explicit_path)
        out.warnings.push_back(named + " does not exist; defaults are used (`clreduce tune` creates it)");
      return out;
    case FileState::Failed:
      out.warnings.push_back(named + " cannot be read (" + why + "); it is ignored and defaults are used");
      return out;
    case FileState::Read:
      break;
  }
  try {
    out.db = parse_tuning_db(text);
  } catch (const Error& e) {
    out.warnings.push_back(named + " is malformed (" + e.what() + "); it is ignored and defaults are used");
    return out;
  }
  // Variant names this clreduce does not have (a newer clreduce's, or a typo in a hand-edited
  // file) would never be looked up: said once each, not ignored without a word.
  const std::vector<std::string> known = variant_names();
  std::string valid;
  for (const std::string& k : known) valid += (valid.empty() ? "" : ", ") + k;
  for (std::size_t d = 0; d < out.db->devices.size(); ++d)
    for (std::size_t e = 0; e < out.db->devices[d].entries.size(); ++e) {
      const TuningEntry& entry = out.db->devices[d].entries[e];
      const auto unknown = [&](const std::string& name, const std::string& field) {
        if (std::find(known.begin(), known.end(), name) != known.end()) return;
        out.warnings.push_back(named + ": devices[" + std::to_string(d) + "].entries[" + std::to_string(e) + "]." +
                               field + " names the variant '" + printable(name) + "', which this clreduce does not have " +
                               "(valid: " + valid + "); it is ignored");
      };
      if (!entry.best_variant.empty()) unknown(entry.best_variant, "best_variant");
      for (const auto& [name, v] : entry.variants) unknown(name, "variants." + printable(name));
    }
  return out;
}

TunedLookup find_tuned(const LoadedTuningDb& db, const DeviceInfo& dev, ElemType type, Op op,
                       const std::string& variant) {
  return find_tuned(db, device_key(dev), type, op, variant);
}

namespace {
// The device's tuning in `db` when its platform, name and driver all match; else null, with the
// "stale driver" or "foreign device" warning appended (none without a database).
const DeviceTuning* matching_device(const LoadedTuningDb& db, const DeviceKey& key, std::vector<std::string>& warnings) {
  if (!db.db) return nullptr;
  std::vector<std::string> other_drivers;
  for (const auto& d : db.db->devices) {
    if (d.key.platform != key.platform || d.key.device != key.device) continue;
    if (d.key.driver != key.driver) {
      other_drivers.push_back(printable(d.key.driver, 60));
      continue;
    }
    return &d;
  }
  const std::string named = "tuning database '" + db.path + "'";
  if (!other_drivers.empty()) {
    warnings.push_back(named + " was tuned for " + printable(key.device, 120) + " (" +
                       printable(key.platform, 120) + ") with driver" +
                       (other_drivers.size() > 1 ? "s " : " ") + join(other_drivers) +
                       ", this device runs driver " + printable(key.driver, 60) +
                       ": ignored, defaults are used; run `clreduce tune` again");
    return nullptr;
  }
  warnings.push_back(named + " has no entry for " + printable(describe(key), 200) + " (" +
                     list_devices_held(*db.db) + "); defaults are used");
  return nullptr;
}
}  // namespace

TunedLookup find_tuned(const LoadedTuningDb& db, const DeviceKey& key, ElemType type, Op op,
                       const std::string& variant) {
  TunedLookup out;
  const DeviceTuning* d = matching_device(db, key, out.warnings);
  if (!d) return out;
  for (const auto& e : d->entries) {
    if (e.type != type || e.op != op) continue;
    out.entry = &e;
    const auto it = e.variants.find(variant);
    if (it != e.variants.end()) out.variant = &it->second;
    break;
  }
  return out;
}

AxisEntryKey key_of(const TunedAxisEntry& e) { return {e.type, e.op, e.axis, e.shape_class}; }

std::string TunedAxisEntry::launch_label() const {
  std::string s = variant;
  if (wg) s += ", wg " + std::to_string(*wg);
  if (row_width) s += ", row width " + std::to_string(*row_width);
  if (groups_per_cu) s += ", " + std::to_string(*groups_per_cu) + " groups per CU";
  return s;
}

TunedAxisLookup find_tuned_axis(const LoadedTuningDb& db, const DeviceKey& key, const AxisEntryKey& what) {
  TunedAxisLookup out;
  const DeviceTuning* d = matching_device(db, key, out.warnings);
  if (!d) return out;
  for (const auto& e : d->axis_entries)
    if (key_of(e) == what) {
      out.entry = &e;
      break;
    }
  return out;
}

std::string_view name_of(DescriptorFamily f) {
  switch (f) {
    case DescriptorFamily::Whole: return "whole";
    case DescriptorFamily::Rows: return "rows";
    case DescriptorFamily::Cols: return "cols";
  }
  return "?";
}

DescriptorFamily parse_descriptor_family(std::string_view text) {
  if (text == "whole") return DescriptorFamily::Whole;
  if (text == "rows") return DescriptorFamily::Rows;
  if (text == "cols") return DescriptorFamily::Cols;
  throw Error("unknown descriptor family '" + printable(text, 40) + "'; valid: whole, rows, cols");
}

const KernelSpec& kernel_of(DescriptorFamily f) {
  return f == DescriptorFamily::Whole ? whole_kernel() : f == DescriptorFamily::Rows ? lines_kernel() : columns_kernel();
}

std::string TunedDescriptorEntry::launch_label() const {
  std::string s;
  for (const auto& [name, value] : params) s += (s.empty() ? "" : " ") + name + "=" + std::to_string(value);
  if (chunks) s += (s.empty() ? "" : " ") + std::string("chunks=") + std::to_string(*chunks);
  return s;
}

std::string descriptor_shape_class(DescriptorFamily f, std::uint64_t m, std::uint64_t n, std::size_t widest_input_bytes,
                                   unsigned compute_units) {
  if (f == DescriptorFamily::Whole) return kWholeClass;
  return shape_class_of(f == DescriptorFamily::Rows ? Axis::Rows : Axis::Cols, m, n, widest_input_bytes, compute_units);
}

DescriptorEntryKey key_of(const TunedDescriptorEntry& e) { return {e.reduction, e.inputs, e.family, e.shape_class}; }

std::string describe(const DescriptorEntryKey& k) {
  std::vector<std::string> types;
  for (Scalar s : k.inputs) types.emplace_back(name_of(s));
  return k.reduction + " " + join(types, " x ") + " " + std::string(name_of(k.family)) + " " + k.shape_class;
}

TunedDescriptorLookup find_tuned_descriptor(const LoadedTuningDb& db, const DeviceKey& key,
                                            const DescriptorEntryKey& what) {
  TunedDescriptorLookup out;
  const DeviceTuning* d = matching_device(db, key, out.warnings);
  if (!d) return out;
  for (const auto& e : d->descriptor_entries)
    if (key_of(e) == what) {
      out.entry = &e;
      break;
    }
  return out;
}

namespace {
// Where the user named the file ($CLREDUCE_TUNING_DB or a flag) its directory must exist: tune
// creates directories only for the default location (~/.config/clreduce), never a path elsewhere
// that a typo or a planted variable names.
bool is_default_location(const std::string& path) {
  return !tuning_db_path_is_explicit(std::nullopt) && path == tuning_db_path(std::nullopt);
}

std::string not_a_database(const std::string& what) {
  return "the file there is not a clreduce tuning database (" + what +
         "); tune replaces only a tuning database, never another file: give another path, or move that file away";
}

// Why the database's directory cannot take the new file ("" where it can): missing (created here
// when `create` and the path is the default location) or not writable.
std::string directory_unwritable(const std::string& path, const fs::path& target, bool create) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    if (!is_default_location(path))
      return "its directory '" + dir.string() + "' does not exist; create it first (tune makes only the default "
             "location's directories)";
    if (!create) return {};
    fs::create_directories(dir, ec);
    if (ec) return "cannot create the directory '" + dir.string() + "': " + ec.message();
  }
  if (!fs::is_directory(dir, ec)) return "'" + dir.string() + "' is not a directory";
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot write in its directory '" + dir.string() + "': " + std::strerror(errno);
  return {};
}

// The database at `target` as a save finds it: nothing where there is no file; else the file
// parsed, or `cannot`'s Error where it cannot be read or is not a tuning database (never replaced).
std::optional<TuningDb> read_existing(const fs::path& target, const std::function<Error(const std::string&)>& cannot) {
  std::string text, why;
  switch (read_text(target, text, why)) {
    case FileState::Missing:
      return std::nullopt;
    case FileState::Failed:
      throw cannot("the existing file cannot be read (" + why + ")");
    case FileState::Read:
      break;
  }
  try {
    return parse_tuning_db(text);
  } catch (const Error& e) {
    throw cannot(not_a_database(e.what()));
  }
}
}  // namespace

void check_tuning_db_writable(const std::string& path) {
  const std::function<Error(const std::string&)> cannot = [&](const std::string& why) {
    return Error(Param::TuningDb, "cannot write tuning database '" + path + "': " + why);
  };
  if (path.empty()) throw cannot("the path is empty");
  const fs::path target = resolve_links(path);
  read_existing(target, cannot);
  if (const std::string reason = directory_unwritable(path, target, false); !reason.empty()) throw cannot(reason);
}

namespace {
// Read-merge-write of the database at `path` under its lock: `alone` (the new entries by
// themselves) must read back first; `merge` changes the device's tuning (created if missing).
void save_merged(const std::string& path, const DeviceKey& key, const DeviceTuning& alone_device,
                 const std::function<void(DeviceTuning&, const std::function<Error(const std::string&)>&)>& merge) {
  const std::function<Error(const std::string&)> cannot = [&](const std::string& why) {
    return Error(Param::TuningDb, "cannot write tuning database '" + path + "': " + why);
  };
  if (path.empty()) throw cannot("the path is empty");
  // The entry alone must read back, or the file would be unusable.
  TuningDb alone;
  alone.devices.push_back(alone_device);
  alone.devices.back().key = key;
  try {
    parse_tuning_db(tuning_db_json(alone));
  } catch (const Error& e) {
    throw cannot(std::string("the new entry would not read back (") + e.what() + ")");
  }

  const fs::path target = resolve_links(path);
  if (const std::string why = directory_unwritable(path, target, true); !why.empty()) throw cannot(why);
  // Read, merge and write under one lock: another process's save lands before or after this one.
  const DbLock lock(target, 120.0, cannot);
  TuningDb db = read_existing(target, cannot).value_or(TuningDb{});

  auto dev = std::find_if(db.devices.begin(), db.devices.end(),
                          [&](const DeviceTuning& d) { return d.key == key; });
  if (dev == db.devices.end()) {
    if (db.devices.size() >= kTuningDbMaxDevices)
      throw cannot("it already holds " + std::to_string(kTuningDbMaxDevices) +
                   " devices, the most a tuning database may hold");
    db.devices.push_back({key, {}, {}, {}});
    dev = db.devices.end() - 1;
  }
  merge(*dev, cannot);

  const std::string text_out = tuning_db_json(db);
  if (text_out.size() > kTuningDbMaxBytes)
    throw cannot("it would grow past " + std::to_string(kTuningDbMaxBytes >> 20) +
                 " MiB, more than a tuning database may be (remove the devices it no longer needs)");
  const std::string failed = write_atomically(target, text_out);
  if (!failed.empty()) throw cannot(failed);
}
}  // namespace

void save_tuning_entry(const std::string& path, const DeviceKey& key, const TuningEntry& entry,
                       std::vector<std::string>& /*warnings*/) {
  DeviceTuning alone{key, {entry}, {}, {}};
  save_merged(
      path, key, alone,
      [&](DeviceTuning& dev, const std::function<Error(const std::string&)>& cannot) {
        auto same = std::find_if(dev.entries.begin(), dev.entries.end(), [&](const TuningEntry& e) {
          return e.type == entry.type && e.op == entry.op;
        });
        if (same != dev.entries.end()) {
          *same = entry;
          return;
        }
        if (dev.entries.size() >= kTuningDbMaxEntries)
          throw cannot("the device already has " + std::to_string(kTuningDbMaxEntries) +
                       " entries, the most a tuning database may hold");
        dev.entries.push_back(entry);
      });
}

// Merges `entries` into `have` by key_of: the entries of `cleared` keys removed first, then each
// entry replacing the one of its key, or added while `have` holds fewer than `limit` (else
// cannot(...), naming `what`). The axis and the descriptor entries of a device merge alike.
template <typename Entry, typename Key>
void merge_keyed(std::vector<Entry>& have, const std::vector<Entry>& entries, const std::vector<Key>& cleared,
                 std::size_t limit, const std::string& what, const std::function<Error(const std::string&)>& cannot) {
  for (const Key& k : cleared)
    have.erase(std::remove_if(have.begin(), have.end(), [&](const Entry& e) { return key_of(e) == k; }), have.end());
  for (const Entry& entry : entries) {
    auto same = std::find_if(have.begin(), have.end(), [&](const Entry& e) { return key_of(e) == key_of(entry); });
    if (same != have.end()) {
      *same = entry;
      continue;
    }
    if (have.size() >= limit)
      throw cannot("the device already has " + std::to_string(limit) + " " + what +
                   ", the most a tuning database may hold");
    have.push_back(entry);
  }
}

void save_tuning_axis_entries(const std::string& path, const DeviceKey& key, const std::vector<TunedAxisEntry>& entries,
                              const std::vector<AxisEntryKey>& cleared, std::vector<std::string>& /*warnings*/) {
  DeviceTuning alone{key, {}, entries, {}};
  save_merged(
      path, key, alone,
      [&](DeviceTuning& dev, const std::function<Error(const std::string&)>& cannot) {
        merge_keyed(dev.axis_entries, entries, cleared, kTuningDbMaxAxisEntries, "axis entries", cannot);
      });
}

void save_tuning_descriptor_entries(const std::string& path, const DeviceKey& key,
                                    const std::vector<TunedDescriptorEntry>& entries,
                                    const std::vector<DescriptorEntryKey>& cleared, std::vector<std::string>& /*warnings*/) {
  DeviceTuning alone{key, {}, {}, entries};
  save_merged(
      path, key, alone,
      [&](DeviceTuning& dev, const std::function<Error(const std::string&)>& cannot) {
        merge_keyed(dev.descriptor_entries, entries, cleared, kTuningDbMaxDescriptorEntries, "descriptor entries",
                    cannot);
      });
}

}  // namespace clreduce
