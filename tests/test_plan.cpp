// Planning and validation against device limits (a made-up device, no OpenCL needed): every
// bad configuration gets an error naming the problem and the valid choices.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "clreduce/device.hpp"
#include "parse.hpp"
#include "clreduce/reduction.hpp"
#include "descriptor/families.hpp"
#include "reduce/descriptor_launch.hpp"
#include "reduce/plan.hpp"
#include "reduce/policy.hpp"
#include "support.hpp"

#include <map>
#include <set>

using namespace clreduce;
using clreduce::test::fake_device;
using clreduce::test::fake_nvidia_device;

namespace {
ReduceConfig cfg_of(const std::string& variant, std::size_t wg = 0, ElemType t = ElemType::Uint) {
  ReduceConfig c;
  c.variant = variant;
  c.wg = wg;
  c.type = t;
  return c;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("a parameter marked tunable is one the family's tune searches, and only those") {
    // clreduce tune: WG_SIZE, TIMES (or groups per compute unit), VEC (tools/benchmarks/tune.cpp);
    // tune axis: WG_SIZE, ROW_WIDTH, and chunks, which no -D names (axis_tune_candidates); tune
    // descriptors: the descriptor kernels' launch shape (descriptor_tune_axis). The other families
    // have no tune.
    const std::map<std::string, std::set<std::string>> searched = {
        {"whole_array", {"WG_SIZE", "TIMES", "VEC"}},
        {"axis", {"WG_SIZE", "ROW_WIDTH"}},
        {"whole", {"WG_SIZE", "ITEMS", "VEC"}},
        {"lines", {"WG_SIZE", "ROW_WIDTH", "ITEMS", "VEC"}},
        {"columns", {"TILE_X", "ROWS_Y", "ITEMS", "BLOCK"}}};
    for (const NamedKernelSpec& k : named_kernel_specs())
      for (const KernelParam& p : k.spec->params) {
        CAPTURE(k.name);
        CAPTURE(p.define);
        const auto f = searched.find(k.spec->family);
        const bool tune_searches = f != searched.end() && f->second.count(p.define) &&
                                   // cols_tile and cols_fused take their tile, not WG_SIZE, from tune
                                   !(k.spec->family == "axis" && p.define == "WG_SIZE" &&
                                     find_axis_variant(k.name).uses_tile());
        CHECK(p.tunable == tune_searches);
      }
  }

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

  TEST_CASE("a group of one work-item that consumes one element is refused, not planned forever") {
    // Found by `clreduce soak`: with WG 1 and one element per work-item a pass never shrinks n.
    for (const char* v : {"naive", "interleaved", "divergence_free"})
      CHECK_THROWS_WITH_AS(plan_reduction(cfg_of(v, 1), fake_device(), 10),
                           doctest::Contains("reduces nothing per pass"), Error);
    CHECK(plan_reduction(cfg_of("naive", 1), fake_device(), 1).passes.size() == 1);  // n = 1: done
    CHECK(plan_reduction(cfg_of("first_add", 1), fake_device(), 10).passes.back().groups == 1);
    ReduceConfig strided = cfg_of("stride_global", 1);
    strided.times = 1;
    CHECK_THROWS_WITH_AS(plan_reduction(strided, fake_device(), 10),
                         doctest::Contains("use a work-group size of at least 2"), Error);
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
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 256, KernelLimits{128, 0}, fake_device()),
                         doctest::Contains("over the limit of kernel naive on Fake Device, 128 "
                                           "(CL_KERNEL_WORK_GROUP_SIZE)"),
                         Error);
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 64, KernelLimits{128, 4096}, fake_device()),
                         doctest::Contains("more than the 1 KiB"), Error);
    CHECK_NOTHROW(check_kernel_limits("naive", 64, KernelLimits{128, 256}, fake_device()));
    // Where the device allows more than the kernel reports, the refusal names the opt-in.
    DeviceInfo dev = fake_device();
    dev.max_work_group_size = 1024;
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 512, KernelLimits{256, 0}, dev),
                         doctest::Contains("256 (CL_KERNEL_WORK_GROUP_SIZE); the device's maximum is 1024: "
                                           "--trust-device-wg (CLREDUCE_TRUST_DEVICE_WG=1) launches up to it, "
                                           "verified by the run's check"),
                         Error);
    CHECK_THROWS_WITH_AS(check_kernel_limits("naive", 2048, KernelLimits{256, 0}, dev),
                         "work-group size 2048 is over the limit of kernel naive on Fake Device, 256 "
                         "(CL_KERNEL_WORK_GROUP_SIZE)",
                         Error);  // over the device's maximum too: no opt-in to name
    // The limit with and without trust: the kernel's figure, or the device's where larger.
    CHECK(work_group_limit(256, 1024, false) == 256);
    CHECK(work_group_limit(256, 1024, true) == 1024);
    CHECK(work_group_limit(1024, 256, true) == 1024);
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
                         doctest::Contains("variant naive takes no TIMES; variants "
                                           "that do: stride_global, stride_local, vector"),
                         Error);
    c = cfg_of("stride_local", 64);
    c.vec = 4;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100),
                         doctest::Contains("takes no VEC; variants that do: vector"), Error);
    c = cfg_of("vector", 64);
    c.vec = 3;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100),
                         doctest::Contains("VEC 3 is not an allowed vector width; valid: 2, 4, 8, 16"), Error);
    c.groups_per_cu = 0;
    c.vec = 4;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("at least 1"), Error);
  }

  TEST_CASE("errors name the parameter, its valid values and the device, in the library's words") {
    const auto param_of = [](const ReduceConfig& c, std::uint64_t n) {
      try {
        plan_reduction(c, fake_device(), n);
      } catch (const ConfigError& e) {
        const std::string what = e.what();
        CHECK_MESSAGE(what.find("--") == std::string::npos, what);  // no command-line flag
        return std::make_pair(e.param(), e.valid());
      }
      FAIL("planned");
      return std::make_pair(Param::None, std::string());
    };
    ReduceConfig c = cfg_of("stride_global", 64);
    c.times = 2000;
    CHECK(param_of(c, 100) == std::make_pair(Param::Times, std::string("1..1024")));
    c = cfg_of("naive", 96);
    CHECK(param_of(c, 100).first == Param::WorkGroupSize);
    CHECK(param_of(c, 100).second == "a power of two 1, 2, 4, ..., 512");
    c = cfg_of("vector", 64);
    c.vec = 3;
    CHECK(param_of(c, 100) == std::make_pair(Param::Vec, std::string("2, 4, 8, 16")));
    c = cfg_of("naive", 64);
    c.groups_per_cu = 2;
    CHECK(param_of(c, 100).first == Param::GroupsPerCu);
    CHECK(param_of(cfg_of("naive"), 0).first == Param::N);
    c = cfg_of("naive", 64);
    c.type = ElemType::Double;
    CHECK(param_of(c, 100).first == Param::Type);
    try {
      plan_reduction(cfg_of("naive", 1024), fake_device(), 100);
      FAIL("planned");
    } catch (const ConfigError& e) {
      CHECK(e.device() == "Fake Device");
    }
  }

  TEST_CASE("double needs cl_khr_fp64") {
    ReduceConfig c = cfg_of("naive", 64);
    c.type = ElemType::Double;
    CHECK_THROWS_WITH_AS(plan_reduction(c, fake_device(), 100), doctest::Contains("cl_khr_fp64"), Error);
  }

  TEST_CASE("passes cover n and end in one value, for every variant and launch mode") {
    for (const DeviceInfo& dev : std::vector<DeviceInfo>{fake_device(), fake_nvidia_device()}) {
      for (const auto& v : variants()) {
        if (!v.unavailable_reason(dev).empty()) continue;
        for (std::uint64_t n : {1ULL, 2ULL, 63ULL, 64ULL, 65ULL, 4097ULL, 100003ULL, 262144ULL}) {
          for (int mode = 0; mode < (v.uses_times() ? 3 : 1); ++mode) {
            ReduceConfig c = cfg_of(v.name, 64);
            if (mode == 1) c.times = 3;
            if (mode == 2) c.groups_per_cu = 2;
            CAPTURE(dev.name);
            CAPTURE(v.name);
            CAPTURE(n);
            CAPTURE(mode);
            const Plan p = plan_reduction(c, dev, n);
            REQUIRE(!p.passes.empty());
            CHECK(p.passes.front().count == n);
            CHECK(p.passes.back().values_out() == 1);
            for (std::size_t i = 0; i < p.passes.size(); ++i) {
              const PassPlan& pass = p.passes[i];
              CHECK(pass.groups * pass.wg * v.items(pass.times, pass.vec) >= pass.count);
              CHECK(pass.times >= kMinTimes);
              CHECK(pass.times <= kMaxTimes);
              if (i + 1 < p.passes.size()) CHECK(p.passes[i + 1].count == pass.values_out());
              CHECK(pass.options.find(i == 0 ? "-D FIRST_PASS=1" : "-D FIRST_PASS=0") != std::string::npos);
            }
            if (mode == 2) CHECK(p.passes.front().groups <= 2 * dev.compute_units);
            if (mode == 2) CHECK(p.passes.size() <= 2);  // later passes collapse to one group
            if (v.single_pass) CHECK(p.passes.size() == 1);
          }
        }
      }
    }
  }

  TEST_CASE("single_pass: one pass filling the device by occupancy, or by the user's choice") {
    DeviceInfo dev = fake_nvidia_device();
    dev.local_mem_bytes = 48 << 10;
    dev.max_alloc_bytes = 1ULL << 32;
    const std::uint64_t n = 1ULL << 28;
    ReduceConfig c = cfg_of("single_pass", 256);
    // Small n: one device-filling wave (2048 resident work-items / 256 per group, per CU).
    Plan p = plan_reduction(c, dev, 1ULL << 22);
    REQUIRE(p.passes.size() == 1);
    CHECK(p.passes[0].last_group_finishes);
    CHECK(p.passes[0].groups == 8 * dev.compute_units);
    CHECK(p.passes[0].options.find("-D NV_PTX=1 -D WARP=32") != std::string::npos);
    // 32-bit types meet through epoch-tagged slots on NVIDIA; doubles, a user's own SP_FINISH or
    // PTX turned off keep the ticket.
    CHECK(p.passes[0].options.find("-D SP_FINISH=1") != std::string::npos);
    for (ElemType t : {ElemType::Int, ElemType::Float})
      CHECK(plan_reduction(cfg_of("single_pass", 256, t), dev, 1000).passes[0].options.find("-D SP_FINISH=1") != std::string::npos);
    DeviceInfo fp64 = dev;
    fp64.fp64 = true;
    CHECK(plan_reduction(cfg_of("single_pass", 256, ElemType::Double), fp64, 1000).passes[0].options.find("-D SP_FINISH=0") != std::string::npos);
    for (const char* user : {"SP_FINISH=0", "NV_PTX=0"}) {
      ReduceConfig u = c;
      u.defines.push_back(parse_define(user));
      const std::string o = plan_reduction(u, dev, 1000).passes[0].options;
      CHECK(o.find("-D SP_FINISH=1") == std::string::npos);
    }
    CHECK(plan_reduction(cfg_of("vector", 256), dev, 1000).passes[0].options.find("SP_FINISH") == std::string::npos);
    // Large n: more, shorter groups, each work-item loading at most 16 vectors.
    p = plan_reduction(c, dev, n);
    CHECK(p.passes[0].groups == 125 * dev.compute_units);  // ceil(2^28 / (256*4*16*132)) per CU
    CHECK(p.passes[0].times <= 16);
    c.wg = 1024;
    CHECK(plan_reduction(c, dev, 1ULL << 22).passes[0].groups == 2 * dev.compute_units);
    c.groups_per_cu = 1;
    CHECK(plan_reduction(c, dev, n).passes[0].groups == dev.compute_units);
    c.groups_per_cu.reset();
    c.times = 1;
    p = plan_reduction(c, dev, n);
    CHECK(p.passes.size() == 1);
    CHECK(p.passes[0].groups == n / (1024 * 4));
    // Off NVIDIA: no PTX, no warp; a CPU without occupancy facts gets kCpuGroupsPerCu per core.
    p = plan_reduction(cfg_of("single_pass", 64), fake_device(), 100000);
    CHECK(p.passes[0].options.find("-D NV_PTX=0 -D WARP=0") != std::string::npos);
    CHECK(p.passes[0].options.find("-D SP_FINISH=0") != std::string::npos);
    CHECK(p.passes[0].groups == kCpuGroupsPerCu * fake_device().compute_units);
  }

  TEST_CASE("contiguous_blocks: a few blocks per core, none under kMinBlockElements, no TIMES") {
    const DeviceInfo cpu = fake_device();  // no occupancy facts: kCpuGroupsPerCu groups per core
    // The default work-group size is planned at 1; the Reducer rebuilds at the kernel's preferred
    // multiple (test_runtime checks that on a real device).
    Plan p = plan_reduction(cfg_of("contiguous_blocks"), cpu, 1ULL << 18);
    REQUIRE(p.passes.size() == 2);
    CHECK(p.passes[0].wg == 1);
    CHECK(p.passes[0].groups == kCpuGroupsPerCu * cpu.compute_units);
    CHECK(p.passes[0].vec == 16);
    // Each work-item's block covers its share: groups * wg * TIMES * VEC >= n.
    CHECK(p.passes[0].groups * p.passes[0].times * 16 >= (1ULL << 18));
    // Small n: fewer work-items, each with at least kMinBlockElements elements (one, at least).
    p = plan_reduction(cfg_of("contiguous_blocks", 8), cpu, 3 * kMinBlockElements * 8 + 5);
    CHECK(p.passes[0].groups == 3);
    CHECK(plan_reduction(cfg_of("contiguous_blocks", 8), cpu, 7).passes[0].groups == 1);
    ReduceConfig c = cfg_of("contiguous_blocks", 4);
    c.groups_per_cu = 1;
    CHECK(plan_reduction(c, cpu, 1ULL << 18).passes[0].groups == cpu.compute_units);
    c.groups_per_cu.reset();
    c.times = 8;
    CHECK_THROWS_WITH_AS(plan_reduction(c, cpu, 1000), doctest::Contains("variant contiguous_blocks takes no TIMES"),
                         ConfigError);
    CHECK(find_variant("contiguous_blocks").takes_groups_per_cu());
    // The default policy of a CPU device (and only there).
    CHECK(std::string(default_policy(cpu, ElemType::Float).variant) == "contiguous_blocks");
    CHECK(std::string(default_policy(fake_nvidia_device(), ElemType::Float).variant) == "single_pass");
    CHECK_FALSE(find_variant("naive").takes_groups_per_cu());
  }

  TEST_CASE("the groups-per-CU mode needs two passes where TIMES mode needed three") {
    DeviceInfo dev = fake_nvidia_device();
    dev.max_alloc_bytes = 1ULL << 32;
    dev.local_mem_bytes = 48 << 10;
    ReduceConfig c = cfg_of("vector", 256);
    CHECK(plan_reduction(c, dev, 1ULL << 26).passes.size() == 3);
    c.groups_per_cu = 8;
    const Plan p = plan_reduction(c, dev, 1ULL << 26);
    REQUIRE(p.passes.size() == 2);
    CHECK(p.passes[0].groups == 8 * dev.compute_units);
    CHECK(p.passes[1].groups == 1);
  }

  TEST_CASE("the NVIDIA-only and sub-group variants: where they are offered, and why not elsewhere") {
    CHECK(has_nv_shuffle(fake_nvidia_device()));
    CHECK_FALSE(has_nv_shuffle(fake_device()));
    CHECK(find_variant("warp_shuffle").unavailable_reason(fake_nvidia_device()).empty());
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("warp_shuffle", 64), fake_device(), 100),
                         doctest::Contains("variant warp_shuffle is not available on Fake Device: needs an "
                                           "NVIDIA platform reporting CL_DEVICE_WARP_SIZE_NV = 32"),
                         Error);
    DeviceInfo amd = fake_device();
    amd.lockstep_width = 64;
    amd.lockstep_source = "CL_DEVICE_WAVEFRONT_WIDTH_AMD";
    CHECK_FALSE(find_variant("warp_shuffle").unavailable_reason(amd).empty());
    CHECK_THROWS_WITH_AS(plan_reduction(cfg_of("subgroup", 64), fake_device(), 100),
                         doctest::Contains("needs the cl_khr_subgroups extension"), Error);
    DeviceInfo sub = fake_device();
    sub.extensions = "cl_khr_fp64 cl_khr_subgroups";
    sub.opencl_c_version = "OpenCL C 2.0";
    const Plan p = plan_reduction(cfg_of("subgroup", 64), sub, 100);
    CHECK(p.passes[0].options.find("-cl-std=CL2.0") != std::string::npos);
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

  TEST_CASE("every variant's option string is its declared parameters, each once and in order, then the rest") {
    // The registry's tables drive this: a parameter the kernel reads but the table leaves out, or
    // one the planner writes twice (a caller's -D beside the planner's own), fails here.
    DeviceInfo sub = fake_nvidia_device();
    sub.extensions += " cl_khr_subgroups";
    sub.opencl_c_version = "OpenCL C 2.0";
    for (const DeviceInfo& dev : std::vector<DeviceInfo>{fake_device(), sub})
      for (const Variant& v : variants()) {
        if (!v.unavailable_reason(dev).empty()) continue;
        CAPTURE(dev.name);
        CAPTURE(v.name);
        REQUIRE(v.spec.kernel == v.kernel);
        REQUIRE(v.spec.file == v.file);
        ReduceConfig c = cfg_of(v.name, 64);
        c.defines = {parse_define("MY_FLAG=3")};
        if (v.uses_nv_ptx()) c.defines.push_back(parse_define("NV_PTX=0"));
        const Plan p = plan_reduction(c, dev, 100003);
        for (const PassPlan& pass : p.passes) {
          test::check_declared_options(v.spec, pass.options, "-D MY_FLAG=3");
          if (v.uses_nv_ptx()) CHECK(pass.options.find("-D NV_PTX=0") != std::string::npos);
          // No inline PTX: no bar.warp.sync, and so no lockstep tail.
          if (v.uses_nv_ptx() && v.uses_lockstep())
            CHECK(pass.options.find("-D LOCKSTEP=0 -D NV_WARP_SYNC=0") != std::string::npos);
          if (v.uses_times()) CHECK(pass.options.find("-D TIMES=" + std::to_string(pass.times)) != std::string::npos);
          if (v.uses_vec()) CHECK(pass.options.find("-D VEC=" + std::to_string(pass.vec)) != std::string::npos);
        }
      }
  }

  TEST_CASE("a caller's -D of a declared parameter is the plan's, checked as its option is") {
    const DeviceInfo dev = fake_device();
    // -D TIMES / VEC / WG_SIZE plan what --times / --vec / --wg do.
    ReduceConfig by_option = cfg_of("vector", 64);
    by_option.times = 8;
    by_option.vec = 2;
    ReduceConfig by_define = cfg_of("vector", 0);
    by_define.defines = {parse_define("TIMES=8"), parse_define("VEC=2"), parse_define("WG_SIZE=64")};
    const Plan a = plan_reduction(by_option, dev, 100003);
    const Plan b = plan_reduction(by_define, dev, 100003);
    REQUIRE(a.passes.size() == b.passes.size());
    for (std::size_t i = 0; i < a.passes.size(); ++i) {
      CHECK(a.passes[i].options == b.passes[i].options);
      CHECK(a.passes[i].groups == b.passes[i].groups);
    }
    CHECK(a.depth == b.depth);
    // The same value twice is one; two values, a value outside the valid ones, a derived
    // parameter: refused, naming the parameter.
    by_option.defines = {parse_define("TIMES=8")};
    CHECK(plan_reduction(by_option, dev, 1000).passes[0].options.find("-D TIMES=8 -D VEC=2") != std::string::npos);
    by_option.defines = {parse_define("TIMES=4")};
    CHECK_THROWS_WITH_AS(plan_reduction(by_option, dev, 1000), doctest::Contains("both set TIMES"), ConfigError);
    for (const char* bad : {"TIMES=0", "TIMES=x", "VEC=3", "WG_SIZE=48"}) {
      ReduceConfig c = cfg_of("vector", 0);
      c.defines = {parse_define(bad)};
      CAPTURE(bad);
      CHECK_THROWS_WITH_AS(plan_reduction(c, dev, 1000), doctest::Contains("must be"), ConfigError);
    }
    ReduceConfig over = cfg_of("vector", 0);
    over.defines = {parse_define("TIMES=1025")};  // as --times 1025
    CHECK_THROWS_WITH_AS(plan_reduction(over, dev, 1000), doctest::Contains("outside the allowed range 1..1024"),
                         ConfigError);
    for (const char* derived : {"TYPE_ID=2", "OP_ID=1", "FIRST_PASS=0", "INPUT_ALIGNED=0", "LOCKSTEP=32"}) {
      ReduceConfig c = cfg_of("vector", 64);
      c.defines = {parse_define(derived)};
      CAPTURE(derived);
      CHECK_THROWS_WITH_AS(plan_reduction(c, dev, 1000), doctest::Contains("is derived"), ConfigError);
    }
    // A parameter other variants declare but this one does not would be ignored: refused, naming
    // the kernels that take it (naive takes no TIMES). A name no kernel declares passes untouched.
    ReduceConfig naive = cfg_of("naive", 64);
    naive.defines = {parse_define("TIMES=3")};
    CHECK_THROWS_WITH_AS(plan_reduction(naive, dev, 1000),
                         doctest::Contains("-D TIMES=3: naive.cl takes no TIMES; kernels that do: stride_global.cl"),
                         ConfigError);
    naive.defines = {parse_define("MY_TIMES=3")};
    CHECK(plan_reduction(naive, dev, 1000).passes[0].options.find("-D FIRST_PASS=1 -D MY_TIMES=3") != std::string::npos);
  }

  TEST_CASE("user -D definitions come after the typed parameters, untouched") {
    ReduceConfig c = cfg_of("naive", 64);
    c.defines = {parse_define("MY_FLAG"), parse_define("ELEM_MAP(x)=((x)*2)")};
    const std::string o = plan_reduction(c, fake_device(), 10).passes[0].options;
    CHECK(o == "-D WG_SIZE=64 -D TYPE_ID=0 -D OP_ID=0 -D FIRST_PASS=1 -D MY_FLAG -D ELEM_MAP(x)=((x)*2)");
  }
}

