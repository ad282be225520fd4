// Axis reductions (issue 16, first part): one value per row or per column of a matrix, against
// the host reference on the device under test, every output buffer poisoned before the run.
//
// The matrix: every axis variant x {uint, int, float, double if cl_khr_fp64} x {sum, min, max,
// argmin, argmax} x
// the shapes {1x1, 1x77, 77x1, 17x33, 31x65, 1000x3, 3x1000, 257x263 (primes), 2048x512} x two
// launches per variant (the default and another: a smaller work-group, a narrower row width, a
// chunk count that does not divide M), split over shards (CLREDUCE_TEST_SHARD) by variant, type
// and launch. Then the planner's rules and refusals on fake devices, the API's buffer checks, and
// the command line.
#include <doctest/doctest.h>

#include "axis/plan.hpp"
#include "benchmarks/axis_run.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace clreduce;
using namespace clreduce::test;

namespace {
const std::vector<std::pair<std::uint64_t, std::uint64_t>>& shapes_under_test() {
  static const std::vector<std::pair<std::uint64_t, std::uint64_t>> s{
      {1, 1}, {1, 77}, {77, 1}, {17, 33}, {31, 65}, {1000, 3}, {3, 1000}, {257, 263}, {2048, 512}};
  return s;
}

// The work-items per group the variant's kernels allow here (Rusticl's llvmpipe: 32), from the
// default launch as the reducer resolved it.
std::size_t kernel_allows(const AxisConfig& base) {
  AxisReducerOptions o;
  o.params = base;
  o.device = session().device();
  o.kernel_dir = session().kernel_dir();
  return introspect::prepare(AxisReducer(session().queue(), o), base.type, base.op, base.axis, 64, 64)->kernel_max_wg;
}

// The default launch and one other per variant: a smaller work-group (at most half of what the
// kernel allows, so it differs from the default everywhere), a narrower row width, a chunk count
// that does not divide M or N.
std::vector<AxisConfig> launches_of(const AxisVariant& v, ElemType t, Op op) {
  AxisConfig base;
  base.variant = v.name;
  base.axis = v.axis;
  base.type = t;
  base.op = op;
  AxisConfig other = base;
  const std::size_t half = std::max<std::size_t>(1, kernel_allows(base) / 2);
  if (v.name == "rows_group" || v.name == "rows_tile") other.wg = std::min<std::size_t>(64, half);
  if (v.name == "rows_sliced") other.wg = std::min<std::size_t>(64, half), other.row_width = 4;
  if (v.name == "cols_item") other.wg = std::min<std::size_t>(32, half);
  if (v.name == "cols_tile" || v.name == "cols_fused") other.chunks = 3;  // capped at M below
  if (v.name == "rows_split" || v.name == "rows_split_fused")
    other.wg = std::min<std::size_t>(32, half), other.chunks = 5;  // capped at N below
  if (v.name == "rows_vector") other.wg = std::min<std::size_t>(64, half);
  // cols_stream: 3 groups (capped at M below) and one element per load (its default loads VEC 4,
  // or 2 for doubles, whatever N is).
  if (v.name == "cols_stream" || v.name == "cols_stream_fused")
    other.wg = std::min<std::size_t>(64, half), other.chunks = 3, other.defines = {{"VEC", "1"}};
  // rows_warp: a smaller group, 4 lanes per row (however many vectors the row has), and ITEMS 2.
  if (v.name == "rows_warp") other.wg = std::min<std::size_t>(64, half), other.row_width = 4, other.defines = {{"ITEMS", "2"}};
  // The descriptor variants: the GPU's shape of a line (4 work-items a row in a group of 64), and 3
  // row chunks of the columns (capped at M below).
  if (v.name == "rows_descriptor") other.wg = std::min<std::size_t>(64, half), other.row_width = 4;
  if (v.name == "cols_descriptor") other.chunks = 3;
  if (other.row_width && *other.row_width > *other.wg) other.row_width = static_cast<unsigned>(*other.wg);
  return {base, other};
}

std::uint64_t ceil_div_test(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

DeviceInfo fake_gpu() {
  DeviceInfo d;
  d.name = "Fake GPU";
  d.is_gpu = true;  // the GPU rules (a CPU gets the descriptor variants)
  d.compute_units = 100;
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 64};
  d.max_alloc_bytes = 1ULL << 32;
  d.global_mem_bytes = 1ULL << 34;
  d.local_mem_bytes = 48 * 1024;
  d.fp64 = false;
  return d;
}
}  // namespace

