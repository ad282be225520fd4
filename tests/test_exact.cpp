// Exact summation (Summation::Exact, kernels_cl/exact_sum.clh): sum, mean, dot, sumsq and l2 of
// f16, bf16, f32 and f64, checked bit for bit against the rational reference of
// tools/data/exact_reference.hpp (a wide fixed-point integer filled from each element's frexp,
// rounded by its own code; l2 checked by squaring the neighbours' midpoints; nothing of the
// kernels' exact_sum.clh), itself checked here on known roundings, on adversarial inputs: huge
// cancellations in every order, the whole exponent range at once, subnormals only, signed zeros,
// infinities and NaN, sums that round to a tie, sums that overflow, and random data with mixed
// magnitudes. The same input through many launches (work-group sizes, VEC, ITEMS, groups, the
// expansion on and off, chunked parts) gives the same bits; every family (whole, rows, columns,
// segments) and the MultiReducer over the default platform's devices too.
#include <doctest/doctest.h>

#include "clreduce/axis.hpp"
#include "clreduce/error.hpp"
#include "clreduce/multi_device.hpp"
#include "clreduce/reduce.hpp"
#include "clreduce/reduction.hpp"
#include "clreduce/segmented.hpp"
#include "clreduce/variants.hpp"
#include "data/exact_reference.hpp"
#include "descriptor/families.hpp"
#include "reduce/descriptor_launch.hpp"
#include "support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace clreduce;
using namespace clreduce::test;

namespace {
using S = Scalar;
using B = Builtin;

// ---- Inputs ----
// The element as the device reads it (f16 and bf16 by their bits) and as its stored bytes.
double decoded(S t, double x) {
  switch (t) {
    case S::F16: return f16_to_float(float_to_f16(static_cast<float>(x)));
    case S::BF16: return bf16_to_float(float_to_bf16(static_cast<float>(x)));
    case S::F32: return static_cast<float>(x);
    default: return x;
  }
}

std::vector<unsigned char> encode(S t, const std::vector<double>& xs) {
  std::vector<unsigned char> out(xs.size() * size_of(t));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    unsigned char* p = out.data() + i * size_of(t);
    if (t == S::F16 || t == S::BF16) {
      const std::uint16_t h = t == S::F16 ? float_to_f16(static_cast<float>(xs[i])) : float_to_bf16(static_cast<float>(xs[i]));
      std::memcpy(p, &h, 2);
    } else if (t == S::F32) {
      const float f = static_cast<float>(xs[i]);
      std::memcpy(p, &f, 4);
    } else {
      std::memcpy(p, &xs[i], 8);
    }
  }
  return out;
}

const std::vector<S> kTypes = {S::F16, S::BF16, S::F32, S::F64};
const std::vector<B> kOps = {B::Sum, B::Mean, B::Dot, B::SumSq, B::L2};

bool device_has_fp64() { return session().device().fp64; }

// The expected result of op over xs (ys: dot's second input), every element decoded as t reads it.
double expected(B op, S t, const std::vector<double>& xs, const std::vector<double>& ys, const ExactFormat& f) {
  ExactSum ref;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double x = decoded(t, xs[i]);
    if (op == B::Sum || op == B::Mean) ref.add_value(x);
    else ref.add_product(x, op == B::Dot ? decoded(t, ys[i]) : x);
  }
  return op == B::Mean ? ref.mean(f) : ref.rounded(f);
}

std::string hex(double v, bool f64) {
  char buf[64];
  if (f64) std::snprintf(buf, sizeof buf, "%a", v);
  else std::snprintf(buf, sizeof buf, "%a (f32 %08x)", v, [&] {
    const float g = static_cast<float>(v);
    std::uint32_t u;
    std::memcpy(&u, &g, 4);
    return u;
  }());
  return buf;
}

// The device's result as a double (exact), and whether it is the reference's bits (NaN: any NaN
// is the canonical quiet one).
double result_value(const Result& r) {
  return r.layout.type == S::F64 ? r.get<double>() : static_cast<double>(r.get<float>());
}
bool same_bits(const Result& r, double want) {
  if (r.layout.type == S::F64) {
    const double got = r.get<double>();
    if (std::isnan(want)) {
      std::uint64_t u;
      std::memcpy(&u, &got, 8);
      return u == 0x7ff8000000000000ull;
    }
    return std::memcmp(&got, &want, 8) == 0;
  }
  const float got = r.get<float>(), w = static_cast<float>(want);
  if (std::isnan(want)) {
    std::uint32_t u;
    std::memcpy(&u, &got, 4);
    return u == 0x7fc00000u;
  }
  return std::memcmp(&got, &w, 4) == 0;
}

// The check of one device result against the reference, l2 by its own rule.
void check_result(B op, S t, const Result& got, const std::vector<double>& xs, const std::vector<double>& ys,
                  const std::string& what) {
  const bool f64 = got.layout.type == S::F64;
  const ExactFormat& f = f64 ? kExactF64 : kExactF32;
  INFO(what << ": " << name_of(op) << " of " << xs.size() << " " << name_of(t) << " -> " << hex(result_value(got), f64));
  if (op == B::L2) {
    ExactSum ref;
    for (double x : xs) ref.add_product(decoded(t, x), decoded(t, x));
    CHECK(ref.is_rounded_sqrt(result_value(got), f));
    return;
  }
  const double want = expected(op, t, xs, ys, f);
  INFO("expected " << hex(want, f64));
  CHECK(same_bits(got, want));
}

// One whole-array reduction of xs (and ys) on the session's device with `params`.
Result run_whole(B op, S t, const std::vector<double>& xs, const std::vector<double>& ys, const ReduceParams& params,
                 std::optional<S> accumulate = std::nullopt) {
  const Session& s = session();
  ReducerOptions o;
  o.params = params;
  o.tuning.enabled = false;
  o.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
  Reducer red(s.queue(), o);
  const Reduction r = builtin(op, t, accumulate, Summation::Exact);
  const auto bx = encode(t, xs), by = encode(t, op == B::Dot ? ys : xs);
  std::vector<Input> in;
  in.push_back({cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bx.size(), const_cast<unsigned char*>(bx.data())), 0});
  if (op == B::Dot)
    in.push_back({cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, by.size(), const_cast<unsigned char*>(by.data())), 0});
  return red.reduce(r, in, xs.size());
}

