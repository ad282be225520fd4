// The command line against the faults of issue 14: inputs holding inf or NaN verified by IEEE's
// rules, output files checked before the run and every write checked, out-of-range numbers,
// misleading messages, -D overriding host-set parameters, contradicting options. Each case
// asserts the exit code and the message.
#include <doctest/doctest.h>

#include "clreduce/device.hpp"
#include "clreduce/kernel_spec.hpp"
#include "clreduce/watchdog.hpp"
#include "support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace {
using clreduce::test::CliRun;
using clreduce::test::run_cli;
using clreduce::test::run_cli_killed_after;

void expect_error(const std::string& args, const std::string& message) {
  const CliRun r = run_cli(args);
  INFO("clreduce " << args << "\n" << r.out);
  CHECK(r.code == 2);
  CHECK(r.out.rfind("clreduce: error: ", 0) == 0);
  CHECK(r.out.find(message) != std::string::npos);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);  // one line
}

// A raw little-endian float file in the temporary directory.
std::filesystem::path float_file(const std::string& name, const std::vector<float>& xs) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(xs.data()), static_cast<std::streamsize>(xs.size() * sizeof(float)));
  return path;
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (char ch : line.substr(0, line.find('\n'))) {
    if (ch == ',') out.emplace_back();
    else out.back() += ch;
  }
  return out;
}

// 5000 finite values in [-1, 1) with `special` at a few places.
std::vector<float> with_specials(const std::vector<float>& special) {
  std::vector<float> xs(5000);
  for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(static_cast<int>(i % 97) - 48) / 64.0f;
  for (std::size_t k = 0; k < special.size(); ++k) xs[(k * 1237 + 11) % xs.size()] = special[k];
  return xs;
}
}  // namespace

