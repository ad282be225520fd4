// Exploring the design space: the parameter sweep (skipped points with reasons, every point
// verified, best per variant), tune and the tuning database as reduce and bench use it, and the
// charts of bench, the size sweep and the parameter sweep.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "benchmarks/grid.hpp"
#include "printers/family_printer.hpp"
#include "printers/grid_printer.hpp"
#include "measure/estimate.hpp"
#include "measure/progress.hpp"
#include "printers/sizes_printer.hpp"
#include "printers/result_charts.hpp"
#include "support.hpp"
#include "svg_check.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace clreduce;
using clreduce::test::CliRun;
using clreduce::test::run_cli;
namespace fs = std::filesystem;

namespace {
fs::path scratch(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / ("clreduce-explore-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json json_of(const CliRun& r) {
  // The document is stdout; warnings and "chart written" lines go to stderr.
  INFO(r.out);
  return nlohmann::json::parse(r.stdout_text);
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("sweep grid: defaults follow the device limits; each variant takes its parameters") {
    const DeviceInfo nv = test::fake_nvidia_device();
    const GridAxes a = grid_defaults({}, nv);
    CHECK(a.wg == std::vector<std::size_t>{32, 64, 128, 256, 512, 1024});
    CHECK(a.times == std::vector<unsigned>{1, 2, 4, 8, 16, 32, 64});
    CHECK(a.groups_per_cu == std::vector<unsigned>{1, 2, 4, 8, 16});  // 2 x 2048/256
    CHECK(a.vec == allowed_vec_widths());
    GridAxes only_times;
    only_times.times = {4};
    only_times.no_groups_per_cu = true;
    CHECK(grid_defaults(only_times, nv).groups_per_cu.empty());

    const std::size_t modes = a.times.size() + a.groups_per_cu.size();
    // naive: the default launch and one point per work-group size.
    CHECK(grid_points(find_variant("naive"), a).size() == 1 + a.wg.size());
    CHECK(grid_points(find_variant("stride_local"), a).size() == 1 + a.wg.size() * modes);
    const auto vec_points = grid_points(find_variant("vector"), a);
    CHECK(vec_points.size() == 1 + a.wg.size() * a.vec.size() * modes);
    CHECK(vec_points.front().is_default);
    CHECK_FALSE(vec_points.front().params.wg);
    for (std::size_t i = 1; i < vec_points.size(); ++i) {
      const ReduceParams& c = vec_points[i].params;
      CHECK(c.variant == "vector");
      CHECK_FALSE(vec_points[i].is_default);
      CHECK_FALSE(vec_points[i].use_tuning);  // a grid point is measured as it is
      CHECK(c.times.has_value() != c.groups_per_cu.has_value());  // one launch mode per point
      CHECK(c.vec.has_value());
    }
  }

  TEST_CASE("heat-map axes: two different parameters, not both launch modes") {
    CHECK_THROWS_WITH_AS(check_heat_map_axes(GridParam::Wg, GridParam::Wg), doctest::Contains("two different"), Error);
    CHECK_THROWS_WITH_AS(check_heat_map_axes(GridParam::Times, GridParam::GroupsPerCu),
                         doctest::Contains("two launch modes"), Error);
    CHECK_NOTHROW(check_heat_map_axes(GridParam::Wg, GridParam::Vec));
    CHECK_THROWS_WITH_AS(parse_grid_param("tile"), "unknown sweep parameter 'tile'; valid parameters: wg, times, groups-per-cu, vec", Error);
  }

  TEST_CASE("progress bar: counts, bar, time left, clipped to the terminal width") {
    const auto step = [](std::size_t done, std::size_t total, const std::string& what) {
      ProgressStep s;
      s.done = done;
      s.total = total;
      s.what = what;
      return s;
    };
    CHECK(ProgressReporter::render_bar(step(6, 24, "vector wg 256, times 8"), 12.0, 200) ==
          "[######..................] 6/24 12s, ~36s left  vector wg 256, times 8");
    CHECK(ProgressReporter::render_bar(step(24, 24, "done"), 90, 200) == "[########################] 24/24 1m30s  done");
    CHECK(ProgressReporter::render_bar(step(0, 0, "x"), 0, 200) == "0s  x");  // nothing known yet
    CHECK(ProgressReporter::render_bar(step(1, 2, std::string(500, 'x')), 1, 60).size() == 60);
    // Weighed steps: 1 of 3 steps done, but a ninth of the work: the bar and the time left follow the work.
    ProgressStep w = step(1, 3, "n=2^30: vector");
    w.work_done = 1;
    w.work_total = 9;
    CHECK(ProgressReporter::render_bar(w, 10, 200) == "[##......................] 1/3 10s, ~1m20s left  n=2^30: vector");
  }

  TEST_CASE("progress lines where stderr is no terminal: one every interval, none for a short job, none quiet") {
    double now = 0;
    std::ostringstream out;
    {
      ProgressReporter lines(ProgressStyle::Lines, out, 200, 5, [&] { return now; });
      ProgressStep s;
      s.total = 10;
      for (const double t : {0.0, 1.0, 4.9, 5.0, 6.0, 9.9, 10.5}) {
        now = t;
        s.what = "step at " + std::to_string(static_cast<int>(t * 10));
        lines(s);
        ++s.done;
      }
    }
    // Lines at 5.0 (3 done) and 10.5 (6 done); nothing before the first interval.
    CHECK(out.str() == "clreduce: progress: 3/10, 5s, ~12s left; now: step at 50\n"
                       "clreduce: progress: 6/10, 10s, ~7s left; now: step at 105\n");
    std::ostringstream quiet_out, state_out;
    {
      ProgressReporter quiet(ProgressStyle::Quiet, quiet_out, 200, 0, [] { return 100.0; });
      quiet(ProgressStep{5, 10, 0, 0, "x"});
      // A state rather than a next step (soak): no count, the time left from the weighed work.
      ProgressReporter state(ProgressStyle::Lines, state_out, 200, 5, [] { return 6.0; });
      ProgressStep soak;
      soak.work_done = 6;
      soak.work_total = 10;
      soak.what = "120 checked, 0 skipped";
      soak.what_is_next = false;
      state(soak);
    }
    CHECK(quiet_out.str().empty());
    CHECK(state_out.str() == "clreduce: progress: 6s, ~4s left; 120 checked, 0 skipped\n");
  }

  TEST_CASE("run estimate: the engine's passes at the calibrated rate, a lower bound") {
    Calibration c;
    c.device_gbps = 1;  // 10^9 bytes a second: a pass of 10^9 bytes takes 1 s
    c.host_gbps = 2;
    TimingOptions t;    // 2 warm-ups, 10 samples, the batch chosen by the engine
    // Device clock: warm-ups on both queues (4), 10 back-to-back samples of at least one pass
    // (10), 10 single calls on both queues (20).
    CHECK(point_seconds(c, t, TimeSource::DeviceEvents, 1000000000) == doctest::Approx(34));
    CHECK(point_passes(t, TimeSource::DeviceEvents) == doctest::Approx(34));
    CHECK(point_seconds(c, t, TimeSource::HostClock, 1000000000) == doctest::Approx(22));
    // A tiny input: each back-to-back sample still spans kSampleMinUs (the engine's batch).
    CHECK(point_seconds(c, t, TimeSource::DeviceEvents, 1000) ==
          doctest::Approx(10 * kSampleMinUs * 1e-6 + 24 * 1e-6));
    t.batch = 100;
    CHECK(point_seconds(c, t, TimeSource::DeviceEvents, 1000000000) == doctest::Approx(4 + 1000 + 20));
    CHECK(host_seconds(c, 4000000000) == doctest::Approx(2));
    RunEstimate e;
    e.calibration = c;
    e.seconds = 250;
    e.points = 13;
    e.sizes = 1;
    e.builds = 13;
    e.device_bytes = 57.2e9;
    e.host_bytes = 4.29e9;
    e.calibration.build_s = 0.41;
    CHECK(describe(e) == "at least 4m10s: 13 launches at 1 size reading 57.20 GB at the 1.0 GB/s measured here, "
                         "13 program builds of 0.41 s, 4.29 GB of input prepared and checked on the host at 2.0 GB/s");
  }

  TEST_CASE("the engine calibrates, estimates before any input, weighs its steps and can stop at the estimate") {
    Design d;
    d.variants = {"naive", "vector"};
    GridAxes axes;
    axes.wg = {32};
    d.points = grid_points(axes);
    d.timing = test::quick_timing(0, 1);
    d.tuning.enabled = false;
    d.sizes = {1000, 100000};
    std::vector<RunEstimate> seen;
    std::vector<ProgressStep> steps;
    Watch stop;
    stop.estimated = [&](const RunEstimate& e) { seen.push_back(e); return false; };
    stop.progress = [&](const ProgressStep& s) { steps.push_back(s); };
    const clreduce::Run none = measure(test::session(), d, stop);
    CHECK(none.sizes.empty());
    CHECK(steps.empty());
    REQUIRE(seen.size() == 1);
    const RunEstimate& e = seen.front();
    CHECK(e.sizes == 2);
    CHECK(e.points >= 4);  // each variant's points at each size: as many as measured below
    CHECK(e.calibration.device_gbps > 0);
    CHECK(e.calibration.host_gbps > 0);
    CHECK(e.seconds > 0);
    CHECK(e.host_bytes == doctest::Approx(4.0 * (1000 + 100000)));

    Watch go;
    go.estimated = [](const RunEstimate&) { return true; };
    go.progress = [&](const ProgressStep& s) { steps.push_back(s); };
    const clreduce::Run run = measure(test::session(), d, go);
    REQUIRE(run.sizes.size() == 2);
    std::size_t points = 0;
    for (const auto& s : run.sizes)
      for (const auto& v : s.variants) points += v.points.size();
    CHECK(points == e.points);
    REQUIRE(!steps.empty());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      CHECK(steps[i].done == i);
      CHECK(steps[i].total == steps.back().total);
      if (i) CHECK(steps[i].work_done >= steps[i - 1].work_done);
    }
    CHECK(steps.back().done == steps.back().total);
    CHECK(steps.back().what == "done");
    CHECK(steps.back().work_done == doctest::Approx(steps.back().work_total));
  }
}

TEST_SUITE("explore") {
  TEST_CASE("sweep: refused points are skipped with their reasons, the rest measured and verified") {
    // wg 8192 is over every device's maximum here (PoCL: 4096), TIMES 2000 over the allowed
    // range, VEC 3 not an allowed width: each such point is skipped, the sweep goes on.
    // 64 work-items, or the largest both kernels allow where that is less (Rusticl: 32).
    const std::size_t w = std::min(test::test_wg("vector", 64), test::test_wg("naive", 64));
    const CliRun r = run_cli("sweep --variants vector,naive --n 1001 --wg " + std::to_string(w) +
                             ",8192 --times 2,2000 --vec 3,4 --iterations 2 --warmup 1 --format json");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.out.find("\r[") == std::string::npos);  // no progress bar into a pipe
    const auto j = json_of(r);
    CHECK(j["all_ok"] == true);
    CHECK(j["grid"]["wg"] == nlohmann::json{w, 8192});
    std::map<std::string, int> reasons;
    for (const auto& v : j["variants"]) {
      int measured = 0;
      for (const auto& p : v["points"]) {
        if (p.contains("skipped")) {
          const std::string why = p["skipped"];
          CHECK(p["status"] == "skipped");
          if (why.find("work-group size 8192 is over the device maximum") != std::string::npos) ++reasons["wg"];
          else if (why.find("TIMES 2000 is outside the allowed range") != std::string::npos) ++reasons["times"];
          else if (why.find("VEC 3 is not an allowed vector width") != std::string::npos) ++reasons["vec"];
          else FAIL("unexpected reason: " << why);
        } else {
          REQUIRE(p.contains("result"));
          CHECK(p["result"]["check"]["ok"] == true);
          CHECK(p["result"]["n"] == 1001);
          ++measured;
        }
      }
      CHECK(v["measured"] == measured);
      CHECK(v.contains("best"));
    }
    CHECK(reasons["wg"] > 0);
    CHECK(reasons["times"] > 0);
    CHECK(reasons["vec"] > 0);
    // vector: default + 2 wg x 2 vec x 2 times; only (w, 4, 2) is valid of the grid.
    CHECK(j["variants"][0]["points"].size() == 9);
    CHECK(j["variants"][0]["measured"] == 2);

    const CliRun t = run_cli("sweep --variants naive --n 100 --wg 16,32 --iterations 2 --warmup 1");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    CHECK(t.out.find("best point per variant") != std::string::npos);
    CHECK(t.out.find("<- best") != std::string::npos);
    CHECK(t.out.find("gain over default") != std::string::npos);

    const CliRun csv = run_cli("sweep --variants stride_local --n 3000 --wg 32 --times 1,3 "
                            "--groups-per-cu 2 --iterations 2 --warmup 1 --format csv");
    REQUIRE_MESSAGE(csv.code == 0, csv.out);
    CHECK(std::count(csv.stdout_text.begin(), csv.stdout_text.end(), '\n') == 1 + 4);  // header, default, 3 points
    CHECK(csv.stdout_text.rfind("n,type,op,variant,default,wg,times,groups_per_cu,vec", 0) == 0);
  }