TEST_SUITE("axis") {
  TEST_CASE("matrix: every axis variant, type, operator and shape against the host reference") {
    std::size_t item = 0, runs = 0;
    const std::vector<ElemType> types = session().device().fp64
                                            ? std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float, ElemType::Double}
                                            : std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float};
    for (const AxisVariant& v : axis_variants())
      for (ElemType t : types)
        for (std::size_t which = 0; which < 2; ++which) {
          if (!in_shard(item++)) continue;
          for (Op op : {Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax}) {
            if (is_arg_op(op) && !v.arg_ops) {  // refused before any kernel is built, naming the ones that take it
              AxisConfig refused;
              refused.variant = v.name;
              refused.axis = v.axis;
              refused.type = t;
              refused.op = op;
              CAPTURE(v.name);
              CHECK_THROWS_WITH_AS(plan_axis(refused, session().device(), 17, 33),
                                   doctest::Contains(("valid for columns with " + std::string(name_of(op))).c_str()), ConfigError);
              continue;
            }
            const AxisConfig launch = launches_of(v, t, op)[which];
            for (const auto& shape : shapes_under_test()) {
              const std::uint64_t m = shape.first, n = shape.second;  // CAPTURE takes them by reference
              AxisConfig cfg = launch;
              if (cfg.chunks) cfg.chunks = std::min<std::uint64_t>(*cfg.chunks, v.axis == Axis::Cols ? m : n);
              const HostData data = generate_data(t, m * n, DataKind::Random, seed() + m * 31 + n);
              CAPTURE(v.name);
              CAPTURE(std::string(name_of(t)));
              CAPTURE(std::string(name_of(op)));
              CAPTURE(m);
              CAPTURE(n);
              CAPTURE(which);
              const AxisReport r = run_axis(session(), cfg, data, m, n, quick_timing(0, 1));
              INFO(r.check.detail << " (launch " << r.plan.launch_label() << ")");
              CHECK(r.ok());
              CHECK(r.plan.variant->name == v.name);
              ++runs;
            }
          }
        }
    MESSAGE(runs << " axis reductions checked in this shard");
  }

  TEST_CASE("cols_stream_fused over few rows of many columns: the last group's finish is right on every device") {
    // 5 x 20011 at WG_SIZE 32: the finishing work-items each fold 626 columns' 626 partial rows,
    // past llvmpipe's loop limit (it returned wrong columns from 3304 on; the planner now gives
    // the partial rows to the second pass there).
    for (ElemType t : {ElemType::Uint, ElemType::Float}) {
      AxisConfig cfg;
      cfg.variant = "cols_stream_fused";
      cfg.axis = Axis::Cols;
      cfg.type = t;
      cfg.op = t == ElemType::Uint ? Op::Max : Op::Sum;
      cfg.wg = std::min<std::size_t>(32, kernel_allows(cfg));
      const HostData data = generate_data(t, 5 * 20011, DataKind::Random, seed() + 20011);
      const AxisReport r = run_axis(session(), cfg, data, 5, 20011, quick_timing(0, 1));
      INFO(r.check.detail << " (launch " << r.plan.launch_label() << ")");
      CHECK(r.ok());
    }
  }

  TEST_CASE("cols_descriptor in row chunks with a last work-item of fewer than VEC columns, one chunk and several") {
    // PoCL 3.1's workitemloops method miscompiled the kernel's `if (chunks == 1) return;` before
    // the ticket's barriers: at VEC 8 and 2 row chunks of these shapes it read rows past the
    // matrix, wrote past the partials (heap corruption, then abort or a hang), whichever the test
    // seed. Fixed shapes, not the sampled matrix: the kernel now reaches those barriers in every
    // group. Run by axis_workitemloops_* and every other device of the suite.
    struct Case {
      ElemType type;
      Op op;
      std::uint64_t m, n;
      std::vector<Define> defines;
      std::optional<std::uint64_t> chunks;
    };
    std::vector<Case> cases = {{ElemType::Float, Op::Sum, 31, 129, {{"VEC", "8"}}, 2},
                               {ElemType::Float, Op::Max, 31, 129, {{"VEC", "8"}}, 1},
                               {ElemType::Uint, Op::Sum, 63, 65, {{"VEC", "8"}}, 2}};
    if (session().device().fp64)
      for (Op op : {Op::Sum, Op::Max, Op::ArgMax})
        for (std::uint64_t m : {31, 63}) cases.push_back({ElemType::Double, op, m, 65, {{"VEC", "8"}}, 2});
    for (const Case& c : cases) {
      AxisConfig cfg;
      cfg.variant = "cols_descriptor";
      cfg.axis = Axis::Cols;
      cfg.type = c.type;
      cfg.op = c.op;
      cfg.defines = c.defines;
      cfg.chunks = c.chunks;
      const HostData data = generate_data(c.type, c.m * c.n, DataKind::Random, seed() + c.m * c.n);
      for (int launch = 0; launch < 2; ++launch) {  // the ticket left at 0 for the next launch
        const AxisReport r = run_axis(session(), cfg, data, c.m, c.n, quick_timing(0, 1));
        INFO(std::string(name_of(c.type)) << " " << std::string(name_of(c.op)) << " " << c.m << " x " << c.n << " (launch "
                             << r.plan.launch_label() << "): " << r.check.detail);
        CHECK(r.ok());
      }
    }
  }

  TEST_CASE("cols_stream at the widths whose lanes NVIDIA folds by warp shuffles (N / VEC a power of two up to 32)") {
    // The shapes above reach the tree of lanes; these reach the butterfly where the device runs
    // NVIDIA PTX (WARP_FOLD), and the tree elsewhere: N = VEC ... 32 VEC, M odd, three groups and the
    // planner's, groups of 64 (two warps) and the default. Sums' depth then counts the warps.
    std::size_t item = 0, runs = 0;
    const std::vector<ElemType> types = session().device().fp64
                                            ? std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float, ElemType::Double}
                                            : std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float};
    for (const char* name : {"cols_stream", "cols_stream_fused"})
      for (ElemType t : types) {
        if (!in_shard(item++)) continue;
        const AxisVariant& v = find_axis_variant(name);
        for (Op op : {Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax}) {
          if (is_arg_op(op) && !v.arg_ops) continue;  // refused: the matrix case above checks how
          for (std::uint64_t n : {2, 4, 8, 16, 32, 64, 128})
            for (std::size_t which = 0; which < 2; ++which) {
              const std::uint64_t m = 1001;
              AxisConfig cfg;
              cfg.variant = name;
              cfg.axis = Axis::Cols;
              cfg.type = t;
              cfg.op = op;
              if (which == 1) cfg.wg = std::min<std::size_t>(64, kernel_allows(cfg)), cfg.chunks = 3;
              const HostData data = generate_data(t, m * n, DataKind::Random, seed() + n * 7 + which);
              CAPTURE(std::string(name));
              CAPTURE(std::string(name_of(t)));
              CAPTURE(std::string(name_of(op)));
              CAPTURE(n);
              CAPTURE(which);
              const AxisReport r = run_axis(session(), cfg, data, m, n, quick_timing(0, 1));
              INFO(r.check.detail << " (launch " << r.plan.launch_label() << ")");
              CHECK(r.ok());
              ++runs;
            }
        }
      }
    MESSAGE(runs << " cols_stream reductions at warp-foldable widths checked in this shard");
  }

  TEST_CASE("fused launches back to back on alternating inputs: every ticket back at 0, each result right") {
    // cols_fused, cols_stream_fused and rows_split_fused leave their counters at 0 for the next
    // launch (no host work between launches). Six launches alternate two inputs, the output
    // poisoned before each; uint sums, so each result is exact, and a launch whose last group never
    // finished (a counter left short) leaves the poison.
    struct Case {
      const char* variant;
      Axis axis;
      std::uint64_t m, n, chunks;
      std::size_t wg;
    };
    for (const Case& c : {Case{"cols_fused", Axis::Cols, 301, 37, 3, 0}, Case{"cols_stream_fused", Axis::Cols, 301, 37, 3, 64},
                          Case{"rows_split_fused", Axis::Rows, 7, 3001, 5, 32}, Case{"rows_split_fused", Axis::Rows, 3, 1000, 64, 0}}) {
      CAPTURE(std::string(c.variant));
      AxisReducerOptions o;
      o.device = session().device();
      o.kernel_dir = session().kernel_dir();
      o.params.variant = c.variant;
      o.params.chunks = c.chunks;
      if (c.wg) {  // at most what the variant's kernel allows here (llvmpipe: 32)
        AxisConfig base;
        base.variant = c.variant;
        base.axis = c.axis;
        base.type = ElemType::Uint;
        o.params.wg = std::min<std::size_t>(c.wg, kernel_allows(base));
      }
      AxisReducer r(session().queue(), o);
      const std::uint64_t outs = c.axis == Axis::Rows ? c.m : c.n;
      std::vector<std::vector<cl_uint>> in(2, std::vector<cl_uint>(c.m * c.n)), want(2, std::vector<cl_uint>(outs, 0));
      for (int k = 0; k < 2; ++k)
        for (std::uint64_t i = 0; i < c.m; ++i)
          for (std::uint64_t j = 0; j < c.n; ++j) {
            const cl_uint x = static_cast<cl_uint>((i * 2654435761u + j * 40503u + static_cast<std::uint64_t>(k) * 977u) % 100000u);
            in[k][i * c.n + j] = x;
            want[k][c.axis == Axis::Rows ? i : j] += x;
          }
      const cl::Buffer a(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4 * in[0].size(), in[0].data());
      const cl::Buffer b(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4 * in[1].size(), in[1].data());
      const cl::Buffer out(session().context(), CL_MEM_READ_WRITE, 4 * outs);
      CHECK(introspect::prepare(r, ElemType::Uint, Op::Sum, c.axis, c.m, c.n)->plan.passes.size() == 1);  // one launch: fused
      for (int launch = 0; launch < 6; ++launch) {
        CAPTURE(launch);
        const cl_uint poison = 0xdeadbeefu;
        session().queue().enqueueFillBuffer(out, poison, 0, 4 * outs);
        r.reduce<cl_uint>(launch % 2 ? b : a, out, Op::Sum, c.axis, c.m, c.n);
        std::vector<cl_uint> got(outs);
        session().queue().enqueueReadBuffer(out, CL_TRUE, 0, 4 * outs, got.data());
        CHECK(got == want[launch % 2]);
      }
    }
  }

  TEST_CASE("the poisoned output catches a value the kernel never writes") {
    // A kernel that skips the last row: its output keeps the poison, and the check says so.
    const std::filesystem::path dir = copy_kernels("axis_poison");
    replace_in_file(dir / "axis_rows_group.cl", "if (lid == 0) out[row] = l[0];", "if (lid == 0 && row + 1 < m) out[row] = l[0];");
    const Session s(session().device(), dir);
    AxisConfig cfg;
    cfg.variant = "rows_group";
    const HostData data = generate_data(ElemType::Uint, 5 * 40, DataKind::Random, seed());
    cfg.type = ElemType::Uint;
    const AxisReport r = run_axis(s, cfg, data, 5, 40, quick_timing(0, 1));
    CHECK_FALSE(r.ok());
    CHECK(r.check.failures == 1);
    CHECK(r.check.detail.find("row 4:") == 0);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("the API refuses buffers too small for the matrix or its outputs") {
    AxisReducerOptions o;
    o.device = session().device();
    o.kernel_dir = session().kernel_dir();
    AxisReducer r(session().queue(), o);
    const cl::Buffer small(session().context(), CL_MEM_READ_WRITE, 4 * 10);
    const cl::Buffer big(session().context(), CL_MEM_READ_WRITE, 4 * 100);
    CHECK_THROWS_WITH_AS(r.reduce<float>(small, big, Op::Sum, Axis::Rows, 10, 10), doctest::Contains("input buffer"), Error);
    CHECK_THROWS_WITH_AS(r.reduce<float>(big, small, Op::Sum, Axis::Cols, 2, 50), doctest::Contains("one per column"), Error);
    // The asynchronous form returns the last pass's event; the launch is prepared once.
    const cl::Buffer out(session().context(), CL_MEM_READ_WRITE, 4 * 10);
    const cl::Event e = r.reduce<float>(big, out, Op::Max, Axis::Rows, 10, 10);
    e.wait();
    CHECK(introspect::prepare(r, ElemType::Float, Op::Max, Axis::Rows, 10, 10) == introspect::prepare(r, ElemType::Float, Op::Max, Axis::Rows, 10, 10));
  }
}

