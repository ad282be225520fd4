// Segmented reductions (issue 16, second part): one value per segment of a flat array, the
// segments given by CSR offsets, against the host reference on the device under test, every
// output buffer poisoned before the run.
//
// The matrix: {uint, int, float, double if cl_khr_fp64} x {sum, min, max, argmin, argmax} x the
// three kernels (segments_group; segments_split at 7 parts per segment; segments_sliced at 4
// work-items per segment) x the layouts {one
// segment of n = 1; all segments empty but one; empty first and last; lengths 1, 2, 3, ...; one
// segment of 1,000,003 elements among small ones; 1000 random lengths 0..300 from the printed
// seed}. Then a kernel that skips a segment (the poison catches it), the empty-segment values of
// floats, the API's checks (suite segmented); the offsets' validation and the offsets file
// (suite unit); the command line (suite cli).
#include <doctest/doctest.h>

#include "benchmarks/segmented_run.hpp"
#include "clreduce/error.hpp"
#include "clreduce/segmented.hpp"
#include "segmented/segmented_kernels.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <limits>
#include <random>

using namespace clreduce;
using namespace clreduce::test;

namespace {
std::vector<std::uint64_t> offsets_of(const std::vector<std::uint64_t>& lengths) {
  std::vector<std::uint64_t> o{0};
  for (std::uint64_t l : lengths) o.push_back(o.back() + l);
  return o;
}

struct Layout {
  std::string name;
  std::vector<std::uint64_t> offsets;
};

const std::vector<Layout>& layouts_under_test() {
  static const std::vector<Layout> layouts = [] {
    std::vector<Layout> v;
    v.push_back({"one segment of n = 1", {0, 1}});
    std::vector<std::uint64_t> lengths(50, 0);
    lengths[23] = 1000;
    v.push_back({"all empty but one", offsets_of(lengths)});
    v.push_back({"empty first and last", offsets_of({0, 0, 5, 17, 300, 1, 0, 64, 0, 0})});
    lengths.clear();
    for (std::uint64_t l = 1; l <= 100; ++l) lengths.push_back(l);
    v.push_back({"lengths 1, 2, 3, ... 100", offsets_of(lengths)});
    v.push_back({"one huge segment among small ones", offsets_of({3, 0, 7, 1000003, 1, 5, 0, 2, 256})});
    std::mt19937_64 rng(seed());
    std::uniform_int_distribution<std::uint64_t> len(0, 300);
    lengths.clear();
    for (int i = 0; i < 1000; ++i) lengths.push_back(len(rng));
    v.push_back({"1000 random lengths 0..300, seed " + std::to_string(seed()), offsets_of(lengths)});
    return v;
  }();
  return layouts;
}

std::vector<ElemType> types_under_test() {
  return session().device().fp64 ? std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float, ElemType::Double}
                                 : std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float};
}

SegmentedReducer reducer_on(const Session& s) {
  SegmentedReducerOptions o;
  o.device = s.device();
  o.kernel_dir = s.kernel_dir();
  return SegmentedReducer(s.queue(), o);
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() / ("clreduce_segmented_" + name);
  std::ofstream(p) << text;
  return p;
}
}  // namespace

