// Tuning of the reduction-descriptor kernels: the tune axes of every tunable parameter, the grid
// and its --grid overrides, the per-class choice, the tuning database's descriptor entries at the
// launch site (Reducer, AxisReducer rows and cols, SegmentedReducer: the caller's parameters
// first, tuning off, a refused tuned launch warned and left for the defaults), and `clreduce tune
// descriptors` end to end into a temporary database that `clreduce reduce` then uses.
#include <doctest/doctest.h>

#include "benchmarks/descriptor_tune.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/introspect.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/tuning.hpp"
#include "descriptor/kernel_params.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

using namespace clreduce;
using namespace clreduce::test;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path dir;
  explicit TempDir(const std::string& tag)
      : dir(fs::path("/tmp") / ("clreduce_descriptor_tuning_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::shared_ptr<LoadedTuningDb> loaded(const TuningDb& db) {
  auto l = std::make_shared<LoadedTuningDb>();
  l->path = "/in/memory/tuning.json";
  l->db = db;
  return l;
}

TunedDescriptorEntry entry(const std::string& reduction, DescriptorFamily family, const std::string& cls,
                           std::vector<std::pair<std::string, std::uint64_t>> params,
                           std::optional<std::uint64_t> chunks = std::nullopt, Scalar type = Scalar::F32) {
  TunedDescriptorEntry e;
  e.reduction = reduction;
  e.inputs = builtin(parse_builtin(reduction), type).inputs;
  e.family = family;
  e.shape_class = cls;
  e.date = "2026-12-01T10:00:00Z";
  e.params = std::move(params);
  e.chunks = chunks;
  return e;
}

TuningDb db_of(const DeviceKey& key, std::vector<TunedDescriptorEntry> entries) {
  TuningDb db;
  db.devices.push_back({key, {}, {}, std::move(entries)});
  return db;
}

bool has(const std::vector<std::string>& v, const std::string& text) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
}

