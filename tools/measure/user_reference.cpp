// The user operator's reference on the device: user_reference.cl's kernels, built with the user's
// text like every variant, launched with one work-item per output.
#include "measure/user_reference.hpp"

#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>

namespace clreduce {

namespace {
constexpr std::uint64_t kChunk = 4096;  // elements per work-item for a whole array
constexpr std::uint64_t kLocal = 64;

cl::Kernel kernel_of(const Session& s, const UserOperator& op, ElemType t, const char* name) {
  BuildOptions o;
  o.set("TYPE_ID", static_cast<unsigned long long>(t));
  o.set("OP_ID", static_cast<unsigned long long>(Op::User));
  o.set("FIRST_PASS", 1ULL);
  return ProgramCache::shared().kernel(s.context(), s.device(), s.kernel_dir(), "user_reference.cl", name, o.str(), &op);
}

cl::NDRange global_for(std::uint64_t items) { return cl::NDRange((items + kLocal - 1) / kLocal * kLocal); }

std::vector<Reference> references(const std::vector<unsigned char>& bytes, ElemType t, std::uint64_t count_each) {
  std::vector<Reference> out;
  const std::size_t es = size_of(t);
  for (std::size_t i = 0; i * es < bytes.size(); ++i) {
    Reference r;
    r.value = Value::from_bytes(t, bytes.data() + i * es);
    r.count = count_each;
    out.push_back(r);
  }
  return out;
}

cl::Buffer upload(const Session& s, const HostData& data) {
  cl::Buffer in(s.context(), CL_MEM_READ_ONLY, std::max<std::size_t>(data.bytes.size(), size_of(data.type)));
  if (!data.bytes.empty()) s.queue().enqueueWriteBuffer(in, CL_TRUE, 0, data.bytes.size(), data.data());
  return in;
}
}  // namespace

Reference user_reference(const Session& s, const UserOperator& op, const HostData& data) {
  return with_cl_context("computing the user operator's reference", [&] {
    const std::uint64_t chunks = (data.n + kChunk - 1) / kChunk;
    const std::size_t es = size_of(data.type);
    const cl::Buffer in = upload(s, data);
    const cl::Buffer partials(s.context(), CL_MEM_READ_WRITE, std::max<std::uint64_t>(chunks, 1) * es);
    const cl::Buffer out(s.context(), CL_MEM_READ_WRITE, es);
    cl::Kernel fold = kernel_of(s, op, data.type, "reference_fold");
    fold.setArg(0, in);
    fold.setArg(1, partials);
    fold.setArg(2, static_cast<cl_ulong>(chunks));
    fold.setArg(3, static_cast<cl_ulong>(kChunk));
    fold.setArg(4, static_cast<cl_ulong>(kChunk));
    fold.setArg(5, static_cast<cl_ulong>(1));
    fold.setArg(6, static_cast<cl_ulong>(data.n));
    enqueue_kernel(s.queue(), fold, cl::NullRange, global_for(chunks), cl::NDRange(kLocal));
    cl::Kernel last = kernel_of(s, op, data.type, "reference_fold_partials");
    last.setArg(0, partials);
    last.setArg(1, out);
    last.setArg(2, static_cast<cl_ulong>(chunks));
    enqueue_kernel(s.queue(), last, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
    std::vector<unsigned char> bytes(es);
    s.queue().enqueueReadBuffer(out, CL_TRUE, 0, es, bytes.data());
    return references(bytes, data.type, data.n).front();
  });
}

std::vector<Reference> user_axis_reference(const Session& s, const UserOperator& op, const HostData& data,
                                           std::uint64_t m, std::uint64_t n, Axis axis) {
  return with_cl_context("computing the user operator's reference", [&] {
    const std::uint64_t outputs = axis == Axis::Rows ? m : n, count = axis == Axis::Rows ? n : m;
    const std::size_t es = size_of(data.type);
    const cl::Buffer in = upload(s, data);
    const cl::Buffer out(s.context(), CL_MEM_READ_WRITE, outputs * es);
    cl::Kernel fold = kernel_of(s, op, data.type, "reference_fold");
    fold.setArg(0, in);
    fold.setArg(1, out);
    fold.setArg(2, static_cast<cl_ulong>(outputs));
    fold.setArg(3, static_cast<cl_ulong>(count));
    fold.setArg(4, static_cast<cl_ulong>(axis == Axis::Rows ? n : 1));
    fold.setArg(5, static_cast<cl_ulong>(axis == Axis::Rows ? 1 : n));
    fold.setArg(6, static_cast<cl_ulong>(m * n));
    enqueue_kernel(s.queue(), fold, cl::NullRange, global_for(outputs), cl::NDRange(kLocal));
    std::vector<unsigned char> bytes(outputs * es);
    s.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes.size(), bytes.data());
    return references(bytes, data.type, count);
  });
}

std::vector<Reference> user_segment_reference(const Session& s, const UserOperator& op, const HostData& data,
                                              const std::vector<std::uint64_t>& offsets) {
  return with_cl_context("computing the user operator's reference", [&] {
    const std::uint64_t segments = offsets.size() - 1;
    const std::size_t es = size_of(data.type);
    const cl::Buffer in = upload(s, data);
    const cl::Buffer offs(s.context(), CL_MEM_READ_ONLY, offsets.size() * sizeof(std::uint64_t));
    s.queue().enqueueWriteBuffer(offs, CL_TRUE, 0, offsets.size() * sizeof(std::uint64_t), offsets.data());
    const cl::Buffer out(s.context(), CL_MEM_READ_WRITE, segments * es);
    cl::Kernel k = kernel_of(s, op, data.type, "reference_segments");
    k.setArg(0, in);
    k.setArg(1, offs);
    k.setArg(2, out);
    k.setArg(3, static_cast<cl_ulong>(segments));
    enqueue_kernel(s.queue(), k, cl::NullRange, global_for(segments), cl::NDRange(kLocal));
    std::vector<unsigned char> bytes(segments * es);
    s.queue().enqueueReadBuffer(out, CL_TRUE, 0, bytes.size(), bytes.data());
    std::vector<Reference> r = references(bytes, data.type, 0);
    for (std::uint64_t i = 0; i < segments; ++i) r[i].count = offsets[i + 1] - offsets[i];
    return r;
  });
}

Reference reference_for(const Session& s, const HostData& data, Op op, const UserOperator* user_op) {
  return op == Op::User && user_op ? user_reference(s, *user_op, data) : host_reference(data, op);
}

std::vector<Reference> axis_reference_for(const Session& s, const HostData& data, std::uint64_t m, std::uint64_t n,
                                          Axis axis, Op op, const UserOperator* user_op) {
  return op == Op::User && user_op ? user_axis_reference(s, *user_op, data, m, n, axis)
                                   : axis_reference(data, m, n, axis, op);
}

std::vector<Reference> segment_reference_for(const Session& s, const HostData& data,
                                             const std::vector<std::uint64_t>& offsets, Op op,
                                             const UserOperator* user_op) {
  return op == Op::User && user_op ? user_segment_reference(s, *user_op, data, offsets)
                                   : segment_reference(data, offsets, op);
}

}  // namespace clreduce
