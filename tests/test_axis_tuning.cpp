// Axis tuning per shape class: the classification at its boundaries, the tuning database's axis
// entries (round trip, every refusal with its JSON path, merge-save), the planner's lookup hook
// (a tuned launch for a shape of its class and not another, the caller's options first), the
// AxisReducer using a database on the device under test (foreign device and stale driver warned
// and ignored), and `tune axis` end to end with a following `reduce --axis`.
#include <doctest/doctest.h>

#include "axis/plan.hpp"
#include "benchmarks/axis_run.hpp"
#include "benchmarks/axis_tune.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/tuning.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace clreduce;
using namespace clreduce::test;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path dir;
  explicit TempDir(const std::string& tag)
      : dir(fs::temp_directory_path() / ("clreduce_axis_tuning_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

DeviceInfo gpu100() {
  DeviceInfo d;
  d.name = "Fake GPU";
  d.is_gpu = true;  // the GPU rules (a CPU gets the descriptor variants)
  d.platform_name = "Fake";
  d.driver_version = "1";
  d.compute_units = 100;
  d.max_work_group_size = 1024;
  d.max_work_item_sizes = {1024, 1024, 64};
  d.max_alloc_bytes = 1ULL << 32;
  d.global_mem_bytes = 1ULL << 34;
  d.local_mem_bytes = 48 * 1024;
  return d;
}

TunedAxisEntry entry_of(ElemType t, Op op, Axis axis, const std::string& cls, const std::string& variant,
                        std::optional<std::size_t> wg = std::nullopt, std::optional<unsigned> rw = std::nullopt,
                        std::optional<unsigned> gpc = std::nullopt) {
  TunedAxisEntry e;
  e.type = t;
  e.op = op;
  e.axis = axis;
  e.shape_class = cls;
  e.date = "2026-11-25T16:00:00Z";
  e.variant = variant;
  e.wg = wg;
  e.row_width = rw;
  e.groups_per_cu = gpc;
  return e;
}

// A whole file around axis entries of one device.
std::string db_with_axis_entries(const std::string& entries) {
  return R"({"format": "clreduce-tuning-db", "version": 1, "devices": [{"platform": "P", "device": "D", "driver": "1", "entries": [], "axis_entries": [)" +
         entries + "]}]}";
}
std::string axis_entry(const std::string& extra, const std::string& variant = "rows_sliced",
                       const std::string& cls = "rows.short.many") {
  return R"({"type": "float", "op": "sum", "axis": "rows", "class": ")" + cls + R"(", "variant": ")" + variant + "\"" +
         extra + "}";
}

// A measured point of a synthetic tune run: median `us`, interquartile range q1..q3, verified or not.
AxisTunePoint point(std::optional<AxisCandidate> c, double us, double q1, double q3, bool ok = true) {
  AxisTunePoint p;
  p.candidate = std::move(c);
  AxisReport r;
  r.timing.whole_us.median = us;
  r.timing.whole_us.q1 = q1;
  r.timing.whole_us.q3 = q3;
  r.gbps = 1000 / us;
  r.check.ok = ok;
  p.report = r;
  return p;
}

std::shared_ptr<LoadedTuningDb> loaded(const TuningDb& db) {
  auto l = std::make_shared<LoadedTuningDb>();
  l->path = "/in/memory/tuning.json";
  l->db = db;
  return l;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("shape classes: every boundary, by bytes and by compute units") {
    const auto rows = [](std::uint64_t m, std::uint64_t n, std::size_t e = 4, unsigned cu = 100) {
      return shape_class_of(Axis::Rows, m, n, e, cu);
    };
    const auto cols = [](std::uint64_t m, std::uint64_t n, std::size_t e = 4, unsigned cu = 100) {
      return shape_class_of(Axis::Cols, m, n, e, cu);
    };
    CHECK(rows(400, 64) == "rows.narrow.many");   // 256 bytes: narrow
    CHECK(rows(400, 65) == "rows.short.many");    // 260 bytes
    CHECK(rows(400, 1024) == "rows.short.many");  // 4096 bytes: short
    CHECK(rows(400, 1025) == "rows.long.many");
    CHECK(rows(399, 1025) == "rows.long.few");    // under 4 rows per compute unit
    CHECK(rows(399, 1) == "rows.narrow.few");
    CHECK(rows(400, 32, 8) == "rows.narrow.many");  // doubles: 256 bytes
    CHECK(rows(400, 33, 8) == "rows.short.many");
    CHECK(rows(400, 513, 8) == "rows.long.many");
    CHECK(rows(3, 10, 4, 0) == "rows.narrow.few");   // 0 compute units count as 1
    CHECK(rows(4, 10, 4, 0) == "rows.narrow.many");
    CHECK(cols(1000, 64) == "cols.thin");
    CHECK(cols(1000, 65) == "cols.square");
    CHECK(cols(1, 204799) == "cols.square");
    CHECK(cols(1, 204800) == "cols.wide");  // 2048 per compute unit
    CHECK(cols(1, 2048, 4, 0) == "cols.wide");
    CHECK(cols(1, 32, 8) == "cols.thin");
    CHECK(cols(1, 33, 8) == "cols.square");
    CHECK(rows(1, UINT64_MAX, 8) == "rows.long.few");  // no overflow
    // Every id is listed, with its axis.
    for (const auto& c : axis_shape_classes()) {
      CHECK(is_axis_shape_class(c.axis, c.id));
      CHECK(!is_axis_shape_class(c.axis == Axis::Rows ? Axis::Cols : Axis::Rows, c.id));
    }
    CHECK(axis_shape_class_names(Axis::Cols) == "cols.thin, cols.square, cols.wide");
  }

  TEST_CASE("axis_chunks_for at 8 groups per compute unit is the planner's own choice") {
    const DeviceInfo d = gpu100();
    const AxisVariant& split = find_axis_variant("rows_split");
    const AxisVariant& tile = find_axis_variant("cols_tile");
    AxisConfig rows;
    rows.axis = Axis::Rows;
    AxisConfig cols;
    cols.axis = Axis::Cols;
    rows.variant = "rows_split";
    CHECK(axis_chunks_for(split, d, ElemType::Float, Op::Sum, 32, 1048576, 256, 8) == plan_axis(rows, d, 32, 1048576).chunks);
    CHECK(axis_chunks_for(split, d, ElemType::Float, Op::Sum, 32, 1048576, 256, 8) == 256);  // parts of 16 KiB at least
    CHECK(axis_chunks_for(split, d, ElemType::Float, Op::ArgMin, 32, 1048576, 256, 8) == 16);   // 25 rounded down to a power of two
    CHECK(axis_chunks_for(split, d, ElemType::Float, Op::ArgMin, 32, 1048576, 256, 16) == 32);  // 50 rounded down
    rows.variant.clear();
    CHECK(axis_chunks_for(find_axis_variant("rows_split_fused"), d, ElemType::Float, Op::Sum, 32, 1048576, 256, 8) ==
          plan_axis(rows, d, 32, 1048576).chunks);  // the default there: parts of 32 KiB in one launch
    CHECK(axis_chunks_for(tile, d, ElemType::Float, Op::Sum, 4096, 4096, 0, 8) == plan_axis(cols, d, 4096, 4096).chunks);
    CHECK(axis_chunks_for(tile, d, ElemType::Float, Op::Sum, 4096, 4096, 0, 16) == 8);  // 13 rounded down to a power of two
    CHECK(axis_chunks_for(tile, d, ElemType::Float, Op::Sum, 1048576, 64, 0, 8) == plan_axis(cols, d, 1048576, 64).chunks);
    CHECK_THROWS_AS(axis_chunks_for(find_axis_variant("rows_group"), d, ElemType::Float, Op::Sum, 4, 4, 64, 8), ConfigError);
  }

  TEST_CASE("tuned_axis_config: the entry's launch for its shape, the caller's options first") {
    const DeviceInfo d = gpu100();
    const TunedAxisEntry e =
        entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.narrow.many", "rows_sliced", 128, 2);
    AxisConfig cfg;
    cfg.axis = Axis::Rows;
    std::vector<std::string> filled;
    auto t = tuned_axis_config(cfg, e, d, 1048576, 32, filled);
    REQUIRE(t);
    CHECK(filled == std::vector<std::string>{"variant=rows_sliced", "wg=128", "row_width=2"});
    AxisPlan p = plan_axis(*t, d, 1048576, 32);
    CHECK(p.variant->name == "rows_sliced");
    CHECK(p.wg == 128);
    CHECK(p.row_width == 2);
    // The caller's wg wins; the entry fills the rest.
    AxisConfig given = cfg;
    given.wg = 64;
    t = tuned_axis_config(given, e, d, 1048576, 32, filled);
    REQUIRE(t);
    CHECK(filled == std::vector<std::string>{"variant=rows_sliced", "row_width=2"});
    CHECK(plan_axis(*t, d, 1048576, 32).wg == 64);
    // Another variant named, or a parameter the entry's variant does not take: the caller's launch.
    given = cfg;
    given.variant = "rows_group";
    CHECK(!tuned_axis_config(given, e, d, 1048576, 32, filled));
    given = cfg;
    given.chunks = 2;
    CHECK(!tuned_axis_config(given, e, d, 1048576, 32, filled));
    given = cfg;
    given.axis = Axis::Cols;
    CHECK(!tuned_axis_config(given, e, d, 1048576, 32, filled));
    // groups_per_cu becomes this shape's chunks.
    const TunedAxisEntry tile = entry_of(ElemType::Float, Op::Sum, Axis::Cols, "cols.square", "cols_tile", {}, {}, 16);
    AxisConfig c;
    c.axis = Axis::Cols;
    t = tuned_axis_config(c, tile, d, 4096, 4096, filled);
    REQUIRE(t);
    CHECK(t->chunks == 8u);
    CHECK(filled == std::vector<std::string>{"variant=cols_tile", "chunks=8 (16 groups per CU)"});
    CHECK(plan_axis(*t, d, 4096, 4096).chunks == 8);
    // cols_stream's groups per compute unit are its groups, whatever the shape.
    const TunedAxisEntry stream = entry_of(ElemType::Float, Op::Sum, Axis::Cols, "cols.thin", "cols_stream", 128, {}, 2);
    t = tuned_axis_config(c, stream, d, 1048576, 32, filled);
    REQUIRE(t);
    CHECK(t->chunks == 2u * d.compute_units);
    CHECK(filled == std::vector<std::string>{"variant=cols_stream", "wg=128",
                                             "chunks=" + std::to_string(2 * d.compute_units) + " (2 groups per CU)"});
    const AxisPlan sp = plan_axis(*t, d, 1048576, 32);
    CHECK(sp.chunks == 2u * d.compute_units);
    CHECK(sp.wg == 128);
  }

  TEST_CASE("choose_axis_tuning: the best verified candidate, kept only above the noise; ties to the first measured") {
    AxisTuneDesign d;  // min gain 3%
    AxisTuneRun run;
    AxisTuneShape s;
    s.axis = Axis::Rows;
    s.m = 100;
    s.n = 100;
    s.shape_class = "rows.short.few";
    s.points.push_back(point(std::nullopt, 100, 99, 101));
    s.points.push_back(point(AxisCandidate{"rows_group", 64, {}, {}}, 80, 79, 81));
    s.points.push_back(point(AxisCandidate{"rows_split", 64, {}, 2}, 70, 69, 71));
    AxisTunePoint same;  // launches as gpc 2 here: not measured again
    same.candidate = AxisCandidate{"rows_split", 64, {}, 16};
    same.same_as = "rows_split wg 64 gpc 2";
    s.points.push_back(same);
    s.points.push_back(point(AxisCandidate{"rows_sliced", 64, 4, {}}, 10, 9, 11, /*ok=*/false));  // failed its check
    run.shapes.push_back(s);
    choose_axis_tuning(run, d, "2026-11-25T16:00:00Z");
    REQUIRE(run.classes.size() == 1);
    const AxisTuneClass& c = run.classes[0];
    CHECK(c.best == "rows_split wg 64 gpc 2");
    CHECK(c.gain == doctest::Approx(100.0 / 70));
    CHECK(c.noise == doctest::Approx(0.02));  // (2 + 2) / 2 / 100
    REQUIRE(c.entry);
    CHECK(c.entry->variant == "rows_split");
    CHECK(c.entry->groups_per_cu == 2u);
    CHECK(c.entry->wg == std::optional<std::size_t>(64));
    CHECK(c.entry->shape_class == "rows.short.few");
    CHECK(c.entry->date == "2026-11-25T16:00:00Z");
    REQUIRE(c.entry->measurements.size() == 1);
    CHECK(c.entry->measurements[0].tuned_us == 70);
    CHECK(c.entry->measurements[0].default_us == 100);
    // Noisier samples: noise (80 + 2) / 2 / 100 = 0.41, and 1.429x still clears 1.41x ...
    run.shapes[0].points[0] = point(std::nullopt, 100, 60, 140);
    choose_axis_tuning(run, d, "");
    CHECK(run.classes[0].entry);
    CHECK(run.classes[0].noise == doctest::Approx(0.41));
    // ... but not 1 + (120 + 2) / 2 / 100 = 1.61x.
    run.shapes[0].points[0] = point(std::nullopt, 100, 40, 160);  // noise (120 + 2) / 2 / 100 = 0.61
    choose_axis_tuning(run, d, "");
    CHECK(!run.classes[0].entry);
    CHECK(run.classes[0].note ==
          "the default rule is kept: the best, rows_split wg 64 gpc 2, gains 1.429x, not more than 1.610x (min gain "
          "3.0%, noise 61.0%)");
    // A default that failed its check: nothing is tuned for the class.
    run.shapes[0].points[0] = point(std::nullopt, 100, 99, 101, /*ok=*/false);
    choose_axis_tuning(run, d, "");
    CHECK(!run.classes[0].entry);
    CHECK(run.classes[0].note.find("the default launch did not run and verify") == 0);
  }

  TEST_CASE("tuning database: axis entries round-trip; a file without them is unchanged") {
    TuningDb db;
    DeviceTuning dev{{"P", "D", "1"}, {}, {}};
    TunedAxisEntry a = entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many", "rows_sliced", 128, 8);
    a.measurements = {{65536, 512, 80.25, 95.5, 1675.123456789}};
    a.gain_over_default = 1.19;
    dev.axis_entries.push_back(a);
    dev.axis_entries.push_back(entry_of(ElemType::Uint, Op::ArgMax, Axis::Cols, "cols.thin", "cols_tile", {}, {}, 16));
    dev.axis_entries.push_back(entry_of(ElemType::Double, Op::Min, Axis::Rows, "rows.long.few", "rows_split", 512, {}, 4));
    db.devices.push_back(dev);
    const std::string text = tuning_db_json(db);
    CHECK(text.find("\n  \"version\": 1,") != std::string::npos);
    const TuningDb back = parse_tuning_db(text);
    REQUIRE(back.devices.size() == 1);
    REQUIRE(back.devices[0].axis_entries.size() == 3);
    const TunedAxisEntry& r = back.devices[0].axis_entries[0];
    CHECK(r.type == ElemType::Float);
    CHECK(r.op == Op::Sum);
    CHECK(r.axis == Axis::Rows);
    CHECK(r.shape_class == "rows.short.many");
    CHECK(r.date == "2026-11-25T16:00:00Z");
    CHECK(r.variant == "rows_sliced");
    CHECK(r.wg == std::optional<std::size_t>(128));
    CHECK(r.row_width == 8u);
    CHECK(!r.groups_per_cu);
    REQUIRE(r.measurements.size() == 1);
    CHECK(r.measurements[0].m == 65536);
    CHECK(r.measurements[0].n == 512);
    CHECK(r.measurements[0].gbps == 1675.123456789);
    CHECK(r.gain_over_default == 1.19);
    CHECK(r.launch_label() == "rows_sliced, wg 128, row width 8");
    CHECK(back.devices[0].axis_entries[1].op == Op::ArgMax);
    CHECK(back.devices[0].axis_entries[1].launch_label() == "cols_tile, 16 groups per CU");
    CHECK(tuning_db_json(back) == text);
    // Without axis entries the key is not written at all.
    TuningDb plain;
    plain.devices.push_back({{"P", "D", "1"}, {}, {}});
    CHECK(tuning_db_json(plain).find("axis_entries") == std::string::npos);
    // A hand-written entry needs only its key and variant.
    const TuningDb hand = parse_tuning_db(db_with_axis_entries(axis_entry("")));
    CHECK(!hand.devices[0].axis_entries[0].wg);
  }

  TEST_CASE("tuning database: every malformed axis entry is refused with its JSON path") {
    const std::string at = "devices[0].axis_entries[0]";
    struct Case {
      std::string text, message;
    };
    const std::vector<Case> cases{
        {db_with_axis_entries(axis_entry(R"(, "colour": 1)")),
         at + ".colour: unknown field; valid fields: type, op, axis, class, date, variant, wg, row_width, "
              "groups_per_cu, measurements, gain_over_default"},
        {db_with_axis_entries(R"({"type": "float", "op": "sum", "class": "rows.short.many", "variant": "rows_group"})"),
         at + ": missing field \"axis\""},
        {db_with_axis_entries(R"({"type": "float", "op": "sum", "axis": "rows", "variant": "rows_group"})"),
         at + ": missing field \"class\""},
        {db_with_axis_entries(R"({"type": "float", "op": "sum", "axis": "rows", "class": "rows.short.many"})"),
         at + ": missing field \"variant\""},
        {db_with_axis_entries(R"({"type": "half", "op": "sum", "axis": "rows", "class": "rows.short.many", "variant": "rows_group"})"),
         at + ".type: unknown type 'half'"},
        {db_with_axis_entries(R"({"type": "float", "op": "sum", "axis": "row", "class": "rows.short.many", "variant": "rows_group"})"),
         at + ".axis: expected \"rows\" or \"cols\", got the string \"row\""},
        {db_with_axis_entries(axis_entry("", "rows_group", "cols.thin")),
         at + ".class: unknown shape class 'cols.thin' for rows; valid: rows.narrow.few, rows.narrow.many, "
              "rows.short.few, rows.short.many, rows.long.few, rows.long.many"},
        {db_with_axis_entries(axis_entry("", "cols_item")),
         at + ".variant: unknown axis variant 'cols_item' for rows; valid: rows_group, rows_sliced, rows_tile, rows_vector, rows_warp, "
              "rows_split"},
        {db_with_axis_entries(R"({"type": "float", "op": "argmax", "axis": "cols", "class": "cols.thin", "variant": "cols_stream_fused"})"),
         at + ".variant: axis variant cols_stream_fused does not take argmax; valid: cols_item, cols_tile, cols_fused, "
              "cols_stream"},
        {db_with_axis_entries(axis_entry(R"(, "row_width": 64)", "rows_warp")),
         at + ".row_width: row width 64 for rows_warp is not one of 1, 2, 4, 8, 16, 32 (enough lanes for the row's "
              "vectors, a power of two up to WARP and WG_SIZE)"},
        {db_with_axis_entries(axis_entry(R"(, "wg": 300)", "rows_group")),
         at + ".wg: expected a power of two from 1 to 65536, got 300"},
        {db_with_axis_entries(axis_entry(R"(, "wg": 131072)", "rows_group")),
         at + ".wg: expected a power of two from 1 to 65536, got 131072"},
        {db_with_axis_entries(R"({"type": "float", "op": "sum", "axis": "cols", "class": "cols.thin", "variant": "cols_tile", "wg": 256})"),
         at + ".wg: axis variant cols_tile takes no wg (its group is TILE_X x ROWS_Y)"},
        {db_with_axis_entries(axis_entry(R"(, "row_width": 4)", "rows_group")),
         at + ".row_width: axis variant rows_group takes no row_width; rows_sliced, rows_warp and rows_descriptor do"},
        {db_with_axis_entries(axis_entry(R"(, "row_width": 3)")),
         at + ".row_width: expected a power of two from 1 to 1024, got 3"},
        {db_with_axis_entries(axis_entry(R"(, "wg": 64, "row_width": 128)")),
         at + ".row_width: row width 128 is more than wg 64; it must divide the work-group"},
        {db_with_axis_entries(axis_entry(R"(, "groups_per_cu": 8)")),
         at + ".groups_per_cu: axis variant rows_sliced does not split into chunks; rows_split, rows_split_fused, "
              "cols_tile, cols_fused, cols_stream and cols_stream_fused take groups_per_cu"},
        {db_with_axis_entries(axis_entry(R"(, "groups_per_cu": 0)", "rows_split")),
         at + ".groups_per_cu: expected an integer from 1 to 4096, got 0"},
        {db_with_axis_entries(axis_entry(R"(, "groups_per_cu": 4097)", "rows_split")),
         at + ".groups_per_cu: expected an integer from 1 to 4096, got 4097"},
        {db_with_axis_entries(axis_entry(R"(, "measurements": [{"m": 0, "n": 1, "tuned_us": 1, "default_us": 1, "gbps": 0}])")),
         at + ".measurements[0].m: expected an integer >= 1, got 0"},
        {db_with_axis_entries(axis_entry(R"(, "measurements": [{"m": 1, "n": 1, "tuned_us": 1, "default_us": 1}])")),
         at + ".measurements[0]: missing field \"gbps\""},
        {db_with_axis_entries(axis_entry(R"(, "measurements": [{"m": 1, "n": 1, "tuned_us": -1, "default_us": 1, "gbps": 0}])")),
         at + ".measurements[0].tuned_us: expected a number > 0, got -1"},
        {db_with_axis_entries(axis_entry(R"(, "gain_over_default": 0)")),
         at + ".gain_over_default: expected a number > 0, got 0"},
        {db_with_axis_entries(axis_entry("") + "," + axis_entry(R"(, "wg": 64)")),
         "devices[0].axis_entries[1]: a second axis entry for float sum rows rows.short.many (the first is "
         "devices[0].axis_entries[0])"},
        {R"({"format": "clreduce-tuning-db", "version": 1, "devices": [{"platform": "P", "device": "D", "driver": "1", "entries": [], "axis_entries": {}}]})",
         "devices[0].axis_entries: expected an array, got an object"},
    };
    for (const Case& c : cases) {
      INFO(c.text);
      std::string message;
      try {
        parse_tuning_db(c.text);
      } catch (const Error& e) {
        message = e.what();
      }
      CHECK(message.rfind(c.message, 0) == 0);
      CHECK(message.find('\n') == std::string::npos);
    }
    // The limit on axis entries per device.
    std::string many;
    const char* classes[] = {"rows.narrow.few", "rows.narrow.many", "rows.short.few", "rows.short.many",
                             "rows.long.few", "rows.long.many"};
    const char* types[] = {"uint", "int", "float", "double"};
    const char* ops[] = {"sum", "min", "max", "argmin", "argmax"};
    std::size_t count = 0;
    for (int repeat = 0; repeat < 3 && count <= kTuningDbMaxAxisEntries; ++repeat)
      for (const char* t : types)
        for (const char* o : ops)
          for (const char* c : classes) {
            many += std::string(count ? "," : "") + R"({"type": ")" + t + R"(", "op": ")" + o +
                    R"(", "axis": "rows", "class": ")" + c + R"(", "variant": "rows_group"})";
            ++count;
          }
    std::string message;
    try {
      parse_tuning_db(db_with_axis_entries(many));
    } catch (const Error& e) {
      message = e.what();
    }
    CHECK(message == "devices[0].axis_entries: " + std::to_string(count) + " axis entries, more than the 256 a tuning "
                     "database may hold");
  }

  TEST_CASE("save_tuning_axis_entries replaces only the same (type, op, axis, class) and keeps every other entry") {
    TempDir tmp("merge");
    const std::string path = tmp.file("tuning.json");
    const DeviceKey key{"P", "D", "1"}, other{"P", "Other", "1"};
    std::vector<std::string> warnings;
    // A whole-array entry first, then axis entries of two devices.
    TuningEntry whole;
    whole.type = ElemType::Uint;
    whole.op = Op::Sum;
    whole.variants["vector"].params.wg = 256;
    save_tuning_entry(path, key, whole, warnings);
    save_tuning_axis_entries(
        path, key,
        {entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many", "rows_sliced", 128, 8),
         entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.long.few", "rows_split", 256, {}, 16),
         entry_of(ElemType::Float, Op::Max, Axis::Rows, "rows.short.many", "rows_group", 64)},
        {}, warnings);
    save_tuning_axis_entries(path, other, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many", "rows_group")},
                             {}, warnings);
    // The same key replaced, a cleared class removed, the rest kept.
    save_tuning_axis_entries(path, key, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many", "rows_group", 512)},
                             {{ElemType::Float, Op::Sum, Axis::Rows, "rows.long.few"}}, warnings);
    CHECK(warnings.empty());
    const TuningDb db = parse_tuning_db(read_text(path));
    REQUIRE(db.devices.size() == 2);
    const DeviceTuning& d = db.devices[0];
    REQUIRE(d.entries.size() == 1);  // the whole-array entry is untouched
    CHECK(d.entries[0].variants.at("vector").params.wg == 256);
    REQUIRE(d.axis_entries.size() == 2);
    CHECK(d.axis_entries[0].variant == "rows_group");
    CHECK(d.axis_entries[0].wg == std::optional<std::size_t>(512));
    CHECK(d.axis_entries[1].op == Op::Max);
    CHECK(db.devices[1].axis_entries.size() == 1);
    // A whole-array save keeps the axis entries.
    save_tuning_entry(path, key, whole, warnings);
    CHECK(parse_tuning_db(read_text(path)).devices[0].axis_entries.size() == 2);
    // An entry that would not read back is refused before the file is touched.
    const std::string before = read_text(path);
    CHECK_THROWS_WITH_AS(save_tuning_axis_entries(path, key,
                                                  {entry_of(ElemType::Float, Op::Sum, Axis::Rows, "cols.thin", "rows_group")},
                                                  {}, warnings),
                         doctest::Contains("the new entry would not read back (devices[0].axis_entries[0].class: "
                                           "unknown shape class 'cols.thin' for rows"),
                         Error);
    CHECK(read_text(path) == before);
    // Lookup: found for its key, nothing for another class, a foreign device warned.
    LoadedTuningDb l = load_tuning_db(path, true);
    TunedAxisLookup f = find_tuned_axis(l, key, {ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many"});
    REQUIRE(f.entry);
    CHECK(f.entry->wg == std::optional<std::size_t>(512));
    CHECK(f.warnings.empty());
    f = find_tuned_axis(l, key, {ElemType::Float, Op::Sum, Axis::Rows, "rows.short.few"});
    CHECK(!f.entry);
    CHECK(f.warnings.empty());
    f = find_tuned_axis(l, {"Q", "E", "1"}, {ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many"});
    CHECK(!f.entry);
    REQUIRE(f.warnings.size() == 1);
    CHECK(f.warnings[0].find("has no entry for E (Q, driver 1)") != std::string::npos);
    f = find_tuned_axis(l, {"P", "D", "2"}, {ElemType::Float, Op::Sum, Axis::Rows, "rows.short.many"});
    CHECK(!f.entry);
    REQUIRE(f.warnings.size() == 1);
    CHECK(f.warnings[0].find("with driver 1, this device runs driver 2: ignored") != std::string::npos);
  }
}

TEST_SUITE("runtime") {
  TEST_CASE("AxisReducer: a tuned launch for a shape of its class, not another; the caller's options first") {
    const DeviceInfo& dev = session().device();
    const unsigned cu = dev.compute_units;
    // Many narrow rows: the rules choose rows_sliced (rows_warp on NVIDIA); the database says rows_group at wg 32.
    const std::uint64_t m = 4 * std::max(cu, 1u), n = 32;
    const std::string cls = shape_class_of(Axis::Rows, m, n, 4, cu);
    REQUIRE(cls == "rows.narrow.many");
    TuningDb db;
    db.devices.push_back({device_key(dev), {}, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, cls, "rows_group", 32)}});
    AxisReducerOptions opt;
    opt.device = dev;
    opt.kernel_dir = session().kernel_dir();
    opt.tuning.loaded = loaded(db);
    {
      AxisReducer r(session().queue(), opt);
      auto l = introspect::prepare(r, ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "tuned");
      CHECK(l->shape_class == cls);
      CHECK(l->plan.variant->name == "rows_group");
      CHECK(l->plan.wg == 32);
      CHECK(l->tuned == std::vector<std::string>{"variant=rows_group", "wg=32"});
      CHECK(l->tuned_date == "2026-11-25T16:00:00Z");
      CHECK(l->tuned_from == "/in/memory/tuning.json");
      CHECK(l->warnings.empty());
      // Another class (long rows), another operator, another type: the rules.
      auto other = introspect::prepare(r, ElemType::Float, Op::Sum, Axis::Rows, m, 4096);
      CHECK(other->chosen_by == "default rule");
      CHECK(other->shape_class == "rows.long.many");
      CHECK(introspect::prepare(r, ElemType::Float, Op::Max, Axis::Rows, m, n)->chosen_by == "default rule");
      CHECK(introspect::prepare(r, ElemType::Uint, Op::Sum, Axis::Rows, m, n)->chosen_by == "default rule");
    }
    {  // The caller's variant wins.
      AxisReducerOptions given = opt;
      given.params.variant = "rows_sliced";
      auto l = introspect::prepare(AxisReducer(session().queue(), given), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "given");
      CHECK(l->plan.variant->name == "rows_sliced");
      // The caller's wg beside the tuned variant: the caller's wg, the entry's variant.
      given.params.variant.clear();
      given.params.wg = 16;
      l = introspect::prepare(AxisReducer(session().queue(), given), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "tuned");
      CHECK(l->plan.variant->name == "rows_group");
      CHECK(l->plan.wg == 16);
      CHECK(l->tuned == std::vector<std::string>{"variant=rows_group"});
    }
    {  // Tuning off: the rules.
      AxisReducerOptions off = opt;
      off.tuning.enabled = false;
      auto l = introspect::prepare(AxisReducer(session().queue(), off), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "default rule");
      // The rule's own choice for this device (rows_sliced; rows_warp where NVIDIA's warp shuffle
      // is there, as on the H100), not the database's rows_group.
      const std::string rule = default_axis_variant(Axis::Rows, ElemType::Float, Op::Sum, m, n, dev).name;
      CHECK(rule != "rows_group");
      CHECK(l->plan.variant->name == rule);
    }
    {  // A foreign device and a stale driver: warned, the rules.
      TuningDb foreign;
      foreign.devices.push_back(
          {{"Other platform", "Other device", "1"}, {}, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, cls, "rows_group", 32)}});
      AxisReducerOptions f = opt;
      f.tuning.loaded = loaded(foreign);
      auto l = introspect::prepare(AxisReducer(session().queue(), f), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "default rule");
      REQUIRE(l->warnings.size() == 1);
      CHECK(l->warnings[0].find("has no entry for " + dev.name) != std::string::npos);
      DeviceKey stale = device_key(dev);
      stale.driver += "-old";
      TuningDb old;
      old.devices.push_back({stale, {}, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, cls, "rows_group", 32)}});
      f.tuning.loaded = loaded(old);
      l = introspect::prepare(AxisReducer(session().queue(), f), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "default rule");
      REQUIRE(l->warnings.size() == 1);
      CHECK(l->warnings[0].find("this device runs driver " + dev.driver_version + ": ignored") != std::string::npos);
    }
    {  // A tuned launch this device refuses: warned, the rules.
      TuningDb big;
      big.devices.push_back({device_key(dev), {}, {entry_of(ElemType::Float, Op::Sum, Axis::Rows, cls, "rows_group", 65536)}});
      AxisReducerOptions b = opt;
      b.tuning.loaded = loaded(big);
      auto l = introspect::prepare(AxisReducer(session().queue(), b), ElemType::Float, Op::Sum, Axis::Rows, m, n);
      CHECK(l->chosen_by == "default rule");
      REQUIRE(l->warnings.size() == 1);
      CHECK(l->warnings[0].find("the tuned launch of class " + cls + " (rows_group, wg 65536)") != std::string::npos);
    }
    // The tuned launch verified against the host reference.
    const HostData data = generate_data(ElemType::Float, m * n, DataKind::Random, 7);
    AxisConfig cfg;
    cfg.type = ElemType::Float;
    cfg.op = Op::Sum;
    cfg.axis = Axis::Rows;
    TimingOptions timing;
    timing.repetitions = 2;
    timing.warmup = 1;
    const AxisReport rep = run_axis(session(), cfg, data, m, n, timing, nullptr, opt.tuning);
    CHECK(rep.ok());
    CHECK(rep.chosen_by == "tuned");
    CHECK(rep.plan.variant->name == "rows_group");
  }
}

