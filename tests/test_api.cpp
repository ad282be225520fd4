// The library through its public headers alone (clreduce.hpp, and introspect.hpp for the launch
// a reducer resolves; this file includes nothing of src/ or tools/ and links only clreduce::clreduce): a user's context, queue and buffers, every type and operator
// from an offset, the asynchronous form chained with the user's own kernel, programs and buffers
// reused across calls, two reducers on two queues of one context, host data, transposes of user
// buffers, and errors that name their parameter. The host references are computed here.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <clreduce/clreduce.hpp>
#include <clreduce/introspect.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>
#include <type_traits>
#include <vector>

using namespace clreduce;

namespace {
// The entrance classes carry no measuring hooks: those are free functions of clreduce::introspect
// (clreduce/introspect.hpp). callable<Call, R, A...> is true when Call<R, A...> (r.prepare(a...),
// r.enqueue(a...)) compiles, probed with the arguments each hook takes.
template <class Void, template <class...> class Call, class... T>
struct callable_t : std::false_type {};
template <template <class...> class Call, class... T>
struct callable_t<std::void_t<Call<T...>>, Call, T...> : std::true_type {};
template <template <class...> class Call, class... T>
constexpr bool callable = callable_t<void, Call, T...>::value;
template <class R, class... A>
using prepare_call = decltype(std::declval<R&>().prepare(std::declval<A>()...));
template <class R, class... A>
using enqueue_call = decltype(std::declval<R&>().enqueue(std::declval<A>()...));
template <class R, class... A>
constexpr bool callable_prepare = callable<prepare_call, R, A...>;
template <class R, class... A>
constexpr bool callable_enqueue = callable<enqueue_call, R, A...>;
using U64 = std::uint64_t;
static_assert(!callable_prepare<Reducer, ElemType, Op, U64> && !callable_prepare<Reducer, const Reduction&, U64> &&
              !callable_enqueue<Reducer, const Launch&, const cl::Buffer&>);
static_assert(!callable_prepare<AxisReducer, ElemType, Op, Axis, U64, U64> &&
              !callable_enqueue<AxisReducer, const AxisLaunch&, const cl::Buffer&, const cl::Buffer&>);
static_assert(!callable_prepare<SegmentedReducer, ElemType, Op, U64, U64> &&
              !callable_enqueue<SegmentedReducer, const SegmentedLaunch&, const cl::Buffer&, const cl::Buffer&,
                                const cl::Buffer&>);
static_assert(!callable_prepare<Transposer, ElemType, U64, U64> &&
              !callable_enqueue<Transposer, const TransposeLaunch&, const cl::Buffer&, const cl::Buffer&>);
// The probes find a hook where there is one: the free functions, through a wrapper of that shape.
struct Hooked {
  Reducer& r;
  auto prepare(ElemType t, Op op, U64 n) { return introspect::prepare(r, t, op, n); }
};
static_assert(callable_prepare<Hooked, ElemType, Op, U64> && !callable_prepare<Hooked, ElemType>);

// The application's own OpenCL objects on the default device.
struct App {
  DeviceInfo info = select_device({});
  cl::Context context{info.device};
  cl::CommandQueue queue{context, info.device};
};
App& app() {
  static App a;
  return a;
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng));
    else x = static_cast<T>(rng());
  }
  return v;
}

template <class T>
cl::Buffer buffer_of(const std::vector<T>& v) {
  return cl::Buffer(app().context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(T),
                    const_cast<T*>(v.data()));
}

// The host reference of elements [first, first + n): integer sums wrap modulo 2^32 (int sums are
// computed on the same bits), float sums in long double.
template <class T>
long double reference(const std::vector<T>& v, std::size_t first, std::size_t n, Op op) {
  if (op == Op::Min) return static_cast<long double>(*std::min_element(v.begin() + first, v.begin() + first + n));
  if (op == Op::Max) return static_cast<long double>(*std::max_element(v.begin() + first, v.begin() + first + n));
  if constexpr (std::is_integral_v<T>) {
    std::uint32_t s = 0;
    for (std::size_t i = first; i < first + n; ++i) s += static_cast<std::uint32_t>(v[i]);
    return static_cast<long double>(static_cast<T>(s));
  } else {
    long double s = 0;
    for (std::size_t i = first; i < first + n; ++i) s += v[i];
    return s;
  }
}