  TEST_CASE("% of peak above 100 is marked and explained in every printer, flagged in JSON") {
    // One measured run, printed against a peak below every variant's rate (as PoCL's can be) and
    // against one above it: the first marks its cells and explains, the second does neither.
    Design d;
    d.variants = {"naive", "vector"};
    GridAxes axes;
    axes.wg = {32};
    d.points = grid_points(axes);
    d.timing = test::quick_timing(0, 1);
    d.tuning.enabled = false;
    const HostData data = generate_data(ElemType::Uint, 4096, DataKind::Random, test::seed());
    d.input = &data;
    clreduce::Run run = measure(test::session(), d);
    REQUIRE(run.sizes.size() == 1);
    REQUIRE(run.all_ok());
    const DeviceInfo& dev = test::session().device();
    for (const bool low : {true, false}) {
      run.sizes.front().peak.gbps = low ? 1e-9 : 1e9;
      INFO("peak " << (low ? "below" : "above") << " every variant");
      const std::string note = "above 100% of the read peak";
      const std::string texts[] = {bench_text(run, dev), sizes_text(run, dev),
                                   grid_sweep_text(run, grid_defaults(axes, dev), dev)};
      for (const std::string& t : texts) {
        INFO(t);
        CHECK((t.find(note) != std::string::npos) == low);
        CHECK((t.find("% *") != std::string::npos) == low);
      }
      const nlohmann::json bj = bench_json(run, dev), sj = sizes_json(run, dev),
                           gj = grid_sweep_json(run, grid_defaults(axes, dev), dev);
      for (const auto& row : bj["rows"]) CHECK(row["above_peak"] == low);
      for (const auto& row : sj["sizes"][0]["rows"]) CHECK(row["above_peak"] == low);
      std::size_t flagged = 0;
      for (const auto& v : gj["variants"])
        for (const auto& pt : v["points"])
          if (pt.contains("result")) {
            CHECK(pt["above_peak"] == low);
            ++flagged;
          }
      CHECK(flagged > 0);
    }
  }

