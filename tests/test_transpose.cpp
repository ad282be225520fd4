// The transpose family against a host transpose on the device under test, element by element,
// each output buffer poisoned before the run; planning errors on a fake device; and the
// poisoning itself shown to catch an element a kernel never writes.
//
// The matrix: every transpose variant x {float, uint, double if cl_khr_fp64} x the shapes
// {1x1, 1xN, Mx1, 17x33, 31x65, 64x64, 1000x3, 2048x512} x three work-group shapes per variant
// (the default, a second power-of-two shape, and an odd one that divides nothing), split over
// shards (CLREDUCE_TEST_SHARD) by (variant, type, work-group shape).
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "support.hpp"
#include "benchmarks/transpose_bench.hpp"
#include "parse.hpp"
#include "transpose/plan.hpp"

#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

using namespace clreduce;
using namespace clreduce::test;

namespace {
const std::vector<std::pair<std::uint64_t, std::uint64_t>>& shapes_under_test() {
  static const std::vector<std::pair<std::uint64_t, std::uint64_t>> s{
      {1, 1}, {1, 77}, {77, 1}, {17, 33}, {31, 65}, {64, 64}, {1000, 3}, {20, 38}, {2048, 512}};
  return s;
}

// The work-items per group the variant's kernel allows here (Rusticl: 32).
std::size_t kernel_allows(const TransposeVariant& v, ElemType t) {
  TransposerOptions o;
  o.params.variant = v.name;
  return introspect::prepare(session().transposer(o), t, 64, 64)->kernel_max_wg;
}

// Three work-group shapes per variant: the default, another, and an odd one; the other two within
// what the kernel allows (256 and 21-36 work-items, or halved down to the kernel's limit). A
// variant with VEC two more: VEC 2, and VEC = TILE = 4. The shapes have rows on whole vectors
// (64x64, 2048x512), off them (17x33, 31x65) and on them for VEC 2 only (20x38).
std::vector<TransposeConfig> shapes_of(const TransposeVariant& v, ElemType t) {
  std::vector<TransposeConfig> out;
  TransposeConfig base;
  base.variant = v.name;
  base.type = t;
  out.push_back(base);
  const std::size_t limit = kernel_allows(v, t);
  TransposeConfig a = base, b = base;
  switch (v.shape) {
    case TransposeShape::Free:
      a.wg_x = 16, a.wg_y = 16;
      while (*a.wg_x * *a.wg_y > limit) a.wg_y = *a.wg_y / 2;
      b.wg_x = 7, b.wg_y = 3;
      break;
    case TransposeShape::Tile:
      a.tile = 8;
      if (64 > limit) a.tile = 4;
      b.tile = 5;
      break;
    case TransposeShape::TileRows:
      a.tile = 16, a.rows = 4;
      while (*a.tile * *a.rows > limit) a.rows = *a.rows / 2;
      b.tile = 12, b.rows = 3;
      if (36 > limit) b.rows = 2;
      break;
  }
  out.push_back(a);
  out.push_back(b);
  if (v.default_vec) {
    // VEC 2 on a 16-wide tile, and VEC = TILE: one work-item per tile row.
    a.vec = 2;
    out.push_back(a);
    TransposeConfig c = base;
    c.tile = 4, c.rows = 2, c.vec = 4;
    out.push_back(c);
  }
  return out;
}

std::string describe(const TransposeConfig& c, std::uint64_t m, std::uint64_t n) {
  std::string s = c.variant + " " + std::string(name_of(c.type)) + " " + shape_label(m, n);
  if (c.wg_x) s += " wg " + std::to_string(*c.wg_x) + "x" + std::to_string(*c.wg_y);
  if (c.tile) s += " tile " + std::to_string(*c.tile);
  if (c.rows) s += " rows " + std::to_string(*c.rows);
  if (c.vec) s += " vec " + std::to_string(*c.vec);
  return s + " seed " + std::to_string(seed());
}

template <class F>
void expect_plan_error(F&& f, const std::string& message) {
  try {
    f();
    FAIL("no error; expected: " << message);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(message) != std::string::npos);
  }
}
}  // namespace

