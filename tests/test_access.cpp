// The access-pattern study: both sum-of-cubes kernels against the host reference for odd n and
// for launch shapes where the contiguous chunks do not divide n (short and empty last chunks).
#include <doctest/doctest.h>

#include "benchmarks/access.hpp"
#include "clreduce/error.hpp"
#include "support.hpp"

using namespace clreduce;
using namespace clreduce::test;

TEST_SUITE("access") {
  TEST_CASE("the host sum of cubes wraps modulo 2^32") {
    HostData d = generate_data(ElemType::Uint, 3, DataKind::Iota, 0);  // 0, 1, 2
    CHECK(host_sum_of_cubes(d) == 9u);
    d = generate_data(ElemType::Uint, 4, DataKind::Max, 0);  // (-1)^3 four times = -4
    CHECK(host_sum_of_cubes(d) == 0xFFFFFFFCu);
  }

  TEST_CASE("both patterns match the host reference for odd n and uneven chunks") {
    const std::uint64_t sizes[] = {1, 2, 3, 255, 257, 1001, 65537, 1000003};
    for (std::uint64_t n : sizes) {
      for (const std::optional<std::uint64_t>& groups :
           {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{3},
            std::optional<std::uint64_t>{7}}) {
        AccessOptions opt;
        opt.wg = 0;  // the default: 256, or the largest the kernels allow (Rusticl: 32)
        opt.groups = groups;
        opt.timing = quick_timing(1, 2);
        const HostData data = generate_data(ElemType::Uint, n, DataKind::Random, seed());
        const AccessReport r = run_access(session(), data, opt);
        CAPTURE(n);
        CAPTURE(r.groups);
        CAPTURE(seed());
        REQUIRE(r.rows.size() == 2);
        for (const auto& row : r.rows) {
          CAPTURE(row.pattern.name);
          CHECK(row.value == r.reference);
          CHECK(row.ok);
        }
        CHECK(r.all_ok());
        CHECK(r.chunk * r.groups * r.wg >= n);
      }
    }
  }

  TEST_CASE("bad launch shapes are named") {
    const HostData data = generate_data(ElemType::Uint, 100, DataKind::Iota, 0);
    AccessOptions opt;
    opt.wg = 96;
    CHECK_THROWS_WITH_AS(run_access(session(), data, opt), doctest::Contains("not a power of two"), Error);
    opt.wg = 64;
    opt.groups = 0;
    CHECK_THROWS_WITH_AS(run_access(session(), data, opt), doctest::Contains("--groups must be at least 1"), Error);
    const HostData floats = generate_data(ElemType::Float, 100, DataKind::Iota, 0);
    CHECK_THROWS_WITH_AS(run_access(session(), floats, AccessOptions{}), doctest::Contains("uint"), Error);
  }
}
