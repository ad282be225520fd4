// Segmented reductions: the sum (min, max) of every segment of a flat array of n elements, one
// value per segment, with the segments given in CSR style by S + 1 offsets (std::uint64_t on the
// host, cl_ulong in a buffer): offsets[0] == 0, non-decreasing, offsets[S] == n; segment s covers
// the elements [offsets[s], offsets[s+1]) and its value goes to out[s]. Offsets, n and S count
// elements, not bytes. Any segment lengths are allowed, empty ones included: an empty segment's
// value is the operator's identity as a value of the type, 0 for sum, the type's highest for min
// and its lowest for max; for float and double that is +INFINITY for min and -INFINITY for max
// (the whole-array kernels pad with NaN, fmin/fmax's identity, but an empty segment has nothing
// to pass over, so it gets the infinity). Within a segment the operators are those of the whole
// array (reduce_common.clh): integer sums wrap modulo 2^32, float min/max pass over NaN, float
// sums follow IEEE. A SegmentedReducer is bound to an application's command queue, like the
// AxisReducer. Its kernels: kernels_cl/segments_group.cl (one work-group per segment: the group
// strides along its segment, then the tree) where there are segments enough to fill the device,
// else kernels_cl/segments_split.cl (each segment split into `parts` parts of one group each, then
// a second kernel folding each segment's parts); kernels_cl/segments_sliced.cl (a slice of a few
// work-items per segment, several segments per group) when the caller sets a slice, or when
// neither slice nor parts is set and the segments average 2048 elements or fewer (measured on the
// H100: bench/NOTES.md, axis reductions). On a CPU device (no GPU, no loop limit) with no wg,
// slice, parts or -D given and an operator other than a user's, the descriptor's lines kernel
// (kernels_cl/reduce_descriptor_lines.cl) over the operator's built-in (builtin_of) runs instead,
// in its CPU shape, with the same results (SegmentedPlan::descriptor says so; on PoCL, 2 cores,
// f32 sums of segments of 16 and 256 went from 1.5 and 2.6 GB/s to 4-9 and 21-23: bench/NOTES.md,
// the Op path on a CPU). argmin/argmax give ArgValue<T> per segment, the
// index within the segment (kNoIndex for an empty one).
//
// Errors: clreduce::Error naming the parameter: ConfigError (Param::Segments) for offsets that
// are not a valid partition of [0, n), for no segments or offsets over one allocation, (Param::N) for an input
// over one allocation, (Param::Type) for double without cl_khr_fp64, (Param::WorkGroupSize) for a
// work-group size that is not a power of two up to the device's; LimitError for the built kernel's
// limits; Error (Param::Buffer) for a buffer too small. Offsets held in a cl::Buffer are not read
// back to be checked: invalid ones give unspecified values, but the kernel clamps every offset
// into [0, n] and so never reads outside the input.
// Thread-safety: as the Reducer and the AxisReducer: one thread at a time per SegmentedReducer;
// distinct reducers may be used from distinct threads.
#pragma once

#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/opencl.hpp"
#include "clreduce/reduce.hpp"  // Input
#include "clreduce/reduction.hpp"
#include "clreduce/types.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace clreduce {

// Throws ConfigError (Param::Segments) naming the first offending offset unless `offsets` holds
// at least two values (one segment), offsets[0] == 0, every value at least the one before it, and
// the last == n.
void validate_segment_offsets(const std::uint64_t* offsets, std::size_t count, std::uint64_t n);
inline void validate_segment_offsets(const std::vector<std::uint64_t>& offsets, std::uint64_t n) {
  validate_segment_offsets(offsets.data(), offsets.size(), n);
}

// The segments of a descriptor reduction, with the type of their offsets named in the API so a
// buffer of one type cannot be read as another: CSR offsets (S + 1 of them: segment s is
// [offsets[s], offsets[s + 1])) or begin and end arrays (S each: [begin[s], end[s]), as CUB's
// DeviceSegmentedReduce; segments may then overlap, leave gaps or come in any order). Offsets
// count elements from each input's offset. Build one with Segments::offsets<T> or
// Segments::begin_end<T>, T one of std::uint32_t, std::uint64_t, std::int32_t, std::int64_t.
struct Segments {
  enum class Kind { Offsets, BeginEnd };
  Kind kind = Kind::Offsets;
  cl::Buffer first;              // the offsets, or the begins
  cl::Buffer second;             // the ends (BeginEnd)
  Scalar type = Scalar::U64;     // U32, U64, I32 or I64
  std::uint64_t count = 0;       // S, the segments (results)

