// The descriptor benchmark (benchmarks/descriptor_bench.hpp, `clreduce bench descriptors`).
//
// unit: the launch grid: the default launch first, then the axes' product in order, each point
// setting what its label says; every refusal names the axis and the valid names or values.
//
// descriptor_families: the command on the device under test: built-ins x types x families x a
// grid, every point verified (the JSON's rows, in the documented order, the bytes of both inputs
// of a dot product, the grid's value in the resolved launch), the CSV's header, a descriptor
// file, and the refusals, each one line before anything runs.
#include <doctest/doctest.h>

#include "benchmarks/descriptor_bench.hpp"
#include "clreduce/error.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace clreduce;
using namespace clreduce::test;

TEST_SUITE("unit") {
  TEST_CASE("descriptor bench: the launch grid is the default, then the axes' product in order") {
    using F = DescriptorJob::Family;
    const auto only = launch_grid({}, {F::Whole, F::Rows, F::Cols});
    REQUIRE(only.size() == 1);
    CHECK(only[0].label == "default");
    CHECK(only[0].defines.empty());
    CHECK_FALSE(only[0].chunks.has_value());

    const auto g = launch_grid({{"TILE_X", {32, 64}}, {"chunks", {4, 8, 16}}}, {F::Cols});
    REQUIRE(g.size() == 1 + 6);
    CHECK(g[0].label == "default");
    CHECK(g[1].label == "TILE_X=32 chunks=4");
    CHECK(g[3].label == "TILE_X=32 chunks=16");
    CHECK(g[6].label == "TILE_X=64 chunks=16");
    REQUIRE(g[6].defines.size() == 1);
    CHECK(g[6].defines[0].str() == "TILE_X=64");
    CHECK(g[6].chunks == std::optional<std::uint64_t>(16));

    const auto w = launch_grid({{"wg", {64, 128}}, {"ITEMS", {1}}}, {F::Whole, F::Rows, F::Cols});
    REQUIRE(w.size() == 3);
    CHECK(w[2].wg == std::optional<std::size_t>(128));
    CHECK(w[2].defines.at(0).str() == "ITEMS=1");

    const auto gpc = launch_grid({{"groups_per_cu", {4, 6}}}, {F::Whole});
    REQUIRE(gpc.size() == 3);
    CHECK(gpc[0].groups_per_cu == std::nullopt);
    CHECK(gpc[1].label == "groups_per_cu=4");
    CHECK(gpc[2].groups_per_cu == std::optional<unsigned>(6));
    CHECK(gpc[2].defines.empty());

    const auto refused = [](const std::vector<LaunchAxis>& axes, const std::vector<F>& families, const std::string& text) {
      try {
        launch_grid(axes, families);
        FAIL("accepted: " << text);
      } catch (const Error& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find(text) != std::string::npos);
      }
    };
    refused({{"TILE_X", {32}}}, {F::Rows, F::Cols},
            "TILE_X: not a parameter a caller sets in reduce_descriptor_lines.cl (rows); its parameters: WG_SIZE, "
            "ROW_WIDTH, ITEMS, VEC");
    refused({{"ALIGNED", {1}}}, {F::Whole}, "ALIGNED: not a parameter a caller sets");
    // The grid's own axes named as the family takes them (chunks is refused for the whole array).
    refused({{"SPAN", {16}}}, {F::Whole}, ", and groups_per_cu, wg");
    refused({{"SPAN", {16}}}, {F::Rows}, "(rows); its parameters: WG_SIZE, ROW_WIDTH, ITEMS, VEC");
    refused({{"BOGUS", {1}}}, {F::Rows}, ", and chunks, wg");
    refused({{"ITEMS", {3}}}, {F::Cols}, "ITEMS: 3 is not valid for reduce_descriptor_cols.cl; valid: 1, 2, 4, 8");
    refused({{"chunks", {2}}}, {F::Whole, F::Cols}, "the whole array is not cut into chunks");
    refused({{"chunks", {0}}}, {F::Cols}, "0 chunks");
    refused({{"groups_per_cu", {4}}}, {F::Whole, F::Rows}, "only the whole array's grid is sized in groups");
    refused({{"groups_per_cu", {0}}}, {F::Whole}, "0 groups per compute unit");
    refused({{"groups_per_cu", {1025}}}, {F::Whole}, "1025 groups per compute unit");
    refused({{"wg", {96}}}, {F::Cols}, "96 is not a power of two");
    refused({{"ITEMS", {1, 2, 1}}}, {F::Cols}, "names 1 twice");
    refused({{"ITEMS", {1}}, {"ITEMS", {2}}}, {F::Cols}, "ITEMS is given twice");
    refused({{"VEC", {}}}, {F::Cols}, "has no values");
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("bench descriptors: built-ins x types x families x a grid, each verified beside the read peak") {
    const CliRun j = run_cli(
        "bench descriptors --ops sum,dot --types f16,u8 --families whole,cols --shapes 33x17 --bytes 4096 "
        "--grid ITEMS=1 --iterations 2 --warmup 1 --quiet --format json");
    REQUIRE_MESSAGE(j.code == 0, j.out);
    const auto doc = nlohmann::json::parse(j.stdout_text);
    CHECK(doc["all_ok"] == true);
    const auto& rows = doc["rows"];
    // Types outermost, then families (whole, then each shape), then reductions, then launches.
    REQUIRE(rows.size() == 2 * 2 * 2 * 2);
    std::size_t k = 0;
    for (const std::string type : {"f16", "u8"})
      for (const std::string family : {"whole", "cols"})
        for (const std::string op : {"sum", "dot"})
          for (const std::string launch : {"default", "ITEMS=1"}) {
            const auto& row = rows[k++];
            INFO(row.dump());
            CHECK(row["reduction"] == op);
            CHECK(row["inputs"] == (op == "dot" ? type + " x " + type : type));
            CHECK(row["family"] == family);
            CHECK(row["launch"] == launch);
            CHECK(row["status"].get<std::string>().rfind("ok", 0) == 0);
            CHECK(row["check"]["ok"] == true);
            CHECK(row["pct_of_read_peak"].get<double>() > 0);
            const std::uint64_t elem = type == "f16" ? 2 : 1;
            const std::uint64_t n = family == "whole" ? 4096 / elem : 33 * 17;
            CHECK(row["n"] == (family == "whole" ? n : 17));
            CHECK(row["bytes_read"] == n * elem * (op == "dot" ? 2 : 1));
            if (family == "cols") CHECK(row["results"] == 17);
            if (launch == "ITEMS=1") {
              CHECK(row["resolved"]["items"] == 1);
              CHECK(row["resolved"]["options"].get<std::string>().find("-D ITEMS=1") != std::string::npos);
            }
          }

    // The whole array's groups per compute unit as a grid axis: the point's grid is the smaller one
    // (32 MiB: enough elements for 8 groups of 256 on each of an H100's 132 compute units).
    const CliRun g = run_cli("bench descriptors --ops sum --types f32 --families whole --bytes 33554432 "
                             "--grid groups_per_cu=1 --iterations 1 --warmup 0 --quiet --format json");
    REQUIRE_MESSAGE(g.code == 0, g.out);
    const auto gdoc = nlohmann::json::parse(g.stdout_text);
    REQUIRE(gdoc["rows"].size() == 2);
    CHECK(gdoc["rows"][1]["launch"] == "groups_per_cu=1");
    CHECK(gdoc["rows"][1]["check"]["ok"] == true);
    CHECK(gdoc["rows"][1]["resolved"]["groups"].get<std::uint64_t>() <
          gdoc["rows"][0]["resolved"]["groups"].get<std::uint64_t>());

    const CliRun c = run_cli("bench descriptors --ops argmax --families rows --shapes 5x7 --iterations 1 --quiet --format csv");
    REQUIRE_MESSAGE(c.code == 0, c.out);
    CHECK(c.stdout_text.rfind("reduction,inputs,accumulator,family,m,n,launch,resolved,options,private_bytes,depth,bytes_read,"
                              "median_us,min_us,max_us,single_call_median_us,GB_per_s,peak_GB_per_s,"
                              "pct_of_read_peak,check,reason\n",
                              0) == 0);
    CHECK(std::count(c.stdout_text.begin(), c.stdout_text.end(), '\n') == 2);
    CHECK(c.stdout_text.find("argmax,f32,") != std::string::npos);

    const CliRun f = run_cli("bench descriptors --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) +
                             "/examples/iamax.clh --families whole,rows --shapes 9x4 --bytes 1Ki "
                             "--iterations 1 --quiet --format json");
    REQUIRE_MESSAGE(f.code == 0, f.out);
    const auto fd = nlohmann::json::parse(f.stdout_text);
    REQUIRE(fd["rows"].size() == 2);
    for (const auto& row : fd["rows"]) {
      INFO(row.dump());
      CHECK(row["reduction"] == "iamax");
      CHECK(row["check"]["ok"] == true);
    }

    const auto refused = [](const std::string& args, const std::string& text) { expect_refused(args, text); };
    refused("bench descriptors --ops sum,bogus", "clreduce: error: --ops: unknown operator 'bogus'; valid operators: sum,");
    refused("bench descriptors --types f17", "clreduce: error: --types: unknown type 'f17'");
    refused("bench descriptors --families whole,diag", "--families: 'diag' is not a family; valid: whole, rows, cols");
    refused("bench descriptors --grid TILE_X=64", "--grid: launch grid axis TILE_X: not a parameter a caller sets in "
                                              "reduce_descriptor.cl (whole)");
    refused("bench descriptors --families cols --grid TILE_X=48", "TILE_X: 48 is not valid");
    refused("bench descriptors --families cols --grid TILE_X", "--grid 'TILE_X': expected NAME=V1,V2,...");
    refused("bench descriptors --families cols --bytes 1Mi", "--bytes sizes the whole array");
    refused("bench descriptors --families whole --shapes 4x4", "--shapes is for the rows and cols families");
    refused("bench descriptors --bytes 1Ti", "largest allocation");
    refused("bench descriptors --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/iamax.clh --ops sum",
            "leave out --ops");
    refused("bench descriptors --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/huber_loss.clh",
            "declares run-time scalars");
    refused("bench descriptors --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/product.clh",
            "is not a reduction descriptor");
    refused("bench descriptors --n 5", "--n is for `bench`");
    refused("bench descriptors --ops sum,,max", "--ops 'sum,,max': an empty item");
    refused("bench descriptors --types ,", "--types ',': an empty item");
    refused("bench descriptors --families rows --shapes 3x3,3x3", "--shapes names 3x3 twice");
    refused("bench descriptors --families rows --shapes 3x3,3X3", "--shapes names 3x3 twice");
    refused("bench descriptors --types f32,f64 --bytes 12", "--bytes 12 is not a whole number of f64 elements (8 bytes each)");
    // An accumulator a built-in does not take: that point refused with the reason, the others run.
    const CliRun acc = run_cli("bench descriptors --ops sum,min --accumulate f64 --families whole --bytes 1Ki "
                               "--iterations 1 --quiet --format json");
    REQUIRE_MESSAGE(acc.code == 0, acc.out);
    const auto ad = nlohmann::json::parse(acc.stdout_text);
    REQUIRE(ad["rows"].size() == 2);
    const auto& sum = ad["rows"][0];  // f64 where the device has it; else refused, naming fp64
    if (sum["status"] == "refused")
      CHECK(sum["refused"].get<std::string>().find("needs f64") != std::string::npos);
    else
      CHECK(sum["accumulator"] == "double");
    CHECK(ad["rows"][1]["status"] == "refused");
    CHECK(ad["rows"][1]["refused"].get<std::string>().find("min of f32 does not accumulate in f64") != std::string::npos);
  }
}

