// User operators (issue 16): a .clh file of the user's, compiled into every kernel at run time
// (Op::User), checked against the device's in-order fold of the same operator
// (kernels_cl/user_reference.cl). Every available whole-array variant, every axis variant and
// both segmented kernels with the shipped examples (product, sum of squares) at sizes 1, WG-1,
// WG, WG+1, primes; a file that defines too little refused with the compiler's log; the
// refusals of the API and the command line.
#include <doctest/doctest.h>

#include "benchmarks/axis_run.hpp"
#include "benchmarks/segmented_run.hpp"
#include "axis/plan.hpp"
#include "clreduce/error.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/user_operator.hpp"
#include "clreduce/variants.hpp"
#include "measure/measure.hpp"
#include "measure/user_reference.hpp"
#include "support.hpp"

#include <cstring>
#include <fstream>
#include <random>

using namespace clreduce;
using namespace clreduce::test;

namespace {
std::shared_ptr<const UserOperator> example(const std::string& name) {
  return std::make_shared<const UserOperator>(
      load_user_operator(std::filesystem::path(CLREDUCE_SOURCE_KERNEL_DIR) / "examples" / (name + ".clh")));
}

// Floats in [0.99, 1.01] (a product of a few thousand stays in range), or any uint (the product
// wraps modulo 2^32, exactly, in any order).
HostData data_for(ElemType t, std::uint64_t n, std::uint64_t s) {
  if (t != ElemType::Float) return generate_data(t, n, DataKind::Random, s);
  std::mt19937_64 g(s);
  std::vector<float> v(n);
  for (auto& x : v) x = 0.99f + 0.02f * static_cast<float>(g() % 10000) / 10000.0f;
  HostData d;
  d.type = t;
  d.n = n;
  d.bytes.resize(n * sizeof(float));
  std::memcpy(d.bytes.data(), v.data(), d.bytes.size());
  d.origin = "floats in [0.99, 1.01], seed " + std::to_string(s);
  return d;
}

ReduceReport run_user(const std::shared_ptr<const UserOperator>& op, const std::string& variant,
                      const HostData& data) {
  ReducerOptions o;
  o.params.variant = variant;
  o.tuning.enabled = false;
  o.device = session().device();
  o.kernel_dir = session().kernel_dir();
  o.user_op = op;
  Reducer r(session().queue(), o);
  return run_reduce(session(), r, data, Op::User, quick_timing(0, 1), op.get());
}
}  // namespace

