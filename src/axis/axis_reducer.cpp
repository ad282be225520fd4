// The AxisReducer: launches resolved once per (type, op, axis, M, N) (the caller's parameters,
// then the tuning database's launch for the shape's class, then the planner's rules), cached, and
// enqueued on the queue; cols_tile's partial rows live in a scratch buffer the reducer keeps and
// reuses.
#include "reduce/tuning_source.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/introspect/axis.hpp"

#include "core/introspect_access.hpp"

#include "axis/plan.hpp"
#include "core/bound_queue.hpp"
#include "descriptor/families.hpp"
#include "clreduce/watchdog.hpp"

#include <algorithm>
#include <tuple>

namespace clreduce {

struct AxisReducer::State : BoundQueue {
  using Key = std::tuple<ElemType, Op, Axis, std::uint64_t, std::uint64_t>;
  AxisReducerOptions options;
  LaunchCache<Key, AxisLaunch> launches;
  cl::Buffer scratch;  // the first pass's partials when there are two passes (cols_fused's chunks)
  std::uint64_t scratch_bytes = 0;
  cl::Buffer tickets;  // cols_fused's counters, one per column tile: zeroed when allocated
  std::uint64_t tickets_bytes = 0;
  std::unique_ptr<FamilyReducer> families;  // the descriptor path, made on its first use
  TuningLookup tuning;  // the database, read on first use when enabled (reduce/tuning_source.hpp)

  FamilyReducer& family() {
    if (!families) families = std::make_unique<FamilyReducer>(*this, [this] { return tuning_db(); });
    return *families;
  }
  // The descriptor kernels' parameters from the reducer's AxisParams.
  FamilyParams family_params() const {
    const AxisParams& p = options.params;
    if (!p.variant.empty() && p.variant != "descriptor")
      throw ConfigError(Param::Variant,
                        "variant '" + p.variant + "' does not take a reduction descriptor; valid: descriptor (or none)",
                        "descriptor");
    return FamilyParams{p.wg, p.row_width, p.chunks, p.defines};
  }

  // As the Reducer's: the shared database when the caller gave one, else read once.
  const LoadedTuningDb* tuning_db() { return tuning.get(options.tuning); }

  // Plans `cfg` and builds its passes into `l`. A work-group nobody chose (`wg_chosen` false)
  // follows the built kernels: where one allows fewer work-items than the plan's largest group
  // (cols_stream's second pass has a group of its own), the device's limit halves for the planner
  // until they fit. A chosen size over the limit is refused (LimitError).
  void plan_and_build(AxisLaunch& l, const AxisConfig& cfg, std::uint64_t m, std::uint64_t n, bool wg_chosen,
                      const UserOperator* user_op) {
    l.config = cfg;
    const AxisVariant* named = cfg.variant.empty() ? nullptr : &find_axis_variant(cfg.variant);
    if (named ? named->runs_descriptor()
              : default_axis_variant(cfg.axis, cfg.type, cfg.op, m, n, device).runs_descriptor()) {
      // The descriptor family's launch over the operator's built-in, planned (with the database's
      // descriptor entry where it has one) and built by the family; plan_axis checks the variant
      // against the operator and the axis first.
      const AxisPlan checked = plan_axis(cfg, device, m, n);
      auto r = std::make_shared<const Reduction>(builtin_of(cfg.op, cfg.type));
      const DescriptorLaunch dl = prepare_family(*r, cfg.axis, MatrixShape{m, n, n}, family_params_of(cfg));
      l.plan = axis_plan_of(*checked.variant, m, n, dl);
      l.kernels_.clear();
      l.kernel_max_wg = dl.wg;
      l.descriptor_ = std::move(r);
      for (const std::string& w : dl.warnings)  // the family's from the same database: each said once
        if (std::find(l.warnings.begin(), l.warnings.end(), w) == l.warnings.end()) l.warnings.push_back(w);
      return;
    }
    DeviceInfo dev = device;  // its work-group limit shrinks below when the built kernel allows fewer
    for (;;) {
      l.plan = plan_axis(l.config, dev, m, n);
      l.kernels_.clear();
      std::size_t allowed = dev.max_work_group_size;
      for (const AxisPassPlan& pass : l.plan.passes) {
        l.kernels_.push_back(programs->kernel(context, device, kernel_dir.path, pass.file, pass.kernel, pass.options, user_op));
        allowed = std::min(allowed, kernel_limits(l.kernels_.back(), device.device).max_work_group_size);
      }
      l.kernel_max_wg = allowed;
      std::size_t biggest = l.plan.wg;
      for (const AxisPassPlan& pass : l.plan.passes) biggest = std::max(biggest, pass.wg_x * pass.wg_y);
      if (biggest <= allowed || (wg_chosen && l.plan.wg > allowed) || biggest == 1) {
        for (std::size_t i = 0; i < l.kernels_.size(); ++i) {
          const AxisPassPlan& pass = l.plan.passes[i];
          check_kernel_limits(pass.kernel + " (" + l.plan.launch_label() + ")", pass.wg_x * pass.wg_y,
                              kernel_limits(l.kernels_[i], device.device), device);
        }
        return;
      }
      dev.max_work_group_size = biggest / 2;
    }
  }

