// argmin and argmax (issue 16): the value and its index, ties to the lowest index, the first NaN
// winning (NumPy's rule), on every axis variant (rows, columns, a whole array as one row) and on
// segments, against the host reference, every output buffer poisoned first. The random matrix of
// every variant x type x shape is in test_axis.cpp and test_segmented.cpp; here are the data that
// random numbers hardly ever produce: ties everywhere, NaNs, infinities, -0.0 beside 0.0, the
// type's extreme values (equal to the identity's), and the refusals.
#include <doctest/doctest.h>

#include "benchmarks/axis_run.hpp"
#include "benchmarks/segmented_run.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/segmented.hpp"
#include "support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace clreduce;
using namespace clreduce::test;

namespace {
template <class T>
HostData data_of(const std::vector<T>& v, const std::string& origin) {
  HostData d;
  d.type = element_type_of<T>();
  d.n = v.size();
  d.bytes.resize(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(d.bytes.data(), v.data(), d.bytes.size());
  d.origin = origin;
  return d;
}

// Values from a small set, so that every row and column holds ties (seeded, printed).
template <class T>
std::vector<T> few_values(std::uint64_t count, unsigned distinct, std::uint64_t s) {
  std::mt19937_64 g(s);
  std::vector<T> v(count);
  for (auto& x : v) x = static_cast<T>(g() % distinct);
  return v;
}

// Every launch of every axis variant (the default, a small group, more chunks) on `data`.
void check_every_axis_launch(const HostData& data, std::uint64_t m, std::uint64_t n, Op op) {
  for (const AxisVariant& v : axis_variants()) {
    if (!v.arg_ops) continue;  // refused for argmin/argmax (tests/test_axis.cpp's matrix checks the refusal)
    std::vector<AxisConfig> launches(2);
    for (AxisConfig& c : launches) {
      c.variant = v.name;
      c.axis = v.axis;
      c.type = data.type;
      c.op = op;
    }
    if (v.uses_wg()) launches[1].wg = 16;
    if (v.uses_row_width()) launches[1].row_width = 4;
    if (v.uses_tile()) launches[1].chunks = std::min<std::uint64_t>(m, 7);
    if (v.splits_rows()) launches[1].chunks = std::min<std::uint64_t>(n, 7);
    for (const AxisConfig& cfg : launches) {
      CAPTURE(v.name);
      CAPTURE(std::string(name_of(op)));
      CAPTURE(m);
      CAPTURE(n);
      const AxisReport r = run_axis(session(), cfg, data, m, n, quick_timing(0, 1));
      INFO(r.check.detail << " (launch " << r.plan.launch_label() << ")");
      CHECK(r.ok());
    }
  }
}
}  // namespace

TEST_SUITE("arg") {
  TEST_CASE("ties everywhere: every axis variant and launch gives the lowest index") {
    MESSAGE("data seed " << seed());
    for (const auto& [m, n] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1, 4097}, {257, 263}, {1000, 3}, {3, 1000}})
      for (Op op : all_arg_ops()) {
        check_every_axis_launch(data_of(few_values<std::uint32_t>(m * n, 3, seed() + m), "3 distinct uint"), m, n, op);
        check_every_axis_launch(data_of(few_values<float>(m * n, 2, seed() + n), "2 distinct float"), m, n, op);
      }
  }

  TEST_CASE("all elements equal: index 0 in every row and column, whatever the launch") {
    const std::uint64_t m = 33, n = 517;
    const HostData ones = generate_data(ElemType::Int, m * n, DataKind::Ones, seed());
    for (const AxisVariant& v : axis_variants())
      for (Op op : all_arg_ops()) {
        if (!v.arg_ops) continue;
        AxisConfig cfg;
        cfg.variant = v.name;
        cfg.axis = v.axis;
        cfg.type = ElemType::Int;
        cfg.op = op;
        const AxisReport r = run_axis(session(), cfg, ones, m, n, quick_timing(0, 1));
        CAPTURE(v.name);
        REQUIRE(r.ok());
        for (std::size_t i = 0; i < r.outputs.size(); ++i) {
          CHECK(r.outputs.indexes[i] == 0);
          CHECK(r.outputs.values[i].get<std::int32_t>() == 1);
        }
      }
  }

  TEST_CASE("NaN: the first NaN wins (value NaN, its index); infinities and -0.0 beside 0.0") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::uint64_t m = 6, n = 1500;
    std::vector<float> x = few_values<float>(m * n, 1000, seed());
    for (auto& v : x) v = v / 7.0f - 50.0f;
    // Row 0: NaNs at 900 and 17 -> 17. Row 1: one NaN at the last index. Row 2: -inf and +inf
    // several times (argmin: the first -inf; argmax: the first +inf). Row 3: only zeros, -0.0 first
    // (-0.0 equals 0.0: index 0 for both). Row 4: every element NaN -> index 0. Row 5: plain.
    x[0 * n + 900] = nan;
    x[0 * n + 17] = nan;
    x[1 * n + n - 1] = nan;
    for (std::uint64_t j : {5u, 700u, 1499u}) x[2 * n + j] = -inf;
    for (std::uint64_t j : {3u, 800u}) x[2 * n + j] = inf;
    for (std::uint64_t j = 0; j < n; ++j) x[3 * n + j] = j % 2 ? 0.0f : -0.0f;
    for (std::uint64_t j = 0; j < n; ++j) x[4 * n + j] = nan;
    const HostData data = data_of(x, "NaN cases");
    for (Op op : all_arg_ops()) {
      check_every_axis_launch(data, m, n, op);
      AxisConfig cfg;
      cfg.type = ElemType::Float;
      cfg.op = op;
      cfg.axis = Axis::Rows;
      const AxisReport r = run_axis(session(), cfg, data, m, n, quick_timing(0, 1));
      REQUIRE(r.outputs.size() == m);
      CHECK(r.outputs.indexes[0] == 17);
      CHECK(std::isnan(r.outputs.values[0].get<float>()));
      CHECK(r.outputs.indexes[1] == n - 1);
      CHECK(r.outputs.indexes[2] == (op == Op::ArgMin ? 5u : 3u));
      CHECK(r.outputs.indexes[3] == 0);
      CHECK(std::signbit(r.outputs.values[3].get<float>()));  // the element at index 0 is -0.0
      CHECK(r.outputs.indexes[4] == 0);
    }
    // The columns of the same data: row 4 is all NaN, so every column's answer is a NaN: row 0's in
    // column 17, row 4's in column 3 (over row 2's +inf).
    AxisConfig cols;
    cols.type = ElemType::Float;
    cols.op = Op::ArgMax;
    cols.axis = Axis::Cols;
    const AxisReport c = run_axis(session(), cols, data, m, n, quick_timing(0, 1));
    REQUIRE(c.ok());
    CHECK(c.outputs.indexes[17] == 0);
    CHECK(c.outputs.indexes[3] == 4);
    CHECK(std::isnan(c.outputs.values[3].get<float>()));
  }

  TEST_CASE("the type's extreme values, equal to the identity's, still give a real index") {
    // argmin over all UINT_MAX (the identity's value) and argmax over all INT_MIN: index 0, not none.
    const std::vector<std::uint32_t> highs(3000, 0xffffffffu);
    const std::vector<std::int32_t> lows(3000, std::numeric_limits<std::int32_t>::min());
    std::vector<double> dinf(3000, std::numeric_limits<double>::infinity());
    check_every_axis_launch(data_of(highs, "UINT_MAX"), 30, 100, Op::ArgMin);
    check_every_axis_launch(data_of(lows, "INT_MIN"), 100, 30, Op::ArgMax);
    AxisConfig cfg;
    cfg.type = ElemType::Uint;
    cfg.op = Op::ArgMin;
    const AxisReport r = run_axis(session(), cfg, data_of(highs, "UINT_MAX"), 1, 3000, quick_timing(0, 1));
    REQUIRE(r.ok());
    CHECK(r.outputs.indexes[0] == 0);
    if (session().device().fp64) check_every_axis_launch(data_of(dinf, "+inf"), 3, 1000, Op::ArgMin);
  }

  TEST_CASE("a whole array: one row of n split over many groups, the index in the whole array") {
    // 1 x 1000003 by rows_split with 64 chunks: the winner sits in a late chunk, a tie in an earlier one.
    std::vector<float> x(1000003, 1.0f);
    x[999999] = 5.0f;
    x[123457] = 5.0f;  // the first of the two: the answer
    x[500000] = -3.0f;
    AxisConfig cfg;
    cfg.variant = "rows_split";
    cfg.chunks = 64;
    cfg.type = ElemType::Float;
    for (Op op : all_arg_ops()) {
      cfg.op = op;
      const AxisReport r = run_axis(session(), cfg, data_of(x, "planted"), 1, x.size(), quick_timing(0, 1));
      INFO(r.check.detail);
      REQUIRE(r.ok());
      CHECK(r.plan.passes.size() == 2);
      CHECK(r.outputs.indexes[0] == (op == Op::ArgMax ? 123457u : 500000u));
    }
  }

  TEST_CASE("segments: the index within the segment; an empty segment gets the identity at no index") {
    SegmentedReducerOptions o;
    o.device = session().device();
    o.kernel_dir = session().kernel_dir();
    SegmentedReducer r(session().queue(), o);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const std::vector<float> data{2.0f, -1.0f, -1.0f, 7.0f, nan, 3.0f, nan, 0.5f};
    // empty, {2, -1, -1}, {7, NaN, 3, NaN}, empty, {0.5}
    const std::vector<std::uint64_t> offsets{0, 0, 3, 7, 7, 8};
    const auto mins = r.reduce_arg(data, offsets, Op::ArgMin);
    const auto maxs = r.reduce_arg(data, offsets, Op::ArgMax);
    REQUIRE(mins.size() == 5);
    CHECK(mins[0].index == kNoIndex);
    CHECK(mins[0].value == inf);
    CHECK(maxs[0].index == kNoIndex);
    CHECK(maxs[0].value == -inf);
    CHECK(mins[1].index == 1);  // -1 at 1 and 2: the first
    CHECK(mins[1].value == -1.0f);
    CHECK(maxs[1].index == 0);
    CHECK(mins[2].index == 1);  // the first NaN, at 4 - 3
    CHECK(std::isnan(mins[2].value));
    CHECK(maxs[2].index == 1);
    CHECK(mins[3].index == kNoIndex);
    CHECK(mins[4].index == 0);
    CHECK(maxs[4].value == 0.5f);
    CHECK_THROWS_WITH_AS(r.reduce(data, offsets, Op::ArgMax), doctest::Contains("use reduce_arg"), ConfigError);
    CHECK_THROWS_WITH_AS(r.reduce_arg(data, offsets, Op::Sum), doctest::Contains("use reduce"), ConfigError);
    // Ties in long segments, checked by run_segmented against the host reference.
    const std::vector<std::uint32_t> ties = few_values<std::uint32_t>(20000, 4, seed());
    SegmentedConfig cfg;
    cfg.type = ElemType::Uint;
    for (Op op : all_arg_ops()) {
      cfg.op = op;
      const SegmentedReport s = run_segmented(session(), cfg, data_of(ties, "4 distinct uint"),
                                              {0, 1, 1, 5000, 5001, 19999, 20000}, quick_timing(0, 1));
      INFO(s.check.detail);
      CHECK(s.ok());
    }
  }

  TEST_CASE("the whole-array family refuses argmin/argmax, naming where they run") {
    ReduceConfig cfg;
    cfg.variant = "stride_global";
    cfg.type = ElemType::Float;
    cfg.op = Op::ArgMax;
    try {
      prepare(session(), cfg, 1000);
      FAIL("argmax accepted by the whole-array family");
    } catch (const ConfigError& e) {
      CHECK(e.param() == Param::Op);
      CHECK(std::string(e.what()).find("axis reductions") != std::string::npos);
      CHECK(e.valid() == "sum, min, max");
    }
    CHECK(parse_op("argmin") == Op::ArgMin);
    CHECK(result_size(ElemType::Double, Op::ArgMax) == 16);
    CHECK(result_size(ElemType::Float, Op::Max) == 4);
  }

  TEST_CASE("command line: reduce --op argmax on a whole array, on rows, on segments; bench refuses it") {
    const CliRun whole = run_cli("reduce --op argmax --type float --n 100003");
    INFO(whole.out);
    CHECK(whole.code == 0);
    CHECK(whole.out.find("result     whole array: ") != std::string::npos);
    CHECK(whole.out.find(" at ") != std::string::npos);
    const CliRun rows = run_cli("reduce --op argmin --type int --axis rows --shape 5x999 --format json");
    INFO(rows.out);
    CHECK(rows.code == 0);
    CHECK(rows.out.find("\"index\"") != std::string::npos);
    const CliRun bench = run_cli("bench --op argmax --n 1000");
    CHECK(bench.code == 2);
    CHECK(bench.stderr_text.find("valid here: sum, min, max") != std::string::npos);
    const CliRun times = run_cli("reduce --op argmin --n 1000 --times 4");
    CHECK(times.code == 2);
    CHECK(times.stderr_text.find("--times is for the whole-array variants") != std::string::npos);
  }
}