TEST_SUITE("unit") {
  TEST_CASE("descriptor launches keep a work-item's loops under a device's loop limit (llvmpipe), or are refused") {
    // llvmpipe ends a kernel's loops after 65535 iterations: a column of 200000 ones summed to
    // 65536 there. The planners give more groups, chunks or parts where the caller left them;
    // a caller's launch over the limit is refused, naming it.
    DeviceInfo dev = fake_device();
    dev.is_gpu = true;
    dev.loop_trip_limit = 65535;
    const std::uint64_t allowed = 65535 - 65535 / 8;
    const Reduction sum = builtin(Builtin::Sum, Scalar::I32);
    const std::vector<Define> narrow = {Define{"ITEMS", "1"}, Define{"TILE_X", "1"}, Define{"ROWS_Y", "1"}};
    FamilyParams cols;
    cols.defines = narrow;
    const DescriptorLaunch c = plan_columns(sum, 200000, 1, cols, dev, 0, true);
    CHECK(c.chunks >= 4);
    CHECK(c.rows_per_chunk <= allowed);
    cols.chunks = 1;
    CHECK_THROWS_WITH_AS(plan_columns(sum, 200000, 1, cols, dev, 0, true),
                         doctest::Contains("ends a kernel's loops after 65535 iterations; give more row chunks"),
                         ConfigError);

    ReduceParams whole;
    whole.wg = 1;
    whole.vec = 1;
    whole.defines = {Define{"ITEMS", "1"}};
    const DescriptorLaunch w = plan_descriptor(sum, 1000000, whole, dev, 0, true, false);
    CHECK(w.groups * w.wg >= 1000000 / allowed);
    whole.groups_per_cu = 1;
    CHECK_THROWS_WITH_AS(plan_descriptor(sum, 1000000, whole, dev, 0, true, false),
                         doctest::Contains("give more groups (--groups-per-cu)"), ConfigError);

    FamilyParams rows;
    rows.wg = 1;
    rows.row_width = 1;
    rows.defines = {Define{"VEC", "1"}, Define{"ITEMS", "1"}};
    const LineShape one_row{LineKind::Rows, 1, 1000000, 1000000, Scalar::U64};
    const DescriptorLaunch r = plan_lines(sum, one_row, rows, dev, 0, true);
    CHECK(1000000 / r.chunks <= allowed);  // the row cut into parts
    rows.chunks = 1;
    CHECK_THROWS_WITH_AS(plan_lines(sum, one_row, rows, dev, 0, true),
                         doctest::Contains("give more parts a line (--chunks)"), ConfigError);
    // Many short rows (each a trip of 4 and its tree, tail and chains: about 9): more groups.
    rows.chunks.reset();
    const DescriptorLaunch few = plan_lines(sum, LineShape{LineKind::Rows, 300000, 4, 4, Scalar::U64}, rows, dev, 0, true);
    CHECK(few.groups == 128);  // 2344 rows a work-item are within the limit: the planner's 32 per compute unit
    const DescriptorLaunch many = plan_lines(sum, LineShape{LineKind::Rows, 3000000, 4, 4, Scalar::U64}, rows, dev, 0, true);
    CHECK(many.groups >= 3000000 * 9 / allowed);
    // Segments: one of n elements bounds any work-item's share.
    const DescriptorLaunch seg = plan_lines(sum, LineShape{LineKind::Offsets, 3, 1000000, 333333, Scalar::U32}, rows, dev, 0, true);
    CHECK(1000000 / (seg.chunks * seg.row_width) <= allowed);

    // Without a loop limit the same launches are planned as given.
    dev.loop_trip_limit = 0;
    cols.chunks = 1;
    CHECK(plan_columns(sum, 200000, 1, cols, dev, 0, true).chunks == 1);
    CHECK(plan_descriptor(sum, 1000000, whole, dev, 0, true, false).groups == 4);
  }
}