// A GPU as the planners see it: an H100's compute units, work-group limit and local memory, fp64
// (no 64-bit atomics: tests add them where they need EXACT_GROUP).
DeviceInfo fake_h100() {
  DeviceInfo gpu = fake_device();
  gpu.is_gpu = true;
  gpu.compute_units = 132;
  gpu.max_work_group_size = 1024;
  gpu.local_mem_bytes = 48 << 10;
  gpu.fp64 = true;
  return gpu;
}

// The whole array's two paths: the default (EXACT_GROUP where the device can) and the accumulator
// per work-item (EXACT_GROUP 0; on a device without the fast path the same launch twice).
std::vector<ReduceParams> whole_paths() {
  ReduceParams generic;
  generic.defines.push_back({"EXACT_GROUP", "0"});
  return {ReduceParams{}, generic};
}
std::string path_name(const ReduceParams& p) { return p.defines.empty() ? " (default launch)" : " (EXACT_GROUP 0)"; }

// The adversarial inputs, each a named list (dot pairs them with a second list).
struct Case {
  std::string name;
  std::vector<double> xs;
};

std::vector<Case> adversarial(S t) {
  const bool f64 = t == S::F64, f16 = t == S::F16;
  const double big = f64 ? 1e300 : f16 ? 60000.0 : t == S::BF16 ? 1e38 : 1e30;
  const double tiny = f64 ? 4.9406564584124654e-324 : f16 ? 5.9604644775390625e-08 : t == S::BF16 ? 9.18e-41 : 1.401298464324817e-45;
  const double eps = f64 ? 0x1p-53 : f16 ? 0x1p-11 : t == S::BF16 ? 0x1p-8 : 0x1p-24;  // half an ulp of 1
  const double maxv = f64 ? std::numeric_limits<double>::max() : f16 ? 65504.0 : t == S::BF16 ? 0x1.fep127 : std::numeric_limits<float>::max();
  std::vector<Case> cs;
  // Cancellation in every order.
  std::vector<double> c = {big, 1.0, -big};
  std::sort(c.begin(), c.end());
  int k = 0;
  do cs.push_back({"cancel order " + std::to_string(k++), c});
  while (std::next_permutation(c.begin(), c.end()));
  cs.push_back({"cancel to a tiny rest", {big, tiny, -big, tiny}});
  // The whole exponent range: a power of two of every exponent (every third), alternating signs,
  // and 1 + 1 (so the result is 2 plus the tiny rest, rounded).
  {
    std::vector<double> xs = {1.0, 1.0};
    const int lo = f64 ? -1074 : f16 ? -24 : -149, hi = f64 ? 1023 : f16 ? 15 : 127;
    for (int e = lo; e <= hi; e += 3) {
      xs.push_back(std::ldexp(1.0, e));
      xs.push_back(-std::ldexp(1.0, e));
      xs.push_back(std::ldexp(1.0, e) * ((e & 1) ? 1.0 : -1.0));
    }
    cs.push_back({"every exponent", xs});
  }
  // Subnormals only (the smallest and some others).
  cs.push_back({"subnormals", {tiny, tiny * 3, -tiny, tiny * 7, tiny, tiny * 2}});
  // Signed zeros.
  cs.push_back({"all -0", {-0.0, -0.0, -0.0}});
  cs.push_back({"one -0", {-0.0}});
  cs.push_back({"-0 and +0", {-0.0, 0.0, -0.0}});
  cs.push_back({"cancel to +0", {-1.0, 1.0, -0.0}});
  // Infinities and NaN.
  cs.push_back({"+inf", {1.0, INFINITY, 2.0}});
  cs.push_back({"-inf", {-INFINITY, 1.0}});
  cs.push_back({"inf - inf", {INFINITY, 1.0, -INFINITY}});
  cs.push_back({"nan", {1.0, NAN, 2.0}});
  // Ties: 1 + half an ulp (to even: 1), 1 + 1.5 ulp pieces, a tie broken by a tiny rest.
  cs.push_back({"tie to even", {1.0, eps}});
  cs.push_back({"tie up", {1.0 + 2 * eps, eps}});
  cs.push_back({"tie broken by a rest", {1.0, eps, tiny}});
  cs.push_back({"tie broken below", {1.0, eps, -tiny}});
  // Overflow of the rounded result, and a sum past the largest that comes back.
  cs.push_back({"overflow", {maxv, maxv}});
  cs.push_back({"past the largest and back", {maxv, maxv, -maxv}});
  cs.push_back({"negative overflow", {-maxv, -maxv / 2}});
  return cs;
}

std::vector<double> random_values(S t, std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> e(t == S::F64 ? -60 : t == S::F16 ? -14 : -40, t == S::F64 ? 60 : t == S::F16 ? 10 : 40);
  std::vector<double> xs(n);
  for (double& x : xs) x = decoded(t, std::ldexp(u(rng), e(rng)));
  return xs;
}

