// `clreduce compare` and `clreduce report` on saved result files, and the measuring options of
// issue 17 end to end (cli suite): synthetic files with known sample sets give the expected
// verdicts and p-values (computed independently here); every saved file renders again
// identically through `report`; --cold runs and is labelled; noise-based stopping stays within
// its time bound; malformed or mismatched files and bad options give one clear line.
#include <doctest/doctest.h>

#include "support.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {
using clreduce::test::CliRun;
using clreduce::test::run_cli;
using nlohmann::json;
namespace fs = std::filesystem;

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("clreduce_cmp_" + std::to_string(getpid()) + "_" + name);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

void expect_error(const std::string& args, const std::string& message) {
  const CliRun r = run_cli(args);
  INFO("clreduce " << args << "\n" << r.out);
  CHECK(r.code == 2);
  CHECK(r.out.rfind("clreduce: error: ", 0) == 0);
  CHECK(r.out.find(message) != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
}

// The two-sided p-value of the Mann-Whitney U-test by the normal approximation with tie and
// continuity corrections, computed here by counting pairs (not by ranks, as the tool does).
double expected_p(const std::vector<double>& x, const std::vector<double>& y) {
  double u = 0;
  for (double a : x)
    for (double b : y) u += a > b ? 1 : a == b ? 0.5 : 0;
  const double n1 = static_cast<double>(x.size()), n2 = static_cast<double>(y.size()), n = n1 + n2;
  std::map<double, double> counts;
  for (double v : x) counts[v] += 1;
  for (double v : y) counts[v] += 1;
  double ties = 0;
  for (const auto& [v, t] : counts) ties += t * t * t - t;
  const double var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (var <= 0) return 1;
  const double z = std::max(0.0, std::fabs(u - n1 * n2 / 2) - 0.5) / std::sqrt(var);
  return std::erfc(z / std::sqrt(2.0));
}

// A saved bench file of one variant, measured once per process; the synthetic files replace its
// samples with known sets.
const json& template_run() {
  static const json j = [] {
    const CliRun r = run_cli("bench --n 3001 --variants naive --iterations 3 --warmup 1 --format json --quiet");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    return json::parse(r.stdout_text);
  }();
  return j;
}

fs::path with_samples(const std::string& name, const std::vector<double>& samples) {
  json j = template_run();
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  json& t = j["rows"][0]["time_us"];
  t["samples"] = samples;
  t["min"] = sorted.front();
  t["max"] = sorted.back();
  t["median"] = 0.5 * (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);  // even sizes here
  const fs::path p = temp(name);
  write(p, j.dump(2));
  return p;
}

// 20 samples around `centre`, spread over +-`noise` (a fraction) in a fixed scrambled order.
std::vector<double> samples(double centre, double noise, unsigned salt) {
  std::vector<double> out;
  for (unsigned i = 0; i < 20; ++i) {
    const double u = static_cast<double>((i * 7 + salt * 3) % 20) / 19.0 * 2 - 1;  // -1..1
    out.push_back(centre * (1 + noise * u));
  }
  return out;
}
}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("compare: equal, shifted by 5% with low noise, shifted by 5% with high noise") {
    const std::vector<double> base = samples(100, 0.002, 0);
    const std::vector<double> same = base;
    const std::vector<double> shifted = samples(105, 0.002, 1);
    const std::vector<double> noisy_old = samples(100, 0.30, 2);
    const std::vector<double> noisy_new = samples(105, 0.30, 5);
    const fs::path a = with_samples("base.json", base), b = with_samples("same.json", same),
                   c = with_samples("shifted.json", shifted), d = with_samples("noisy_old.json", noisy_old),
                   e = with_samples("noisy_new.json", noisy_new);
    struct Case {
      fs::path old_file, new_file;
      std::vector<double> x, y;
      std::string verdict;
    };
    for (const Case& k : {Case{a, b, base, same, "same"}, Case{a, c, base, shifted, "slower"},
                          Case{c, a, shifted, base, "faster"}, Case{d, e, noisy_old, noisy_new, "same"}}) {
      const CliRun r = run_cli("compare " + k.old_file.string() + " " + k.new_file.string() + " --format json");
      INFO(k.old_file << " vs " << k.new_file << "\n" << r.out);
      REQUIRE(r.code == 0);
      const json j = json::parse(r.stdout_text);
      REQUIRE(j["rows"].size() == 1);
      const json& row = j["rows"][0];
      CHECK(row["verdict"] == k.verdict);
      CHECK(row["p_value"].get<double>() == doctest::Approx(expected_p(k.x, k.y)).epsilon(1e-6));
      CHECK(row["old_samples"] == 20);
      CHECK(j["meta"]["version"].is_string());
    }
    // The figures, independently: identical sets p = 1; separated sets 20 vs 20 p ~ 6.7e-8.
    CHECK(expected_p(base, same) == doctest::Approx(1));
    CHECK(expected_p(base, shifted) < 1e-6);
    CHECK(expected_p(noisy_old, noisy_new) > 0.05);

    // --fail-on-regression: exit 1 only for a significant slowdown over the threshold.
    CHECK(run_cli("compare " + a.string() + " " + c.string() + " --fail-on-regression 3").code == 1);
    CHECK(run_cli("compare " + a.string() + " " + c.string() + " --fail-on-regression 10").code == 0);
    CHECK(run_cli("compare " + c.string() + " " + a.string() + " --fail-on-regression 0").code == 0);
    CHECK(run_cli("compare " + d.string() + " " + e.string() + " --fail-on-regression 0").code == 0);
    // A table for people: the verdict, the p-value; no colour into a pipe.
    const CliRun t = run_cli("compare " + a.string() + " " + c.string() + " --fail-on-regression 3");
    CHECK(t.stdout_text.find("slower 5.0%") != std::string::npos);
    CHECK(t.stdout_text.find("REGRESSION over 3.0%") != std::string::npos);
    CHECK(t.stdout_text.find("Mann-Whitney U") != std::string::npos);
    CHECK(t.stdout_text.find("\033[") == std::string::npos);
    // A stricter threshold turns the low-noise shift into "same" only where p is above it.
    const CliRun strict = run_cli("compare " + a.string() + " " + c.string() + " --alpha 1e-12 --format json");
    CHECK(json::parse(strict.stdout_text)["rows"][0]["verdict"] == "same");
    for (const fs::path& p : {a, b, c, d, e}) fs::remove(p);
  }

  TEST_CASE("compare and report: malformed, mismatched and old files give one clear line") {
    const fs::path good = with_samples("good.json", samples(100, 0.01, 0));
    const fs::path not_json = temp("not.json"), other = temp("other.json"), broken = temp("broken.json"),
                   old_file = temp("old.json"), floats = temp("floats.json");
    write(not_json, "{ this is not json");
    const CliRun reduce = run_cli("reduce --variant naive --n 1000 --iterations 2 --format json");
    REQUIRE(reduce.code == 0);
    // Another command's file from before the schema marker (version 1: none), and as written now.
    json other_doc = json::parse(reduce.stdout_text);
    REQUIRE(other_doc.contains("schema"));
    const fs::path other_marked = temp("other_marked.json");
    write(other_marked, other_doc.dump());
    other_doc.erase("schema");
    write(other, other_doc.dump());
    json j = template_run();
    j["rows"][0].erase("time_us");
    write(broken, j.dump());
    json o = template_run();
    o["rows"][0]["time_us"].erase("samples");
    write(old_file, o.dump());
    json f = template_run();
    f["type"] = "float";
    f["rows"][0]["type"] = "float";
    write(floats, f.dump());
    expect_error("compare " + good.string() + " " + not_json.string(), "not JSON");
    expect_error("report " + not_json.string(), "not JSON");
    expect_error("compare " + good.string() + " " + other.string(), "no field \"kind\"");
    expect_error("report " + other.string(), "written by `clreduce bench`");
    expect_error("compare " + good.string() + " " + other_marked.string(), "'clreduce.reduce' is a kind this command does not read");
    expect_error("report " + other_marked.string(), "one run's report of `clreduce reduce`, not a table");
    fs::remove(other_marked);
    expect_error("report " + broken.string(), "rows[0]: no field \"time_us\"");
    expect_error("compare " + good.string() + " " + old_file.string(), "keeps no raw samples");
    expect_error("compare " + good.string() + " " + floats.string(), "matches a row of");
    json failed = template_run();
    failed["rows"][0]["check"]["ok"] = false;
    const fs::path failed_file = temp("failed.json");
    write(failed_file, failed.dump());
    expect_error("compare " + good.string() + " " + failed_file.string(), "not compared: new uint sum n=3001 warm naive: FAILED check");
    fs::remove(failed_file);
    // Times a measured run cannot have: negative, out of order.
    json negative = template_run();
    negative["rows"][0]["time_us"]["samples"][1] = -3.5;
    json unordered = template_run();
    unordered["rows"][0]["time_us"]["min"] = 1e9;
    const fs::path negative_file = temp("negative.json"), unordered_file = temp("unordered.json");
    write(negative_file, negative.dump());
    write(unordered_file, unordered.dump());
    expect_error("report " + negative_file.string(),
                 "rows[0].time_us.samples[1]: is -3.5; a time in µs is finite and not negative");
    expect_error("compare " + good.string() + " " + negative_file.string(), "is -3.5; a time in µs is finite");
    expect_error("report " + unordered_file.string(), "rows[0].time_us: min, median and max are not in order");
    fs::remove(negative_file);
    fs::remove(unordered_file);
    // A bandwidth below zero, and a row that is neither measured, an error nor skipped (it would
    // print as a bare ERROR): the file was edited.
    json negative_rate = template_run();
    negative_rate["rows"][0]["gbps"] = -5.0;
    json bare = template_run();
    bare["rows"][0].erase("plan");
    const fs::path rate_file = temp("rate.json"), bare_file = temp("bare.json");
    write(rate_file, negative_rate.dump());
    write(bare_file, bare.dump());
    expect_error("report " + rate_file.string(), "rows[0].gbps: is -5; a bandwidth in GB/s is finite and not negative");
    expect_error("report " + bare_file.string(),
                 "rows[0]: neither a measured run (no field \"plan\"), an \"error\" nor \"skipped\"");
    fs::remove(rate_file);
    fs::remove(bare_file);
    // The same for a candidate of bench --sizes: measured (its report), refused, or an error.
    const CliRun sizes = run_cli("bench --sizes 2^10 --variants vector --iterations 1 --warmup 0 --format json --quiet");
    REQUIRE_MESSAGE(sizes.code == 0, sizes.out);
    json bare_candidate = json::parse(sizes.stdout_text);
    json& candidate = bare_candidate["sizes"][0]["rows"][0]["candidates"][0];
    for (const char* key : {"report", "config", "b2b_us", "single_us", "single_events_us", "ok"}) candidate.erase(key);
    const fs::path candidate_file = temp("candidate.json");
    write(candidate_file, bare_candidate.dump());
    expect_error("report " + candidate_file.string(),
                 "sizes[0].rows[0].candidates[0]: neither a measured candidate (no field \"report\"), \"refused\" nor an "
                 "\"error\"");
    fs::remove(candidate_file);
    // Counts that are no whole number in range (the fuzzer's 2e122 was a cast with undefined
    // behaviour; -1 would have been a huge unsigned count, 1.5 silently cut to 1).
    for (const auto& [field, bad, shown] : std::vector<std::tuple<std::string, json, std::string>>{
             {"n", 2.14748e+122, "2.14748e+122"}, {"n", -1, "-1"}, {"batch", 1.5, "1.5"},
             {"repetitions", 4294967296ull, "4294967296"}}) {
      json r = template_run();
      r["rows"][0][field] = bad;
      const fs::path count_file = temp("count.json");
      write(count_file, r.dump());
      expect_error("report " + count_file.string(), "rows[0]." + field + ": not a whole number from 0 to");
      expect_error("compare " + good.string() + " " + count_file.string(), "(" + shown + ")");
      fs::remove(count_file);
    }
    expect_error("compare " + good.string() + " /nonexistent/run.json", "/nonexistent/run.json: cannot be read");
    expect_error("compare " + good.string() + " " + good.string() + " --alpha 2", "--alpha 2.0000 is outside");
    expect_error("report " + good.string() + " --format xml", "unknown format 'xml'");
    expect_error("report " + good.string() + " --units MB", "unknown unit 'MB'; valid units: GB");
    for (const fs::path& p : {good, not_json, other, broken, old_file, floats}) fs::remove(p);
  }

  TEST_CASE("JSON: every document of the result model carries its schema marker") {
    const fs::path db = temp("marker_db.json");
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"bench --n 3001 --variants naive --iterations 2 --warmup 1 --quiet", "bench"},
        {"bench --sizes 1000 --variants naive --iterations 2 --warmup 1 --quiet", "bench_sizes"},
        {"sweep --variants naive --n 100 --wg 16,32 --iterations 1 --warmup 0", "sweep"},
        {"bench axis --shapes 64x8 --axis cols --variants cols_item --iterations 1", "bench_axis"},
        {"bench descriptors --ops sum --families whole --bytes 4096 --iterations 1 --quiet", "bench_descriptors"},
        {"bench transpose --shapes 9x7 --variants naive --iterations 1", "bench_transpose"},
        {"bench access --n 1001 --iterations 1", "bench_access"},
        {"tune --db " + db.string() + " --sizes 1000 --variants naive --wg 32 --iterations 1 --warmup 0", "tune"}};
    for (const auto& run : runs) {
      const std::string &args = run.first, &kind = run.second;  // INFO captures these (no bindings in C++17)
      const CliRun r = run_cli(args + " --format json");
      INFO(args << "\n" << r.out);
      REQUIRE(r.code == 0);
      const json j = json::parse(r.stdout_text);
      CHECK(j["schema"] == json{{"name", "clreduce." + kind}, {"version", 2}});
    }
    fs::remove(db);
  }

  TEST_CASE("JSON: one run's reports of reduce carry their marker too, and report says they are no table") {
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"reduce --n 1001 --variant naive --iterations 1", "reduce"},
        {"reduce --axis rows --shape 9x7 --iterations 1", "reduce_axis"},
        {"reduce --op var_pop --type f16 --n 1001 --iterations 1", "reduce_descriptor"},
        {"reduce --op sum --type f32 --axis cols --shape 9x7 --iterations 1", "reduce_descriptor"}};
    for (const auto& run : runs) {
      const std::string &args = run.first, &kind = run.second;  // INFO captures these (no bindings in C++17)
      const fs::path f = temp(kind + "_run.json");
      fs::remove(f);
      const CliRun r = run_cli(args + " --format json --output-json " + f.string());
      INFO(args << "\n" << r.out);
      REQUIRE(r.code == 0);
      CHECK(json::parse(r.stdout_text)["schema"] == json{{"name", "clreduce." + kind}, {"version", 2}});
      const CliRun rep = run_cli("report " + f.string());
      CHECK(rep.code == 2);
      CHECK(rep.out.find("one run's report of `clreduce reduce`, not a table") != std::string::npos);
      fs::remove(f);
    }
  }

  TEST_CASE("report: any saved table renders again as the command printed it; other schemas refused") {
    const fs::path db = temp("report_db.json");
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"descriptors", "bench descriptors --ops sum,argmax --families whole,rows --shapes 33x17 --bytes 4096 "
                        "--iterations 1 --quiet"},
        {"axis", "bench axis --shapes 17x33,64x8 --iterations 1 --warmup 0"},
        {"tune", "tune --db " + db.string() + " --sizes 1000,3000 --variants naive,vector --wg 32 --iterations 1 --warmup 0"},
        {"sweep", "sweep --variants naive --n 100 --wg 16,32 --iterations 1 --warmup 0"}};
    for (const auto& run : runs) {
      const std::string &name = run.first, &args = run.second;  // INFO captures these (no bindings in C++17)
      INFO(args);
      const fs::path jc = temp(name + "_csv.json"), jt = temp(name + "_table.json");
      fs::remove(db);
      const CliRun csv = run_cli(args + " --format csv --output-json " + jc.string());
      REQUIRE_MESSAGE(csv.code == 0, csv.out);
      fs::remove(db);
      const CliRun table = run_cli(args + " --output-json " + jt.string());
      REQUIRE_MESSAGE(table.code == 0, table.out);
      const CliRun rc = run_cli("report " + jc.string() + " --format csv");
      REQUIRE_MESSAGE(rc.code == 0, rc.out);
      CHECK(rc.stdout_text == csv.stdout_text);
      const CliRun rt = run_cli("report " + jt.string());
      REQUIRE_MESSAGE(rt.code == 0, rt.out);
      CHECK(rt.stdout_text == table.stdout_text);
      const CliRun rj = run_cli("report " + jc.string() + " --format json");
      REQUIRE_MESSAGE(rj.code == 0, rj.out);
      CHECK(rj.stdout_text == slurp(jc));
      const json saved = json::parse(slurp(jc));
      CHECK(saved["schema"]["version"] == 2);
      CHECK(saved["table"]["text"].is_array());
      // A newer version, an unknown name, a table without its marker, a broken table: one line each.
      const fs::path bad = temp(name + "_bad.json");
      json newer = saved;
      newer["schema"]["version"] = 3;
      write(bad, newer.dump());
      expect_error("report " + bad.string(), saved["schema"]["name"].get<std::string>() +
                   " version 3 is newer than this clreduce reads (version 2 at most)");
      json unknown = saved;
      unknown["schema"]["name"] = "clreduce.bogus";
      write(bad, unknown.dump());
      expect_error("report " + bad.string(), "schema 'clreduce.bogus' is not one this clreduce reads; valid schemas: "
                                             "clreduce.bench, clreduce.bench_sizes, clreduce.sweep");
      json unmarked = saved;
      unmarked.erase("schema");
      write(bad, unmarked.dump());
      expect_error("report " + bad.string(), "no \"schema\" marker");
      json broken = saved;
      broken["table"]["text"] = 7;
      write(bad, broken.dump());
      expect_error("report " + bad.string(), "table.text: not an array");
      expect_error("report " + jc.string() + " --chart " + temp("x.svg").string(), "--chart draws a bench or bench --sizes run");
      // The file is an input: never written over, with --force too.
      expect_error("report " + jc.string() + " --force --output-json " + jc.string(), jc.string());
      CHECK(slurp(jc) == rj.stdout_text);
      for (const fs::path& p : {jc, jt, bad}) fs::remove(p);
    }
    fs::remove(db);
    // A bench file from before the marker (version 1) still reports, as one with it.
    json old = template_run();
    REQUIRE(old.contains("schema"));
    const fs::path with = temp("with_marker.json"), without = temp("without_marker.json");
    write(with, old.dump());
    old.erase("schema");
    write(without, old.dump());
    const CliRun a = run_cli("report " + with.string() + " --format csv"), b = run_cli("report " + without.string() + " --format csv");
    CHECK(a.code == 0);
    CHECK(b.code == 0);
    CHECK(a.stdout_text == b.stdout_text);
    CHECK(run_cli("report " + without.string()).code == 0);
    // A file of another command from before the marker: no table to render, said so.
    const CliRun reduce = run_cli("reduce --variant naive --n 1000 --iterations 2 --format json");
    REQUIRE(reduce.code == 0);
    json reduce_doc = json::parse(reduce.stdout_text);
    reduce_doc.erase("schema");
    write(without, reduce_doc.dump());
    expect_error("report " + without.string(), "no \"schema\" marker and not a bench or bench --sizes run");
    for (const fs::path& p : {with, without}) fs::remove(p);
  }

  TEST_CASE("report: every saved file renders again as it was written (JSON, CSV, table)") {
    const fs::path bj = temp("bench.json"), bc = temp("bench.csv"), sj = temp("sizes.json"), sc = temp("sizes.csv");
    const CliRun bench = run_cli("bench --n 3001 --variants naive,vector,single_pass --iterations 3 --warmup 1 --quiet "
                                 "--output-json " + bj.string() + " --output-csv " + bc.string());
    REQUIRE_MESSAGE(bench.code == 0, bench.out);
    const CliRun sizes = run_cli("bench --sizes 1000,2^12 --variants naive,vector --iterations 2 --warmup 1 --quiet "
                                 "--cache warm,cold --output-json " + sj.string() + " --output-csv " + sc.string());
    REQUIRE_MESSAGE(sizes.code == 0, sizes.out);
    struct Saved {
      fs::path json_file, csv_file;
      std::string table;
    };
    for (const Saved& s : {Saved{bj, bc, bench.stdout_text}, Saved{sj, sc, sizes.stdout_text}}) {
      INFO(s.json_file);
      const CliRun rj = run_cli("report " + s.json_file.string() + " --format json");
      REQUIRE_MESSAGE(rj.code == 0, rj.out);
      CHECK(json::parse(rj.stdout_text) == json::parse(slurp(s.json_file)));
      const CliRun rc = run_cli("report " + s.json_file.string() + " --format csv");
      CHECK(rc.stdout_text == slurp(s.csv_file));
      const CliRun rt = run_cli("report " + s.json_file.string());
      CHECK(rt.stdout_text == s.table);
      // The meta the measurement wrote: version, commit, date, command line, device, kernels' hash.
      const json meta = json::parse(slurp(s.json_file))["meta"];
      CHECK(meta["version"].is_string());
      CHECK(!meta["git_commit"].get<std::string>().empty());
      CHECK(std::regex_match(meta["date"].get<std::string>(), std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
      CHECK(meta["command_line"].get<std::string>().find(" bench ") != std::string::npos);
      CHECK(meta["device"]["name"] == clreduce::test::session().device().name);
      CHECK(std::regex_match(meta["kernels_fnv1a64"].get<std::string>(), std::regex("[0-9a-f]{16}")));
    }
    // A --sizes file compared with itself: every (size, cache, variant) matched, all the same, p = 1.
    const CliRun self = run_cli("compare " + sj.string() + " " + sj.string() + " --format json");
    REQUIRE_MESSAGE(self.code == 0, self.out);
    const json cmp = json::parse(self.stdout_text);
    CHECK(cmp["rows"].size() == 8);  // 2 sizes x 2 caches x 2 variants
    for (const json& row : cmp["rows"]) {
      CHECK(row["verdict"] == "same");
      CHECK(row["p_value"] == 1.0);
    }
    // Charts from the saved file alone (one cache per chart).
    const fs::path svg = temp("chart.svg");
    CHECK(run_cli("report " + bj.string() + " --chart " + svg.string()).code == 0);
    CHECK(slurp(svg).find("<svg") != std::string::npos);
    const std::string chart_before = slurp(svg);
    expect_error("report " + sj.string() + " --chart " + svg.string(), "--chart: cannot write '" + svg.string() +
                 "': it exists");  // a new file, unless --force
    CHECK(slurp(svg) == chart_before);
    expect_error("report " + sj.string() + " --force --chart " + svg.string(), "--chart draws one cache");
    CHECK(slurp(svg) == chart_before);
    // GiB: the table's bandwidth column in the other unit; a run measured with --units GiB
    // renders in GiB again unless told otherwise.
    const CliRun gib = run_cli("report " + bj.string() + " --units GiB");
    CHECK(gib.stdout_text.find("GiB/s") != std::string::npos);
    const fs::path gj = temp("gib.json");
    const CliRun measured = run_cli("bench --n 3001 --variants naive --iterations 2 --warmup 1 --quiet --units GiB "
                                    "--output-json " + gj.string());
    REQUIRE_MESSAGE(measured.code == 0, measured.out);
    CHECK(measured.stdout_text.find("GiB/s") != std::string::npos);
    CHECK(run_cli("report " + gj.string()).stdout_text == measured.stdout_text);
    CHECK(run_cli("report " + gj.string() + " --units GB").stdout_text.find("GiB/s") == std::string::npos);
    fs::remove(gj);
    for (const fs::path& p : {bj, bc, sj, sc, svg}) fs::remove(p);
  }

  TEST_CASE("--cold: runs, and every output says cold or warm") {
    const CliRun j = run_cli("bench --n 3001 --variants naive,vector --cold --iterations 2 --warmup 1 --quiet --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const json doc = json::parse(j.stdout_text);
    CHECK(doc["cache"] == "cold");
    CHECK(doc["cache_note"].get<std::string>().find("before every sample") != std::string::npos);
    for (const json& row : doc["rows"]) {
      CHECK(row["cache"] == "cold");
      CHECK(row["batch"] == 1);  // one reduction per cold sample
    }
    const CliRun t = run_cli("bench --n 3001 --variants naive --cold --iterations 2 --warmup 1 --quiet");
    CHECK(t.stdout_text.find("cache:  COLD") != std::string::npos);
    const CliRun w = run_cli("bench --n 3001 --variants naive --iterations 2 --warmup 1 --quiet --format csv");
    CHECK(w.stdout_text.find(",warm,") != std::string::npos);
    const CliRun both = run_cli("bench --sizes 2^12 --variants naive --cache warm,cold --iterations 2 --warmup 1 --quiet --format json");
    REQUIRE_MESSAGE(both.code == 0, both.out);
    const json sizes = json::parse(both.stdout_text)["sizes"];
    REQUIRE(sizes.size() == 2);
    CHECK(sizes[0]["cache"] == "warm");
    CHECK(sizes[1]["cache"] == "cold");
    CHECK(sizes[1]["rows"][0]["best"]["cache"] == "cold");
  }

  TEST_CASE("--max-noise: sampling stops at --max-time, and a target not reached is reported") {
    const auto t0 = std::chrono::steady_clock::now();
    const CliRun r = run_cli("bench --n 3001 --variants naive,vector --iterations 2 --warmup 1 --quiet "
                             "--max-noise 0.0001 --max-time 0.5 --format json");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE_MESSAGE(r.code == 0, r.out);
    // Read peak (two kernels on a CPU), two launches: each at most 0.5 s of back-to-back
    // sampling, plus set-up and the one-call samples.
    CHECK(seconds < 30);
    const json doc = json::parse(r.stdout_text);
    CHECK(doc["noise_target_pct"] == 0.0001);
    for (const json& row : doc["rows"]) {
      CHECK(row["time_us"]["samples"].size() >= 2);
      CHECK(row["noise_target_pct"] == 0.0001);
      if (!row["noise_reached"].get<bool>()) CHECK(row["time_us"]["spread_pct"].get<double>() > 0.0001);
    }
    const CliRun t = run_cli("bench --n 3001 --variants naive --iterations 2 --warmup 1 --quiet --max-noise 0.0001 --max-time 0.2");
    CHECK(t.stdout_text.find("noise:  sampled until") != std::string::npos);
    if (t.stdout_text.find(" !") != std::string::npos)
      CHECK(t.stdout_text.find("noise target not reached") != std::string::npos);
  }

  TEST_CASE("issue 17's options refuse bad values before any device work") {
    expect_error("bench --n 1000 --max-noise 0", "--max-noise 0.000 is outside the valid range");
    expect_error("bench --n 1000 --max-noise 150", "at most 100 percent");
    expect_error("bench --n 1000 --max-time 2", "--max-time bounds the sampling of --max-noise");
    expect_error("bench --n 1000 --max-noise 1 --min-time 5 --max-time 2", "--min-time 5.000 s is above --max-time 2.000 s");
    expect_error("bench --n 1000 --max-noise 1 --batch 4", "give --max-noise without --batch");
    expect_error("bench --n 1000 --cache hot", "--cache: unknown cache 'hot'; valid: warm, cold, warm,cold");
    expect_error("bench --n 1000 --cold --cache warm", "--cold and --cache both choose the cache");
    expect_error("bench --n 1000 --cold --batch 8", "a cold sample is one reduction");
    expect_error("bench --n 1000 --cache warm,cold", "measures both with --sizes only");
    expect_error("bench --n 1000 --units MB", "unknown unit 'MB'; valid units: GB (10^9 bytes), GiB (2^30 bytes)");
    expect_error("bench --n 95%", "--n: '95%' is not a valid share of the device memory; valid: 0% < P <= 90%");
    expect_error("bench --n 0%", "not a valid share");
    expect_error("bench --n x%", "not a valid share");
    expect_error("compare", "OLD is required");
    // --n P%: that share of the device's global memory, in elements of --type.
    const CliRun pct = run_cli("reduce --variant naive --n 0.01% --iterations 1 --format json");
    REQUIRE_MESSAGE(pct.code == 0, pct.out);
    // Against the global memory the run itself read (its JSON's device): PoCL reports a share of
    // the host's free memory, which moves between this process's query and the CLI's.
    const json doc = json::parse(pct.stdout_text);
    const auto global = doc["device"]["global_mem_bytes"].get<double>();
    CHECK(global > 0);
    CHECK(doc["n"] == static_cast<std::uint64_t>(global * 0.01 / 100 / 4));
  }
}
