// The multi-device reduction (issue 18): the split of n, the device lists and their refusals, the
// MultiReducer on 2 and 3 PoCL CPU devices (POCL_DEVICES, set by ctest) for every type and
// operator, resident and host-copied, uneven splits, n below the device count, n = 1 and primes,
// each against the host reference; repeatable float results; a failing device named; and
// `clreduce bench multi` end to end.
#include <doctest/doctest.h>

#include "support.hpp"
#include "clreduce/multi_device.hpp"
#include "multi_device/device_workers.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
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

  TEST_CASE("every type and operator, uneven weights (one device with none at small n)") {
    const std::size_t d = test_devices().size();
    std::vector<double> w{5, 1, 2};
    w.resize(d);
    matrix(Split{SplitKind::Weights, w});
  }

  TEST_CASE("a device with weight 0 skips; bandwidth split measures once and covers n") {
    const std::vector<DeviceInfo> devs = test_devices();
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
      devices_at(platform, {1, 1});
      FAIL("accepted");
    } catch (const Error& e) {
      one_line(e, Param::Devices, "listed twice");
    }
    CHECK(devices_at(platform, {1, 0}).front().device_index == 1);
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

    const CliRun t = run_cli("bench multi --n 5000 --op max --type int --resident --split 3,1" +
                             std::string(d == 3 ? ",1" : "") + " --iterations 1");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    CHECK(t.stdout_text.find("efficiency") != std::string::npos);
    CHECK(t.stdout_text.find("resident") != std::string::npos);
    CHECK(t.stdout_text.find("exact match") != std::string::npos);

    // A device count whose weights are all 0 is not run, and said so.
    const CliRun z = run_cli("bench multi --n 1000 --iterations 1 --format json --split 0,1" + std::string(d == 3 ? ",1" : ""));
    REQUIRE_MESSAGE(z.code == 0, z.out);
    const auto zdoc = nlohmann::json::parse(z.stdout_text);
    CHECK(zdoc.at("skipped_device_counts") == nlohmann::json::array({1}));
    REQUIRE(zdoc.at("rows").size() == d - 1);
    CHECK(zdoc.at("rows")[0].at("shares")[0].at("n") == 0);

    const CliRun c = run_cli("bench multi --n 3 --iterations 1 --format csv --devices 1,0");
    REQUIRE_MESSAGE(c.code == 0, c.out);
    CHECK(c.stdout_text.rfind("devices,parts,", 0) == 0);
    CHECK(std::count(c.stdout_text.begin(), c.stdout_text.end(), '\n') == 3);  // header and 2 rows
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
    expect_error("bench multi --op argmin --n 100", "sum, min and max");
    expect_error("bench multi --type half --n 100", "valid types");
    expect_error("bench multi --n 0", "at least 1");
    expect_error("bench multi --n 100 --resident --chunk 10", "--chunk");
    expect_error("bench --n 100 multi", "not for `bench multi`");
  }
}
