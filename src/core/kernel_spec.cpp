// Kernel parameters as data, and the one path from resolved values to an option string
// (include/clreduce/kernel_spec.hpp).
#include "clreduce/kernel_spec.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"

#include <algorithm>
#include <stdexcept>

namespace clreduce {

namespace {
// A work-group size: a power of two; the device's own limit (CL_DEVICE_MAX_WORK_GROUP_SIZE, 4096
// on PoCL) is the planner's check.
const std::vector<std::uint64_t> kPow2Wg = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};

std::string joined(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::uint64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}
}  // namespace

KernelParam wg_param() {
  return {"WG_SIZE", "work-items per work-group (at most the device's limit)", kPow2Wg,
          "256, or the most the device and the built kernel allow",
          false, true, "--wg"};
}
KernelParam items_param(const std::string& rule) {
  return {"ITEMS", "loads each work-item keeps in flight per trip, into as many accumulators", {1, 2, 4, 8}, rule,
          false, true};
}
KernelParam vec_param(const std::string& rule) {
  return {"VEC", "consecutive elements of every input one load reads", {1, 2, 4, 8, 16}, rule, false, true, "--vec"};
}
KernelParam nv_ptx_param() {
  return {"NV_PTX", "the device runs NVIDIA inline PTX (membar.gl, cvt.f32.f16)", {0, 1}, "1 on NVIDIA devices", false,
          false};
}

bool KernelParam::valid_value(std::uint64_t x) const {
  if (!valid.empty()) return std::find(valid.begin(), valid.end(), x) != valid.end();
  return max == 0 || (x >= min && x <= max);
}

std::string KernelParam::valid_text() const {
  if (!valid.empty()) return joined(valid);
  if (max != 0) return std::to_string(min) + ".." + std::to_string(max);
  return "any";
}

KernelParam type_id_param() {
  return {"TYPE_ID", "element type: 0 uint, 1 int, 2 float, 3 double", {0, 1, 2, 3}, "from the call", false, false,
          "--type"};
}
KernelParam op_id_param(const std::vector<std::uint64_t>& valid, const std::string& meaning) {
  return {"OP_ID", meaning, valid, "from the call", false, false, "--op"};
}
KernelParam first_pass_param(const std::vector<std::uint64_t>& valid, const std::string& rule) {
  return {"FIRST_PASS", "1 when the pass reads the user's input, 0 when it reads partials", valid, rule, false, false};
}
std::vector<KernelParam> lockstep_params(const std::string& rule) {
  return {{"LOCKSTEP", "work-items the device runs in lockstep (0: none assumed)", {}, rule, false, false},
          {"NV_WARP_SYNC", "order the lockstep tail with bar.warp.sync (NVIDIA inline PTX)", {0, 1},
           "1 on NVIDIA where LOCKSTEP is set", false, false}};
}

const KernelParam* KernelSpec::find(const std::string& define) const {
  for (const KernelParam& p : params)
    if (p.define == define) return &p;
  return nullptr;
}

std::uint64_t KernelSpec::fallback_of(const std::string& define, std::uint64_t otherwise) const {
  const KernelParam* p = find(define);
  return p && p->fallback ? *p->fallback : otherwise;
}