// |device - reference| within the worst-case rounding of a sum whose elements each go through
// `depth` additions: gamma(depth) * sum|x| (exact for integers and min/max).
template <class T>
void check_value(T got, const std::vector<T>& v, std::size_t first, std::size_t n, Op op, unsigned depth) {
  const long double want = reference(v, first, n, op);
  if (std::is_integral_v<T> || op != Op::Sum) {
    CHECK(static_cast<long double>(got) == want);
    return;
  }
  long double abs_sum = 0;
  for (std::size_t i = first; i < first + n; ++i) abs_sum += std::fabs(static_cast<long double>(v[i]));
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  const long double bound = depth * u / (1 - depth * u) * abs_sum;
  CHECK(std::fabs(static_cast<long double>(got) - want) <= bound);
}

template <class T>
void every_op_from_offsets(Reducer& r, std::uint64_t seed) {
  const std::vector<T> v = random_values<T>(100003, seed);
  const cl::Buffer b = buffer_of(v);
  for (Op op : all_ops())
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{16}, std::size_t{1001}})
      for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{257}, std::size_t{4096}, v.size() - offset}) {
        CAPTURE(name_of(element_type_of<T>()));
        CAPTURE(name_of(op));
        CAPTURE(offset);
        CAPTURE(n);
        const T got = r.reduce<T>(b, n, op, offset);
        check_value(got, v, offset, n, op, introspect::prepare(r, element_type_of<T>(), op, n, offset)->plan.depth);
      }
}
}  // namespace

TEST_CASE("every type and operator of a user's buffer, from an offset, with the best known launch") {
  Reducer r(app().queue);
  every_op_from_offsets<std::uint32_t>(r, 1);
  every_op_from_offsets<std::int32_t>(r, 2);
  every_op_from_offsets<float>(r, 3);
  if (app().info.fp64) every_op_from_offsets<double>(r, 4);
  const std::shared_ptr<const Launch> l = introspect::prepare(r, ElemType::Float, Op::Sum, 1 << 20);
  CHECK_FALSE(l->config.variant.empty());
  CHECK_FALSE(l->chosen_by.empty());  // a policy's name, or "tuning database"
  MESSAGE("default launch here: " << l->config.variant << " (" << l->chosen_by << ")");
}

TEST_CASE("any variant and parameter can be chosen; each is right from an offset") {
  for (const Variant& v : variants()) {
    if (!v.unavailable_reason(app().info).empty()) continue;
    ReducerOptions o;
    o.params.variant = v.name;
    o.tuning.enabled = false;
    // 64 work-items, or the largest the kernel allows where that is less (Rusticl: 32).
    std::size_t wg = 64;
    while (wg > introspect::prepare(Reducer(app().queue, o), ElemType::Int, Op::Sum, 1000)->kernel_max_wg) wg /= 2;
    o.params.wg = wg;
    if (v.uses_vec()) o.params.vec = 8;  // offsets 1 and 5 are not multiples: unaligned vector loads
    Reducer r(app().queue, o);
    CAPTURE(v.name);
    every_op_from_offsets<std::int32_t>(r, 5);
    const std::shared_ptr<const Launch> l = introspect::prepare(r, ElemType::Int, Op::Sum, 1000, 5);
    CHECK(l->config.variant == v.name);
    CHECK(l->chosen_by == "given");
    CHECK(l->plan.passes.front().wg == wg);
  }
}

TEST_CASE("asynchronous: the value lands in the user's buffer and the user's next kernel reads it") {
  const std::vector<float> v = random_values<float>(65537, 7);
  const cl::Buffer in = buffer_of(v);
  cl::Buffer sums(app().context, CL_MEM_READ_WRITE, 4 * sizeof(float));
  cl::Buffer scaled(app().context, CL_MEM_READ_WRITE, sizeof(float));
  // The application's own kernel: scaled[0] = 2 * sums[2] + 1.
  cl::Program p(app().context, "__kernel void use(__global const float* s, __global float* o) { o[0] = 2.0f * s[2] + 1.0f; }");
  p.build();
  cl::Kernel use(p, "use");
  use.setArg(0, sums);
  use.setArg(1, scaled);
  Reducer r(app().queue);
  const cl::Event reduced = r.reduce_to<float>(in, v.size() - 3, Op::Sum, sums, 2, 3);
  std::vector<cl::Event> after{reduced};
  app().queue.enqueueNDRangeKernel(use, cl::NullRange, cl::NDRange(1), cl::NullRange, &after);
  float result = 0, sum = 0;
  app().queue.enqueueReadBuffer(scaled, CL_TRUE, 0, sizeof result, &result);  // the only wait
  app().queue.enqueueReadBuffer(sums, CL_TRUE, 2 * sizeof(float), sizeof sum, &sum);
  check_value(sum, v, 3, v.size() - 3, Op::Sum, introspect::prepare(r, ElemType::Float, Op::Sum, v.size() - 3, 3)->plan.depth);
  CHECK(result == 2.0f * sum + 1.0f);
  CHECK(reduced.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE);
  // A raw queue handle works the same way.
  Reducer raw(app().queue());
  CHECK(raw.reduce<float>(in, 1, Op::Max, 10) == v[10]);
}