  TEST_CASE("sweep: a kernel that fails to build fails its points and the sweep goes on") {
    const fs::path dir = test::copy_kernels("sweep-broken");
    test::replace_in_file(dir / "naive.cl", "__kernel", "this does not compile __kernel");
    const Session rt(test::session().device(), dir.string());
    Design d;
    d.variants = {"naive", "divergence_free"};
    GridAxes axes;
    axes.wg = {32};
    d.points = grid_points(axes);
    d.timing = test::quick_timing(0, 1);
    d.tuning.enabled = false;
    const HostData data = generate_data(ElemType::Uint, 777, DataKind::Random, test::seed());
    d.input = &data;
    const clreduce::Run run = measure(rt, d);
    REQUIRE(run.sizes.size() == 1);
    const SizeRun& s = run.sizes.front();
    REQUIRE(s.variants.size() == 2);
    CHECK(s.variants[0].failed() == 2);
    CHECK(s.variants[0].points[1].error.find("build") != std::string::npos);
    CHECK(s.variants[1].measured() == 2);
    CHECK(s.variants[1].best_point() != nullptr);
    CHECK_FALSE(run.all_ok());
    fs::remove_all(dir);
  }

  TEST_CASE("tune writes the database; reduce and bench use it and say so; options override it") {
    const fs::path dir = scratch("tune");
    const std::string db = (dir / "tuning.json").string();
    const std::size_t w = std::min(test::test_wg("vector", 64), test::test_wg("naive", 64));
    const CliRun t = run_cli("tune --db " + db + " --sizes 1000,5000 --variants vector,naive --wg " +
                             std::to_string(w / 2) + "," + std::to_string(w) + " --times 2,8 --vec 4 --iterations 2 --warmup 1");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    CHECK(t.out.find("tuning database " + db + " updated") != std::string::npos);
    CHECK(t.out.find("best variant overall: ") != std::string::npos);
    const auto entry = nlohmann::json::parse(read_file(db));
    const auto& e = entry["devices"][0]["entries"][0];
    CHECK(e["type"] == "uint");
    CHECK(e["sizes"] == nlohmann::json{1000, 5000});
    // vector's grid here never contains its default launch (wg 256, or 32 on Rusticl where w is
    // 32 and w/2 16: then (32, times 2 or 8, vec 4) differs from the default's TIMES 4), so a point can win; whether
    // one did is the measurement's call: check the database and reduce agree either way.
    const bool tuned = e["variants"].contains("vector");
    const CliRun red = run_cli("reduce --variant vector --n 3001 --format json --iterations 2 --db " + db);
    REQUIRE_MESSAGE(red.code == 0, red.out);
    const auto rj = json_of(red);
    CHECK(rj["check"]["ok"] == true);
    if (tuned) {
      const auto& v = e["variants"]["vector"];
      CHECK(rj["wg"] == v["wg"]);
      CHECK(rj["vec"] == v["vec"]);
      CHECK(rj["tuned"].size() >= 2);
      CHECK(rj["tuning_db"] == db);
    } else {
      CHECK(rj["tuned"].empty());
    }
    // A second tune of another operator keeps the first entry.
    const CliRun t2 = run_cli("tune --db " + db + " --op max --sizes 1000 --variants naive --wg 32 --iterations 1 --warmup 0");
    REQUIRE_MESSAGE(t2.code == 0, t2.out);
    CHECK(nlohmann::json::parse(read_file(db))["devices"][0]["entries"].size() == 2);
    // A grid point that launches exactly as the default does is the default: nothing is tuned.
    const std::string default_wg = std::to_string(test::test_wg("naive", 256));  // 256, Rusticl 32
    const CliRun same = run_cli("tune --dry-run --sizes 1000,3000 --variants naive --wg " + default_wg +
                                " --iterations 1 --warmup 0");
    REQUIRE_MESSAGE(same.code == 0, same.out);
    CHECK(same.out.find("naive: the default launch is kept: the best grid point (wg " + default_wg +
                        ") launches exactly as it does") != std::string::npos);
    // --dry-run writes nothing.
    const std::string other = (dir / "other.json").string();
    CHECK(run_cli("tune --dry-run --db " + other + " --sizes 100 --variants naive --wg 32 --iterations 1").code == 0);
    CHECK_FALSE(fs::exists(other));
    fs::remove_all(dir);
  }

