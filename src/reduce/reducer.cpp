// The Reducer: the one place a launch is resolved (given parameters, then the tuning database,
// then the device's default policy, then the device's and the kernel's limits), the cache of
// resolved launches, the scratch buffers they share, and the enqueueing of their passes.
#include "reduce/tuning_source.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/introspect/reduce.hpp"
#include "core/introspect_access.hpp"

#include "core/bound_queue.hpp"
#include "reduce/apply_tuned.hpp"
#include "reduce/descriptor_launch.hpp"
#include "reduce/plan.hpp"
#include "reduce/policy.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <cstdint>

namespace clreduce {

namespace {
// Offsets are cached by their remainder modulo the widest vector (16 elements): the alignment of
// the first pass's vector loads is all an offset changes in a launch.
constexpr std::uint64_t kOffsetClasses = 16;
}  // namespace

std::vector<std::string> apply_tuned(const TunedParams& tuned, ReduceParams& cfg) {
  std::vector<std::string> filled;
  if (cfg.wg == 0 && tuned.wg != 0) {
    cfg.wg = tuned.wg;
    filled.push_back("wg=" + std::to_string(tuned.wg));
  }
  if (!cfg.vec && tuned.vec) {
    cfg.vec = tuned.vec;
    filled.push_back("vec=" + std::to_string(*tuned.vec));
  }
  if (!cfg.times && !cfg.groups_per_cu) {
    if (tuned.times) {
      cfg.times = tuned.times;
      filled.push_back("times=" + std::to_string(*tuned.times));
    } else if (tuned.groups_per_cu) {
      cfg.groups_per_cu = tuned.groups_per_cu;
      filled.push_back("groups_per_cu=" + std::to_string(*tuned.groups_per_cu));
    }
  }
  return filled;
}

struct Reducer::State : BoundQueue {
  using Key = std::tuple<ElemType, Op, std::uint64_t, std::uint64_t>;  // type, op, n, offset class

  ReducerOptions options;
  TuningLookup tuning;  // the database, read on first use when enabled (reduce/tuning_source.hpp)

  // Scratch shared by every launch: the two partial-result buffers passes alternate between; the
  // ticket counter of single_pass (one word, zeroed once; every launch leaves it at 0); the epoch
  // and 64-bit slots of single_pass's slot finish (zeroed when allocated; each launch stores the
  // epoch it used, so launches of any size may follow each other).
  cl::Buffer partials[2];
  std::uint64_t partial_bytes[2] = {0, 0};
  cl::Buffer ticket;
  cl::Buffer slots;
  std::uint64_t slot_groups = 0;
  std::size_t allocations = 0;
  std::size_t prepared = 0;

  LaunchCache<Key, Launch> launches;
  std::unique_ptr<DescriptorReducer> descriptors;  // the descriptor path, made on its first use

  DescriptorReducer& descriptor_reducer() {
    if (!descriptors)
      descriptors = std::make_unique<DescriptorReducer>(*this, options.params, [this] { return tuning_db(); });
    return *descriptors;
  }

  const LoadedTuningDb* tuning_db() { return tuning.get(options.tuning); }

  cl::Buffer allocate(std::uint64_t bytes, const std::string& what) {
    ++allocations;
    return with_cl_context("allocating " + what, [&] {
      return cl::Buffer(context, CL_MEM_READ_WRITE, std::max<std::uint64_t>(bytes, 16));
    });
  }

  void zero(const cl::Buffer& b, std::uint64_t bytes, const std::string& what) {
    const std::vector<unsigned char> zeros(bytes, 0);
    with_cl_context("zeroing " + what, [&] { queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, zeros.data()); });
  }

  // Builds every pass's kernel; returns the smallest work-group limit the built kernels report
  // (CL_KERNEL_WORK_GROUP_SIZE) and checks their local memory (LimitError). `preferred` gets the
  // first pass's preferred work-group multiple.
  std::size_t build(Launch& l, std::size_t& preferred) {
    l.kernels_.clear();
    std::size_t allowed = SIZE_MAX;
    preferred = 1;
    for (const PassPlan& pass : l.plan.passes) {
      cl::Kernel k = programs->kernel(context, device, kernel_dir.path, l.plan.variant->file,
                                      l.plan.variant->kernel, pass.options, options.user_op.get());
      const KernelLimits lim = kernel_limits(k, device.device);
      allowed = std::min(allowed, lim.max_work_group_size);
      if (l.kernels_.empty()) preferred = lim.preferred_multiple;
      check_kernel_limits(l.plan.variant->name, pass.wg, KernelLimits{pass.wg, lim.local_mem_bytes}, device);
      l.kernels_.push_back(k);
    }
    return allowed;
  }