TEST_CASE("repeated calls build each program once and reuse the scratch buffers") {
  ReducerOptions o;
  o.params.variant = "stride_local";  // two passes at these sizes
  o.tuning.enabled = false;
  // A work-group size the kernel allows (found by a reducer of its own), so that no build is a
  // refit for the kernel's limit.
  o.params.wg = introspect::prepare(Reducer(app().queue, o), ElemType::Uint, Op::Sum, 200000)->plan.passes.front().wg;
  ProgramCache cache;  // this test's own, so that its count is exact
  o.programs = &cache;
  Reducer r(app().queue, o);
  const std::vector<std::uint32_t> v = random_values<std::uint32_t>(200000, 9);
  const cl::Buffer b = buffer_of(v);
  r.reduce<std::uint32_t>(b, v.size(), Op::Sum);
  const std::size_t builds = cache.builds(), allocations = introspect::allocations(r);
  CHECK(builds == 2);  // the first pass and the pass over partials
  CHECK(introspect::launches_prepared(r) == 1);
  for (int i = 0; i < 20; ++i) check_value(r.reduce<std::uint32_t>(b, v.size(), Op::Sum), v, 0, v.size(), Op::Sum, 0);
  CHECK(cache.builds() == builds);
  CHECK(introspect::allocations(r) == allocations);
  CHECK(introspect::launches_prepared(r) == 1);
  // Another n of the same plan shape needs no new program; a smaller one, no new buffer.
  check_value(r.reduce<std::uint32_t>(b, 150000, Op::Sum), v, 0, 150000, Op::Sum, 0);
  CHECK(cache.builds() == builds);
  CHECK(introspect::allocations(r) == allocations);
  CHECK(introspect::launches_prepared(r) == 2);
  // Another operator is another program.
  r.reduce<std::uint32_t>(b, v.size(), Op::Max);
  CHECK(cache.builds() > builds);
}

TEST_CASE("two reducers on two queues of one context, in two threads") {
  cl::CommandQueue second(app().context, app().info.device);
  const std::vector<float> a = random_values<float>(300001, 11);
  const std::vector<std::int32_t> b = random_values<std::int32_t>(200003, 12);
  const cl::Buffer ba = buffer_of(a), bb = buffer_of(b);
  Reducer ra(app().queue), rb(second);
  std::vector<float> got_a(20);
  std::vector<std::int32_t> got_b(20);
  std::thread ta([&] {
    for (auto& x : got_a) x = ra.reduce<float>(ba, a.size(), Op::Max);
  });
  std::thread tb([&] {
    for (auto& x : got_b) x = rb.reduce<std::int32_t>(bb, b.size(), Op::Sum);
  });
  ta.join();
  tb.join();
  for (float x : got_a) check_value(x, a, 0, a.size(), Op::Max, 0);
  for (std::int32_t x : got_b) check_value(x, b, 0, b.size(), Op::Sum, 0);
}