TEST_SUITE("transpose") {
  TEST_CASE("matrix: every variant x type x shape x work-group shape matches the host transpose") {
    std::vector<ElemType> types{ElemType::Float, ElemType::Uint};
    if (session().device().fp64) types.push_back(ElemType::Double);
    std::size_t k = 0, runs = 0;
    for (const auto& v : transpose_variants())
      for (ElemType t : types)
        for (const TransposeConfig& cfg : shapes_of(v, t)) {
          if (!in_shard(k++)) continue;
          for (const auto& shape : shapes_under_test()) {
            const std::uint64_t m = shape.first, n = shape.second;
            // iota: every element distinct, so a misplaced element cannot match by accident.
            const DataKind kind = m * n > 1000 ? DataKind::Random : DataKind::Iota;
            const HostData data = generate_data(t, m * n, kind, seed());
            const TransposeReport r = run_transpose(session(), cfg, data, m, n, quick_timing(0, 1));
            CHECK_MESSAGE(r.ok(), describe(cfg, m, n) << ": " << r.check.detail);
            ++runs;
          }
        }
    MESSAGE(runs << " transposes checked");
  }

  TEST_CASE("the poisoned output catches an element the kernel never writes") {
    const auto dir = copy_kernels("transpose_poison");
    replace_in_file(dir / "transpose_naive.cl", "if (c < n) FOR_Y(r, m)",
                    "if (c < n) FOR_Y(r, m) if (r != 5 || c != 7)");
    const Session rt(session().device(), dir);
    TransposeConfig cfg;
    cfg.variant = "naive";
    cfg.type = ElemType::Uint;
    const HostData data = generate_data(cfg.type, 17 * 33, DataKind::Iota, 0);
    const TransposeReport r = run_transpose(rt, cfg, data, 17, 33, quick_timing(0, 1));
    CHECK_FALSE(r.ok());
    CHECK(r.check.mismatches == 1);
    CHECK(r.check.detail.find("output row 7, column 5") != std::string::npos);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("the host transpose and its check") {
    // 2x3 -> 3x2
    std::vector<unsigned char> in(6 * 4), expected(6 * 4);
    const std::uint32_t a[6] = {1, 2, 3, 4, 5, 6}, t[6] = {1, 4, 2, 5, 3, 6};
    std::memcpy(in.data(), a, sizeof a);
    std::memcpy(expected.data(), t, sizeof t);
    CHECK(host_transpose(in, 2, 3, 4) == expected);
    CHECK(check_transpose(expected, expected, 2, 3, ElemType::Uint).ok);
    auto wrong = expected;
    wrong[4] ^= 1;  // output element 1: row 0, column 1
    const TransposeCheck c = check_transpose(wrong, expected, 2, 3, ElemType::Uint);
    CHECK_FALSE(c.ok);
    CHECK(c.mismatches == 1);
    CHECK(c.detail.find("output row 0, column 1: expected 4, got 5") != std::string::npos);
  }

  TEST_CASE("shapes parse as ROWSxCOLUMNS with size suffixes") {
    CHECK(parse_shape("2048x512") == std::pair<std::uint64_t, std::uint64_t>{2048, 512});
    CHECK(parse_shape("2^13x8Ki") == std::pair<std::uint64_t, std::uint64_t>{8192, 8192});
    CHECK(parse_shape("1X1") == std::pair<std::uint64_t, std::uint64_t>{1, 1});
    CHECK_THROWS_WITH_AS(parse_shape("2048"), doctest::Contains("is not ROWSxCOLUMNS"), Error);
    CHECK_THROWS_WITH_AS(parse_shape("x5"), doctest::Contains("is not ROWSxCOLUMNS"), Error);
    CHECK_THROWS_WITH_AS(parse_shape("5x"), doctest::Contains("is not ROWSxCOLUMNS"), Error);
    CHECK_THROWS_WITH_AS(parse_shape("5xq"), doctest::Contains("invalid size 'q'"), Error);
  }

  TEST_CASE("bad configurations name the limit or the valid choices (fake device)") {
    const DeviceInfo dev = fake_device();  // WG 512, items {512, 256, 64}, 1 KiB local, 1 MiB alloc
    auto plan = [&](TransposeConfig c, std::uint64_t m = 64, std::uint64_t n = 64) {
      return [=] { plan_transpose(c, dev, m, n); };
    };
    TransposeConfig c;
    c.variant = "nope";
    expect_plan_error(plan(c), "unknown transpose variant 'nope'; valid transpose variants: naive, "
                               "naive_write_coalesced, local_tile");
    c.variant = "naive";
    c.wg_x = 64, c.wg_y = 16;
    expect_plan_error(plan(c), "work-group 64x16 = 1024 work-items is over the device maximum 512");
    c.wg_x = 1, c.wg_y = 300;
    expect_plan_error(plan(c), "300 along y is over the device's 256 (CL_DEVICE_MAX_WORK_ITEM_SIZES[1])");
    c.wg_x = 0;
    expect_plan_error(plan(c), "WG_X must be at least 1");
    c = TransposeConfig{};
    c.variant = "naive";
    c.tile = 8;
    expect_plan_error(plan(c), "transpose variant naive takes no TILE or ROWS");
    c = TransposeConfig{};
    c.variant = "local_tile";
    c.tile = 32;  // 32x32 = 1024 work-items, 4 KiB of local memory: local memory is named first
    expect_plan_error(plan(c), "CL_DEVICE_LOCAL_MEM_SIZE");
    c.tile = 16;  // 16x17 floats = 1088 bytes > 1024
    c.variant = "local_tile_padded";
    expect_plan_error(plan(c), "a 16x17 tile of float needs 1088 bytes of local memory, more than the 1024");
    c.variant = "local_tile";  // 16x16 floats = 1024 bytes: fits
    CHECK_NOTHROW(plan(c)());
    c.wg_x = 16;
    expect_plan_error(plan(c), "sets its work-group from the tile (TILE x TILE): set TILE, not WG_X/WG_Y");
    c = TransposeConfig{};
    c.variant = "local_tile";
    c.tile = 8;
    c.rows = 2;
    expect_plan_error(plan(c), "ROWS is for local_tile_multi");
    c.variant = "local_tile_multi";
    c.tile = 8;
    c.rows = 3;
    expect_plan_error(plan(c), "ROWS 3 does not divide TILE 8");
    c.type = ElemType::Double;
    c.rows = 2;
    expect_plan_error(plan(c), "type double needs the cl_khr_fp64 extension");
    c.type = ElemType::Float;
    expect_plan_error(plan(c, 0, 5), "rows and columns must each be in 1..4294967295");
    expect_plan_error(plan(c, 1ULL << 32, 1), "rows and columns must each be in 1..4294967295");
    expect_plan_error(plan(c, 1024, 1024), "over the largest single allocation");
    CHECK_NOTHROW(plan(c, 512, 512)());
    c.vec = 2;
    expect_plan_error(plan(c), "transpose variant local_tile_multi takes no VEC (one element per access); variants that "
                               "do: local_tile_vector");
    c.variant = "local_tile_vector";
    c.tile = 8, c.rows = 2, c.vec = 3;
    expect_plan_error(plan(c), "VEC 3 for local_tile_vector; valid: 1, 2, 4");
    c.tile = 6, c.vec = 4;
    expect_plan_error(plan(c), "VEC 4 does not divide TILE 6");
  }

  TEST_CASE("local_tile_vector: the group is TILE / VEC wide, ALIGNED follows M and N, a default tile fits") {
    DeviceInfo dev = fake_device();  // 1 KiB of local memory
    TransposeConfig c;
    c.variant = "local_tile_vector";
    c.type = ElemType::Float;
    c.tile = 8, c.rows = 4, c.vec = 4;
    TransposePlan p = plan_transpose(c, dev, 64, 64);
    CHECK(p.wg_x == 2);
    CHECK(p.wg_y == 4);
    CHECK(p.groups_x == 8);  // tiles along N, as local_tile_multi
    CHECK(p.aligned);
    CHECK(p.options.find("-D VEC=4 -D ALIGNED=1") != std::string::npos);
    CHECK_FALSE(plan_transpose(c, dev, 64, 66).aligned);  // 66 columns: rows start off whole vectors
    CHECK_FALSE(plan_transpose(c, dev, 62, 64).aligned);  // the output's rows are 62 long
    c.vec = 2;
    CHECK(plan_transpose(c, dev, 62, 66).aligned);
    // The default 64 x 65 tile does not fit 1 KiB: halved to 8 (8 x 9 floats, 288 bytes) while
    // VEC divides it, the default ROWS 16 following it to 8; a TILE the caller gives is refused.
    c.tile.reset();
    c.rows.reset();
    c.vec.reset();
    p = plan_transpose(c, dev, 64, 64);
    CHECK(p.tile == 8);
    CHECK(p.rows == 8);
    CHECK(p.vec == 4);
    CHECK(p.local_bytes <= dev.local_mem_bytes);
    c.tile = 64;
    CHECK_THROWS_WITH_AS(plan_transpose(c, dev, 64, 64), doctest::Contains("use a smaller TILE"), ConfigError);
    dev.local_mem_bytes = 48 * 1024;
    c.tile.reset();
    c.type = ElemType::Double;
    dev.fp64 = true;
    // Doubles: the same 16 bytes per access (VEC 2) and half the edge (32 x 33 doubles, 8448 bytes).
    p = plan_transpose(c, dev, 64, 64);
    CHECK(p.tile == 32);
    CHECK(p.vec == 2);
    CHECK(p.rows == 16);
    CHECK(p.wg_x == 16);
    CHECK(p.band == 16);  // doubles take the tiles in bands of 16 tile columns
    CHECK(p.options.find("-D BAND=16") != std::string::npos);
    c.type = ElemType::Float;
    p = plan_transpose(c, dev, 64, 64);
    CHECK(p.tile == 64);
    CHECK(p.vec == 4);
    CHECK(p.rows == 16);
    CHECK(p.band == 0);  // floats in launch order
    c.defines = {Define{"BAND", "8"}};
    CHECK(plan_transpose(c, dev, 64, 64).band == 8);
    c.defines = {Define{"BAND", "3"}};
    CHECK_THROWS_WITH_AS(plan_transpose(c, dev, 64, 64), doctest::Contains("0, 1, 2, 4, 8, 16, 32, 64"), ConfigError);
    c.defines.clear();
    dev.local_mem_bytes = 16 * 1024;  // 64 x 65 floats are 16640 bytes
    CHECK(plan_transpose(c, dev, 64, 64).tile == 32);
  }

  TEST_CASE("the variants' parameters as data: each a macro of its kernel, each in the option string once, a caller's -D taken") {
    DeviceInfo dev = fake_device();
    dev.local_mem_bytes = 48 * 1024;  // every default tile fits
    dev.max_work_group_size = 1024;
    dev.max_work_item_sizes = {1024, 1024, 64};
    const std::string all_kernels = source_kernels_text();
    for (const TransposeVariant& v : transpose_variants()) {
      const KernelSpec& k = transpose_kernel_spec(v);
      CHECK(k.file == v.file);
      CHECK(k.kernel == v.kernel);
      TransposeConfig c;
      c.variant = v.name;
      c.type = ElemType::Float;
      const TransposePlan p = plan_transpose(c, dev, 37, 45);
      for (const KernelParam& param : k.params) {
        INFO(v.name << ": " << param.define << " in " << p.options);
        CHECK(all_kernels.find("#ifndef " + param.define + "\n") != std::string::npos);
        std::size_t count = 0;
        for (std::size_t at = p.options.find("-D " + param.define + "="); at != std::string::npos;
             at = p.options.find("-D " + param.define + "=", at + 1))
          ++count;
        CHECK(count == 1);
      }
    }
    // The CLI refuses a -D of each declared parameter, naming the option the table gives for it
    // (every parameter a caller may set has one; TYPE_ID, derived, follows --type), or, for one
    // the host derives from the data alone (ALIGNED), saying so.
    std::map<std::string, std::string> options;
    for (const TransposeVariant& v : transpose_variants())
      for (const KernelParam& param : transpose_kernel_spec(v).params) {
        CHECK_MESSAGE((!param.caller_may_set || !param.option.empty()), param.define << " names no option");
        options[param.define] = param.option;
      }
    CHECK(options.count("ALIGNED") == 1);
    for (const auto& [define, option] : options) {
      const test::CliRun r = test::run_cli("transpose --variant naive --type float --shape 4x4 -D " + define + "=1");
      INFO(r.out);
      CHECK(r.code == 2);
      CHECK(r.out.find("would override " + define + ", which clreduce sets itself: " +
                       (option.empty() ? std::string("the host sets it") : "use " + option)) != std::string::npos);
    }
    // A library caller's -D of a declared parameter is the plan's; with the option too, one value.
    TransposeConfig c;
    c.variant = "local_tile_multi";
    c.type = ElemType::Float;
    c.defines = {Define{"ROWS", "4"}};
    TransposePlan p = plan_transpose(c, dev, 64, 64);
    CHECK(p.rows == 4);
    CHECK(p.wg_y == 4);
    c.rows = 8;
    CHECK_THROWS_WITH_AS(plan_transpose(c, dev, 64, 64), doctest::Contains("to different values"), ConfigError);
    c.rows = 4;
    CHECK(plan_transpose(c, dev, 64, 64).rows == 4);
    c.defines = {Define{"TYPE_ID", "1"}};
    CHECK_THROWS_WITH_AS(plan_transpose(c, dev, 64, 64), doctest::Contains("is derived"), ConfigError);
    c.defines = {Define{"TILE", "4294967312"}};  // 2^32 + 16: refused, not cut to 16
    c.rows.reset();
    CHECK_THROWS_WITH_AS(plan_transpose(c, dev, 64, 64), doctest::Contains("over any work-group"), ConfigError);
  }

  TEST_CASE("a tile the caller gives over the built kernel's limit is refused naming TILE") {
    // 16 x 16 work-items for local_tile_vector's TILE 64; where the built kernel allows fewer
    // (llvmpipe: 32) the refusal names --tile, the option that set the group, not --wg.
    TransposerOptions o;
    o.params.variant = "local_tile_vector";
    o.params.tile = 64;
    o.params.rows = 16;
    const std::size_t allows = kernel_allows(find_transpose_variant("local_tile_vector"), ElemType::Float);
    MESSAGE("the kernel allows " << allows << " work-items here");
    Transposer t = session().transposer(o);
    if (allows >= 256) {
      CHECK_NOTHROW(introspect::prepare(t, ElemType::Float, 64, 64));
    } else {
      try {
        introspect::prepare(t, ElemType::Float, 64, 64);
        FAIL("not refused");
      } catch (const LimitError& e) {
        CHECK(e.param() == Param::Tile);
        CHECK(std::string(e.what()).find("work-group 16x16") != std::string::npos);
      }
    }
  }

  TEST_CASE("launch shapes cover the matrix; y is capped and looped over") {
    const DeviceInfo dev = fake_device();
    TransposeConfig c;
    c.variant = "register_tile4";
    c.type = ElemType::Uint;
    TransposePlan p = plan_transpose(c, dev, 31, 65);
    CHECK(p.groups_x * p.wg_x * 4 >= 65);
    CHECK(p.groups_y * p.wg_y * 4 >= 31);
    c.variant = "naive_write_coalesced";
    p = plan_transpose(c, dev, 100, 3);
    CHECK(p.groups_x * p.wg_x >= 100);  // x walks the input rows
    CHECK(p.groups_y * p.wg_y >= 3);
    c.variant = "local_tile_multi";
    c.tile = 2;
    c.rows = 1;
    p = plan_transpose(c, dev, 1ULL << 18, 1);  // 2^17 tiles along y
    CHECK(p.groups_y == kMaxGroupsY);
    CHECK(p.options.find("-D TILE=2 -D ROWS=1") != std::string::npos);
  }

  TEST_CASE("a matrix taller than the capped y range is still transposed whole") {
    // 1x1 work-groups of the naive kernel: the 131072 rows need two trips of the y range.
    TransposeConfig cfg;
    cfg.variant = "naive";
    cfg.type = ElemType::Uint;
    cfg.wg_x = 1;
    cfg.wg_y = 1;
    const std::uint64_t m = 131072, n = 3;
    const HostData data = generate_data(cfg.type, m * n, DataKind::Iota, 0);
    const TransposeReport r = run_transpose(session(), cfg, data, m, n, quick_timing(0, 1));
    CHECK(r.plan.groups_y == kMaxGroupsY);
    CHECK_MESSAGE(r.ok(), r.check.detail);
  }

  TEST_CASE("local_tile_vector in bands (BAND): every tile moved once, partial bands, bands wider than the grid, y looped") {
    // BAND remaps the launched grid onto itself: the last band narrower than BAND, a band wider
    // than all the tile columns, and (tiles of 2 rows) a y range capped at 65535 groups and looped.
    struct Case {
      ElemType type;
      unsigned tile, rows, vec, band;
      std::uint64_t m, n;
    };
    std::vector<Case> cases;
    for (const ElemType t : {ElemType::Float, ElemType::Double})
      for (const unsigned band : {1u, 2u, 4u, 16u})
        for (const auto& mn : {std::pair<std::uint64_t, std::uint64_t>{131, 77}, {64, 1000}, {1000, 64}, {5, 5}})
          cases.push_back({t, 8, 4, 2, band, mn.first, mn.second});
    cases.push_back({ElemType::Uint, 2, 1, 1, 4, 131077, 7});  // 65539 tile rows: y loops
    for (const Case& k : cases) {
      if (k.type == ElemType::Double && !session().device().fp64) continue;
      TransposeConfig cfg;
      cfg.variant = "local_tile_vector";
      cfg.type = k.type;
      cfg.tile = k.tile, cfg.rows = k.rows, cfg.vec = k.vec;
      cfg.defines = {Define{"BAND", std::to_string(k.band)}};
      const HostData data = generate_data(cfg.type, k.m * k.n, DataKind::Iota, 0);
      const TransposeReport r = run_transpose(session(), cfg, data, k.m, k.n, quick_timing(0, 1));
      CAPTURE(k.m);
      CAPTURE(k.n);
      CAPTURE(k.band);
      CHECK(r.plan.band == k.band);
      CHECK_MESSAGE(r.ok(), r.check.detail);
    }
  }

  TEST_CASE("a tile over the real device's work-group maximum is refused with the limit") {
    const DeviceInfo& dev = session().device();
    unsigned tile = 1;
    while (std::uint64_t{tile} * tile <= dev.max_work_group_size) tile *= 2;
    TransposeConfig cfg;
    cfg.variant = "local_tile";
    cfg.tile = tile;
    TransposerOptions opt;
    opt.params = cfg;
    CHECK_THROWS_WITH_AS(introspect::prepare(session().transposer(opt), cfg.type, 64, 64),
                         doctest::Contains("(CL_DEVICE_MAX_WORK_GROUP_SIZE)"), Error);
  }
}