  // The hooks of clreduce/introspect/axis.hpp (defined below), which the reducer's calls use too.
  std::shared_ptr<const AxisLaunch> prepare(ElemType type, Op op, Axis axis, std::uint64_t m, std::uint64_t n);
  std::vector<cl::Event> enqueue(const AxisLaunch& launch, const cl::Buffer& in, const cl::Buffer& out,
                                 const cl::CommandQueue* on, bool with_events, const std::vector<cl::Event>* wait);
  DescriptorLaunch prepare(const Reduction& r, Axis axis, const MatrixShape& shape);
  // The family's launch of `r` over `shape` with `params`, and its enqueue (no checks: the callers'):
  // the descriptor API's (params from options) and the descriptor variants' (from the launch).
  DescriptorLaunch prepare_family(const Reduction& r, Axis axis, const MatrixShape& shape, const FamilyParams& params);
  cl::Event enqueue_family(const Reduction& r, const std::vector<Input>& inputs, Axis axis, const MatrixShape& shape,
                           const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                           const FamilyParams& params, const cl::CommandQueue* on, const std::vector<cl::Event>& wait,
                           bool with_event);
  cl::Event enqueue(const Reduction& r, const std::vector<Input>& inputs, Axis axis, const MatrixShape& shape,
                    const cl::Buffer& out, std::uint64_t out_index, const std::vector<ScalarArg>& scalars,
                    const cl::CommandQueue* on, const std::vector<cl::Event>& wait, bool with_event = true);
};

AxisReducer::AxisReducer(const cl::CommandQueue& queue, AxisReducerOptions options) : s_(std::make_unique<State>()) {
  static_cast<BoundQueue&>(*s_) = bind_queue(queue, options.device, options.kernel_dir, options.programs, "axis reducer");
  s_->options = std::move(options);
}

AxisReducer::AxisReducer(cl_command_queue queue, AxisReducerOptions options)
    : AxisReducer(cl::CommandQueue(queue, /*retainObject=*/true), std::move(options)) {}

AxisReducer::AxisReducer(AxisReducer&&) noexcept = default;
AxisReducer& AxisReducer::operator=(AxisReducer&&) noexcept = default;
AxisReducer::~AxisReducer() = default;

std::shared_ptr<const AxisLaunch> AxisReducer::State::prepare(ElemType type, Op op, Axis axis, std::uint64_t m,
                                                              std::uint64_t n) {
  const State::Key key{type, op, axis, m, n};
  if (std::shared_ptr<AxisLaunch> cached = launches.find(key)) return cached;
  const UserOperator* user_op = user_operator_for(op, type, options.user_op);  // refusals first
  auto l = std::make_shared<AxisLaunch>();
  AxisConfig cfg;
  static_cast<AxisParams&>(cfg) = options.params;
  cfg.type = type;
  cfg.op = op;
  cfg.axis = axis;
  cfg = with_caller_options(cfg);  // a -D WG_SIZE or ROW_WIDTH is the caller's choice for the tuning database too
  l->shape_class = shape_class_of(axis, m, n, size_of(type), device.compute_units);
  l->chosen_by = cfg.variant.empty() ? "default rule" : "given";
  bool done = false;
  if (const LoadedTuningDb* db = tuning_db()) {
    l->warnings = db->warnings;
    TunedAxisLookup found = find_tuned_axis(*db, device_key(device), {type, op, axis, l->shape_class});
    for (auto& w : found.warnings) l->warnings.push_back(std::move(w));
    std::vector<std::string> filled;
    std::optional<AxisConfig> tuned;
    if (found.entry) {
      try {
        tuned = tuned_axis_config(cfg, *found.entry, device, m, n, filled);
      } catch (const ConfigError&) {
        tuned.reset();  // not a variant that splits: the reader refuses that; a hand-built db may not
      }
    }
    if (tuned && !filled.empty()) {
      // A tuned launch the device or the built kernel refuses is said and left for the rules.
      try {
        plan_and_build(*l, *tuned, m, n, tuned->wg.has_value(), user_op);
        l->chosen_by = "tuned";
        l->tuned = filled;
        l->tuned_date = found.entry->date;
        l->tuned_from = db->path;
        done = true;
      } catch (const LimitError& e) {  // a ConfigError too: first
        l->warnings.push_back("the tuned launch of class " + l->shape_class + " (" + found.entry->launch_label() +
                              ") does not fit the built kernel (" + e.what() + "); the default rule is used");
      } catch (const ConfigError& e) {
        l->warnings.push_back("the tuned launch of class " + l->shape_class + " (" + found.entry->launch_label() +
                              ") does not plan here (" + e.what() + "); the default rule is used");
      }
    }
  }
  if (!done) plan_and_build(*l, cfg, m, n, cfg.wg.has_value(), user_op);
  l->config.variant = l->plan.variant->name;
  l->owner_ = serial;
  launches.insert(key, l);
  return l;
}

std::vector<cl::Event> AxisReducer::State::enqueue(const AxisLaunch& launch, const cl::Buffer& in, const cl::Buffer& out,
                                                   const cl::CommandQueue* on, bool with_events,
                                                   const std::vector<cl::Event>* wait) {
  check_owner(launch.owner_, "axis reducer");
  const AxisPlan& p = launch.plan;
  const std::uint64_t es = size_of(launch.config.type);
  const std::uint64_t rs = result_size(launch.config.type, launch.config.op);  // an output value (or ArgValue)
  const std::uint64_t in_bytes = p.m * p.n * es, out_bytes = p.outputs() * rs;
  with_cl_context("querying the buffers' sizes", [&] {
    if (in.getInfo<CL_MEM_SIZE>() < in_bytes)
      throw Error(Param::Buffer,
                  "the input buffer holds " + std::to_string(in.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(in_bytes) + " of a " + std::to_string(p.m) + "x" + std::to_string(p.n) + " " +
                      std::string(name_of(launch.config.type)) + " matrix",
                  "a buffer of at least M * N elements");
    if (out.getInfo<CL_MEM_SIZE>() < out_bytes)
      throw Error(Param::Buffer,
                  "the output buffer holds " + std::to_string(out.getInfo<CL_MEM_SIZE>()) + " bytes, fewer than the " +
                      std::to_string(out_bytes) + " of " + std::to_string(p.outputs()) + " " +
                      std::string(name_of(launch.config.type)) +
                      (is_arg_op(launch.config.op) ? " (value, index) pairs of 16 bytes (one per " : " values (one per ") +
                      (p.axis == Axis::Rows ? "row" : "column") + ")",
                  p.axis == Axis::Rows ? "a buffer of at least M elements" : "a buffer of at least N elements");
  });
  if (launch.descriptor_) {
    // rows_descriptor, cols_descriptor: the family's enqueue of the built-in over `in` (offset 0),
    // whose buffers were checked above.
    const std::vector<cl::Event> none;
    cl::Event ev = enqueue_family(*launch.descriptor_, {Input{in, 0}}, p.axis, MatrixShape{p.m, p.n, p.n}, out, 0, {},
                                  family_params_of(launch.config), on, wait ? *wait : none, with_events);
    std::vector<cl::Event> events;
    if (with_events) events.push_back(ev);
    return events;
  }
  const AxisPassPlan& first = p.passes.front();
  if (p.passes.size() > 1 || first.fused_partials) {
    const std::uint64_t bytes = (first.fused_partials ? first.fused_partials : first.values_out) * rs;
    if (bytes > scratch_bytes)
      with_cl_context("allocating " + std::to_string(bytes) + " bytes for the row chunks' partials", [&] {
        scratch = cl::Buffer(context, CL_MEM_READ_WRITE, bytes);
        scratch_bytes = bytes;
      });
  }
  if (first.tickets && first.tickets * 4 > tickets_bytes) {
    // Each launch leaves every counter at 0, so they are zeroed once, here, when allocated.
    const std::uint64_t bytes = first.tickets * 4;
    with_cl_context("allocating and zeroing " + std::to_string(bytes) + " bytes of column-tile tickets", [&] {
      cl::Buffer b(context, CL_MEM_READ_WRITE, bytes);
      const std::vector<cl_uint> zeros(first.tickets, 0);
      queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, zeros.data());
      tickets = b;
      tickets_bytes = bytes;
    });
  }
  return with_cl_context("enqueueing axis reduction " + p.variant->name, [&] {
    std::vector<cl::Event> events;
    const cl::CommandQueue& q = on ? *on : queue;
    for (std::size_t i = 0; i < p.passes.size(); ++i) {
      const AxisPassPlan& a = p.passes[i];
      cl::Kernel& k = launch.kernels_[i];
      const bool last = i + 1 == p.passes.size();
      k.setArg(0, i == 0 ? in : scratch);
      k.setArg(1, last ? out : scratch);
      k.setArg(2, static_cast<cl_uint>(a.m));
      k.setArg(3, static_cast<cl_uint>(a.n));
      if (a.chunk_len) k.setArg(4, static_cast<cl_uint>(a.chunk_len));
      if (a.fused_partials) {
        k.setArg(5, scratch);
        k.setArg(6, tickets);
      }
      cl::Event ev;
      const std::vector<cl::Event>* after = i == 0 ? wait : nullptr;
      enqueue_kernel(q, k, cl::NullRange, cl::NDRange(a.groups_x * a.wg_x, a.groups_y * a.wg_y),
                             cl::NDRange(a.wg_x, a.wg_y), after, with_events ? &ev : nullptr);
      if (with_events) events.push_back(ev);
    }
    return events;
  });
}

cl::Event AxisReducer::reduce(const cl::Buffer& in, const cl::Buffer& out, ElemType type, Op op, Axis axis,
                              std::uint64_t m, std::uint64_t n, const std::vector<cl::Event>& wait) {
  const std::shared_ptr<const AxisLaunch> l = s_->prepare(type, op, axis, m, n);
  return s_->enqueue(*l, in, out, nullptr, true, wait.empty() ? nullptr : &wait).back();
}

namespace {
void check_shape(const MatrixShape& shape) {
  if (shape.rows == 0 || shape.cols == 0)
    throw ConfigError(Param::Shape,
                      "a " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
                          " matrix: an axis reduction needs at least one row and one column",
                      "rows >= 1 and cols >= 1");
  if (shape.ld && shape.ld < shape.cols)
    throw ConfigError(Param::Shape,
                      "leading dimension " + std::to_string(shape.ld) + " below the " + std::to_string(shape.cols) +
                          " columns: rows would overlap",
                      "ld 0 (dense) or ld >= cols");
  if (shape.rows > 1 && shape.stride() > (~std::uint64_t{0} - shape.cols) / (shape.rows - 1))
    throw ConfigError(Param::Shape, "a matrix of " + std::to_string(shape.rows) + " rows " +
                                        std::to_string(shape.stride()) + " elements apart: past 2^64 elements",
                      "a matrix within one buffer");
}
}  // namespace

DescriptorLaunch AxisReducer::State::prepare_family(const Reduction& r, Axis axis, const MatrixShape& shape,
                                                    const FamilyParams& params) {
  if (axis == Axis::Cols) return family().prepare_columns(r, shape.rows, shape.cols, shape.stride(), params);
  const LineShape lines{LineKind::Rows, shape.rows, shape.cols, shape.cols, Scalar::U64};
  return family().prepare_lines(r, lines, params);
}

cl::Event AxisReducer::State::enqueue_family(const Reduction& r, const std::vector<Input>& inputs, Axis axis,
                                             const MatrixShape& shape, const cl::Buffer& out, std::uint64_t out_index,
                                             const std::vector<ScalarArg>& scalars, const FamilyParams& params,
                                             const cl::CommandQueue* on, const std::vector<cl::Event>& wait,
                                             bool with_event) {
  if (axis == Axis::Cols)
    return family().columns(r, inputs, shape.rows, shape.cols, shape.stride(), out, out_index, scalars, wait, params,
                            on, with_event);
  const LineShape lines{LineKind::Rows, shape.rows, shape.cols, shape.cols, Scalar::U64};
  return family().lines(r, inputs, lines, shape.span(), nullptr, nullptr, shape.stride(), shape.cols, out, out_index,
                        scalars, wait, params, on, with_event);
}

DescriptorLaunch AxisReducer::State::prepare(const Reduction& r, Axis axis, const MatrixShape& shape) {
  check_shape(shape);
  return prepare_family(r, axis, shape, family_params());
}

cl::Event AxisReducer::reduce_to(const Reduction& r, const std::vector<Input>& inputs, Axis axis,
                                 const MatrixShape& shape, const cl::Buffer& out, std::uint64_t out_index,
                                 const std::vector<ScalarArg>& scalars, const std::vector<cl::Event>& wait) {
  return s_->enqueue(r, inputs, axis, shape, out, out_index, scalars, nullptr, wait);
}

cl::Event AxisReducer::State::enqueue(const Reduction& r, const std::vector<Input>& inputs, Axis axis,
                                      const MatrixShape& shape, const cl::Buffer& out, std::uint64_t out_index,
                                      const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                                      const std::vector<cl::Event>& wait, bool with_event) {
  check_call(r, inputs, scalars);
  check_shape(shape);
  const std::string what = "a " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) + " matrix, ld " +
                           std::to_string(shape.stride());
  for (std::size_t j = 0; j < inputs.size(); ++j) check_input_span(r, inputs, j, shape.span(), what);
  const std::uint64_t results = axis == Axis::Rows ? shape.rows : shape.cols;
  check_output(r, out, out_index, results);
  return enqueue_family(r, inputs, axis, shape, out, out_index, scalars, family_params(), on, wait, with_event);
}