TEST_SUITE("segmented") {
  TEST_CASE("matrix: every type, operator, segment layout and kernel (one group per segment, split, sliced) against the host reference") {
    MESSAGE("random segment lengths from seed " << seed());
    std::size_t runs = 0, item = 0;
    for (ElemType t : types_under_test())
      for (std::size_t li = 0; li < layouts_under_test().size(); ++li) {
        const Layout& layout = layouts_under_test()[li];
        const HostData data = generate_data(t, layout.offsets.back(), DataKind::Random, seed() + li);
        for (Op op : {Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax})
          // segments_group; segments_split, 7 parts per segment; segments_sliced, 4 work-items per
          // segment (64 segments per group of 256: small layouts leave slices past the last one).
          for (int kernel = 0; kernel < 3; ++kernel) {
            if (!in_shard(item++)) continue;  // all of it, or CLREDUCE_TEST_SAMPLE's sample
            SegmentedConfig cfg;
            cfg.type = t;
            cfg.op = op;
            cfg.parts = kernel == 1 ? 7 : 1;
            if (kernel == 2) cfg.slice = 4;
            CAPTURE(std::string(name_of(t)));
            CAPTURE(std::string(name_of(op)));
            CAPTURE(layout.name);
            CAPTURE(kernel);
            // A device that ends long loops (llvmpipe: 65535 iterations) refuses a slice whose
            // work-items could loop longer, naming the limit, instead of giving wrong values.
            const std::uint64_t limit = session().device().loop_trip_limit;
            if (kernel == 2 && limit && layout.offsets.back() / 4 > limit) {
              CHECK_THROWS_WITH_AS(run_segmented(session(), cfg, data, layout.offsets, quick_timing(0, 1)),
                                   doctest::Contains("ends a kernel's loops after 65535 iterations"), ConfigError);
              continue;
            }
            const SegmentedReport r = run_segmented(session(), cfg, data, layout.offsets, quick_timing(0, 1));
            INFO(r.check.detail << " (launch " << r.plan.launch_label() << ")");
            CHECK(r.ok());
            CHECK(r.plan.segments + 1 == layout.offsets.size());
            CHECK(r.plan.kernel == (kernel == 0 ? "segments_group" : kernel == 1 ? "segments_split" : "segments_sliced"));
            ++runs;
          }
      }
    MESSAGE(runs << " segmented reductions checked");
  }

  TEST_CASE("more segments than groups launched (2^20): the groups loop; a smaller work-group") {
    SegmentedConfig cfg;
    cfg.type = ElemType::Uint;
    cfg.op = Op::Sum;
    cfg.wg = 16;
    cfg.slice = 16;  // one group per segment (the rules would slice segments this short)
    std::vector<std::uint64_t> lengths;
    for (std::uint64_t i = 0; i < (1u << 20) + 4099; ++i) lengths.push_back(i % 3);
    const std::vector<std::uint64_t> offsets = offsets_of(lengths);
    const HostData data = generate_data(cfg.type, offsets.back(), DataKind::Random, seed());
    const SegmentedReport r = run_segmented(session(), cfg, data, offsets, quick_timing(0, 1));
    INFO(r.check.detail);
    CHECK(r.ok());
    CHECK(r.plan.wg == 16);
    CHECK(r.plan.groups == (1u << 20));
  }

  TEST_CASE("segments_split: the planner's choice, segments past the grid's 65535 rows, refusals") {
    const unsigned cus = std::max(1u, session().device().compute_units);
    // A CPU device (no GPU, no loop limit) with nothing chosen takes the descriptor's lines kernel
    // (its CPU shape): there the segments kernels' rules below are not the default, and each
    // default launch checks that instead (the rules run on the GPUs and llvmpipe).
    const bool cpu = !session().device().is_gpu && !session().device().loop_trip_limit;
    const auto kernel_is = [&](const SegmentedReport& rep, const char* name) {
      if (cpu) {
        CHECK(rep.plan.descriptor != nullptr);
        CHECK(rep.plan.kernel == "reduce_descriptor_lines");
        return false;
      }
      CHECK(rep.plan.kernel == name);
      return rep.plan.kernel == name;
    };
    SegmentedConfig cfg;
    cfg.type = ElemType::Float;
    // One segment of 2^20 elements: split into parts (about 32 groups per compute unit).
    const HostData big = generate_data(cfg.type, 1u << 20, DataKind::Random, seed());
    const SegmentedReport one = run_segmented(session(), cfg, big, {0, 1u << 20}, quick_timing(0, 1));
    INFO(one.check.detail);
    CHECK(one.ok());
    if (kernel_is(one, "segments_split"))
      CHECK(one.plan.parts == std::min<std::uint64_t>(32 * cus, (1u << 20) / (one.plan.wg * 16)));
    // 4 segments per compute unit: one group per segment.
    std::vector<std::uint64_t> lengths(4 * cus, 1000);
    const std::vector<std::uint64_t> many = offsets_of(lengths);
    const SegmentedReport r = run_segmented(session(), cfg, generate_data(cfg.type, many.back(), DataKind::Random, seed()),
                                            many, quick_timing(0, 1));
    CHECK(r.ok());
    if (kernel_is(r, "segments_sliced"))  // short on average (1000): a slice of 32
      CHECK(r.plan.slice == std::min<std::size_t>(32, r.plan.wg / 2));
    // Many short segments: a slice by their average length, about 8 elements per work-item (4 for
    // 32 elements, 16 for 128), except where the device ends loops the slice could pass
    // (llvmpipe: 2^19 elements by slices of 4 would loop over 2^17 times).
    for (const auto& len_want : std::vector<std::pair<std::uint64_t, unsigned>>{{32, 4}, {128, 16}}) {
      const std::uint64_t len = len_want.first;  // not a structured binding: CAPTURE takes it in a lambda
      const unsigned want = len_want.second;
      std::vector<std::uint64_t> shorts((1u << 19) / len, len);
      const std::vector<std::uint64_t> offs = offsets_of(shorts);
      const SegmentedReport sr = run_segmented(
          session(), cfg, generate_data(cfg.type, offs.back(), DataKind::Random, seed()), offs, quick_timing(0, 1));
      CAPTURE(len);
      INFO(sr.check.detail);
      CHECK(sr.ok());
      const std::uint64_t limit = session().device().loop_trip_limit;
      if (cpu) {
        kernel_is(sr, "");
      } else if (2 * want > sr.plan.wg || (limit && (1u << 19) / want > limit)) {
        CHECK(sr.plan.kernel == "segments_group");
      } else {
        CHECK(sr.plan.kernel == "segments_sliced");
        CHECK(sr.plan.slice == want);
      }
    }
    // 4 segments per compute unit of more than 2048 elements on average: one group per segment.
    std::vector<std::uint64_t> longer(4 * cus, 2049);
    const std::vector<std::uint64_t> many_long = offsets_of(longer);
    const SegmentedReport g = run_segmented(
        session(), cfg, generate_data(cfg.type, many_long.back(), DataKind::Random, seed()), many_long, quick_timing(0, 1));
    CHECK(g.ok());
    kernel_is(g, "segments_group");
    // 70000 segments, 2 parts each: the segments loop past the grid's 65535 groups along y.
    std::vector<std::uint64_t> small;
    for (std::uint64_t i = 0; i < 70000; ++i) small.push_back(i % 5);
    const std::vector<std::uint64_t> offs = offsets_of(small);
    cfg.parts = 2;
    cfg.op = Op::ArgMax;
    const SegmentedReport looped =
        run_segmented(session(), cfg, generate_data(cfg.type, offs.back(), DataKind::Random, seed()), offs,
                      quick_timing(0, 1));
    INFO(looped.check.detail);
    CHECK(looped.ok());
    CHECK(looped.plan.groups == 65535);
    // Refusals: 0 parts, more than 65535.
    for (std::uint64_t bad : {std::uint64_t{0}, std::uint64_t{65536}}) {
      cfg.parts = bad;
      CHECK_THROWS_WITH_AS(run_segmented(session(), cfg, big, {0, 1u << 20}, quick_timing(0, 1)),
                           doctest::Contains("valid: 1..65535"), ConfigError);
    }
    // A slice and parts contradict each other; a slice must be a power of two up to the group.
    cfg.parts = 2;
    cfg.slice = 4;
    CHECK_THROWS_WITH_AS(run_segmented(session(), cfg, big, {0, 1u << 20}, quick_timing(0, 1)),
                         doctest::Contains("contradict each other"), ConfigError);
    cfg.parts.reset();
    cfg.slice = 3;
    CHECK_THROWS_WITH_AS(run_segmented(session(), cfg, big, {0, 1u << 20}, quick_timing(0, 1)),
                         doctest::Contains("must be a power of two up to the work-group size"), ConfigError);
    // A slice as wide as the group is no slice: the planner's own kernel (here, one long segment:
    // split into parts).
    cfg.wg = 16;
    cfg.slice = 16;
    const SegmentedReport whole = run_segmented(session(), cfg, big, {0, 1u << 20}, quick_timing(0, 1));
    CHECK(whole.ok());
    CHECK(whole.plan.slice == 0);
    CHECK(whole.plan.kernel == "segments_split");
  }

  TEST_CASE("the poisoned output catches a segment segments_split_finish never writes") {
    const std::filesystem::path dir = copy_kernels("segments_split_poison");
    replace_in_file(dir / "segments_split.cl", "if (lid == 0) out[s] =", "if (lid == 0 && s + 1 < segments) out[s] =");
    const Session s(session().device(), dir);
    SegmentedConfig cfg;
    cfg.type = ElemType::Uint;
    cfg.parts = 3;
    const std::vector<std::uint64_t> offsets{0, 3, 3, 400, 4001};
    const HostData data = generate_data(ElemType::Uint, 4001, DataKind::Random, seed());
    const SegmentedReport r = run_segmented(s, cfg, data, offsets, quick_timing(0, 1));
    CHECK_FALSE(r.ok());
    CHECK(r.check.failures == 1);
    CHECK(r.check.detail.find("segment 3 [400, 4001):") == 0);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("the poisoned output catches a segment the kernel never writes") {
    const std::filesystem::path dir = copy_kernels("segments_poison");
    replace_in_file(dir / "segments_group.cl", "if (lid == 0) out[s] =", "if (lid == 0 && s + 1 < segments) out[s] =");
    const Session s(session().device(), dir);
    SegmentedConfig cfg;
    cfg.type = ElemType::Uint;
    cfg.wg = 16;
    cfg.slice = 16;  // segments_group (the rules would slice segments this short)
    const std::vector<std::uint64_t> offsets{0, 3, 3, 40, 41};
    const HostData data = generate_data(ElemType::Uint, 41, DataKind::Random, seed());
    const SegmentedReport r = run_segmented(s, cfg, data, offsets, quick_timing(0, 1));
    CHECK_FALSE(r.ok());
    CHECK(r.check.failures == 1);
    CHECK(r.check.detail.find("segment 3 [40, 41):") == 0);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("empty segments of floats: sum 0, min +infinity, max -infinity; NaN passed over as in whole arrays") {
    SegmentedReducer r = reducer_on(session());
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> data{1.5f, nan, -2.0f, nan};
    const std::vector<std::uint64_t> offsets{0, 0, 3, 3, 4};  // empty, {1.5, NaN, -2}, empty, {NaN}
    const std::vector<float> mins = r.reduce(data, offsets, Op::Min);
    const std::vector<float> maxs = r.reduce(data, offsets, Op::Max);
    const std::vector<float> sums = r.reduce(data, offsets, Op::Sum);
    REQUIRE(mins.size() == 4);
    CHECK(mins[0] == inf);
    CHECK(mins[1] == -2.0f);
    CHECK(mins[2] == inf);
    CHECK(std::isnan(mins[3]));  // all NaN: NaN, as the whole-array reduction gives
    CHECK(maxs[0] == -inf);
    CHECK(maxs[1] == 1.5f);
    CHECK(maxs[2] == -inf);
    CHECK(sums[0] == 0.0f);
    CHECK(std::isnan(sums[1]));
    CHECK(sums[2] == 0.0f);
    // Every segment empty, no elements at all.
    const std::vector<std::int32_t> none;
    const std::vector<std::int32_t> imin = r.reduce(none, {0, 0, 0}, Op::Min);
    CHECK(imin == std::vector<std::int32_t>{2147483647, 2147483647});
    const std::vector<std::int32_t> imax = r.reduce(none, {0, 0}, Op::Max);
    CHECK(imax == std::vector<std::int32_t>{-2147483647 - 1});
  }

  TEST_CASE("the kernels' parameters as data: every declared -D in the option string once, derived ones refused, a caller's taken") {
    // Each declared parameter is a macro some kernel file gives a default (#ifndef NAME).
    const std::string all_kernels = source_kernels_text();
    for (const KernelSpec* k : segmented_kernels())
      for (const KernelParam& p : k->params) {
        INFO(k->kernel << ": " << p.define);
        CHECK(all_kernels.find("#ifndef " + p.define + "\n") != std::string::npos);
        CHECK(!p.meaning.empty());
        CHECK(!p.rule.empty());
      }
    const auto options_of = [](SegmentedParams p, Op op = Op::Sum) {
      SegmentedReducerOptions o;
      o.params = std::move(p);
      o.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
      o.device = session().device();
      SegmentedReducer r(session().queue(), o);
      return introspect::prepare(r, ElemType::Float, op, 4000, 10)->plan;
    };
    const auto count = [](const std::string& text, const std::string& what) {
      std::size_t c = 0;
      for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++c;
      return c;
    };
    // Each kernel: every one of its declared parameters in its option string, once.
    // 32 work-items: within every kernel's limit on the devices the suite runs on (llvmpipe's is 32).
    SegmentedParams group;
    group.wg = 32;
    group.parts = 1;
    group.slice = 32;
    SegmentedParams split;
    split.wg = 32;
    split.parts = 3;
    split.defines = {Define{"ITEMS", "2"}};
    SegmentedParams sliced;
    sliced.wg = 32;
    sliced.slice = 8;
    for (const auto& [params, spec] : {std::pair{group, &segments_group_kernel()}, std::pair{split, &segments_split_kernel()},
                                       std::pair{sliced, &segments_sliced_kernel()}}) {
      const SegmentedPlan plan = options_of(params);
      INFO(plan.options);
      CHECK(plan.kernel == spec->kernel);
      for (const KernelParam& p : spec->params) CHECK(count(plan.options, "-D " + p.define + "=") == 1);
    }
    // The caller's -D ITEMS is the plan's (its depth counts it) and the option string's.
    const SegmentedPlan s2 = options_of(split);
    CHECK(s2.items == 2);
    CHECK(s2.options.find("-D ITEMS=2") != std::string::npos);
    // A -D WG_SIZE alone is the work-group size.
    SegmentedParams wg_define;
    wg_define.defines = {Define{"WG_SIZE", "16"}};
    CHECK(options_of(wg_define).wg == 16);
    // A derived parameter, a value outside the valid ones, and two different values for one, refused.
    SegmentedParams derived;
    derived.defines = {Define{"OP_ID", "1"}};
    CHECK_THROWS_WITH_AS(options_of(derived), doctest::Contains("is derived"), ConfigError);
    SegmentedParams bad_items;
    bad_items.parts = 3;
    bad_items.defines = {Define{"ITEMS", "3"}};
    CHECK_THROWS_WITH_AS(options_of(bad_items), doctest::Contains("must be one of 1, 2, 4, 8"), ConfigError);
    SegmentedParams both;
    both.wg = 64;
    both.defines = {Define{"WG_SIZE", "128"}};
    CHECK_THROWS_WITH_AS(options_of(both), doctest::Contains("to different values"), ConfigError);
    // argmin/argmax: no lockstep tail (their pairs), and a slice folds one pair at a time.
    CHECK(options_of(group, Op::ArgMax).options.find("-D LOCKSTEP=0") != std::string::npos);
    CHECK(options_of(sliced, Op::ArgMin).options.find("-D ITEMS=1") != std::string::npos);
  }

  TEST_CASE("the API checks host offsets and buffer sizes, and caches the launch") {
    SegmentedReducer r = reducer_on(session());
    const cl::Buffer in(session().context(), CL_MEM_READ_WRITE, 4 * 100);
    const cl::Buffer out(session().context(), CL_MEM_READ_WRITE, 4 * 3);
    const cl::Buffer small(session().context(), CL_MEM_READ_WRITE, 8);
    try {
      r.reduce<float>(in, std::vector<std::uint64_t>{0, 10, 5, 100}, out, Op::Sum, 100);
      FAIL("decreasing offsets accepted");
    } catch (const ConfigError& e) {
      CHECK(e.param() == Param::Segments);
      CHECK(std::string(e.what()).find("offset 2 is 5, less than offset 1 (10)") != std::string::npos);
    }
    CHECK_THROWS_WITH_AS(r.reduce<float>(in, std::vector<std::uint64_t>{0, 10, 99}, out, Op::Sum, 100),
                         doctest::Contains("is 99, not n = 100"), ConfigError);
    CHECK_THROWS_WITH_AS(r.reduce<float>(small, std::vector<std::uint64_t>{0, 10, 100}, out, Op::Sum, 100),
                         doctest::Contains("input buffer"), Error);
    CHECK_THROWS_WITH_AS(r.reduce<float>(in, small, out, Op::Sum, 100, 3), doctest::Contains("offsets buffer"), Error);
    CHECK_THROWS_WITH_AS(r.reduce<float>(in, std::vector<std::uint64_t>{0, 1, 2, 3, 100}, out, Op::Sum, 100),
                         doctest::Contains("one per segment"), Error);
    CHECK_THROWS_WITH_AS(introspect::prepare(r, ElemType::Uint, Op::Sum, 10, 0), doctest::Contains("at least one"), ConfigError);
    // The asynchronous form with device offsets: the event of the kernel.
    std::vector<float> ones(100, 1.0f);
    session().queue().enqueueWriteBuffer(in, CL_TRUE, 0, 4 * 100, ones.data());
    const std::vector<std::uint64_t> offsets{0, 10, 10, 100};
    const cl::Buffer offs(session().context(), CL_MEM_READ_ONLY, 8 * offsets.size());
    session().queue().enqueueWriteBuffer(offs, CL_TRUE, 0, 8 * offsets.size(), offsets.data());
    r.reduce<float>(in, offs, out, Op::Sum, 100, 3).wait();
    std::vector<float> got(3);
    session().queue().enqueueReadBuffer(out, CL_TRUE, 0, 4 * 3, got.data());
    CHECK(got == std::vector<float>{10.0f, 0.0f, 90.0f});
    CHECK(introspect::prepare(r, ElemType::Float, Op::Sum, 100, 3) == introspect::prepare(r, ElemType::Float, Op::Sum, 100, 3));
  }
}

TEST_SUITE("unit") {
  TEST_CASE("segment offsets: every refusal names the offset, the problem and the valid form") {
    const auto refuses = [](const std::vector<std::uint64_t>& o, std::uint64_t n, const char* text) {
      try {
        validate_segment_offsets(o, n);
        FAIL("no refusal for " << text);
      } catch (const ConfigError& e) {
        CHECK(e.param() == Param::Segments);
        CHECK_MESSAGE(std::string(e.what()).find(text) != std::string::npos, e.what());
        CHECK_MESSAGE(std::string(e.what()).find("the first 0, the last n") != std::string::npos, e.what());
      }
    };
    refuses({}, 0, "0 offsets given");
    refuses({0}, 0, "1 offset given");
    refuses({1, 5}, 5, "offset 0 is 1, not 0");
    refuses({0, 3, 2, 5}, 5, "offset 2 is 2, less than offset 1 (3)");
    refuses({0, 3, 4}, 5, "the last offset (offset 2) is 4, not n = 5");
    CHECK_NOTHROW(validate_segment_offsets({0, 0, 0}, 0));
    CHECK_NOTHROW(validate_segment_offsets({0, 5, 5, 9}, 9));
    CHECK(name_of(Param::Segments) == "segments");
    SegmentedPlan p;
    p.wg = 256;
    CHECK(p.depth_of(0) == 8);
    CHECK(p.depth_of(1000003) == 3907 + 8);
  }

  TEST_CASE("offsets files: whitespace-separated unsigned integers; each problem named with its line") {
    const std::filesystem::path good = write_temp("good.txt", "0 3\n\t5  5\n\n9\n");
    CHECK(read_offsets_file(good) == std::vector<std::uint64_t>{0, 3, 5, 5, 9});
    const auto refuses = [](const std::string& name, const std::string& text, const std::string& what) {
      const std::filesystem::path p = write_temp(name, text);
      try {
        read_offsets_file(p);
        FAIL("no refusal for " << what);
      } catch (const Error& e) {
        CHECK(e.param() == Param::Segments);
        const std::string m = e.what();
        CHECK_MESSAGE(m.find(what) != std::string::npos, m);
        CHECK_MESSAGE(m.find(p.string()) != std::string::npos, m);
        CHECK(m.find('\n') == std::string::npos);
        CHECK_MESSAGE(m.find("valid: S + 1 whitespace-separated unsigned integers") != std::string::npos, m);
      }
      std::filesystem::remove(p);
    };
    refuses("word.txt", "0 4\n7 x9\n", "line 2, offset 3: 'x9' is not an unsigned integer");
    refuses("neg.txt", "0 -4\n", "line 1, offset 1: '-4' is not an unsigned integer");
    refuses("first.txt", "\n2 4\n", "line 2, offset 0: the first offset is 2, not 0");
    refuses("down.txt", "0 4 3\n", "line 1, offset 2: 3 is less than the offset before it (4)");
    refuses("big.txt", "0 99999999999999999999\n", "is over 2^64 - 1");
    refuses("empty.txt", "  \n", "holds 0 offsets, too few for one segment");
    refuses("one.txt", "0\n", "holds 1 offset, too few");
    CHECK_THROWS_WITH_AS(read_offsets_file("/nonexistent/offsets.txt"), doctest::Contains("cannot read offsets file"),
                         Error);
    std::filesystem::remove(good);
  }
}

TEST_SUITE("cli") {
  TEST_CASE("reduce --segments: a verified run from an offsets file, and a bad file refused in one line") {
    const std::filesystem::path good = write_temp("cli_good.txt", "0 0 5\n17 17\n1000 1000\n");
    CliRun r = run_cli("reduce --segments " + good.string() + " --type float --op min --format json --iterations 2");
    INFO(r.out);
    REQUIRE(r.code == 0);
    const auto doc = nlohmann::json::parse(r.stdout_text);
    CHECK(doc["ok"] == true);
    CHECK(doc["check"]["ok"] == true);
    CHECK(doc["plan"]["segments"] == 6);
    CHECK(doc["plan"]["n"] == 1000);
    CHECK(doc["empty_segments"] == 3);
    CHECK(doc["longest_segment"] == 983);
    r = run_cli("reduce --segments " + good.string() + " --n 1000 --iterations 1");
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("check      ok: all 6 segments exact") != std::string::npos);
    // --row-width: work-items per segment (segments_sliced).
    r = run_cli("reduce --segments " + good.string() + " --row-width 8 --type int --op argmax --iterations 1");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("segments_sliced") != std::string::npos);
    CHECK(r.stdout_text.find("slice 8") != std::string::npos);
    CHECK(r.stdout_text.find("check      ok: all 6 segments") != std::string::npos);
    // Few long segments, where the rules would split each into parts: a slice given is one pass.
    const std::filesystem::path two = write_temp("cli_two.txt", "0 100000 200000\n");
    r = run_cli("reduce --segments " + two.string() + " --row-width 8 --iterations 1");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("segments_sliced") != std::string::npos);
    CHECK(r.stdout_text.find("check      ok: all 2 segments") != std::string::npos);
    std::filesystem::remove(two);
    // Segments all empty (the last offset 0, so no elements): each one the identity, on the
    // descriptor types too (they uploaded 0 bytes: CL_INVALID_BUFFER_SIZE), no read rate.
    const std::filesystem::path empty = write_temp("cli_all_empty.txt", "0 0 0\n");
    for (const char* type : {"f32", "f16", "u8", "uint"}) {
      r = run_cli("reduce --segments " + empty.string() + " --type " + type + " --iterations 1");
      INFO(type << ": " << r.out);
      CHECK(r.code == 0);
      CHECK(r.out.find("check") != std::string::npos);
      CHECK(r.out.find("CL_INVALID") == std::string::npos);
    }
    r = run_cli("reduce --segments " + empty.string() + " --type f32 --op argmax --iterations 1");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("read rate   none: no elements read") != std::string::npos);
    CHECK(r.stdout_text.find("-inf @ none") != std::string::npos);  // an empty segment's argmax: no index
    std::filesystem::remove(empty);
    const std::filesystem::path bad = write_temp("cli_bad.txt", "0 5\n7 six 9\n");
    const auto refused = [](const std::string& args, const std::string& text) { expect_refused(args, text); };
    refused("reduce --segments " + bad.string(),
            "--segments: offsets file '" + bad.string() + "', line 2, offset 3: 'six' is not an unsigned integer; "
            "valid: S + 1 whitespace-separated unsigned integers, the first 0, non-decreasing, the last n");
    refused("reduce --segments " + good.string() + " --n 999", "the last offset (offset 6) is 1000, not n = 999");
    refused("reduce --segments " + good.string() + " --axis rows --shape 4x4",
            "--segments and --axis contradict each other");
    refused("reduce --segments " + good.string() + " --vec 4", "--vec is not for segmented reductions");
    refused("reduce --segments " + good.string() + " --row-width 4 --chunks 3",
            "--row-width: a slice of 4 work-items per segment and 3 parts per segment contradict each other");
    refused("reduce --segments /nonexistent/offsets.txt", "cannot read offsets file '/nonexistent/offsets.txt'");
    std::filesystem::remove(good);
    std::filesystem::remove(bad);
  }
}
