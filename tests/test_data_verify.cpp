// Input data (generated and from files), host references and the result check, including the
// float tolerance catching one dropped element.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace clreduce;

TEST_SUITE("unit") {
  TEST_CASE("generated data is deterministic in the seed") {
    const HostData a = generate_data(ElemType::Float, 1000, DataKind::Random, 7);
    const HostData b = generate_data(ElemType::Float, 1000, DataKind::Random, 7);
    const HostData c = generate_data(ElemType::Float, 1000, DataKind::Random, 8);
    CHECK(a.bytes == b.bytes);
    CHECK(a.bytes != c.bytes);
    for (std::uint64_t i = 0; i < a.n; ++i) {
      const double x = a.at(i).to_double();
      REQUIRE(x >= -1.0);
      REQUIRE(x < 1.0);
    }
    const HostData m = generate_data(ElemType::Int, 3, DataKind::Max, 0);
    CHECK(m.at(2).str() == "2147483647");
    const HostData i = generate_data(ElemType::Uint, 5, DataKind::Iota, 0);
    CHECK(i.at(4).str() == "4");
  }

  TEST_CASE("uint and int sums wrap modulo 2^32") {
    const HostData ff = generate_data(ElemType::Uint, 3, DataKind::Max, 0);
    CHECK(host_reference(ff, Op::Sum).value.str() == std::to_string(3ULL * 0xFFFFFFFFULL % (1ULL << 32)));
    const std::uint64_t n = 100000;
    const HostData iota = generate_data(ElemType::Uint, n, DataKind::Iota, 0);
    CHECK(host_reference(iota, Op::Sum).value.str() == std::to_string(n * (n - 1) / 2 % (1ULL << 32)));
    const HostData imax = generate_data(ElemType::Int, 2, DataKind::Max, 0);
    CHECK(host_reference(imax, Op::Sum).value.str() == "-2");  // 2*INT_MAX wraps to -2
  }

  TEST_CASE("min and max references") {
    const HostData d = generate_data(ElemType::Int, 1000, DataKind::Random, 3);
    std::int32_t lo = std::numeric_limits<std::int32_t>::max(), hi = std::numeric_limits<std::int32_t>::min();
    for (std::uint64_t i = 0; i < d.n; ++i) {
      lo = std::min(lo, d.as<std::int32_t>()[i]);
      hi = std::max(hi, d.as<std::int32_t>()[i]);
    }
    CHECK(host_reference(d, Op::Min).value.str() == std::to_string(lo));
    CHECK(host_reference(d, Op::Max).value.str() == std::to_string(hi));
  }

  TEST_CASE("float tolerance still catches one dropped element") {
    for (std::uint64_t n : {1000ULL, 10007ULL, 100003ULL}) {
      CAPTURE(n);
      const HostData d = generate_data(ElemType::Float, n, DataKind::Random, 11);
      const Reference ref = host_reference(d, Op::Sum);
      const unsigned depth = 64;  // deeper than any plan makes for these n
      // The exact sum, rounded to float, passes.
      CHECK(check_result(ref.value, ref, Op::Sum, depth).ok);
      // Dropping any element of magnitude >= 0.25 fails.
      int dropped_checked = 0;
      for (std::uint64_t i = 0; i < n && dropped_checked < 20; ++i) {
        const float x = d.as<float>()[i];
        if (std::fabs(x) < 0.25f) continue;
        Value without;
        without.v = static_cast<float>(ref.sum - x);
        CAPTURE(i);
        CHECK_FALSE(check_result(without, ref, Op::Sum, depth).ok);
        ++dropped_checked;
      }
      CHECK(dropped_checked == 20);
    }
  }

  TEST_CASE("the float reference is compensated; the relative error is reported against it") {
    // 1 + 1e30 + 1 - 1e30: a long double accumulator loses both ones (1e30 needs 100 bits).
    HostData d;
    d.type = ElemType::Double;
    d.n = 4;
    const double xs[4] = {1.0, 1e30, 1.0, -1e30};
    d.bytes.resize(sizeof xs);
    std::memcpy(d.bytes.data(), xs, sizeof xs);
    const Reference r = host_reference(d, Op::Sum);
    CHECK(static_cast<double>(r.sum) == 2.0);
    Value exact;
    exact.v = 2.0;
    CHECK(check_result(exact, r, Op::Sum, 4).rel_error == 0.0);
    Value off;
    off.v = 2.5;
    CHECK(check_result(off, r, Op::Sum, 4).rel_error == doctest::Approx(0.25));
    CHECK(check_result(off, r, Op::Sum, 4).detail.find("relative error 0.25") != std::string::npos);
    // Exact checks report no relative error.
    const HostData u = generate_data(ElemType::Uint, 10, DataKind::Iota, 0);
    CHECK(check_result(host_reference(u, Op::Sum).value, host_reference(u, Op::Sum), Op::Sum, 1).rel_error < 0);
  }

  TEST_CASE("float checks: NaN fails, overflow only where the true sum overflows") {
    const HostData big = generate_data(ElemType::Float, 4, DataKind::Max, 0);
    const Reference ref = host_reference(big, Op::Sum);
    Value inf;
    inf.v = std::numeric_limits<float>::infinity();
    CHECK(check_result(inf, ref, Op::Sum, 4).ok);
    Value ninf;
    ninf.v = -std::numeric_limits<float>::infinity();
    CHECK_FALSE(check_result(ninf, ref, Op::Sum, 4).ok);
    const HostData small = generate_data(ElemType::Float, 10, DataKind::Ones, 0);
    const Reference r10 = host_reference(small, Op::Sum);
    CHECK_FALSE(check_result(inf, r10, Op::Sum, 4).ok);
    Value nan;
    nan.v = std::numeric_limits<float>::quiet_NaN();
    CHECK_FALSE(check_result(nan, r10, Op::Sum, 4).ok);
    Value eleven;
    eleven.v = 11.0f;
    CHECK_FALSE(check_result(eleven, r10, Op::Sum, 4).ok);
  }

  TEST_CASE("input files: raw little-endian elements, n from the size or fewer") {
    const auto path = std::filesystem::temp_directory_path() / "clreduce_test_input.bin";
    {
      std::ofstream out(path, std::ios::binary);
      const std::uint32_t xs[5] = {1, 2, 3, 4, 0xFFFFFFFFu};
      out.write(reinterpret_cast<const char*>(xs), sizeof xs);
    }
    const HostData all = read_data_file(path, ElemType::Uint, std::nullopt);
    CHECK(all.n == 5);
    CHECK(host_reference(all, Op::Sum).value.str() == "9");  // 10 + 2^32 - 1 wraps to 9
    CHECK(read_data_file(path, ElemType::Uint, 3).n == 3);
    CHECK_THROWS_WITH_AS(read_data_file(path, ElemType::Uint, 6), doctest::Contains("fewer than --n 6"), Error);
    CHECK_THROWS_WITH_AS(read_data_file(path, ElemType::Double, std::nullopt),
                         doctest::Contains("not a whole number of double elements"), Error);
    CHECK_THROWS_WITH_AS(read_data_file(path.string() + ".missing", ElemType::Uint, std::nullopt),
                         doctest::Contains("cannot read input file"), Error);
    std::filesystem::remove(path);
  }
}