std::vector<Result> AxisReducer::reduce(const Reduction& r, const std::vector<Input>& inputs, Axis axis,
                                        const MatrixShape& shape, const std::vector<ScalarArg>& scalars) {
  check_shape(shape);
  const std::uint64_t results = axis == Axis::Rows ? shape.rows : shape.cols;
  const cl::Buffer out = s_->family().result_buffer(r, results);
  s_->enqueue(r, inputs, axis, shape, out, 0, scalars, nullptr, {}, false);  // the blocking read orders it
  return s_->family().read(r, out, results);
}

std::vector<Result> AxisReducer::reduce(const Reduction& r, const std::vector<const void*>& inputs, Axis axis,
                                        const MatrixShape& shape, const std::vector<ScalarArg>& scalars) {
  check_shape(shape);
  check_counts(r, inputs.size(), scalars.size());
  s_->prepare(r, axis, shape);  // every refusal of the launch before any copy
  return reduce(r, upload_host_inputs(s_->context, s_->queue, s_->device, r, inputs, shape.span()), axis, shape,
                scalars);
}

const DeviceInfo& AxisReducer::device() const { return s_->device; }
const cl::Context& AxisReducer::context() const { return s_->context; }
const cl::CommandQueue& AxisReducer::queue() const { return s_->queue; }