  // Plans and builds `cfg`; every error propagates. A work-group size nobody chose (cfg.wg 0: the
  // default) follows the built kernel: where the kernel allows fewer work-items than the default
  // (Rusticl's llvmpipe: 32 for every kernel), it is planned and built again at the largest power
  // of two the kernel allows. A variant whose default follows the kernel (Variant::wg_from_kernel)
  // is planned and built again at the kernel's preferred multiple. A chosen one over the kernel's
  // limit is refused (LimitError).
  void plan_and_build(Launch& l, const ReduceConfig& cfg) {
    ReduceConfig c = cfg;
    for (;;) {
      l.config = c;
      l.plan = plan_reduction(c, device, l.n, l.offset);
      const std::size_t wg = l.plan.passes.front().wg;
      std::size_t preferred = 1;
      const std::size_t allowed = build(l, preferred);
      l.kernel_max_wg = allowed;
      if (cfg.wg == 0 && c.wg == 0 && l.plan.variant->wg_from_kernel) {
        std::size_t w = 1;
        while (w * 2 <= std::min(preferred, allowed)) w *= 2;
        if (w > wg) {
          c.wg = w;
          continue;
        }
      }
      if (wg <= allowed) return;
      if (cfg.wg != 0 || allowed < 1) {
        check_kernel_limits(l.plan.variant->name, wg, KernelLimits{allowed, 0}, device);
        return;
      }
      std::size_t fit = 1;
      while (fit * 2 <= allowed) fit *= 2;
      c.wg = fit;
    }
  }

  std::shared_ptr<Launch> resolve(ElemType type, Op op, std::uint64_t n, std::uint64_t offset) {
    auto l = std::make_shared<Launch>();
    l->n = n;
    l->offset = offset;
    l->owner_ = serial;
    user_operator_for(op, type, options.user_op);  // refusals first
    ReduceConfig cfg;
    static_cast<ReduceParams&>(cfg) = options.params;
    cfg.type = type;
    cfg.op = op;
    const LoadedTuningDb* db = tuning_db();
    if (db) l->warnings = db->warnings;

    // The variant: the caller's, else the tuning database's best for (device, type, op), else the
    // device's default policy.
    const TuningEntry* entry = nullptr;
    if (db) {
      TunedLookup any = find_tuned(*db, device, type, op, "");
      entry = any.entry;
      for (auto& w : any.warnings) l->warnings.push_back(std::move(w));
    }
    if (!cfg.variant.empty()) {
      cfg.variant = find_variant(cfg.variant).name;
      l->chosen_by = "given";
    } else if (entry && !entry->best_variant.empty() &&
               std::any_of(variants().begin(), variants().end(), [&](const Variant& v) {
                 return v.name == entry->best_variant && v.unavailable_reason(device).empty();
               })) {
      cfg.variant = entry->best_variant;
      l->chosen_by = "tuning database";
    } else {
      const ReducePolicy& policy = default_policy(device, type);
      cfg.variant = policy.variant;
      l->chosen_by = policy.name;
    }

    // A caller's -D WG_SIZE, TIMES or VEC is a choice, as its option would be.
    cfg = with_caller_values(find_variant(cfg.variant), cfg);

    // Tuned parameters fill what the caller left unset, if the device and kernel accept them.
    if (db && entry) {
      if (auto it = entry->variants.find(cfg.variant); it != entry->variants.end()) {
        ReduceConfig tuned = cfg;
        const std::vector<std::string> filled = apply_tuned(it->second.params, tuned);
        if (!filled.empty()) {
          try {
            plan_and_build(*l, tuned);
            l->tuned = filled;
            l->tuned_from = db->path;
            return l;
          } catch (const ConfigError& e) {
            l->warnings.push_back("the tuned parameters of " + cfg.variant + " (" + join(filled) +
                                  ") do not plan here (" + e.what() + "); its defaults are used");
          }
        }
      }
    }
    plan_and_build(*l, cfg);
    return l;
  }

  void check_owner(const Launch& launch) const { BoundQueue::check_owner(launch.owner_, "reducer"); }

  // The hooks of clreduce/introspect/reduce.hpp (defined below the State).
  std::shared_ptr<const Launch> prepare(ElemType type, Op op, std::uint64_t n, std::uint64_t offset);
  std::vector<cl::Event> enqueue(const Launch& launch, const cl::Buffer& in, std::uint64_t offset,
                                 const cl::CommandQueue* on, bool with_events, const std::vector<cl::Event>* wait);
  cl::Buffer result_buffer(const Launch& launch) const;
  Value read_result(const Launch& launch, const cl::CommandQueue* on);