TEST_CASE("host data on the default device") {
  const std::vector<float> f = random_values<float>(123457, 13);
  // The default device's launch is not visible here: the bound of any order of additions (n).
  check_value(clreduce::reduce(f, Op::Sum), f, 0, f.size(), Op::Sum, static_cast<unsigned>(f.size()));
  const std::vector<std::uint32_t> u = random_values<std::uint32_t>(99991, 14);
  CHECK(clreduce::reduce(u, Op::Min) == *std::min_element(u.begin(), u.end()));
  CHECK(clreduce::reduce(u.data() + 7, 1, Op::Sum) == u[7]);
  CHECK_THROWS_AS(clreduce::reduce(std::vector<float>{}, Op::Sum), Error);
  // Inputs of up to 1 MiB are folded by the calling thread, larger ones on a device: the same
  // semantics either side of the line. Integer sums wrap modulo 2^32 (exact on both sides),
  // fmin/fmax pass a NaN over (all NaN gives NaN), each size from 1 to past 8 running values.
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{8}, std::uint64_t{9}, std::uint64_t{17},
                          std::uint64_t{262144}, std::uint64_t{262145}}) {
    CAPTURE(n);
    std::vector<std::uint32_t> big(n, 0xF0000000u);
    big[n / 2] = 5u;
    CHECK(clreduce::reduce(big, Op::Sum) == static_cast<std::uint32_t>(0xF0000000ull * (n - 1) + 5));
    CHECK(clreduce::reduce(big, Op::Min) == 5u);
    std::vector<std::int32_t> neg(n, -3);
    neg[n - 1] = 4;
    CHECK(clreduce::reduce(neg, Op::Max) == 4);
    CHECK(clreduce::reduce(neg, Op::Sum) == static_cast<std::int32_t>(-3 * static_cast<std::int64_t>(n - 1) + 4));
    std::vector<float> nan(n, std::nanf(""));
    CHECK(std::isnan(clreduce::reduce(nan, Op::Max)));
    nan[n / 3] = -2.5f;
    CHECK(clreduce::reduce(nan, Op::Max) == -2.5f);
    CHECK(clreduce::reduce(nan, Op::Min) == -2.5f);
    const std::vector<double> halves(n, 0.5);
    if (clreduce::host_data_device().fp64)
      CHECK(clreduce::reduce(halves, Op::Sum) == 0.5 * static_cast<double>(n));  // exact: every partial is a multiple of 0.5
    else  // refused at every size, the host loop's too
      CHECK_THROWS_WITH_AS(clreduce::reduce(halves, Op::Sum), doctest::Contains("double needs cl_khr_fp64"), Error);
  }
}

TEST_CASE("host data's route: the calling thread up to 1 MiB, host threads up to the measured line, then the device") {
  const clreduce::HostDataRoute small = clreduce::host_data_route(std::uint64_t{1} << 20);
  CHECK(small.host_threads == 1);
  const clreduce::HostDataRoute r = clreduce::host_data_route(std::uint64_t{2} << 20);
  CHECK(r.host_threads_up_to >= (std::uint64_t{1} << 20));
  CHECK(r.device.device() == clreduce::host_data_device().device());
  // Threads up to the line; past it none until the size class is measured (an earlier call of this
  // process may have measured 2 MiB's class, and the threads may have won it).
  if (r.host_threads_up_to >= (std::uint64_t{2} << 20)) CHECK(r.host_threads > 0);
  if (!r.measured) CHECK(r.host_threads == 0);
  if (r.host_threads > 0) CHECK(r.host_threads == std::min(2u, std::max(1u, std::thread::hardware_concurrency())));
  MESSAGE("host threads up to " << (r.host_threads_up_to >> 20) << " MiB");
  const std::uint64_t top = std::uint64_t{64} << 20;  // the ladder's top
  CHECK(r.host_threads_up_to <= top);
  // Past the line a size class is measured by its first call (on its data), and says so before
  // (no threads until then; an earlier call of this process may have measured it already); where
  // CLREDUCE_DEVICE names the device, that device takes it unmeasured.
  const bool named = std::getenv("CLREDUCE_DEVICE") && *std::getenv("CLREDUCE_DEVICE");
  const auto check_before = [&](std::uint64_t bytes) {
    const clreduce::HostDataRoute before = clreduce::host_data_route(bytes);
    if (!before.measured) CHECK(before.host_threads == 0);
    if (named) CHECK((before.measured && before.host_threads == 0));
    CHECK(before.device_named == named);
  };
  if (r.host_threads_up_to < top) check_before(r.host_threads_up_to + 4);
  const std::vector<std::uint32_t> past(top / 4 + 1, 3u);
  check_before(past.size() * 4);
  CHECK(clreduce::reduce(past, Op::Sum) == static_cast<std::uint32_t>(3 * past.size()));
  const clreduce::HostDataRoute after = clreduce::host_data_route(past.size() * 4);
  CHECK(after.measured);
  if (named) CHECK(after.host_threads == 0);
  MESSAGE("past 64 MiB: " << (after.host_threads ? std::to_string(after.host_threads) + " host threads" : after.device.name));
  CHECK(clreduce::reduce(past, Op::Max) == 3u);
  // Either side of 1 MiB, the line and 2 MiB, the same semantics: integer sums wrap, fmin/fmax
  // pass a NaN over, float sums within the bound of any order (n).
  std::vector<std::uint64_t> sizes{(std::uint64_t{2} << 20) / 4 + 3, (std::uint64_t{9} << 20) / 4 + 1};
  if (r.host_threads_up_to < (std::uint64_t{16} << 20)) sizes.push_back(r.host_threads_up_to / 4 + 1);
  for (std::uint64_t n : sizes) {
    CAPTURE(n);
    std::vector<std::uint32_t> big(n, 0xF0000000u);
    big[n / 2] = 5u;
    CHECK(clreduce::reduce(big, Op::Sum) == static_cast<std::uint32_t>(0xF0000000ull * (n - 1) + 5));
    CHECK(clreduce::reduce(big, Op::Min) == 5u);
    std::vector<float> nan(n, std::nanf(""));
    nan[n / 3] = -2.5f;
    CHECK(clreduce::reduce(nan, Op::Max) == -2.5f);
    const std::vector<float> f = random_values<float>(n, 21);
    check_value(clreduce::reduce(f, Op::Sum), f, 0, f.size(), Op::Sum, static_cast<unsigned>(f.size()));
  }
}

