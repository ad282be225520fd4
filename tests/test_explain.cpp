// The teaching steps: the unified diff `explain` prints, every neighbouring pair of both families
// held to its one step (what the later file adds and removes, and nothing else but comments and
// the kernel's name), and `clreduce explain` for every registered variant.
#include "support.hpp"

#include "clreduce/axis.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/variants.hpp"
#include "explain/explain.hpp"
#include "explain/unified_diff.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

namespace {
namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, path.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The code lines a diff changes: '-' and '+' lines that are neither blank nor comments.
std::vector<std::string> changed_code(const std::string& diff) {
  std::vector<std::string> out;
  for (const std::string& line : clreduce::split_lines(diff)) {
    if (line.rfind("--- ", 0) == 0 || line.rfind("+++ ", 0) == 0) continue;
    if (line.empty() || (line[0] != '-' && line[0] != '+')) continue;
    const std::string code = trim(line.substr(1));
    if (code.empty() || code.rfind("//", 0) == 0) continue;
    out.push_back(line.substr(0, 1) + code);
  }
  return out;
}

// One teaching step as the diff of its kernel file against its predecessor's must show it: the
// lines it must add and remove (substrings of changed code lines, with their sign), and the
// substrings every other changed code line must contain (the step's own lines and the kernel's
// signature), so that nothing else changes.
struct Step {
  std::string before, after;
  std::vector<std::string> must;     // "+text" added, "-text" removed
  std::vector<std::string> allowed;  // every changed code line contains one of these
};

const std::vector<std::string> kSignature = {"void reduce_", "void transpose_", "const ulong offset)",
                                             "const ulong n, const ulong offset)", "const uint n)",
                                             "const uint m, const uint n)"};

void check_diff(const std::string& diff, const Step& s);
void check_step(const fs::path& dir, const std::string& before_file, const std::string& after_file, const Step& s) {
  check_diff(clreduce::unified_diff(before_file, read_text(dir / before_file), after_file, read_text(dir / after_file)), s);
}
// The step's diff adds and removes what it must, and (where `allowed` is given) nothing else.
void check_diff(const std::string& diff, const Step& s) {
  INFO(s.before << " -> " << s.after << "\n" << diff);
  const std::vector<std::string> code = changed_code(diff);
  for (const std::string& m : s.must) {
    bool found = false;
    for (const std::string& line : code) found = found || (line[0] == m[0] && line.find(m.substr(1)) != std::string::npos);
    CHECK_MESSAGE(found, "the step must " << (m[0] == '+' ? "add" : "remove") << ": " << m.substr(1));
  }
  if (s.allowed.empty()) return;  // a step that may rewrite more (a new stage)
  for (const std::string& line : code) {
    bool ok = false;
    for (const auto& a : s.allowed) ok = ok || line.find(a) != std::string::npos;
    for (const auto& a : kSignature) ok = ok || line.find(a) != std::string::npos;
    CHECK_MESSAGE(ok, "a change that is not the step: " << line);
  }
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("as_built: a kernel file as one build's -D values see it") {
    using clreduce::as_built;
    const std::string text =
        "// head\n#ifndef RT\n#define RT 2 // block edge\n#endif\n#ifndef OTHER\n#define OTHER 1\n#endif\n"
        "#if RT == 2\ntwo\n#elif RT == 4\nfour\n#else\n#error \"RT\"\n#endif\n"
        "#if OTHER == 1\nother\n#endif\n#if RT == 4\n#ifdef X\nfour x\n#endif\n#endif\nend\n";
    CHECK(as_built(text, {}) == text);
    CHECK(as_built(text, {{"RT", 4}}) ==
          "// head\n#define RT 4 // block edge\n#ifndef OTHER\n#define OTHER 1\n#endif\nfour\n"
          "#if OTHER == 1\nother\n#endif\n#ifdef X\nfour x\n#endif\nend\n");
    CHECK(as_built(text, {{"RT", 2}}) ==
          "// head\n#define RT 2 // block edge\n#ifndef OTHER\n#define OTHER 1\n#endif\ntwo\n"
          "#if OTHER == 1\nother\n#endif\nend\n");
    CHECK(as_built(text, {{"RT", 3}}).find("#error \"RT\"") != std::string::npos);  // the #else
    CHECK_THROWS(as_built("#if RT == 2\n#elif OTHER == 1\n#endif\n", {{"RT", 2}}));
    // Comments on directives, spacing after '#', no newline at the end; an #ifndef's #else and body.
    CHECK(as_built("#  if RT == 2 // two\na\n#elif RT == 4 /* four */\nb\n#endif", {{"RT", 4}}) == "b");
    CHECK(as_built("#ifndef RT\n#define RT 2\n#error \"x\"\n#else\ngiven\n#endif\n", {{"RT", 4}}) ==
          "#define RT 4\ngiven\n");
  }

  TEST_CASE("unified diff: hunks as diff -u prints them, fewest changed lines, nothing for equal texts") {
    using clreduce::unified_diff;
    CHECK(unified_diff("a", "x\ny\n", "b", "x\ny\n").empty());
    // Changes 7 unchanged lines apart: two hunks of 3 lines of context each (as GNU diff -u).
    const std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";
    const std::string b = "1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n11\n12\n13\n14\n";
    CHECK(unified_diff("a.cl", a, "b.cl", b) ==
          "--- a.cl\n+++ b.cl\n"
          "@@ -3,7 +3,7 @@\n 3\n 4\n 5\n-6\n+six\n 7\n 8\n 9\n"
          "@@ -11,3 +11,4 @@\n 11\n 12\n 13\n+14\n");
    // 6 apart (twice the context): one hunk.
    CHECK(unified_diff("a", "1\n2\n3\n4\n5\n6\n7\n8\n", "b", "one\n2\n3\n4\n5\n6\n7\neight\n") ==
          "--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n");
    // Two changes whose gap is at most twice the context share one hunk.
    CHECK(unified_diff("a", "1\n2\n3\n4\n5\n", "b", "one\n2\n3\n4\nfive\n") ==
          "--- a\n+++ b\n@@ -1,5 +1,5 @@\n-1\n+one\n 2\n 3\n 4\n-5\n+five\n");
    // An empty side: the range names the line before (0).
    CHECK(unified_diff("a", "", "b", "x\n") == "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
    CHECK(unified_diff("a", "x\n", "b", "") == "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n");
    const clreduce::DiffCounts c = clreduce::diff_counts("a\nb\nc\n", "a\nc\nd\ne\n");
    CHECK(c.removed == 1);
    CHECK(c.added == 2);
  }

  TEST_CASE("teaching steps: each variant's predecessor comes before it in its registry") {
    std::map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < clreduce::variants().size(); ++i) {
      const auto& v = clreduce::variants()[i];
      INFO(v.name);
      CHECK(!v.step.empty());
      if (i == 0) CHECK(v.predecessor.empty());
      else REQUIRE(at.count(v.predecessor) == 1);
      at[v.name] = i;
    }
    at.clear();
    for (std::size_t i = 0; i < clreduce::transpose_variants().size(); ++i) {
      const auto& v = clreduce::transpose_variants()[i];
      INFO(v.name);
      CHECK(!v.step.empty());
      CHECK(!v.literature.empty());
      if (i == 0) CHECK(v.predecessor.empty());
      else REQUIRE(at.count(v.predecessor) == 1);
      at[v.name] = i;
    }
  }

  TEST_CASE("teaching steps: the diff of neighbouring kernel files shows the step and nothing else") {
    const fs::path dir = CLREDUCE_SOURCE_KERNEL_DIR;
    const std::vector<Step> reduction = {
        {"naive", "interleaved", {"+const uint index = 2 * s * lid;", "-if (lid % (2 * s) == 0)"}, {"index", "lid % (2 * s)"}},
        {"interleaved", "divergence_free",
         {"+for (uint s = WG_SIZE / 2; s > 0; s >>= 1)", "+if (lid < s) l[lid] = OP(l[lid], l[lid + s]);",
          "-for (uint s = 1; s < WG_SIZE; s <<= 1)", "-2 * s * lid"},
         {"for (uint s", "index", "if (lid < s)"}},
        {"divergence_free", "first_add",
         {"+get_group_id(0) * (2 * WG_SIZE) + lid", "+if (i + WG_SIZE < n) acc = OP(acc, LOAD(in[i + WG_SIZE]));",
          "-l[lid] = i < n ? LOAD(in[i]) : IDENTITY;"},
         {"const ulong i =", "acc", "l[lid] = i < n"}},
        {"first_add", "last_wavefront_unroll",
         {"+#include \"lockstep.clh\"", "+s > TREE_STOP", "-s > 0; s >>= 1", "+#if USE_LOCKSTEP_TAIL",
          "+if (lid < LOCKSTEP)", "+volatile __local T* v = l;", "+LAST_WAVEFRONT_LEVEL(1)", "+WARP_SYNC();"},
         {"lockstep.clh", "TREE_STOP", "for (uint s", "LAST_WAVEFRONT_LEVEL", "LOCKSTEP", "T other", "other = v[",
          "WARP_SYNC", "v[lid] = OP", "volatile", "#endif", "}"}},
        {"last_wavefront_unroll", "complete_unroll",
         {"+TREE_LEVEL(2048)", "+TREE_LEVEL(1)", "-for (uint s = WG_SIZE / 2; s > TREE_STOP; s >>= 1)"},
         {"WG_SIZE > 4096", "#error", "#endif", "TREE_LEVEL", "for (uint s", "if (lid < s)", "barrier(", "}",
          "WG_SIZE >= 2 * (s)", "if (lid < (s))"}},
        {"complete_unroll", "stride_global",
         {"+#include \"reduce_tree.clh\"", "+ACCUMULATE_STRIDED(acc, in, gid, stride, n)",
          "+group_reduce_unrolled(l, lid, acc);", "-TREE_LEVEL(2048)", "-LAST_WAVEFRONT_LEVEL(1)"},
         {}},
        {"stride_global", "stride_local", {"+(ulong)WG_SIZE * TIMES", "-get_num_groups(0) * WG_SIZE"}, {}},
        {"stride_global", "vector", {"+#include \"vector_load.clh\"", "+load_vectors_strided", "-ACCUMULATE_STRIDED"}, {}},
        {"vector", "warp_shuffle", {"+group_reduce_shfl", "-group_reduce_unrolled"}, {}},
        {"vector", "subgroup", {"+sub_group_reduce"}, {}},
        {"vector", "contiguous_blocks", {"+per_item", "-load_vectors_strided"}, {}},
        {"vector", "single_pass", {"+SP_FINISH"}, {}},
    };
    // Every registered step is held here, and only registered steps.
    REQUIRE(reduction.size() + 1 == clreduce::variants().size());
    for (const Step& s : reduction) {
      const clreduce::Variant& v = clreduce::find_variant(s.after);
      CHECK(v.predecessor == s.before);
      check_step(dir, clreduce::find_variant(s.before).file, v.file, s);
    }
    // The steps before the shared tree: no file before last_wavefront_unroll knows about lockstep.
    for (const std::string name : {"naive", "interleaved", "divergence_free", "first_add"}) {
      const std::string text = read_text(dir / clreduce::find_variant(name).file);
      CHECK_MESSAGE(text.find("LOCKSTEP") == std::string::npos, name);
      CHECK_MESSAGE(text.find("reduce_tree.clh") == std::string::npos, name);
    }

    const std::vector<Step> transpose = {
        {"naive", "naive_write_coalesced",
         {"+const ulong r = get_global_id(0);", "+if (r < m) FOR_Y(c, n)", "-const ulong c = get_global_id(0);"},
         {"get_global_id(0)", "FOR_Y"}},
        {"naive", "local_tile", {"+__local T tile[TILE][TILE];", "+barrier(CLK_LOCAL_MEM_FENCE);", "-FOR_Y(r, m)"}, {}},
        {"local_tile", "local_tile_padded", {"+__local T tile[TILE][TILE + 1];", "-__local T tile[TILE][TILE];"},
         {"__local T tile"}},
        {"local_tile_padded", "local_tile_multi",
         {"+#define ROWS 8", "+for (uint k = 0; k < TILE; k += ROWS)", "+#define WG_Y ROWS", "-#define WG_Y TILE"},
         {"ROWS", "#define TILE", "#define WG_Y", "#error", "#endif", "for (uint k", "tile[", "__attribute__"}},
        // A new access width: the vector macros, and the element-by-element path edge tiles keep.
        {"local_tile_multi", "local_tile_vector",
         {"+#define VEC 4", "+#define WG_X (TILE / VEC)", "+const VT v = LOAD_V(", "+STORE_V(VEC_OF(g), out + OUT_AT(c0 + ly + k, r0 + x));",
          "+const bool whole = r0 + TILE <= m && c0 + TILE <= n;", "-#define WG_X TILE"},
         {}},
        {"naive", "register_tile2", {"+#define RT 2", "+ROW_TO_REGS(e, i, v)", "+T e[RT][RT];"}, {}},
        // One kernel file: the step is what -D RT=4 selects in it (as_built).
        {"register_tile2", "register_tile4", {"+#define RT 4", "-#define RT 2", "+(v).s3"},
         {"#define RT", "ROW_TO_REGS", "REGS_COLUMN"}},
    };
    REQUIRE(transpose.size() + 1 == clreduce::transpose_variants().size());
    for (const Step& s : transpose) {
      const clreduce::TransposeVariant& v = clreduce::find_transpose_variant(s.after);
      CHECK(v.predecessor == s.before);
      check_diff(clreduce::explain_variant(clreduce::Family::Transpose, s.after, dir).diff, s);
    }
  }
}

TEST_SUITE("cli") {
  using clreduce::test::CliRun;
  using clreduce::test::run_cli;

  TEST_CASE("explain: every variant of both families, its predecessor and the diff against it") {
    for (const auto& v : clreduce::variants()) {
      const CliRun r = run_cli("explain " + v.name + " --n 1000");
      INFO(v.name << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stdout_text.rfind(v.name + " (reduction variant; kernel " + v.kernel + " in " + v.file + ")\n", 0) == 0);
      CHECK(r.out.find("options the host passes on ") != std::string::npos);
      if (v.predecessor.empty()) {
        CHECK(r.out.find("no diff: " + v.name + " is the first step") != std::string::npos);
      } else {
        CHECK(r.out.find("step after:  " + v.predecessor + "\n") != std::string::npos);
        CHECK(r.out.find("--- " + clreduce::find_variant(v.predecessor).file + "\n+++ " + v.file + "\n@@ ") !=
              std::string::npos);
      }
    }
    for (const auto& v : clreduce::axis_variants()) {
      const CliRun r = run_cli("explain axis " + v.name + " --shape 33x17");
      INFO(v.name << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stdout_text.rfind(v.name + " (axis variant; kernel " + v.kernel + " in " + v.file + ")\n", 0) == 0);
      CHECK(r.out.find("options the host passes on ") != std::string::npos);
      CHECK_FALSE(v.literature.empty());
      CHECK_FALSE(v.step.empty());
      if (v.predecessor.empty()) {
        CHECK(r.out.find("no diff: " + v.name + " is the first step of its axis") != std::string::npos);
      } else if (clreduce::find_axis_variant(v.predecessor).file == v.file) {  // cols_stream_fused: FUSED 1
        CHECK(r.out.find("are one kernel file") != std::string::npos);
      } else {
        CHECK(r.out.find("step after:  " + v.predecessor + "\n") != std::string::npos);
        CHECK(r.out.find("--- " + clreduce::find_axis_variant(v.predecessor).file + "\n+++ " + v.file + "\n@@ ") !=
              std::string::npos);
      }
    }
    for (const auto& v : clreduce::transpose_variants()) {
      const CliRun r = run_cli("explain transpose " + v.name + " --shape 33x17");
      INFO(v.name << "\n" << r.out);
      CHECK(r.code == 0);
      CHECK(r.stdout_text.rfind(v.name + " (transpose variant; kernel " + v.kernel + " in " + v.file + ")\n", 0) == 0);
      if (v.predecessor.empty()) {
        CHECK(r.out.find("no diff: " + v.name + " is the first step") != std::string::npos);
      } else {
        CHECK(r.out.find("step after:  " + v.predecessor + "\n") != std::string::npos);
        const auto built = [](const clreduce::TransposeVariant& x) {
          std::string label = x.file;
          for (const auto& [define, value] : clreduce::transpose_fixed_defines(x))
            label += " -D " + define + "=" + std::to_string(value);
          return label;
        };
        CHECK(r.out.find("--- " + built(clreduce::find_transpose_variant(v.predecessor)) + "\n+++ " + built(v) +
                         "\n@@ ") != std::string::npos);
      }
    }
  }

  TEST_CASE("explain: the files as loaded now (an edit shows), --run, --binary, and bad input") {
    const fs::path dir = clreduce::test::copy_kernels("explain_edit");
    clreduce::test::replace_in_file(dir / "first_add.cl", "  l[lid] = acc;\n", "  l[lid] = acc;  // edited by a student\n");
    CliRun r = run_cli("--kernel-dir " + dir.string() + " explain first_add --n 5000");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("\n+  l[lid] = acc;  // edited by a student\n") != std::string::npos);
    CHECK(r.out.find("diff " + (dir / "divergence_free.cl").string() + " " + (dir / "first_add.cl").string()) !=
          std::string::npos);
    fs::remove_all(dir);

    r = run_cli("explain divergence_free --run --n 5003 --iterations 2 --warmup 0");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("measured: n = 5003 uint sum") != std::string::npos);
    CHECK(r.out.find("\ninterleaved ") != std::string::npos);
    CHECK(r.out.find("\ndivergence_free ") != std::string::npos);
    CHECK(r.out.find("x | ok\n") != std::string::npos);  // the step's speedup, checked
    r = run_cli("explain transpose local_tile_multi --run --shape 65x33 --type uint --iterations 2 --warmup 0");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("measured: uint 65x33") != std::string::npos);
    CHECK(r.out.find("\nlocal_tile_padded ") != std::string::npos);
    r = run_cli("explain axis rows_warp --run --shape 257x36 --op argmax --iterations 2 --warmup 0");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("measured: float argmax of every row of 257x36") != std::string::npos);
    CHECK(r.out.find("\nrows_sliced ") != std::string::npos);
    CHECK(r.out.find("x | ok\n") != std::string::npos);  // the step's speedup, both checked
    r = run_cli("explain axis cols_stream_fused --op argmin --shape 64x32");
    CHECK(r.code == 0);
    CHECK(r.out.find("not available") != std::string::npos);
    CHECK(r.out.find("not argmin/argmax pairs") != std::string::npos);

    const fs::path bin = fs::temp_directory_path() / ("clreduce_explain_" + std::to_string(getpid()) + ".bin");
    r = run_cli("explain complete_unroll --n 1000 --binary " + bin.string());
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("written to " + bin.string()) != std::string::npos);
    CHECK(fs::file_size(bin) > 0);
    fs::remove(bin);

    r = run_cli("explain");
    CHECK(r.code == 2);
    CHECK(r.out.find("`explain` needs a variant; valid: naive, interleaved,") != std::string::npos);
    r = run_cli("explain transpose vector");
    CHECK(r.code == 2);
    CHECK(r.out.find("unknown transpose variant 'vector'; valid: naive, naive_write_coalesced,") != std::string::npos);
    r = run_cli("explain naive --op product");
    CHECK(r.code == 2);
    CHECK(r.out.find("product") != std::string::npos);
    r = run_cli("explain naive --binary /nonexistent_dir/x.bin");
    CHECK(r.code == 2);
    CHECK(r.out.find("--binary") != std::string::npos);
    r = run_cli("explain axis rows_warp --op product");
    CHECK(r.code == 2);
    CHECK(r.out.find("product") != std::string::npos);
    r = run_cli("explain axis cols_nope");
    CHECK(r.code == 2);
    CHECK(r.out.find("unknown axis variant 'cols_nope'; valid: rows_group,") != std::string::npos);
    r = run_cli("explain axis rows_warp --shape 0x5");
    CHECK(r.code == 2);
    r = run_cli("explain --run transpose naive");
    CHECK(r.code == 2);
    CHECK(r.out.find("option --run goes after the variant of `explain transpose`") != std::string::npos);
  }
}
