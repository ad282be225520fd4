// Every family's parameter table in one list (clreduce/kernel_spec.hpp: kernel_specs), for the
// tools that print or check them without reaching into the library's sources.
#include "clreduce/axis.hpp"
#include "clreduce/kernel_spec.hpp"
#include "clreduce/variants.hpp"

#include "descriptor/kernel_params.hpp"
#include "segmented/segmented_kernels.hpp"
#include "transpose/plan.hpp"

namespace clreduce {

const std::vector<NamedKernelSpec>& named_kernel_specs() {
  static const std::vector<NamedKernelSpec> all = [] {
    std::vector<NamedKernelSpec> out;
    for (const Variant& v : variants()) out.push_back({v.name, &v.spec});
    for (const AxisVariant& v : axis_variants()) out.push_back({v.name, &v.spec});
    for (const KernelSpec* k : descriptor_kernels()) out.push_back({k->kernel, k});
    for (const KernelSpec* k : segmented_kernels()) out.push_back({k->kernel, k});
    for (const TransposeVariant& v : transpose_variants()) out.push_back({v.name, &transpose_kernel_spec(v)});
    return out;
  }();
  return all;
}

const std::vector<const KernelSpec*>& kernel_specs() {
  static const std::vector<const KernelSpec*> all = [] {
    std::vector<const KernelSpec*> out;
    for (const NamedKernelSpec& k : named_kernel_specs()) out.push_back(k.spec);
    return out;
  }();
  return all;
}

}  // namespace clreduce