// The types the device takes (f64 only with fp64), so a covering sample spans the types it has.
std::vector<S> device_types() {
  std::vector<S> out;
  for (S t : kTypes)
    if (t != S::F64 || device_has_fp64()) out.push_back(t);
  return out;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("exact: which built-ins and types take exact summation, and the refusals") {
    for (B b : all_builtins())
      for (S t : all_scalars()) {
        const bool ok = exact_available(b, t);
        CHECK(ok == ((b == B::Sum || b == B::Mean || b == B::Dot || b == B::SumSq || b == B::L2) && is_floating(t)));
        if (ok) {
          const Reduction r = builtin(b, t, std::nullopt, Summation::Exact);
          CHECK(r.summation == Summation::Exact);
          CHECK(r.exact);
          CHECK(r.out.type == (t == S::F64 ? S::F64 : S::F32));
          CHECK(r.needs_fp64() == (t == S::F64));
          CHECK(builtin(b, t, S::F64, Summation::Exact).out.type == S::F64);
          CHECK(r != builtin(b, t));
        } else {
          CHECK_THROWS_AS(builtin(b, t, std::nullopt, Summation::Exact), Error);
        }
      }
    try {
      builtin(B::Sum, S::U32, std::nullopt, Summation::Exact);
      FAIL("an integer exact sum was taken");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("valid: f16, bf16, f32, f64") != std::string::npos);
    }
    try {
      builtin(B::Max, S::F32, std::nullopt, Summation::Exact);
      FAIL("an exact max was taken");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("valid: sum, mean, dot, sumsq, l2") != std::string::npos);
    }
    CHECK_THROWS_AS(builtin(B::Sum, S::F64, S::F32, Summation::Exact), Error);  // f64 rounds to f64
    CHECK(name_of(Summation::Exact) == "exact");
  }

  TEST_CASE("exact: the planners fit the accumulators' tree in local memory and, on a CPU, the stack") {
    DeviceInfo gpu = fake_h100();
    const Reduction dot64 = builtin(B::Dot, S::F64, std::nullopt, Summation::Exact);  // 1096 bytes
    REQUIRE(dot64.acc_bytes == 1096);
    const DescriptorLaunch whole = plan_descriptor(dot64, 1 << 20, {}, gpu);
    CHECK(whole.wg == 32);  // 32 x 1096 bytes fit 48 KiB, 64 do not
    CHECK(whole.items == 1);
    ReduceParams big;
    big.wg = 64;
    CHECK_THROWS_AS(plan_descriptor(dot64, 1 << 20, big, gpu), ConfigError);
    const DescriptorLaunch rows =
        plan_lines(dot64, LineShape{LineKind::Rows, 1000, 4096, 4096, S::U64}, FamilyParams{}, gpu, 0, true);
    CHECK(rows.wg * dot64.acc_bytes <= gpu.local_mem_bytes);
    const DescriptorLaunch cols = plan_columns(dot64, 4096, 1000, FamilyParams{}, gpu, 0, true);
    CHECK(cols.wg * dot64.acc_bytes <= gpu.local_mem_bytes);
    // A plain sum keeps its 256.
    CHECK(plan_descriptor(builtin(B::Sum, S::F32), 1 << 20, {}, gpu).wg == 256);

    DeviceInfo cpu = fake_device();
    cpu.local_mem_bytes = 4 << 20;
    cpu.fp64 = true;
    cpu.max_work_group_size = 4096;
    ReduceParams wide;
    wide.wg = 256;
    wide.vec = 16;
    try {
      plan_descriptor(dot64, 1 << 20, wide, cpu);
      FAIL("a work-group of 256 exact f64 dot accumulators at VEC 16 was taken on a CPU");
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()).find("valid: a power of two up to 64") != std::string::npos);
    }
    wide.wg = 64;
    CHECK(plan_descriptor(dot64, 1 << 20, wide, cpu).wg == 64);
    ReduceParams unset;
    unset.vec = 16;
    CHECK(plan_descriptor(dot64, 1 << 20, unset, cpu).wg <= 64);
    // Not exact: no such limit.
    ReduceParams plain = wide;
    plain.wg = 256;
    CHECK(plan_descriptor(builtin(B::Dot, S::F64), 1 << 20, plain, cpu).wg == 256);
  }

  TEST_CASE("exact: EXACT_GROUP, the whole array's fast path: where it is planned, the refusals, the group bound") {
    DeviceInfo gpu = fake_h100();
    const Reduction dot64 = builtin(B::Dot, S::F64, std::nullopt, Summation::Exact);
    const Reduction sum32 = builtin(B::Sum, S::F32, std::nullopt, Summation::Exact);
    // No 64-bit atomics: the accumulator per work-item; asked for, refused naming what is missing.
    CHECK_FALSE(exact_group_available(sum32, gpu));
    CHECK_FALSE(plan_descriptor(sum32, 1 << 20, {}, gpu).exact_group);
    ReduceParams on;
    on.defines.push_back({"EXACT_GROUP", "1"});
    try {
      plan_descriptor(sum32, 1 << 20, on, gpu);
      FAIL("EXACT_GROUP 1 was planned without cl_khr_int64_base_atomics");
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()).find("no cl_khr_int64_base_atomics") != std::string::npos);
    }
    gpu.extensions = "cl_khr_fp64 cl_khr_int64_base_atomics";
    CHECK(exact_group_available(sum32, gpu));
    const DescriptorLaunch fast = plan_descriptor(dot64, 1 << 20, {}, gpu);
    CHECK(fast.exact_group);
    CHECK(fast.options.find("-D EXACT_GROUP=1") != std::string::npos);
    CHECK(fast.wg == 256);  // no tree of 1096-byte accumulators to fit: the plain sums' shape
    CHECK(fast.items == 2);  // four doubles a chain (the products' expansion and their errors'): 2 chains
    CHECK(fast.groups == 4u * gpu.compute_units);  // 4 groups a compute unit for the exact fast path, not 8
    const DescriptorLaunch floats = plan_descriptor(sum32, 1 << 24, {}, gpu);
    CHECK(floats.items == 4);
    // Products of two float inputs: 2 chains on a GPU (the kernel's registers); a float's squares 4.
    CHECK(plan_descriptor(builtin(B::Dot, S::F32, std::nullopt, Summation::Exact), 1 << 24, {}, gpu).items == 2);
    CHECK(plan_descriptor(builtin(B::SumSq, S::F32, std::nullopt, Summation::Exact), 1 << 24, {}, gpu).items == 4);
    CHECK(plan_descriptor(builtin(B::L2, S::F32, std::nullopt, Summation::Exact), 1 << 24, {}, gpu).items == 4);
    CHECK(floats.groups == 4u * gpu.compute_units);
    const DescriptorLaunch doubles = plan_descriptor(builtin(B::Sum, S::F64, std::nullopt, Summation::Exact), 1 << 24, {}, gpu);
    CHECK(doubles.groups == 3u * gpu.compute_units);
    CHECK(doubles.vec == 2);
    // From 2^29 doubles: VEC 4 and 4 groups a compute unit.
    const Reduction sum64 = builtin(B::Sum, S::F64, std::nullopt, Summation::Exact);
    const DescriptorLaunch big = plan_descriptor(sum64, std::uint64_t{1} << 29, {}, gpu);
    CHECK(big.vec == 4);
    CHECK(big.groups == 4u * gpu.compute_units);
    CHECK(plan_descriptor(sum64, (std::uint64_t{1} << 29) - 1, {}, gpu).groups == 3u * gpu.compute_units);
    CHECK(plan_descriptor(builtin(B::Sum, S::F32), 1 << 24, {}, gpu).groups == 8u * gpu.compute_units);
    // Not for a default summation, nor without fp64, nor with the expansion turned off.
    CHECK_FALSE(exact_group_available(builtin(B::Sum, S::F32), gpu));
    CHECK_THROWS_AS(plan_descriptor(builtin(B::Sum, S::F32), 1 << 20, on, gpu), ConfigError);
    ReduceParams ints;
    ints.defines.push_back({"EXACT_EXPANSION", "0"});
    CHECK_FALSE(plan_descriptor(sum32, 1 << 20, ints, gpu).exact_group);
    ints.defines.push_back({"EXACT_GROUP", "1"});
    CHECK_THROWS_AS(plan_descriptor(sum32, 1 << 20, ints, gpu), ConfigError);
    ReduceParams off;
    off.defines.push_back({"EXACT_GROUP", "0"});
    const DescriptorLaunch generic = plan_descriptor(dot64, 1 << 20, off, gpu);
    CHECK_FALSE(generic.exact_group);
    CHECK(generic.wg == 32);
    DeviceInfo no64 = gpu;
    no64.fp64 = false;
    CHECK_FALSE(exact_group_available(sum32, no64));
    // 2^29 elements a group or more: the group's digits could overflow, so the generic path
    // (refused where EXACT_GROUP 1 was asked for).
    ReduceParams one_group;
    one_group.groups_per_cu = 1;
    DeviceInfo small = gpu;
    small.compute_units = 1;
    CHECK(plan_descriptor(sum32, (std::uint64_t{1} << 29) - 1, one_group, small).exact_group);
    CHECK_FALSE(plan_descriptor(sum32, std::uint64_t{1} << 29, one_group, small).exact_group);
    one_group.defines = on.defines;
    CHECK_THROWS_AS(plan_descriptor(sum32, std::uint64_t{1} << 29, one_group, small), ConfigError);
    // Who rounds: the last group where the digits are a float's 11 (sums and means of f16, bf16,
    // f32), a launch of its own for doubles' and products' larger ones; the caller's -D either way,
    // refused without EXACT_GROUP.
    for (S t : {S::F16, S::BF16, S::F32})
      for (B b : {B::Sum, B::Mean}) {
        const DescriptorLaunch l = plan_descriptor(builtin(b, t, std::nullopt, Summation::Exact), 1 << 20, {}, gpu);
        CHECK(l.exact_last_group_rounds);
        CHECK(l.options.find("-D EXACT_LAST_GROUP_ROUNDS=1") != std::string::npos);
        CHECK(l.label().find("rounded by the last group") != std::string::npos);
      }
    for (const Reduction& r : {dot64, builtin(B::Sum, S::F64, std::nullopt, Summation::Exact),
                               builtin(B::Dot, S::F32, std::nullopt, Summation::Exact),
                               builtin(B::L2, S::F32, std::nullopt, Summation::Exact)}) {
      INFO(r.name);
      CHECK_FALSE(plan_descriptor(r, (1 << 22) + 1, {}, gpu).exact_last_group_rounds);
    }
    // Doubles' sums and means up to 2^22 elements on a GPU: one group a compute unit, rounded by the
    // last group (faster there on the H100); past it, 3 a unit and a launch of their own. Not the
    // products, not a CPU.
    for (B b : {B::Sum, B::Mean}) {
      const Reduction r = builtin(b, S::F64, std::nullopt, Summation::Exact);
      INFO(r.name);
      const DescriptorLaunch up_to = plan_descriptor(r, 1 << 22, {}, gpu);
      CHECK(up_to.exact_last_group_rounds);
      CHECK(up_to.groups == gpu.compute_units);
      const DescriptorLaunch large = plan_descriptor(r, (1 << 22) + 1, {}, gpu);
      CHECK_FALSE(large.exact_last_group_rounds);
      CHECK(large.groups == 3u * gpu.compute_units);
    }
    CHECK_FALSE(plan_descriptor(dot64, 1 << 20, {}, gpu).exact_last_group_rounds);
    ReduceParams rounds;
    rounds.defines.push_back({"EXACT_LAST_GROUP_ROUNDS", "1"});
    CHECK(plan_descriptor(dot64, 1 << 20, rounds, gpu).exact_last_group_rounds);
    rounds.defines.back().value = "0";
    CHECK_FALSE(plan_descriptor(sum32, 1 << 20, rounds, gpu).exact_last_group_rounds);
    rounds.defines.back().value = "1";
    rounds.defines.push_back({"EXACT_GROUP", "0"});
    try {
      plan_descriptor(sum32, 1 << 20, rounds, gpu);
      FAIL("EXACT_LAST_GROUP_ROUNDS 1 was planned without EXACT_GROUP");
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()).find("without EXACT_GROUP") != std::string::npos);
    }
    CHECK_FALSE(plan_descriptor(sum32, 1 << 20, off, gpu).exact_last_group_rounds);
    // Whole trips without a test between their loads: the default; 0 only where EXACT_GROUP runs.
    CHECK(plan_descriptor(sum32, 1 << 20, {}, gpu).options.find("-D EXACT_WHOLE_TRIPS=1") != std::string::npos);
    ReduceParams tested;
    tested.defines.push_back({"EXACT_WHOLE_TRIPS", "0"});
    CHECK(plan_descriptor(dot64, 1 << 20, tested, gpu).options.find("-D EXACT_WHOLE_TRIPS=0") != std::string::npos);
    tested.defines.push_back({"EXACT_GROUP", "0"});
    CHECK_THROWS_AS(plan_descriptor(dot64, 1 << 20, tested, gpu), ConfigError);
    ReduceParams plain_tested;
    plain_tested.defines.push_back({"EXACT_WHOLE_TRIPS", "0"});
    CHECK_THROWS_AS(plan_descriptor(builtin(B::Sum, S::F32), 1 << 20, plain_tested, gpu), ConfigError);
  }

  TEST_CASE("exact: the reference's own rounding (ties to even, subnormals, overflow, square roots)") {
    auto sum_of = [](std::vector<double> xs, const ExactFormat& f) {
      ExactSum r;
      for (double x : xs) r.add_value(x);
      return r.rounded(f);
    };
    CHECK(sum_of({1.0, 0x1p-24}, kExactF32) == 1.0);
    CHECK(sum_of({1.0, 0x1p-24, 0x1p-80}, kExactF32) == 1.0 + 0x1p-23);
    CHECK(sum_of({1.0 + 0x1p-23, 0x1p-24}, kExactF32) == 1.0 + 0x1p-22);
    CHECK(sum_of({0x1p-150}, kExactF32) == 0.0);          // half the smallest subnormal: to even, 0
    CHECK(sum_of({0x1p-150, 0x1p-200}, kExactF32) == 0x1p-149);
    CHECK(sum_of({0x1.8p-149}, kExactF32) == 0x1p-148);   // 1.5 subnormal ulps: to even, 2
    CHECK(std::isinf(sum_of({0x1.fffffep127, 0x1p103}, kExactF32)));  // FLT_MAX + half an ulp: to even, 2^128
    CHECK(sum_of({0x1.fffffep127, 0x1p102}, kExactF32) == 0x1.fffffep127);
    CHECK(std::signbit(sum_of({-0.0, -0.0}, kExactF32)));
    CHECK(!std::signbit(sum_of({-0.0, 0.0}, kExactF32)));
    CHECK(sum_of({1e300, 1.0, -1e300}, kExactF64) == 1.0);
    ExactSum m;
    for (double x : {1.0, 1.0, 2.0}) m.add_value(x);
    CHECK(m.mean(kExactF64) == 4.0 / 3.0);
    CHECK(m.mean(kExactF32) == static_cast<double>(4.0f / 3.0f));
    ExactSum q;
    q.add_product(3.0, 3.0);
    q.add_product(4.0, 4.0);
    CHECK(q.is_rounded_sqrt(5.0, kExactF32));
    CHECK(!q.is_rounded_sqrt(std::nextafter(5.0f, 6.0f), kExactF32));
    ExactSum two;
    two.add_product(1.0, 1.0);
    two.add_product(1.0, 1.0);
    CHECK(two.is_rounded_sqrt(static_cast<double>(std::sqrt(2.0f)), kExactF32));
    CHECK(two.is_rounded_sqrt(std::sqrt(2.0), kExactF64));
    CHECK(!two.is_rounded_sqrt(std::nextafter(std::sqrt(2.0), 2.0), kExactF64));
    CHECK(two.sqrt(kExactF64) == std::sqrt(2.0));
    CHECK(two.sqrt(kExactF32) == static_cast<double>(std::sqrt(2.0f)));
    ExactSum huge;  // a sum of squares past a double's range whose root is not
    huge.add_product(1e200, 1e200);
    huge.add_product(1e200, 1e200);
    CHECK(std::isinf(huge.rounded(kExactF64)));
    CHECK(huge.sqrt(kExactF64) == std::sqrt(2.0) * 1e200);
    CHECK(std::isinf(huge.sqrt(kExactF32)));
  }

  TEST_CASE("exact: the reference merged from shards (clreduce-mpi's ranks) is the whole's, through its bytes") {
    // Every cut of each list into three shards, each shard's sum sent through to_bytes/from_bytes,
    // merged in order: the whole's rounding, count, signed zero, infinities and NaN.
    const std::vector<std::vector<double>> lists{
        {1e30, 1.0, -1e30, 0x1p-149, -0x1p-149, 3.0},  // cancellation across shards
        {-0.0, -0.0, -0.0},                            // -0 only where every term is
        {-0.0, 0.0, -0.0},
        {INFINITY, 1.0, -2.0},
        {INFINITY, 5.0, -INFINITY},                    // inf - inf: NaN
        {1.0, NAN, 2.0},
        {0x1.fffffep127, 0x1p103, -1.0}};              // past the largest in one shard only
    for (const std::vector<double>& xs : lists)
      for (std::size_t a = 0; a <= xs.size(); ++a)
        for (std::size_t b = a; b <= xs.size(); ++b) {
          ExactSum whole, merged;
          for (double x : xs) whole.add_value(x);
          for (const auto& [from, to] : {std::pair{std::size_t{0}, a}, {a, b}, {b, xs.size()}}) {
            ExactSum shard;
            for (std::size_t i = from; i < to; ++i) shard.add_value(xs[i]);
            std::vector<unsigned char> bytes(ExactSum::kBytes);
            shard.to_bytes(bytes.data());
            merged.merge(ExactSum::from_bytes(bytes.data()));
          }
          CAPTURE(a);
          CAPTURE(b);
          CHECK(merged.count() == whole.count());
          for (const ExactFormat* f : {&kExactF32, &kExactF64}) {
            const double w = whole.rounded(*f), m = merged.rounded(*f);
            CHECK(((std::isnan(w) && std::isnan(m)) || (w == m && std::signbit(w) == std::signbit(m))));
            const double wm = whole.mean(*f), mm = merged.mean(*f);
            CHECK(((std::isnan(wm) && std::isnan(mm)) || (wm == mm && std::signbit(wm) == std::signbit(mm))));
          }
        }
    ExactSum products, left, right;  // products too (dot): a shard's negative sum adds as its complement
    for (double x : {3.0, -1e200, 0.5}) products.add_product(x, x == 3.0 ? -4.0 : x);
    left.add_product(3.0, -4.0);
    right.add_product(-1e200, -1e200);
    right.add_product(0.5, 0.5);
    left.merge(right);
    CHECK(left.rounded(kExactF64) == products.rounded(kExactF64));
    CHECK(left.sqrt(kExactF64) == products.sqrt(kExactF64));
  }
}