  template <class T>
  static Segments offsets(const cl::Buffer& offsets, std::uint64_t segments) {
    return {Kind::Offsets, offsets, cl::Buffer(), index_type<T>(), segments};
  }
  template <class T>
  static Segments begin_end(const cl::Buffer& begin, const cl::Buffer& end, std::uint64_t segments) {
    return {Kind::BeginEnd, begin, end, index_type<T>(), segments};
  }
  template <class T>
  static constexpr Scalar index_type() {
    static_assert(std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
                      std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>,
                  "segment offsets are std::uint32_t, std::uint64_t, std::int32_t or std::int64_t");
    return std::is_same_v<T, std::uint32_t>   ? Scalar::U32
           : std::is_same_v<T, std::uint64_t> ? Scalar::U64
           : std::is_same_v<T, std::int32_t>  ? Scalar::I32
                                              : Scalar::I64;
  }
};

// The parameters a caller may fix; each unset one is the default.
struct SegmentedParams {
  std::optional<std::size_t> wg;  // WG_SIZE: work-items per segment's group (default 256, or less
                                  // where the device or the built kernel allows fewer)
  // Parts per segment: 1 runs segments_group, more segments_split with that many parts (at most
  // 65535). Unset: 1 when there are at least 4 segments per compute unit, else enough parts for
  // about 32 groups per compute unit, each work-item folding at least 16 elements of an average
  // segment.
  std::optional<std::uint64_t> parts;
  // Work-items per segment, a power of two below WG_SIZE: segments_sliced (WG_SIZE / slice
  // segments per group, for many short segments). WG_SIZE: one group per segment. Not with parts
  // above 1. Unset (and parts unset): where one group per segment is planned and the segments
  // average at most 2048 elements, about one work-item per 8 elements of the average segment, a
  // power of two from 4 to 32 and at most half the work-group (none on a device whose loop limit
  // that slice could pass).
  std::optional<unsigned> slice;
  std::vector<Define> defines;    // -D NAME[=VALUE], untouched
};



struct SegmentedReducerOptions {
  SegmentedParams params;
  std::filesystem::path kernel_dir;   // empty: find_kernel_dir()
  ProgramCache* programs = nullptr;   // null: ProgramCache::shared()
  std::optional<DeviceInfo> device;   // the queue's device facts, if the caller holds them
  std::shared_ptr<const UserOperator> user_op;  // what Op::User means (clreduce/user_operator.hpp)
  // Where a reduction descriptor's tuned launch comes from (as the Reducer's): the database's
  // descriptor entry for (device, built-in, inputs, "rows", the rows class of (segments, average
  // segment length)) fills the parameters `params` leaves unset; `enabled = false`: the planner
  // alone. The Op path's segmented kernels take no tuning (its descriptor route on a CPU takes the
  // descriptor entry of its built-in).
  TuningSource tuning;
};

class SegmentedReducer {
 public:
  // Binds to an in-order queue. Throws Error (Param::Queue) for an out-of-order queue.
  explicit SegmentedReducer(const cl::CommandQueue& queue, SegmentedReducerOptions options = {});
  explicit SegmentedReducer(cl_command_queue queue, SegmentedReducerOptions options = {});
  SegmentedReducer(const SegmentedReducer&) = delete;
  SegmentedReducer& operator=(const SegmentedReducer&) = delete;
  SegmentedReducer(SegmentedReducer&&) noexcept;
  SegmentedReducer& operator=(SegmentedReducer&&) noexcept;
  ~SegmentedReducer();

  // Enqueues the reduction of `in` (n elements of `type`) in the segments that `offsets` (S + 1
  // cl_ulong values) gives, into `out` (S values), after `wait`; returns the kernel's event.
  // The offsets are not checked (see the file comment). Throws Error (Param::Buffer) when a
  // buffer is smaller than that.
  cl::Event reduce(const cl::Buffer& in, const cl::Buffer& offsets, const cl::Buffer& out, ElemType type, Op op,
                   std::uint64_t n, std::uint64_t segments, const std::vector<cl::Event>& wait = {});
  template <class T>
  cl::Event reduce(const cl::Buffer& in, const cl::Buffer& offsets, const cl::Buffer& out, Op op, std::uint64_t n,
                   std::uint64_t segments, const std::vector<cl::Event>& wait = {}) {
    return reduce(in, offsets, out, element_type_of<T>(), op, n, segments, wait);
  }

