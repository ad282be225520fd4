// The multi-device reduction (issue 18): the split of n, the device lists and their refusals, the
// MultiReducer on 2 and 3 PoCL CPU devices (POCL_DEVICES, set by ctest) for every type and
// operator, resident and host-copied, uneven splits, n below the device count, n = 1 and primes,
// each against the host reference; repeatable float results; a failing device named; and
// `clreduce bench multi` end to end. Reduction descriptors (issue 29): every built-in over the
// devices against the host reference (the whole input's indices, counts and finish), user files
// against the device's in-order reference, their refusals.
#include <doctest/doctest.h>

#include "support.hpp"
#include "clreduce/multi_device.hpp"
#include "data/descriptor_reference.hpp"
#include "measure/descriptor_device_reference.hpp"
#include "multi_device/device_workers.hpp"
#include "multi_device/host_staging.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

namespace {
using namespace clreduce;
using clreduce::test::CliRun;
using clreduce::test::run_cli;

// The devices the suite expects (CLREDUCE_TEST_DEVICES, set with POCL_DEVICES by ctest); 2 when unset.
std::size_t expected_devices() {
  const char* e = std::getenv("CLREDUCE_TEST_DEVICES");
  return e ? static_cast<std::size_t>(std::strtoul(e, nullptr, 10)) : 2;
}

std::vector<DeviceInfo> test_devices() {
  std::vector<DeviceInfo> all = default_devices();
  REQUIRE_MESSAGE(all.size() >= expected_devices(),
                  "the default platform has " << all.size() << " devices; the suite expects " << expected_devices()
                                              << " (POCL_DEVICES=\"pthread pthread\" on PoCL)");
  all.resize(expected_devices());
  return all;
}

MultiDeviceOptions options(const Split& split, std::uint64_t chunk = 4096) {
  MultiDeviceOptions o;
  o.split = split;
  o.chunk_elements = chunk;
  o.reducer.tuning.enabled = false;
  o.reducer.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
  return o;
}

std::vector<cl::Buffer> upload_parts(const MultiReducer& mr, const HostData& data, const std::vector<std::uint64_t>& counts) {
  std::vector<cl::Buffer> out;
  const std::uint64_t es = size_of(data.type);
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    cl::Buffer b(mr.context(i), CL_MEM_READ_ONLY, std::max<std::uint64_t>(counts[i], 1) * es);
    if (counts[i]) mr.queue(i).enqueueWriteBuffer(b, CL_TRUE, 0, counts[i] * es, data.bytes.data() + offset * es);
    offset += counts[i];
    out.push_back(b);
  }
  return out;
}

// The result, and each device's partial against the reference of its own part; the parts tile
// [0, n) in device order; an empty part skipped; the fold in device order.
void check_multi(const MultiResult& r, const HostData& data, Op op, const std::vector<std::uint64_t>& counts) {
  const Reference ref = host_reference(data, op);
  const Check c = check_result(r.value, ref, op, r.depth);
  CHECK_MESSAGE(c.ok, c.detail);
  REQUIRE(r.shares.size() == counts.size());
  std::uint64_t offset = 0;
  std::vector<Value> values;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const DeviceShare& s = r.shares[i];
    CHECK(s.device == i);
    CHECK(s.offset == offset);
    CHECK(s.n == counts[i]);
    if (s.n == 0) {
      CHECK(s.chunks == 0);
    } else {
      HostData part;
      part.type = data.type;
      part.n = s.n;
      const std::uint64_t es = size_of(data.type);
      part.bytes.assign(data.bytes.begin() + static_cast<std::ptrdiff_t>(offset * es),
                        data.bytes.begin() + static_cast<std::ptrdiff_t>((offset + s.n) * es));
      const Check pc = check_result(s.value, host_reference(part, op), op, s.depth);
      CHECK_MESSAGE(pc.ok, "device " << i << ": " << pc.detail);
      values.push_back(s.value);
    }
    offset += counts[i];
  }
  CHECK(offset == data.n);
  CHECK(r.n == data.n);
  // The call's time: every part inside it, then the tail.
  double last_end = 0;
  for (const DeviceShare& s : r.shares)
    if (s.n) {
      CHECK(s.start_us >= 0);
      last_end = std::max(last_end, s.start_us + s.us);
    }
  CHECK(r.tail_us >= 0);
  CHECK(last_end <= r.us * (1 + 1e-9) + 1e-6);
  CHECK(r.tail_us == doctest::Approx(r.us - last_end).epsilon(1e-6));
  CHECK(fold_values(values, op) == r.value);  // device order, bit for bit
}

std::vector<ElemType> types_of(const std::vector<DeviceInfo>& devs) {
  std::vector<ElemType> t{ElemType::Uint, ElemType::Int, ElemType::Float};
  if (std::all_of(devs.begin(), devs.end(), [](const DeviceInfo& d) { return d.fp64; })) t.push_back(ElemType::Double);
  return t;
}

// Every type and operator at sizes from 1 (fewer elements than devices) through primes to several
// chunks per device, resident and host-copied, with `split`.
void matrix(const Split& split) {
  const std::vector<DeviceInfo> devs = test_devices();
  MultiReducer mr(devs, options(split));
  const std::vector<std::uint64_t> sizes{1, devs.size() - 1, 7, 1009, 40961};
  for (ElemType t : types_of(devs))
    for (Op op : all_ops())
      for (std::uint64_t n : sizes) {
        if (n == 0) continue;
        const HostData data = generate_data(t, n, DataKind::Random, test::seed() + n);
        for (bool resident : {false, true}) {
          CAPTURE(name_of(t));
          CAPTURE(name_of(op));
          CAPTURE(n);
          CAPTURE(resident);
          const std::vector<std::uint64_t> counts = mr.counts(n, resident);
          const MultiResult r = resident ? mr.reduce_resident(upload_parts(mr, data, counts), counts, t, op)
                                         : mr.reduce(data.data(), t, n, op);
          CHECK(r.resident == resident);
          check_multi(r, data, op, counts);
        }
      }
}

// Device i's part of each input: `counts[i]` elements from the part's start, in context(i).
std::vector<std::vector<Input>> upload_descriptor_parts(const MultiReducer& mr, const std::vector<ScalarData>& data,
                                                        const std::vector<std::uint64_t>& counts) {
  std::vector<std::vector<Input>> out(counts.size());
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    for (const ScalarData& d : data) {
      const std::uint64_t es = size_of(d.type);
      // A spare element in front: the part starts at element offset 1 of its buffer.
      cl::Buffer b(mr.context(i), CL_MEM_READ_ONLY, (counts[i] + 1) * es);
      if (counts[i]) mr.queue(i).enqueueWriteBuffer(b, CL_TRUE, es, counts[i] * es, d.bytes.data() + offset * es);
      out[i].push_back(Input{b, 1});
    }
    offset += counts[i];
  }
  return out;
}

std::vector<const void*> pointers(const std::vector<ScalarData>& data) {
  std::vector<const void*> p;
  for (const ScalarData& d : data) p.push_back(d.data());
  return p;
}

