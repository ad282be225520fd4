// User reduction descriptor files (clreduce/reduction.hpp, load_reduction; clreduce reduce
// --op-file FILE --scalar V).
//
// unit: what a file must #define and each refusal naming the file and the fix; the Reduction a
// file makes; reads bounded by 64 KiB (/dev/zero is refused without reading it whole).
//
// descriptor_files: the two example files end to end on the device under test against host
// references written here: kernels_cl/examples/iamax.clh (a struct accumulator laid out as
// argvalue<f32>, NaN first, ties to the lower index) over the whole array, rows of a padded matrix,
// columns and u32 segments; kernels_cl/examples/huber_loss.clh (two inputs and a run-time scalar:
// a new scalar rebuilds nothing) over the whole array and rows; a file whose ACC_BYTES is wrong
// and one with an error inside its COMBINE macro, each refused with the build log naming the
// user's file and line; the CLI (every result checked by the device's in-order reference, --output
// of every row, the refusals of --scalar and of --type beside a file).
#include <doctest/doctest.h>

#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/kernels.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/segmented.hpp"
#include "support.hpp"
#include "core/user_text.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace clreduce;
using namespace clreduce::test;
namespace fs = std::filesystem;

namespace {
const fs::path kExamples = fs::path(CLREDUCE_SOURCE_KERNEL_DIR) / "examples";

fs::path write_temp(const std::string& name, const std::string& text) {
  static const ScratchDir dir("clreduce-descriptor-files");
  const fs::path p = dir.path / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

const std::string kMinimal =
    "#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0.0f\n"
    "#define COMBINE(a, b) ((a) + (b))\n";

// The text of Error `e` thrown by f, or "" when none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ---- host references ----
struct ArgRef {
  float v = -1.0f;
  std::uint64_t i = ~std::uint64_t{0};
};
// iamax over x[first], x[first + stride], ... (count of them), index from 0: NaN first, then the
// larger |x|, then the lower index.
ArgRef iamax_ref(const std::vector<float>& x, std::uint64_t first, std::uint64_t count, std::uint64_t stride) {
  ArgRef best;
  for (std::uint64_t k = 0; k < count; ++k) {
    const float a = std::fabs(x[first + k * stride]);
    const bool better = best.i == ~std::uint64_t{0} ? true
                        : std::isnan(a)             ? !std::isnan(best.v)
                        : std::isnan(best.v)        ? false
                                                    : a > best.v;
    if (better) best = {a, k};
  }
  return best;
}
void check_arg(const Result& r, const ArgRef& want) {
  REQUIRE(r.layout.kind == ResultLayout::Kind::Arg);
  CAPTURE(r.str());
  CAPTURE(want.v);
  CAPTURE(want.i);
  CHECK(r.index() == want.i);
  if (std::isnan(want.v)) CHECK(std::isnan(r.value()));
  else CHECK(r.get<float>() == want.v);
}
long double huber(long double d, long double delta) {
  const long double a = std::fabs(d);
  return a <= delta ? 0.5L * d * d : delta * (a - 0.5L * delta);
}

cl::Buffer upload(const std::vector<float>& v) {
  return cl::Buffer(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * sizeof(float),
                    const_cast<float*>(v.data()));
}
std::vector<float> random_floats(std::size_t n, std::mt19937_64& g) {
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("descriptor files: the examples load as the Reduction they declare") {
    const Reduction iamax = load_reduction(kExamples / "iamax.clh");
    CHECK(iamax.name == "iamax");
    CHECK(iamax.inputs == std::vector<Scalar>{Scalar::F32});
    CHECK(iamax.scalars.empty());
    CHECK(iamax.out.str() == "argvalue<f32>");
    CHECK(iamax.acc_type == "iamax_t");
    CHECK(iamax.acc_bytes == 16);
    CHECK(iamax.out_type == "iamax_t");
    CHECK(iamax.map == "MAP(x0, i)");
    CHECK(iamax.lift == "LIFT(v, i)");
    CHECK_FALSE(iamax.exact);
    CHECK_FALSE(iamax.builtin.has_value());
    CHECK(fs::path(iamax.origin).is_absolute());
    CHECK(is_reduction_file(kExamples / "iamax.clh"));
    CHECK_FALSE(is_reduction_file(kExamples / "product.clh"));  // a user operator
    const Reduction huber = load_reduction(kExamples / "huber_loss.clh");
    CHECK(huber.inputs == std::vector<Scalar>{Scalar::F32, Scalar::F32});
    CHECK(huber.scalars == std::vector<Scalar>{Scalar::F32});
    CHECK(huber.map == "MAP(x0, x1, i, s0)");
    CHECK(huber.acc_bytes == 4);
    CHECK(huber.finish == "a");
    // The generated header marks the file's span, so build logs map to its lines.
    const std::string src = reduction_source(huber);
    CHECK(src.find(std::string(kOriginMarker) + " 1 " + huber.origin + "\n") != std::string::npos);
    CHECK(src.find(std::string(kOriginMarker) + " -\n") != std::string::npos);
    CHECK(src.find("desc_check_acc_bytes_is_sizeof_acc_type") != std::string::npos);
    // Defaults, NumPy names and commas; an integer result is exact.
    const Reduction r = reduction_from_text("count", "#define INPUTS int16, uint8 // two\n#define RESULT u64\n"
                                                     "#define ACC_TYPE ulong\n#define IDENTITY 0ul\n"
                                                     "#define COMBINE(a, b) ((a) + (b))\n"
                                                     "#define MAP(x0, x1, i) (ulong)((x0) > (x1))\n");
    CHECK(r.inputs == std::vector<Scalar>{Scalar::I16, Scalar::U8});
    CHECK(r.acc_bytes == 8);
    CHECK(r.out_type == "ulong");
    CHECK(r.map_type == "short");
    CHECK(r.exact);
    CHECK(r.origin.empty());
    CHECK(reduction_from_text("v", kMinimal + "#define ACC_TYPE_X 1\n").acc_bytes == 4);
    CHECK(reduction_from_text("v", "#define INPUTS f32\n#define RESULT pair<f32>\n#define ACC_TYPE float2\n"
                                   "#define OUT_TYPE float2\n#define IDENTITY (float2)(0)\n"
                                   "#define COMBINE(a, b) ((a) + (b))\n")
              .acc_bytes == 8);
    CHECK(reduction_from_text("v", "#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float3\n"
                                   "#define IDENTITY (float3)(0)\n#define COMBINE(a, b) ((a) + (b))\n")
              .acc_bytes == 16);
  }

  TEST_CASE("descriptor files: each refusal names the file and what to define") {
    struct Case {
      std::string text, expect;
    };
    const std::string no_inputs = kMinimal.substr(kMinimal.find('\n') + 1);
    const std::vector<Case> cases = {
        {no_inputs, "does not #define INPUTS"},
        {"#define INPUTS f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n", "does not #define RESULT"},
        {"#define INPUTS f32\n#define RESULT f32\n#define IDENTITY 0\n#define COMBINE(a, b) a\n", "does not #define ACC_TYPE"},
        {"#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n#define COMBINE(a, b) a\n", "does not #define IDENTITY"},
        {"#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n", "does not #define COMBINE"},
        {"#define INPUTS f33\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "INPUTS: unknown type 'f33'"},
        {"#define INPUTS f32 f32 f32 f32 f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n"
         "#define COMBINE(a, b) a\n#define MAP(a, b, c, d, e, i) a\n",
         "names 5 types; a reduction takes 1 to 4"},
        {kMinimal + "#define SCALARS f32 f32 f32 f32 f32\n#define MAP(x0, i, a, b, c, d, e) x0\n", "at most 4"},
        {"#define INPUTS f32\n#define RESULT f16\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "results of 16-bit floats are f32"},
        {"#define INPUTS f32\n#define RESULT vector<f32>\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "RESULT is 'vector<f32>'; valid: t, argvalue<t> or pair<t>"},
        {"#define INPUTS f32\n#define RESULT argvalue<f32>\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "needs OUT_TYPE"},
        {"typedef struct { float a; } s_t;\n#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE s_t\n"
         "#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "#define ACC_BYTES N, N = sizeof(s_t) in bytes"},
        {kMinimal + "#define ACC_BYTES four\n", "ACC_BYTES is 'four'"},
        {"#define INPUTS f32 f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "2 inputs need MAP(x0, .., i)"},
        {kMinimal + "#define SCALARS f32\n", "SCALARS are arguments of MAP"},
        {kMinimal + "#define SCALARS f32\n#define MAP(x0, i) x0\n",
         "MAP takes 2 parameter(s); it is called as MAP(x0, i, s0: one per input, the index, one per scalar)"},
        {kMinimal + "#define LIFT(v) v\n", "LIFT takes 1 parameter(s); it is called as LIFT(v, i)"},
        {kMinimal + "#define FINISH(a, n, x) a\n", "FINISH takes 3 parameter(s)"},
        {kMinimal + "#define INPUTS f64\n", "#defines INPUTS twice"},
        {"#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE a + b\n",
         "COMBINE takes arguments"},
        {"#define INPUTS(x) f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "INPUTS is a value, not a function-like macro"},
        {"#define INPUTS \\\n f32\n#define RESULT f32\n#define ACC_TYPE float\n#define IDENTITY 0\n#define COMBINE(a, b) a\n",
         "INPUTS must be an object-like #define on one line"},
        {kMinimal + "#include \"other.clh\"\n", "has an #include"},
        {" \n\t\n", "is empty"},
        {kMinimal + std::string(70000, ' '), "more than the 65536 bytes"},
    };
    for (const Case& c : cases) {
      CAPTURE(c.text.substr(0, 200));
      const std::string what = error_of([&] { reduction_from_text("t", c.text); });
      CAPTURE(what);
      CHECK(what.find(c.expect) != std::string::npos);
      CHECK(what.find("reduction 't'") != std::string::npos);
    }
    // Files: the path in the message; a directory, a missing file, a device and a FIFO (which would
    // block an open) refused before reading; a long file read to the bound only.
    const fs::path f = write_temp("no_result.clh", "#define INPUTS f32\n");
    CHECK(error_of([&] { load_reduction(f); }).find("descriptor file '" + f.string() + "' does not #define RESULT") !=
          std::string::npos);
    CHECK(error_of([&] { load_reduction(f.parent_path()); }).find("a directory") != std::string::npos);
    CHECK(error_of([&] { load_reduction(f.parent_path() / "missing.clh"); }).find("cannot read") != std::string::npos);
    const fs::path fifo = f.parent_path() / "op_fifo.clh", long_file = f.parent_path() / "long.clh";
    fs::remove(fifo);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    write_temp("long.clh", "#define INPUTS f32\n");
    fs::resize_file(long_file, 1 << 30);  // sparse: 1 GiB that must not be read
    const auto t0 = std::chrono::steady_clock::now();
    for (const fs::path& p : {fs::path("/dev/zero"), fifo}) {
      CHECK(error_of([&] { load_reduction(p); }).find("(not a regular file: a FIFO, socket or device)") != std::string::npos);
      CHECK(error_of([&] { load_user_operator(p); }).find("(not a regular file: a FIFO, socket or device)") !=
            std::string::npos);
      CHECK(error_of([&] { (void)is_reduction_file(p); }).find("not a regular file") != std::string::npos);
    }
    CHECK(error_of([&] { load_reduction(long_file); }).find("more than the 65536 bytes") != std::string::npos);
    CHECK(error_of([&] { load_user_operator(long_file); }).find("more than the 65536 bytes") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    fs::remove(fifo);
    fs::remove(long_file);
  }
}

TEST_SUITE("unit") {
  TEST_CASE("operator files: directives as the compiler sees them, no #include in any spelling, an allow-list") {
    using clreduce::directives_of;
    const auto names = [](const std::string& text) {
      std::vector<std::string> out;
      for (const auto& d : directives_of(text)) out.push_back(d.name + "@" + std::to_string(d.line));
      return out;
    };
    using V = std::vector<std::string>;
    // Every spelling that reaches the preprocessor as #include.
    CHECK(names("#include \"x\"\n") == V{"include@1"});
    CHECK(names("a\nb\n%:include \"x\"\n") == V{"include@3"});
    CHECK(names("?\?=include <x>\n") == V{"include@1"});
    CHECK(names("#inc\\\nlude \"x\"\n") == V{"include@1"});
    CHECK(names("#inc\\\r\nlude \"x\"\n") == V{"include@1"});
    CHECK(names("/**/#include \"x\"\n") == V{"include@1"});
    CHECK(names("  /* a\n b */  #  include \"x\"\n") == V{"include@2"});
    CHECK(names("\t#\t include_next <x>\n") == V{"include_next@1"});
    // Not directives: inside comments, strings and characters, or not first on the line.
    CHECK(names("// #include \"x\"\n").empty());
    CHECK(names("/*\n#include \"x\"\n*/\n").empty());
    CHECK(names("#define S \"#include\"\n") == V{"define@1"});
    CHECK(names("#define C '#'\n#define D 1\n") == V{"define@1", "define@2"});
    CHECK(names("#define X \\\n #include\n") == V{"define@1"});  // one line: a macro's body
    CHECK(names("x %:%: y\n").empty());
    CHECK(names("#\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n") == V{"@1", "pragma@2"});
    // The allow-list: the refusal names the directive and its line, and what may be there.
    const auto refusal = [](const std::string& text) {
      try {
        clreduce::check_user_text(text, clreduce::Param::OpFile, "operator file 'f.clh'", "a file");
      } catch (const clreduce::Error& e) {
        return std::string(e.what());
      }
      return std::string("accepted");
    };
    const std::string ok = "#define OP(a, b) ((a) + (b))\n#define IDENTITY 0\n";
    CHECK(refusal(ok) == "accepted");
    CHECK(refusal("#ifndef X\n#define X 1\n#endif\n#undef X\n#if 1\n#elif 2\n#else\n#error no\n#endif\n") ==
          "accepted");
    CHECK(refusal(ok + "/**/%:inc\\\nlude \"/etc/passwd\"\n") ==
          "operator file 'f.clh' has an #include (line 3): it must be one self-contained file; an operator or "
          "descriptor file's directives may be #define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif, "
          "#pragma and #error");
    CHECK(refusal("#line 900 \"other.cl\"\n" + ok).rfind("operator file 'f.clh' has a #line directive (line 1); ", 0) == 0);
    CHECK(refusal(ok + "#embed \"x\"\n").find("has an #embed (line 3)") != std::string::npos);
    CHECK(refusal(ok + "#warning w\n").find("has a #warning directive (line 3)") != std::string::npos);
  }
}

TEST_SUITE("descriptor_files") {
  TEST_CASE("iamax.clh (a struct accumulator): whole array, padded rows, columns and u32 segments") {
    const Reduction iamax = load_reduction(kExamples / "iamax.clh");
    MESSAGE("seed " << seed());
    std::mt19937_64 g(seed() ^ 0x1A3A);
    ReducerOptions ro;
    ro.tuning.enabled = false;
    Reducer red = session().reducer(ro);
    for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(65537)}) {
      CAPTURE(n);
      std::vector<float> x = random_floats(n, g);
      if (n > 10) {
        x[n / 3] = -9.0f;  // the largest |x| twice: the first wins
        x[n / 2] = 9.0f;
      }
      CHECK(red.reduce(iamax, {Input{upload(x), 0}}, n).index() == iamax_ref(x, 0, n, 1).i);
      check_arg(red.reduce(iamax, {Input{upload(x), 0}}, n), iamax_ref(x, 0, n, 1));
      if (n > 10) {
        x[n - 2] = std::numeric_limits<float>::quiet_NaN();  // a NaN wins over every number
        check_arg(red.reduce(iamax, {Input{upload(x), 0}}, n), iamax_ref(x, 0, n, 1));
      }
    }
    // Rows of a 37 x 50 matrix with ld 53 from element offset 2; its columns.
    const std::uint64_t rows = 37, cols = 50, ld = 53, off = 2;
    std::vector<float> m = random_floats(off + rows * ld, g);
    m[off + 5 * ld + 7] = std::numeric_limits<float>::quiet_NaN();
    const cl::Buffer mb = upload(m);
    AxisReducerOptions ao;
    ao.tuning.enabled = false;
    AxisReducer axis(session().queue(), ao);
    const std::vector<Result> by_row = axis.reduce(iamax, {Input{mb, off}}, Axis::Rows, MatrixShape{rows, cols, ld});
    REQUIRE(by_row.size() == rows);
    for (std::uint64_t r = 0; r < rows; ++r) {
      CAPTURE(r);
      check_arg(by_row[r], iamax_ref(m, off + r * ld, cols, 1));
    }
    const std::vector<Result> by_col = axis.reduce(iamax, {Input{mb, off}}, Axis::Cols, MatrixShape{rows, cols, ld});
    REQUIRE(by_col.size() == cols);
    for (std::uint64_t c = 0; c < cols; ++c) {
      CAPTURE(c);
      check_arg(by_col[c], iamax_ref(m, off + c, rows, ld));
    }
    // Segments with u32 offsets, an empty one among them (its identity: index 2^64 - 1).
    const std::vector<std::uint32_t> offsets{0, 3, 3, 700, 701, 4099};
    const std::vector<float> s = random_floats(offsets.back(), g);
    const cl::Buffer ob(session().context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, offsets.size() * 4,
                        const_cast<std::uint32_t*>(offsets.data()));
    SegmentedReducer seg(session().queue());
    const std::vector<Result> by_seg =
        seg.reduce(iamax, {Input{upload(s), 0}}, s.size(), Segments::offsets<std::uint32_t>(ob, offsets.size() - 1));
    REQUIRE(by_seg.size() == offsets.size() - 1);
    for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
      CAPTURE(k);
      const ArgRef want = iamax_ref(s, offsets[k], offsets[k + 1] - offsets[k], 1);
      if (want.i == ~std::uint64_t{0}) CHECK(by_seg[k].index() == want.i);
      else check_arg(by_seg[k], want);
    }
  }

  TEST_CASE("huber_loss.clh (two inputs and a run-time scalar): whole array and rows; a new delta rebuilds nothing") {
    const Reduction hub = load_reduction(kExamples / "huber_loss.clh");
    std::mt19937_64 g(seed() ^ 0x4B3E);
    ProgramCache programs;
    ReducerOptions ro;
    ro.tuning.enabled = false;
    ro.programs = &programs;
    Reducer red = session().reducer(ro);
    const std::size_t n = 65539;
    const std::vector<float> p = random_floats(n, g), t = random_floats(n, g);
    const std::vector<Input> in{Input{upload(p), 0}, Input{upload(t), 0}};
    const unsigned depth = introspect::prepare(red, hub, n).depth;
    std::size_t builds = 0;
    for (double delta : {0.5, 1.0, 3.0}) {
      CAPTURE(delta);
      long double want = 0;
      for (std::size_t k = 0; k < n; ++k) want += huber(static_cast<long double>(p[k]) - t[k], static_cast<float>(delta));
      // Terms of one sign, each within a few roundings: gamma(depth + 6) of the sum.
      const long double u = std::ldexp(1.0L, -24), k = depth + 6;
      const double bound = static_cast<double>(k * u / (1 - k * u) * want);
      const double got = red.reduce(hub, in, n, {ScalarArg{delta}}).value();
      CAPTURE(got);
      CAPTURE(static_cast<double>(want));
      CHECK(std::fabs(got - static_cast<double>(want)) <= bound);
      if (!builds) builds = programs.builds();
      CHECK(programs.builds() == builds);
    }
    // Rows of a 64 x 1024 matrix (both inputs), delta 1.
    AxisReducerOptions ao;
    ao.tuning.enabled = false;
    AxisReducer axis(session().queue(), ao);
    const MatrixShape shape{64, 1024, 0};
    const std::vector<Result> rows = axis.reduce(hub, in, Axis::Rows, shape, {ScalarArg{1.0}});
    REQUIRE(rows.size() == 64);
    for (std::uint64_t r = 0; r < 64; ++r) {
      long double want = 0;
      for (std::uint64_t c = 0; c < 1024; ++c) want += huber(static_cast<long double>(p[r * 1024 + c]) - t[r * 1024 + c], 1.0L);
      CAPTURE(r);
      CHECK(std::fabs(rows[r].value() - static_cast<double>(want)) <= static_cast<double>(want) * 1e-4);
    }
    CHECK_THROWS_AS(red.reduce(hub, in, n), Error);  // the scalar is required
  }

  TEST_CASE("a broken descriptor file: the build log names the file's own line, inside its macros too") {
    ReducerOptions ro;
    ro.tuning.enabled = false;
    Reducer red = session().reducer(ro);
    const std::vector<float> x(100, 1.0f);
    const cl::Buffer b = upload(x);
    // An undeclared function inside COMBINE, on line 7 of the file.
    const fs::path bad = write_temp("broken_combine.clh", "// a broken descriptor\n#define INPUTS f32\n#define RESULT f32\n"
                                                          "#define ACC_TYPE float\n#define IDENTITY 0.0f\n\n"
                                                          "#define COMBINE(a, b) no_such_function((a), (b))\n");
    std::string what = error_of([&] { red.reduce(load_reduction(bad), {Input{b, 0}}, x.size()); });
    CAPTURE(what);
    CHECK(what.find("build log") != std::string::npos);
    CHECK(what.find(fs::absolute(bad).string() + ":7:") != std::string::npos);
    CHECK(what.find("no_such_function") != std::string::npos);
    // A syntax error in the file's own function, on line 6.
    const fs::path syntax = write_temp("broken_syntax.clh", "#define INPUTS f32\n#define RESULT f32\n#define ACC_TYPE float\n"
                                                            "#define IDENTITY 0.0f\n#define COMBINE(a, b) add((a), (b))\n"
                                                            "float add(float a, float b) { return a +* b; }\n");
    what = error_of([&] { red.reduce(load_reduction(syntax), {Input{b, 0}}, x.size()); });
    CAPTURE(what);
    CHECK(what.find(fs::absolute(syntax).string() + ":6:") != std::string::npos);
    // ACC_BYTES that is not sizeof(ACC_TYPE): the kernel's own check says which.
    const fs::path size = write_temp("wrong_size.clh", "typedef struct { float s; uint c; } acc_t;\n#define INPUTS f32\n"
                                                       "#define RESULT f32\n#define ACC_TYPE acc_t\n#define ACC_BYTES 12\n"
                                                       "acc_t mk(float s, uint c) { acc_t a; a.s = s; a.c = c; return a; }\n"
                                                       "#define LIFT(v, i) mk((v), 1u)\n#define IDENTITY mk(0.0f, 0u)\n"
                                                       "#define COMBINE(a, b) mk((a).s + (b).s, (a).c + (b).c)\n"
                                                       "#define FINISH(a, n) (a).s\n");
    what = error_of([&] { red.reduce(load_reduction(size), {Input{b, 0}}, x.size()); });
    CAPTURE(what);
    CHECK(what.find("desc_check_acc_bytes_is_sizeof_acc_type") != std::string::npos);
    // The same file with ACC_BYTES 8 is right.
    const fs::path right = write_temp("right_size.clh", "typedef struct { float s; uint c; } acc_t;\n#define INPUTS f32\n"
                                                        "#define RESULT f32\n#define ACC_TYPE acc_t\n#define ACC_BYTES 8\n"
                                                        "acc_t mk(float s, uint c) { acc_t a; a.s = s; a.c = c; return a; }\n"
                                                        "#define LIFT(v, i) mk((v), 1u)\n#define IDENTITY mk(0.0f, 0u)\n"
                                                        "#define COMBINE(a, b) mk((a).s + (b).s, (a).c + (b).c)\n"
                                                        "#define FINISH(a, n) ((a).s / (float)(a).c)\n");
    CHECK(red.reduce(load_reduction(right), {Input{b, 0}}, x.size()).value() == 1.0);
  }

  TEST_CASE("long lines and long blank runs in user files are read, not a crash; a build log quoting them still maps") {
    // std::regex (libstdc++) recursed once per character of a long run: 26,000 blank bytes in an
    // operator file, or a 40 KB macro line in a descriptor, overflowed the stack (a segfault).
    // The directive lines are read by hand now; the files are under the 64 KiB bound.
    const std::string blanks(40000, '\n'), spaces(40000, ' ');
    const fs::path op = write_temp("blank_op.clh", "#define OP(a, b) ((a) + (b))\n#define IDENTITY 0" + blanks);
    CHECK_FALSE(is_reduction_file(op));
    CHECK(load_user_operator(op).name == "blank_op");
    const std::string some(20000, ' ');
    const fs::path op_type = write_temp("typed_op.clh", some + "\n#define OP_TYPE" + some + "float\n#define OP(a, b) ((a) + (b))\n"
                                                        "#define IDENTITY 0.0f\n");
    CHECK(load_user_operator(op_type).type == std::optional<ElemType>(ElemType::Float));
    std::string long_map = kMinimal + "#define MAP(x0, i) (x0)" + spaces + "\n";
    const fs::path desc = write_temp("long_line.clh", long_map);
    CHECK(is_reduction_file(desc));
    CHECK(load_reduction(desc).inputs.size() == 1);
    std::string pluses;
    for (int k = 0; k < 7000; ++k) pluses += "+0.0f";
    CHECK(load_reduction(write_temp("long_expr.clh", kMinimal + "#define MAP(x0, i) (x0)" + pluses + "\n")).inputs.size() == 1);
    CHECK(load_reduction(write_temp("long_inputs.clh", "#define INPUTS f32" + std::string(20000, ',') + " \n" +
                                                          kMinimal.substr(kMinimal.find("#define RESULT"))))
              .inputs.size() == 1);
    std::string long_result = kMinimal;
    long_result.replace(long_result.find("#define RESULT f32"), 18, "#define RESULT argvalue<" + std::string(30000, 'f') + ">");
    CHECK(error_of([&] { load_reduction(write_temp("long_result.clh", long_result)); }).find(": RESULT: ") != std::string::npos);
    // A build error on such a line: the log (which quotes the line) still names the file and line.
    ReducerOptions ro;
    ro.tuning.enabled = false;
    Reducer red = session().reducer(ro);
    const std::vector<float> x(100, 1.0f);
    const cl::Buffer b = upload(x);
    const fs::path bad = write_temp("long_bad.clh", kMinimal + "#define MAP(x0, i) (x0)" + pluses + " + nosuch\n");
    const std::string what = error_of([&] { red.reduce(load_reduction(bad), {Input{b, 0}}, x.size()); });
    CHECK(what.find(fs::absolute(bad).string() + ":6:") != std::string::npos);
  }

  TEST_CASE("reduce --op-file with a descriptor file: checked runs, --scalar, --output, refusals") {
    const std::string huber = (kExamples / "huber_loss.clh").string(), iamax = (kExamples / "iamax.clh").string();
    const fs::path short_in = write_temp("in100.bin", std::string(400, '\0')), long_in = write_temp("in150.bin", std::string(600, '\0'));
    // A descriptor that forgot RESULT is still a descriptor (it is told what it lacks).
    const fs::path no_result = write_temp("cli_no_result.clh", kMinimal.substr(0, kMinimal.find("#define RESULT")) +
                                                                   kMinimal.substr(kMinimal.find("#define ACC_TYPE")));
    // "+5" is a u64 scalar's 5; a new value of a scalar rebuilds nothing (the kernel cache is warm).
    const fs::path count = write_temp("count_above.clh", "#define INPUTS f32\n#define SCALARS f32\n#define RESULT u64\n"
                                                         "#define ACC_TYPE ulong\n#define IDENTITY 0ul\n"
                                                         "#define MAP(x0, i, s0) (ulong)((x0) > (s0))\n"
                                                         "#define COMBINE(a, b) ((a) + (b))\n");
    CliRun plus = run_cli("reduce --op-file " + count.string() + " --scalar +0.5 --n 1000 --data ones");
    CAPTURE(plus.out);
    CHECK(plus.code == 0);
    CHECK(plus.out.find("result      1000") != std::string::npos);
    CHECK(plus.out.find("warning") == std::string::npos);  // a scalar's parameter list builds without a word
    CliRun r = run_cli("reduce --op-file " + huber + " --scalar 0.75 --n 10007");
    CAPTURE(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("huber_loss of f32 x f32") != std::string::npos);
    CHECK(r.out.find("one work-item in index order") != std::string::npos);
    r = run_cli("reduce --op-file " + iamax + " --axis cols --shape 300x41 --seed 7");
    CAPTURE(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("all 41 results within their bounds") != std::string::npos);
    CHECK(r.out.find("accumulator iamax_t, result argvalue<f32>") != std::string::npos);
    // Every row's result as .npy: argvalue<f32> records of 16 bytes.
    const fs::path npy = write_temp("unused", "").parent_path() / "rows.npy";
    fs::remove(npy);
    r = run_cli("reduce --op-file " + iamax + " --axis rows --shape 9x1000 --output " + npy.string());
    CAPTURE(r.out);
    CHECK(r.code == 0);
    REQUIRE(fs::exists(npy));
    CHECK(fs::file_size(npy) % 16 == 0);
    std::ifstream in(npy, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(bytes.find("(9,)") != std::string::npos);
    fs::remove(npy);
    // Refusals, each before a device is opened.
    // Not a structured binding: clang (C++17) cannot capture one in CAPTURE's lambda.
    for (const std::pair<std::string, std::string>& refusal : std::vector<std::pair<std::string, std::string>>{
             {"--op-file " + huber + " --n 100", "takes 1 scalar argument(s) (f32); --scalar was given 0 time(s)"},
             {"--op-file " + huber + " --n 100 --scalar 1 --scalar 2", "--scalar was given 2 time(s)"},
             {"--op-file " + huber + " --n 100 --scalar one", "--scalar 'one' (s0 of huber_loss, f32): not a number"},
             {"--op-file " + iamax + " --n 100 --scalar 1", "takes 0 scalar argument(s)"},
             {"--op-file " + iamax + " --n 100 --type f64", "--type and the descriptor file"},
             {"--op-file " + iamax + " --n 100 --op max", "--op and the descriptor file"},
             {"--op-file " + huber + " --scalar 1 --n 100 --input /dev/null", "--input was given 1 time(s); huber_loss reads 2 input(s)"},
             {"--op-file " + (kExamples / "product.clh").string() + " --type uint --n 100 --scalar 1",
              "is a user operator (it #defines OP and IDENTITY) of the families' kernels, which take uint, int, float, "
              "double and no --scalar"},
             {"--op-file " + huber + " --n 100 --scalar 1e40", "beyond the largest finite f32 (3.40282347e+38)"},
             {"--op-file " + huber + " --scalar 1 --input " + short_in.string() + " --input " + long_in.string(),
              "holds 150 elements of f32, --input " + short_in.string() + " 100: the inputs of one reduction are read "
              "at the same indices"},
             {"--op-file " + no_result.string() + " --n 100", "does not #define RESULT"},
             {"--op sum --type f32 --input /dev/zero", "'/dev/zero' is not a regular file"},
         }) {
      const std::string& args = refusal.first;
      const std::string& expect = refusal.second;
      CAPTURE(args);
      const CliRun bad = run_cli("reduce " + args);
      CAPTURE(bad.out);
      CHECK(bad.code != 0);
      CHECK(bad.out.find(expect) != std::string::npos);
      CHECK(bad.out.find("device ") == std::string::npos);  // nothing ran
    }
  }
}