  void ensure_scratch(const Launch& l) {
    const std::uint64_t es = size_of(l.config.type);
    std::uint64_t need[2] = {1, 1};
    for (std::size_t p = 0; p < l.plan.passes.size(); ++p)
      need[p % 2] = std::max(need[p % 2], l.plan.passes[p].groups);
    for (int i = 0; i < 2; ++i)
      if (need[i] * es > partial_bytes[i]) {
        partial_bytes[i] = std::max(need[i] * es, 2 * partial_bytes[i]);
        partials[i] = allocate(partial_bytes[i], "partial results");
      }
    if (!l.plan.variant->single_pass) return;
    if (l.plan.slots) {
      const std::uint64_t groups = l.plan.passes.front().groups;
      if (groups > slot_groups) {
        slot_groups = std::max(groups, 2 * slot_groups);
        // The epoch, padding to 16 bytes, one 64-bit slot per group (kernels_cl/single_pass.cl).
        const std::uint64_t bytes = 16 + 8 * slot_groups;
        slots = allocate(bytes, "single_pass's slots");
        zero(slots, bytes, "single_pass's slots");
      }
    } else if (!ticket()) {
      ticket = allocate(16, "single_pass's ticket counter");
      zero(ticket, 16, "single_pass's ticket counter");
    }
  }
};

Reducer::Reducer(const cl::CommandQueue& queue, ReducerOptions options) : s_(std::make_unique<State>()) {
  static_cast<BoundQueue&>(*s_) = bind_queue(queue, options.device, options.kernel_dir, options.programs, "reducer");
  s_->options = std::move(options);
}

Reducer::Reducer(cl_command_queue queue, ReducerOptions options)
    : Reducer(cl::CommandQueue(queue, /*retainObject=*/true), std::move(options)) {}

Reducer::Reducer(Reducer&&) noexcept = default;
Reducer& Reducer::operator=(Reducer&&) noexcept = default;
Reducer::~Reducer() = default;

std::shared_ptr<const Launch> Reducer::State::prepare(ElemType type, Op op, std::uint64_t n, std::uint64_t offset) {
  const State::Key key{type, op, n, offset % kOffsetClasses};
  if (std::shared_ptr<Launch> cached = launches.find(key)) return cached;
  std::shared_ptr<Launch> l = resolve(type, op, n, offset);
  ++prepared;
  launches.insert(key, l);
  return l;
}

std::vector<cl::Event> Reducer::State::enqueue(const Launch& launch, const cl::Buffer& in, std::uint64_t offset,
                                               const cl::CommandQueue* on, bool with_events,
                                               const std::vector<cl::Event>* wait) {
  check_owner(launch);
  if (offset % kOffsetClasses != launch.offset % kOffsetClasses)
    throw Error(Param::Offset,
                "offset " + std::to_string(offset) + " has another alignment than the " +
                    std::to_string(launch.offset) + " the launch was prepared for; prepare the launch for this offset",
                "an offset congruent to " + std::to_string(launch.offset % kOffsetClasses) + " modulo 16");
  const std::uint64_t es = size_of(launch.config.type);
  if (const std::uint64_t have = buffer_bytes(in); (offset + launch.n) * es > have)
    throw Error(Param::Buffer,
                "the input buffer holds " + std::to_string(have) + " bytes, fewer than the " +
                    std::to_string((offset + launch.n) * es) + " that " + std::to_string(launch.n) + " " +
                    std::string(name_of(launch.config.type)) + " elements from offset " +
                    std::to_string(offset) + " need",
                "a buffer of at least (offset + n) elements");
  ensure_scratch(launch);
  const cl::CommandQueue& q = on ? *on : queue;
  const Plan& plan = launch.plan;
  return with_cl_context("enqueueing " + plan.variant->name, [&] {
    std::vector<cl::Event> events(with_events ? plan.passes.size() : 0);
    for (std::size_t p = 0; p < plan.passes.size(); ++p) {
      const PassPlan& pass = plan.passes[p];
      cl::Kernel& k = launch.kernels_[p];
      k.setArg(0, p == 0 ? in : partials[(p - 1) % 2]);
      k.setArg(1, partials[p % 2]);
      k.setArg(2, static_cast<cl_ulong>(pass.count));
      k.setArg(3, static_cast<cl_ulong>(p == 0 ? offset : 0));
      if (pass.last_group_finishes) k.setArg(4, plan.slots ? slots : ticket);
      enqueue_kernel(q, k, cl::NullRange, cl::NDRange(pass.groups * pass.wg), cl::NDRange(pass.wg),
                             p == 0 ? wait : nullptr, with_events ? &events[p] : nullptr);
    }
    return events;
  });
}