TEST_SUITE("exact") {
  TEST_CASE("exact: adversarial inputs, every type and built-in, bit for bit") {
    const std::vector<S> types = device_types();
    for (std::size_t ti = 0; ti < types.size(); ++ti) {
      const S t = types[ti];
      for (std::size_t oi = 0; oi < kOps.size(); ++oi) {
        if (!in_diagonal(ti, oi, kOps.size())) continue;  // CLREDUCE_TEST_SAMPLE: every type and built-in covered
        const B op = kOps[oi];
        for (const Case& c : adversarial(t)) {
          // dot pairs the list with its reverse (products of every magnitude with every other).
          std::vector<double> ys(c.xs.rbegin(), c.xs.rend());
          for (const ReduceParams& p : whole_paths())
            check_result(op, t, run_whole(op, t, c.xs, ys, p), c.xs, ys, c.name + path_name(p));
        }
      }
    }
  }

  TEST_CASE("exact: random data of mixed magnitudes at sizes 1 .. 100003") {
    std::mt19937_64 rng(seed());
    const std::vector<S> types = device_types();
    for (std::size_t ti = 0; ti < types.size(); ++ti)
      for (std::size_t oi = 0; oi < kOps.size(); ++oi) {
        if (!in_diagonal(ti, oi, kOps.size())) continue;
        for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{255}, std::size_t{4097},
                              std::size_t{100003}}) {
          const auto xs = random_values(types[ti], n, rng), ys = random_values(types[ti], n, rng);
          for (const ReduceParams& p : whole_paths())
            check_result(kOps[oi], types[ti], run_whole(kOps[oi], types[ti], xs, ys, p), xs, ys, "random" + path_name(p));
        }
      }
  }

  TEST_CASE("exact: ordinary data (uniform in [-1, 1]), where the fast path's trips hold, against the reference") {
    // The data a benchmark reads: most trips stay exact in the chains, so the result comes from
    // the chains' expansions (for products of doubles, the products' and their errors' apart)
    // rather than from the rolled-back path that mixed magnitudes take.
    std::mt19937_64 rng(seed() + 3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::size_t k = 0;
    for (S t : device_types())
      for (B op : {B::Sum, B::Dot, B::SumSq}) {
        if (!in_shard(k++)) continue;
        std::vector<double> xs(262147), ys(xs.size());
        double naive = 0;  // the sum (of products) in plain doubles, less the last term
        for (std::size_t i = 0; i < xs.size(); ++i) {
          xs[i] = decoded(t, u(rng));
          ys[i] = decoded(t, u(rng));
          if (i + 1 < xs.size()) naive += op == B::Sum ? xs[i] : op == B::Dot ? xs[i] * ys[i] : 0.0;
        }
        if (op != B::SumSq) {
          // The last term takes the naive sum back out: what is left is the rounding errors' sum,
          // so every error the chains keep (for products, the TwoProd errors too) shows in the bits.
          xs.back() = decoded(t, -naive);
          ys.back() = 1.0;
        }
        check_result(op, t, run_whole(op, t, xs, ys, {}), xs, ys, op == B::SumSq ? "uniform" : "uniform, cancelled");
      }
  }

  TEST_CASE("exact: the same bits for every launch (work-group, VEC, ITEMS, groups, expansion on and off, EXACT_GROUP, either rounding)") {
    std::mt19937_64 rng(seed() + 1);
    const std::size_t max_wg = std::min<std::size_t>(session().device().max_work_group_size, 256);
    std::size_t k = 0;  // the launches' index, for the sample (CLREDUCE_TEST_SAMPLE)
    for (S t : device_types()) {
      for (B op : {B::Sum, B::Dot}) {
        auto xs = random_values(t, 30011, rng), ys = random_values(t, 30011, rng);
        xs[17] = decoded(t, 1e4);  // a large value among small ones: the expansion's errors
        xs[29999] = -xs[17];
        const Result first = run_whole(op, t, xs, ys, {});
        check_result(op, t, first, xs, ys, "default launch");
        std::vector<ReduceParams> launches;
        for (std::size_t wg = 1; wg <= max_wg; wg *= 4)
          for (unsigned vec : {1u, 4u, 16u}) {
            ReduceParams p;
            p.wg = wg;
            p.vec = vec;
            p.groups_per_cu = static_cast<unsigned>(1 + wg % 3);
            p.defines.push_back({"ITEMS", wg % 2 ? "1" : "2"});
            launches.push_back(p);
          }
        ReduceParams integers;
        integers.defines.push_back({"EXACT_EXPANSION", "0"});  // every term by the integers
        launches.push_back(integers);
        for (unsigned vec : {1u, 4u}) {  // an accumulator per work-item (the default where no EXACT_GROUP)
          ReduceParams generic;
          generic.vec = vec;
          generic.defines.push_back({"EXACT_GROUP", "0"});
          launches.push_back(generic);
        }
        for (const char* rounds : {"0", "1"}) {  // the rounding in the last group, or in a launch of its own
          ReduceParams finish;
          finish.defines.push_back({"EXACT_LAST_GROUP_ROUNDS", rounds});
          launches.push_back(finish);
        }
        for (std::size_t wg : {std::size_t{1}, max_wg}) {  // every vector of every trip tested
          ReduceParams tested;
          tested.wg = wg;
          tested.defines.push_back({"EXACT_WHOLE_TRIPS", "0"});
          launches.push_back(tested);
        }
        ReduceParams constant;
        constant.defines.push_back({"EXACT_STATIC_DIGITS", "1"});  // the digits by constant indices
        constant.defines.push_back({"EXACT_GROUP", "0"});
        launches.push_back(constant);
        for (const ReduceParams& p : launches) {
          if (!in_shard(k++)) continue;
          try {
            const Result again = run_whole(op, t, xs, ys, p);
            std::string defines;
            for (const Define& d : p.defines) defines += " " + d.str();
            INFO(name_of(op) << " " << name_of(t) << " wg " << p.wg << " vec " << p.vec.value_or(0) << defines);
            CHECK(std::memcmp(again.bytes.data(), first.bytes.data(), first.layout.bytes()) == 0);
          } catch (const ConfigError& e) {
            MESSAGE("not on this device: " << std::string(e.what()));  // a work-group the accumulators' local memory refuses
          }
        }
      }
    }
  }

  TEST_CASE("exact: one reducer launched again and again leaves its digits and ticket ready (either rounding)") {
    std::mt19937_64 rng(seed() + 7);
    const Session& s = session();
    for (S t : device_types())
      for (const char* rounds : {"0", "1"}) {
        ReducerOptions o;
        o.tuning.enabled = false;
        o.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
        o.params.defines.push_back({"EXACT_LAST_GROUP_ROUNDS", rounds});
        Reducer red(s.queue(), o);
        for (std::size_t n : {1000u, 1000u, 5u, 40009u, 1000u}) {
          const std::vector<double> xs = random_values(t, n, rng);
          const auto bx = encode(t, xs);
          std::vector<Input> in;
          in.push_back({cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bx.size(),
                                   const_cast<unsigned char*>(bx.data())),
                        0});
          Result got;
          try {
            got = red.reduce(builtin(B::Sum, t, std::nullopt, Summation::Exact), in, n);
          } catch (const ConfigError& e) {
            MESSAGE("not on this device: " << std::string(e.what()));  // no EXACT_GROUP here: 1 is refused
            break;
          }
          check_result(B::Sum, t, got, xs, {}, std::string("EXACT_LAST_GROUP_ROUNDS=") + rounds + ", n " + std::to_string(n));
        }
      }
  }

  TEST_CASE("exact: rows, columns and segments give each line's exact result") {
    const Session& s = session();
    std::mt19937_64 rng(seed() + 2);
    const std::vector<S> types = device_types();
    const std::vector<B> ops = {B::Sum, B::Mean, B::Dot, B::L2};
    for (std::size_t ti = 0; ti < types.size(); ++ti)
      for (std::size_t oi = 0; oi < ops.size(); ++oi) {
        if (!in_diagonal(ti, oi, ops.size())) continue;
        const S t = types[ti];
        const B op = ops[oi];
        const Reduction r = builtin(op, t, std::nullopt, Summation::Exact);
        const std::uint64_t rows = 37, cols = 53, ld = 61;
        std::vector<double> xs(rows * ld), ys(rows * ld);
        for (std::size_t i = 0; i < xs.size(); ++i) {
          xs[i] = random_values(t, 1, rng)[0];
          ys[i] = random_values(t, 1, rng)[0];
        }
        xs[3 * ld + 5] = decoded(t, t == S::F16 ? 3e4 : 1e20);  // a cancellation in row 3, column 5
        xs[9 * ld + 5] = -xs[3 * ld + 5];
        xs[2 * ld + 7] = -0.0;
        const auto bx = encode(t, xs), by = encode(t, ys);
        std::vector<Input> in{{cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bx.size(),
                                          const_cast<unsigned char*>(bx.data())), 0}};
        if (op == B::Dot)
          in.push_back({cl::Buffer(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, by.size(),
                                   const_cast<unsigned char*>(by.data())), 0});
        AxisReducerOptions ao;
        ao.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
        ao.tuning.enabled = false;
        AxisReducer axis(s.queue(), ao);
        const MatrixShape shape{rows, cols, ld};
        const auto row_results = axis.reduce(r, in, Axis::Rows, shape);
        REQUIRE(row_results.size() == rows);
        for (std::uint64_t i = 0; i < rows; ++i) {
          std::vector<double> x(xs.begin() + i * ld, xs.begin() + i * ld + cols), y(ys.begin() + i * ld, ys.begin() + i * ld + cols);
          check_result(op, t, row_results[i], x, y, "row " + std::to_string(i));
        }
        const auto col_results = axis.reduce(r, in, Axis::Cols, shape);
        REQUIRE(col_results.size() == cols);
        for (std::uint64_t j = 0; j < cols; ++j) {
          std::vector<double> x, y;
          for (std::uint64_t i = 0; i < rows; ++i) {
            x.push_back(xs[i * ld + j]);
            y.push_back(ys[i * ld + j]);
          }
          check_result(op, t, col_results[j], x, y, "column " + std::to_string(j));
        }
        // Segments over the whole buffer: empty ones, one element, long ones.
        const std::vector<std::uint64_t> offsets = {0, 0, 1, 1, 500, 501, 2000, xs.size()};
        SegmentedReducerOptions so;
        so.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
        so.tuning.enabled = false;
        SegmentedReducer seg(s.queue(), so);
        std::vector<const void*> host{bx.data()};
        if (op == B::Dot) host.push_back(by.data());
        const auto seg_results = seg.reduce(r, host, xs.size(), offsets);
        REQUIRE(seg_results.size() == offsets.size() - 1);
        for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
          std::vector<double> x(xs.begin() + offsets[k], xs.begin() + offsets[k + 1]),
              y(ys.begin() + offsets[k], ys.begin() + offsets[k + 1]);
          check_result(op, t, seg_results[k], x, y, "segment " + std::to_string(k));
        }
      }
  }

  TEST_CASE("exact: the MultiReducer over the platform's devices, in chunks, gives the one device's bits") {
    std::vector<DeviceInfo> devs = default_devices();
    MESSAGE("devices: " << devs.size());
    std::mt19937_64 rng(seed() + 3);
    for (S t : {S::F32, S::F64, S::BF16}) {
      if (t == S::F64 && !device_has_fp64()) continue;
      for (B op : {B::Sum, B::Dot}) {
        const auto xs = random_values(t, 20011, rng), ys = random_values(t, 20011, rng);
        const Result one = run_whole(op, t, xs, ys, {});
        check_result(op, t, one, xs, ys, "one device");
        const auto bx = encode(t, xs), by = encode(t, ys);
        std::vector<const void*> host{bx.data()};
        if (op == B::Dot) host.push_back(by.data());
        for (std::size_t k = 1; k <= devs.size(); ++k)
          for (std::uint64_t chunk : {std::uint64_t{1000}, std::uint64_t{4096}}) {
            MultiDeviceOptions o;
            o.chunk_elements = chunk;
            o.reducer.tuning.enabled = false;
            o.reducer.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
            MultiReducer mr(std::vector<DeviceInfo>(devs.begin(), devs.begin() + static_cast<std::ptrdiff_t>(k)), o);
            const MultiResult m = mr.reduce(builtin(op, t, std::nullopt, Summation::Exact), host, xs.size());
            INFO(name_of(op) << " " << name_of(t) << " on " << k << " devices, chunks of " << chunk);
            CHECK(std::memcmp(m.result.bytes.data(), one.bytes.data(), one.layout.bytes()) == 0);
          }
      }
    }
  }

  TEST_CASE("default summation: repeated runs of one launch give the same bits (every variant, the descriptors, rows, columns)") {
    // What the README promises of the default mode: the launch fixes the order of every addition
    // (trees with barriers, the last group folding the partials in their order; no float
    // atomics), so one launch repeated on one device gives the same bits. Five runs each.
    const Session& s = session();
    std::mt19937_64 rng(seed() + 4);
    const std::size_t n = 300007;
    std::vector<float> host(n);
    for (float& x : host) x = static_cast<float>(std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                                                            std::uniform_int_distribution<int>(-20, 20)(rng)));
    cl::Buffer in(s.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, host.data());
    std::size_t k = 0;
    for (const Variant& v : variants()) {
      if (!in_shard(k++)) continue;
      ReducerOptions o;
      o.params.variant = v.name;
      o.tuning.enabled = false;
      o.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
      try {
        Reducer red(s.queue(), o);
        const float first = red.reduce<float>(in, n, Op::Sum);
        for (int r = 0; r < 4; ++r) {
          const float again = red.reduce<float>(in, n, Op::Sum);
          INFO(v.name << ": " << first << " then " << again);
          CHECK(std::memcmp(&first, &again, 4) == 0);
        }
      } catch (const ConfigError& e) {
        MESSAGE(v.name << " does not run here: " << std::string(e.what()));
      }
    }
    ReducerOptions o;
    o.tuning.enabled = false;
    o.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
    Reducer red(s.queue(), o);
    AxisReducerOptions ao;
    ao.kernel_dir = CLREDUCE_SOURCE_KERNEL_DIR;
    ao.tuning.enabled = false;
    AxisReducer axis(s.queue(), ao);
    for (B b : {B::Sum, B::Mean, B::VarPop, B::L2}) {
      const Reduction r = builtin(b, S::F32);
      const Result first = red.reduce(r, {Input{in, 0}}, n);
      const auto rows = axis.reduce(r, {Input{in, 0}}, Axis::Rows, MatrixShape{307, 977, 977});
      const auto cols = axis.reduce(r, {Input{in, 0}}, Axis::Cols, MatrixShape{307, 977, 977});
      for (int k2 = 0; k2 < 4; ++k2) {
        INFO(name_of(b));
        CHECK(std::memcmp(red.reduce(r, {Input{in, 0}}, n).bytes.data(), first.bytes.data(), 4) == 0);
        const auto rows2 = axis.reduce(r, {Input{in, 0}}, Axis::Rows, MatrixShape{307, 977, 977});
        const auto cols2 = axis.reduce(r, {Input{in, 0}}, Axis::Cols, MatrixShape{307, 977, 977});
        for (std::size_t i = 0; i < rows.size(); ++i) CHECK(std::memcmp(rows[i].bytes.data(), rows2[i].bytes.data(), 4) == 0);
        for (std::size_t j = 0; j < cols.size(); ++j) CHECK(std::memcmp(cols[j].bytes.data(), cols2[j].bytes.data(), 4) == 0);
      }
    }
  }
}

