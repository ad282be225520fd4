// What a SegmentedReducer plans and launches, for measuring tools and anyone who wants to see
// it: the resolved launch of a (type, op, n, S), and a launch (or a descriptor reduction) enqueued
// on a queue of one's own. An application that only reduces segments needs clreduce/segmented.hpp
// alone.
//
// Thread-safety and errors as for SegmentedReducer: a hook on a reducer is a call of that reducer.
#pragma once

#include "clreduce/introspect/reduce.hpp"  // DescriptorLaunch
#include "clreduce/segmented.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clreduce {

// One launch over n elements in S segments: segments_group (parts == 1), or segments_split and
// its finish (parts > 1).
struct SegmentedPlan {
  std::string file = "segments_group.cl", kernel = "segments_group";
  std::string finish_kernel;  // segments_split_finish when parts > 1, else empty
  std::uint64_t n = 0, segments = 0;
  std::size_t wg = 0;
  std::uint64_t parts = 1;     // parts per segment
  unsigned slice = 0;          // segments_sliced: work-items per segment (0: not sliced)
  unsigned items = 1;          // segments_split: elements each work-item loads per trip (ITEMS)
  std::uint64_t groups = 0;    // work-groups launched along the segments (they loop when there are more)
  std::string options;         // the build option string (the program cache key)
  // The most operations an element of a segment of `length` elements goes through on its way to
  // the segment's value, the depth that bounds the rounding of a float sum: ceil(length / WG_SIZE)
  // + log2(WG_SIZE) for segments_group; ceil(length / slice) + log2(slice) for segments_sliced;
  // for segments_split the same over a part, plus ITEMS for the work-item's accumulators, plus the
  // finish's ceil(parts / WG_SIZE) + log2(WG_SIZE).
  unsigned depth_of(std::uint64_t length) const;
  std::string launch_label() const;  // "wg 256, 1024 groups", "wg 256, slice 8, 32 groups" or "wg 256, 16 parts x ..."
  // On a CPU device with nothing chosen (no wg, slice, parts or -D) and an operator other than a
  // user's: the descriptor's lines kernel (reduce_descriptor_lines.cl) over the operator's built-in
  // (builtin_of), its CPU shape (a work-item's contiguous run of segments); file, kernel, wg,
  // parts, groups and options are its, and depth_of and launch_label follow it. Null: the above.
  std::shared_ptr<const DescriptorLaunch> descriptor;
};

// A resolved launch for one (type, op, n, S).
class SegmentedLaunch {
 public:
  ElemType type = ElemType::Float;
  Op op = Op::Sum;
  SegmentedPlan plan;
  std::size_t kernel_max_wg = 0;  // the work-items per group the built kernel allows

 private:
  friend class SegmentedReducer;
  friend struct introspect::Access;
  mutable cl::Kernel kernel_, finish_;  // finish_: segments_split_finish, when parts > 1
  std::shared_ptr<const Reduction> descriptor_;  // plan.descriptor's built-in
  std::uint64_t owner_ = 0;  // the serial of the reducer that prepared it (never reused)
};

namespace introspect {

// The launch for n elements in `segments` segments: planned, built and checked on the first call
// for (type, op, n, segments), then cached. Throws as clreduce/segmented.hpp's file comment says.
std::shared_ptr<const SegmentedLaunch> prepare(SegmentedReducer& r, ElemType type, Op op, std::uint64_t n,
                                               std::uint64_t segments);
// The same on a reducer made for the question (the launch it would run: plan, options, limits).
inline std::shared_ptr<const SegmentedLaunch> prepare(SegmentedReducer&& r, ElemType type, Op op, std::uint64_t n,
                                                      std::uint64_t segments) {
  return prepare(r, type, op, n, segments);
}
// Enqueues a prepared launch on `on` (default: the reducer's queue); its event when with_events.
// `launch` must come from r's prepare().
std::vector<cl::Event> enqueue(SegmentedReducer& r, const SegmentedLaunch& launch, const cl::Buffer& in,
                               const cl::Buffer& offsets, const cl::Buffer& out, const cl::CommandQueue* on = nullptr,
                               bool with_events = true, const std::vector<cl::Event>* wait = nullptr);

// The launch SegmentedReducer::reduce(Reduction, ...) and reduce_to make for n elements in
// `segments` segments with offsets of `offset_type` (depth_of(length) bounds a segment of that
// length).
DescriptorLaunch prepare(SegmentedReducer& r, const Reduction& d, std::uint64_t n, std::uint64_t segments,
                         Scalar offset_type = Scalar::U64);
// SegmentedReducer::reduce_to on `on` (null: the reducer's queue; another in-order queue of the
// same context and device, which the caller then orders); with_event false: no event made.
cl::Event enqueue(SegmentedReducer& r, const Reduction& d, const std::vector<Input>& inputs, std::uint64_t n,
                  const Segments& segments, const cl::Buffer& out, std::uint64_t out_index,
                  const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                  const std::vector<cl::Event>& wait = {}, bool with_event = true);

}  // namespace introspect
}  // namespace clreduce
