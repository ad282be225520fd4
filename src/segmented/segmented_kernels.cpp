// The segmented kernels' parameters as data (src/segmented/segmented_kernels.hpp).
#include "segmented/segmented_kernels.hpp"

namespace clreduce {

namespace {
// What every segmented kernel reads: the element type and operator (kernels_cl/reduce_common.clh)
// and the pass (always the first: the segments are read from the user's input).
std::vector<KernelParam> common_params() {
  return {type_id_param(),
          op_id_param({0, 1, 2, 3, 4, 5}, "operator: 0 sum, 1 min, 2 max, 3 argmin, 4 argmax, 5 a user's file"),
          first_pass_param({1}, "always 1"), wg_param()};
}
// The tree's lockstep tail (kernels_cl/lockstep.clh): not for argmin/argmax's pairs.
std::vector<KernelParam> tree_tail_params() {
  return lockstep_params("the device's reported lockstep width; 0 for argmin and argmax");
}
std::vector<KernelParam> joined(std::vector<KernelParam> a, const std::vector<KernelParam>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
}  // namespace

const KernelSpec& segments_group_kernel() {
  static const KernelSpec k{"segments", "segments_group.cl", "segments_group",
                            "one work-group per segment (the groups loop over the segments beyond the grid)",
                            joined(common_params(), tree_tail_params())};
  return k;
}

const KernelSpec& segments_split_kernel() {
  static const KernelSpec k{
      "segments", "segments_split.cl", "segments_split",
      "each segment cut into parts, one work-group each; segments_split_finish folds each segment's parts",
      joined(joined(common_params(), {items_param("4")}), tree_tail_params())};
  return k;
}

const KernelSpec& segments_sliced_kernel() {
  static const KernelSpec k{
      "segments", "segments_sliced.cl", "segments_sliced",
      "a slice of work-items per segment, WG_SIZE / SLICE segments per work-group",
      joined(common_params(),
             {{"SLICE", "work-items per segment: a power of two up to WG_SIZE", {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024},
               "about one work-item per 8 elements of an average segment, 4 to 32, for segments of at most 2048 "
               "elements on average",
               false, true, "--row-width"},
              items_param("4; 1 for argmin and argmax")})};
  return k;
}

const std::vector<const KernelSpec*>& segmented_kernels() {
  static const std::vector<const KernelSpec*> all = {&segments_group_kernel(), &segments_split_kernel(),
                                                     &segments_sliced_kernel()};
  return all;
}

}  // namespace clreduce