std::optional<std::uint64_t> given_value(const KernelSpec& k, const std::string& define,
                                         const std::vector<Define>& defines) {
  const KernelParam* p = k.find(define);
  if (!p) throw std::logic_error("kernel " + k.kernel + " declares no " + define);
  std::optional<std::uint64_t> v;
  for (const Define& d : defines) {
    if (d.name != define) continue;
    if (!p->caller_may_set)
      throw ConfigError(Param::Define,
                        "-D " + d.str() + ": " + define + " of " + k.file + " is derived (" + p->rule +
                            "), not set by the caller",
                        "leave " + define + " unset");
    const std::string text = d.value.value_or("");
    const bool digits = !text.empty() && text.size() <= 19 && std::all_of(text.begin(), text.end(), [](char c) {
      return c >= '0' && c <= '9';
    });
    const std::uint64_t x = digits ? std::stoull(text) : 0;
    if (!digits || !p->valid_value(x))
      throw ConfigError(Param::Define,
                        "-D " + d.str() + ": " + define + " of " + k.file + " must be " +
                            (p->valid.empty() ? (p->max ? "in " : "an unsigned integer") : "one of ") +
                            (p->valid.empty() && !p->max ? "" : p->valid_text()) + " (" + p->meaning + ")",
                        p->valid_text());
    if (v && *v != x)
      throw ConfigError(Param::Define,
                        "-D " + define + "=" + std::to_string(*v) + " and -D " + d.str() + " both set " + define +
                            " of " + k.file + ", to different values; give one",
                        "one -D " + define);
    v = x;
  }
  return v;
}

std::optional<std::uint64_t> caller_value(const KernelSpec& k, const std::string& define,
                                          std::optional<std::uint64_t> option, const std::string& option_name,
                                          const std::vector<Define>& defines) {
  const std::optional<std::uint64_t> d = given_value(k, define, defines);
  if (option && d && *option != *d)
    throw ConfigError(Param::Define,
                      "-D " + define + "=" + std::to_string(*d) + " and " + option_name + " " + std::to_string(*option) +
                          " both set " + define + " of " + k.file + ", to different values; give one",
                      option_name + " or -D " + define + ", not both");
  return option ? option : d;
}

std::string options_for(const KernelSpec& k, const ParamValues& values, const std::vector<Define>& defines) {
  BuildOptions o;
  for (const KernelParam& p : k.params) {
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == p.define; });
    if (it == values.end()) throw std::logic_error("no value for " + p.define + " of " + k.kernel);
    // Every -D of a declared parameter checked here (a derived one refused, a value outside the
    // valid ones refused), and the planner must have taken it: a caller's value is never dropped.
    if (const auto given = given_value(k, p.define, defines); given && *given != it->second)
      throw std::logic_error("the planner of " + k.kernel + " did not take -D " + p.define + "=" +
                             std::to_string(*given));
    if (!p.valid_value(it->second))
      throw std::logic_error(p.define + " = " + std::to_string(it->second) + " for " + k.kernel + ": not a valid value");
    o.set(p.define, it->second);
  }
  for (const Define& d : defines) {
    if (k.find(d.name)) continue;
    // A parameter other kernels declare (of this family or another) but this one does not would
    // be ignored here, silently: refused, naming the kernels that take it, this family's first.
    // A name no kernel declares passes untouched (a user's operator or descriptor file, or a
    // kernel's own macro such as ELEM_MAP, reads it); one the program's source never names is
    // refused at its build (core/kernels.cpp, refuse_unread_defines).
    std::vector<std::string> same, other;
    for (const KernelSpec* x : kernel_specs()) {
      if (!x->find(d.name)) continue;
      std::vector<std::string>& list = x->family == k.family ? same : other;
      const std::string name = x->family == k.family ? x->file : x->file + " (" + x->family + ")";
      if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    }
    if (!same.empty() || !other.empty()) {
      std::vector<std::string> takers = same;
      takers.insert(takers.end(), other.begin(), other.end());
      std::string list;
      const std::size_t shown = std::min<std::size_t>(takers.size(), 6);
      for (std::size_t i = 0; i < shown; ++i) list += (i ? ", " : "") + takers[i];
      if (takers.size() > shown) list += " and " + std::to_string(takers.size() - shown) + " more";
      throw ConfigError(Param::Define,
                        "-D " + d.str() + ": " + k.file + " takes no " + d.name + "; kernels that do: " + list,
                        "leave " + d.name + " unset, or choose a kernel that takes it");
    }
    o.add_user(d);
  }
  return o.str();
}

}  // namespace clreduce
