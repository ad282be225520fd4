// launch_latency: where the time of one reduction "called alone and waited for" goes on an OpenCL
// device. For an empty kernel (one group) and for a clreduce variant at the given sizes, each
// measured alone (the device idle before it, as `bench`'s one-call samples), the median of R
// trials of:
//   marker      profiled marker, the work, clFinish: marker START -> work END (bench's one call),
//               marker START -> work START (the submission gap), and the marker's own QUEUED
//   kernel      the work alone: its QUEUED -> SUBMIT -> START -> END
//   flushed     marker, clFlush, the work: does the marker's time start before the work is sent?
//   stamp       an empty profiled kernel, then the work: stamp START -> work END
//   wall_finish host clock around enqueue + clFinish (profiling queue)
//   wall_event  host clock around enqueue + clWaitForEvents on the work's event
//   wall_poll   host clock around enqueue + clFlush + polling the event's status (no sleep)
//   wall_noprof host clock around enqueue + clFinish on a queue without profiling
//   pair        two copies of the work in one submission: END of the first -> START of the second
// The CUDA side of the same questions is bench/tools/cuda_latency.cu.
//   b2b         100 units back-to-back, events on the first and last only, divided (7 samples)
// --quick keeps b2b, marker, kernel alone and wall_noprof; --one-call-study measures one call by
// the host clock four ways instead (see one_call_study).
// Usage: launch_latency [--variant single_pass] [--sizes 2^20,2^24,2^26] [--reps 41] [--quick]
//        [--no-empty] [--one-call-study] [--type T] [--op O] [--wg N] [--times N | --groups-per-cu N] [--vec N] [-D X=Y ...]
//        (CLREDUCE_KERNEL_DIR or the build's kernels_cl/; the first GPU, else the first device)
#include "clreduce/device.hpp"
#include "clreduce/error.hpp"
#include "data/host_data.hpp"
#include "parse.hpp"
#include "clreduce/introspect/reduce.hpp"
#include "measure/measure.hpp"
#include "measure/session.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace clreduce;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

cl_ulong prof(const cl::Event& e, cl_profiling_info what) {
  cl_ulong t = 0;
  clGetEventProfilingInfo(e(), what, sizeof t, &t, nullptr);
  return t;
}
double us(cl_ulong a, cl_ulong b) { return (static_cast<double>(b) - static_cast<double>(a)) * 1e-3; }
double wall_us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

// Enqueues one unit of work (all its commands) on q; returns its first and last events.
// Events only when asked (a back-to-back batch carries them on its first and last unit only).
using Work = std::function<std::pair<cl::Event, cl::Event>(const cl::CommandQueue& q, bool events)>;

struct Row {
  std::string name;
  std::map<std::string, std::vector<double>> m;
};