TEST_SUITE("cli") {
  TEST_CASE("tune axis: measures, verifies, writes the database; reduce --axis then uses it") {
    TempDir tmp("cli");
    const std::string db = tmp.file("tuning.json");
    const std::string env = "CLREDUCE_TUNING_DB=" + db;
    const CliRun t = run_cli(
        "tune axis --axis rows --shapes 64x32,8x4096 --wg 32,64 --row-width 1,4 --groups-per-cu 2,8 --iterations 3 "
        "--warmup 1 --min-gain 0 --quiet --format json",
        env);
    INFO(t.out);
    REQUIRE(t.code == 0);
    const nlohmann::json j = nlohmann::json::parse(t.stdout_text);
    CHECK(j["ok"] == true);
    REQUIRE(j["shapes"].size() == 2);
    // The default first, then every candidate: rows_group x 2 wg, rows_sliced x 2 wg x 2 row
    // widths, rows_tile x 2 wg, rows_vector x 2 wg, rows_warp x 2 wg x 2 row widths, rows_split and
    // rows_split_fused x 2 wg x 2 groups per CU each, rows_descriptor's planned launch.
    CHECK(j["shapes"][0]["points"].size() == 1 + 2 + 4 + 2 + 2 + 4 + 4 + 4 + 1);
    CHECK(j["shapes"][0]["points"][0]["candidate"] == "default");
    for (const auto& s : j["shapes"])
      for (const auto& p : s["points"])
        if (p.contains("ok")) CHECK(p["ok"] == true);
    CHECK(t.stderr_text.find("clreduce: tuning database " + db + " updated") != std::string::npos);
    const TuningDb written = parse_tuning_db(read_text(db));
    REQUIRE(written.devices.size() == 1);
    CHECK(written.devices[0].key == device_key(session().device()));
    // One entry per class that tune kept, none for a class where the default rule stays.
    std::size_t tuned = 0;
    for (const auto& c : j["classes"]) {
      const bool has = std::any_of(written.devices[0].axis_entries.begin(), written.devices[0].axis_entries.end(),
                                   [&](const TunedAxisEntry& e) { return e.shape_class == c["class"].get<std::string>(); });
      CHECK(has == c["tuned"].get<bool>());
      tuned += has;
    }
    CHECK(written.devices[0].axis_entries.size() == tuned);
    // reduce --axis at the first shape says where its launch came from, as the database says.
    const std::string cls = j["shapes"][0]["class"];
    const bool first_tuned = std::any_of(written.devices[0].axis_entries.begin(), written.devices[0].axis_entries.end(),
                                         [&](const TunedAxisEntry& e) { return e.shape_class == cls; });
    CliRun r = run_cli("reduce --axis rows --shape 64x32 --type float --iterations 2", env);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find(std::string("chosen by  ") + (first_tuned ? "tuned (class " : "default rule (class ") + cls) !=
          std::string::npos);

    // A database written for this device by hand: reduce --axis takes it, the caller's variant and
    // --no-tuning do not.
    std::vector<std::string> warnings;
    save_tuning_axis_entries(db, device_key(session().device()),
                             {entry_of(ElemType::Float, Op::Sum, Axis::Rows, cls, "rows_group", 32)}, {}, warnings);
    r = run_cli("reduce --axis rows --shape 64x32 --type float --iterations 2", env);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("rows_group: sum of every row of a 64x32 float matrix") != std::string::npos);
    CHECK(r.stdout_text.find("launch     wg 32, 1 pass") != std::string::npos);
    CHECK(r.stdout_text.find("chosen by  tuned (class " + cls + ", 2026-11-25T16:00:00Z; variant=rows_group, wg=32 from " +
                             db + ")") != std::string::npos);
    CHECK(r.stdout_text.find("check      ok") != std::string::npos);
    r = run_cli("reduce --axis rows --shape 64x32 --type float --iterations 2 --variant rows_sliced", env);
    CHECK(r.stdout_text.find("chosen by  given (class " + cls + ")") != std::string::npos);
    r = run_cli("reduce --axis rows --shape 64x32 --type float --iterations 2 --no-tuning", env);
    CHECK(r.stdout_text.find("chosen by  default rule (class " + cls + ")") != std::string::npos);
    r = run_cli("reduce --axis rows --shape 64x32 --type float --iterations 2 --db " + db);
    CHECK(r.stdout_text.find("chosen by  tuned (class " + cls) != std::string::npos);
    // A class with no entry (tune measured narrow and long rows only): the rules.
    r = run_cli("reduce --axis rows --shape 64x512 --type float --iterations 2", env);
    CHECK(r.stdout_text.find("chosen by  default rule (class rows.short.") != std::string::npos);
  }

  TEST_CASE("tune axis: every bad option refused in one line before any measurement") {
    const auto refused = [](const std::string& args, const std::string& text) {
      const CliRun e = run_cli(args);
      INFO(args << "\n" << e.out);
      CHECK(e.code == 2);
      CHECK(e.out.find(text) != std::string::npos);
    };
    refused("tune axis --wg 48", "--wg 48 is not a power of two from 1 to 65536");
    refused("tune axis --row-width 3", "--row-width 3 is not a power of two from 1 to 1024");
    refused("tune axis --groups-per-cu 5000", "--groups-per-cu 5000 is out of range; values are 1 to 4096");
    refused("tune axis --min-gain 101", "--min-gain 101.00 is out of range");
    refused("tune axis --shapes 4x", "--shapes: ");
    refused("tune axis --axis rows --variants cols_item", "--variants: axis variant cols_item reduces cols, not rows");
    refused("tune axis --variants vector", "--variants: unknown axis variant 'vector'");
    refused("tune axis --axis diagonal", "unknown axis 'diagonal'; valid: rows, cols");
    refused("tune axis --op prod", "unknown");
    refused("tune --dry-run axis", "option --dry-run is for `tune` (the whole-array variants), not for `tune axis`");
  }
}