TEST_SUITE("cli") {
  TEST_CASE("exact: clreduce reduce --exact says the mode, prints the bits and checks them; the refusals") {
    const CliRun r = run_cli("reduce --op sum --type f32 --exact --n 1001 --iterations 2");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find("accumulator exact (a fixed point of 11 32-bit digits from 2^-149)") != std::string::npos);
    CHECK(r.out.find("exact, bit for bit") != std::string::npos);
    CHECK(r.out.find(" (0x") != std::string::npos);
    // bench multi: each device count's result with its bits, the same bits (the reference's).
    const CliRun m = run_cli("bench multi --op sum --type f32 --exact --n 1001 --iterations 1");
    INFO(m.out);
    REQUIRE(m.code == 0);
    const std::string::size_type at = m.out.find("1 device: ");
    REQUIRE(at != std::string::npos);
    const std::string line = m.out.substr(at, m.out.find('\n', at) - at);
    const std::string::size_type hex = line.rfind(" (0x");
    REQUIRE(hex != std::string::npos);
    CHECK(line.size() - hex == std::string(" (0x01234567)").size());  // 8 hex digits: a float's bits
    CHECK(line.find("exact, bit for bit") != std::string::npos);
    CHECK(line.rfind("1 device: exact, bit for bit: ", 0) == 0);  // the value once, in the check's words
    const CliRun rows = run_cli("reduce --op l2 --type f16 --exact --axis cols --shape 9x5 --iterations 2");
    INFO(rows.out);
    CHECK(rows.code == 0);
    CHECK(rows.out.find("all 5 results within their bounds") != std::string::npos);
    expect_refused("reduce --op sum --type u32 --exact --n 100", "valid: f16, bf16, f32, f64");
    expect_refused("reduce --op argmax --type f32 --exact --n 100", "valid: sum, mean, dot, sumsq, l2");
    expect_refused("bench --exact --n 100", "--exact is for the reduction descriptors' built-ins");
    expect_refused("reduce --op-file " + std::string(CLREDUCE_SOURCE_KERNEL_DIR) + "/examples/iamax.clh --exact --n 100",
                   "leave --exact out");
  }
}