TEST_SUITE("cli") {
  TEST_CASE("inputs holding inf or NaN are verified by IEEE's rules, every variant, every operator") {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    struct Case {
      std::string name;
      std::vector<float> special;
      std::string sum, min, max;  // the expected result text of each operator
    };
    const std::vector<Case> cases{
        {"inf", {inf}, "inf", "-0.75", "inf"},
        {"neg_inf", {-inf}, "-inf", "-inf", "0.75"},
        {"both_inf", {inf, -inf}, "nan", "-inf", "inf"},
        {"nan", {nan}, "nan", "-0.75", "0.75"},
    };
    // Each (input, operator) pair is one item of a seeded sample where CLREDUCE_TEST_SAMPLE is set
    // (the sanitized stage: two processes a pair, 46 s of it under ASan); all of them otherwise.
    std::size_t item = 0;
    for (const auto& c : cases) {
      const auto path = float_file("clreduce_ieee_" + c.name + ".bin", with_specials(c.special));
      // (no structured binding: clang's C++17 cannot name one inside INFO's lambda)
      for (const auto& op_want : {std::pair<std::string, std::string>{"sum", c.sum}, {"min", c.min}, {"max", c.max}}) {
        if (!clreduce::test::in_shard(item++)) continue;
        const std::string& op = op_want.first;
        const std::string& want = op_want.second;
        const CliRun r = run_cli("bench --type float --op " + op + " --input " + path.string() +
                                 " --iterations 2 --warmup 0 --format csv");
        INFO(c.name << " " << op << "\n" << r.out);
        CHECK(r.code == 0);
        CHECK(r.out.find("MISMATCH") == std::string::npos);
        CHECK(r.out.find("race") == std::string::npos);
        // reduce prints the result itself
        const CliRun one = run_cli("reduce --type float --op " + op + " --input " + path.string() + " --format csv");
        INFO(one.out);
        CHECK(one.code == 0);
        // result, reference, check: the CSV's 16th to 18th fields of its second line
        const std::vector<std::string> f = csv_fields(one.out.substr(one.out.find('\n') + 1));
        REQUIRE(f.size() > 17);
        if (want == "nan") {  // any NaN (printed nan or -nan)
          CHECK(f[15].find("nan") != std::string::npos);
          CHECK(f[16].find("nan") != std::string::npos);
        } else {
          CHECK(f[15] == want);
          CHECK(f[16] == want);
        }
        CHECK(f[17] == "ok");
      }
      std::filesystem::remove(path);
    }
    // Every element NaN: min and max are NaN (fmin/fmax's identity pads the tiles).
    const auto all_nan = float_file("clreduce_ieee_all_nan.bin", std::vector<float>(1000, nan));
    for (const std::string op : {"min", "max", "sum"}) {
      const CliRun r = run_cli("bench --type float --op " + op + " --input " + all_nan.string() +
                               " --iterations 2 --warmup 0 --format csv");
      INFO(op << "\n" << r.out);
      CHECK(r.code == 0);
    }
    std::filesystem::remove(all_nan);
  }

  TEST_CASE("output files: '-' and devices refused before the run, one line naming the option") {
    // (A write that fails, and --force's over an existing file, under a file-size limit: the
    // unit suite, test_output_file.cpp; a process cannot limit its writes without its OpenCL
    // compiler's cache writes failing first.)
    namespace fs = std::filesystem;
    // "-" is not taken for standard output (nor written as a file named "-"): refused at once.
    expect_error("reduce --variant naive --n 1000 --output-json -",
                 "--output-json: cannot write '-': not standard output here (it would be a file named '-'); "
                 "--format json prints JSON to standard output; give ./- for a file of that name");
    expect_error("bench --sizes 1Ki..4Ki --output-csv -", "--output-csv: cannot write '-': not standard output here");
    expect_error("bench --variants naive --n 1000 --chart -", "--chart: cannot write '-': not standard output here");
    CHECK_FALSE(fs::exists("-"));
    // A device, FIFO or socket is not a file to write a document into: refused before the run.
    for (const std::string option : {"--output-json", "--output-csv", "--chart"})
      expect_error("bench --variants naive --n 1000 " + option + " /dev/full",
                   option + ": cannot write '/dev/full': it is not a regular file (a FIFO, socket or device)");
  }

  TEST_CASE("an output never replaces an input, nor an existing file without --force; --force keeps links and modes") {
    namespace fs = std::filesystem;
    const clreduce::test::ScratchDir scratch("hardening_outputs");
    const fs::path& dir = scratch.path;
    const auto p = [&](const std::string& name) { return (dir / name).string(); };
    {
      std::ofstream(p("d.bin"), std::ios::binary) << std::string(400, '\x01');  // 100 uints of 0x01010101
      std::ofstream(p("seg.txt")) << "0 40 100\n";
      std::ofstream(p("mine.json")) << "precious";
    }
    fs::permissions(p("mine.json"), fs::perms::owner_read | fs::perms::owner_write);
    fs::create_hard_link(p("d.bin"), p("hard.bin"));
    fs::create_symlink("d.bin", p("soft.bin"));
    const std::string data = clreduce::test::read_file(p("d.bin"));
    // The run's inputs, under their own names and through links, with and without --force.
    for (const std::string force : {"", " --force"})
      for (const std::string out : {"d.bin", "hard.bin", "soft.bin"}) {
        expect_error("reduce --type uint --input " + p("d.bin") + " --output-json " + p(out) + force,
                     "--output-json: cannot write '" + p(out) + "': it is --input " + p("d.bin") +
                         (out == "d.bin" ? "" : " (the same file)") + ": a run never writes over one of its inputs");
        expect_error("reduce --type uint --axis rows --shape 10x10 --input " + p("d.bin") + " --output-csv " + p(out) + force,
                     "it is --input " + p("d.bin"));
      }
    expect_error("reduce --type uint --segments " + p("seg.txt") + " --n 100 --force --output-csv " + p("seg.txt"),
                 "--output-csv: cannot write '" + p("seg.txt") + "': it is --segments " + p("seg.txt"));
    expect_error("reduce --op sum --type f32 --input " + p("d.bin") + " --force --output " + p("d.bin"),
                 "--output: cannot write '" + p("d.bin") + "': it is --input");
    expect_error("report " + p("mine.json") + " --force --output-json " + p("mine.json"),
                 "--output-json: cannot write '" + p("mine.json") + "': it is FILE " + p("mine.json"));
    // tune's database is written after the outputs: the same name is refused though it does not exist yet.
    expect_error("tune --sizes 1000 --db " + p("db.json") + " --output-json " + dir.string() + "/./db.json",
                 "it is --db " + p("db.json"));
    CHECK(clreduce::test::read_file(p("d.bin")) == data);
    CHECK(clreduce::test::read_file(p("seg.txt")) == "0 40 100\n");
    CHECK_FALSE(fs::exists(p("db.json")));
    // Two outputs of one run cannot be one file.
    expect_error("reduce --variant naive --n 1000 --output-json " + p("o") + " --output-csv " + dir.string() + "/./o",
                 "--output-csv: cannot write '" + dir.string() + "/./o': it is --output-json too");
    CHECK_FALSE(fs::exists(p("o")));
    // An existing file of the user's: refused before the run, its bytes and mode unchanged.
    expect_error("reduce --variant naive --n 1000 --output-json " + p("mine.json"),
                 "--output-json: cannot write '" + p("mine.json") + "': it exists; --output-json makes a new file and "
                 "replaces one only with --force: give another name, or --force");
    CHECK(clreduce::test::read_file(p("mine.json")) == "precious");
    CHECK(fs::status(p("mine.json")).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    // --force replaces it, keeping its mode.
    const CliRun forced = run_cli("reduce --variant naive --n 1000 --force --output-json " + p("mine.json"));
    REQUIRE_MESSAGE(forced.code == 0, forced.out);
    CHECK(clreduce::test::read_file(p("mine.json")).rfind("{", 0) == 0);
    CHECK(fs::status(p("mine.json")).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    // A link at the output path is replaced itself with --force; the file it pointed to is untouched.
    {
      std::ofstream(p("target.txt")) << "elsewhere";
    }
    fs::create_symlink("target.txt", p("link.csv"));
    expect_error("reduce --variant naive --n 1000 --output-csv " + p("link.csv"), "it exists");
    const CliRun through = run_cli("reduce --variant naive --n 1000 --force --output-csv " + p("link.csv"));
    REQUIRE_MESSAGE(through.code == 0, through.out);
    CHECK_FALSE(fs::is_symlink(p("link.csv")));
    CHECK(clreduce::test::read_file(p("target.txt")) == "elsewhere");
    CHECK(clreduce::test::read_file(p("link.csv")).find("naive") != std::string::npos);
    // Nothing but the files named here: no temporaries left beside them.
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    CHECK(names == std::set<std::string>{"d.bin", "hard.bin", "soft.bin", "seg.txt", "mine.json", "target.txt",
                                         "link.csv"});
  }

  TEST_CASE("tune never replaces a file that is not a tuning database, through --db, the variable or a link; refused before measuring") {
    namespace fs = std::filesystem;
    const clreduce::test::ScratchDir scratch("hardening_tune_db");
    const fs::path& dir = scratch.path;
    const std::string saved = (dir / "bench.json").string(), secret = (dir / "secret").string();
    const CliRun bench = run_cli("bench --variants naive --n 1000 --iterations 2 --warmup 0 --quiet --output-json " + saved);
    REQUIRE_MESSAGE(bench.code == 0, bench.out);
    {
      std::ofstream(secret) << "root:x:0:0:root:/root:/bin/bash\n";
    }
    fs::permissions(saved, fs::perms::owner_read | fs::perms::owner_write);
    fs::permissions(secret, fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink(secret, dir / "link.json");
    const std::string saved_bytes = clreduce::test::read_file(saved);
    const std::string reason = "the file there is not a clreduce tuning database (";
    // --sizes 2^26 on a CPU would measure for a while: the refusal comes before it, at once.
    const std::string tune = "tune --variants vector --sizes 2^26 --iterations 50";
    expect_error(tune + " --db " + saved, "cannot write tuning database '" + saved + "': " + reason);
    expect_error(tune + " --db " + (dir / "link.json").string(), reason);
    const CliRun by_env = run_cli(tune, "CLREDUCE_TUNING_DB=" + saved);
    CHECK(by_env.code == 2);
    CHECK_MESSAGE(by_env.stderr_text.find(reason) != std::string::npos, by_env.out);
    expect_error("tune axis --type float --op sum --shapes 8x8 --db " + saved, reason);
    CHECK(clreduce::test::read_file(saved) == saved_bytes);
    CHECK(clreduce::test::read_file(secret) == "root:x:0:0:root:/root:/bin/bash\n");
    for (const std::string& f : {saved, secret})
      CHECK(fs::status(f).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    // A named path's directory must exist (it is not made), and it is found before measuring.
    expect_error(tune + " --db " + (dir / "no" / "such" / "t.json").string(),
                 "its directory '" + (dir / "no" / "such").string() + "' does not exist");
    CHECK_FALSE(fs::exists(dir / "no"));
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    CHECK(names == std::set<std::string>{"bench.json", "secret", "link.json"});  // no .malformed, no .lock
  }

  TEST_CASE("input that crashed it: bytes not UTF-8 in JSON, a device index past 64 bits, hostile saved runs") {
    namespace fs = std::filesystem;
    const clreduce::test::ScratchDir scratch("hardening_crashes");
    const fs::path& dir = scratch.path;
    // A legal file name with a byte that is not UTF-8, as --input and as --output-json: valid
    // JSON on standard output and in the file, the byte shown as U+FFFD.
    const std::string bad_in = (dir / "bad\xff.bin").string(), bad_out = (dir / "out\xfe.json").string();
    {
      std::ofstream(bad_in, std::ios::binary) << "abcdefgh";
    }
    const CliRun r = run_cli("reduce --type u8 --input '" + bad_in + "' --format json --output-json '" + bad_out + "'");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    const nlohmann::json printed = nlohmann::json::parse(r.stdout_text);
    CHECK(printed.dump().find("bad\xef\xbf\xbd.bin") != std::string::npos);
    CHECK(nlohmann::json::parse(clreduce::test::read_file(bad_out)) == printed);
    // A device index of more digits than 64 bits hold, by option and by variable: the one line.
    expect_error("--device 99999999999999999999 reduce --n 10", "--device: no device with index 99999999999999999999");
    const CliRun env = run_cli("reduce --n 10", "CLREDUCE_DEVICE=99999999999999999999");
    CHECK(env.code == 2);
    CHECK_MESSAGE(env.stderr_text.find("no device with index 99999999999999999999") != std::string::npos, env.out);
    // Saved runs: a number past a double, 200000 nested arrays, a directory, a FIFO, a file over
    // the reader's limit: one line each from report and compare, never an abort, a stack overflow
    // or a hang.
    const std::string huge = (dir / "huge.json").string(), deep = (dir / "deep.json").string(),
                      fifo = (dir / "fifo.json").string(), large = (dir / "large.json").string();
    std::ofstream(huge) << "{\"kind\": \"bench\", \"n\": 1e400}";
    std::ofstream(deep) << std::string(200000, '[') << std::string(200000, ']');
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    {
      std::ofstream(large) << "{";
    }
    fs::resize_file(large, (64ull << 20) + 1);  // sparse: no 64 MiB written
    const std::vector<std::pair<std::string, std::string>> hostile{
        {huge, "not JSON ([json.exception.out_of_range.406] number overflow parsing '1e400')"},
        {deep, "JSON nested deeper than 32 levels"},
        {dir.string(), "is a directory"},
        {fifo, "is not a regular file (a FIFO, socket or device)"},
        {large, "is larger than 64 MiB"}};
    for (const auto& [file, why] : hostile) {
      for (const std::string& args : {"report " + file, "compare " + file + " " + huge}) {
        const CliRun h = run_cli_killed_after(20, args);
        INFO(args << "\n" << h.out);
        CHECK(h.code == 2);
        CHECK(h.stderr_text.rfind("clreduce: error: " + file + ": ", 0) == 0);
        CHECK(h.stderr_text.find(why) != std::string::npos);
        CHECK(std::count(h.stderr_text.begin(), h.stderr_text.end(), '\n') == 1);
      }
    }
  }

  TEST_CASE("untrusted files: memory bounded, sizes checked before a byte is loaded, FIFOs and devices refused, no silent trailing data") {
    namespace fs = std::filesystem;
    const clreduce::test::ScratchDir scratch("hardening_memory");
    const fs::path& dir = scratch.path;
    const auto p = [&](const std::string& name) { return (dir / name).string(); };
    // Sparse files: their sizes cost no disk and, read whole, far more memory than the bound below.
    const auto sparse = [&](const std::string& name, std::uintmax_t bytes, const std::string& head = "") {
      std::ofstream(p(name), std::ios::binary) << head;
      fs::resize_file(p(name), bytes);
      return p(name);
    };
    const std::string huge = sparse("huge.bin", std::uintmax_t(1) << 40);         // 1 TiB of zeros
    const std::string nuls = sparse("nuls.txt", std::uintmax_t(256) << 20, "0 ");  // one 256 MiB token
    REQUIRE(mkfifo(p("fifo").c_str(), 0600) == 0);
    // Memory, two ways. Measured: a refused run's peak resident memory stays within 64 MiB of a
    // whole run on a 4 KiB input, where the 1 TiB input or the 256 MiB line loaded whole would be
    // far above it. And limited: the runs under a 1 GiB address-space limit (ulimit -v), where a
    // whole run fits under it. It does not under AddressSanitizer (terabytes of shadow) or beside
    // NVIDIA's driver (PoCL's threads then fail to start: the H200, 2026-11-28).
    {
      std::ofstream(p("small.bin"), std::ios::binary) << std::string(4096, '\x01');
    }
    const std::string small_run = "reduce --type uint --input " + p("small.bin");
    const CliRun small = run_cli(small_run);
    REQUIRE(small.code == 0);
    REQUIRE(small.peak_rss_kib > 0);
    const long bound_kib = small.peak_rss_kib + 64 * 1024;
    MESSAGE("a whole run on 4 KiB peaked at " << small.peak_rss_kib << " KiB resident");
#if defined(__SANITIZE_ADDRESS__)
    std::string limit;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    std::string limit;
#else
    std::string limit = "sh -c 'ulimit -v 1048576; exec \"$0\" \"$@\"'";
#endif
#else
    std::string limit = "sh -c 'ulimit -v 1048576; exec \"$0\" \"$@\"'";
#endif
    if (!limit.empty()) {
      const CliRun limited = run_cli(small_run, limit);
      if (limited.code != 0) {
        MESSAGE("a whole run on 4 KiB fails under ulimit -v 1 GiB here (exit " << limited.code << ": "
                << limited.stderr_text.substr(0, limited.stderr_text.find('\n'))
                << "): the measured bound alone");
        limit.clear();
      }
    }
    const auto refused = [&](const std::string& args, const std::string& why) {
      const CliRun r = run_cli_killed_after(60, args);
      INFO("clreduce " << args << "\n" << r.out);
      CHECK(r.code == 2);
      CHECK(r.stderr_text.rfind("clreduce: error: ", 0) == 0);
      CHECK(r.stderr_text.find(why) != std::string::npos);
      CHECK(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n') == 1);
      CHECK(r.stderr_text.find("--n:") == std::string::npos);  // no --n was given
    };
    const auto refused_limited = [&](const std::string& args, const std::string& why) {
      const CliRun r = run_cli(args, limit);
      INFO("clreduce " << args << " (" << (limit.empty() ? "no limit" : limit) << "; peak " << r.peak_rss_kib
                       << " KiB resident)\n" << r.out);
      CHECK(r.code == 2);
      CHECK(r.stderr_text.find(why) != std::string::npos);
      CHECK(r.peak_rss_kib <= bound_kib);
    };
    // --input without --n: the file's count from its size, against the device, before loading it.
    for (const std::string type : {"uint", "f32"})
      refused_limited("reduce --type " + type + " --input " + huge, "--input " + huge);
    refused("reduce --op argmax --type uint --input " + huge, "--input " + huge + " holds 274877906944 elements");
    refused("reduce --op dot --type f32 --input " + huge + " --input " + huge, "--input " + huge + "'s 274877906944 elements");
    // Offsets: read as a stream (one 256 MiB token costs no more than a short one), FIFOs and devices refused.
    refused_limited("reduce --segments " + nuls + " --n 10", "is not an unsigned integer");
    refused("reduce --segments " + p("fifo") + " --n 10", "is not a regular file (a FIFO, socket or device)");
    refused("reduce --segments /dev/zero --n 10", "is not a regular file (a FIFO, socket or device)");
    refused("reduce --op-file " + p("fifo") + " --n 10", "not a regular file: a FIFO, socket or device");
    refused("reduce --op-file /dev/zero --n 10", "not a regular file: a FIFO, socket or device");
    // A matrix from a file: exactly its elements (or its rows all padded to --ld), on both paths.
    {
      std::ofstream(p("m65.bin"), std::ios::binary) << std::string(65 * 4, '\x01');
      std::ofstream(p("m64.bin"), std::ios::binary) << std::string(64 * 4, '\x01');
    }
    refused("reduce --type uint --axis rows --shape 8x8 --input " + p("m65.bin"),
            "holds 65 uint elements; --shape 8x8 is 64: give a file of exactly M x N elements");
    refused("reduce --type u32 --axis cols --shape 8x8 --input " + p("m65.bin"),
            "holds 65 elements of u32; --shape 8x8 is 64: give a file of exactly the matrix");
    refused("reduce --type u32 --axis rows --shape 8x8 --input " + p("m64.bin") + " --ld 9",
            "--shape 8x8 with --ld 9 is 71 (or 72 with the last row padded)");
    // --ld with the old type names goes the descriptor way too, never ignored: checked, refused.
    refused("reduce --type float --op sum --axis rows --shape 64x32 --ld 31",
            "--ld 31 is below the 32 columns: rows would overlap; give --ld >= N");
    refused("reduce --type float --op sum --n 100 --ld 40", "--ld is the rows' leading dimension of an axis reduction");
    // --ld 0 is no leading dimension (it ran dense before, silently); a shape past 2^64 elements is
    // refused as such, not with its count wrapped (99999999999 x 99999999999 read as 1.86e18).
    refused("reduce --type f32 --axis rows --shape 4x5 --ld 0", "--ld 0: the rows' leading dimension is at least N");
    refused("reduce --type f32 --axis rows --shape 99999999999x99999999999", "--shape 99999999999x99999999999: past 2^64 elements");
    refused("reduce --type f32 --axis cols --shape 4294967297x4294967297", "past 2^64 elements");
    refused("reduce --type f32 --axis rows --shape 3x5 --ld 9223372036854775807", "with --ld 9223372036854775807: past 2^64 elements");
    for (const std::string args : {"--type uint --axis rows --shape 8x8", "--type u32 --axis rows --shape 8x8",
                                   "--type u32 --axis rows --shape 8x7 --ld 8", "--type uint --axis rows --shape 8x7 --ld 8",
                                   "--type u32 --axis cols --shape 9x7 --ld 7"}) {
      const CliRun ok = run_cli("reduce " + args + " --iterations 1 --input " + p("m64.bin"));
      CHECK_MESSAGE((ok.code == 0) == (args.find("9x7") == std::string::npos), args << "\n" << ok.out);
    }
  }

  TEST_CASE("a successful build prints nothing, a kernel's warnings included; CLREDUCE_BUILD_LOG=1 shows the log, mapped") {
    namespace fs = std::filesystem;
    const fs::path dir = clreduce::test::copy_kernels("hardening_build_log");
    // A warning of the compiler's in a kernel, new text each run (so neither PoCL's cache nor an
    // earlier run's keeps the build from happening).
    const std::string token = "clreduce-warning-" + std::to_string(getpid()) + "-" +
                              std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    const auto warn_in_kernel = [&](const std::string& text) {
      const std::string old = clreduce::test::read_file(dir / "naive.cl");
      std::ofstream(dir / "naive.cl", std::ios::trunc) << "#warning \"" << text << "\"\n" << old.substr(old.find('\n') + 1);
    };
    {
      const std::string old = clreduce::test::read_file(dir / "naive.cl");
      std::ofstream(dir / "naive.cl", std::ios::trunc) << "\n" << old;  // line 1: the warning's place
    }
    warn_in_kernel(token + "-quiet");
    const CliRun quiet = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000 --iterations 1",
                                 "POCL_CACHE_DIR=" + (dir / "pocl-cache").string());
    INFO(quiet.out);
    CHECK(quiet.code == 0);
    CHECK(quiet.stderr_text.empty());
    warn_in_kernel(token + "-shown");
    // PoCL keeps a build's log only in a cache directory of its own (in its default one the log of
    // a successful build came back empty: PoCL 3.1); other implementations may leave warnings out
    // of it (Rusticl's did), so the log's text is checked on PoCL.
    const CliRun shown = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000 --iterations 1",
                                 "CLREDUCE_BUILD_LOG=1 POCL_CACHE_DIR=" + (dir / "pocl-cache").string());
    INFO(shown.out);
    CHECK(shown.code == 0);
    if (shown.stdout_text.find("Portable Computing Language") != std::string::npos) {
      CHECK(shown.stderr_text.find("clreduce: build log of '" + (dir / "naive.cl").string() + "'") != std::string::npos);
      CHECK(shown.stderr_text.find((dir / "naive.cl").string() + ":1:2") != std::string::npos);
      CHECK(shown.stderr_text.find(token + "-shown") != std::string::npos);
    }
    fs::remove_all(dir);
  }

  TEST_CASE("--quiet means the same on every benchmark: taken, and nothing on stderr") {
    for (const std::string args :
         {"bench --variants naive --n 1000 --iterations 1 --warmup 0", "bench axis --shapes 8x8 --iterations 1",
          "bench descriptors --ops sum --families whole --bytes 4096 --iterations 1",
          // Both paths of bench multi. The host-copied one crashed on Rusticl (Mesa 22.3, llvmpipe):
          // its finish returned before the chunk writes and value reads ran (run_host_part now waits
          // for each by its event).
          "bench multi --n 1000 --iterations 1 --warmup 0 --resident", "bench multi --n 1000000 --iterations 2",
          // sweep on one wg and one vec: its whole grid (353 points) was estimated at 46 s under the
          // sanitizers, and a run estimated over 30 s warns on stderr, --quiet or not (as it should).
          "bench multi --n 1000000 --iterations 2 --split even", "sweep --variants vector --n 1000 --iterations 1 --wg 64 --vec 4",
          "bench transpose --shapes 64x64 --iterations 1"}) {
      const CliRun r = run_cli(args + " --quiet");
      INFO(args << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stderr_text.empty());
    }
  }

  TEST_CASE("--trust-device-wg (or CLREDUCE_TRUST_DEVICE_WG=1): said once on stderr, the run checked as always") {
    const std::string warning = "clreduce: warning: --trust-device-wg: work-groups up to the device's "
                                "CL_DEVICE_MAX_WORK_GROUP_SIZE are launched where a kernel reports a smaller "
                                "CL_KERNEL_WORK_GROUP_SIZE; OpenCL does not promise such a launch runs right";
    const CliRun flag = run_cli("--trust-device-wg reduce --variant naive --n 1000 --iterations 1");
    INFO(flag.out);
    CHECK(flag.code == 0);
    CHECK(flag.stderr_text.rfind(warning, 0) == 0);
    CHECK(std::count(flag.stderr_text.begin(), flag.stderr_text.end(), '\n') == 1);
    CHECK(flag.stdout_text.find("check      ok") != std::string::npos);
    const CliRun env = run_cli("reduce --variant naive --n 1000 --iterations 1", "CLREDUCE_TRUST_DEVICE_WG=1");
    CHECK(env.code == 0);
    CHECK(env.stderr_text.find("clreduce: warning: CLREDUCE_TRUST_DEVICE_WG: work-groups up to") == 0);
    const CliRun off = run_cli("reduce --variant naive --n 1000 --iterations 1", "CLREDUCE_TRUST_DEVICE_WG=0");
    CHECK(off.code == 0);
    CHECK(off.stderr_text.empty());
  }

  TEST_CASE("output paths are checked before any measurement") {
    expect_error("reduce --variant naive --n 1000 --output-json /nonexistent-dir/r.json",
                 "--output-json: cannot write '/nonexistent-dir/r.json': directory '/nonexistent-dir': No such file or directory");
    expect_error("bench --n 1000 --output-csv /nonexistent-dir/r.csv",
                 "--output-csv: cannot write '/nonexistent-dir/r.csv': directory '/nonexistent-dir'");
    const std::string dir = std::filesystem::temp_directory_path().string();
    expect_error("bench --n 1000 --output-json " + dir, "--output-json: cannot write '" + dir + "': it is a directory");
    expect_error("bench --n 1000 --chart /nonexistent-dir/c.svg", "--chart: cannot write '/nonexistent-dir/c.svg'");
    expect_error("bench --sizes 1000,2000 --chart /nonexistent-dir/c.svg", "--chart: cannot write '/nonexistent-dir/c.svg'");
    expect_error("sweep --variants vector --n 1000 --chart /nonexistent-dir/h.svg", "--chart: cannot write '/nonexistent-dir/h.svg'");
    expect_error("tune --sizes 1000 --output-json /nonexistent-dir/t.json", "--output-json: cannot write '/nonexistent-dir/t.json'");
    expect_error("transpose --variant naive --shape 64x64 --output-csv /nonexistent-dir/t.csv", "--output-csv: cannot write '/nonexistent-dir/t.csv'");
    expect_error("bench access --output-csv /nonexistent-dir/a.csv", "--output-csv: cannot write '/nonexistent-dir/a.csv'");
    // A file under a regular file: its "directory" is not one.
    expect_error("reduce --variant naive --n 1000 --output-json /etc/passwd/x.json",
                 "--output-json: cannot write '/etc/passwd/x.json'");
  }

  TEST_CASE("negative and out-of-range numbers: the option and its valid range, never a wrapped value") {
    expect_error("reduce --variant naive --n 1000 --wg -1", "--wg: '-1' is negative; valid: a power of two");
    expect_error("--platform -1 reduce --variant naive --n 1000", "--platform: '-1' is negative; valid: a platform index");
    expect_error("reduce --variant naive --n 1000 --seed -1", "--seed: '-1' is negative; valid: 0..18446744073709551615");
    expect_error("reduce --variant stride_global --n 1000 --times -1", "--times: '-1' is negative; valid: 1..1024");
    expect_error("reduce --variant stride_global --n 1000 --times 99999999999",
                 "--times: '99999999999' is out of range; valid: 1..1024");
    expect_error("reduce --variant vector --n 1000 --vec -4", "--vec: '-4' is negative; valid: 2, 4, 8, 16");
    expect_error("reduce --variant stride_local --n 1000 --groups-per-cu -2", "--groups-per-cu: '-2' is negative");
    expect_error("bench --n 1000 --iterations -3", "--iterations: '-3' is negative; valid: 1..1000000 timed samples");
    expect_error("bench --n 1000 --iterations 2000000", "valid: 1..1000000 timed samples");
    expect_error("bench --n 1000 --warmup 5000000000", "--warmup: '5000000000' is out of range; valid: 0..1000000 warm-up runs");
    expect_error("bench --n 1000 --batch -1", "--batch: '-1' is negative");
    expect_error("reduce --variant naive --n 1000 --wg 1.5", "--wg: '1.5' is not a whole number");
    expect_error("soak --seconds 1 --seed -1", "--seed: '-1' is negative");
    expect_error("soak --seconds 1 --max-wg -1", "--max-wg: '-1' is negative");
    expect_error("bench access --groups -1", "--groups: '-1' is negative");
    expect_error("bench access --wg -8", "--wg: '-8' is negative");
    expect_error("transpose --variant local_tile --shape 64x64 --tile -1", "--tile: '-1' is negative");
    // n whose bytes pass 2^64: said so, not "(0 bytes)"
    expect_error("reduce --variant naive --n 2^63", "more than 2^64 bytes");
    expect_error("bench --n 2^63", "more than 2^64 bytes");
    // Other parse errors carry the prefix too, on one line.
    expect_error("reduce --variant naive --n 1000 --no-such-option", "--no-such-option");
  }

  TEST_CASE("messages say what is wrong: an unreadable kernel file, a file as --kernel-dir, a newline in -D") {
    namespace fs = std::filesystem;
    const fs::path dir = clreduce::test::copy_kernels("hardening_unreadable");
    // A link to itself: there, but the system refuses to open it (as permissions would, which
    // do not hold for root).
    fs::remove(dir / "naive.cl");
    fs::create_symlink("naive.cl", dir / "naive.cl");
    expect_error("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000",
                 "kernel file '" + (dir / "naive.cl").string() + "' cannot be read: Too many levels of symbolic links");
    // A directory where the file should be.
    fs::remove(dir / "naive.cl");
    fs::create_directory(dir / "naive.cl");
    expect_error("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000",
                 "kernel file '" + (dir / "naive.cl").string() + "' cannot be read: it is a directory, not a file");
    // Nothing there at all is still "not found".
    fs::remove(dir / "naive.cl");
    expect_error("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000",
                 "kernel file '" + (dir / "naive.cl").string() + "' not found");
    fs::remove_all(dir);
    // A regular file given as the kernel directory.
    expect_error("--kernel-dir /etc/passwd reduce --variant naive --n 1000",
                 "kernel directory '/etc/passwd' (given) is a regular file, not a directory");
    expect_error("--kernel-dir /etc/passwd/ reduce --variant naive --n 1000",
                 "kernel directory '/etc/passwd/' (given) is not a directory: '/etc/passwd' is a regular file, not a directory");
    expect_error("--kernel-dir /etc/passwd/kernels reduce --variant naive --n 1000",
                 "kernel directory '/etc/passwd/kernels' (given) is not a directory: '/etc/passwd' is a regular file");
    expect_error("--kernel-dir /nonexistent/dir reduce --variant naive --n 1000",
                 "kernel directory '/nonexistent/dir' (given) does not exist");
    // A newline inside -D's value: one line, the newline shown as \n.
    expect_error("reduce --variant naive --n 1000 -D \"A=1\n2\"", "invalid -D definition 'A=1\\n2'");
    expect_error("reduce --variant naive --n 1000 -D \"A\nB=1\"", "invalid -D definition 'A\\nB=1'");
  }

  TEST_CASE("a comma list with an empty item is refused, never taking the next option as its value") {
    // CLI11 drops empty items: `--sizes ,` took `--variants` as its value, `--sizes 1K,` ran 1K.
    expect_error("bench --sizes , --variants naive --estimate", "--sizes ',': an empty item; give a comma-separated list");
    expect_error("bench --variants , --sizes 1K --estimate", "--variants ',': an empty item");
    expect_error("bench --sizes 1K, --estimate", "--sizes '1K,': an empty item");
    expect_error("bench --sizes 1K,,2K --estimate", "--sizes '1K,,2K': an empty item");
    expect_error("bench transpose --shapes=,64x64", "--shapes ',64x64': an empty item");
    const CliRun ok = run_cli("bench --sizes 1K,2K --variants naive --estimate");
    INFO(ok.out);
    CHECK(ok.code == 0);
  }

  TEST_CASE("--shapes reads the same on every command: no shape twice (by value), none of no rows or columns") {
    // bench axis and bench transpose measured a repeated shape twice; bench transpose named a shape
    // of no rows as --shape; tune descriptors took 2^6x8 beside 64x8.
    for (const std::string run : {"bench axis --iterations 1", "bench descriptors --families rows --ops sum --types f32 --iterations 1",
                                  "bench transpose --iterations 1", "tune axis --dry-run",
                                  "tune descriptors --families rows --ops sum --types f32 --dry-run"}) {
      CAPTURE(run);
      expect_error(run + " --shapes 64x8,2^6x8", "--shapes names 64x8 twice");
      expect_error(run + " --shapes 64x8 --shapes 64x8", "--shapes names 64x8 twice");
      expect_error(run + " --shapes 0x8", "--shapes 0x8: a matrix needs at least one row and one column");
      expect_error(run + " --shapes 8x0", "--shapes 8x0: a matrix needs at least one row and one column");
      expect_error(run + " --shapes 8y8", "--shapes: shape '8y8' is not ROWSxCOLUMNS");
    }
  }

  TEST_CASE("-D of a macro the host sets is refused up front, naming the option to use") {
    // One run: a -D of a parameter a caller may set goes to the library, which plans it as its
    // option or refuses it for the chosen kernel; a derived one is refused up front.
    for (const char* run : {"reduce --variant naive --n 1000 -D WG_SIZE=16", "reduce --variant vector --n 1000 -D TIMES=4",
                            "reduce --variant vector --n 1000 -D VEC=8 -D TIMES=2"}) {
      const CliRun r = run_cli(std::string(run) + " --format json");
      INFO(run << "\n" << r.out);
      CHECK(r.code == 0);
    }
    expect_error("reduce --variant naive --n 1000 -D TYPE_ID=2", "-D TYPE_ID=2 would override TYPE_ID, which clreduce sets itself: use --type");
    expect_error("reduce --variant naive --n 1000 -D OP_ID=1", "use --op");
    expect_error("reduce --variant naive --n 1000 -D FIRST_PASS=0",
                 "which clreduce sets itself: the host sets it (1 for the first pass, 0 for the passes over partials)");
    expect_error("reduce --variant naive --n 1000 -D LOCKSTEP=32", "the host sets it (the device's reported lockstep width");
    expect_error("reduce --variant naive --n 1000 -D INPUT_ALIGNED=0", "would override INPUT_ALIGNED");
    // The library's refusals, each once prefixed: a value outside the valid ones, two values, a
    // variant that takes none (the default, contiguous_blocks, takes no TIMES).
    expect_error("reduce --variant vector --n 1000 -D VEC=3", "clreduce: error: -D VEC=3: VEC of vector.cl must be one of 2, 4, 8, 16");
    // A parameter the planner checks, given by -D rather than its option: the line names the -D.
    // (On a CPU device the default is rows_descriptor, whose planner words it its own way.)
    const clreduce::DeviceInfo& dev = clreduce::test::session().device();
    const std::string not_pow2 = !dev.is_gpu && !dev.loop_trip_limit
                                     ? "work-group size 3 for reduce_descriptor_lines.cl on " + dev.name +
                                           "; valid: a power of two up to"
                                     : std::string("work-group size 3 is not a power of two");
    expect_error("reduce --axis rows --shape 100x100 -D WG_SIZE=3", "clreduce: error: -D WG_SIZE=3: " + not_pow2);
    expect_error("reduce --axis rows --shape 100x100 --wg 3", "clreduce: error: --wg: " + not_pow2);
    expect_error("reduce --variant vector --n 1000 --wg 128 -D WG_SIZE=64",
                 "-D WG_SIZE=64 and the work-group size 128 both set WG_SIZE of vector.cl, to different values; give one");
    expect_error("reduce --variant naive --n 1000 -D TIMES=8", "-D TIMES=8: naive.cl takes no TIMES; kernels that do: stride_global.cl");
    // ... and a parameter only another family's kernels declare: the descriptor kernels take no
    // TIMES, the whole-array variants no ITEMS, the axis kernels no TIMES (each was ignored).
    expect_error("reduce --op mean --type f32 --n 1000 -D TIMES=8",
                 "-D TIMES=8: reduce_descriptor.cl takes no TIMES; kernels that do: stride_global.cl (whole_array)");
    expect_error("reduce --variant vector --n 1000 -D ITEMS=2",
                 "-D ITEMS=2: vector.cl takes no ITEMS; kernels that do: axis_rows_group.cl (axis)");
    expect_error("reduce --axis rows --shape 10x10 --variant rows_sliced -D TIMES=4",
                 "-D TIMES=4: axis_rows_sliced.cl takes no TIMES; kernels that do: stride_global.cl (whole_array)");
    expect_error("reduce --op sum --type f32 --axis cols --shape 10x10 -D TILE=8",
                 "-D TILE=8: reduce_descriptor_cols.cl takes no TILE; kernels that do: transpose_local_tile.cl (transpose)");
    // A name no kernel declares goes to the program only where its source names it (a kernel's own
    // macro such as ELEM_MAP, a user file's); else refused before the build, listing the program's
    // macros: the compiler would have ignored it (-D FOO=1 ran, ELEM_MAP changed nothing).
    expect_error("reduce --type f32 --n 100 -D FOO=1",
                 "clreduce: error: -D FOO=1: reduce_descriptor.cl (with its headers and any operator file) reads no macro FOO, "
                 "so it would be ignored; the macros it takes: WG_SIZE,");
    expect_error("reduce --type f32 --n 100 -D 'ELEM_MAP(x)=((x)*(x))'", "reads no macro ELEM_MAP");
    expect_error("reduce --variant naive --n 1000 -D FOO", "-D FOO: naive.cl (with its headers and any operator file) reads no macro FOO");
    expect_error("reduce --axis rows --shape 10x10 --variant rows_sliced -D FOO=2", "axis_rows_sliced.cl (with its headers");
    {
      const CliRun r = run_cli("reduce --variant naive --type uint --n 1000 -D 'ELEM_MAP(x)=((x)*2u)' --format json");
      INFO(r.out);
      CHECK(r.out.find("reads no macro") == std::string::npos);  // the classic kernels read ELEM_MAP
    }
    // One parameter given twice, two values: refused, naming both (not the last silently).
    expect_error("reduce --variant vector --n 1000 -D TIMES=4 -D TIMES=8",
                 "clreduce: error: -D TIMES=4 and -D TIMES=8 both set TIMES, to different values; give one");
    expect_error("reduce --axis rows --shape 100x64 --variant rows_sliced -D ITEMS=4 -D ITEMS=2", "both set ITEMS");
    expect_error("reduce --axis cols --shape 4096x16 --variant cols_stream_fused -D FUSED=0",
                 "the host sets it (each kernel's rule: clreduce variants --params --family axis)");
    // The tools that set the options themselves (a grid over them) refuse a -D of one, naming it.
    expect_error("bench --n 1000 -D WG_SIZE", "would override WG_SIZE");
    expect_error("bench --sizes 1000 -D TYPE_ID=1", "use --type");
    expect_error("sweep --variants vector --n 1000 -D VEC=4", "use --vec");
    expect_error("tune --sizes 1000 -D OP_ID=2", "use --op");
    expect_error("transpose --variant local_tile --shape 64x64 -D TILE=8", "use --tile");
    // Macros the host leaves to the user still pass (ELEM_MAP: see "a failed check gives exit code 1").
    const CliRun r = run_cli("reduce --variant single_pass --n 1000 -D SP_FINISH=0");
    INFO(r.out);
    CHECK(r.code == 0);
    // The refusals come from the kernels' tables (clreduce/kernel_spec.hpp): every parameter that
    // an option or the host sets, in every whole-array variant (bench) and transpose; for one
    // run, every parameter no kernel of the family lets a caller set (reduce, reduce --axis).
    std::set<std::string> seen;  // a name once per family: the CLI names the first table that declares it
    const auto settable = [](const std::string& family, const std::string& define) {
      for (const clreduce::KernelSpec* k : clreduce::kernel_specs())
        if (k->family == family)
          if (const clreduce::KernelParam* p = k->find(define); p && p->caller_may_set) return true;
      return false;
    };
    for (const clreduce::KernelSpec* k : clreduce::kernel_specs()) {
      if (k->family != "whole_array" && k->family != "transpose" && k->family != "axis") continue;
      for (const clreduce::KernelParam& p : k->params) {
        if (!seen.insert(k->family + " " + p.define).second) continue;
        // The rule, where every kernel of the family that derives it gives the same one.
        std::string rule = p.rule;
        for (const clreduce::KernelSpec* other : clreduce::kernel_specs())
          if (other->family == k->family)
            if (const clreduce::KernelParam* q = other->find(p.define); q && !q->caller_may_set && q->rule != p.rule)
              rule = "each kernel's rule: clreduce variants --params --family " + k->family;
        const std::string expected = p.option.empty() ? "the host sets it (" + rule + ")" : "use " + p.option;
        CAPTURE(k->kernel);
        CAPTURE(p.define);
        if (k->family == "axis") {
          if (!settable("axis", p.define))
            expect_error("reduce --axis rows --shape 8x8 -D " + p.define + "=1", expected);
          continue;
        }
        if (!p.caller_may_set || !p.option.empty())
          expect_error(std::string(k->family == "transpose" ? "transpose --variant naive --shape 64x64" : "bench --sizes 1000") +
                           " -D " + p.define + "=1",
                       expected);
        if (k->family == "whole_array" && !settable("whole_array", p.define))
          expect_error("reduce --n 1000 -D " + p.define + "=1", expected);
      }
    }
  }

  TEST_CASE("a descriptor run names the option at fault, and what the run is") {
    expect_error("reduce --type f32 --op var_pop --times 8 --n 100",
                 "clreduce: error: --times is for the uint/int/float/double variants (naive ... single_pass); the descriptor "
                 "kernels take no TIMES; this run reduces the whole array on the descriptor kernels");
    expect_error("reduce --type f32 --op var_pop --row-width 4 --axis cols --shape 10x10",
                 "--row-width is for rows (--axis rows) and segments (--segments); this run reduces columns (--axis cols)");
    // An option and a -D of the same parameter: one value, or one line (not an abort: the lines'
    // planner took the option and left the -D to options_for, which threw std::logic_error).
    expect_error("reduce --type f32 --op sum --axis rows --shape 100x100 --row-width 4 -D ROW_WIDTH=8",
                 "clreduce: error: -D ROW_WIDTH=8 and the row width 4 both set ROW_WIDTH of reduce_descriptor_lines.cl");
    expect_error("reduce --type f32 --op sum --axis rows --shape 100x100 --wg 16 -D WG_SIZE=8",
                 "clreduce: error: -D WG_SIZE=8 and the work-group size 16 both set WG_SIZE of reduce_descriptor_lines.cl");
    expect_error("reduce --type f32 --op sum --axis cols --shape 100x100 --vec 2 -D VEC=4",
                 "clreduce: error: -D VEC=4 and --vec 2 both set VEC, to different values; give one");
    const CliRun same = run_cli("reduce --type f32 --op sum --axis rows --shape 100x100 --row-width 4 -D ROW_WIDTH=4");
    INFO(same.out);
    CHECK(same.code == 0);
    expect_error("reduce --type f32 --op dot --n 100 --input /dev/null",
                 "clreduce: error: --input was given 1 time(s); dot reads 2 input(s)");
    const std::filesystem::path odd = std::filesystem::temp_directory_path() / ("clreduce-odd-" + std::to_string(getpid()) + ".bin");
    std::ofstream(odd, std::ios::binary) << "abcde";
    expect_error("reduce --type f32 --op sum --input " + odd.string(),
                 "clreduce: error: --input '" + odd.string() + "' holds 5 bytes, not a whole number of 4-byte f32 elements");
    std::filesystem::remove(odd);
  }

  TEST_CASE("a successful run prints nothing on stderr, its kernels built from cold (no compiler notes)") {
    // PoCL prints the count of a build's warnings ("2 warnings generated.") though the build
    // succeeded: clang's -Wpsabi note on 64-byte vectors (VEC 16) on a CPU without AVX-512.
    const std::filesystem::path cache =
        std::filesystem::temp_directory_path() / ("clreduce-test-pocl-cache-" + std::to_string(getpid()));
    for (const char* run : {"reduce --n 1000", "reduce --variant vector --vec 16 --n 1000",
                            "reduce --variant single_pass --vec 16 --n 1000", "reduce --type u8 --op sum -D VEC=16 --n 1000",
                            "reduce --axis cols --shape 1000x8 --type float"}) {
      std::filesystem::remove_all(cache);
      const CliRun r = run_cli(run, "POCL_CACHE_DIR=" + cache.string());
      INFO(run << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stderr_text.empty());
    }
    std::filesystem::remove_all(cache);
  }

  TEST_CASE("clreduce variants --params prints every declared parameter of every kernel") {
    const CliRun r = run_cli("variants --params");
    INFO(r.out);
    REQUIRE(r.code == 0);
    for (const clreduce::NamedKernelSpec& k : clreduce::named_kernel_specs())
      for (const clreduce::KernelParam& p : k.spec->params) {
        CAPTURE(k.name);
        CAPTURE(p.define);
        // Its row: the family, the registry entry's name, the kernel, the -D and its meaning.
        bool found = false;
        std::istringstream lines(r.out);
        for (std::string line; !found && std::getline(lines, line);) {
          const std::size_t name_at = line.find("| " + k.name + " ");
          found = line.rfind(k.spec->family + " ", 0) == 0 && name_at != std::string::npos &&
                  line.find("| " + k.spec->kernel + " ", name_at) != std::string::npos &&
                  line.find("| " + p.define + " ", name_at) != std::string::npos &&
                  line.find(p.meaning, name_at) != std::string::npos;
        }
        CHECK(found);
      }
    // Two registry entries of one kernel are two entries (rows_split and rows_split_fused).
    CHECK(r.out.find("| rows_split_fused ") != std::string::npos);
    CHECK(r.out.find("| rows_split ") != std::string::npos);
    // --family: that family's kernels only; an unknown one refused with the valid ones.
    const CliRun axis = run_cli("variants --params --family axis");
    REQUIRE(axis.code == 0);
    for (const clreduce::KernelSpec* k : clreduce::kernel_specs())
      CHECK((axis.out.find(" " + k->kernel + " ") != std::string::npos) == (k->family == "axis"));
    expect_error("variants --params --family nope",
                 "--family nope: no such kernel family; valid: whole_array, axis, lines, columns, whole, segments, transpose");
    expect_error("variants --family axis", "--family axis is for --params: add --params");
  }

  TEST_CASE("contradicting options are refused") {
    const auto path = float_file("clreduce_contradict.bin", std::vector<float>(100, 1.0f));
    expect_error("reduce --variant naive --type float --input " + path.string() + " --data ones",
                 "--data generates data, --input FILE reads the user's own: give one of them");
    expect_error("bench --type float --input " + path.string() + " --seed 7",
                 "--seed generates data, --input FILE reads the user's own: give one of them");
    std::filesystem::remove(path);
    expect_error("soak --seconds 1 --max-n 0", "--max-n 0 leaves no size to test; valid: 1 or more elements");
    expect_error("soak --seconds 1 --max-wg 0", "--max-wg 0 leaves no work-group size to test");
  }

  TEST_CASE("a build log points at the user's file and line, not into the inlined source") {
    namespace fs = std::filesystem;
    const fs::path dir = clreduce::test::copy_kernels("hardening_build_log");
    // Line 7 of naive.cl, which inlines reduce_common.clh at its line 4.
    clreduce::test::replace_in_file(dir / "naive.cl", "void reduce_naive(", "this_is_not_opencl planted_error; void reduce_naive(");
    CliRun r = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(r.out.find("build log:") != std::string::npos);
    CHECK(r.out.find((dir / "naive.cl").string() + ":7:") != std::string::npos);
    // An error inside the header names the header and its own line.
    fs::remove_all(dir);
    const fs::path dir2 = clreduce::test::copy_kernels("hardening_build_log_header");
    std::string header;
    {
      std::ifstream in(dir2 / "reduce_common.clh");
      header.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string anchor = "#define CLR_CAT_(a, b) a##b";
    const std::size_t at = header.find(anchor);
    REQUIRE(at != std::string::npos);
    const long line = 1 + std::count(header.begin(), header.begin() + static_cast<long>(at), '\n');
    clreduce::test::replace_in_file(dir2 / "reduce_common.clh", anchor, "this_is_not_opencl planted_error;  // an unknown type: an error for every compiler\n" + anchor);
    r = run_cli("--kernel-dir " + dir2.string() + " reduce --variant naive --n 1000");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(r.out.find((dir2 / "reduce_common.clh").string() + ":" + std::to_string(line) + ":") != std::string::npos);
    fs::remove_all(dir2);
  }

  TEST_CASE("a kernel that never finishes: the watchdog names it, its file and directory, and ends the run") {
    namespace fs = std::filesystem;
    // Mesa's llvmpipe ends every loop after 65535 iterations (DeviceInfo::loop_trip_limit): no
    // kernel runs forever there, and the runs below would end with a wrong sum instead.
    if (clreduce::select_device({}).loop_trip_limit) {
      MESSAGE("the default device ends every loop by itself: no kernel to watch runs forever");
      return;
    }
    const auto expect_watchdog = [](const CliRun& r, const std::string& kernel, const std::string& file,
                                    const std::string& origin, const std::string& seconds) {
      INFO(r.out);
      CHECK(r.code == 3);
      CHECK(r.stdout_text.empty());
      CHECK(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n') == 1);
      CHECK(r.stderr_text.rfind("clreduce: error: kernel '" + kernel + "' of " + file, 0) == 0);
      CHECK(r.stderr_text.find("(its kernel directory from " + origin + ")") != std::string::npos);
      CHECK(r.stderr_text.find("for more than " + seconds + " s without finishing") != std::string::npos);
      CHECK(r.stderr_text.find("--kernel-timeout SECONDS (CLREDUCE_KERNEL_TIMEOUT); 0 waits forever") != std::string::npos);
    };
    // A kernel directory's file, by the option and by the environment variable; a loop whose two
    // volatile reads of the same element never differ, which no compiler may drop.
    const fs::path dir = clreduce::test::copy_kernels("hardening_watchdog");
    clreduce::test::replace_in_file(dir / "naive.cl", "  __local T l[WG_SIZE];",
                                    "  while (*(volatile __global const T*)in == *(volatile __global const T*)in) {\n  }\n"
                                    "  __local T l[WG_SIZE];");
    expect_watchdog(clreduce::test::run_cli_killed_after(
                        120, "--kernel-dir " + dir.string() + " --kernel-timeout 1 reduce --variant naive --n 1000"),
                    "reduce_naive", (dir / "naive.cl").string(), "--kernel-dir", "1");
    expect_watchdog(run_cli("bench --variants naive --sizes 1000 --iterations 1",
                            "CLREDUCE_KERNEL_DIR=" + dir.string() + " CLREDUCE_KERNEL_TIMEOUT=0.5 timeout -s KILL 120"),
                    "reduce_naive", (dir / "naive.cl").string(), "CLREDUCE_KERNEL_DIR", "0.5");
    fs::remove_all(dir);
    // A user's operator file whose map never returns: the file is named beside the kernel's.
    const clreduce::test::ScratchDir scratch("hardening_watchdog_op");
    const fs::path op = scratch.path / "spin_op.clh";
    {
      std::ofstream f(op);
      f << "#define OP_TYPE float\n"
           // A loop of 2^64 steps whose value the result depends on: a compiler may neither drop it nor
           // know its end (NVIDIA's dropped a loop on a private volatile int).
           // ELEM_MAP gets vectors too: the loop's value (0.0f) is added to each element.
           "inline float spin_forever(void) {\n  float a = 0.0f;\n"
           "  for (ulong i = 0; i != ~(ulong)0; ++i) a = a * 0.5f + 1.0f;\n  return a == -1.0f ? a : 0.0f;\n}\n"
           "#define ELEM_MAP(x) ((x) + spin_forever())\n#define OP(a, b) ((a) + (b))\n#define IDENTITY ((T)0)\n";
    }
    const CliRun r = clreduce::test::run_cli_killed_after(120, "--kernel-timeout 1 reduce --op-file " + op.string() + " --n 1000");
    CHECK(r.stderr_text.find(" with the operator " + op.string() + " (its kernel directory from ") != std::string::npos);
    CHECK(r.code == 3);
    // Its values: a number of seconds, strictly; the option before the variable.
    for (const std::string bad : {"-1", "abc", "1e9", "nan", "inf", "0x10", "5s", " 5"})
      clreduce::test::expect_refused("--kernel-timeout '" + bad + "' devices", "--kernel-timeout: '" + bad +
                                                                 "' is not a number of seconds from 0 (wait forever) to 86400");
    const CliRun env = run_cli("devices", "CLREDUCE_KERNEL_TIMEOUT=soon");
    CHECK(env.code == 2);
    CHECK(env.stderr_text == "clreduce: error: CLREDUCE_KERNEL_TIMEOUT: 'soon' is not a number of seconds from 0 (wait forever) to 86400, e.g. 60 or 0.5\n");
    CHECK(run_cli("--kernel-timeout 0 reduce --variant naive --n 1000", "CLREDUCE_KERNEL_TIMEOUT=soon").code == 0);
    // The library: off unless the application sets it; no negative or non-finite limit.
    CHECK(clreduce::kernel_timeout() == 0);
    CHECK_THROWS_AS(clreduce::set_kernel_timeout(-1), clreduce::Error);
    CHECK_THROWS_AS(clreduce::set_kernel_timeout(std::nan("")), clreduce::Error);
    CHECK_THROWS_AS(clreduce::set_kernel_timeout(std::numeric_limits<double>::infinity()), clreduce::Error);
    CHECK(clreduce::kernel_timeout() == 0);
  }

  TEST_CASE("the text output ends naming the kernel directory and where it came from; JSON says it too") {
    namespace fs = std::filesystem;
    const fs::path dir = clreduce::test::copy_kernels("hardening_kernels_line");
    const auto last_line = [](const std::string& text) {
      const std::size_t end = text.size() - (text.empty() || text.back() != '\n' ? 0 : 1);
      const std::size_t start = text.rfind('\n', end == 0 ? 0 : end - 1);
      return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1));
    };
    const CliRun given = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000");
    INFO(given.out);
    CHECK(given.code == 0);
    CHECK(last_line(given.stdout_text).rfind("kernels: " + dir.string() + " (from --kernel-dir; ", 0) == 0);
    const CliRun env = run_cli("bench --variants naive --sizes 1000 --iterations 1", "CLREDUCE_KERNEL_DIR=" + dir.string());
    INFO(env.out);
    CHECK(env.code == 0);
    CHECK(last_line(env.stdout_text).rfind("kernels: " + dir.string() + " (from CLREDUCE_KERNEL_DIR; ", 0) == 0);
    const CliRun json = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000 --format json");
    CHECK(json.code == 0);
    const nlohmann::json j = nlohmann::json::parse(json.stdout_text);
    CHECK(j["meta"]["kernel_dir"] == dir.string());
    CHECK(j["meta"]["kernel_dir_origin"] == "--kernel-dir");
    // CSV stays a table of rows only.
    const CliRun csv = run_cli("--kernel-dir " + dir.string() + " reduce --variant naive --n 1000 --format csv");
    CHECK(csv.stdout_text.find("kernels: ") == std::string::npos);
    fs::remove_all(dir);
  }

  TEST_CASE("absurd run sizes are refused naming the limit; repeated sizes are measured once") {
    expect_error("bench --n 1000 --batch 4000000000", "--batch 4000000000 is outside 1..100000 reductions per timed sample");
    expect_error("bench --n 1000 --batch 0", "--batch 0 is outside 1..100000");
    expect_error("reduce --variant naive --n 1000 --batch 100001", "--batch 100001 is outside 1..100000");
    expect_error("bench access --n 4096 --wg 64 --groups 100000000",
                 "--groups 100000000 is over the limit of 65536 work-groups (65536, or one per 64 elements of n = 4096 where that is more); valid: 1..65536");
    const CliRun r = run_cli("bench --sizes 1000,1000,2000,1000 --variants naive --iterations 1 --warmup 0 --format csv");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("clreduce: warning: --sizes: 2 repeated sizes dropped; each size is measured once (2 sizes)") !=
          std::string::npos);
    // one CSV row per (size, variant): two sizes, one variant
    CHECK(std::count(r.stdout_text.begin(), r.stdout_text.end(), '\n') == 1 + 2);
  }

  TEST_CASE("a long run is estimated and warned about before it starts; progress without a terminal; --quiet") {
    // --estimate: the lower bound alone, on stdout, nothing measured. 10^5 samples of at least
    // 1 ms each (the engine's batch) are 100 s at least, whatever the device.
    const std::string longrun = "bench --n 1Mi --variants naive --iterations 100000 --warmup 0";
    const CliRun e = run_cli(longrun + " --estimate");
    INFO(e.out);
    CHECK(e.code == 0);
    CHECK(e.stdout_text.rfind("clreduce: this run takes at least ", 0) == 0);
    CHECK(e.stdout_text.find("1 launch at 1 size reading ") != std::string::npos);
    CHECK(std::count(e.stdout_text.begin(), e.stdout_text.end(), '\n') == 1);
    for (const std::string cmd : {"bench --sizes 1K..1M:4", "sweep --variants naive --wg 32", "tune --variants naive --wg 32",
                                  "bench transpose --shapes 64x64", "bench access --n 1Mi"}) {
      const CliRun r = run_cli(cmd + " --estimate");
      INFO(cmd << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stdout_text.rfind("clreduce: this run takes at least ", 0) == 0);
    }
    // Run with stderr on a pipe: the warning first, then a progress line every 5 s. For 12 s: the
    // first progress line comes 5 s into the timed loop, after the device's start and the
    // program's build, which took over 3 s on the H100 with the whole suite running beside it.
    const CliRun w = run_cli_killed_after(12, longrun);
    INFO(w.out);
    const std::size_t warning = w.out.find("clreduce: warning: this run takes at least ");
    REQUIRE(warning != std::string::npos);
    CHECK(w.out.find("; a smaller --n, fewer --variants or --iterations shorten it") != std::string::npos);
    const std::size_t line = w.out.find("clreduce: progress: ");
    REQUIRE(line != std::string::npos);
    CHECK(line > warning);
    CHECK(w.out.find("left; now: n=1048576: ", line) != std::string::npos);
    const CliRun q = run_cli_killed_after(8, longrun + " --quiet");
    INFO(q.out);
    CHECK(q.out.find("clreduce: warning: this run takes at least ") != std::string::npos);  // warnings stay
    CHECK(q.out.find("clreduce: progress:") == std::string::npos);
    // soak: its time left is the time it was given.
    const CliRun s = run_cli("soak --seconds 6 --max-n 4096");
    INFO(s.out);
    CHECK(s.code == 0);
    const std::size_t at = s.out.find("clreduce: progress: ");
    REQUIRE(at != std::string::npos);
    CHECK(s.out.find(" left; ", at) != std::string::npos);
    CHECK(s.out.find(" checked, ", at) != std::string::npos);
  }
}