void measure(const std::string& name, const Work& work, const cl::CommandQueue& q,
             const cl::CommandQueue& q_noprof, const cl::Kernel& empty, unsigned reps,
             const std::function<void()>& idle, bool quick) {
  Row r{name, {}};
  auto run_empty = [&](const cl::CommandQueue& qq, cl::Event* ev) {
    qq.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(32), cl::NDRange(32), nullptr, ev);
  };
  for (unsigned i = 0; i < 3; ++i) {  // warm-ups
    work(q, true);
    q.finish();
  }
  for (unsigned i = 0; i < 7; ++i) {  // back-to-back: 100 units, events on the first and last
    idle();
    cl::Event a, b;
    for (unsigned u = 0; u < 100; ++u) {
      auto [f, l] = work(q, u == 0 || u == 99);
      if (u == 0) a = f;
      if (u == 99) b = l;
    }
    q.finish();
    r.m["b2b"].push_back(us(prof(a, CL_PROFILING_COMMAND_START), prof(b, CL_PROFILING_COMMAND_END)) / 100);
  }
  for (unsigned i = 0; i < reps; ++i) {
    {  // marker
      idle();
      cl::Event mk;
      q.enqueueMarkerWithWaitList(nullptr, &mk);
      auto [a, b] = work(q, true);
      q.finish();
      r.m["marker_to_end"].push_back(us(prof(mk, CL_PROFILING_COMMAND_START), prof(b, CL_PROFILING_COMMAND_END)));
      r.m["marker_to_start"].push_back(us(prof(mk, CL_PROFILING_COMMAND_START), prof(a, CL_PROFILING_COMMAND_START)));
      r.m["marker_queued_to_start"].push_back(us(prof(mk, CL_PROFILING_COMMAND_QUEUED), prof(mk, CL_PROFILING_COMMAND_START)));
      r.m["marker_start_to_work_queued"].push_back(us(prof(mk, CL_PROFILING_COMMAND_START), prof(a, CL_PROFILING_COMMAND_QUEUED)));
    }
    {  // kernel alone
      idle();
      auto [a, b] = work(q, true);
      q.finish();
      r.m["queued_to_submit"].push_back(us(prof(a, CL_PROFILING_COMMAND_QUEUED), prof(a, CL_PROFILING_COMMAND_SUBMIT)));
      r.m["submit_to_start"].push_back(us(prof(a, CL_PROFILING_COMMAND_SUBMIT), prof(a, CL_PROFILING_COMMAND_START)));
      r.m["start_to_end"].push_back(us(prof(a, CL_PROFILING_COMMAND_START), prof(b, CL_PROFILING_COMMAND_END)));
      r.m["queued_to_end"].push_back(us(prof(a, CL_PROFILING_COMMAND_QUEUED), prof(b, CL_PROFILING_COMMAND_END)));
    }
    {  // host clock, queue without profiling
      idle();
      const auto t0 = Clock::now();
      work(q_noprof, true);
      q_noprof.finish();
      r.m["wall_noprof"].push_back(wall_us(t0, Clock::now()));
    }
    if (quick) continue;
    {  // marker, flush, work
      idle();
      cl::Event mk;
      q.enqueueMarkerWithWaitList(nullptr, &mk);
      q.flush();
      auto [a, b] = work(q, true);
      q.finish();
      r.m["flushed_marker_to_end"].push_back(us(prof(mk, CL_PROFILING_COMMAND_START), prof(b, CL_PROFILING_COMMAND_END)));
    }
    {  // an empty kernel as the stamp
      idle();
      cl::Event st;
      run_empty(q, &st);
      auto [a, b] = work(q, true);
      q.finish();
      r.m["stamp_to_end"].push_back(us(prof(st, CL_PROFILING_COMMAND_START), prof(b, CL_PROFILING_COMMAND_END)));
      r.m["stamp_end_to_start"].push_back(us(prof(st, CL_PROFILING_COMMAND_END), prof(a, CL_PROFILING_COMMAND_START)));
    }
    {  // host clock, finish
      idle();
      const auto t0 = Clock::now();
      work(q, true);
      q.finish();
      r.m["wall_finish"].push_back(wall_us(t0, Clock::now()));
    }
    {  // host clock, wait on the event
      idle();
      const auto t0 = Clock::now();
      auto [a, b] = work(q, true);
      b.wait();
      r.m["wall_event"].push_back(wall_us(t0, Clock::now()));
    }
    {  // host clock, flush and poll
      idle();
      const auto t0 = Clock::now();
      auto [a, b] = work(q, true);
      q.flush();
      cl_int st = CL_QUEUED;
      while (st != CL_COMPLETE && st >= 0)
        clGetEventInfo(b(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
      r.m["wall_poll"].push_back(wall_us(t0, Clock::now()));
    }
    {  // two in one submission
      idle();
      auto [a1, b1] = work(q, true);
      auto [a2, b2] = work(q, true);
      q.finish();
      r.m["pair_gap"].push_back(us(prof(b1, CL_PROFILING_COMMAND_END), prof(a2, CL_PROFILING_COMMAND_START)));
      r.m["pair_each"].push_back(0.5 * us(prof(a1, CL_PROFILING_COMMAND_START), prof(b2, CL_PROFILING_COMMAND_END)));
    }
  }
  std::printf("== %s (median of %u, microseconds)\n", name.c_str(), reps);
  for (auto& [k, v] : r.m) std::printf("  %-28s %9.2f   (min %.2f, max %.2f)\n", k.c_str(), median(v),
                                       *std::min_element(v.begin(), v.end()),
                                       *std::max_element(v.begin(), v.end()));
  std::fflush(stdout);
}

// One call by the host clock, four ways, round-robin so drift hits them alike (single-pass
// plans only): A the Reducer's enqueue + clFinish on the plain queue; B the same with an event,
// clFlush and polling the event's status; C a kernel whose arguments were set once (no setArg
// per call) + clFinish; D as A, waiting on the event instead. Also the host time the enqueue
// call itself takes (A) and the setArg calls alone.
void one_call_study(const Session& rt, Reducer& red, const Launch& l, const cl::Buffer& in,
                    const cl::CommandQueue& plain, unsigned reps, const std::function<void()>& idle) {
  if (l.plan.passes.size() != 1 || !l.plan.variant->single_pass)
    throw Error("--one-call-study takes a single_pass plan (one launch); " + l.plan.variant->name +
                " runs " + std::to_string(l.plan.passes.size()) + " pass(es)");
  const PassPlan& p = l.plan.passes.front();
  // The same kernel and the reducer's own partials and counter (one pass: the partials buffer is
  // the result buffer), so C's launches keep the counter's state as A's do.
  clreduce::introspect::enqueue(red, l, in, 0, &plain, false);  // the reducer's scratch buffers exist from here on
  plain.finish();
  cl::Kernel k = rt.kernel(l.plan.variant->file, l.plan.variant->kernel, p.options);
  auto set_args = [&] {
    k.setArg(0, in);
    k.setArg(1, clreduce::introspect::result_buffer(red, l));
    k.setArg(2, static_cast<cl_ulong>(p.count));
    k.setArg(3, cl_ulong{0});
    k.setArg(4, clreduce::introspect::counter_buffer(red, l));
  };
  set_args();
  auto launch = [&](cl::Event* ev) {
    plain.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(p.groups * p.wg), cl::NDRange(p.wg), nullptr, ev);
  };
  for (int w = 0; w < 3; ++w) {
    launch(nullptr);
    clreduce::introspect::enqueue(red, l, in, 0, &plain, false);
    plain.finish();
  }
  std::map<std::string, std::vector<double>> m;
  for (unsigned r = 0; r < reps; ++r) {
    idle();
    auto t0 = Clock::now();
    clreduce::introspect::enqueue(red, l, in, 0, &plain, false);
    auto t1 = Clock::now();
    plain.finish();
    m["A_reducer_finish"].push_back(wall_us(t0, Clock::now()));
    m["A_enqueue_call_only"].push_back(wall_us(t0, t1));
    idle();
    t0 = Clock::now();
    std::vector<cl::Event> ev = clreduce::introspect::enqueue(red, l, in, 0, &plain, true);
    plain.flush();
    cl_int st = CL_QUEUED;
    while (st != CL_COMPLETE && st >= 0)
      clGetEventInfo(ev.back()(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    m["B_event_poll"].push_back(wall_us(t0, Clock::now()));
    idle();
    t0 = Clock::now();
    launch(nullptr);
    plain.finish();
    m["C_args_set_once_finish"].push_back(wall_us(t0, Clock::now()));
    idle();
    t0 = Clock::now();
    ev = clreduce::introspect::enqueue(red, l, in, 0, &plain, true);
    ev.back().wait();
    m["D_event_wait"].push_back(wall_us(t0, Clock::now()));
  }
  const auto t0 = Clock::now();
  for (int i = 0; i < 1000; ++i) set_args();
  m["setArg_x5_host_only"].push_back(wall_us(t0, Clock::now()) / 1000);
  std::printf("== one call by the host clock, four ways round-robin (median of %u, microseconds)\n", reps);
  for (auto& [key, v] : m)
    std::printf("  %-28s %9.2f   (min %.2f, max %.2f)\n", key.c_str(), median(v),
                *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string variant = "single_pass", sizes = "2^20,2^24,2^26";
    unsigned reps = 41;
    bool quick = false, skip_empty = false, study = false;
    ReduceConfig base;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc) throw Error(a + " needs a value");
        return argv[++i];
      };
      if (a == "--variant") variant = next();
      else if (a == "--sizes") sizes = next();
      else if (a == "--type") base.type = parse_type(next());
      else if (a == "--op") base.op = parse_op(next());
      else if (a == "--quick") quick = true;
      else if (a == "--one-call-study") study = true;  // b2b, marker and kernel-alone figures only
      else if (a == "--no-empty") skip_empty = true;
      else if (a == "--groups-per-cu") base.groups_per_cu = static_cast<unsigned>(std::stoul(next()));
      else if (a == "--reps") reps = static_cast<unsigned>(std::stoul(next()));
      else if (a == "--wg") base.wg = std::stoul(next());
      else if (a == "--times") base.times = static_cast<unsigned>(std::stoul(next()));
      else if (a == "--vec") base.vec = static_cast<unsigned>(std::stoul(next()));
      else if (a == "-D") base.defines.push_back(parse_define(next()));
      else throw Error("unknown option " + a);
    }
    const Session rt(select_device({}));
    std::cout << "device: " << rt.device().label() << "\n";
    const cl::CommandQueue q_noprof(rt.context(), rt.context().getInfo<CL_CONTEXT_DEVICES>()[0]);
    cl::Program p(rt.context(), "__kernel void empty(__global uint* o) { if (get_global_id(0) == 1234567u) o[0] = 1u; }");
    p.build();
    cl::Kernel empty(p, "empty");
    cl::Buffer sink(rt.context(), CL_MEM_READ_WRITE, 4);
    empty.setArg(0, sink);
    cl_uint word = 0;
    auto idle = [&] { rt.queue().enqueueReadBuffer(sink, CL_TRUE, 0, 4, &word); };

    if (!skip_empty) measure("empty kernel, 1 group of 32", [&](const cl::CommandQueue& q, bool events) {
      cl::Event e;
      q.enqueueNDRangeKernel(empty, cl::NullRange, cl::NDRange(32), cl::NDRange(32), nullptr,
                             events ? &e : nullptr);
      return std::make_pair(e, e);
    }, rt.queue(), q_noprof, empty, reps, idle, quick);

    for (std::uint64_t n : parse_size_list(sizes)) {
      ReduceConfig cfg = base;
      cfg.variant = variant;
      ReducerOptions opt;
      opt.params = cfg;
      opt.tuning.enabled = false;
      Reducer red = rt.reducer(opt);
      const std::shared_ptr<const Launch> l = clreduce::introspect::prepare(red, cfg.type, cfg.op, n);
      const HostData data = generate_data(cfg.type, n, DataKind::Random, 1);
      const cl::Buffer in = upload_data(rt, data);
      std::string label = variant + " n=" + std::to_string(n) + ":";
      for (const PassPlan& ps : l->plan.passes)
        label += " [" + std::to_string(ps.groups) + "x" + std::to_string(ps.wg) + " TIMES " +
                 std::to_string(ps.times) + " VEC " + std::to_string(ps.vec) + "]";
      if (study) {
        std::printf("== %s\n", label.c_str());
        one_call_study(rt, red, *l, in, q_noprof, reps, idle);
        continue;
      }
      measure(label, [&](const cl::CommandQueue& q, bool events) {
        const bool profiled = events && q() == rt.queue()();
        std::vector<cl::Event> ev = clreduce::introspect::enqueue(red, *l, in, 0, &q, profiled);
        if (!profiled) return std::make_pair(cl::Event(), cl::Event());
        return std::make_pair(ev.front(), ev.back());
      }, rt.queue(), q_noprof, empty, reps, idle, quick);
    }
  } catch (const std::exception& e) {
    std::cerr << "launch_latency: " << e.what() << "\n";
    return 1;
  }
}
