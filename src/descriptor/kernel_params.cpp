// The descriptor kernels' parameters as data (src/descriptor/kernel_params.hpp).
#include "descriptor/kernel_params.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"

#include <algorithm>
#include <stdexcept>

namespace clreduce {

namespace {
const std::vector<std::uint64_t> kPow2Wg = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
const std::vector<std::uint64_t> kItems = {1, 2, 4, 8};
const std::vector<std::uint64_t> kVec = {1, 2, 4, 8, 16};
const std::vector<std::uint64_t> kFlag = {0, 1};

KernelParam wg_param() {
  return {"WG_SIZE", "work-items per work-group", kPow2Wg, "256, or the most the device and the built kernel allow",
          true, true};
}
KernelParam items_param(const std::string& rule) {
  return {"ITEMS", "loads each work-item keeps in flight per trip, into as many accumulators", kItems, rule, true, true};
}
KernelParam vec_param(const std::string& rule) {
  return {"VEC", "consecutive elements of every input one load reads", kVec, rule, true, true};
}
KernelParam aligned_param() {
  return {"ALIGNED", "every input's element offset is a multiple of VEC (loads through vector pointers)", kFlag,
          "from the inputs' offsets", false, false};
}
KernelParam partial_param() {
  return {"PARTIAL", "the launch writes its accumulator unfinished: a part of a larger reduction", kFlag,
          "1 for the parts of a several-device reduction (MultiReducer), else 0", false, false};
}
KernelParam nv_ptx_param() {
  return {"NV_PTX", "the device runs NVIDIA inline PTX (membar.gl, cvt.f32.f16)", kFlag, "1 on NVIDIA devices", false,
          false};
}

std::string joined(const std::vector<std::uint64_t>& v) {
  std::string s;
  for (std::uint64_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}
}  // namespace

const KernelParam* DescriptorKernel::find(const std::string& define) const {
  for (const KernelParam& p : params)
    if (p.define == define) return &p;
  return nullptr;
}

const DescriptorKernel& whole_kernel() {
  static const DescriptorKernel k{
      "whole", "reduce_descriptor.cl", "reduce_descriptor", "one result over n elements, in one launch (a ticket)",
      {wg_param(), items_param("4; 2 for accumulators over 8 bytes and vector lifts"),
       vec_param("16 bytes of the widest input"), aligned_param(), partial_param(), nv_ptx_param()}};
  return k;
}

const DescriptorKernel& lines_kernel() {
  static const DescriptorKernel k{
      "lines", "reduce_descriptor_lines.cl", "reduce_descriptor_lines",
      "one result per row of a matrix or per segment (offsets, begin/end)",
      {wg_param(),
       {"ROW_WIDTH", "work-items per line (a power of two dividing WG_SIZE)", kPow2Wg,
        "about ITEMS vectors per work-item of an average line, up to WG_SIZE", true, true},
       items_param("2"), vec_param("16 bytes of the widest input, less for lines under 4 such vectors"),
       aligned_param(),
       {"LINES", "what a line is: 0 rows (s * ld, len), 1 CSR offsets, 2 begin/end arrays", {0, 1, 2},
        "from the call", false, false},
       {"OFFSET_T_ID", "the offsets' type: 0 uint, 1 ulong, 2 int, 3 long", {0, 1, 2, 3}, "from the call", false,
        false},
       {"SPLIT", "each line cut into chunks, one group each, met by a ticket per line", kFlag,
        "1 when there are under 4 lines per compute unit and a line fills several groups", false, false},
       nv_ptx_param()}};
  return k;
}

const DescriptorKernel& columns_kernel() {
  static const DescriptorKernel k{
      "columns", "reduce_descriptor_cols.cl", "reduce_descriptor_cols", "one result per column of a matrix",
      {{"TILE_X", "work-items along the columns per group (a power of two)", kPow2Wg,
        "the work-group where the columns alone fill the device (2048 work-items per compute unit), else 32, or "
        "the columns / VEC rounded up to a power of two",
        true, true},
       {"ROWS_Y", "row slices per group (TILE_X x ROWS_Y = the work-group)", kPow2Wg, "WG_SIZE / TILE_X", true, true},
       items_param("4; 2 for accumulators over 8 bytes"),
       vec_param("1 (a column per work-item); a caller's VEC at most the columns"),
       aligned_param(), nv_ptx_param()}};
  return k;
}

const std::vector<const DescriptorKernel*>& descriptor_kernels() {
  static const std::vector<const DescriptorKernel*> all = {&whole_kernel(), &lines_kernel(), &columns_kernel()};
  return all;
}

std::optional<std::uint64_t> given_value(const DescriptorKernel& k, const std::string& define,
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
    if (!digits || (!p->valid.empty() && std::find(p->valid.begin(), p->valid.end(), x) == p->valid.end()))
      throw ConfigError(Param::Define, "-D " + d.str() + ": " + define + " of " + k.file + " must be one of " +
                                           joined(p->valid) + " (" + p->meaning + ")",
                        joined(p->valid));
    v = x;
  }
  return v;
}

std::string options_for(const DescriptorKernel& k, const ParamValues& values, const std::vector<Define>& defines) {
  BuildOptions o;
  for (const KernelParam& p : k.params) {
    auto it = std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == p.define; });
    if (it == values.end()) throw std::logic_error("no value for " + p.define + " of " + k.kernel);
    // Every -D of a declared parameter checked here (a derived one refused, a value outside the
    // valid ones refused), and the planner must have taken it: a caller's value is never dropped.
    if (const auto given = given_value(k, p.define, defines); given && *given != it->second)
      throw std::logic_error("the planner of " + k.kernel + " did not take -D " + p.define + "=" +
                             std::to_string(*given));
    if (!p.valid.empty() && std::find(p.valid.begin(), p.valid.end(), it->second) == p.valid.end())
      throw std::logic_error(p.define + " = " + std::to_string(it->second) + " for " + k.kernel + ": not a valid value");
    o.set(p.define, it->second);
  }
  for (const Define& d : defines)
    if (!k.find(d.name)) o.add_user(d);
  return o.str();
}

}  // namespace clreduce