// A descriptor's multi-device result: the parts tile [0, n) in device order, and the result
// matches the host reference of the whole input at the call's depth.
void check_multi_descriptor(const MultiResult& m, const Reduction& r, const std::vector<ScalarData>& data,
                            const std::vector<std::uint64_t>& counts) {
  const std::uint64_t n = data.front().n;
  CHECK(m.reduction == r.name);
  CHECK(m.n == n);
  CHECK(m.result.layout == r.out);
  std::uint64_t element_bytes = 0;
  for (Scalar t : r.inputs) element_bytes += size_of(t);
  CHECK(m.bytes == n * element_bytes);
  REQUIRE(m.shares.size() == counts.size());
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    CHECK(m.shares[i].offset == offset);
    CHECK(m.shares[i].n == counts[i]);
    CHECK((m.shares[i].chunks == 0) == (counts[i] == 0));
    offset += counts[i];
  }
  std::vector<const ScalarData*> in;
  for (const ScalarData& d : data) in.push_back(&d);
  const DescriptorReference ref = descriptor_reference(r, in, n, m.depth);
  const Check c = check_descriptor(m.result, ref);
  CHECK_MESSAGE(c.ok, c.detail << " (" << ref.how << ")");
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("DeviceWorkers: each chosen index once per round, the first on the caller, the others on kept threads") {
    DeviceWorkers w;
    std::mutex mu;
    std::vector<int> runs(4, 0);
    std::vector<std::thread::id> where(4);
    const auto task = [&](std::size_t i) {
      std::lock_guard<std::mutex> lock(mu);
      ++runs[i];
      where[i] = std::this_thread::get_id();
    };
    w.run({false, false, false, false}, task);  // nothing chosen: nothing runs
    CHECK(runs == std::vector<int>{0, 0, 0, 0});
    w.run({false, true, false, true}, task);
    CHECK(runs == std::vector<int>{0, 1, 0, 1});
    CHECK(where[1] == std::this_thread::get_id());  // the first chosen, on the caller
    CHECK(where[3] != std::this_thread::get_id());
    const std::thread::id kept = where[3];
    // Many rounds, every pattern of 4: no round lost or run twice, the same thread per index.
    std::vector<int> expect = runs;
    for (int round = 0; round < 2000; ++round) {
      std::vector<bool> which(4);
      for (std::size_t i = 0; i < 4; ++i) which[i] = ((round + 1) >> i) & 1;
      w.run(which, task);
      for (std::size_t i = 0; i < 4; ++i) expect[i] += which[i] ? 1 : 0;
    }
    CHECK(runs == expect);
    w.run({false, false, true, true}, task);
    CHECK(where[3] == kept);
    // Tasks that take time on some threads and none on others: run returns after the slowest.
    std::atomic<int> done{0};
    w.run({true, true, true, true}, [&](std::size_t i) {
      if (i % 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++done;
    });
    CHECK(done.load() == 4);
  }


  TEST_CASE("host_threads_reduce: every type and operator at 1 to 16 threads, the device's semantics, the same bits") {
    // clreduce::reduce()'s host route: slices of any length (n below, at and past the threads and
    // the eight running values), the first slice on the caller. Integers exact (sums wrap modulo
    // 2^32); float min/max exact with NaN passed over (all NaN: NaN); float sums within the bound
    // of any order of n additions; the same n and threads give the same bits twice.
    DeviceWorkers pool;
    std::mt19937 rng(20261206);
    for (std::uint64_t n : {1ull, 2ull, 7ull, 8ull, 9ull, 17ull, 1000ull, 100003ull})
      for (unsigned threads : {1u, 2u, 3u, 5u, 16u}) {
        CAPTURE(n);
        CAPTURE(threads);
        std::vector<std::uint32_t> u(n);
        std::vector<float> f(n);
        std::vector<double> g(n);
        for (std::uint64_t i = 0; i < n; ++i) {
          u[i] = static_cast<std::uint32_t>(rng());
          f[i] = std::uniform_real_distribution<float>(-1000.0f, 1000.0f)(rng);
          g[i] = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
        }
        if (n > 2) f[n / 2] = std::nanf("");  // passed over by min and max
        const auto run = [&](const void* p, ElemType t, Op op) { return host_threads_reduce(pool, p, t, n, op, threads); };
        std::uint64_t wide = 0;
        for (std::uint32_t x : u) wide += x;
        CHECK(run(u.data(), ElemType::Uint, Op::Sum).get<std::uint32_t>() == static_cast<std::uint32_t>(wide));
        CHECK(run(u.data(), ElemType::Uint, Op::Min).get<std::uint32_t>() == *std::min_element(u.begin(), u.end()));
        CHECK(run(u.data(), ElemType::Uint, Op::Max).get<std::uint32_t>() == *std::max_element(u.begin(), u.end()));
        const auto* s = reinterpret_cast<const std::int32_t*>(u.data());
        CHECK(run(s, ElemType::Int, Op::Sum).get<std::int32_t>() == static_cast<std::int32_t>(static_cast<std::uint32_t>(wide)));
        CHECK(run(s, ElemType::Int, Op::Min).get<std::int32_t>() == *std::min_element(s, s + n));
        CHECK(run(s, ElemType::Int, Op::Max).get<std::int32_t>() == *std::max_element(s, s + n));
        float lo = std::nanf(""), hi = std::nanf("");
        double fsum = 0, fabs_sum = 0;
        for (float x : f) {
          lo = std::fmin(lo, x);
          hi = std::fmax(hi, x);
          if (!std::isnan(x)) { fsum += x; fabs_sum += std::fabs(x); }
        }
        const float fmin_got = run(f.data(), ElemType::Float, Op::Min).get<float>();
        CHECK(((std::isnan(lo) && std::isnan(fmin_got)) || fmin_got == lo));
        const float fmax_got = run(f.data(), ElemType::Float, Op::Max).get<float>();
        CHECK(((std::isnan(hi) && std::isnan(fmax_got)) || fmax_got == hi));
        if (n > 2) f[n / 2] = 0.0f;
        const float fsum_got = run(f.data(), ElemType::Float, Op::Sum).get<float>();
        CHECK(std::fabs(fsum_got - fsum) <= static_cast<double>(n) * 0x1p-24 * fabs_sum * 1.01 + 1e-30);
        const float again = run(f.data(), ElemType::Float, Op::Sum).get<float>();
        CHECK(std::memcmp(&again, &fsum_got, sizeof(float)) == 0);
        double gsum = 0, gabs = 0;
        for (double x : g) { gsum += x; gabs += std::fabs(x); }
        const double gsum_got = run(g.data(), ElemType::Double, Op::Sum).get<double>();
        CHECK(std::fabs(gsum_got - gsum) <= 2.0 * static_cast<double>(n) * 0x1p-53 * gabs * 1.01);
        CHECK(run(g.data(), ElemType::Double, Op::Max).get<double>() == *std::max_element(g.begin(), g.end()));
      }
    // All NaN gives NaN; an infinity beside NaNs is the answer (the folds start from the infinities).
    std::vector<float> nans(33, std::nanf(""));
    for (unsigned t : {1u, 4u}) {
      CHECK(std::isnan(host_threads_reduce(pool, nans.data(), ElemType::Float, nans.size(), Op::Max, t).get<float>()));
      CHECK(std::isnan(host_threads_reduce(pool, nans.data(), ElemType::Float, nans.size(), Op::Min, t).get<float>()));
      CHECK(std::isnan(host_threads_reduce(pool, nans.data(), ElemType::Float, 1, Op::Min, t).get<float>()));
      std::vector<float> inf = nans;
      inf[20] = INFINITY;
      CHECK(host_threads_reduce(pool, inf.data(), ElemType::Float, inf.size(), Op::Min, t).get<float>() == INFINITY);
      CHECK(host_threads_reduce(pool, inf.data(), ElemType::Float, inf.size(), Op::Max, t).get<float>() == INFINITY);
      inf[20] = -INFINITY;
      CHECK(host_threads_reduce(pool, inf.data(), ElemType::Float, inf.size(), Op::Max, t).get<float>() == -INFINITY);
      const std::vector<double> dn(9, std::nan(""));
      CHECK(std::isnan(host_threads_reduce(pool, dn.data(), ElemType::Double, dn.size(), Op::Max, t).get<double>()));
    }
  }

  TEST_CASE("split_counts: whole elements summing to n, largest remainders, ties to the lower device") {
    CHECK(split_counts(10, {1, 1}) == std::vector<std::uint64_t>{5, 5});
    CHECK(split_counts(11, {1, 1, 1}) == std::vector<std::uint64_t>{4, 4, 3});
    CHECK(split_counts(1, {1, 1, 1}) == std::vector<std::uint64_t>{1, 0, 0});
    CHECK(split_counts(2, {1, 1, 1}) == std::vector<std::uint64_t>{1, 1, 0});
    CHECK(split_counts(100, {3, 1}) == std::vector<std::uint64_t>{75, 25});
    CHECK(split_counts(7, {0, 1}) == std::vector<std::uint64_t>{0, 7});
    CHECK(split_counts(1, {0, 0, 5}) == std::vector<std::uint64_t>{0, 0, 1});
    const std::uint64_t big = (std::uint64_t{1} << 40) + 3;
    const auto c = split_counts(big, {1, 2, 3});
    CHECK(c[0] + c[1] + c[2] == big);
    CHECK_THROWS_AS(split_counts(5, {}), Error);
    CHECK_THROWS_AS(split_counts(5, {0, 0}), Error);
    CHECK_THROWS_AS(split_counts(5, {1, -1}), Error);
  }

  TEST_CASE("generate_data_range: a shard is the same slice of the whole generated array (MPI ranks' data)") {
    for (ElemType t : all_types())
      for (DataKind k : all_data_kinds()) {
        const HostData whole = generate_data(t, 1000, k, 7);
        const HostData shard = generate_data_range(t, 333, 667, k, 7);
        CAPTURE(name_of(t));
        CAPTURE(name_of(k));
        REQUIRE(shard.n == 667);
        CHECK(std::equal(shard.bytes.begin(), shard.bytes.end(),
                         whole.bytes.begin() + static_cast<std::ptrdiff_t>(333 * size_of(t))));
      }
  }

  TEST_CASE("generate_scalar_data_range: a shard is the same slice of the whole, for every type, kind and input") {
    for (Scalar t : {Scalar::U8, Scalar::I16, Scalar::U32, Scalar::I64, Scalar::F16, Scalar::BF16, Scalar::F32, Scalar::F64})
      for (DataKind k : all_data_kinds())
        for (unsigned stream : {0u, 1u}) {
          const ScalarData whole = generate_scalar_data_range(t, 0, 1000, k, 7, stream);
          const ScalarData shard = generate_scalar_data_range(t, 333, 667, k, 7, stream);
          CAPTURE(name_of(t));
          CAPTURE(name_of(k));
          REQUIRE(shard.n == 667);
          CHECK(std::equal(shard.bytes.begin(), shard.bytes.end(),
                           whole.bytes.begin() + static_cast<std::ptrdiff_t>(333 * size_of(t))));
          if (k == DataKind::Random) {  // the inputs differ; floats in [-1, 1] (f16, bf16 round up to 1)
            CHECK(whole.bytes != generate_scalar_data_range(t, 0, 1000, k, 7, stream + 1).bytes);
            if (is_floating(t))
              for (std::uint64_t i = 0; i < whole.n; ++i) CHECK((whole.at(i) >= -1 && whole.at(i) <= 1));
          }
        }
  }

  TEST_CASE("same_model_means: one mean per model (platform, name, driver, compute units, memory), in device order") {
    const auto dev = [](const std::string& name, unsigned cus, std::uint64_t mem) {
      DeviceInfo d;
      d.platform_name = "P";
      d.name = name;
      d.driver_version = "1.0";
      d.compute_units = cus;
      d.global_mem_bytes = mem;
      return d;
    };
    const std::vector<DeviceInfo> devs{dev("A", 132, 80), dev("B", 132, 80), dev("A", 132, 80), dev("A", 114, 80),
                                       dev("A", 132, 96)};
    CHECK(same_model(devs[0], devs[2]));
    CHECK_FALSE(same_model(devs[0], devs[1]));  // name
    CHECK_FALSE(same_model(devs[0], devs[3]));  // compute units
    CHECK_FALSE(same_model(devs[0], devs[4]));  // memory
    DeviceInfo other_driver = devs[0];
    other_driver.driver_version = "2.0";
    CHECK_FALSE(same_model(devs[0], other_driver));
    const std::vector<double> m = same_model_means({10, 7, 14, 5, 3}, devs);
    CHECK(m == std::vector<double>{12, 7, 12, 5, 3});
    CHECK(same_model_means({4}, {devs[0]}) == std::vector<double>{4});
    try {
      same_model_means({1, 2}, devs);
      FAIL("accepted 2 measurements for 5 devices");
    } catch (const Error& e) {
      CHECK(e.param() == Param::Devices);
    }
  }

  TEST_CASE("parse_split: even, bandwidth, weights; anything else one line naming the valid forms") {
    CHECK(parse_split("even").kind == SplitKind::Even);
    CHECK(parse_split("bandwidth").kind == SplitKind::Bandwidth);
    const Split w = parse_split("3,1.5,0");
    CHECK(w.kind == SplitKind::Weights);
    CHECK(w.weights == std::vector<double>{3, 1.5, 0});
    CHECK(w.str() == "3,1.5,0");
    for (const char* bad : {"", "fast", "1,,2", "1,x", "-1,2", "0,0", "nan,1", "inf", "1, 2", "1,"}) {
      CAPTURE(bad);
      try {
        parse_split(bad);
        FAIL("accepted");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Split);
        const std::string what = e.what();
        CHECK(what.find("even, bandwidth") != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);
      }
    }
  }

  TEST_CASE("the multi-device path refuses argmin, argmax and user operators in one line naming the valid ones") {
    for (Op op : {Op::ArgMin, Op::ArgMax, Op::User}) {
      try {
        require_multi_device_op(op);
        FAIL("accepted");
      } catch (const Error& e) {
        CHECK(e.param() == Param::Op);
        CHECK(std::string(e.what()).find("sum, min and max") != std::string::npos);
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
      }
    }
    for (Op op : all_ops()) CHECK_NOTHROW(require_multi_device_op(op));
  }
}