  TEST_CASE("a malformed, stale or foreign tuning database: one warning, the defaults, no crash") {
    const fs::path dir = scratch("baddb");
    const DeviceInfo& d = test::session().device();  // the device under test (CLREDUCE_DEVICE)
    const std::string platform = d.platform_name, name = d.name, driver = d.driver_version;
    // naive's default work-group size here (256, or the largest its kernel allows: Rusticl 32),
    // a tuned one below it, and one an option gives below that.
    const std::size_t default_wg = test::test_wg("naive", 256);
    const std::size_t tuned_wg = 16, given_wg = 8;
    auto db_with = [&](const std::string& device, const std::string& drv) {
      nlohmann::json j{{"format", "clreduce-tuning-db"}, {"version", 1},
                       {"devices", {{{"platform", platform}, {"device", device}, {"driver", drv},
                                     {"entries", {{{"type", "uint"}, {"op", "sum"}, {"date", "x"},
                                                   {"sizes", {1000}}, {"best_variant", "naive"},
                                                   {"variants", {{"naive", {{"wg", tuned_wg}, {"measurements", nlohmann::json::array()},
                                                                            {"gain_over_default", 1.0}}}}}}}}}}}};
      return j.dump();
    };
    const std::map<std::string, std::pair<std::string, std::string>> cases{
        {"malformed", {"{\"format\": \"clreduce-tuning-db\", \"version\": 1, \"devices\": [", "is malformed"}},
        {"wrong-kind", {"[1, 2, 3]", "is malformed"}},
        {"stale", {db_with(name, driver + "-older"), "this device runs driver"}},
        {"foreign", {db_with("Some Other Device", driver), "has no entry for"}},
    };
    for (const auto& item : cases) {  // (clang: no structured bindings inside INFO's lambda)
      const std::string& tag = item.first;
      const auto& c = item.second;
      const fs::path file = dir / (tag + ".json");
      std::ofstream(file) << c.first;
      const CliRun r = run_cli("reduce --variant naive --n 1000 --format json --iterations 1 --db " + file.string());
      INFO(tag << ": " << r.out);
      CHECK(r.code == 0);
      // The warning is the first thing on stderr (stdout and stderr are two pipes, so their
      // interleaving in r.out depends on when each is read).
      CHECK(r.stderr_text.rfind("clreduce: warning: tuning database '" + file.string() + "'", 0) == 0);
      CHECK(r.out.find(c.second) != std::string::npos);
      CHECK(json_of(r)["tuned"].empty());
      CHECK(json_of(r)["wg"] == default_wg);
    }
    // The matching entry is used (the same file shape, this device's driver), and said so.
    const std::string good = (dir / "good.json").string();
    std::ofstream(good) << db_with(name, driver);
    const CliRun used = run_cli("reduce --variant naive --n 1000 --format json --iterations 1 --db " + good);
    CHECK(used.out.find("clreduce: warning") == std::string::npos);
    CHECK(json_of(used)["wg"] == tuned_wg);
    CHECK(json_of(used)["tuned"] == nlohmann::json{"wg=16"});
    CHECK(json_of(used)["tuning_db"] == good);
    CHECK(run_cli("reduce --variant naive --n 1000 --iterations 1 --db " + good).out.find("tuned      wg=16 from the tuning database " + good) != std::string::npos);
    const CliRun bench = run_cli("bench --variants naive,divergence_free --n 1000 --iterations 1 --db " + good);
    REQUIRE_MESSAGE(bench.code == 0, bench.out);
    CHECK(bench.out.find("tuned parameters from " + good + ": naive (wg=16)") != std::string::npos);
    // An option given wins over the tuned value; --no-tuning gives the built-in defaults; the
    // environment variable names the database as --db does.
    CHECK(json_of(run_cli("reduce --variant naive --n 1000 --format json --iterations 1 --wg " + std::to_string(given_wg) +
                          " --db " + good))["wg"] == given_wg);
    CHECK(json_of(run_cli("reduce --variant naive --n 1000 --format json --iterations 1 --no-tuning",
                          "CLREDUCE_TUNING_DB=" + good))["wg"] == default_wg);
    CHECK(json_of(run_cli("reduce --variant naive --n 1000 --format json --iterations 1",
                          "CLREDUCE_TUNING_DB=" + good))["wg"] == tuned_wg);
    CHECK(run_cli("reduce --variant naive --n 10 --no-tuning --db " + good).out.find("contradict") != std::string::npos);
    // A tuned value that does not plan here (wg over the device maximum): a warning, the defaults.
    std::string huge = db_with(name, driver);
    huge.replace(huge.find("\"wg\":16"), 7, "\"wg\":65536");
    std::ofstream(dir / "huge.json") << huge;
    const CliRun refused = run_cli("reduce --variant naive --n 1000 --format json --iterations 1 --db " + (dir / "huge.json").string());
    CHECK(refused.code == 0);
    CHECK(refused.out.find("do not plan here") != std::string::npos);
    CHECK(json_of(refused)["wg"] == default_wg);
    // A missing file named explicitly warns; the default location missing is silent.
    const CliRun missing = run_cli("reduce --variant naive --n 10 --iterations 1 --db " + (dir / "none.json").string());
    CHECK(missing.code == 0);
    CHECK(missing.out.find("clreduce: warning") != std::string::npos);
    CHECK(run_cli("reduce --variant naive --n 10 --iterations 1").out.find("clreduce: warning") == std::string::npos);
    fs::remove_all(dir);
  }