cl::Buffer Reducer::State::result_buffer(const Launch& launch) const {
  check_owner(launch);
  return partials[(launch.plan.passes.size() - 1) % 2];
}

Value Reducer::State::read_result(const Launch& launch, const cl::CommandQueue* on) {
  const cl::CommandQueue& q = on ? *on : queue;
  return with_cl_context("reading the result", [&] {
    unsigned char bytes[8] = {};
    q.enqueueReadBuffer(result_buffer(launch), CL_TRUE, 0, size_of(launch.config.type), bytes);
    return Value::from_bytes(launch.config.type, bytes);
  });
}

Value Reducer::reduce(const cl::Buffer& in, ElemType type, std::uint64_t n, Op op, std::uint64_t offset) {
  const std::shared_ptr<const Launch> l = s_->prepare(type, op, n, offset);
  s_->enqueue(*l, in, offset, nullptr, false, nullptr);
  return s_->read_result(*l, nullptr);
}

cl::Event Reducer::reduce_to(const cl::Buffer& in, ElemType type, std::uint64_t n, Op op, const cl::Buffer& out,
                             std::uint64_t out_index, std::uint64_t offset, const std::vector<cl::Event>& wait) {
  const std::uint64_t es = size_of(type);
  if (const std::uint64_t have = buffer_bytes(out); (out_index + 1) * es > have)
    throw Error(Param::Buffer,
                "the output buffer holds " + std::to_string(have) + " bytes, too few for element " +
                    std::to_string(out_index) + " of " + std::string(name_of(type)),
                "an output buffer of at least out_index + 1 elements");
  const std::shared_ptr<const Launch> l = s_->prepare(type, op, n, offset);
  s_->enqueue(*l, in, offset, nullptr, false, wait.empty() ? nullptr : &wait);
  cl::Event copied;
  with_cl_context("copying the result into the output buffer", [&] {
    s_->queue.enqueueCopyBuffer(s_->result_buffer(*l), out, 0, out_index * es, es, nullptr, &copied);
  });
  return copied;
}

Result Reducer::reduce(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                       const std::vector<ScalarArg>& scalars) {
  return s_->descriptor_reducer().reduce(r, inputs, n, scalars);
}

cl::Event Reducer::reduce_to(const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                             const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                             const std::vector<cl::Event>& wait) {
  return s_->descriptor_reducer().enqueue(r, inputs, n, out, out_index, scalars, wait);
}



const DeviceInfo& Reducer::device() const { return s_->device; }
const cl::Context& Reducer::context() const { return s_->context; }
const cl::CommandQueue& Reducer::queue() const { return s_->queue; }
const KernelDir& Reducer::kernel_dir() const { return s_->kernel_dir; }
const ReducerOptions& Reducer::options() const { return s_->options; }

// ---- clreduce/introspect/reduce.hpp ----
namespace introspect {

std::shared_ptr<const Launch> prepare(Reducer& r, ElemType type, Op op, std::uint64_t n, std::uint64_t offset) {
  return Access::state(r).prepare(type, op, n, offset);
}

DescriptorLaunch prepare(Reducer& r, const Reduction& d, std::uint64_t n) {
  return Access::state(r).descriptor_reducer().prepare(d, n);
}

std::vector<cl::Event> enqueue(Reducer& r, const Launch& launch, const cl::Buffer& in, std::uint64_t offset,
                               const cl::CommandQueue* on, bool with_events, const std::vector<cl::Event>* wait) {
  return Access::state(r).enqueue(launch, in, offset, on, with_events, wait);
}

cl::Event enqueue(Reducer& r, const Reduction& d, const std::vector<Input>& inputs, std::uint64_t n,
                  const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                  const cl::CommandQueue* on, const std::vector<cl::Event>& wait, bool with_event) {
  return Access::state(r).descriptor_reducer().enqueue(d, inputs, n, out, out_index, scalars, wait, on, with_event);
}

Value read_result(Reducer& r, const Launch& launch, const cl::CommandQueue* on) {
  return Access::state(r).read_result(launch, on);
}

cl::Buffer result_buffer(const Reducer& r, const Launch& launch) { return Access::state(r).result_buffer(launch); }

cl::Buffer counter_buffer(const Reducer& r, const Launch& launch) {
  const auto& s = Access::state(r);
  s.check_owner(launch);
  if (!launch.plan.variant->single_pass) return cl::Buffer();
  return launch.plan.slots ? s.slots : s.ticket;
}

std::size_t allocations(const Reducer& r) {
  const auto& s = Access::state(r);
  return s.allocations + (s.descriptors ? s.descriptors->allocations() : 0);
}

std::size_t launches_prepared(const Reducer& r) { return Access::state(r).prepared; }

}  // namespace introspect
}  // namespace clreduce