  // The same with the offsets on the host: validated (validate_segment_offsets), copied into a
  // buffer the reducer keeps (a blocking write, so `offsets` may go away on return), then
  // enqueued; S is offsets.size() - 1.
  cl::Event reduce(const cl::Buffer& in, const std::vector<std::uint64_t>& offsets, const cl::Buffer& out,
                   ElemType type, Op op, std::uint64_t n, const std::vector<cl::Event>& wait = {});
  template <class T>
  cl::Event reduce(const cl::Buffer& in, const std::vector<std::uint64_t>& offsets, const cl::Buffer& out, Op op,
                   std::uint64_t n, const std::vector<cl::Event>& wait = {}) {
    return reduce(in, offsets, out, element_type_of<T>(), op, n, wait);
  }

  // Host data in, host values out (blocking): the offsets validated against data.size(), one
  // value per segment. Throws ConfigError (Param::Op) for argmin/argmax: use reduce_arg.
  template <class T>
  std::vector<T> reduce(const std::vector<T>& data, const std::vector<std::uint64_t>& offsets, Op op) {
    std::vector<T> out(offsets.empty() ? 0 : offsets.size() - 1);
    reduce_host(element_type_of<T>(), op, data.data(), data.size(), offsets, out.data(), false);
    return out;
  }
  // argmin/argmax (Op::ArgMin, Op::ArgMax) of each segment: the value and its index within the
  // segment (an empty segment: the type's highest/lowest at kNoIndex). Throws ConfigError
  // (Param::Op) for the other operators: use reduce.
  template <class T>
  std::vector<ArgValue<T>> reduce_arg(const std::vector<T>& data, const std::vector<std::uint64_t>& offsets, Op op) {
    std::vector<ArgValue<T>> out(offsets.empty() ? 0 : offsets.size() - 1);
    reduce_host(element_type_of<T>(), op, data.data(), data.size(), offsets, out.data(), true);
    return out;
  }

  // ---- Descriptor reductions (clreduce/reduction.hpp) ----
  // The reduction `r` of every segment of `inputs` (one Input per r.inputs, each holding n
  // elements from its offset), one result per segment, in one launch of
  // kernels_cl/reduce_descriptor_lines.cl; the map's index i counts from the segment's first
  // element. An empty segment's result is r's finish of its identity (a sum's 0, a mean's NaN, a
  // float min's +infinity and max's -infinity as the Op path's,
  // argmin's index 2^64 - 1). The offsets are not read back: the kernel clamps each into [0, n]
  // (and an end below its begin to an empty segment), so invalid ones give unspecified values but
  // never a read outside the inputs. The reducer's params give wg, slice (ROW_WIDTH: work-items
  // per segment), parts (a segment cut into parts, a ticket each) and -D ITEMS and VEC.
  // Blocking: returns one Result per segment. Throws Error naming the parameter: no segments,
  // an offsets buffer smaller than S + 1 (or S) values of its type (Param::Segments), input or
  // scalar counts, inputs smaller than offset + n (Param::Buffer), f64 without cl_khr_fp64.
  std::vector<Result> reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                             const Segments& segments, const std::vector<ScalarArg>& scalars = {});
  // The same from host memory: one pointer per input of r, each holding n elements of its type,
  // and the CSR offsets (S + 1 values, checked as validate_segment_offsets does: 0 first, never
  // decreasing, n last), all copied to the device before the launch (blocking). Throws as above,
  // and ConfigError (Param::Segments) for bad offsets, Error (Param::Buffer) for a null pointer.
  std::vector<Result> reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                             const std::vector<std::uint64_t>& offsets, const std::vector<ScalarArg>& scalars = {});
  // The same, asynchronous: results at indices out_index .. of `out`; returns the launch's event.
  cl::Event reduce_to(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n, const Segments& segments,
                      const cl::Buffer& out, std::uint64_t out_index = 0, const std::vector<ScalarArg>& scalars = {},
                      const std::vector<cl::Event>& wait = {});
  const DeviceInfo& device() const;
  const cl::Context& context() const;
  const cl::CommandQueue& queue() const;

 private:
  // `out` holds S results of result_size(type, op) bytes; `arg_out` says which the caller made
  // room for (ArgValue<T> or T), checked against op before anything runs.
  void reduce_host(ElemType type, Op op, const void* data, std::uint64_t n, const std::vector<std::uint64_t>& offsets,
                   void* out, bool arg_out);
  friend struct introspect::Access;  // the hooks of clreduce/introspect/segmented.hpp
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace clreduce