// A bench row of the tune's run at (m, n): its label, median, IQR, options and check.
DescriptorBenchRow row(const std::string& label, std::uint64_t m, std::uint64_t n, double us, double iqr,
                       const std::string& options, bool ok = true) {
  DescriptorBenchRow r;
  r.reduction = "sum";
  r.types = "f32";
  r.family = m ? DescriptorJob::Family::Rows : DescriptorJob::Family::Whole;
  r.m = m;
  r.n = n;
  r.launch = label;
  DescriptorReport rep;
  rep.timing.whole_us.median = us;
  rep.timing.whole_us.q1 = us - iqr / 2;
  rep.timing.whole_us.q3 = us + iqr / 2;
  rep.launch.options = options;
  rep.check.ok = ok;
  rep.bytes_read = 4 * n * (m ? m : 1);
  r.report = rep;
  return r;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("tune descriptors: every tunable parameter of the descriptor kernels has a tune axis of valid values") {
    DeviceInfo gpu = fake_device();
    gpu.is_gpu = true;
    DeviceInfo cpu = fake_device();
    cpu.is_gpu = false;
    for (const DeviceInfo& dev : {gpu, cpu})
      for (DescriptorFamily f : {DescriptorFamily::Whole, DescriptorFamily::Rows, DescriptorFamily::Cols}) {
        std::size_t tunable = 0;
        for (const KernelParam& p : kernel_of(f).params) {
          CAPTURE(p.define);
          if (!p.tunable) {
            CHECK_THROWS_AS(descriptor_tune_axis(f, p.define, dev, 4), std::logic_error);
            continue;
          }
          ++tunable;
          for (std::size_t bytes : {1u, 2u, 4u, 8u}) {
            const std::vector<std::uint64_t> v = descriptor_tune_axis(f, p.define, dev, bytes);
            CHECK(!v.empty());
            for (std::uint64_t x : v) CHECK(p.valid_value(x));
          }
        }
        CHECK(tunable >= 3);
      }
    // VEC: 8 to 32 bytes a load on a GPU, 16 to 64 on a CPU.
    CHECK(descriptor_tune_axis(DescriptorFamily::Whole, "VEC", gpu, 4) == std::vector<std::uint64_t>{2, 4, 8});
    CHECK(descriptor_tune_axis(DescriptorFamily::Whole, "VEC", cpu, 4) == std::vector<std::uint64_t>{4, 8, 16});
    CHECK(descriptor_tune_axis(DescriptorFamily::Whole, "VEC", cpu, 1) == std::vector<std::uint64_t>{16});
  }

  TEST_CASE("tune descriptors: the grid per family, --grid overrides, and refusals naming the valid names") {
    DeviceInfo dev = fake_device();
    dev.is_gpu = false;
    DescriptorTuneDesign d = with_defaults({});
    // The default launch first, then the product of the axes (whole: 3 x 3 x 3 on a CPU).
    const auto whole = descriptor_tune_points(d, DescriptorFamily::Whole, dev, 4);
    CHECK(whole.front().label == "default");
    CHECK(whole.size() == 1 + 27);
    CHECK(whole[1].label == "WG_SIZE=8 ITEMS=2 VEC=4");
    // Lines: ROW_WIDTH over WG_SIZE left out (WG_SIZE 8 with ROW_WIDTH 8 stays).
    d.grid = {{"WG_SIZE", {4, 64}}, {"ROW_WIDTH", {1, 8}}, {"ITEMS", {2}}, {"VEC", {4}}, {"chunks", {1, 2}}};
    const auto lines = descriptor_tune_points(d, DescriptorFamily::Rows, dev, 4);
    std::vector<std::string> labels;
    for (const auto& p : lines) labels.push_back(p.label);
    CHECK(labels == std::vector<std::string>{"default", "WG_SIZE=4 ROW_WIDTH=1 ITEMS=2 VEC=4 chunks=1",
                                             "WG_SIZE=4 ROW_WIDTH=1 ITEMS=2 VEC=4 chunks=2",
                                             "WG_SIZE=64 ROW_WIDTH=1 ITEMS=2 VEC=4 chunks=1",
                                             "WG_SIZE=64 ROW_WIDTH=1 ITEMS=2 VEC=4 chunks=2",
                                             "WG_SIZE=64 ROW_WIDTH=8 ITEMS=2 VEC=4 chunks=1",
                                             "WG_SIZE=64 ROW_WIDTH=8 ITEMS=2 VEC=4 chunks=2"});
    // The whole array takes no chunks and no ROW_WIDTH: those axes are the other families'.
    CHECK(descriptor_tune_points(d, DescriptorFamily::Whole, dev, 4).size() == 1 + 2);
    check_descriptor_tune_grid(d, dev);
    const auto refused = [&](DescriptorTuneDesign x, const std::string& text) {
      std::string message;
      try {
        check_descriptor_tune_grid(x, dev);
      } catch (const Error& e) {
        message = e.what();
      }
      INFO(message);
      CHECK(message.find(text) != std::string::npos);
      CHECK(message.find('\n') == std::string::npos);
    };
    DescriptorTuneDesign x;
    x.families = {DescriptorFamily::Whole};
    x.grid = {{"TILE_X", {8}}};
    refused(x, "--grid TILE_X: not a tunable parameter of the families tuned; valid: whole: WG_SIZE, ITEMS, VEC");
    x.grid = {{"chunks", {2}}};
    refused(x, "--grid chunks: the whole array is not cut into chunks");
    x.grid = {{"wg", {64}}};
    refused(x, "--grid wg: tune descriptors searches the kernels' own parameters; give WG_SIZE");
    x.grid = {{"ITEMS", {3}}};
    refused(x, "--grid (whole): launch grid axis ITEMS: 3 is not valid for reduce_descriptor.cl; valid: 1, 2, 4, 8");
    x.grid = {{"ALIGNED", {1}}};
    refused(x, "--grid ALIGNED: not a tunable parameter");
    x.grid = {{"ITEMS", {2}}, {"ITEMS", {4}}};
    refused(x, "--grid ITEMS is given twice");
  }

  TEST_CASE("choose_descriptor_tuning: the best point verified everywhere, kept only above the noise") {
    DeviceInfo dev = fake_device();
    DescriptorTuneDesign d = with_defaults({});
    d.min_gain = 0.03;
    DescriptorTuneRun run;
    // Whole, two sizes: B is 1.5x the default at both, C faster still at one size but failed at the other.
    run.bench.rows = {row("default", 0, 1024, 30, 1, "def"),     row("ITEMS=8", 0, 1024, 20, 1, "b"),
                      row("VEC=4", 0, 1024, 10, 1, "c"),        row("default", 0, 4096, 60, 2, "def2"),
                      row("ITEMS=8", 0, 4096, 40, 2, "b2"),     row("VEC=4", 0, 4096, 10, 1, "c2", false)};
    // Rows (a class of its own): the only point launches exactly as the default does.
    run.bench.rows.push_back(row("default", 512, 64, 50, 1, "same"));
    run.bench.rows.push_back(row("ITEMS=2", 512, 64, 40, 1, "same"));
    choose_descriptor_tuning(run, d, dev, "2026-12-01T10:00:00Z");
    REQUIRE(run.classes.size() == 2);
    const DescriptorTuneClass& w = run.classes[0];
    CHECK(w.shape_class == "whole");
    CHECK(w.best == "ITEMS=8");
    CHECK(w.gain == doctest::Approx(1.5));
    REQUIRE(w.entry);
    CHECK(w.entry->launch_label() == "ITEMS=8");
    REQUIRE(w.entry->measurements.size() == 2);
    CHECK(w.entry->measurements[1].default_us == 60);
    CHECK(w.entry->measurements[1].tuned_us == 40);
    CHECK(!run.classes[1].entry);
    CHECK(run.classes[1].note.find("no point launching otherwise than the default") != std::string::npos);
    // Noise above the gain: the default is kept.
    run.bench.rows[1] = row("ITEMS=8", 0, 1024, 29, 20, "b");
    run.bench.rows[4] = row("ITEMS=8", 0, 4096, 58, 40, "b2");
    choose_descriptor_tuning(run, d, dev, "2026-12-01T10:00:00Z");
    CHECK(!run.classes[0].entry);
    CHECK(run.classes[0].note.find("the default is kept: the best, ITEMS=8, gains") != std::string::npos);
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("descriptor launches take the tuning database's entry for what the caller left unset") {
    const DeviceInfo& dev = session().device();
    const Reduction sum = builtin(Builtin::Sum, Scalar::F32);
    const std::uint64_t n = 1 << 12;
    std::vector<float> host(n);
    for (std::uint64_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7);
    double expect = 0;
    for (float x : host) expect += x;
    const cl::Buffer in(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, host.data());

    ReducerOptions opt;
    opt.tuning.loaded = loaded(db_of(device_key(dev), {entry("sum", DescriptorFamily::Whole, "whole", {{"ITEMS", 8}})}));
    {  // The entry fills ITEMS; the result stays right.
      Reducer r = session().reducer(opt);
      const DescriptorLaunch l = introspect::prepare(r, sum, n);
      CHECK(l.items == 8);
      CHECK(l.tuned == std::vector<std::string>{"ITEMS=8"});
      CHECK(l.tuned_from == "/in/memory/tuning.json");
      CHECK(l.tuned_date == "2026-12-01T10:00:00Z");
      CHECK(l.shape_class == "whole");
      CHECK(l.warnings.empty());
      CHECK(r.reduce(sum, {Input{in, 0}}, n).value() == expect);
      // Another built-in, another type, another accumulator: nothing.
      CHECK(introspect::prepare(r, builtin(Builtin::Max, Scalar::F32), n).tuned.empty());
      CHECK(introspect::prepare(r, builtin(Builtin::Sum, Scalar::F16), n).tuned.empty());
      if (dev.fp64) CHECK(introspect::prepare(r, builtin(Builtin::Sum, Scalar::F32, Scalar::F64), n).tuned.empty());
    }
    {  // The caller's -D wins.
      ReducerOptions given = opt;
      given.params.defines = {Define{"ITEMS", "2"}};
      Reducer r = session().reducer(given);
      const DescriptorLaunch l = introspect::prepare(r, sum, n);
      CHECK(l.items == 2);
      CHECK(l.tuned.empty());
    }
    {  // Tuning off.
      ReducerOptions off = opt;
      off.tuning.enabled = false;
      Reducer r = session().reducer(off);
      const DescriptorLaunch l = introspect::prepare(r, sum, n);
      CHECK(l.tuned.empty());
      CHECK(l.shape_class.empty());
    }
    if (dev.max_work_group_size < 8192) {  // A tuned launch the device refuses: one warning, the defaults.
      ReducerOptions big = opt;
      big.tuning.loaded = loaded(db_of(device_key(dev), {entry("sum", DescriptorFamily::Whole, "whole", {{"WG_SIZE", 8192}})}));
      Reducer r = session().reducer(big);
      const DescriptorLaunch l = introspect::prepare(r, sum, n);
      CHECK(l.tuned.empty());
      REQUIRE(l.warnings.size() == 1);
      CHECK(l.warnings[0].find("the tuned launch of sum (WG_SIZE=8192, class whole, tuning database "
                               "/in/memory/tuning.json) does not plan here (") != std::string::npos);
      CHECK(l.warnings[0].find("the defaults are used") != std::string::npos);
      CHECK(r.reduce(sum, {Input{in, 0}}, n).value() == expect);
    }
    {  // A foreign device: warned, nothing used.
      ReducerOptions f = opt;
      f.tuning.loaded = loaded(db_of({"Other platform", "Other device", "1"},
                                     {entry("sum", DescriptorFamily::Whole, "whole", {{"ITEMS", 8}})}));
      Reducer r = session().reducer(f);
      const DescriptorLaunch l = introspect::prepare(r, sum, n);
      CHECK(l.tuned.empty());
      CHECK(has(l.warnings, "has no entry for " + dev.name));
    }
  }

  TEST_CASE("rows, columns and segments take their class's entry; the caller's options first") {
    const DeviceInfo& dev = session().device();
    const Reduction sum = builtin(Builtin::Sum, Scalar::F32);
    const std::uint64_t m = 64, cols = 48;
    std::vector<float> host(m * cols);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 5);
    const std::string rows_class = descriptor_shape_class(DescriptorFamily::Rows, m, cols, 4, dev.compute_units);
    const std::string cols_class = descriptor_shape_class(DescriptorFamily::Cols, m, cols, 4, dev.compute_units);
    AxisReducerOptions opt;
    opt.device = dev;
    opt.kernel_dir = session().kernel_dir();
    opt.tuning.loaded = loaded(db_of(device_key(dev), {entry("sum", DescriptorFamily::Rows, rows_class, {{"ITEMS", 4}}),
                                                       entry("sum", DescriptorFamily::Cols, cols_class, {{"ITEMS", 2}}, 2)}));
    {
      AxisReducer r(session().queue(), opt);
      const DescriptorLaunch rows = introspect::prepare(r, sum, Axis::Rows, MatrixShape{m, cols, 0});
      CHECK(rows.items == 4);
      CHECK(rows.tuned == std::vector<std::string>{"ITEMS=4"});
      CHECK(rows.shape_class == rows_class);
      const DescriptorLaunch c = introspect::prepare(r, sum, Axis::Cols, MatrixShape{m, cols, 0});
      CHECK(c.items == 2);
      CHECK(c.chunks == 2);
      CHECK(c.tuned == std::vector<std::string>{"ITEMS=2", "chunks=2"});
      // The results of the tuned launches, exact (small integers in f32).
      const std::vector<Result> by_row = r.reduce(sum, {host.data()}, Axis::Rows, MatrixShape{m, cols, 0});
      const std::vector<Result> by_col = r.reduce(sum, {host.data()}, Axis::Cols, MatrixShape{m, cols, 0});
      for (std::uint64_t i = 0; i < m; ++i) {
        double s = 0;
        for (std::uint64_t j = 0; j < cols; ++j) s += host[i * cols + j];
        CHECK(by_row[i].value() == s);
      }
      for (std::uint64_t j = 0; j < cols; ++j) {
        double s = 0;
        for (std::uint64_t i = 0; i < m; ++i) s += host[i * cols + j];
        CHECK(by_col[j].value() == s);
      }
      // Another class: nothing.
      CHECK(introspect::prepare(r, sum, Axis::Rows, MatrixShape{2, 1 << 14, 0}).tuned.empty());
    }
    {  // The caller's -D ITEMS and --chunks win over both of the entry's values.
      AxisReducerOptions given = opt;
      given.params.defines = {Define{"ITEMS", "1"}};
      given.params.chunks = 1;
      AxisReducer r(session().queue(), given);
      const DescriptorLaunch c = introspect::prepare(r, sum, Axis::Cols, MatrixShape{m, cols, 0});
      CHECK(c.items == 1);
      CHECK(c.chunks == 1);
      CHECK(c.tuned.empty());
    }
    {  // Segments: the rows class of (segments, average length).
      SegmentedReducerOptions s;
      s.device = dev;
      s.kernel_dir = session().kernel_dir();
      s.tuning = opt.tuning;
      SegmentedReducer r(session().queue(), s);
      const DescriptorLaunch l = introspect::prepare(r, sum, m * cols, m, Scalar::U64);
      CHECK(l.items == 4);
      CHECK(l.tuned == std::vector<std::string>{"ITEMS=4"});
      std::vector<std::uint64_t> offsets;
      for (std::uint64_t i = 0; i <= m; ++i) offsets.push_back(i * cols);
      const std::vector<Result> got = r.reduce(sum, {host.data()}, m * cols, offsets);
      double s0 = 0;
      for (std::uint64_t j = 0; j < cols; ++j) s0 += host[j];
      CHECK(got[0].value() == s0);
      s.tuning.enabled = false;
      SegmentedReducer off(session().queue(), s);
      CHECK(introspect::prepare(off, sum, m * cols, m, Scalar::U64).tuned.empty());
    }
  }
}

