// The teaching documents (docs/reduction.md, docs/transpose.md) and their figures: each
// committed document equals its render (tables from the committed bench JSON, diffs from the
// kernels as committed), each figure equals what the project draws, no document names a variant
// the registry does not have, and the hand-copied evidence table matches its result file.
// Also the pieces: the step tables, the block syntax and its errors, the bank counting behind the
// figures, and `clreduce explain docs` itself.
#include "support.hpp"

#include "clreduce/error.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"
#include "explain/teaching_docs.hpp"
#include "explain/teaching_figures.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace {
namespace fs = std::filesystem;
using clreduce::test::run_cli;

const fs::path kRoot = fs::path(CLREDUCE_SOURCE_KERNEL_DIR).parent_path();

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The pages of docs/ that are not teaching documents (no rendered tables, no kernel diffs): each is
// checked by a test of its own below.
const std::set<std::string> kReferencePages{"ARCHITECTURE.md"};

// The teaching documents: every .md of docs/ but the reference pages.
std::vector<fs::path> documents() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kRoot / "docs"))
    if (e.path().extension() == ".md" && !kReferencePages.count(e.path().filename().string())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The library's, the tools', the CLI's, the kernels' and the Python module's files, as one text.
std::string source_tree_text() {
  std::string all;
  for (const char* dir : {"include", "src", "tools", "cli", "kernels_cl", "python"})
    for (const auto& e : fs::recursive_directory_iterator(kRoot / dir))
      if (e.is_regular_file()) all += slurp(e.path());
  return all;
}

// Every identifier-like word of the kernel sources.
std::set<std::string> kernel_words() {
  std::set<std::string> words;
  const std::regex word("[A-Za-z_][A-Za-z0-9_]*");
  for (const auto& e : fs::directory_iterator(kRoot / "kernels_cl")) {
    const std::string text = slurp(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
      words.insert(it->str());
  }
  return words;
}

nlohmann::json small_reduction_json() {
  return nlohmann::json::parse(R"json({
    "device": {"name": "Dev", "platform": "Plat", "driver_version": "1.0"},
    "n": 1024, "type": "uint", "op": "sum", "data": "random, seed 42", "clock": "device events",
    "clock_note": "", "peak_read": {"gbps": 100.0},
    "rows": [
      {"variant": "naive", "status": "ok", "time_us": {"median": 10.0}, "gbps": 40.0,
       "pct_of_peak": 40.0, "wg": 256, "times": 1, "vec": 1, "passes": 2},
      {"variant": "interleaved", "status": "ok", "time_us": {"median": 20.0}, "gbps": 20.0,
       "pct_of_peak": 20.0, "wg": 256, "times": 1, "vec": 1, "passes": 2},
      {"variant": "single_pass", "status": "ok", "time_us": {"median": 5.0}, "gbps": 80.0,
       "pct_of_peak": 80.0, "wg": 128, "times": 16, "vec": 4, "passes": 1},
      {"variant": "subgroup", "status": "skipped", "skipped": "needs the cl_khr_subgroups extension (x)"}
    ]})json");
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("docs: every committed document equals its render and every figure what the project draws") {
    const std::vector<fs::path> docs = documents();
    REQUIRE(docs.size() >= 2);
    for (const fs::path& doc : docs) {
      INFO(doc.string());
      const std::string text = slurp(doc);
      const clreduce::DocRender r = clreduce::render_doc(text, kRoot, kRoot / "kernels_cl");
      std::string stale;
      for (const std::string& s : r.stale) stale += s + "; ";
      INFO("stale blocks (run `clreduce explain docs`): " << stale);
      CHECK(r.stale.empty());
      CHECK(r.text == text);
      // Each document has at least one table rendered from a committed result file.
      CHECK(text.find("-table bench/results/") != std::string::npos);
    }
    for (const auto& figure : clreduce::teaching_figures()) {
      const std::string& name = figure.first;  // not a structured binding: INFO captures it (C++17)
      INFO(name);
      CHECK(slurp(kRoot / "docs" / "figures" / name) == figure.second);
    }
  }

  TEST_CASE("docs: ARCHITECTURE.md names only paths that exist and functions the sources name") {
    const std::string text = slurp(kRoot / "docs" / "ARCHITECTURE.md");
    const std::string sources = source_tree_text();
    // Where a file named alone (`kernels.cpp`) may be: the tracked folders, not build trees.
    std::set<std::string> names;
    for (const char* dir : {"include", "src", "tools", "cli", "kernels_cl", "python", "tests", "bench", "docs", "scripts"})
      for (const auto& e : fs::recursive_directory_iterator(kRoot / dir))
        if (e.is_regular_file()) names.insert(e.path().filename().string());
    const std::regex quoted("`([^`\\n]+)`");
    const std::regex path("[A-Za-z0-9_.-]*/[A-Za-z0-9_./-]*");            // from the root: `src/core/`, `.ci/run`
    const std::regex file("[A-Za-z0-9_-]+\\.(cpp|hpp|cl|clh|md|py|sh)");  // a file named alone
    const std::regex call("([A-Za-z_][A-Za-z0-9_:]*)\\(\\)");
    std::size_t paths = 0, calls = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator(); ++it) {
      const std::string q = (*it)[1];
      if (std::regex_match(q, path)) {
        INFO("ARCHITECTURE.md names `" << q << "`: no such path from the project's root");
        CHECK(fs::exists(kRoot / q));
        ++paths;
      } else if (std::regex_match(q, file)) {
        INFO("ARCHITECTURE.md names `" << q << "`: no file of that name in the project");
        CHECK(names.count(q) == 1);
        ++paths;
      }
      for (auto c = std::sregex_iterator(q.begin(), q.end(), call); c != std::sregex_iterator(); ++c) {
        std::string name = (*c)[1];
        name = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
        INFO("ARCHITECTURE.md names `" << (*c)[0] << "`: the sources never name " << name << "(");
        CHECK(sources.find(name + "(") != std::string::npos);
        ++calls;
      }
    }
    CHECK(paths > 20);  // the page was read, so a renamed file would fail it
    CHECK(calls > 3);
  }

  TEST_CASE("docs: a quoted variant name must be registered") {
    std::set<std::string> variants;
    for (const std::string& n : clreduce::variant_names()) variants.insert(n);
    for (const std::string& n : clreduce::transpose_variant_names()) variants.insert(n);
    const std::set<std::string> kernel = kernel_words();
    // Lower-case words in back-quotes that are neither variants nor words of the kernels.
    const std::set<std::string> other{"explain", "bench", "variants", "volatile", "and"};
    const std::regex quoted("`([a-z][a-z0-9_]*)`");
    for (const fs::path& doc : documents()) {
      const std::string text = slurp(doc);
      std::size_t count = 0;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), quoted); it != std::sregex_iterator(); ++it) {
        const std::string word = (*it)[1];
        if (variants.count(word)) {
          ++count;
          continue;
        }
        INFO(doc.string() << " quotes `" << word << "`: not a registered variant nor a word of the kernels");
        CHECK((kernel.count(word) > 0 || other.count(word) > 0));
      }
      CHECK(count > 5);
    }
    // The rule bites: a renamed variant would not pass it.
    CHECK(variants.count("last_warp_unroll") == 0);
    CHECK(kernel.count("last_warp_unroll") == 0);
  }

  TEST_CASE("docs: the hand-copied evidence table of docs/reduction.md matches evidence.txt") {
    const std::string doc = slurp(kRoot / "docs" / "reduction.md");
    const std::string evidence = slurp(kRoot / "bench" / "results" / "2026-11-25_h100_teaching" / "evidence.txt");
    // The bench rows of the evidence file: "variant | wg | times | vec | passes | median | ...",
    // in order; the runs with the padded kernel follow a `--kernel-dir` command line.
    struct Row { std::string variant; std::string wg, median; bool padded; };
    std::vector<Row> rows;
    {
      std::istringstream in(evidence);
      std::string line;
      bool padded = false;
      const std::regex bench_row(R"(^(\w+)\s*\|\s*(\d+)\s*\|\s*\d+\s*\|\s*\d+\s*\|\s*\d+\s*\|\s*([0-9.]+)\s*\|)");
      while (std::getline(in, line)) {
        if (line.rfind("$ clreduce", 0) == 0) padded = line.find("--kernel-dir") != std::string::npos;
        if (line.rfind("== ", 0) == 0 && line.find("rolled") != std::string::npos) break;
        std::smatch m;
        if (std::regex_search(line, m, bench_row)) rows.push_back({m[1], m[2], m[3], padded});
      }
    }
    REQUIRE(rows.size() > 10);
    const auto find = [&](const std::string& variant, const std::string& wg, bool padded) {
      for (auto it = rows.rbegin(); it != rows.rend(); ++it)  // the sweep's runs come last
        if (it->variant == variant && it->wg == wg && it->padded == padded) return it->median;
      return std::string("(none)");
    };
    const std::regex table_row(R"(\| (\d+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \| ([0-9.]+) \|)");
    std::size_t checked = 0;
    const std::size_t at = doc.find("| work-group | `naive` µs |");
    REQUIRE(at != std::string::npos);
    std::istringstream in(doc.substr(at));
    std::string line;
    while (std::getline(in, line) && line.rfind("|", 0) == 0) {
      std::smatch m;
      if (!std::regex_search(line, m, table_row)) continue;
      INFO(line);
      CHECK(m[2] == find("naive", m[1], false));
      CHECK(m[3] == find("interleaved", m[1], false));
      CHECK(m[4] == find("interleaved", m[1], true));
      CHECK(m[5] == find("divergence_free", m[1], false));
      ++checked;
    }
    CHECK(checked == 4);
  }

  TEST_CASE("docs: the step table follows the registry's predecessors and refuses unknown variants") {
    const std::string t = clreduce::reduction_steps_table(small_reduction_json());
    INFO(t);
    // interleaved follows naive: 10 / 20 = 0.50x; single_pass follows vector, absent: no speedup.
    CHECK(t.find("| 2 | `interleaved` | `naive` | wg 256, 2 passes | 20.00 | 20 | 20.0% | 0.50x | ok |") !=
          std::string::npos);
    CHECK(t.find("| `single_pass` | `vector` | wg 128, times 16, vec 4, 1 pass | 5.00 | 80 | 80.0% | - | ok |") !=
          std::string::npos);
    CHECK(t.find("skipped: needs the cl_khr_subgroups extension |") != std::string::npos);
    CHECK(t.find("`stride_global`") == std::string::npos);  // not in the run: no row
    nlohmann::json bad = small_reduction_json();
    bad["rows"][0]["variant"] = "last_warp_unroll";
    CHECK_THROWS_WITH_AS(clreduce::reduction_steps_table(bad), doctest::Contains("last_warp_unroll"), clreduce::Error);
    bad = small_reduction_json();
    bad["rows"][1].erase("gbps");
    CHECK_THROWS_WITH_AS(clreduce::reduction_steps_table(bad), doctest::Contains("\"gbps\""), clreduce::Error);
  }

  TEST_CASE("docs: generated blocks render, report what was stale, and fail with the line") {
    const fs::path dir = fs::temp_directory_path() / "clreduce_docs_blocks";
    fs::remove_all(dir);
    fs::create_directories(dir / "results");
    { std::ofstream(dir / "results" / "r.json") << small_reduction_json().dump(); }
    const std::string doc = "# t\n\n<!-- generated: reduction-table results/r.json -->\nold\n<!-- end generated -->\n"
                            "text\n<!-- generated: diff interleaved -->\n<!-- end generated -->\nend\n";
    const clreduce::DocRender r = clreduce::render_doc(doc, dir, kRoot / "kernels_cl");
    REQUIRE(r.stale.size() == 2);
    CHECK(r.stale[0] == "line 3: reduction-table results/r.json");
    CHECK(r.stale[1] == "line 7: diff interleaved");
    CHECK(r.text.find("| 2 | `interleaved` |") != std::string::npos);
    CHECK(r.text.find("```diff\n--- naive.cl\n+++ interleaved.cl\n") != std::string::npos);
    CHECK(r.text.substr(r.text.size() - 4) == "end\n");
    // Rendering the render changes nothing.
    const clreduce::DocRender again = clreduce::render_doc(r.text, dir, kRoot / "kernels_cl");
    CHECK(again.stale.empty());
    CHECK(again.text == r.text);
    CHECK_THROWS_WITH_AS(clreduce::render_doc("a\n<!-- generated: chart x -->\n<!-- end generated -->\n", dir, kRoot / "kernels_cl"),
                         doctest::Contains("line 2: unknown generated block 'chart'"), clreduce::Error);
    CHECK_THROWS_WITH_AS(clreduce::render_doc("<!-- generated: diff naive -->\n<!-- end generated -->\n", dir, kRoot / "kernels_cl"),
                         doctest::Contains("no predecessor"), clreduce::Error);
    CHECK_THROWS_WITH_AS(clreduce::render_doc("<!-- generated: diff interleaved -->\nx\n", dir, kRoot / "kernels_cl"),
                         doctest::Contains("line 1: generated block 'diff interleaved' has no"), clreduce::Error);
    CHECK_THROWS_WITH_AS(clreduce::render_doc("<!-- generated: transpose-table results/none.json -->\n<!-- end generated -->", dir,
                                              kRoot / "kernels_cl"),
                         doctest::Contains("cannot read"), clreduce::Error);
    fs::remove_all(dir);
  }

  TEST_CASE("docs: the bank counting behind the figures") {
    using clreduce::bank_passes;
    // naive: the active lanes of a warp are 2s apart and fewer than 32 / (2s): one pass.
    for (unsigned s : clreduce::tree_levels("naive", 256))
      for (unsigned w = 0; w < 8; ++w) CHECK(bank_passes("naive", 256, s, w, 32, 32, 0) <= 1);
    // interleaved, a group of 256: eight lanes 32 words apart at s = 16, all in bank 0.
    CHECK(bank_passes("interleaved", 256, 1, 0, 32, 32, 0) == 2);
    CHECK(bank_passes("interleaved", 256, 16, 0, 32, 32, 0) == 8);
    CHECK(bank_passes("interleaved", 256, 16, 1, 32, 32, 0) == 0);  // warp 1 idles
    CHECK(bank_passes("interleaved_padded", 256, 16, 0, 32, 32, 0) == 1);
    CHECK(bank_passes("divergence_free", 256, 128, 3, 32, 32, 1) == 1);
    // Slowest warp summed over the levels (docs/reduction.md quotes these).
    const auto critical = [](const std::string& scheme, unsigned wg) {
      unsigned sum = 0;
      for (unsigned s : clreduce::tree_levels(scheme, wg)) {
        unsigned most = 0;
        for (unsigned w = 0; w < wg / 32; ++w) most = std::max(most, bank_passes(scheme, wg, s, w, 32, 32, 0));
        sum += most;
      }
      return sum;
    };
    CHECK(critical("interleaved", 256) == 37);
    CHECK(critical("naive", 256) == 8);
    CHECK(critical("interleaved", 128) == 21);
    CHECK(critical("interleaved", 64) == 11);
    CHECK(critical("naive", 64) == 6);
    CHECK(critical("interleaved", 32) == 5);
    // The transpose tile's column read.
    CHECK(clreduce::tile_column_passes(32, 0, 32, 32) == 32);
    CHECK(clreduce::tile_column_passes(32, 1, 32, 32) == 1);
    CHECK(clreduce::tile_column_passes(16, 0, 32, 32) == 8);
    CHECK(clreduce::tile_column_passes(16, 1, 32, 32) == 2);
    CHECK_THROWS_AS(clreduce::tree_levels("stride_global", 256), std::invalid_argument);
  }
}