TEST_SUITE("unit") {
  TEST_CASE("axis planner: a CPU device's default is the descriptor variants, but for a user's operator") {
    DeviceInfo cpu = fake_gpu();
    cpu.is_gpu = false;
    for (const Axis axis : {Axis::Rows, Axis::Cols})
      for (const auto& shape : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1048576, 32}, {32, 1048576}, {4096, 4096}})
        for (const Op op : {Op::Sum, Op::Min, Op::ArgMax}) {
          const std::uint64_t m = shape.first, n = shape.second;  // CAPTURE takes them by reference
          CAPTURE(m);
          CAPTURE(n);
          const AxisVariant& v = default_axis_variant(axis, ElemType::Float, op, m, n, cpu);
          CHECK(v.name == (axis == Axis::Rows ? "rows_descriptor" : "cols_descriptor"));
          AxisConfig c;
          c.axis = axis;
          c.op = op;
          const AxisPlan p = plan_axis(c, cpu, m, n);
          CHECK(p.variant == &v);
          REQUIRE(p.passes.size() == 1);
          CHECK(p.passes[0].kernel == (axis == Axis::Rows ? "reduce_descriptor_lines" : "reduce_descriptor_cols"));
          CHECK(p.depth > 0);
          CHECK(p.launch_label() == p.descriptor_label);
        }
    CHECK_FALSE(default_axis_variant(Axis::Rows, ElemType::Float, Op::User, 4096, 4096, cpu).runs_descriptor());
    cpu.loop_trip_limit = 65535;  // llvmpipe: the GPU rules
    CHECK_FALSE(default_axis_variant(Axis::Rows, ElemType::Float, Op::Sum, 4096, 4096, cpu).runs_descriptor());
    CHECK_FALSE(default_axis_variant(Axis::Cols, ElemType::Float, Op::Sum, 4096, 4096, fake_gpu()).runs_descriptor());
  }

  TEST_CASE("axis planner: matrices of at most 40 MiB, which stay in a large GPU's L2 back to back") {
    // bench/results/2026-12-07_h100_l2_axis: there a launch's fixed costs decide, not the memory.
    const DeviceInfo d = fake_gpu();  // 100 compute units
    const auto variant = [&](Axis axis, Op op, std::uint64_t m, std::uint64_t n) {
      AxisConfig cfg;
      cfg.axis = axis;
      cfg.op = op;
      return plan_axis(cfg, d, m, n).variant->name;
    };

    // Thin columns (rows of at most 256 bytes, 4096 rows or more): streamed in one launch for
    // sums, min and max; argmin/argmax as before; wider rows, fewer rows or a larger matrix as before.
    CHECK(variant(Axis::Cols, Op::Sum, 8192, 32) == "cols_stream_fused");
    CHECK(variant(Axis::Cols, Op::Max, 16384, 64) == "cols_stream_fused");
    CHECK(variant(Axis::Cols, Op::Min, 131072, 64) == "cols_stream_fused");  // 32 MiB
    CHECK(variant(Axis::Cols, Op::ArgMax, 8192, 32) == "cols_fused");
    CHECK(variant(Axis::Cols, Op::Sum, 16384, 65) != "cols_stream_fused");
    CHECK(variant(Axis::Cols, Op::Sum, 2048, 32) == "cols_fused");
    CHECK(variant(Axis::Cols, Op::Sum, 262144, 64) == "cols_tile");  // 64 MiB: the tiles, as measured at 256 MiB
    // Tiles of 65 to 128 row chunks (an H100's 132 compute units) of at most 16 MiB: in one launch
    // (cols_fused) as those of 2 to 64 are; past 128 chunks or 16 MiB the tiles as before.
    DeviceInfo h100 = d;
    h100.compute_units = 132;
    const auto cols = [&](Op op, std::uint64_t m, std::uint64_t n, const char* variant_name) {
      AxisConfig cfg;
      cfg.axis = Axis::Cols;
      cfg.op = op;
      const std::string planned = plan_axis(cfg, h100, m, n).variant->name;
      cfg.variant = "cols_tile";
      return std::make_pair(plan_axis(cfg, h100, m, n).chunks, planned == variant_name);
    };
    CHECK(cols(Op::Sum, 16384, 256, "cols_fused") == std::make_pair(std::uint64_t{128}, true));
    CHECK(cols(Op::ArgMax, 16384, 256, "cols_fused") == std::make_pair(std::uint64_t{128}, true));
    CHECK(cols(Op::ArgMax, 16384, 64, "cols_fused") == std::make_pair(std::uint64_t{128}, true));
    CHECK(cols(Op::Max, 131072, 80, "cols_tile") == std::make_pair(std::uint64_t{256}, true));  // 40 MiB
    CHECK(cols(Op::Sum, 65536, 160, "cols_tile") == std::make_pair(std::uint64_t{128}, true));  // 40 MiB
    // Few rows of many columns (at most 64 rows, columns for two groups of 256 a compute unit): a
    // work-item per column, for every operator; fewer columns or more rows as before.
    CHECK(variant(Axis::Cols, Op::Sum, 32, 131072) == "cols_item");
    CHECK(variant(Axis::Cols, Op::ArgMax, 64, 65536) == "cols_item");
    CHECK(variant(Axis::Cols, Op::Sum, 32, 16384) == "cols_tile");
    CHECK(variant(Axis::Cols, Op::Sum, 65, 65536) != "cols_item");
    // Few rows of at most 64 KiB: a group per row for sums, min and max; longer ones rows_split_fused.
    // argmin/argmax: a group per row where the rows fill the compute units, else rows_split in one
    // launch; past 40 MiB, rows_split as before.
    CHECK(variant(Axis::Rows, Op::Sum, 64, 16384) == "rows_group");
    CHECK(variant(Axis::Rows, Op::Max, 256, 16384) == "rows_group");
    CHECK(variant(Axis::Rows, Op::Sum, 64, 16385) == "rows_split_fused");  // a row past 64 KiB
    CHECK(variant(Axis::Rows, Op::ArgMin, 32, 8192) == "rows_split_fused");
    CHECK(variant(Axis::Rows, Op::ArgMax, 256, 16384) == "rows_group");
    CHECK(variant(Axis::Rows, Op::ArgMax, 64, 131072) == "rows_split_fused");  // 32 MiB
    CHECK(variant(Axis::Rows, Op::ArgMax, 64, 262144) == "rows_split");        // 64 MiB
    CHECK(variant(Axis::Rows, Op::Sum, 32, 131072) == "rows_split_fused");
    // Many rows of 1025 elements to under 16 KiB: rows_sliced (argmin/argmax: rows_warp where the
    // device has NVIDIA's shuffle); longer rows or a larger matrix: rows_group as before.
    CHECK(variant(Axis::Rows, Op::Sum, 6144, 1536) == "rows_sliced");
    CHECK(variant(Axis::Rows, Op::ArgMax, 2816, 2816) == "rows_sliced");
    CHECK(variant(Axis::Rows, Op::Max, 1536, 4096) == "rows_group");  // 16 KiB rows
    CHECK(variant(Axis::Rows, Op::Sum, 16384, 2048) == "rows_group");  // 128 MiB
    DeviceInfo nv = d;
    nv.is_nvidia = true;
    nv.lockstep_width = 32;
    nv.lockstep_source = "CL_DEVICE_WARP_SIZE_NV";
    AxisConfig arg;
    arg.axis = Axis::Rows;
    arg.op = Op::ArgMax;
    CHECK(plan_axis(arg, nv, 6144, 1536).variant->name == "rows_warp");
    arg.op = Op::Sum;
    CHECK(plan_axis(arg, nv, 6144, 1536).variant->name == "rows_sliced");
  }

  TEST_CASE("axis planner: the variant by shape, the row width, the chunks, the depth") {
    const DeviceInfo d = fake_gpu();
    AxisConfig cfg;
    cfg.axis = Axis::Rows;
    AxisPlan p = plan_axis(cfg, d, 1048576, 32);
    CHECK(p.variant->name == "rows_sliced");
    CHECK(p.row_width == 4);  // about 8 elements per work-item
    CHECK(p.depth == 8 + 2);
    p = plan_axis(cfg, d, 100, 3);
    CHECK(p.row_width == 1);
    p = plan_axis(cfg, d, 100, 1024);
    CHECK(p.row_width == 32);  // capped at a warp
    p = plan_axis(cfg, d, 32, 1048576);  // few long rows: split in one launch
    CHECK(p.variant->name == "rows_split_fused");
    // 8 groups per compute unit over 32 rows would be 25 chunks; parts of at most 32 KiB (8192
    // floats) make 128 (a power of two, at most a 16th of the row per work-item of 256).
    CHECK(p.chunks == 128);
    REQUIRE(p.passes.size() == 1);
    CHECK(p.passes[0].groups_x == 128);
    CHECK(p.passes[0].groups_y == 32);
    CHECK(p.passes[0].tickets == 32);  // one per row
    CHECK(p.passes[0].fused_partials == 32 * 128);
    CHECK(p.passes[0].values_out == 32);
    CHECK(p.passes[0].options.find("-D FUSED=1") != std::string::npos);
    CHECK(p.depth == (ceil_div_test(8192, 256) + 8) + (1 + 8));  // the chunks' values strided over the group, then its tree
    {  // without the parts' bound: 8 groups per compute unit (25), rounded down to a power of two
      AxisConfig small = cfg;
      CHECK(plan_axis(small, d, 32, 65536).chunks == 16);  // 256 KiB rows: 8 parts of 32 KiB, 25 for the groups
    }
    {  // argmin/argmax keep the second launch (round 21: no gain from one launch for them)
      AxisConfig arg = cfg;
      arg.op = Op::ArgMax;
      CHECK(plan_axis(arg, d, 32, 1048576).variant->name == "rows_split");
    }
    cfg.variant = "rows_split";  // the two-launch form, named: parts of at most 16 KiB
    p = plan_axis(cfg, d, 32, 1048576);
    cfg.variant.clear();
    CHECK(p.chunks == 256);
    CHECK(p.passes.size() == 2);
    CHECK(p.passes[0].groups_x == 256);
    CHECK(p.passes[0].groups_y == 32);
    CHECK(p.passes[1].kernel == "axis_rows_sliced");
    CHECK(p.passes[1].n == 256);
    CHECK(p.row_width == 32);
    CHECK(p.depth == (ceil_div_test(4096, 256) + 8) + (8 + 5));
    {  // argmin/argmax: the groups alone decide (8 per compute unit over 32 rows: 25, so 16)
      AxisConfig arg = cfg;
      arg.op = Op::ArgMin;
      arg.variant = "rows_split";
      CHECK(plan_axis(arg, d, 32, 1048576).chunks == 16);
    }
    {  // many long rows: rows of 128 KiB or more split in parts of 16 KiB for sums, min and max
      AxisConfig many = cfg;
      const AxisPlan s1 = plan_axis(many, d, 1024, 65536);
      CHECK(s1.variant->name == "rows_split");
      CHECK(s1.chunks == 16);
      CHECK(s1.passes.size() == 2);
      DeviceInfo d64 = d;
      d64.fp64 = true;
      many.type = ElemType::Double;
      CHECK(plan_axis(many, d64, 2048, 16384).variant->name == "rows_split");  // 128 KiB of doubles
      many.type = ElemType::Float;
      CHECK(plan_axis(many, d, 4096, 16384).variant->name == "rows_group");  // 64 KiB rows, 256 MiB
      CHECK(plan_axis(many, d, 8192, 16384).variant->name == "rows_split");  // 64 KiB rows, 512 MiB
      CHECK(plan_axis(many, d, 8192, 8192).variant->name == "rows_group");   // 32 KiB rows
      many.op = Op::ArgMax;
      CHECK(plan_axis(many, d, 1024, 65536).variant->name == "rows_group");
    }
    {  // A device with NVIDIA's warp shuffle: short rows by rows_warp, enough lanes for the row's vectors.
      DeviceInfo nv = d;
      nv.is_nvidia = true;
      nv.lockstep_width = 32;
      nv.lockstep_source = "CL_DEVICE_WARP_SIZE_NV";
      AxisPlan w = plan_axis(cfg, nv, 1048576, 32);
      CHECK(w.variant->name == "rows_warp");
      CHECK(w.row_width == 8);
      CHECK(w.vec == 4);
      CHECK(w.depth == 4 + 3);  // one vector per lane, then 3 shuffle levels
      CHECK(w.passes[0].groups_x == 1048576 / (32 * 4));  // 32 rows per group x ITEMS 4 per trip
      CHECK(w.passes[0].options.find("-D NV_PTX=1") != std::string::npos);
      CHECK(plan_axis(cfg, nv, 100, 1024).row_width == 32);  // 256 vectors: a warp
      CHECK(plan_axis(cfg, nv, 100, 6).row_width == 2);      // VEC 2, 3 vectors
      CHECK(plan_axis(cfg, nv, 16384, 1025).variant->name == "rows_group");  // 67 MB: past the L2 rules
      CHECK(&default_axis_variant(Axis::Rows, cfg.type, cfg.op, 1048576, 32, nv) == w.variant);
    }
    p = plan_axis(cfg, d, 8192, 8192);
    CHECK(p.variant->name == "rows_group");
    CHECK(p.wg == 256);
    CHECK(p.depth == 32 + 8);
    CHECK(p.passes.size() == 1);
    CHECK(p.passes[0].options.find("-D LOCKSTEP=") != std::string::npos);
    cfg.axis = Axis::Cols;
    // Thin columns (rows of at most 128 bytes) that tiles would split into more than 64 chunks:
    // streamed in one launch, 4 groups per compute unit; argmin/argmax by cols_stream's two passes.
    p = plan_axis(cfg, d, 1048576, 32);
    CHECK(p.variant->name == "cols_stream_fused");
    CHECK(p.chunks == 400);
    CHECK(p.rows_per_step == 12800);  // 400 groups x 256 work-items x VEC 4 / 32 columns
    REQUIRE(p.passes.size() == 1);
    CHECK(p.passes[0].fused_partials == 400 * 32);
    CHECK(p.passes[0].tickets == 1);
    CHECK(p.passes[0].values_out == 32);
    CHECK(p.passes[0].options.find("-D FUSED=1") != std::string::npos);
    // A lane's 82 steps and the tree over the group's 32 lanes of a column, then the finish: 13
    // steps of 32 partial rows and the same tree.
    CHECK(p.depth == (82 + 5) + (13 + 5));
    AxisConfig arg = cfg;
    arg.op = Op::ArgMax;
    p = plan_axis(arg, d, 1048576, 32);
    CHECK(p.variant->name == "cols_stream");
    CHECK(p.passes.size() == 2);
    CHECK(p.passes[1].kernel == "axis_cols_tile");
    CHECK(p.passes[1].m == 400);
    p = plan_axis(cfg, d, 1048576, 64);  // 256-byte rows: tiles
    CHECK(p.variant->name == "cols_tile");
    CHECK(p.chunks == 256);  // 8 groups per compute unit (800) over 2 column tiles, rounded down to a power of two
    CHECK(p.passes.size() == 2);
    CHECK(p.passes[1].m == 256);
    CHECK(p.passes[1].options.find("-D FIRST_PASS=0") != std::string::npos);
    AxisConfig dbl = cfg;
    dbl.type = ElemType::Double;
    DeviceInfo d64 = d;
    d64.fp64 = true;
    CHECK(plan_axis(dbl, d64, 1048576, 16).variant->name == "cols_stream_fused");  // 128 bytes
    CHECK(plan_axis(dbl, d64, 1048576, 17).variant->name == "cols_tile");
    // A few chunks meet in one launch: 128 column tiles, 7 chunks for 800 groups, rounded down to 4.
    p = plan_axis(cfg, d, 4096, 4096);
    CHECK(p.variant->name == "cols_fused");
    CHECK(p.chunks == 4);
    CHECK(p.passes.size() == 1);
    CHECK(p.passes[0].fused_partials == 4 * 4096);
    CHECK(p.passes[0].tickets == 128);
    CHECK(p.passes[0].values_out == 4096);
    CHECK(p.passes[0].options.find("-D NV_PTX=0") != std::string::npos);
    CHECK(p.depth == (1024 / 8 + 3) + (1 + 3));
    CHECK(&default_axis_variant(Axis::Cols, cfg.type, cfg.op, 4096, 4096, d) == p.variant);
    {  // NVIDIA: cols_fused's tile policy (128 x 2 at 2 groups per compute unit up to 64 MiB, 64 x 4
       // at 8 above), and cols_stream's lanes folded by warps, whose depth counts the warps.
      DeviceInfo nv = d;
      nv.is_nvidia = true;
      nv.compute_units = 132;
      AxisPlan f = plan_axis(cfg, nv, 4096, 4096);  // 64 MiB
      CHECK(f.variant->name == "cols_fused");
      CHECK(f.launch_label() == "128x2, 8 chunks");  // 264 groups over 32 tiles (9), rounded down
      CHECK(f.passes[0].tickets == 32);
      CHECK(f.depth == (512 / 2 + 1) + (4 + 1));
      CHECK(axis_chunks_for(*f.variant, nv, cfg.type, cfg.op, 4096, 4096, 0, 2) == f.chunks);
      f = plan_axis(cfg, nv, 8192, 8192);
      CHECK(f.launch_label() == "64x4, 8 chunks");  // 1056 groups over 128 tiles (8.25)
      CHECK(axis_chunks_for(*f.variant, nv, cfg.type, cfg.op, 8192, 8192, 0, 8) == f.chunks);
      AxisConfig dbl64 = cfg;
      dbl64.type = ElemType::Double;
      nv.fp64 = true;
      CHECK(plan_axis(dbl64, nv, 4096, 4096).launch_label() == "64x4, 16 chunks");  // 128 MiB
      AxisConfig argmax = cfg;
      argmax.op = Op::ArgMax;  // pairs: the registry's tile (the wider ones lost)
      CHECK(plan_axis(argmax, nv, 4096, 4096).launch_label() == "32x8, 8 chunks");
      CHECK(plan_axis(argmax, nv, 8192, 8192).launch_label() == "32x8, 4 chunks");
      CHECK(axis_chunks_for(*f.variant, nv, cfg.type, Op::ArgMax, 4096, 4096, 0, 8) == 8);
      AxisConfig tile = cfg;
      tile.variant = "cols_tile";  // the policy is cols_fused's, measured; cols_tile keeps 32 x 8
      CHECK(plan_axis(tile, nv, 4096, 4096).launch_label().rfind("32x8, ", 0) == 0);
      AxisPlan st = plan_axis(cfg, nv, 1048576, 32);
      CHECK(st.variant->name == "cols_stream_fused");
      CHECK(st.chunks == 528);
      CHECK(st.passes[0].options.find("-D NV_PTX=1") != std::string::npos);
      // 62 steps (16896 rows each) of a lane; the warps' fold: 2 butterfly levels and 8 warps, not
      // the tree's 5; the finish's 17 steps of 32 partial rows and the same fold.
      CHECK(st.depth == (63 + 2 + 8) + (17 + 2 + 8));
      DeviceInfo same = nv;
      same.is_nvidia = false;
      CHECK(plan_axis(cfg, nv, 1048576, 24).depth == plan_axis(cfg, same, 1048576, 24).depth);  // 6 lanes a row: the tree
    }
    p = plan_axis(cfg, d, 32, 1048576);  // columns enough for 8 groups of 256 per compute unit
    CHECK(p.variant->name == "cols_item");
    CHECK(p.passes.size() == 1);
    p = plan_axis(cfg, d, 64, 8 * 256 * d.compute_units - 1);  // 52 MB (past 40 MiB: the L2 rules above are not asked)
    CHECK(p.variant->name == "cols_tile");
    p = plan_axis(cfg, d, 64, 8192);
    CHECK(p.variant->name == "cols_tile");
    CHECK(p.chunks == 1);  // 256 column tiles fill the device; 64 rows are too few to split
    CHECK(p.passes.size() == 1);
    cfg.chunks = 7;
    p = plan_axis(cfg, d, 100, 5);
    CHECK(p.chunks == 7);
    CHECK(p.passes[0].chunk_len == 15);
    // rows_vector: the widest vector dividing the row, one work-item per row.
    cfg = AxisConfig{};
    cfg.variant = "rows_vector";
    p = plan_axis(cfg, d, 1048576, 32);
    CHECK(p.vec == 4);
    CHECK(p.passes.size() == 1);
    CHECK(p.passes[0].groups_x == 1048576 / 256);
    CHECK(p.passes[0].options.find("-D VEC=4") != std::string::npos);
    CHECK(p.depth == 32);
    CHECK(p.launch_label() == "wg 256, VEC 4");
    CHECK(plan_axis(cfg, d, 100, 3).vec == 1);
    CHECK(plan_axis(cfg, d, 100, 6).vec == 2);
    cfg.type = ElemType::Double;
    DeviceInfo fp64 = d;
    fp64.fp64 = true;
    CHECK(plan_axis(cfg, fp64, 100, 8).vec == 2);  // 16 bytes
    // cols_stream: 4 groups per compute unit (400 here), whole rows per step, then cols_tile over
    // the groups' partial rows in one chunk, 32 x 32.
    cfg = AxisConfig{};
    cfg.axis = Axis::Cols;
    cfg.variant = "cols_stream";
    p = plan_axis(cfg, d, 1048576, 32);
    CHECK(p.vec == 4);
    CHECK(p.chunks == 400);
    CHECK(p.rows_per_step == 400 * 256 * 4 / 32);
    REQUIRE(p.passes.size() == 2);
    CHECK(p.passes[0].chunk_len == p.rows_per_step);
    CHECK(p.passes[0].values_out == 400 * 32);
    CHECK(p.passes[1].kernel == "axis_cols_tile");
    CHECK(p.passes[1].m == 400);
    CHECK(p.passes[1].chunk_len == 400);
    CHECK(p.passes[1].wg_x * p.passes[1].wg_y == 1024);
    CHECK(p.passes[1].options.find("-D FIRST_PASS=0") != std::string::npos);
    CHECK(p.depth == (82 + 5) + (13 + 5));  // the tree over 32 lanes of a column: 5 levels
    CHECK(p.launch_label() == "wg 256, VEC 4, 400 groups");
    // Seven columns: a step of whole vectors takes a multiple of 4 rows; here the whole matrix.
    p = plan_axis(cfg, d, 1000, 7);
    CHECK(p.rows_per_step == 1000);
    CHECK(p.chunks == 7);  // 1750 work-items
    CHECK(p.depth == (1 + 8) + (1 + 5));  // 147 lanes of a column (1024 / 7, ceil): 8 levels
    p = plan_axis(cfg, d, 1001, 7);
    CHECK(p.rows_per_step == 1004);  // rounded up to whole vectors; the kernel checks each element
    cfg.chunks = 1;
    p = plan_axis(cfg, d, 1000, 32);
    CHECK(p.passes.size() == 1);
    CHECK(p.passes[0].values_out == 32);
    cfg.chunks.reset();
    // A device of 64 work-items per group: fewer row-slices.
    DeviceInfo small = d;
    small.max_work_group_size = 64;
    cfg.chunks.reset();
    p = plan_axis(cfg, small, 100, 100);
    CHECK(p.tile_x * p.rows_y == 64);
  }

  TEST_CASE("axis planner: a device that ends long loops (llvmpipe) gets no launch that loops past it") {
    DeviceInfo d = fake_gpu();
    d.max_work_group_size = 32;  // llvmpipe's kernels
    d.max_work_item_sizes = {32, 32, 32};
    d.loop_trip_limit = 65535;
    AxisConfig cfg;
    cfg.axis = Axis::Cols;
    cfg.variant = "cols_item";  // one work-item per column: 3000000 trips each
    CHECK_THROWS_WITH_AS(plan_axis(cfg, d, 3000000, 3),
                         doctest::Contains("would loop about 3000000 times in a work-item of axis_cols_item"), ConfigError);
    cfg.variant = "rows_group";  // a group of 32 along one row of 3000000: 93750 trips
    cfg.axis = Axis::Rows;
    CHECK_THROWS_WITH_AS(plan_axis(cfg, d, 1, 3000000), doctest::Contains("ends a kernel's loops after 65535"),
                         ConfigError);
    // The rules' own launches: enough chunks (cols_fused: 3000000 rows in chunks of at most 57344).
    cfg.variant.clear();
    cfg.axis = Axis::Cols;
    const AxisPlan c = plan_axis(cfg, d, 3000000, 3);
    CHECK(c.chunks * 57344 >= 3000000);
    cfg.axis = Axis::Rows;
    CHECK_NOTHROW(plan_axis(cfg, d, 3, 3000000));
    // cols_stream_fused's finish: over 5 x 20011 at WG_SIZE 32 its last group's work-items would
    // each fold 626 columns' 626 partials (llvmpipe returned wrong columns from column 3304 on,
    // found by the op_results test): there the partial rows go to the second pass.
    cfg.variant = "cols_stream_fused";
    cfg.axis = Axis::Cols;
    cfg.wg = 32;
    AxisPlan s = plan_axis(cfg, d, 5, 20011);
    CHECK(s.chunks == 626);
    CHECK(s.passes.size() == 2);
    CHECK(s.passes[0].options.find("-D FUSED=0") != std::string::npos);
    CHECK(plan_axis(cfg, d, 5, 2001).passes.size() == 1);  // 63 x 63 trips: fused
    // Without a loop limit the same launches plan, and the stream stays fused.
    d.loop_trip_limit = 0;
    s = plan_axis(cfg, d, 5, 20011);
    CHECK(s.passes.size() == 1);
    CHECK(s.passes[0].options.find("-D FUSED=1") != std::string::npos);
    cfg.variant = "cols_item";
    cfg.wg.reset();
    CHECK_NOTHROW(plan_axis(cfg, d, 3000000, 3));
  }

  TEST_CASE("axis planner: every refusal names the parameter and the valid choices") {
    const DeviceInfo d = fake_gpu();
    AxisConfig cfg;
    const auto refuses = [&](const AxisConfig& c, std::uint64_t m, std::uint64_t n, Param param, const char* text) {
      try {
        plan_axis(c, d, m, n);
        FAIL("no refusal for " << text);
      } catch (const ConfigError& e) {
        CHECK(e.param() == param);
        CHECK_MESSAGE(std::string(e.what()).find(text) != std::string::npos, e.what());
      }
    };
    refuses(cfg, 0, 5, Param::Shape, "1..4294967295");
    cfg.variant = "cols_tile";
    refuses(cfg, 5, 5, Param::Variant, "valid for rows: rows_group, rows_sliced, rows_tile, rows_vector, rows_warp, rows_split, rows_split_fused");
    cfg.variant = "nope";
    refuses(cfg, 5, 5, Param::Variant,
            "valid axis variants: rows_group, rows_sliced, rows_tile, rows_vector, rows_warp, rows_split, rows_split_fused, "
            "cols_item, cols_tile, "
            "cols_fused, cols_stream, cols_stream_fused");
    cfg.variant = "rows_sliced";
    cfg.row_width = 3;
    refuses(cfg, 5, 5, Param::RowWidth, "power of two");
    cfg.row_width = 512;
    refuses(cfg, 5, 5, Param::RowWidth, "dividing the work-group size 256");
    cfg.row_width.reset();
    cfg.chunks = 2;
    refuses(cfg, 5, 5, Param::Chunks,
            "rows_split, rows_split_fused, cols_tile, cols_fused, cols_stream, cols_stream_fused, rows_descriptor, "
            "cols_descriptor do");
    cfg = AxisConfig{};
    cfg.axis = Axis::Cols;
    cfg.variant = "cols_tile";
    cfg.chunks = 6;
    refuses(cfg, 5, 5, Param::Chunks, "valid: 1..5");
    cfg.chunks.reset();
    cfg.wg = 64;
    refuses(cfg, 5, 5, Param::WorkGroupSize, "TILE_X x ROWS_Y");
    cfg = AxisConfig{};
    cfg.wg = 48;
    refuses(cfg, 5, 5, Param::WorkGroupSize, "power of two");
    cfg.wg.reset();
    cfg.type = ElemType::Double;
    refuses(cfg, 5, 5, Param::Type, "cl_khr_fp64");
    cfg.type = ElemType::Float;
    refuses(cfg, 1ULL << 20, 1ULL << 11, Param::Shape, "largest single allocation");
    // rows_vector's and cols_stream's VEC from a -D: 1, 2 or 4 within 16 bytes, dividing the row.
    cfg = AxisConfig{};
    cfg.variant = "rows_vector";
    cfg.defines = {{"VEC", "4"}};
    refuses(cfg, 5, 6, Param::Define, "does not divide the row of 6 elements");
    cfg.defines = {{"VEC", "3"}};
    refuses(cfg, 5, 6, Param::Define, "VEC of axis_rows_vector.cl must be one of 1, 2, 4");
    cfg.defines = {{"VEC", "4"}};
    cfg.type = ElemType::Double;
    DeviceInfo fp64 = d;
    fp64.fp64 = true;
    try {
      plan_axis(cfg, fp64, 5, 8);
      FAIL("VEC 4 of doubles accepted");
    } catch (const ConfigError& e) {
      CHECK(e.param() == Param::Define);
      CHECK_MESSAGE(std::string(e.what()).find("valid 1 or 2 (16 bytes at most)") != std::string::npos, e.what());
    }
    cfg = AxisConfig{};
    cfg.axis = Axis::Cols;
    cfg.variant = "cols_stream";
    cfg.chunks = (1u << 20) + 1;
    refuses(cfg, 5, 5, Param::Chunks, "valid: 1..1048576");
    cfg.chunks.reset();
    // A row too wide for a thin-matrix stream: a work-item per 4 elements of 4 rows over 2^20 groups.
    refuses(cfg, 1, (1u << 29) + 1, Param::Variant, "valid for these columns: cols_item, cols_tile, cols_fused");
    cfg.wg = 1024;
    cfg.op = Op::ArgMax;  // 1024 x 4 pairs of 16 bytes: 64 KiB of local memory
    refuses(cfg, 5, 5, Param::WorkGroupSize, "needs 65536 bytes of local memory");
    CHECK(parse_axis("Columns") == Axis::Cols);
    CHECK_THROWS_WITH_AS(parse_axis("diagonal"), "unknown axis 'diagonal'; valid: rows, cols", ConfigError);
  }

  TEST_CASE("every axis pass's option string is its kernel's declared parameters, each once and in order") {
    // The registry's tables drive this: a parameter the planner writes that the kernel's table
    // leaves out, or one written twice, fails here. Shapes that give every variant its second pass.
    DeviceInfo nv = fake_gpu();
    nv.is_nvidia = true;
    nv.lockstep_width = 32;
    for (const DeviceInfo& dev : {fake_gpu(), nv})
      for (const AxisVariant& v : axis_variants())
        for (Op op : {Op::Sum, Op::ArgMax}) {
          if (is_arg_op(op) && !v.arg_ops) continue;
          CAPTURE(dev.is_nvidia);
          CAPTURE(v.name);
          REQUIRE(v.spec.file == v.file);
          REQUIRE(v.spec.kernel == v.kernel);
          // The descriptor variants carry their family's own table (lines, columns).
          CHECK(v.spec.family == (v.runs_descriptor() ? (v.axis == Axis::Rows ? "lines" : "columns") : "axis"));
          AxisConfig c;
          c.axis = v.axis;
          c.variant = v.name;
          c.op = op;
          c.defines = {parse_define("MY_FLAG=3")};
          const AxisPlan p = v.axis == Axis::Rows ? plan_axis(c, dev, 64, 100000) : plan_axis(c, dev, 100000, 16);
          if (!v.second_pass.empty() && !v.fused) CHECK(p.passes.size() == 2);
          for (const AxisPassPlan& pass : p.passes) {
            const AxisVariant* k = nullptr;
            for (const AxisVariant& x : axis_variants())
              if (x.kernel == pass.kernel && (k == nullptr || x.name == v.name)) k = &x;
            REQUIRE(k != nullptr);
            CHECK(pass.geometry == k->geometry);
            check_declared_options(k->spec, pass.options, "-D MY_FLAG=3");
          }
        }
  }

  TEST_CASE("an axis caller's -D of a declared parameter is the plan's; others' and derived ones refused") {
    const DeviceInfo d = fake_gpu();
    const auto plan = [&](const char* variant, std::vector<Define> defines, std::uint64_t m, std::uint64_t n,
                          std::optional<std::size_t> wg = std::nullopt, std::optional<unsigned> row_width = std::nullopt) {
      AxisConfig c;
      c.variant = variant;
      c.axis = find_axis_variant(variant).axis;
      c.defines = std::move(defines);
      c.wg = wg;
      c.row_width = row_width;
      return plan_axis(c, d, m, n);
    };
    // -D WG_SIZE and -D ROW_WIDTH plan what wg and row_width do.
    const AxisPlan by_option = plan("rows_sliced", {}, 1000, 64, 64, 4);
    const AxisPlan by_define = plan("rows_sliced", {parse_define("WG_SIZE=64"), parse_define("ROW_WIDTH=4")}, 1000, 64);
    CHECK(by_define.wg == 64);
    CHECK(by_define.row_width == 4);
    CHECK(by_option.passes[0].options == by_define.passes[0].options);
    CHECK(by_option.passes[0].groups_x == by_define.passes[0].groups_x);
    CHECK(plan("rows_sliced", {parse_define("WG_SIZE=64")}, 1000, 64, 64).wg == 64);  // the same value twice is one
    CHECK_THROWS_WITH_AS(plan("rows_sliced", {parse_define("WG_SIZE=32")}, 1000, 64, 64), doctest::Contains("both set WG_SIZE"),
                         ConfigError);
    CHECK_THROWS_WITH_AS(plan("rows_sliced", {parse_define("WG_SIZE=64"), parse_define("WG_SIZE=128")}, 1000, 64),
                         doctest::Contains("-D WG_SIZE=128 and -D WG_SIZE=64 both set WG_SIZE"), ConfigError);
    CHECK_THROWS_WITH_AS(plan("rows_warp", {parse_define("ITEMS=4"), parse_define("ITEMS=2")}, 1000, 64),
                         doctest::Contains("-D ITEMS=4 and -D ITEMS=2 both set ITEMS of axis_rows_warp.cl"), ConfigError);
    CHECK_THROWS_WITH_AS(plan("rows_sliced", {parse_define("ROW_WIDTH=x")}, 1000, 64),
                         doctest::Contains("ROW_WIDTH must be a positive integer"), ConfigError);
    // ITEMS: the plan's, in every pass (rows_warp's rows per trip follow it; rows_split's second pass takes it too).
    const AxisPlan warp2 = plan("rows_warp", {parse_define("ITEMS=2")}, 128000, 32);
    const AxisPlan warp4 = plan("rows_warp", {}, 128000, 32);
    CHECK(warp2.passes[0].options.find("-D ITEMS=2") != std::string::npos);
    CHECK(warp2.passes[0].groups_x == 2 * warp4.passes[0].groups_x);
    const AxisPlan split = plan("rows_split", {parse_define("ITEMS=8")}, 4, 100000);
    REQUIRE(split.passes.size() == 2);
    for (const AxisPassPlan& pass : split.passes) CHECK(pass.options.find("-D ITEMS=8") != std::string::npos);
    // TILE_X x ROWS_Y chosen for the tile variants: taken as given, never shrunk; too big refused.
    const AxisPlan tile = plan("cols_tile", {parse_define("TILE_X=64"), parse_define("ROWS_Y=4")}, 100000, 100);
    CHECK(tile.tile_x == 64);
    CHECK(tile.rows_y == 4);
    CHECK(tile.passes[0].wg_x == 64);
    CHECK(tile.passes[0].options.find("-D TILE_X=64 -D ROWS_Y=4") != std::string::npos);
    CHECK_THROWS_WITH_AS(plan("cols_fused", {parse_define("TILE_X=1024"), parse_define("ROWS_Y=2")}, 1000, 100),
                         doctest::Contains("allows 1024 work-items"), ConfigError);
    // Refused, naming the parameter: a derived one, a value outside the valid ones, one only other
    // axis kernels take (naming those of this axis that do), WARP_FOLD without NVIDIA's shuffle.
    const std::vector<std::pair<std::pair<const char*, const char*>, const char*>> refused = {
        {{"rows_tile", "TILE_N=16"}, "is derived"},
        {{"rows_group", "TYPE_ID=1"}, "is derived"},
        {{"rows_group", "LOCKSTEP=0"}, "is derived"},
        {{"rows_warp", "WARP=16"}, "is derived"},
        {{"cols_stream", "FUSED=1"}, "is derived"},
        {{"rows_vector", "ITEMS=3"}, "must be one of 1, 2, 4, 8"},
        {{"rows_split", "VEC=2"}, "axis variant rows_split takes no VEC; for rows: rows_vector, rows_warp"},
        {{"rows_tile", "ITEMS=2"}, "axis variant rows_tile takes no ITEMS"},
        {{"cols_stream", "TILE_X=64"}, "takes no TILE_X; for cols: cols_tile, cols_fused"},
        {{"cols_stream", "WARP_FOLD=1"}, "needs NVIDIA's PTX shuffle"},
    };
    for (const auto& item : refused) {
      const auto& given = item.first;
      const std::string text = item.second;
      CAPTURE(given.first);
      CAPTURE(given.second);
      const Axis axis = find_axis_variant(given.first).axis;
      try {
        plan(given.first, {parse_define(given.second)}, axis == Axis::Rows ? 100 : 10000, axis == Axis::Rows ? 4096 : 16);
        FAIL("accepted");
      } catch (const ConfigError& e) {
        CHECK(e.param() == Param::Define);
        CHECK_MESSAGE(std::string(e.what()).find(text) != std::string::npos, e.what());
      }
    }
    // -D WARP_FOLD=0 on NVIDIA: the tree, and the depth is the tree's.
    DeviceInfo nv = d;
    nv.is_nvidia = true;
    AxisConfig s;
    s.axis = Axis::Cols;
    s.variant = "cols_stream";
    s.defines = {parse_define("WARP_FOLD=0")};
    CHECK(plan_axis(s, nv, 100000, 16).passes[0].options.find("-D WARP_FOLD=0") != std::string::npos);
  }
}

