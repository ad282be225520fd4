// The run-time kernel promise (edit a .cl file or pass -D, never rebuild the host), the program
// cache, and the errors for missing directories and files and for failed builds.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "clreduce/fill.hpp"
#include "support.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <vector>

using namespace clreduce;
using clreduce::test::copy_kernels;
using clreduce::test::replace_in_file;
using clreduce::test::prepare;
using clreduce::test::Prepared;
using clreduce::test::session;
namespace fs = std::filesystem;

namespace {
Value reduce_ones(const Session& rt, const ReduceConfig& cfg, std::uint64_t n) {
  Prepared r = prepare(rt, cfg, n);
  return r.run(r.upload(generate_data(cfg.type, n, DataKind::Ones, 0)));
}
}  // namespace

TEST_SUITE("runtime") {
  TEST_CASE("every kernel file compiles on its own with its defaults") {
    for (const auto& entry : fs::directory_iterator(CLREDUCE_SOURCE_KERNEL_DIR)) {
      if (entry.path().extension() != ".cl") continue;
      CAPTURE(entry.path().filename().string());
      CHECK_NOTHROW(session().program(entry.path().filename().string(), ""));
    }
  }

  TEST_CASE("editing a macro default in a copied kernel directory changes the next run") {
    const fs::path dir = copy_kernels("edit");
    const Session rt(session().device(), dir);
    ReduceConfig cfg;
    cfg.variant = "naive";
    cfg.wg = clreduce::test::test_wg("naive", 64);
    const std::uint64_t n = 10000;  // three passes: the map must apply in the first only
    CHECK(reduce_ones(rt, cfg, n).str() == "10000");
    replace_in_file(dir / "reduce_common.clh", "#define ELEM_MAP(x) (x)", "#define ELEM_MAP(x) ((x) + 2)");
    CHECK(reduce_ones(rt, cfg, n).str() == "30000");
    fs::remove_all(dir);
  }

  TEST_CASE("a user -D takes effect without touching the host") {
    ReduceConfig cfg;
    cfg.variant = "stride_local";
    cfg.wg = clreduce::test::test_wg("stride_local", 32);
    cfg.times = 3;
    cfg.defines = {parse_define("ELEM_MAP(x)=((x)*5)")};
    CHECK(reduce_ones(session(), cfg, 5000).str() == "25000");
    cfg.defines.clear();
    CHECK(reduce_ones(session(), cfg, 5000).str() == "5000");
  }

  TEST_CASE("contiguous_blocks' default work-group size is the built kernel's preferred multiple") {
    ReduceConfig cfg;
    cfg.variant = "contiguous_blocks";
    const std::uint64_t n = 100003;
    Prepared r = prepare(session(), cfg, n);
    const cl::Kernel k = session().kernel("contiguous_blocks.cl", "reduce_contiguous_blocks",
                                          r.plan().passes[0].options);
    const KernelLimits lim = kernel_limits(k, session().device().device);
    std::size_t want = 1;
    while (want * 2 <= std::min(lim.preferred_multiple, lim.max_work_group_size)) want *= 2;
    CAPTURE(lim.preferred_multiple);
    CHECK(r.plan().passes[0].wg == want);
    CHECK(r.launch->config.wg == want);
    CHECK(reduce_ones(session(), cfg, n).str() == "100003");
    cfg.wg = 2;  // a chosen size stays
    CHECK(prepare(session(), cfg, n).plan().passes[0].wg == 2);
  }

  TEST_CASE("the program cache builds each (source, options) once") {
    ReduceConfig cfg;
    cfg.variant = "divergence_free";
    cfg.wg = clreduce::test::test_wg("divergence_free", 128, ElemType::Int);
    cfg.type = ElemType::Int;
    cfg.op = Op::Max;
    Prepared first = prepare(session(), cfg, 100000);
    const std::size_t builds = session().builds();
    Prepared second = prepare(session(), cfg, 100000);
    CHECK(session().builds() == builds);
    // Another option string (ELEM_MAP as the kernel's default, a macro it reads: a name it never
    // reads is refused before the build), another program.
    cfg.defines = {parse_define("ELEM_MAP(x)=(x)")};
    Prepared third = prepare(session(), cfg, 100000);
    CHECK(session().builds() > builds);
    cfg.defines = {parse_define("UNUSED_FLAG=1")};
    CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100000), doctest::Contains("reads no macro UNUSED_FLAG"), Error);
  }

  TEST_CASE("a missing kernel directory or file is named") {
    CHECK_THROWS_WITH_AS(Session(session().device(), "/nonexistent/kernels"),
                         doctest::Contains("kernel directory '/nonexistent/kernels' (given) does not exist"), Error);
    const fs::path dir = copy_kernels("missing");
    fs::remove(dir / "naive.cl");
    const Session rt(session().device(), dir);
    ReduceConfig cfg;
    cfg.variant = "naive";
    CHECK_THROWS_WITH_AS(prepare(rt, cfg, 100), doctest::Contains("naive.cl' not found"), Error);
    fs::remove(dir / "reduce_common.clh");
    cfg.variant = "interleaved";
    CHECK_THROWS_WITH_AS(prepare(rt, cfg, 100),
                         doctest::Contains("reduce_common.clh' not found (included by interleaved.cl)"), Error);
    fs::remove_all(dir);
  }

  TEST_CASE("kernel lookup order: a directory given, then CLREDUCE_KERNEL_DIR, then the build tree") {
    // (installed before the build tree for a program outside it: tests/install/consume_installed.sh)
    const fs::path given = copy_kernels("lookup_given"), from_env = copy_kernels("lookup_env");
    std::optional<std::string> old;
    if (const char* v = std::getenv("CLREDUCE_KERNEL_DIR")) old = v;
    setenv("CLREDUCE_KERNEL_DIR", from_env.c_str(), 1);
    const KernelDir g = find_kernel_dir(given);
    CHECK(g.path == given);
    CHECK(g.origin == "given");
    const KernelDir e = find_kernel_dir();
    CHECK(e.path == from_env);
    CHECK(e.origin == "CLREDUCE_KERNEL_DIR");
    setenv("CLREDUCE_KERNEL_DIR", "/nonexistent/kernels", 1);  // a bad variable is named, not skipped
    CHECK_THROWS_WITH_AS(find_kernel_dir(), doctest::Contains("(from CLREDUCE_KERNEL_DIR) does not exist"), Error);
    unsetenv("CLREDUCE_KERNEL_DIR");
    const KernelDir t = find_kernel_dir();  // this test program runs from the build tree
    CHECK(t.origin == "build tree");
    CHECK(fs::equivalent(t.path, CLREDUCE_SOURCE_KERNEL_DIR));
    if (old) setenv("CLREDUCE_KERNEL_DIR", old->c_str(), 1);
    fs::remove_all(given);
    fs::remove_all(from_env);
  }

  TEST_CASE("a kernel that fails to build shows its options and build log") {
    const fs::path dir = copy_kernels("broken");
    replace_in_file(dir / "naive.cl", "barrier(CLK_LOCAL_MEM_FENCE);", "barrier(CLK_LOCAL_MEM_FENCE) oops;");
    const Session rt(session().device(), dir);
    ReduceConfig cfg;
    cfg.variant = "naive";
    cfg.wg = clreduce::test::test_wg("naive", 64);
    try {
      Prepared r = prepare(rt, cfg, 100);
      FAIL("the broken kernel built");
    } catch (const Error& e) {
      const std::string msg = e.what();
      CHECK(msg.find("naive.cl") != std::string::npos);
      CHECK(msg.find("options: -D WG_SIZE=" + std::to_string(cfg.wg) + " -D TYPE_ID=0 -D OP_ID=0") != std::string::npos);
      CHECK(msg.find("build log:") != std::string::npos);
      CHECK(msg.find("oops") != std::string::npos);  // the compiler's own diagnostic
    }
    fs::remove_all(dir);
  }

  TEST_CASE("a user -D that breaks the build is reported with the options") {
    ReduceConfig cfg;
    cfg.variant = "vector";
    cfg.defines = {parse_define("uint=not_a_type")};  // not declared; the element type (uint) is gone
    CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100), doctest::Contains("-D uint=not_a_type"), Error);
    CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100), doctest::Contains("build log:"), Error);
    // A declared parameter's bad value is refused before any build, naming the valid ones (the
    // kernel's own #error would say the same after a compile).
    cfg.defines = {parse_define("VEC=3")};
    CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100),
                         doctest::Contains("VEC of vector.cl must be one of 2, 4, 8, 16"), ConfigError);
  }

  TEST_CASE("a caller's -D WG_SIZE, TIMES, VEC is a choice, as its option: kept against the defaults and the kernel") {
    // contiguous_blocks would be planned again at the kernel's preferred multiple when nobody chose
    // a work-group size; a -D choice stays, as --wg 4 does.
    ReduceConfig cfg;
    cfg.variant = "contiguous_blocks";
    cfg.defines = {parse_define("WG_SIZE=4"), parse_define("VEC=2")};
    Prepared by_define = prepare(session(), cfg, 100003);
    CHECK(by_define.plan().passes[0].wg == 4);
    CHECK(by_define.plan().passes[0].vec == 2);
    cfg.defines.clear();
    cfg.wg = 4;
    cfg.vec = 2;
    Prepared by_option = prepare(session(), cfg, 100003);
    CHECK(by_define.plan().passes[0].options == by_option.plan().passes[0].options);
    ReduceConfig vec;
    vec.variant = "vector";
    vec.defines = {parse_define("TIMES=2"), parse_define("VEC=8")};
    Prepared v = prepare(session(), vec, 100003);
    CHECK(v.plan().passes[0].times == 2);
    CHECK(v.plan().passes[0].vec == 8);
    CHECK(v.plan().passes[0].options.find("-D TIMES=2 -D VEC=8") != std::string::npos);
  }

  TEST_CASE("work-group size over the real device's maximum") {
    ReduceConfig cfg;
    cfg.variant = "naive";
    cfg.wg = session().device().max_work_group_size * 2;
    CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100), doctest::Contains("over the device maximum"), Error);
  }

  TEST_CASE("enqueue_fill_bytes: exactly the bytes asked, in pieces of every pattern width") {
    // Pieces of 5, 8 and 6 bytes make 1-, 2- and 4-byte patterns at odd and even offsets; the
    // bytes around the range keep their values.
    const std::size_t bytes = 64;
    const cl::Buffer b(session().context(), CL_MEM_READ_WRITE, bytes);
    struct Case {
      std::uint64_t offset, size, piece;
    };
    for (const Case& c : {Case{0, 64, kFillPieceBytes}, Case{1, 62, 5}, Case{2, 60, 8}, Case{3, 1, 6}, Case{4, 40, 6},
                          Case{7, 0, 3}}) {
      // Plain copies: clang (C++17) refuses structured bindings inside CAPTURE's lambda.
      const std::uint64_t offset = c.offset, size = c.size, piece = c.piece;
      CAPTURE(offset);
      CAPTURE(size);
      CAPTURE(piece);
      std::vector<unsigned char> before(bytes);
      for (std::size_t i = 0; i < bytes; ++i) before[i] = static_cast<unsigned char>(i * 7 + 1);
      session().queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, before.data());
      cl::Event done;
      enqueue_fill_bytes(session().queue(), b, 0xC3, offset, size, nullptr, &done, piece);
      if (size) done.wait();
      std::vector<unsigned char> got(bytes);
      session().queue().enqueueReadBuffer(b, CL_TRUE, 0, bytes, got.data());
      for (std::size_t i = 0; i < bytes; ++i) {
        const bool inside = i >= offset && i < offset + size;
        CHECK_MESSAGE(got[i] == (inside ? 0xC3 : before[i]), "byte " << i);
      }
    }
  }
}
