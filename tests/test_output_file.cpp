// The output files' rule (tools/data/output_file.hpp) where the command line cannot reach it: a
// write that fails midway (the file-size limit, RLIMIT_FSIZE, with SIGXFSZ ignored so that write()
// returns EFBIG), with and without --force. The rest of the rule is tested through the CLI
// (test_cli_hardening.cpp: inputs, links, modes, two outputs, existing files).
#include "data/output_file.hpp"

#include "clreduce/error.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <sys/resource.h>

namespace {
// The file-size limit for the scope of the object (the test process's own; restored after).
struct FileSizeLimit {
  rlimit old{};
  void (*old_handler)(int) = SIG_DFL;
  explicit FileSizeLimit(rlim_t bytes) {
    REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
    old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim = old;
    lim.rlim_cur = bytes;
    REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, old_handler);
  }
};

std::set<std::string> names_in(const std::filesystem::path& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("output files: a write that fails leaves no partial file, and --force leaves the old file whole") {
    namespace fs = std::filesystem;
    using clreduce::NamedPath;
    const clreduce::test::ScratchDir scratch("output_file");
    const std::string fresh = (scratch.path / "r.json").string(), old = (scratch.path / "old.json").string();
    std::ofstream(old) << "old bytes";
    const std::string big(4096, 'x');
    {
      const FileSizeLimit limit(1024);
      const auto message_of = [&](const NamedPath& o, bool force) {
        try {
          clreduce::write_output_file(o, big, force);
        } catch (const clreduce::Error& e) {
          return std::string(e.what());
        }
        return std::string("no error");
      };
      CHECK(message_of({"--output-json", fresh}, false) ==
            "--output-json: cannot write '" + fresh + "': File too large");
      CHECK(message_of({"--output-json", old}, true) == "--output-json: cannot write '" + old + "': File too large");
      // Without --force an existing file is refused at the write too (made since the check).
      CHECK(message_of({"--output-csv", old}, false).find("it exists") != std::string::npos);
    }
    CHECK(clreduce::test::read_file(old) == "old bytes");
    CHECK(names_in(scratch.path) == std::set<std::string>{"old.json"});  // no partial file, no temporary
    // Within the limit both forms write: a new file, and the old one replaced.
    clreduce::write_output_file({"--output-json", fresh}, "new", false);
    clreduce::write_output_file({"--output-json", old}, "replaced", true);
    CHECK(clreduce::test::read_file(fresh) == "new");
    CHECK(clreduce::test::read_file(old) == "replaced");
    CHECK(names_in(scratch.path) == std::set<std::string>{"old.json", "r.json"});
  }
}