TEST_SUITE("unit") {
  TEST_CASE("the descriptor's whole array on a GPU: 16 bytes a load, 32 for 16-bit integers into a struct (VEC 16, ITEMS 1), 64 for 8-byte inputs into a summing struct (VEC 8)") {
    DeviceInfo dev = fake_device();
    dev.is_gpu = true;
    dev.compute_units = 132;
    dev.max_work_group_size = 1024;
    dev.fp64 = true;
    const auto shape = [&](Builtin b, Scalar t, std::vector<Define> defines = {}) {
      ReduceParams p;
      p.defines = std::move(defines);
      const DescriptorLaunch l = plan_descriptor(builtin(b, t), std::uint64_t{1} << 26, p, dev, 0, true, false);
      return std::to_string(l.vec) + " " + std::to_string(l.items);
    };
    CHECK(shape(Builtin::VarPop, Scalar::I16) == "16 1");
    CHECK(shape(Builtin::ArgMax, Scalar::U16) == "16 1");
    CHECK(shape(Builtin::ArgMin, Scalar::I16) == "16 1");
    CHECK(shape(Builtin::StdSample, Scalar::F16) == "8 2");  // f16/bf16 Welford lost at VEC 16 (87% -> 78%)
    CHECK(shape(Builtin::ArgMax, Scalar::BF16) == "8 2");
    CHECK(shape(Builtin::Sum, Scalar::I16) == "8 2");      // a plain accumulator (its lift_vector: ITEMS 2)
    CHECK(shape(Builtin::L2, Scalar::U16) == "8 2");       // an 8-byte struct: as before
    CHECK(shape(Builtin::VarPop, Scalar::F32) == "4 2");   // 4-byte inputs: as before
    CHECK(shape(Builtin::VarPop, Scalar::U8) == "16 2");   // 8-bit: 16 bytes are already VEC 16
    CHECK(shape(Builtin::VarPop, Scalar::I16, {Define{"ITEMS", "2"}}) == "16 2");  // the caller's ITEMS
    CHECK(shape(Builtin::VarPop, Scalar::I16, {Define{"VEC", "8"}}) == "8 2");     // the caller's VEC: the old ITEMS
    // 8-byte inputs into a struct: 64 bytes a load (f64 var_pop 85.8% -> 91.8% of the H100's read peak).
    CHECK(shape(Builtin::VarPop, Scalar::F64) == "8 2");
    CHECK(shape(Builtin::L2, Scalar::F64) == "8 2");
    CHECK(shape(Builtin::NanMean, Scalar::F64) == "8 2");
    CHECK(shape(Builtin::ArgMin, Scalar::F64) == "2 2");  // the selections stay at 16 bytes (argmin 95.1% against 92.5%)
    CHECK(shape(Builtin::MinMax, Scalar::I64) == "2 2");
    CHECK(shape(Builtin::SumSq, Scalar::F64) == "2 4");  // an 8-byte accumulator: 16 bytes, ITEMS 4 as before
    CHECK(shape(Builtin::L2, Scalar::F64, {Define{"ITEMS", "4"}}) == "2 4");  // the caller's ITEMS: 16 bytes
    CHECK(shape(Builtin::L2, Scalar::F64, {Define{"VEC", "2"}}) == "2 2");    // the caller's VEC
    dev.is_gpu = false;  // CPU shapes: unchanged
    CHECK(shape(Builtin::VarPop, Scalar::I16) == "16 2");
  }

  TEST_CASE("descriptor rows on a GPU: about 4 trips of ITEMS vectors a work-item, at least 4 work-items a row") {
    // The H200's best row width for f32 rows (4-wide vectors, ITEMS 2) was 8 vectors a work-item
    // at 1024, 2048 and 8192 elements a row, and 4 work-items at 32 (bench/NOTES.md, the built-ins
    // x families table); structs over 8 bytes stay at 32 work-items up to 1024 vectors a row.
    DeviceInfo dev = fake_device();
    dev.is_gpu = true;
    dev.compute_units = 132;
    dev.max_work_group_size = 1024;
    dev.local_mem_bytes = 48 << 10;  // a GPU's: the fake device's 1 KiB holds no 256-wide tree of floats
    const FamilyParams none;
    const auto width = [&](Builtin b, std::uint64_t rows, std::uint64_t cols) {
      const DescriptorLaunch l = plan_lines(builtin(b, Scalar::F32), LineShape{LineKind::Rows, rows, cols, cols, Scalar::U64},
                                            none, dev, 0, true);
      CHECK(l.vec == 4u);
      CHECK(l.items == 2u);
      return l.row_width;
    };
    CHECK(width(Builtin::Sum, 65536, 1024) == 32);
    CHECK(width(Builtin::Sum, 32768, 2048) == 64);
    CHECK(width(Builtin::Sum, 8192, 8192) == 256);
    CHECK(width(Builtin::Sum, 4096, 16384) == 256);  // the group's width caps it
    CHECK(width(Builtin::Sum, 1048576, 32) == 4);
    CHECK(width(Builtin::Sum, 1048576, 16) == 2);     // one trip of two vectors: the old width
    CHECK(width(Builtin::MinMax, 65536, 1024) == 32);
    CHECK(width(Builtin::VarPop, 32768, 2048) == 32);  // 512 vectors: the cap of structs over 8 bytes
    CHECK(width(Builtin::ArgMax, 65536, 1024) == 32);
  }

  TEST_CASE("descriptor columns on a GPU: BLOCK where there is a lift_vector, 4 bytes of a row a work-item") {
    // Under BLOCK, inputs narrower than 4 bytes take VEC columns a work-item (u8 4, 16-bit 2): on
    // the H200 the u8 column sum went from 37.9% to 58.3% of the read peak (bench/NOTES.md, narrow
    // columns). A caller's VEC or BLOCK is taken as given; CPU shapes are left as they were.
    DeviceInfo dev = fake_device();
    dev.is_gpu = true;
    dev.compute_units = 132;
    dev.max_work_group_size = 1024;
    const auto plan = [&](Builtin b, Scalar t, std::uint64_t cols, std::vector<Define> defines = {}) {
      FamilyParams p;
      p.defines = std::move(defines);
      return plan_columns(builtin(b, t), 8192, cols, p, dev, 0, true);
    };
    const auto shape = [](const DescriptorLaunch& l) {
      return std::to_string(l.block) + " " + std::to_string(l.vec) + " " + std::to_string(l.items);
    };
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 8192)) == "1 4 8");
    CHECK(shape(plan(Builtin::ArgMax, Scalar::U8, 8192)) == "1 4 8");
    CHECK(shape(plan(Builtin::L2, Scalar::F16, 8192)) == "1 2 8");
    CHECK(shape(plan(Builtin::VarPop, Scalar::I16, 8192)) == "1 2 8");
    CHECK(shape(plan(Builtin::ArgMax, Scalar::F32, 8192)) == "1 1 8");
    CHECK(shape(plan(Builtin::Sum, Scalar::F16, 8192)) == "0 1 4");  // no lift_vector: no BLOCK
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 3)) == "1 2 8");     // no wider than the matrix
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 8192, {Define{"VEC", "1"}})) == "1 1 8");
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 8192, {Define{"BLOCK", "0"}})) == "0 1 4");
    CHECK(shape(plan(Builtin::ArgMax, Scalar::F32, 8192, {Define{"BLOCK", "1"}})) == "1 1 8");  // ITEMS 8 under BLOCK
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 8192, {Define{"BLOCK", "1"}, Define{"VEC", "2"}})) == "1 2 8");
    CHECK(shape(plan(Builtin::Sum, Scalar::U8, 8192, {Define{"VEC", "2"}})) == "0 2 4");  // a caller's VEC: no BLOCK unless asked
    // Float min and max have a lift_vector (a tree, for CPUs) but 4- and 8-byte ones no BLOCK by
    // default (slower under it on the H100); 16-bit ones keep it; a caller's BLOCK=1 is taken.
    CHECK(shape(plan(Builtin::Max, Scalar::F32, 8192)) == "0 1 4");
    CHECK(shape(plan(Builtin::NanMin, Scalar::F32, 8192)) == "0 1 4");
    CHECK(shape(plan(Builtin::Max, Scalar::F16, 8192)) == "1 2 8");
    CHECK(shape(plan(Builtin::Max, Scalar::F32, 8192, {Define{"BLOCK", "1"}})) == "1 1 8");
    dev.is_gpu = false;  // CPU shapes: 64-byte loads, no BLOCK
    // 512 bytes of u64 accumulators a row at most: SPAN 4 of VEC 16, ITEMS 4 / 4.
    const DescriptorLaunch cpu_u8 = plan(Builtin::Sum, Scalar::U8, 8192);
    CHECK(shape(cpu_u8) == "0 16 1");
    CHECK(cpu_u8.span == 4);
  }

  TEST_CASE("descriptor columns on a GPU: row chunks of at least 16 trips while 2 groups a compute unit remain") {
    // The row-chunk rule (src/descriptor/columns.cpp) at the shapes it was measured on (H100 and
    // H200, 132 compute units): the chunks the measurements favoured, each checked beside its trips.
    const DeviceInfo dev = fake_nvidia_device();
    const auto chunks = [&](Builtin b, Scalar t, std::uint64_t m, std::uint64_t n) {
      const DescriptorLaunch l = plan_columns(builtin(b, t), m, n, FamilyParams{}, dev, 0, true);
      const std::uint64_t trips = l.rows_per_chunk / (std::uint64_t{l.rows_y} * l.items);
      MESSAGE(m << "x" << n << ": groups " << l.groups << " x " << l.chunks << " chunks, tile " << l.tile_x << " x "
                << l.rows_y << ", VEC " << l.vec << ", ITEMS " << l.items << ", " << trips << " trips");
      CHECK((trips >= 16 || l.groups * l.chunks < 2 * 132 * 2 || l.chunks == 1));
      return l.chunks;
    };
    CHECK(chunks(Builtin::Sum, Scalar::U8, 8192, 8192) == 8);      // 16 chunks before: 29.5 us against 28.6 (H200)
    CHECK(chunks(Builtin::L2, Scalar::U8, 8192, 8192) == 8);       // 34.1 against 29.4
    CHECK(chunks(Builtin::Sum, Scalar::U8, 65536, 1024) == 64);    // 128 before: 45.2 against 35.8 (H100)
    CHECK(chunks(Builtin::Sum, Scalar::U8, 1024, 65536) == 1);     // 2 before; 1: 28.0 us, 89% of the read peak
    CHECK(chunks(Builtin::Sum, Scalar::F32, 65536, 1024) == 32);   // unchanged: the device's share binds
    CHECK(chunks(Builtin::Sum, Scalar::F16, 65536, 1024) == 32);
    CHECK(chunks(Builtin::Sum, Scalar::F32, 8192, 8192) == 4);     // unchanged
    // Short matrices: never fewer chunks than leave 2 groups a compute unit, short of one a row.
    CHECK(chunks(Builtin::Sum, Scalar::U8, 2048, 8192) == 4);
    CHECK(chunks(Builtin::Sum, Scalar::U8, 3, 8192) <= 3);
  }
}