  TEST_CASE("charts: bench, scaling and sweep write well-formed SVG with one mark per data point") {
    const fs::path dir = scratch("charts");
    const CliRun b = run_cli("bench --variants naive,divergence_free,vector --n 5000 --iterations 2 --format json --chart " +
                          (dir / "bench.svg").string());
    REQUIRE_MESSAGE(b.code == 0, b.out);
    const auto bj = json_of(b);
    const test::SvgDocument bs = test::parse_svg(read_file(dir / "bench.svg"));
    CHECK_MESSAGE(bs.ok, bs.error);
    CHECK(bs.root == "svg");
    CHECK(bs.marks() == 3);  // one bar per verified variant

    const std::size_t w = std::min(test::test_wg("vector", 64), test::test_wg("naive", 64));
    const CliRun s = run_cli("bench --sizes 1000,4000,16000 --variants naive,vector --wg " + std::to_string(w) +
                             " --iterations 2 --chart " + (dir / "scaling.svg").string());
    REQUIRE_MESSAGE(s.code == 0, s.out);
    const test::SvgDocument ss = test::parse_svg(read_file(dir / "scaling.svg"));
    CHECK_MESSAGE(ss.ok, ss.error);
    CHECK(ss.root == "svg");
    // Time panel: 2 variants x 3 sizes; GB/s panel: the same plus the read peak at 3 sizes.
    CHECK(ss.marks() == 6 + 6 + 3);

    const CliRun hw = run_cli("sweep --variants vector --n 5000 --wg " + std::to_string(w / 2) + "," + std::to_string(w) +
                              " --times 1,2,4 --vec 4 --iterations 2 --format json --chart " + (dir / "heat.svg").string() +
                              " --chart-x wg --chart-y times");
    REQUIRE_MESSAGE(hw.code == 0, hw.out);
    const test::SvgDocument ws = test::parse_svg(read_file(dir / "heat.svg"));
    CHECK_MESSAGE(ws.ok, ws.error);
    CHECK(ws.root == "svg");
    CHECK(ws.marks() == 6);  // 2 wg x 3 times cells, each measured
    const CliRun bad = run_cli("sweep --variants naive --n 100 --wg 32 --chart " + (dir / "x.svg").string() +
                            " --chart-x wg --chart-y vec");
    CHECK(bad.code == 2);
    CHECK(bad.out.find("no swept variant takes both wg and vec") != std::string::npos);
    CHECK(bad.out.find('\n') == bad.out.size() - 1);  // refused before measuring: one line
    CHECK(run_cli("sweep --n 100 --chart x.svg --chart-x times --chart-y groups-per-cu").out.find("two launch modes") !=
          std::string::npos);
    fs::remove_all(dir);
  }
}