TEST_CASE("transposes of the user's buffers") {
  const std::uint64_t m = 37, n = 53;
  std::vector<std::uint32_t> in(m * n);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const cl::Buffer bin = buffer_of(in);
  cl::Buffer bout(app().context, CL_MEM_READ_WRITE, in.size() * 4);
  for (const TransposeVariant& v : transpose_variants()) {
    TransposerOptions o;
    o.params.variant = v.name;
    Transposer t(app().queue, o);
    t.transpose<std::uint32_t>(bin, bout, m, n);
    std::vector<std::uint32_t> out(in.size());
    app().queue.enqueueReadBuffer(bout, CL_TRUE, 0, out.size() * 4, out.data());
    std::size_t wrong = 0;
    for (std::uint64_t r = 0; r < m; ++r)
      for (std::uint64_t c = 0; c < n; ++c) wrong += out[c * m + r] != in[r * n + c];
    CHECK_MESSAGE(wrong == 0, v.name);
  }
}

TEST_CASE("errors are clreduce::Error naming the parameter, its valid values and the device") {
  const auto param_of = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.param();
    }
    return Param::None;
  };
  ReducerOptions o;
  o.tuning.enabled = false;
  o.params.variant = "stride_global";
  o.params.times = 5000;
  Reducer times(app().queue, o);
  CHECK(param_of([&] { introspect::prepare(times, ElemType::Uint, Op::Sum, 100); }) == Param::Times);
  try {
    introspect::prepare(times, ElemType::Uint, Op::Sum, 100);
  } catch (const ConfigError& e) {
    CHECK(e.valid() == "1..1024");
    CHECK(std::string(e.what()).find("TIMES 5000") != std::string::npos);
  }
  o.params = {};
  o.params.wg = 3;
  Reducer wg(app().queue, o);
  CHECK(param_of([&] { introspect::prepare(wg, ElemType::Uint, Op::Sum, 100); }) == Param::WorkGroupSize);
  try {  // a device limit names the device, in what() and in device()
    introspect::prepare(wg, ElemType::Uint, Op::Sum, 100);
  } catch (const ConfigError& e) {
    CHECK(e.device() == app().info.name);
    CHECK(std::string(e.what()).find(app().info.name) != std::string::npos);
    CHECK(e.valid().find(std::to_string(app().info.max_work_group_size)) != std::string::npos);
  }
  o.params = {};
  o.params.variant = "fastest";
  Reducer unknown(app().queue, o);
  CHECK(param_of([&] { introspect::prepare(unknown, ElemType::Uint, Op::Sum, 100); }) == Param::Variant);
  Reducer plain(app().queue);
  CHECK(param_of([&] { introspect::prepare(plain, ElemType::Uint, Op::Sum, 0); }) == Param::N);
  const cl::Buffer small(app().context, CL_MEM_READ_WRITE, 64);
  CHECK(param_of([&] { plain.reduce<float>(small, 16, Op::Sum, 1); }) == Param::Buffer);  // 17 floats > 64 bytes
  CHECK(param_of([&] { plain.reduce_to<float>(small, 4, Op::Sum, small, 16); }) == Param::Buffer);
  o.params = {};
  o.kernel_dir = "/nonexistent/kernels";
  CHECK(param_of([&] { Reducer r(app().queue, o); }) == Param::KernelDir);
  if (app().info.device.getInfo<CL_DEVICE_QUEUE_PROPERTIES>() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    cl::CommandQueue ooo(app().context, app().info.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    CHECK(param_of([&] { Reducer r(ooo); }) == Param::Queue);
  }
  // A Launch belongs to the reducer that prepared it: every hook that takes one refuses another's.
  const std::shared_ptr<const Launch> l = introspect::prepare(plain, ElemType::Uint, Op::Sum, 8);
  Reducer other(app().queue);
  const std::string theirs = "this launch was prepared by another reducer; prepare it with the reducer that uses it";
  CHECK_THROWS_WITH_AS(introspect::enqueue(other, *l, small), theirs.c_str(), Error);
  CHECK(param_of([&] { introspect::read_result(other, *l); }) == Param::Launch);
  CHECK_THROWS_WITH_AS(introspect::read_result(other, *l), theirs.c_str(), Error);
  CHECK_THROWS_WITH_AS(introspect::result_buffer(other, *l), theirs.c_str(), Error);
  CHECK_THROWS_WITH_AS(introspect::counter_buffer(other, *l), theirs.c_str(), Error);
  // ... also where a new reducer lives at the address of the destroyed one that prepared it.
  std::shared_ptr<const Launch> orphan;
  {
    Reducer gone(app().queue);
    orphan = introspect::prepare(gone, ElemType::Uint, Op::Sum, 8);
  }
  for (int i = 0; i < 4; ++i) {
    Reducer fresh(app().queue);
    CHECK_THROWS_WITH_AS(introspect::enqueue(fresh, *orphan, small), theirs.c_str(), Error);
  }
  std::vector<std::uint32_t> eight{1, 2, 3, 4, 5, 6, 7, 8};  // its own reducer takes it
  const cl::Buffer eight_buffer(app().context, static_cast<cl_mem_flags>(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR), std::size_t{32},
                                eight.data());
  introspect::enqueue(plain, *l, eight_buffer);
  CHECK(introspect::read_result(plain, *l).get<std::uint32_t>() == 36u);
}