TEST_SUITE("cli") {
  TEST_CASE("tune descriptors: measures, verifies, writes the database; reduce then says what it took") {
    TempDir tmp("cli");
    const std::string db = tmp.file("tuning.json");
    const std::string env = "CLREDUCE_TUNING_DB=" + db;
    const CliRun t = run_cli(
        "tune descriptors --ops sum --families whole,rows --sizes 4096 --shapes 64x32 --grid WG_SIZE=8 "
        "--grid ITEMS=2,8 --grid VEC=4 --grid ROW_WIDTH=1 --iterations 3 --warmup 1 --min-gain 0 --quiet --format json",
        env);
    INFO(t.out);
    REQUIRE(t.code == 0);
    const nlohmann::json j = nlohmann::json::parse(t.stdout_text);
    CHECK(j["ok"] == true);
    REQUIRE(j["classes"].size() == 2);
    CHECK(j["classes"][0]["family"] == "whole");
    CHECK(j["classes"][0]["class"] == "whole");
    CHECK(j["classes"][1]["family"] == "rows");
    // Per family the default, then the grid's two points, each verified.
    REQUIRE(j["points"].size() == 6);
    CHECK(j["points"][0]["point"] == "default");
    CHECK(j["points"][1]["point"] == "WG_SIZE=8 ITEMS=2 VEC=4");
    for (const auto& p : j["points"]) CHECK(p["ok"] == true);
    CHECK(t.stderr_text.find("clreduce: tuning database " + db + " updated") != std::string::npos);
    const TuningDb written = parse_tuning_db(slurp(db));
    REQUIRE(written.devices.size() == 1);
    CHECK(written.devices[0].key == device_key(session().device()));
    std::size_t tuned = 0;
    for (const auto& c : j["classes"]) tuned += c["tuned"].get<bool>();
    CHECK(written.devices[0].descriptor_entries.size() == tuned);
    CHECK(written.devices[0].entries.empty());

    // An entry written for this device: reduce takes it and says so; the caller's -D and
    // --no-tuning win. A fresh database: which classes tune kept above depends on the timing, so
    // the entries' order (and the JSON path below) would too.
    std::filesystem::remove(db);
    std::vector<std::string> warnings;
    save_tuning_descriptor_entries(db, device_key(session().device()),
                                   {entry("sum", DescriptorFamily::Whole, "whole", {{"ITEMS", 8}})}, {}, warnings);
    CliRun r = run_cli("reduce --op sum --type f32 --n 4096 --iterations 2", env);
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find(", ITEMS 8, depth") != std::string::npos);
    CHECK(r.stdout_text.find("tuned       ITEMS=8 from the tuning database " + db +
                             " (class whole, 2026-12-01T10:00:00Z)") != std::string::npos);
    CHECK(r.stdout_text.find("check       ") != std::string::npos);
    r = run_cli("reduce --op sum --type f32 --n 4096 --iterations 2 -D ITEMS=2", env);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find(", ITEMS 2, depth") != std::string::npos);
    CHECK(r.stdout_text.find("tuned ") == std::string::npos);
    r = run_cli("reduce --op sum --type f32 --n 4096 --iterations 2 --no-tuning", env);
    CHECK(r.code == 0);
    CHECK(r.stdout_text.find("tuned ") == std::string::npos);
    r = run_cli("reduce --op sum --type f32 --n 4096 --iterations 2 --db " + db + " --format json");
    CHECK(r.code == 0);
    CHECK(nlohmann::json::parse(r.stdout_text)["launch"]["tuned"] == nlohmann::json::array({"ITEMS=8"}));

    // A bad entry by hand: reduce warns naming its JSON path and runs on the defaults.
    std::string text = slurp(db);
    const std::string good = "\"ITEMS\": 8";
    REQUIRE(text.find(good) != std::string::npos);
    text.replace(text.find(good), good.size(), "\"ITEMS\": 3");
    std::ofstream(db, std::ios::trunc) << text;
    r = run_cli("reduce --op sum --type f32 --n 4096 --iterations 2", env);
    CHECK(r.code == 0);
    CHECK(r.stderr_text.find("is malformed (devices[0].descriptor_entries[0].params.ITEMS: expected one of 1, 2, 4, 8, "
                             "got 3); it is ignored and defaults are used") != std::string::npos);
    CHECK(r.stdout_text.find("tuned ") == std::string::npos);
  }

  TEST_CASE("tune descriptors --estimate: launches and sizes counted as the run makes them") {
    // Three built-ins over one size: their launches at 1 size (the count once said "3 sizes", one per
    // built-in).
    const CliRun e = run_cli("tune descriptors --ops sum,argmax,var_pop --families whole --sizes 4096 --grid ITEMS=1,2 --estimate");
    INFO(e.out);
    CHECK(e.code == 0);
    CHECK(e.stdout_text.find(" launches at 1 size reading ") != std::string::npos);
    const CliRun two = run_cli("tune descriptors --ops sum,argmax --families whole,rows --sizes 4096,8192 --shapes 64x32 --grid ITEMS=1 --estimate");
    INFO(two.out);
    CHECK(two.code == 0);
    CHECK(two.stdout_text.find(" at 3 sizes reading ") != std::string::npos);  // 2 whole sizes and 1 shape
  }

  TEST_CASE("tune descriptors: every bad option refused in one line before any measurement") {
    const auto refused = [](const std::string& args, const std::string& text) {
      const CliRun e = run_cli(args);
      INFO(args << "\n" << e.out);
      CHECK(e.code == 2);
      CHECK(e.out.find(text) != std::string::npos);
    };
    refused("tune descriptors --ops summ", "--ops: unknown operator 'summ'");
    refused("tune descriptors --types f17", "--types: unknown type 'f17'");
    refused("tune descriptors --families segments", "--families: segments run on the lines kernel");
    refused("tune descriptors --families diagonal", "--families: unknown descriptor family 'diagonal'; valid: whole, rows, cols");
    refused("tune descriptors --families rows --sizes 1024", "--sizes sizes the whole array");
    refused("tune descriptors --families whole --shapes 4x4", "--shapes is for the rows and cols families");
    refused("tune descriptors --grid ITEMS", "--grid 'ITEMS': expected NAME=V1,V2,...");
    refused("tune descriptors --families whole --grid TILE_X=8", "--grid TILE_X: not a tunable parameter of the families tuned");
    refused("tune descriptors --grid VEC=3", "VEC: 3 is not valid");
    refused("tune descriptors --min-gain 101", "--min-gain 101.00 is out of range");
    refused("tune --dry-run descriptors", "option --dry-run is for `tune` (the whole-array variants), not for `tune descriptors`");
  }
}