TEST_SUITE("multi_device") {
  TEST_CASE("the platform exposes the devices the suite was started with") {
    const std::vector<DeviceInfo> devs = test_devices();
    for (std::size_t i = 0; i < devs.size(); ++i) CHECK(devs[i].platform_index == devs.front().platform_index);
  }

  TEST_CASE("every type and operator, even split, resident and host-copied, n from 1 to several chunks") {
    matrix(Split{SplitKind::Even, {}});
  }

  TEST_CASE("host paths: pageable, pinned (1 and 3 copy threads), in place and auto, at misaligned pointers and in chunks") {
    // Each path against the host reference for every type and operator, the input starting 0 or 3
    // elements past an allocation's start (in place then reads from an offset); pageable and pinned
    // run the same launches, so they agree bit for bit; descriptors (an exact float sum, argmax,
    // an integer sum) agree bit for bit on every path.
    const std::vector<DeviceInfo> devs = test_devices();
    struct PathCase {
      HostPath path;
      unsigned threads;
    };
    const std::vector<PathCase> paths{{HostPath::Pageable, 0}, {HostPath::Pinned, 1}, {HostPath::Pinned, 3},
                                      {HostPath::InPlace, 0}, {HostPath::Auto, 0}};
    std::vector<std::unique_ptr<MultiReducer>> mrs;
    for (const PathCase& pc : paths) {
      MultiDeviceOptions o = options(Split{SplitKind::Even, {}});
      o.host_path = pc.path;
      o.copy_threads = pc.threads;
      mrs.push_back(std::make_unique<MultiReducer>(devs, o));
    }
    const std::uint64_t many = 3 * 4096 * devs.size() + 5;
    std::size_t runs = 0;
    for (ElemType t : types_of(devs))
      for (Op op : all_ops())
        for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4099}, many})
          for (std::uint64_t shift : {0, 3}) {
            const HostData whole = generate_data(t, n + shift, DataKind::Random, test::seed() + n);
            const std::uint64_t es = size_of(t);
            HostData data;
            data.type = t;
            data.n = n;
            data.bytes.assign(whole.bytes.begin() + static_cast<std::ptrdiff_t>(shift * es), whole.bytes.end());
            const void* at = whole.bytes.data() + shift * es;  // the input inside the larger allocation
            std::optional<Value> copied;
            for (std::size_t k = 0; k < paths.size(); ++k) {
              CAPTURE(name_of(t));
              CAPTURE(name_of(op));
              CAPTURE(n);
              CAPTURE(shift);
              CAPTURE(name_of(paths[k].path));
              CAPTURE(paths[k].threads);
              const MultiResult r = mrs[k]->reduce(at, t, n, op);
              check_multi(r, data, op, mrs[k]->counts(n, false));
              for (const DeviceShare& s : r.shares) {
                if (!s.n) continue;
                // Auto's pinned choice writes a part of one chunk pageable (HostStager::begin_part).
                HostPath expected = resolve_host_path(paths[k].path, devs[s.device]);
                if (paths[k].path == HostPath::Auto && expected == HostPath::Pinned && s.chunks < 2)
                  expected = HostPath::Pageable;
                CHECK(s.host_path == expected);
                // Pinned copies by the threads asked for, else the hardware's over the devices (1..8).
                const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
                const unsigned threads = paths[k].threads ? paths[k].threads
                                                          : std::clamp(hw / static_cast<unsigned>(devs.size()), 1u, 8u);
                CHECK(s.copy_threads == (s.host_path == HostPath::Pinned ? threads : 0u));
              }
              if (paths[k].path == HostPath::Pageable || paths[k].path == HostPath::Pinned) {
                if (!copied) copied = r.value;
                CHECK(same_result(r.value, *copied));
              }
              ++runs;
            }
          }
    for (const Reduction& r : {builtin(Builtin::Sum, Scalar::F32, std::nullopt, Summation::Exact),
                               builtin(Builtin::ArgMax, Scalar::F32), builtin(Builtin::Sum, Scalar::U16)})
      for (std::uint64_t shift : {0, 1}) {
        const std::uint64_t n = many;
        const ScalarData whole = generate_scalar_data(r.inputs.front(), n + shift, DataKind::Random, test::seed());
        std::vector<ScalarData> data{whole};
        const std::uint64_t es = size_of(r.inputs.front());
        data[0].n = n;
        data[0].bytes.assign(whole.bytes.begin() + static_cast<std::ptrdiff_t>(shift * es), whole.bytes.end());
        const std::vector<const void*> at{whole.bytes.data() + shift * es};
        std::optional<std::array<unsigned char, 16>> first;
        for (std::size_t k = 0; k < paths.size(); ++k) {
          CAPTURE(r.name);
          CAPTURE(shift);
          CAPTURE(name_of(paths[k].path));
          const MultiResult m = mrs[k]->reduce(r, at, n);
          check_multi_descriptor(m, r, data, mrs[k]->counts(n, false));
          if (!first) first = m.result.bytes;
          CHECK(m.result.bytes == *first);
          ++runs;
        }
      }
    MESSAGE(runs << " host-path reductions checked");
  }

  TEST_CASE("every type and operator, uneven weights (one device with none at small n)") {
    const std::size_t d = test_devices().size();
    std::vector<double> w{5, 1, 2};
    w.resize(d);
    matrix(Split{SplitKind::Weights, w});
  }

  TEST_CASE("a device with weight 0 skips; bandwidth split measures once and covers n") {
    const std::vector<DeviceInfo> devs = test_devices();
    if (devs.size() < 2) {
      MESSAGE("a device of weight 0 beside one that reduces needs two devices");
      return;
    }
    std::vector<double> w(devs.size(), 1.0);
    w[0] = 0;
    MultiReducer zero(devs, options(Split{SplitKind::Weights, w}));
    const HostData data = generate_data(ElemType::Uint, 12345, DataKind::Random, test::seed());
    const MultiResult r = zero.reduce(data.data(), ElemType::Uint, data.n, Op::Sum);
    CHECK(r.shares[0].n == 0);
    check_multi(r, data, Op::Sum, zero.counts(data.n, false));

    MultiReducer bw(devs, options(Split{SplitKind::Bandwidth, {}}));
    const std::vector<double> g = bw.bandwidths(false);
    REQUIRE(g.size() == devs.size());
    for (double x : g) CHECK(x > 0);
    CHECK(bw.bandwidths(false) == g);  // kept, not measured again
    const MultiResult b = bw.reduce(data.data(), ElemType::Uint, data.n, Op::Max);
    check_multi(b, data, Op::Max, bw.counts(data.n, false));
    CHECK(b.gbps > 0);
    CHECK(b.us > 0);
    // PoCL's devices here are one model: whatever the probes read, they split n evenly.
    for (bool resident : {false, true}) {
      const std::vector<std::uint64_t> c = bw.counts(data.n, resident);
      CAPTURE(resident);
      CHECK(*std::max_element(c.begin(), c.end()) - *std::min_element(c.begin(), c.end()) <= 1);
    }
  }

  TEST_CASE("float and double sums are bit-identical from run to run, resident and host-copied") {
    const std::vector<DeviceInfo> devs = test_devices();
    MultiReducer mr(devs, options(Split{SplitKind::Even, {}}, 1000));
    for (ElemType t : types_of(devs)) {
      if (!is_floating(t)) continue;
      const HostData data = generate_data(t, 65537, DataKind::Random, test::seed());
      const std::vector<std::uint64_t> counts = mr.counts(data.n, true);
      const std::vector<cl::Buffer> bufs = upload_parts(mr, data, counts);
      const Value host_first = mr.reduce(data.data(), t, data.n, Op::Sum).value;
      const Value res_first = mr.reduce_resident(bufs, counts, t, Op::Sum).value;
      for (int i = 0; i < 4; ++i) {
        CHECK(mr.reduce(data.data(), t, data.n, Op::Sum).value == host_first);
        CHECK(mr.reduce_resident(bufs, counts, t, Op::Sum).value == res_first);
      }
      check_multi(mr.reduce(data.data(), t, data.n, Op::Sum), data, Op::Sum, mr.counts(data.n, false));
    }
  }

  TEST_CASE("host data's device: a CPU beside a GPU default is a candidate; a CPU default or a GPU is not") {
    const std::vector<DeviceInfo> devs = test_devices();
    DeviceInfo gpu = devs[0];  // the first device, told it is a discrete GPU
    gpu.is_gpu = true;
    gpu.host_unified_memory = false;
    const std::vector<DeviceInfo> found = host_data_candidates(gpu, devs);
    REQUIRE(found.size() == devs.size() - 1);  // every other device (PoCL's CPUs), not itself
    for (std::size_t i = 0; i < found.size(); ++i) CHECK(found[i].device() == devs[i + 1].device());
    CHECK(host_data_candidates(devs[0], devs).empty());  // a default sharing the host's memory keeps it
    std::vector<DeviceInfo> gpus = devs;
    for (DeviceInfo& d : gpus) d.is_gpu = true;
    CHECK(host_data_candidates(gpu, gpus).empty());  // GPUs are not candidates
    // A default sharing the host's memory (PoCL's CPU) keeps host data; a GPU may give it to a
    // CPU device beside it (on the GPU machines, PoCL's).
    const DeviceInfo def = select_device({});
    if (def.host_unified_memory) {
      CHECK(host_data_device().device() == def.device());
    } else {
      bool known = host_data_device().device() == def.device();
      for (const DeviceInfo& c : host_data_candidates(def, list_devices())) known = known || host_data_device().device() == c.device();
      CHECK(known);
    }
    // The choice: the faked GPU against the other device, by the probe, and whichever comes
    // reduces right; named (CLREDUCE_DEVICE), the default is kept without a probe.
    std::unique_ptr<MultiReducer> chosen = host_reducer_for(gpu, false, devs);
    REQUIRE(chosen->devices().size() == 1);
    const bool is_first = chosen->devices().front().device() == devs[0].device();
    const bool is_second = devs.size() > 1 && chosen->devices().front().device() == devs[1].device();
    CHECK((is_first || is_second));
    MESSAGE("host data's device by the probe: " << std::string(is_first ? "the default" : "the other CPU"));
    const std::vector<std::uint32_t> seven(1000003, 7u);
    CHECK(chosen->reduce(seven.data(), ElemType::Uint, seven.size(), Op::Sum).value.get<std::uint32_t>() == 7000021u);
    CHECK(host_reducer_for(gpu, true, devs)->devices().front().device() == devs[0].device());
  }

  TEST_CASE("upload_host: through pinned staging (forced on a CPU device) and by one write, the same bytes") {
    // Two 16 MiB chunks and a tail, from an odd address: the pinned path's chunks, slices and
    // offsets, taken here by telling upload_host the device does not share the host's memory.
    DeviceInfo dev = test_devices().front();
    cl::Context ctx(dev.device);
    cl::CommandQueue q(ctx, dev.device);
    const std::uint64_t bytes = 2 * kUploadChunk + 4099;
    std::vector<unsigned char> src(bytes + 1);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    for (bool unified : {false, true}) {
      CAPTURE(unified);
      dev.host_unified_memory = unified;
      cl::Buffer dst(ctx, CL_MEM_READ_WRITE, bytes);
      upload_host(ctx, q, dev, dst, src.data() + 1, bytes);
      std::vector<unsigned char> back(bytes);
      q.enqueueReadBuffer(dst, CL_TRUE, 0, bytes, back.data());
      CHECK(std::memcmp(back.data(), src.data() + 1, bytes) == 0);
    }
  }

  TEST_CASE("descriptors: every built-in over the devices, host-copied and resident, even and uneven splits") {
    // Every built-in, each with a type of its own (the rotation walks the types, skipping those it
    // refuses), at n = 1 (fewer elements than devices), a prime, and several 4096-element chunks
    // per device; argmin's index, a mean's count and the nan* ops' skips are the whole input's.
    const std::vector<DeviceInfo> devs = test_devices();
    const bool fp64 = std::all_of(devs.begin(), devs.end(), [](const DeviceInfo& d) { return d.fp64; });
    std::vector<double> uneven;
    for (std::size_t i = 0; i < devs.size(); ++i) uneven.push_back(static_cast<double>(3 - i % 3));
    MultiReducer even(devs, options(Split{SplitKind::Even, {}}));
    MultiReducer weighted(devs, options(Split{SplitKind::Weights, uneven}));
    const std::vector<Scalar>& types = all_scalars();
    std::size_t runs = 0, k = 0;
    for (Builtin b : all_builtins()) {
      std::optional<Reduction> r;
      for (std::size_t tries = 0; !r && tries < types.size(); ++tries) {
        const Scalar t = types[(k++ * 5 + test::seed()) % types.size()];
        if (t == Scalar::F64 && !fp64) continue;
        try {
          r = builtin(b, t);
        } catch (const Error&) {
        }
      }
      REQUIRE_MESSAGE(r.has_value(), "no type for " << name_of(b));
      if (r->needs_fp64() && !fp64) continue;
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{1009}, std::uint64_t{3 * 4096 * devs.size() + 17}}) {
        std::vector<ScalarData> data;
        for (unsigned j = 0; j < r->inputs.size(); ++j)
          data.push_back(generate_scalar_data(r->inputs[j], n, DataKind::Random, test::seed() + n, j));
        const std::vector<ScalarArg> scalars;
        for (MultiReducer* mr : {&even, &weighted})
          for (bool resident : {false, true}) {
            CAPTURE(r->name);
            CAPTURE(name_of(r->inputs.front()));
            CAPTURE(n);
            CAPTURE(resident);
            CAPTURE(mr->options().split.str());
            const std::vector<std::uint64_t> counts = mr->counts(n, resident);
            const MultiResult m = resident
                                      ? mr->reduce_resident(*r, upload_descriptor_parts(*mr, data, counts), counts, scalars)
                                      : mr->reduce(*r, pointers(data), n, scalars);
            CHECK(m.resident == resident);
            check_multi_descriptor(m, *r, data, counts);
            ++runs;
          }
      }
    }
    MESSAGE(runs << " multi-device descriptor reductions checked (seed " << test::seed() << ")");
  }

  TEST_CASE("descriptors: a float sum and argmax are bit-identical from run to run; the index is the whole input's") {
    const std::vector<DeviceInfo> devs = test_devices();
    MultiReducer mr(devs, options(Split{SplitKind::Even, {}}, 1000));
    const std::uint64_t n = 65537;
    std::vector<ScalarData> data{generate_scalar_data(Scalar::F32, n, DataKind::Random, test::seed())};
    // The largest value in the last device's part, so its index is far past that part's start.
    const float big = 7.5f;
    std::memcpy(data[0].bytes.data() + (n - 3) * 4, &big, 4);
    for (Builtin b : {Builtin::Sum, Builtin::ArgMax, Builtin::VarSample}) {
      const Reduction r = builtin(b, Scalar::F32);
      const MultiResult first = mr.reduce(r, pointers(data), n);
      check_multi_descriptor(first, r, data, mr.counts(n, false));
      for (int i = 0; i < 3; ++i) CHECK(mr.reduce(r, pointers(data), n).result.bytes == first.result.bytes);
      if (b == Builtin::ArgMax) {
        CHECK(first.result.index() == n - 3);
        CHECK(first.result.value() == 7.5);
      }
    }
  }

  TEST_CASE("descriptors: user files (a struct accumulator with the index; two inputs and a scalar) over the devices") {
    const std::vector<DeviceInfo> devs = test_devices();
    MultiReducer mr(devs, options(Split{SplitKind::Weights, std::vector<double>(devs.size(), 1.0)}, 4096));
    const std::filesystem::path dir = CLREDUCE_SOURCE_KERNEL_DIR;
    // Not a structured binding: clang (C++17) cannot capture one in CAPTURE's lambda.
    for (const std::pair<std::string, std::vector<ScalarArg>>& example :
         {std::pair{std::string("iamax.clh"), std::vector<ScalarArg>{}},
          std::pair{std::string("huber_loss.clh"), std::vector<ScalarArg>{0.25}}}) {
      const std::string& file = example.first;
      const std::vector<ScalarArg>& scalars = example.second;
      const Reduction r = load_reduction(dir / "examples" / file);
      for (std::uint64_t n : {std::uint64_t{2}, std::uint64_t{30011}}) {
        CAPTURE(file);
        CAPTURE(n);
        std::vector<ScalarData> data;
        for (unsigned j = 0; j < r.inputs.size(); ++j)
          data.push_back(generate_scalar_data(r.inputs[j], n, DataKind::Random, test::seed() + j, j));
        // The reference: the whole input on the session's device, folded in index order.
        std::vector<Input> whole;
        for (const ScalarData& d : data) {
          cl::Buffer b(test::session().context(), CL_MEM_READ_ONLY, d.bytes.size());
          test::session().queue().enqueueWriteBuffer(b, CL_TRUE, 0, d.bytes.size(), d.bytes.data());
          whole.push_back(Input{b, 0});
        }
        const DeviceReference ref = descriptor_device_reference(test::session(), r, whole, {ReferenceLine{0, n, 0}}, 1, scalars);
        for (bool resident : {false, true}) {
          CAPTURE(resident);
          const std::vector<std::uint64_t> counts = mr.counts(n, resident);
          const MultiResult m = resident ? mr.reduce_resident(r, upload_descriptor_parts(mr, data, counts), counts, scalars)
                                         : mr.reduce(r, pointers(data), n, scalars);
          const Check c = check_user_descriptor(m.result, ref.results[0], ref.magnitudes[0], m.depth,
                                                reference_depth(n, 1));
          CHECK_MESSAGE(c.ok, c.detail);
        }
      }
    }
  }

  TEST_CASE("descriptors: parts of a larger reduction (accumulate from an index base, then finish) give the whole input's result") {
    // What clreduce-mpi does with its ranks' shards: pieces reduced apart, each from its first
    // index, their unfinished parts put side by side and finished once.
    const std::vector<DeviceInfo> devs = test_devices();
    MultiReducer mr(devs, options(Split{SplitKind::Even, {}}, 1000));
    const bool fp64 = std::all_of(devs.begin(), devs.end(), [](const DeviceInfo& d) { return d.fp64; });
    const std::uint64_t n = 30011;
    const std::vector<std::uint64_t> cuts{0, 7, 12000, n};  // three pieces, one shorter than the devices' chunks
    std::vector<Reduction> rs{builtin(Builtin::Sum, Scalar::F32, std::nullopt, Summation::Exact),
                              builtin(Builtin::Dot, Scalar::BF16, std::nullopt, Summation::Exact),
                              builtin(Builtin::L2, Scalar::F16, std::nullopt, Summation::Exact),
                              builtin(Builtin::ArgMax, Scalar::F32), builtin(Builtin::Sum, Scalar::U32),
                              builtin(Builtin::VarSample, Scalar::F32), builtin(Builtin::Mean, Scalar::I16)};
    if (fp64) rs.push_back(builtin(Builtin::Mean, Scalar::F64, std::nullopt, Summation::Exact));
    for (const Reduction& r : rs) {
      CAPTURE(r.name);
      CAPTURE(name_of(r.summation));
      std::vector<ScalarData> data;
      for (unsigned j = 0; j < r.inputs.size(); ++j)
        data.push_back(generate_scalar_data(r.inputs[j], n, DataKind::Random, test::seed() + j, j));
      if (r.builtin == Builtin::ArgMax) {  // the largest in the last piece, far past its start
        const float big = 7.5f;
        std::memcpy(data[0].bytes.data() + (n - 3) * 4, &big, 4);
      }
      std::vector<unsigned char> parts;
      std::uint64_t count = 0;
      unsigned depth = 0;
      for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        std::vector<const void*> piece;
        for (std::size_t j = 0; j < data.size(); ++j)
          piece.push_back(data[j].bytes.data() + cuts[k] * size_of(r.inputs[j]));
        const MultiResult m = mr.accumulate(r, piece, cuts[k + 1] - cuts[k], cuts[k]);
        CHECK(m.n == cuts[k + 1] - cuts[k]);
        CHECK(m.parts.size() == m.part_count * r.acc_bytes);
        parts.insert(parts.end(), m.parts.begin(), m.parts.end());
        count += m.part_count;
        depth = std::max(depth, m.depth);
      }
      const Result got = mr.finish(r, parts.data(), count, n);
      std::vector<const ScalarData*> in;
      for (const ScalarData& d : data) in.push_back(&d);
      const DescriptorReference ref = descriptor_reference(r, in, n, depth + static_cast<unsigned>(count));
      const Check c = check_descriptor(got, ref);
      CHECK_MESSAGE(c.ok, c.detail << " (" << ref.how << ")");
      if (r.summation == Summation::Exact)  // the bits of one call over the whole input
        CHECK(got.bytes == mr.reduce(r, pointers(data), n).result.bytes);
      if (r.builtin == Builtin::ArgMax) CHECK(got.index() == n - 3);
    }
    const Reduction sum = builtin(Builtin::Sum, Scalar::F32, std::nullopt, Summation::Exact);
    const std::vector<float> x(10, 1.0f);
    const MultiResult m = mr.accumulate(sum, {x.data()}, 10, 5);
    for (const auto& [count, elements, words] :
         {std::tuple{std::uint64_t{0}, std::uint64_t{10}, "finishing 0 parts; valid: 1 to 2^32 - 1"},
          {m.part_count, std::uint64_t{0}, "n must be at least 1"}}) {
      try {
        mr.finish(sum, m.parts.data(), count, elements);
        FAIL("accepted: " << words);
      } catch (const Error& e) {
        CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
        CHECK(e.param() == Param::N);
      }
    }
    CHECK_THROWS_WITH_AS(mr.finish(sum, nullptr, 1, 10), doctest::Contains("the parts pointer is null"), Error);
    CHECK_THROWS_WITH_AS(mr.accumulate(sum, {x.data()}, 10, ~std::uint64_t{0} - 3),
                         doctest::Contains("passes 2^64 - 1"), Error);
    CHECK(mr.finish(sum, m.parts.data(), m.part_count, 10).value() == 10.0);
  }

  TEST_CASE("descriptors: refusals name the problem (inputs, scalars, null pointers, buffers, n = 0, a broken file)") {
    const std::vector<DeviceInfo> devs = test_devices();
    MultiReducer mr(devs, options(Split{SplitKind::Even, {}}));
    const Reduction dot = builtin(Builtin::Dot, Scalar::F32);
    const std::vector<float> x(100, 1.0f);
    const auto refused = [](auto&& call, Param p, const std::string& words) {
      try {
        call();
        FAIL("accepted: " << words);
      } catch (const Error& e) {
        CHECK_MESSAGE(e.param() == p, e.what());
        CHECK_MESSAGE(std::string(e.what()).find(words) != std::string::npos, e.what());
        CHECK(std::string(e.what()).find('\n') == std::string::npos);
      }
    };
    refused([&] { mr.reduce(dot, {x.data()}, 100); }, Param::Buffer, "takes 2 input(s); 1 given");
    refused([&] { mr.reduce(dot, {x.data(), nullptr}, 100); }, Param::Buffer, "input 1 is null");
    refused([&] { mr.reduce(dot, {x.data(), x.data()}, 0); }, Param::N, "at least 1");
    refused([&] { mr.reduce(dot, {x.data(), x.data()}, 100, {1.0}); }, Param::Op, "takes 0 scalar argument(s); 1 given");
    const std::vector<std::uint64_t> counts = mr.counts(100, true);
    std::vector<std::vector<Input>> small(devs.size());
    for (std::size_t i = 0; i < devs.size(); ++i)
      for (int j = 0; j < 2; ++j) small[i].push_back(Input{cl::Buffer(mr.context(i), CL_MEM_READ_ONLY, 8), 0});
    refused([&] { mr.reduce_resident(dot, small, counts); }, Param::Buffer, "too few for offset 0 + ");
    refused([&] { mr.reduce_resident(dot, {}, counts); }, Param::Buffer, "one list of inputs and one count per device");
    const std::filesystem::path broken = std::filesystem::temp_directory_path() / "clreduce_multi_broken.clh";
    std::ofstream(broken) << "#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0.0f\n"
                             "#define COMBINE(a, b) ((a) + undeclared_name)\n";
    const Reduction bad = load_reduction(broken);
    try {
      mr.reduce(bad, {x.data()}, 100);
      FAIL("a broken descriptor was accepted");
    } catch (const Error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(broken.string() + ":5:") != std::string::npos, e.what());
      CHECK_MESSAGE(std::string(e.what()).find("device 0") != std::string::npos, e.what());
    }
    std::filesystem::remove(broken);
  }

  TEST_CASE("refusals: a missing or repeated device index, bad weights, n = 0, argmin, one line each") {
    const std::vector<DeviceInfo> devs = test_devices();
    const std::size_t platform = devs.front().platform_index;
    const auto one_line = [](const Error& e, Param p, const std::string& part) {
      CHECK(e.param() == p);
      const std::string what = e.what();
      CHECK_MESSAGE(what.find(part) != std::string::npos, what);
      CHECK(what.find('\n') == std::string::npos);
    };
    try {
      devices_at(platform, {0, 99});
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Devices, "no device 99");
      CHECK(std::string(e.what()).find("valid device indices: 0 (") != std::string::npos);
    }
    try {
      devices_at(platform, {0, 0});
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Devices, "listed twice");
    }
    if (devs.size() > 1) CHECK(devices_at(platform, {1, 0}).front().device_index == 1);
    try {
      MultiReducer(devs, options(Split{SplitKind::Weights, {1, 2, 3, 4}}));
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Split, "one weight per device");
    }
    try {
      MultiReducer({}, options(Split{}));
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Devices, "empty");
    }
    MultiReducer mr(devs, options(Split{SplitKind::Even, {}}));
    const std::vector<std::uint32_t> x(10, 1);
    try {
      mr.reduce(x.data(), ElemType::Uint, 0, Op::Sum);
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::N, "at least 1");
    }
    try {
      mr.reduce(x.data(), ElemType::Uint, 10, Op::ArgMax);
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Op, "sum, min and max");
    }
    try {
      mr.reduce_resident({}, {}, ElemType::Uint, Op::Sum);
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Buffer, "one buffer and one count per device");
    }
  }

  TEST_CASE("a device that fails is named, after every device's work has ended") {
    // Every device reads a kernel that does not compile: the first device in order is named.
    const auto dir = test::copy_kernels("multi_fail");
    test::replace_in_file(dir / "contiguous_blocks.cl", "__kernel", "__kernel this_does_not_compile");
    const std::vector<DeviceInfo> devs = test_devices();
    MultiDeviceOptions o = options(Split{SplitKind::Even, {}});
    o.reducer.kernel_dir = dir;
    o.reducer.params.variant = "contiguous_blocks";
    MultiReducer mr(devs, o);
    const HostData data = generate_data(ElemType::Uint, 5000, DataKind::Random, test::seed());
    try {
      mr.reduce(data.data(), ElemType::Uint, data.n, Op::Sum);
      FAIL("accepted");
    } catch (const Error& e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.rfind("device 0 (" + devs[0].name + ") failed: ", 0) == 0, what);
      CHECK(e.device() == devs[0].name);
    }
  }

  TEST_CASE("one device failing while the others reduce is named, and the reducer works again after it") {
    // A kernel directory whose contiguous_blocks.cl refuses to build as a second pass: a device
    // whose part needs two passes fails inside its own thread (its build fails, log and all),
    // while the devices whose parts take one pass reduce theirs. The weights give the last device
    // almost all of n. The error names that device, comes after every thread has ended, and the
    // MultiReducer works again for an n whose parts all take one pass.
    const auto dir = test::copy_kernels("multi_one_fails");
    test::replace_in_file(dir / "contiguous_blocks.cl", "#include \"reduce_common.clh\"",
                          "#include \"reduce_common.clh\"\n#if !FIRST_PASS\n#error injected failure of a second pass\n#endif");
    const std::vector<DeviceInfo> devs = test_devices();
    std::vector<double> w(devs.size(), 1.0);
    w.back() = 1000;
    MultiDeviceOptions o = options(Split{SplitKind::Weights, w});
    o.reducer.kernel_dir = dir;
    o.reducer.params.variant = "contiguous_blocks";
    MultiReducer mr(devs, o);
    const HostData big = generate_data(ElemType::Uint, 1000000, DataKind::Random, test::seed());
    const std::vector<std::uint64_t> counts = mr.counts(big.n, true);
    const std::size_t last = devs.size() - 1;
    try {
      mr.reduce_resident(upload_parts(mr, big, counts), counts, ElemType::Uint, Op::Sum);
      FAIL("accepted");
    } catch (const Error& e) {
      const std::string what = e.what();
      CHECK_MESSAGE(what.rfind("device " + std::to_string(last) + " (" + devs[last].name + ") failed: ", 0) == 0, what);
      CHECK_MESSAGE(what.find("injected failure of a second pass") != std::string::npos, what);
      CHECK(e.device() == devs[last].name);
    }
    const HostData small = generate_data(ElemType::Uint, 2000, DataKind::Random, test::seed() + 1);
    const std::vector<std::uint64_t> few = mr.counts(small.n, true);
    check_multi(mr.reduce_resident(upload_parts(mr, small, few), few, ElemType::Uint, Op::Sum), small, Op::Sum, few);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("bench multi: a row per device count, checked, JSON and CSV") {
    const std::size_t d = test_devices().size();
    const CliRun j = run_cli("bench multi --n 100003 --type float --split even --iterations 2 --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.stdout_text);
    CHECK(doc.at("kind") == "bench multi");
    CHECK(doc.at("all_ok") == true);
    // meta names every device with its driver, and hashes the kernels the run read.
    const auto& meta = doc.at("meta");
    REQUIRE(meta.at("devices").size() == d);
    for (std::size_t k = 0; k < d; ++k) {
      CHECK(meta.at("devices")[k].at("name") == test_devices()[k].name);
      CHECK(meta.at("devices")[k].at("driver") == test_devices()[k].driver_version);
    }
    CHECK(!meta.contains("device"));
    CHECK(meta.at("kernels_fnv1a64").get<std::string>().size() == 16);
    CHECK(meta.at("kernel_files").get<std::size_t>() > 0);
    REQUIRE(doc.at("rows").size() == d);
    for (std::size_t k = 0; k < d; ++k) {
      const auto& row = doc.at("rows")[k];
      CHECK(row.at("devices") == k + 1);
      CHECK(row.at("ok") == true);
      CHECK(row.at("gbps").get<double>() > 0);
      CHECK(row.at("efficiency_pct").get<double>() > 0);
      CHECK(row.at("shares").size() == k + 1);
      CHECK(row.at("tail_us").at("median").get<double>() >= 0);
      for (const auto& share : row.at("shares")) CHECK(share.at("start_us").at("median").get<double>() >= 0);
    }
    CHECK(doc.at("rows")[0].at("efficiency_pct").get<double>() == doctest::Approx(100.0));
    // Host-copied: each part's path, and the anchors of the same bytes (the host's best threaded
    // sum, device 0's writes); a resident run has none.
    CHECK(doc.at("host_path") == "auto");
    // In place on a device sharing the host's memory (PoCL's CPUs); else pinned, but a part of one
    // chunk (all of them at this n) is written pageable.
    const std::string expected_path = test_devices()[0].host_unified_memory ? "in_place" : "pageable";
    for (const auto& share : doc.at("rows")[0].at("shares")) CHECK(share.at("host_path") == expected_path);
    const auto& anchors = doc.at("anchors");
    CHECK(anchors.at("host_sum_gbps").get<double>() > 0);
    CHECK(anchors.at("threads").get<unsigned>() >= 1);
    CHECK(anchors.at("host_sum").get<std::string>().rfind("f32 sum into f64 over ", 0) == 0);
    CHECK(anchors.at("write_bytes") == 100003 * 4);
    CHECK(anchors.at("pageable_write_gbps").get<double>() > 0);
    CHECK(anchors.at("pinned_write_gbps").get<double>() > 0);
    // The library's own call on the same host data, checked.
    CHECK(doc.at("api_call").at("ok") == true);
    CHECK(doc.at("api_call").at("gbps").get<double>() > 0);
    {
      // The CLI's own process measures its choice: the default device or a CPU candidate beside it.
      const DeviceInfo def = select_device({});
      std::vector<std::string> may{def.name};
      for (const DeviceInfo& c : host_data_candidates(def, list_devices())) may.push_back(c.name);
      CHECK(std::find(may.begin(), may.end(), doc.at("api_call").at("device").get<std::string>()) != may.end());
    }
    // 400 KB of floats: the calling thread's route (up to 1 MiB), named with the line past it.
    CHECK(doc.at("api_call").at("route").get<std::string>().rfind("by the calling thread; host threads up to ", 0) == 0);

    const CliRun t = run_cli("bench multi --n 5000 --op max --type int --resident --split 3" +
                             std::string(d == 3 ? ",1,1" : d == 2 ? ",1" : "") + " --iterations 1");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    CHECK(t.stdout_text.find("efficiency") != std::string::npos);
    CHECK(t.stdout_text.find("resident") != std::string::npos);
    CHECK(t.stdout_text.find("exact match") != std::string::npos);
    CHECK(t.stdout_text.find("anchors (") == std::string::npos);
    CHECK(t.stdout_text.find("clreduce::reduce() of the same host data") == std::string::npos);

    // A device count whose weights are all 0 is not run, and said so.
    if (d >= 2) {  // needs a device of weight 0 beside one that reduces
      const CliRun z = run_cli("bench multi --n 1000 --iterations 1 --format json --split 0,1" + std::string(d == 3 ? ",1" : ""));
      REQUIRE_MESSAGE(z.code == 0, z.out);
      const auto zdoc = nlohmann::json::parse(z.stdout_text);
      CHECK(zdoc.at("skipped_device_counts") == nlohmann::json::array({1}));
      REQUIRE(zdoc.at("rows").size() == d - 1);
      CHECK(zdoc.at("rows")[0].at("shares")[0].at("n") == 0);
    }

    // Reduction descriptors: a built-in of a type only descriptors take, with the whole input's
    // index; a user's file with two inputs and a scalar, resident.
    const CliRun a = run_cli("bench multi --n 50001 --op argmin --type f16 --split even --chunk 4096 --iterations 1 "
                             "--format json");
    REQUIRE_MESSAGE(a.code == 0, a.out);
    const auto adoc = nlohmann::json::parse(a.stdout_text);
    CHECK(adoc.at("all_ok") == true);
    CHECK(adoc.at("reduction") == "argmin");
    CHECK(adoc.at("inputs") == nlohmann::json::array({"f16"}));
    CHECK(adoc.at("result_layout") == "argvalue<f32>");
    CHECK(adoc.at("bytes") == 100002);
    CHECK(!adoc.contains("op"));
    REQUIRE(adoc.at("rows").size() == d);
    CHECK(adoc.at("rows")[d - 1].at("shares")[d - 1].at("chunks").get<int>() >= 2);
    const CliRun h = run_cli("bench multi --n 30011 --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) +
                             "/examples/huber_loss.clh --scalar 0.5 --resident --iterations 1");
    REQUIRE_MESSAGE(h.code == 0, h.out);
    CHECK(h.stdout_text.find("reduction huber_loss") != std::string::npos);
    CHECK(h.stdout_text.find("accumulator float, result f32, scalars 0.5") != std::string::npos);
    CHECK(h.stdout_text.find("one work-item in index order") != std::string::npos);

    const CliRun c = run_cli(std::string("bench multi --n 3 --iterations 1 --format csv --devices ") + (d > 1 ? "1,0" : "0"));
    REQUIRE_MESSAGE(c.code == 0, c.out);
    CHECK(c.stdout_text.rfind("devices,parts,", 0) == 0);
    CHECK(std::count(c.stdout_text.begin(), c.stdout_text.end(), '\n') == (d > 1 ? 3 : 2));  // header and a row a device count
  }

  TEST_CASE("one kernel running on several devices at once, with different grid widths") {
    // PoCL before 7.0 keeps the loaded kernel code of all its CPU devices in one list, keyed by
    // the kernel's hash (of source, options and the device's build hash, the same for two
    // identical devices). A launch takes the first entry whose grid is at least as wide as its
    // own (3.1 counts that take twice), but its end gives back the first entry of the same hash
    // and work-group size, whichever it took. Narrow launches on two devices, then a wider one on
    // a third taken up while both still ran: the wide entry was taken twice and given back three
    // times, and the third end aborted the process ("found->ref_count > 0"; fixed in PoCL 7.0,
    // pocl/pocl c9ac4c0c3), as multi_device_3 did at random. ProgramCache gives each device of
    // such a platform options of its own (kernels.cpp, distinct_program_options), so the
    // programs of two devices share no entry. Whether the wide launch is taken up before a narrow
    // one ends is up to PoCL's threads (about one round in three on two cores): several rounds,
    // each a program of its own (SALT), so each starts from no entry.
    const std::vector<DeviceInfo> devs = test_devices();
    if (devs.size() < 3) {
      MESSAGE("the overlap needs three devices (multi_device_3)");
      return;
    }
    // PoCL 3.1 (Debian 12's) and 6.0 (Debian 13's) have the flaw; on PoCL the flag follows the version.
    for (const DeviceInfo& d : devs)
      if (d.platform_version.find("PoCL 3.") != std::string::npos || d.platform_version.find("PoCL 6.") != std::string::npos)
        CHECK(d.kernel_code_shared_across_devices == !d.is_gpu);
    const clreduce::test::ScratchDir dir("pocl_overlap");
    {
      std::ofstream f(dir.path / "spin.cl");
      f << "#ifndef SALT\n#define SALT 0u // added to each work-item's start: a program of its own per value\n#endif\n"
           "__kernel void spin(__global uint* out, const uint steps) {\n"
           "  uint x = (uint)get_global_id(0) + SALT;\n"
           "  for (uint i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;\n"
           "  out[get_global_id(0)] = x;\n"
           "}\n";
    }
    auto expected = [](std::uint32_t start, std::uint32_t steps) {
      std::uint32_t x = start;
      for (std::uint32_t i = 0; i < steps; ++i) x = x * 1664525u + 1013904223u;
      return x;
    };
    struct Launch {
      cl::CommandQueue queue;
      cl::Kernel kernel;
      cl::Buffer out;
      std::size_t global;
      std::uint32_t steps;
    };
    const std::uint32_t long_steps = 1u << 22, short_steps = 3;
    std::vector<cl::Context> contexts;
    for (std::size_t d = 0; d < 3; ++d) contexts.emplace_back(devs[d].device);
    for (std::uint32_t round = 0; round < 10; ++round) {
      CAPTURE(round);
      const std::string salt = "-D SALT=" + std::to_string(round) + "u";
      auto launch = [&](std::size_t d, std::size_t global, std::uint32_t steps) {
        Launch l{cl::CommandQueue(contexts[d], devs[d].device),
                 ProgramCache::shared().kernel(contexts[d], devs[d], dir.path, "spin.cl", "spin", salt),
                 cl::Buffer(contexts[d], CL_MEM_READ_WRITE, global * sizeof(std::uint32_t)), global, steps};
        l.kernel.setArg(0, l.out);
        l.kernel.setArg(1, steps);
        return l;
      };
      std::vector<Launch> launches{launch(0, 48, long_steps), launch(1, 48, long_steps), launch(2, 256, short_steps)};
      for (Launch& l : launches) {
        l.queue.enqueueNDRangeKernel(l.kernel, cl::NullRange, cl::NDRange(l.global), cl::NDRange(16));
        l.queue.flush();
      }
      for (const Launch& l : launches) {
        std::vector<std::uint32_t> got(l.global);
        l.queue.enqueueReadBuffer(l.out, CL_TRUE, 0, got.size() * 4, got.data());
        std::size_t wrong = 0;
        for (std::uint32_t g = 0; g < got.size(); ++g) wrong += got[g] != expected(g + round, l.steps);
        CHECK(wrong == 0);
      }
    }
  }

  TEST_CASE("bench multi: bad input is one line naming the problem and the valid choices") {
    const auto expect_error = [](const std::string& args, const std::string& message) {
      const CliRun r = run_cli(args);
      INFO("clreduce " << args << "\n" << r.out);
      CHECK(r.code == 2);
      CHECK(r.out.rfind("clreduce: error: ", 0) == 0);
      CHECK(r.out.find(message) != std::string::npos);
      CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    };
    expect_error("bench multi --devices 0,42 --n 100", "--devices: no device 42 on platform");
    expect_error("bench multi --devices 0,0 --n 100", "listed twice");
    expect_error("bench multi --split fast --n 100", "--split: invalid split 'fast'");
    expect_error("bench multi --split 1,2,3,4,5 --n 100", "weights for");
    expect_error("bench multi --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/product.clh --n 100",
                 "is a user operator");
    expect_error("bench multi --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/huber_loss.clh --n 100",
                 "takes 1 scalar argument(s) (f32); --scalar was given 0 time(s)");
    expect_error("bench multi --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) +
                     "/examples/huber_loss.clh --type f32 --scalar 1 --n 100",
                 "leave --type out");
    expect_error("bench multi --op median --n 100", "valid operators: sum, sum_wrap");
    expect_error("bench multi --type half --n 100", "valid types");
    expect_error("bench multi --n 0", "at least 1");
    expect_error("bench multi --n 100 --resident --chunk 10", "--chunk");
    expect_error("bench --n 100 multi", "not for `bench multi`");
    expect_error("bench multi --devices 0:x --n 100", "--devices: '0:x' is not a device; valid: device indices D");
    expect_error("bench multi --devices 0:0,-1 --n 100", "--devices: '-1' is not a device");
    expect_error("bench multi --devices 0:0,999:0 --n 100", "no platform with index 999");
    expect_error("bench multi --devices 0:0,0:0 --n 100", "listed twice");
    expect_error("bench multi --host-path dma --n 100", "--host-path: unknown host path 'dma'; valid: auto, pageable, pinned, in_place");
    expect_error("bench multi --host-path pinned --resident --n 100", "drop it with --resident");
    expect_error("bench multi --host-path pageable --copy-threads 4 --n 100", "--copy-threads sets the pinned path's");
  }
}