// ---- clreduce/introspect/axis.hpp ----
namespace introspect {

std::shared_ptr<const AxisLaunch> prepare(AxisReducer& r, ElemType type, Op op, Axis axis, std::uint64_t m,
                                          std::uint64_t n) {
  return Access::state(r).prepare(type, op, axis, m, n);
}

std::vector<cl::Event> enqueue(AxisReducer& r, const AxisLaunch& launch, const cl::Buffer& in, const cl::Buffer& out,
                               const cl::CommandQueue* on, bool with_events, const std::vector<cl::Event>* wait) {
  return Access::state(r).enqueue(launch, in, out, on, with_events, wait);
}

DescriptorLaunch prepare(AxisReducer& r, const Reduction& d, Axis axis, const MatrixShape& shape) {
  return Access::state(r).prepare(d, axis, shape);
}

cl::Event enqueue(AxisReducer& r, const Reduction& d, const std::vector<Input>& inputs, Axis axis,
                  const MatrixShape& shape, const cl::Buffer& out, std::uint64_t out_index,
                  const std::vector<ScalarArg>& scalars, const cl::CommandQueue* on,
                  const std::vector<cl::Event>& wait, bool with_event) {
  return Access::state(r).enqueue(d, inputs, axis, shape, out, out_index, scalars, on, wait, with_event);
}

}  // namespace introspect
}  // namespace clreduce
