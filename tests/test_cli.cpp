// The clreduce command line end to end: outputs a machine can parse, exit codes, and one clear
// line for each bad input.
#include <doctest/doctest.h>

#include "support.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {
using clreduce::test::CliRun;
using clreduce::test::run_cli;

void expect_error(const std::string& args, const std::string& message) {
  const CliRun r = run_cli(args);
  INFO("clreduce " << args << "\n" << r.out);
  CHECK(r.code == 2);
  CHECK(r.out.rfind("clreduce: error: ", 0) == 0);
  CHECK(r.out.find(message) != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);  // one line
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("a device-clock figure far below the host clock's is suspect") {
    using clreduce::device_time_suspect;
    CHECK_FALSE(device_time_suspect(95.0, 100.0, 20));     // close to the host clock
    CHECK_FALSE(device_time_suspect(20.0, 100.0, 20));     // a fifth: a driver may hold commands
    CHECK(device_time_suspect(9.0, 100.0, 20));            // under a tenth of a 2 ms batch
    CHECK(device_time_suspect(0.0, 100.0, 20));            // END == START
    CHECK_FALSE(device_time_suspect(0.0, 40.0, 20));       // the batch took under 1 ms: too short to judge
  }
}

TEST_SUITE("cli") {
  TEST_CASE("every timed output says which clock it used, and why where it is not the device's") {
    // PoCL's timer passes the start-up check, Rusticl's (END == START) does not: CI runs both.
    const clreduce::TimerCheck& timer = clreduce::test::session().timer();
    const CliRun j = run_cli("reduce --variant naive --n 100000 --iterations 3 --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.stdout_text);
    const CliRun t = run_cli("reduce --variant naive --n 100000 --iterations 3");
    REQUIRE_MESSAGE(t.code == 0, t.out);
    INFO(t.out);
    CHECK(doc.at("gbps").get<double>() > 0);
    if (timer.usable) {
      CHECK(doc.at("clock") == "device events");
      CHECK(t.stdout_text.find("HOST CLOCK") == std::string::npos);
    } else {
      MESSAGE("the device timer is not used here: " << timer.reason);
      CHECK(doc.at("clock") == "host clock");
      CHECK(doc.at("clock_note") == timer.reason);
      CHECK(t.stdout_text.find("clock:  HOST CLOCK around enqueue and wait, not the device's events: " + timer.reason) !=
            std::string::npos);
    }
  }

  TEST_CASE("bad input: one line naming the problem and the valid choices, exit code 2") {
    expect_error("reduce --variant nope --n 10", "unknown variant 'nope'; valid variants: naive,");
    expect_error("reduce --variant naive --n 1000 --wg 96", "work-group size 96 is not a power of two");
    expect_error("reduce --variant naive --n 1000 --wg 0", "work-group size 0 is invalid");
    expect_error("reduce --variant naive --n 0", "n must be at least 1");
    expect_error("reduce --variant naive --n 12x", "invalid size '12x'");
    expect_error("reduce --variant naive --n 2^40", "over 90% of the global memory");
    expect_error("bench --n 2^40", "over the largest single allocation");
    expect_error("reduce --variant naive --n 10 --type half",
                 "unknown type 'half'; valid types: u8, i8, u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64 (or NumPy's "
                 "names: uint8 .. float64, float16, bfloat16; or uint, int, float, double)");
    expect_error("reduce --variant naive --n 10 --op prod", "unknown operator 'prod'; valid operators: sum, sum_wrap, min, max");
    expect_error("reduce --variant naive --n 10 --op var_pop --type f16", "--variant naive is one of the families' kernels");
    expect_error("reduce --variant vector --n 10 --vec 3", "VEC 3 is not an allowed vector width; valid: 2, 4, 8, 16");
    expect_error("reduce --variant stride_global --n 10 --times 2000", "TIMES 2000 is outside the allowed range 1..1024");
    // The library names its parameter (TIMES); the command line puts its own option in front.
    expect_error("reduce --variant naive --n 10 --times 4", "error: --times: variant naive takes no TIMES");
    expect_error("reduce --variant naive --n 10 --vec 4", "error: --vec: variant naive takes no VEC");
    expect_error("reduce --variant stride_local --n 10 --groups-per-cu 0", "error: --groups-per-cu: groups per compute unit must be at least 1");
    expect_error("reduce --variant naive --n 10 -D 1BAD=2", "invalid -D definition '1BAD=2'");
    expect_error("reduce --variant naive --n 10 --format xml", "unknown format 'xml'; valid formats: table, csv, json");
    expect_error("--kernel-dir /nonexistent/dir reduce --variant naive --n 10",
                 "error: --kernel-dir: kernel directory '/nonexistent/dir' (given) does not exist");
    expect_error("--device no-such-device reduce --variant naive --n 10", "no device whose name contains 'no-such-device'");
    expect_error("reduce --variant naive --input /nonexistent.bin", "cannot read input file '/nonexistent.bin'");
    expect_error("bench --variants naive,bogus --n 100", "unknown variant 'bogus'");
  }

  TEST_CASE("reduce --format json: the result, the reference and the check") {
    const CliRun r = run_cli("reduce --variant stride_local --type float --op sum --n 2Ki --times 3 --format json");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["n"] == 2048);
    CHECK(j["times"] == 3);
    CHECK(j["check"]["ok"] == true);
    CHECK(j["time_us"]["median"].get<double>() > 0);
    CHECK(j["device"]["name"].is_string());
  }

  TEST_CASE("a failed check gives exit code 1 and says FAILED") {
    // ELEM_MAP doubles every element: the host reference does not, so the check must fail.
    const CliRun r = run_cli("reduce --variant naive --n 1000 --data ones -D 'ELEM_MAP(x)=((x)*2)'");
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK(r.out.find("result     2000") != std::string::npos);
    CHECK(r.out.find("FAILED") != std::string::npos);
  }

  TEST_CASE("--input reads the user's raw elements") {
    const auto path = std::filesystem::temp_directory_path() / "clreduce_cli_input.bin";
    {
      std::ofstream out(path, std::ios::binary);
      const std::int32_t xs[4] = {5, -7, 100, -1};
      out.write(reinterpret_cast<const char*>(xs), sizeof xs);
    }
    const CliRun r = run_cli("reduce --variant first_add --type int --op min --input " + path.string() + " --format csv");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(",-7,-7,ok") != std::string::npos);  // result, reference, check
    std::filesystem::remove(path);
  }

  TEST_CASE("bench: one row per registered variant, CSV and JSON, all verified") {
    const auto json_path = std::filesystem::temp_directory_path() / "clreduce_bench.json";
    const CliRun r = run_cli("bench --n 3001 --iterations 2 --warmup 1 --format csv --output-json " + json_path.string());
    REQUIRE_MESSAGE(r.code == 0, r.out);
    // The CSV on stdout (progress lines and warnings go to stderr).
    CHECK(r.stdout_text.rfind("variant,type,op,n,wg,times,vec,passes,min_us,median_us", 0) == 0);
    CHECK(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n') == 1 + static_cast<long>(clreduce::variants().size()));
    std::ifstream in(json_path);
    const auto j = nlohmann::json::parse(in);
    CHECK(j["rows"].size() == clreduce::variants().size());
    CHECK(j["all_ok"] == true);
    CHECK(j["peak_read"]["gbps"].get<double>() > 0);
    // The peak names its kernel (on a CPU the faster of the two access patterns); a CPU device
    // also has the host's std::reduce of the same data on as many threads as compute units.
    const std::string kernel = j["peak_read"]["kernel"];
    CHECK((kernel == "stream_read.cl: stream_read" || kernel == "stream_read.cl: stream_read_blocks"));
    if (!clreduce::test::session().device().is_gpu) {
      REQUIRE(j["host_reduce"].is_object());
      CHECK(j["host_reduce"]["gbps"].get<double>() > 0);
      CHECK(j["host_reduce"]["threads"] == j["device"]["compute_units"]);
    } else {
      CHECK(j["host_reduce"].is_null());
    }
    std::filesystem::remove(json_path);
  }

  TEST_CASE("bench --sizes: a row per (size, variant), the best configuration verified, both timings") {
    const auto json_path = std::filesystem::temp_directory_path() / "clreduce_sweep.json";
    const CliRun r = run_cli("bench --sizes 1000,2^12 --iterations 2 --warmup 1 --format csv --output-json " +
                          json_path.string());
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.stdout_text.rfind("n,type,op,variant,wg,groups,groups_per_cu,times,vec,passes,b2b_median_us", 0) == 0);
    const long variants = static_cast<long>(clreduce::variants().size());
    CHECK(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n') == 1 + 2 * variants);
    std::ifstream in(json_path);
    const auto j = nlohmann::json::parse(in);
    CHECK(j["all_ok"] == true);
    REQUIRE(j["sizes"].size() == 2);
    CHECK(j["sizes"][0]["n"] == 1000);
    CHECK(j["sizes"][1]["n"] == 4096);
    for (const auto& size : j["sizes"]) {
      CHECK(size["peak_read"]["gbps"].get<double>() > 0);
      CHECK(size["floor_us"].get<double>() > 0);
      REQUIRE(size["rows"].size() == clreduce::variants().size());
      for (const auto& row : size["rows"]) {
        INFO(row.dump());
        if (row["status"] == "skipped") {
          CHECK(row["skipped"].get<std::string>().find("needs") != std::string::npos);
          continue;
        }
        CHECK(row["status"] == "ok");
        CHECK(row["best"]["check"]["ok"] == true);
        CHECK(row["best"]["time_us"]["median"].get<double>() > 0);
        CHECK(row["best"]["single_call_us"]["median"].get<double>() > 0);
        CHECK(row["best"]["reference"] == row["best"]["result"]);  // uint sums are exact
        for (const auto& c : row["candidates"])
          if (c.contains("ok")) CHECK(c["ok"] == true);
      }
    }
    std::filesystem::remove(json_path);
    const CliRun table = run_cli("bench --sizes 2^10 --variants single_pass,vector --iterations 1 --warmup 1");
    INFO(table.out);
    CHECK(table.code == 0);
    CHECK(table.out.find("n = 2^10") != std::string::npos);
    CHECK(table.out.find("best b2b:") != std::string::npos);
    CHECK(table.out.find("best one call:") != std::string::npos);
    expect_error("bench --sizes 2^12 --times 4", "--sizes searches TIMES");
    expect_error("bench --sizes 2^12,12x", "invalid size '12x'");
    expect_error("bench --sizes 2^12 --n 100", "give either --sizes or --n");
  }

  TEST_CASE("devices lists the default device") {
    const CliRun r = run_cli("devices");
    CHECK(r.code == 0);
    CHECK(r.out.find("default device:") != std::string::npos);
    CHECK(r.out.find("lockstep width") != std::string::npos);
    const CliRun csv = run_cli("devices --format csv");
    CHECK(csv.code == 0);
    CHECK(csv.out.find("lockstep_width") != std::string::npos);
    const CliRun json = run_cli("devices --format json");
    REQUIRE(json.code == 0);
    CHECK(nlohmann::json::parse(json.out).at(0).contains("timer_resolution_ns"));
  }

  TEST_CASE("transpose: one verified run; bad input named") {
    const CliRun r = run_cli("transpose --variant local_tile_multi --shape 31x65 --tile 16 --rows 2 --type uint");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("check      ok: exact (2015 elements)") != std::string::npos);
    CHECK(r.out.find("-D TYPE_ID=0 -D TILE=16 -D ROWS=2") != std::string::npos);
    expect_error("transpose --variant nope", "unknown transpose variant 'nope'; valid transpose variants: naive,");
    expect_error("transpose --variant naive --shape 10by10", "shape '10by10' is not ROWSxCOLUMNS");
    expect_error("transpose --variant local_tile_multi --tile 8 --rows 3", "ROWS 3 does not divide TILE 8");
    expect_error("transpose --variant naive --tile 8", "error: --tile: transpose variant naive takes no TILE or ROWS");
    expect_error("transpose --variant local_tile --wg-x 8", "error: --wg-x: transpose variant local_tile sets its work-group from the tile (TILE x TILE): set TILE, not WG_X/WG_Y");
    expect_error("transpose --variant naive --wg-x 4096 --wg-y 4096",
                 "(CL_DEVICE_MAX_WORK_GROUP_SIZE)");
    expect_error("transpose --variant local_tile_padded --tile 4096 --type float",
                 "CL_DEVICE_LOCAL_MEM_SIZE");
    expect_error("transpose --variant naive --type half", "unknown type 'half'");
  }

  TEST_CASE("bench transpose: every variant at every shape beside the copy, all verified") {
    const CliRun r = run_cli("bench transpose --shapes 17x33,64x5 --iterations 2 --warmup 1 --format csv");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    CHECK(r.stdout_text.rfind("variant,type,m,n,wg,tile,rows,min_us,median_us,max_us,GB_per_s,copy_GB_per_s", 0) == 0);
    const long rows = 2 * static_cast<long>(clreduce::transpose_variants().size());
    CHECK(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n') == 1 + rows);
    long ok_rows = 0;
    for (std::size_t at = 0; (at = r.out.find(",ok\n", at)) != std::string::npos; ++at) ++ok_rows;
    CHECK(ok_rows == rows);
    CHECK(r.out.find("FAILED") == std::string::npos);
    const CliRun j = run_cli("bench transpose --shapes 9x7 --variants naive,register_tile4 --iterations 1 --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["all_ok"] == true);
    CHECK(doc["shapes"][0]["rows"].size() == 2);
    CHECK(doc["shapes"][0]["copy"]["gbps"].get<double>() > 0);
    CHECK(doc["shapes"][0]["rows"][1]["speedup_vs_naive"].get<double>() > 0);
    const CliRun t = run_cli("bench transpose --shapes 9x7 --iterations 1");
    CHECK(t.out.find("% of copy") != std::string::npos);
    CHECK(t.out.find("speedup vs naive") != std::string::npos);
    expect_error("bench transpose --variants naive,bogus --shapes 4x4", "unknown transpose variant 'bogus'");
    expect_error("bench --n 5 transpose --shapes 4x4", "option --n is for `bench`");
  }

  TEST_CASE("bench access: both patterns, verified, with their ratio") {
    const CliRun r = run_cli("bench access --n 100003 --iterations 2 --format json");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["all_ok"] == true);
    REQUIRE(j["rows"].size() == 2);
    CHECK(j["rows"][0]["pattern"] == "contiguous");
    CHECK(j["rows"][1]["pattern"] == "interleaved");
    CHECK(j["rows"][0]["value"] == j["reference"]);
    CHECK(j["interleaved_over_contiguous"].get<double>() > 0);
    const CliRun t = run_cli("bench access --n 1001 --iterations 1");
    CHECK(t.out.find("interleaved / contiguous:") != std::string::npos);
    expect_error("bench access --n 1000 --wg 48", "work-group size 48 is not a power of two");
  }

  TEST_CASE("bench --sizes takes ranges") {
    const CliRun r = run_cli("bench --sizes 1000..4000 --variants vector --format csv");
    INFO(r.out);
    REQUIRE(r.code == 0);
    for (const char* n : {"\n1000,", "\n2000,", "\n4000,"}) CHECK(r.out.find(n) != std::string::npos);
    CHECK(r.out.find("\n8000,") == std::string::npos);
    expect_error("bench --sizes 4000..1000", "the start is above the end");
  }

  TEST_CASE("doctor: the ICD files, each vendor library, the platforms and the event timer") {
    const CliRun ok = run_cli("doctor");
    INFO(ok.out);
    CHECK(ok.out.find("ok    vendor library loads") != std::string::npos);
    CHECK(ok.out.find("ok    QUEUED <= SUBMIT <= START <= END") != std::string::npos);
    if (clreduce::test::session().timer().usable) {
      CHECK(ok.code == 0);
      CHECK(ok.out.find("all checks passed") != std::string::npos);
      CHECK(ok.out.find("ok    device timer agrees with the host clock") != std::string::npos);
    } else {  // Rusticl's llvmpipe: the device's timer cannot time, and doctor must say so
      CHECK(ok.code == 1);
      CHECK(ok.out.find("FAIL  device timer agrees with the host clock") != std::string::npos);
    }

    namespace fs = std::filesystem;
    const fs::path empty = fs::temp_directory_path() / ("clreduce_doctor_empty_" + std::to_string(getpid()));
    fs::create_directories(empty);
    const CliRun none = run_cli("doctor", "OCL_ICD_VENDORS=" + empty.string() + " OCL_ICD_FILENAMES=");
    INFO(none.out);
    CHECK(none.code == 1);
    CHECK(none.out.find("FAIL  ICD vendor files: no .icd file in " + empty.string()) != std::string::npos);
    CHECK(none.out.find("FAIL  OpenCL platforms: no OpenCL platform found") != std::string::npos);

    const fs::path broken = fs::temp_directory_path() / ("clreduce_doctor_broken_" + std::to_string(getpid()));
    fs::create_directories(broken);
    std::ofstream(broken / "missing.icd") << "libclreduce-no-such-driver.so.1\n";
    const CliRun bad = run_cli("doctor", "OCL_ICD_VENDORS=" + broken.string() + " OCL_ICD_FILENAMES=");
    INFO(bad.out);
    CHECK(bad.code == 1);
    CHECK(bad.out.find("FAIL  vendor library loads: libclreduce-no-such-driver.so.1 (from " +
                       (broken / "missing.icd").string() + "): does not load: "
                       "libclreduce-no-such-driver.so.1: cannot open shared object file") != std::string::npos);
    fs::remove_all(empty);
    fs::remove_all(broken);
  }

  TEST_CASE("soak: a broken kernel is caught with a command line that reproduces it") {
    const auto dir = clreduce::test::copy_kernels("soak_broken");
    clreduce::test::replace_in_file(dir / "reduce_common.clh", "#define ELEM_MAP(x) (x)",
                                    "#define ELEM_MAP(x) ((x) + 1)");
    const CliRun r = run_cli("--kernel-dir " + dir.string() + " soak --seconds 30 --seed 5");
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK(r.out.find("seed 5") != std::string::npos);
    const auto at = r.out.find("reproduce: clreduce ");
    REQUIRE(at != std::string::npos);
    std::string line = r.out.substr(at + std::string("reproduce: clreduce ").size());
    line = line.substr(0, line.find('\n'));
    CHECK(line.find("--kernel-dir " + dir.string()) != std::string::npos);
    const CliRun again = run_cli(line);  // the reproduction fails the same way
    INFO(again.out);
    CHECK(again.code == 1);
    CHECK(again.out.find("FAILED") != std::string::npos);
    std::filesystem::remove_all(dir);
    const CliRun good = run_cli("soak --seconds 2 --seed 9");
    INFO(good.out);
    CHECK(good.code == 0);
    CHECK(good.out.find("no mismatch") != std::string::npos);
    expect_error("soak --seconds 0", "--seconds must be positive");
  }
}