TEST_SUITE("cli") {
  TEST_CASE("reduce --axis: a verified run, and every contradiction refused in one line") {
    CliRun r = run_cli("reduce --axis cols --shape 300x7 --type float --op max --iterations 2");
    INFO(r.out);
    CHECK(r.code == 0);
    // On a GPU 2 row chunks (a work-item folds at least 16 rows): they meet in one launch, cols_fused;
    // on a CPU the descriptor's columns kernel (its CPU shape).
    const DeviceInfo& dev = session().device();
    const bool cpu = !dev.is_gpu && !dev.loop_trip_limit;
    CHECK(r.stdout_text.find(std::string(cpu ? "cols_descriptor" : "cols_fused") +
                             ": max of every column of a 300x7 float matrix") != std::string::npos);
    CHECK(r.stdout_text.find("check      ok: all 7 columns") != std::string::npos);
    r = run_cli("reduce --axis rows --shape 5x9 --variant rows_group --format json --iterations 1");
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("\"variant\": \"rows_group\"") != std::string::npos);
    const auto refused = [](const std::string& args, const std::string& text) {
      const CliRun e = run_cli(args);
      INFO(args << "\n" << e.out);
      CHECK(e.code == 2);
      CHECK(e.out.find(text) != std::string::npos);
    };
    refused("reduce --axis diagonal --shape 4x4", "unknown axis 'diagonal'; valid: rows, cols");
    refused("reduce --axis rows", "--axis needs --shape MxN");
    refused("reduce --axis rows --shape 4x4 --n 16", "--n is for whole-array reductions");
    refused("reduce --axis rows --shape 4x4 --vec 4", "--vec is for whole-array reductions");
    refused("reduce --shape 4x4", "--shape is for axis reductions: add --axis rows|cols");
    refused("reduce --n 100 --chunks 2", "--chunks is for axis reductions");
    refused("reduce --axis rows --shape 4x4 --variant vector", "unknown axis variant 'vector'");
    refused("reduce --axis rows --shape 4x4 --variant cols_item", "reduces cols, not rows");
    // -D of a parameter: the variant's own is planned as its option; another's, or a derived one, refused.
    refused("reduce --axis rows --shape 4x4 --variant rows_group -D ROW_WIDTH=4",
            "axis variant rows_group takes no ROW_WIDTH; rows_sliced, rows_warp, rows_descriptor do");
    refused("reduce --axis rows --shape 4x4 --variant rows_tile -D TILE_N=16",
            "-D TILE_N=16 would override TILE_N, which clreduce sets itself: the host sets it");
    refused("reduce --axis rows --shape 4x4 --variant rows_sliced --row-width 2 -D ROW_WIDTH=4",
            "error: -D ROW_WIDTH=4 and --row-width 2 both set ROW_WIDTH");
    r = run_cli("reduce --axis cols --shape 300x7 --variant cols_tile -D TILE_X=8 -D ROWS_Y=4 --iterations 1");
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("8x4") != std::string::npos);
    refused("reduce --axis cols --shape 4x4 --chunks 9", "valid: 1..4");
    refused("reduce --axis rows --shape 6x6 --variant rows_vector -D VEC=4",
            "clreduce: error: -D: VEC=4 for rows_vector does not divide the row of 6 elements");
    refused("reduce --axis cols --shape 6x6 --variant cols_stream --chunks 0", "cols_stream groups 0; valid: 1..1048576");
    refused("reduce --axis rows --shape 4x0", "");
  }

  TEST_CASE("bench axis: every launch of both axes at every shape, beside the read peak and the scalar reduction") {
    const CliRun j = run_cli("bench axis --shapes 17x33,64x8 --iterations 2 --warmup 1 --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.stdout_text);
    CHECK(doc["all_ok"] == true);
    REQUIRE(doc["shapes"].size() == 2);
    // Per shape: each axis's default launch, then every variant of that axis.
    const std::size_t points = 2 + axis_variants().size();
    for (const auto& shape : doc["shapes"]) {
      INFO(shape.dump());
      CHECK(shape["peak_read"]["gbps"].get<double>() > 0);
      CHECK(shape["scalar"]["status"].get<std::string>().rfind("ok", 0) == 0);
      CHECK(shape["scalar"]["n"] == shape["m"].get<std::uint64_t>() * shape["n"].get<std::uint64_t>());
      CHECK(shape["rows"].size() == points);
      int rows = 0, cols = 0;
      for (const auto& row : shape["rows"]) {
        INFO(row.dump());
        if (row["status"] == "refused") continue;  // a launch this device cannot take: kept, not failed
        CHECK(row["status"].get<std::string>().rfind("ok", 0) == 0);  // "ok", or "ok, timer?"
        CHECK(row["check"]["ok"] == true);
        CHECK(row["speedup_vs_scalar"].get<double>() > 0);
        CHECK(row["pct_of_peak"].get<double>() > 0);
        (row["axis"] == "rows" ? rows : cols) += 1;
      }
      CHECK(rows >= 1);
      CHECK(cols >= 1);
      CHECK(shape["rows"][0]["chosen_by"] == "default");
    }
    const CliRun c = run_cli("bench axis --shapes 64x8 --axis cols --variants cols_item --iterations 1 --format csv");
    REQUIRE_MESSAGE(c.code == 0, c.out);
    CHECK(c.stdout_text.rfind("m,n,axis,type,op,chosen_by,variant,launch,passes,min_us,median_us,max_us,"
                              "single_call_median_us,GB_per_s,peak_read_GB_per_s,pct_of_peak,scalar_variant,"
                              "scalar_median_us,speedup_vs_scalar,check",
                              0) == 0);
    CHECK(c.stdout_text.substr(0, c.stdout_text.find('\n')).size() >= 6);
    CHECK(c.stdout_text.substr(0, c.stdout_text.find('\n')).rfind(",round") ==
          c.stdout_text.find('\n') - 6);  // the kept round's number, last
    CHECK(std::count(c.stdout_text.begin(), c.stdout_text.end(), '\n') == 1 + 2);  // default, cols_item
    const auto refused = [](const std::string& args, const std::string& text) { expect_refused(args, text); };
    refused("bench axis --shapes 17x", "--shapes: shape '17x' is not ROWSxCOLUMNS");
    refused("bench axis --shapes 4x4 --axis cols --variants rows_group", "--variants: axis variant rows_group reduces rows, not cols");
    refused("bench axis --shapes 4x4 --variants bogus", "unknown axis variant 'bogus'");
    refused("bench axis --shapes 4x4 --rounds 0", "--rounds 0: valid: 1..100 rounds");
    refused("bench axis --shapes 4x4 --rounds 101", "valid: 1..100 rounds");
    refused("bench axis --shapes 4x4 --rounds -1", "valid: 1..100 rounds");
    refused("bench axis --shapes 4x4 --rounds 1.5", "valid: 1..100 rounds");
    refused("bench axis --shapes 4x4 --rounds abc", "valid: 1..100 rounds");
  }

  TEST_CASE("bench axis --rounds: every launch measured in each round, each keeping its fastest, and the output says so") {
    const CliRun j = run_cli("bench axis --shapes 64x8 --axis cols --variants cols_item,cols_tile --rounds 3 "
                             "--iterations 1 --warmup 0 --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.stdout_text);
    CHECK(doc["all_ok"] == true);
    CHECK(doc["rounds"] == 3);
    CHECK(doc["how"]["time"].get<std::string>().find("3 rounds in turn") != std::string::npos);
    REQUIRE(doc["shapes"].size() == 1);
    const auto& rows = doc["shapes"][0]["rows"];
    REQUIRE(rows.size() == 3);  // the default, cols_item, cols_tile: once each, not once a round
    for (const auto& row : rows) {
      INFO(row.dump());
      CHECK(row["check"]["ok"] == true);
      CHECK(row["round"].get<unsigned>() >= 1);
      CHECK(row["round"].get<unsigned>() <= 3);
    }
    const CliRun t = run_cli("bench axis --shapes 64x8 --axis cols --variants cols_item --rounds 2 --iterations 1 --warmup 0");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    CHECK(t.stdout_text.find("rounds:    each shape's launches of an axis measured in 2 rounds") != std::string::npos);
    const CliRun one = run_cli("bench axis --shapes 64x8 --axis cols --variants cols_item --iterations 1 --warmup 0 --format json");
    REQUIRE_MESSAGE(one.code == 0, one.out);
    const auto d1 = nlohmann::json::parse(one.stdout_text);
    CHECK(d1["rounds"] == 1);
    for (const auto& row : d1["shapes"][0]["rows"]) CHECK(row["round"] == 1);
    CHECK(one.stdout_text.find("rounds in turn") == std::string::npos);
  }
}