TEST_SUITE("user_op") {
  TEST_CASE("every available whole-array variant with the product and the sum of squares") {
    MESSAGE("data seed " << seed());
    std::size_t runs = 0;
    for (const Variant& v : variants()) {
      if (!v.unavailable_reason(session().device()).empty()) continue;
      for (const auto& op_type : {std::pair{"product", ElemType::Uint}, {"product", ElemType::Float},
                                  {"sum_of_squares", ElemType::Float}})
        for (std::uint64_t n : {1, 255, 256, 257, 1001, 65537}) {
          const std::string name = op_type.first;  // named copies: CAPTURE cannot take structured bindings (C++17)
          const ElemType t = op_type.second;
          CAPTURE(v.name);
          CAPTURE(name);
          CAPTURE(n);
          const ReduceReport r = run_user(example(name), v.name, data_for(t, n, seed() + n));
          INFO(r.check.detail);
          CHECK(r.ok());
          ++runs;
        }
    }
    MESSAGE(runs << " user-operator reductions checked");
  }

  TEST_CASE("the in-order reference itself: the product of 1..12 and a sum of squares, by hand") {
    const auto product = example("product");
    std::vector<std::uint32_t> v(12);
    for (std::uint32_t i = 0; i < 12; ++i) v[i] = i + 1;
    HostData d;
    d.type = ElemType::Uint;
    d.n = v.size();
    d.bytes.resize(v.size() * 4);
    std::memcpy(d.bytes.data(), v.data(), d.bytes.size());
    CHECK(user_reference(session(), *product, d).value.get<std::uint32_t>() == 479001600u);  // 12!
    const HostData three = generate_data(ElemType::Float, 5000, DataKind::Ones, seed());
    CHECK(user_reference(session(), *example("sum_of_squares"), three).value.get<float>() == 5000.0f);
  }

  TEST_CASE("every axis variant and both segmented kernels with a user operator") {
    const auto product = example("product");
    const auto squares = example("sum_of_squares");
    for (const AxisVariant& v : axis_variants())
      for (const auto& shape : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{1, 1}, {17, 33}, {257, 263}, {3, 1000}}) {
        const std::uint64_t m = shape.first, n = shape.second;  // CAPTURE takes them by reference
        AxisConfig cfg;
        cfg.variant = v.name;
        cfg.axis = v.axis;
        cfg.op = Op::User;
        cfg.type = ElemType::Uint;
        CAPTURE(v.name);
        CAPTURE(m);
        CAPTURE(n);
        if (!v.user_ops) {  // a built-in descriptor's kernel: refused before anything is built, naming the takers
          CHECK_THROWS_WITH_AS(plan_axis(cfg, session().device(), m, n), doctest::Contains("not a user's operator file"),
                               ConfigError);
          continue;
        }
        const AxisReport a = run_axis(session(), cfg, data_for(cfg.type, m * n, seed()), m, n, quick_timing(0, 1), product);
        INFO(a.check.detail);
        CHECK(a.ok());
        cfg.type = ElemType::Float;
        const AxisReport b = run_axis(session(), cfg, data_for(cfg.type, m * n, seed()), m, n, quick_timing(0, 1), squares);
        INFO(b.check.detail);
        CHECK(b.ok());
      }
    const std::vector<std::uint64_t> offsets{0, 0, 1, 300, 300, 5000, 5001};
    for (std::uint64_t parts : {1, 5, 0}) {  // segments_group, segments_split, segments_sliced (0: a slice of 8)
      SegmentedConfig cfg;
      cfg.op = Op::User;
      cfg.type = ElemType::Float;
      cfg.parts = parts ? parts : 1;
      if (parts == 0) cfg.slice = 8;
      const SegmentedReport s = run_segmented(session(), cfg, data_for(cfg.type, 5001, seed()), offsets,
                                              quick_timing(0, 1), "", squares);
      INFO(s.check.detail);
      CHECK(s.ok());
      CHECK(s.outputs.values[0].get<float>() == 0.0f);  // empty: IDENTITY
    }
  }

  TEST_CASE("a file that defines too little fails to build, with the log naming what is missing") {
    const auto no_op = std::make_shared<const UserOperator>(user_operator_from_text("no_op", "#define IDENTITY ((T)0)\n"));
    const auto no_identity =
        std::make_shared<const UserOperator>(user_operator_from_text("no_identity", "#define OP(a, b) ((a) + (b))\n"));
    const HostData d = generate_data(ElemType::Uint, 1000, DataKind::Random, seed());
    try {
      run_user(no_op, "stride_global", d);
      FAIL("a file without OP built");
    } catch (const Error& e) {
      const std::string what = e.what();
      CHECK(what.find("with the operator 'no_op'") != std::string::npos);
      CHECK(what.find("build log") != std::string::npos);
      CHECK(what.find("does not #define OP(a, b)") != std::string::npos);
    }
    CHECK_THROWS_WITH_AS(run_user(no_identity, "naive", d), doctest::Contains("does not #define IDENTITY"),
                         Error);
    // A syntax error in the user's file: the log points into the user's text.
    const auto broken =
        std::make_shared<const UserOperator>(user_operator_from_text("broken", "#define IDENTITY ((T)0)\n#define OP(a, b) ((a) +* (b))\n"));
    CHECK_THROWS_WITH_AS(run_user(broken, "naive", d), doctest::Contains("build log"), Error);
  }

  TEST_CASE("refusals: the file, its type, Op::User without an operator, an operator with another op") {
    CHECK_THROWS_WITH_AS(user_operator_from_text("e", " \n"), doctest::Contains("is empty"), Error);
    CHECK_THROWS_WITH_AS(user_operator_from_text("i", "#include \"x.h\"\n#define OP(a,b) a\n"),
                         doctest::Contains("#include"), Error);
    CHECK_THROWS_WITH_AS(user_operator_from_text("t", "#define OP_TYPE half\n"), doctest::Contains("valid: uint, int, float, double"),
                         Error);
    CHECK_THROWS_WITH_AS(load_user_operator("/nonexistent/op.clh"), doctest::Contains("No such file"), Error);
    CHECK(example("sum_of_squares")->type == ElemType::Float);
    CHECK_FALSE(example("product")->type.has_value());
    const HostData u = generate_data(ElemType::Uint, 100, DataKind::Random, seed());
    CHECK_THROWS_WITH_AS(run_user(example("sum_of_squares"), "naive", u), doctest::Contains("OP_TYPE"),
                         ConfigError);
    ReducerOptions o;
    o.device = session().device();
    o.kernel_dir = session().kernel_dir();
    Reducer plain(session().queue(), o);
    CHECK_THROWS_WITH_AS(introspect::prepare(plain, ElemType::Uint, Op::User, 100), doctest::Contains("needs the user's operator"),
                         ConfigError);
    o.user_op = example("product");
    Reducer with(session().queue(), o);
    CHECK_THROWS_WITH_AS(introspect::prepare(with, ElemType::Uint, Op::Sum, 100), doctest::Contains("use Op::User"), ConfigError);
  }

  TEST_CASE("command line: --op-file end to end, a broken file refused with its log, contradictions in one line") {
    const std::string ex = std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/";
    const CliRun ok = run_cli("reduce --op-file " + ex + "sum_of_squares.clh --n 100003");
    INFO(ok.out);
    CHECK(ok.code == 0);
    CHECK(ok.stdout_text.find("in-order reference") != std::string::npos);
    const CliRun axis = run_cli("reduce --op-file " + ex + "product.clh --type uint --axis cols --shape 99x37");
    CHECK(axis.code == 0);
    const CliRun bench = run_cli("bench --op-file " + ex + "product.clh --type uint --n 5000 --iterations 2");
    INFO(bench.out);
    CHECK(bench.code == 0);
    const std::string bad = (std::filesystem::temp_directory_path() / "clreduce_bad_op.clh").string();
    std::ofstream(bad) << "#define OP(a, b) ((a) * (b))\n";
    const CliRun broken = run_cli("reduce --op-file " + bad + " --n 1000");
    CHECK(broken.code != 0);
    CHECK(broken.stderr_text.find("does not #define IDENTITY") != std::string::npos);
    std::filesystem::remove(bad);
    const CliRun both = run_cli("reduce --op max --op-file " + ex + "product.clh --n 10");
    CHECK(both.code == 2);
    CHECK(both.stderr_text.find("give one") != std::string::npos);
    const CliRun type = run_cli("reduce --type int --op-file " + ex + "sum_of_squares.clh --n 10");
    CHECK(type.code == 2);
    CHECK(type.stderr_text.find("is for float") != std::string::npos);
  }
}
