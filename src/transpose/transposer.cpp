// The Transposer: launches resolved once per (type, M, N), cached, and enqueued on the queue.
#include "clreduce/transpose.hpp"
#include "clreduce/introspect/transpose.hpp"

#include "core/bound_queue.hpp"
#include "core/introspect_access.hpp"
#include "transpose/plan.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <tuple>

namespace clreduce {

struct Transposer::State : BoundQueue {
  using Key = std::tuple<ElemType, std::uint64_t, std::uint64_t>;  // type, M, N
  TransposerOptions options;
  LaunchCache<Key, TransposeLaunch> launches;

  // The hooks of clreduce/introspect/transpose.hpp (defined below), which transpose() uses too.
  std::shared_ptr<const TransposeLaunch> prepare(ElemType type, std::uint64_t m, std::uint64_t n);
  std::vector<cl::Event> enqueue(const TransposeLaunch& launch, const cl::Buffer& in, const cl::Buffer& out,
                                 const cl::CommandQueue* on, bool with_event, const std::vector<cl::Event>* wait);
};

Transposer::Transposer(const cl::CommandQueue& queue, TransposerOptions options)
    : s_(std::make_unique<State>()) {
  static_cast<BoundQueue&>(*s_) = bind_queue(queue, options.device, options.kernel_dir, options.programs, "transposer");
  s_->options = std::move(options);
}

Transposer::Transposer(cl_command_queue queue, TransposerOptions options)
    : Transposer(cl::CommandQueue(queue, /*retainObject=*/true), std::move(options)) {}

Transposer::Transposer(Transposer&&) noexcept = default;
Transposer& Transposer::operator=(Transposer&&) noexcept = default;
Transposer::~Transposer() = default;

std::shared_ptr<const TransposeLaunch> Transposer::State::prepare(ElemType type, std::uint64_t m, std::uint64_t n) {
  const State::Key key{type, m, n};
  if (std::shared_ptr<TransposeLaunch> cached = launches.find(key)) return cached;
  auto l = std::make_shared<TransposeLaunch>();
  static_cast<TransposeParams&>(l->config) = options.params;
  l->config.type = type;
  const TransposeParams given = options.params;
  // A work-group shape nobody chose follows the built kernel: where it allows fewer work-items
  // than the variant's default shape, the shape shrinks (ROWS, then the group's height, then
  // TILE or its width) until it fits; where the built kernel needs more local memory than the
  // device has (llvmpipe counts local_tile_vector's 64 x 65 floats as 33280 bytes against its
  // 32 KiB), TILE halves. A chosen shape over the kernel's limits is refused.
  for (;;) {
    l->plan = plan_transpose(l->config, device, m, n);
    l->kernel_ = programs->kernel(context, device, kernel_dir.path, l->plan.variant->file,
                                      l->plan.variant->kernel, l->plan.options);
    const KernelLimits lim = kernel_limits(l->kernel_, device.device);
    l->kernel_max_wg = lim.max_work_group_size;
    const std::size_t items = l->plan.wg_x * l->plan.wg_y;
    const TransposeShape shape = l->plan.variant->shape;
    const bool local_over = shape != TransposeShape::Free && lim.local_mem_bytes > device.local_mem_bytes &&
                            l->plan.tile / 2 >= std::max(1u, l->plan.vec);
    const bool shrink = ((items > lim.max_work_group_size && items > 1) || local_over) &&
                        (shape == TransposeShape::Free ? !given.wg_x && !given.wg_y
                                                       : !given.tile && !given.rows);
    if (!shrink) {
      check_kernel_limits(l->plan.variant->kernel + " (work-group " + l->plan.wg_label() + ")", items, lim,
                          device, shape == TransposeShape::Free ? Param::WgX : Param::Tile);
      break;
    }
    if (local_over) {
      l->config.tile = l->plan.tile / 2;
      if (shape == TransposeShape::TileRows) l->config.rows = std::min(l->plan.rows, l->plan.tile / 2);
    } else if (shape == TransposeShape::Free) {
      if (l->plan.wg_y > 1) l->config.wg_y = l->plan.wg_y / 2, l->config.wg_x = l->plan.wg_x;
      else l->config.wg_x = l->plan.wg_x / 2, l->config.wg_y = 1;
    } else if (shape == TransposeShape::TileRows && l->plan.rows > 1) {
      l->config.tile = l->plan.tile;
      l->config.rows = l->plan.rows / 2;
    } else {
      l->config.tile = l->plan.tile / 2;
      if (shape == TransposeShape::TileRows) l->config.rows = 1;
    }
  }
  l->config.variant = l->plan.variant->name;
  l->owner_ = serial;
  launches.insert(key, l);
  return l;
}

std::vector<cl::Event> Transposer::State::enqueue(const TransposeLaunch& launch, const cl::Buffer& in,
                                                  const cl::Buffer& out, const cl::CommandQueue* on,
                                                  bool with_event, const std::vector<cl::Event>* wait) {
  check_owner(launch.owner_, "transposer");
  const TransposePlan& p = launch.plan;
  const std::uint64_t bytes = p.m * p.n * size_of(launch.config.type);
  with_cl_context("querying the buffers' sizes", [&] {
    for (const cl::Buffer* b : {&in, &out})
      if (b->getInfo<CL_MEM_SIZE>() < bytes)
        throw Error(Param::Buffer,
                    std::string("the ") + (b == &in ? "input" : "output") + " buffer holds " +
                        std::to_string(b->getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " + std::to_string(bytes) +
                        " of a " + std::to_string(p.m) + "x" + std::to_string(p.n) + " " +
                        std::string(name_of(launch.config.type)) + " matrix",
                    "buffers of at least M * N elements");
  });
  return with_cl_context("enqueueing transpose " + p.variant->name, [&] {
    cl::Kernel& k = launch.kernel_;
    k.setArg(0, in);
    k.setArg(1, out);
    k.setArg(2, static_cast<cl_uint>(p.m));
    k.setArg(3, static_cast<cl_uint>(p.n));
    std::vector<cl::Event> ev(with_event ? 1 : 0);
    enqueue_kernel(on ? *on : queue, k, cl::NullRange, cl::NDRange(p.groups_x * p.wg_x, p.groups_y * p.wg_y),
                   cl::NDRange(p.wg_x, p.wg_y), wait, with_event ? &ev[0] : nullptr);
    return ev;
  });
}

cl::Event Transposer::transpose(const cl::Buffer& in, const cl::Buffer& out, ElemType type, std::uint64_t m,
                                std::uint64_t n, const std::vector<cl::Event>& wait) {
  const std::shared_ptr<const TransposeLaunch> l = s_->prepare(type, m, n);
  return s_->enqueue(*l, in, out, nullptr, true, wait.empty() ? nullptr : &wait).front();
}

const DeviceInfo& Transposer::device() const { return s_->device; }
const cl::Context& Transposer::context() const { return s_->context; }
const cl::CommandQueue& Transposer::queue() const { return s_->queue; }

// ---- clreduce/introspect/transpose.hpp ----
namespace introspect {

std::shared_ptr<const TransposeLaunch> prepare(Transposer& t, ElemType type, std::uint64_t m, std::uint64_t n) {
  return Access::state(t).prepare(type, m, n);
}

std::vector<cl::Event> enqueue(Transposer& t, const TransposeLaunch& launch, const cl::Buffer& in,
                               const cl::Buffer& out, const cl::CommandQueue* on, bool with_event,
                               const std::vector<cl::Event>* wait) {
  return Access::state(t).enqueue(launch, in, out, on, with_event, wait);
}

}  // namespace introspect
}  // namespace clreduce