TEST_SUITE("cli") {
  TEST_CASE("the families' commands refuse a descriptor's type or built-in, naming where it runs") {
    for (const std::string& args : std::vector<std::string>{"bench --type f16", "bench --op var_pop", "bench axis --type bf16",
                                   "bench axis --op dot", "sweep --type i8", "sweep --op mean", "tune --type u64",
                                   "tune axis --op nanmax", "explain naive --type f64",
                                   "bench --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/iamax.clh",
                                   "bench axis --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/iamax.clh"}) {
      expect_refused(args, "runs on the reduction descriptor kernels: `clreduce reduce` runs it once, `clreduce "
                           "bench descriptors` measures it");
    }
    // Unknown everywhere: the plain message with the valid names.
    const CliRun u = run_cli("sweep --type f17");
    CHECK(u.stderr_text.find("unknown type 'f17'; valid types: uint, int, float, double") != std::string::npos);
  }
}

TEST_SUITE("descriptor_families") {
  TEST_CASE("edge data: sums past f32's range, constant extremes, 64-bit integers' variances are verified") {
    // A trial found these failing their own checks: f32 sums of FLT_MAX overflow as numpy's and
    // torch's do (the check now accepts it where sum|x| passes the accumulator's range), the
    // variance of constant FLT_MAX data came out NaN (the vector lift's sum overflowed), and
    // Welford's d * d passed f32's range for i64 rows whose variance does not.
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"reduce --op mean --type f32 --data max --n 1000", "overflow to inf"},
        {"reduce --op sum --type f32 --data max --axis rows --shape 4x250", "within their bounds"},
        {"reduce --op var_pop --type f32 --data max --n 1000", "ok: 0 against 0"},
        {"reduce --op var_pop --type f32 --data max --n 1000 --vec 4", "ok: 0 against 0"},
        {"reduce --op var_pop --type i64 --axis rows --shape 33x17", "all 33 results within their bounds"},
        {"reduce --op std_sample --type u64 --axis cols --shape 5x300", "all 300 results within their bounds"}};
    for (const auto& c : cases) {
      const std::string& args = c.first;
      const std::string& text = c.second;
      const CliRun r = run_cli(args + " --iterations 1");
      INFO(args << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stdout_text.find(text) != std::string::npos);
    }
  }
}
