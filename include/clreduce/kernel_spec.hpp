// Introspection: a kernel's launch parameters declared as data (as CLBlast's settings.parameters
// and CUB's policies do), for every family: each parameter's -D name, its meaning, its valid
// values, the rule that gives its default and whether `tune` may search it or a caller may set
// it. One function (options_for) turns a kernel's resolved values into its build option string,
// and one (given_value) reads and checks a caller's -D NAME=VALUE of a declared parameter, so a
// planner never assembles -D text of its own and every kernel refuses a bad value the same way.
// The tables: Variant::spec (clreduce/variants.hpp: the whole-array variants), AxisVariant::spec
// (clreduce/axis.hpp: the rows_* and cols_* variants), and in the
// library's sources src/descriptor/kernel_params.hpp (the descriptor kernels),
// src/segmented/segmented_kernels.hpp (the segmented reductions), src/transpose/plan.hpp. The CLI
// reads them to refuse a -D that an option or the host sets, and `clreduce variants` prints them.
// Thread-safety: the tables are immutable after first use; the functions are pure.
#pragma once

#include "clreduce/types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

struct KernelParam {
  KernelParam() = default;
  KernelParam(std::string define_, std::string meaning_, std::vector<std::uint64_t> valid_, std::string rule_,
              bool tunable_ = false, bool caller_may_set_ = true, std::string option_ = {})
      : define(std::move(define_)), meaning(std::move(meaning_)), valid(std::move(valid_)), rule(std::move(rule_)),
        tunable(tunable_), caller_may_set(caller_may_set_), option(std::move(option_)) {}
  std::string define;                  // "ROW_WIDTH"
  std::string meaning;                 // one line
  std::vector<std::uint64_t> valid;    // the values it may take (empty: any the planner derives)
  std::string rule;                    // how the planner derives it when nobody gives it
  bool tunable = false;                // whether `tune` may search it
  bool caller_may_set = true;          // false: derived from the device or the data (NV_PTX, ALIGNED)
  std::string option;                  // the CLI option that sets it ("--tile"); empty: none does
  // Where `valid` is empty: the inclusive range a value must be in (max 0: no range).
  std::uint64_t min = 0, max = 0;
  // The value when nobody gives it and `rule` does not derive it from the call (TIMES 16).
  std::optional<std::uint64_t> fallback;
  bool valid_value(std::uint64_t x) const;
  std::string valid_text() const;  // "1, 2, 4, 8", "1..1024", or "any"
};

struct KernelSpec {
  std::string family;   // "whole_array" (the variants), "axis", "whole", "lines", "columns" (descriptors), "segments", "transpose"
  std::string file;     // "reduce_descriptor_lines.cl"
  std::string kernel;   // "reduce_descriptor_lines"
  std::string summary;  // one line: what it reduces
  std::vector<KernelParam> params;
  const KernelParam* find(const std::string& define) const;
  // The fallback of declared parameter `define`, or `otherwise` where it is not declared or has none.
  std::uint64_t fallback_of(const std::string& define, std::uint64_t otherwise) const;
};

// Parameters several kernels share.
KernelParam wg_param();                              // WG_SIZE: a power of two up to 8192 (the planner checks the device's limit)
KernelParam items_param(const std::string& rule);   // ITEMS: 1, 2, 4 or 8
KernelParam vec_param(const std::string& rule);     // VEC: 1, 2, 4, 8 or 16
KernelParam nv_ptx_param();                          // NV_PTX: 1 on NVIDIA devices
// The Op families' shared parameters (kernels_cl/reduce_common.clh, lockstep.clh).
KernelParam type_id_param();                         // TYPE_ID: 0 uint, 1 int, 2 float, 3 double
KernelParam op_id_param(const std::vector<std::uint64_t>& valid, const std::string& meaning);  // OP_ID
KernelParam first_pass_param(const std::vector<std::uint64_t>& valid, const std::string& rule);  // FIRST_PASS
std::vector<KernelParam> lockstep_params(const std::string& rule);  // LOCKSTEP, NV_WARP_SYNC

// A kernel's resolved parameter values, by -D name.
using ParamValues = std::vector<std::pair<std::string, std::uint64_t>>;

// The caller's value of declared parameter `define` among `defines` (-D NAME=VALUE), checked
// against its valid values. Throws ConfigError (Param::Define) naming the kernel, the value and
// the valid ones, or saying the parameter is derived and cannot be set. nullopt: not given.
std::optional<std::uint64_t> given_value(const KernelSpec& k, const std::string& define,
                                         const std::vector<Define>& defines);

// A declared parameter the caller may give two ways: an option of the API (`option`, called
// `option_name` in messages: a work-group size, a slice) or a -D among `defines` (checked as
// given_value does). Throws ConfigError (Param::Define) when both are given and differ.
std::optional<std::uint64_t> caller_value(const KernelSpec& k, const std::string& define,
                                          std::optional<std::uint64_t> option, const std::string& option_name,
                                          const std::vector<Define>& defines);

// The build option string: every declared parameter of `k` in declaration order with its value in
// `values` (each must be there and valid; a missing one throws std::logic_error: a planner's
// bug), then the caller's defines that no kernel declares, untouched (a user's operator or
// descriptor file may read them). A define that other kernels declare, of any family, but k does
// not is refused (ConfigError, Param::Define, naming the kernels that take it, k's family first):
// it would be ignored.
std::string options_for(const KernelSpec& k, const ParamValues& values, const std::vector<Define>& defines);

// Every kernel's parameters, family by family: the whole-array variants (Variant::spec), the axis
// variants (AxisVariant::spec, family "axis"), the descriptor kernels (whole, lines, columns), the
// segmented kernels and the transposes.
const std::vector<const KernelSpec*>& kernel_specs();

// The same list with each registry entry's name: a variant's name where the family has variants
// (whole array, axis, transpose; rows_split and rows_split_fused are two entries of one kernel),
// else the kernel's (the descriptor and segment kernels). What `clreduce variants --params` prints.
struct NamedKernelSpec {
  std::string name;
  const KernelSpec* spec = nullptr;
};
const std::vector<NamedKernelSpec>& named_kernel_specs();

}  // namespace clreduce