TEST_CASE("reduction descriptors through the public header: var of halves, a dot from offsets, an exact u32 sum") {
  // f16 data: k/8 for k = 0..1023, exact in binary16 (bits written by the library's converter).
  const std::size_t n = 1024;
  std::vector<std::uint16_t> halves(n);
  for (std::size_t k = 0; k < n; ++k) halves[k] = float_to_f16(static_cast<float>(k) / 8);
  long double mean = 0, m2 = 0;
  for (std::size_t k = 0; k < n; ++k) mean += static_cast<long double>(k) / 8;
  mean /= n;
  for (std::size_t k = 0; k < n; ++k) m2 += (k / 8.0L - mean) * (k / 8.0L - mean);
  Reducer reducer(app().queue);
  const Result var = reducer.reduce(builtin(Builtin::VarPop, Scalar::F16), {Input{buffer_of(halves), 0}}, n);
  CHECK(var.layout.type == Scalar::F32);
  CHECK(var.value() == doctest::Approx(static_cast<double>(m2 / n)).epsilon(1e-5));
  // dot of x[3..3+m) and y[0..m), x and y floats
  const auto x = random_values<float>(1003, 7), y = random_values<float>(1000, 8);
  long double dot = 0, dot_abs = 0;
  for (std::size_t k = 0; k < 1000; ++k) {
    dot += static_cast<long double>(x[k + 3]) * y[k];
    dot_abs += std::fabs(static_cast<long double>(x[k + 3]) * y[k]);
  }
  const Result d = reducer.reduce(builtin(Builtin::Dot, Scalar::F32), {Input{buffer_of(x), 3}, Input{buffer_of(y), 0}}, 1000);
  CHECK(std::fabs(d.value() - static_cast<double>(dot)) <= 1e-4 * static_cast<double>(dot_abs));
  // 70000 x 0xFFFFFFFF: past 2^32, exact in 64 bits (host data on the default device)
  const std::vector<std::uint32_t> big(70000, 0xFFFFFFFFu);
  const Result s = clreduce::reduce(builtin(Builtin::Sum, Scalar::U32), {big.data()}, big.size());
  CHECK(s.as_u64() == 70000ull * 0xFFFFFFFFull);
  // argmax of the halves: the last one, k = 1023
  const Result a = reducer.reduce(builtin(Builtin::ArgMax, Scalar::F16), {Input{buffer_of(halves), 0}}, n);
  CHECK(a.index() == 1023);
  CHECK(a.value() == 1023.0 / 8);
}
