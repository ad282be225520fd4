// Planning and validation against device limits (a made-up device, no OpenCL needed): every
// bad configuration gets an error naming the problem and the valid choices.
#include <doctest/doctest.h>

#include "errors.hpp"
#include "plan.hpp"
#include "support.hpp"

using namespace clreduce;
using clreduce::test::fake_device;

namespace {
ReduceConfig cfg_of(const std::string& variant, std::size_t wg = 0) {
  ReduceConfig c;
  c.variant = variant;
  c.wg = wg;
  return c;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("unknown variant lists the registry") {
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("fastest"), fake_device(), 100),
                         doctest::Contains("unknown variant 'fastest'; valid variants: naive, interleaved, "
                                           "divergence_free"),
                         Error);
  }

  TEST_CASE("a work-group size that is not a power of two is rejected before any enqueue") {
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive", 96), fake_device(), 1000),
                         doctest::Contains("work-group size 96 is not a power of two"), Error);
  }

  TEST_CASE("work-group size over the device maximum names the maximum") {
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive", 1024), fake_device(), 1000),
                         doctest::Contains("over the device maximum 512"), Error);
  }

  TEST_CASE("local memory over the device's names both figures") {
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive", 512), fake_device(), 1000),
                         doctest::Contains("needs 2 KiB of local memory, more than the 1 KiB"), Error);
    CHECK_NOTHROW(plan_reduction(cfg_of("naive", 256), fake_device(), 1000));
  }

  TEST_CASE("kernel limits: CL_KERNEL_WORK_GROUP_SIZE and local memory") {
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 256, 128, 0, fake_device()),
                         doctest::Contains("over the limit of kernel naive on Fake Device, 128 "
                                           "(CL_KERNEL_WORK_GROUP_SIZE)"),
                         Error);
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 64, 128, 4096, fake_device()),
                         doctest::Contains("more than the 1 KiB"), Error);
    CHECK_NOTHROW(check_kernel_limits("naive", 64, 128, 256, fake_device()));
  }

  TEST_CASE("n = 0 and n over one allocation") {
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive"), fake_device(), 0),
                         doctest::Contains("n must be at least 1"), Error);
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive"), fake_device(), (1 << 18) + 1),
                         doctest::Contains("over the largest single allocation"), Error);
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("naive"), fake_device(), (1 << 18) + 1),
                         doctest::Contains("use n <= 262144"), Error);
    CHECK_NOTHROW(plan_reduction(cfg_of("naive", 64), fake_device(), 1 << 18));
  }

  TEST_CASE("TIMES and VEC outside the allowed sets, or given to variants that take none") {
    ReduceConfig c = cfg_of("stride_global", 64);
    c.times = 0;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("allowed range 1..1024"), Error);
    c.times = 1025;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("TIMES 1025"), Error);
    c.times = 4;
    c.groups_per_cu = 2;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("give one of them"), Error);
    c = cfg_of("naive", 64);
    c.times = 4;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100),
                         doctest::Contains("variant naive takes no --times or --groups-per-cu; variants "
                                           "that do: stride_global, stride_local, vector"),
                         Error);
    c = cfg_of("stride_local", 64);
    c.vec = 4;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100),
                         doctest::Contains("takes no --vec; variants that do: vector"), Error);
    c = cfg_of("vector", 64);
    c.vec = 3;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100),
                         doctest::Contains("VEC 3 is not an allowed vector width; valid: 2, 4, 8, 16"), Error);
    c.groups_per_cu = 0;
    c.vec = 4;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("at least 1"), Error);
  }

  TEST_CASE("double needs cl_khr_fp64") {
    ReduceConfig c = cfg_of("naive", 64);
    c.type = ElemType::Double;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("cl_khr_fp64"), Error);
  }

  TEST_CASE("passes cover n and end in one value, for every variant and launch mode") {
    const DeviceInfo dev = fake_device();
    for (const auto& v : variants()) {
      for (std::uint64_t n : {1ULL, 2ULL, 63ULL, 64ULL, 65ULL, 4097ULL, 100003ULL, 262144ULL}) {
        for (int mode = 0; mode < (v.uses_times ? 3 : 1); ++mode) {
          ReduceConfig c = cfg_of(v.name, 64);
          if (mode == 1) c.times = 3;
          if (mode == 2) c.groups_per_cu = 2;
          CAPTURE(v.name);
          CAPTURE(n);
          CAPTURE(mode);
          const Plan p = plan_reduction(c, dev, n);
          REQUIRE(!p.passes.empty());
          CHECK(p.passes.front().count == n);
          CHECK(p.passes.back().groups == 1);
          for (std::size_t i = 0; i < p.passes.size(); ++i) {
            const PassPlan& pass = p.passes[i];
            CHECK(pass.groups * pass.wg * v.items(pass.times, pass.vec) >= pass.count);
            if (i + 1 < p.passes.size()) CHECK(p.passes[i + 1].count == pass.groups);
            CHECK(pass.options.find(i == 0 ? "-D FIRST_PASS=1" : "-D FIRST_PASS=0") != std::string::npos);
          }
          if (mode == 2) CHECK(p.passes.front().groups <= 2 * dev.compute_units);
        }
      }
    }
  }

  TEST_CASE("lockstep width reaches only the variants that use it, and only as the device reports it") {
    DeviceInfo dev = fake_device();
    CHECK(plan_reduction(cfg_of("last_wavefront_unroll", 64), dev, 1000).passes[0].options.find("-D LOCKSTEP=0") !=
          std::string::npos);
    dev.lockstep_width = 32;
    CHECK(plan_reduction(cfg_of("complete_unroll", 64), dev, 1000).passes[0].options.find("-D LOCKSTEP=32") !=
          std::string::npos);
    CHECK(plan_reduction(cfg_of("divergence_free", 64), dev, 1000).passes[0].options.find("LOCKSTEP") ==
          std::string::npos);
  }

  TEST_CASE("user -D definitions come after the typed parameters, untouched") {
    ReduceConfig c = cfg_of("naive", 64);
    c.defines = {parse_define("MY_FLAG"), parse_define("ELEM_MAP(x)=((x)*2)")};
    const std::string o = plan_reduction(c, fake_device(), 10).passes[0].options;
    CHECK(o == "-D WG_SIZE=64 -D TYPE_ID=0 -D OP_ID=0 -D FIRST_PASS=1 -D MY_FLAG -D ELEM_MAP(x)=((x)*2)");
  }
}