TEST_SUITE("cli") {
  TEST_CASE("explain docs: --check passes on the committed documents and names what an edit makes stale") {
    const clreduce::test::CliRun ok = run_cli("explain docs --check --dir " + (kRoot / "docs").string());
    INFO(ok.out);
    CHECK(ok.code == 0);
    CHECK(ok.stdout_text.find("all current") != std::string::npos);
    // A copy of the tree whose first_add.cl gained a line: the last_wavefront_unroll diff (and
    // first_add's own) are stale; writing renders them, and --check then passes.
    const fs::path dir = fs::temp_directory_path() / "clreduce_docs_cli";
    fs::remove_all(dir);
    fs::create_directories(dir / "bench" / "results");
    fs::copy(kRoot / "docs", dir / "docs", fs::copy_options::recursive);
    fs::copy(kRoot / "kernels_cl", dir / "kernels_cl", fs::copy_options::recursive);
    fs::copy(kRoot / "bench" / "results" / "2026-11-25_h100_teaching", dir / "bench" / "results" / "2026-11-25_h100_teaching",
             fs::copy_options::recursive);
    clreduce::test::replace_in_file(dir / "kernels_cl" / "first_add.cl", "#include \"reduce_common.clh\"",
                                    "#include \"reduce_common.clh\"\n// an edit a student made");
    fs::remove(dir / "docs" / "figures" / "reduction_tree.svg");
    clreduce::test::CliRun r = run_cli("explain docs --check --dir " + (dir / "docs").string());
    INFO(r.out);
    CHECK(r.code == 1);
    CHECK(r.stdout_text.find("reduction.md line") != std::string::npos);
    CHECK(r.stdout_text.find(": diff first_add") != std::string::npos);
    CHECK(r.stdout_text.find(": diff last_wavefront_unroll") != std::string::npos);
    CHECK(r.stdout_text.find("reduction_tree.svg") != std::string::npos);
    CHECK(r.stdout_text.find(": diff divergence_free") == std::string::npos);
    CHECK(!fs::exists(dir / "docs" / "figures" / "reduction_tree.svg"));  // --check writes nothing
    r = run_cli("explain docs --dir " + (dir / "docs").string());
    CHECK(r.code == 0);
    CHECK(slurp(dir / "docs" / "reduction.md").find("+// an edit a student made") != std::string::npos);
    r = run_cli("explain docs --check --dir " + (dir / "docs").string());
    CHECK(r.code == 0);
    fs::remove_all(dir);
    // Bad input: one line, exit 2.
    r = run_cli("explain docs --dir /nonexistent/docs");
    CHECK(r.code == 2);
    CHECK(r.out.find("not a directory") != std::string::npos);
    r = run_cli("--kernel-dir /tmp explain docs --check");
    CHECK(r.code == 2);
    CHECK(r.out.find("takes no --kernel-dir") != std::string::npos);
  }
}
