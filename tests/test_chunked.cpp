// Inputs over the device's largest allocation, reduced in chunks: the device under test posing
// with a 64 KiB allocation limit, so the chunked path runs at test sizes; and the host fold.
#include <doctest/doctest.h>

#include "measure/chunked.hpp"
#include "clreduce/error.hpp"
#include "support.hpp"

using namespace clreduce;
using namespace clreduce::test;

TEST_SUITE("runtime") {
  TEST_CASE("n over the largest allocation is reduced in chunks, every variant, type and operator") {
    DeviceInfo small = session().device();
    small.max_alloc_bytes = 64 * 1024;  // 16384 uints, 8192 doubles per chunk
    const Session rt(small, CLREDUCE_SOURCE_KERNEL_DIR);
    std::vector<ElemType> types{ElemType::Uint, ElemType::Int, ElemType::Float};
    if (small.fp64) types.push_back(ElemType::Double);
    // Every (variant, type, operator) builds programs of its own: the default run takes the seeded
    // sample of CLREDUCE_TEST_SAMPLE (ctest's runtime test: one in 4; runtime_full, label full: all).
    std::size_t runs = 0, combination = 0;
    for (const auto& v : variants()) {
      if (!v.unavailable_reason(small).empty()) continue;
      for (ElemType t : types)
        for (Op op : all_ops()) {
          if (!in_shard(combination++)) continue;
          const std::uint64_t chunk = chunk_elements(t, small);
          for (std::uint64_t n : {chunk + 1, 3 * chunk, 6 * chunk + 4099}) {
            ReduceConfig cfg;
            cfg.variant = v.name;
            cfg.type = t;
            cfg.op = op;
            cfg.wg = test_wg(v.name, 64, t);
            const HostData data = generate_data(t, n, DataKind::Random, seed() + n);
            const ReduceReport r = run_config(rt, cfg, data, quick_timing(1, 2));
            CAPTURE(describe(cfg, n, DataKind::Random));
            CHECK(r.chunks == (n + chunk - 1) / chunk);
            CHECK_MESSAGE(r.ok(), r.check.detail);
            ++runs;
          }
        }
    }
    MESSAGE(runs << " chunked reductions checked");
    CHECK(runs > 0);
  }

  TEST_CASE("inputs within one allocation are not chunked") {
    ReduceConfig cfg;
    cfg.variant = "vector";
    const HostData data = generate_data(cfg.type, 1000, DataKind::Random, seed());
    CHECK(run_config(session(), cfg, data, quick_timing(1, 2)).chunks == 1);
  }
}

TEST_SUITE("unit") {
  TEST_CASE("the host fold of the chunks' values") {
    auto values = [](auto... xs) {
      std::vector<Value> out;
      (out.push_back(Value{xs}), ...);
      return out;
    };
    CHECK(std::get<std::uint32_t>(fold_values(values(0xFFFFFFFFu, 2u), Op::Sum).v) == 1u);
    CHECK(std::get<std::int32_t>(fold_values(values(2147483647, 1), Op::Sum).v) == -2147483647 - 1);
    CHECK(std::get<std::int32_t>(fold_values(values(5, -7, 3), Op::Min).v) == -7);
    CHECK(std::get<float>(fold_values(values(1.5f, 2.25f), Op::Max).v) == 2.25f);
    CHECK(std::get<double>(fold_values(values(1.0, 2.0, 3.5), Op::Sum).v) == 6.5);
    CHECK_THROWS_AS(fold_values({}, Op::Sum), Error);
  }

  TEST_CASE("chunks are whole multiples of 4096 elements; the device memory bounds n") {
    const DeviceInfo dev = fake_device();  // 1 MiB allocation, 4 MiB global memory
    CHECK(chunk_elements(ElemType::Uint, dev) == 262144);
    CHECK(chunk_elements(ElemType::Double, dev) == 131072);
    CHECK_NOTHROW(check_device_memory(800000, ElemType::Uint, dev));  // 3.2 MB in 4 chunks
    CHECK_THROWS_WITH_AS(check_device_memory(1000000, ElemType::Uint, dev),
                         doctest::Contains("over 90% of the global memory"), Error);
    CHECK_THROWS_WITH_AS(check_device_memory(0, ElemType::Uint, dev),
                         doctest::Contains("n must be at least 1"), Error);
  }
}
