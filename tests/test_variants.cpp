// Every registered variant against the host reference on the device under test.
//
// How the matrix is cut (the whole cross product of variant x type x op x work-group size x n x
// TIMES/VEC is ~10^5 runs and ~10^3 kernel builds: too slow for CI on PoCL). Every variant is run
// against every value of every other dimension, with the edge sizes for every variant:
//  A. every variant x {uint, int, float, double if cl_khr_fp64} x {sum, min, max}, WG 64 (or the
//     kernel's largest where it allows fewer: Rusticl 32), at the
//     edge sizes {1, 2, 3, 31, 32, 33, 63, 64, 65, WG-1, WG, WG+1, WG*E-1, WG*E, WG*E+1} (E =
//     elements each work-item consumes) and a prime near 10^6; 2^22+17 for sums;
//  B. every variant x WG {32, 64, 256, the largest power of two its kernel allows and half of it}
//     (each where the kernel allows it) x {uint sum, float max, int min} at the edge
//     sizes for that WG;
//  C. the strided and vector variants x every TIMES in {1, 2, 3, 7, 16, 64} (VEC in {2, 4, 8, 16}
//     for vector) at the edge sizes, and the --groups-per-cu launch mode;
//  D. special data: all-0xFFFFFFFF and iota (sum n(n-1)/2 mod 2^32) for every variant;
//  E. single_pass under repeated back-to-back launches (the ticket counter resets itself);
//  F. the NVIDIA-only warp shuffle and the single pass's shuffle path with the shuffle emulated
//     in local memory, where the device has no PTX (PoCL); and the unavailable variants' reasons;
//  G. single_pass's slot finish (SP_FINISH 1, the NVIDIA default for 32-bit types): off NVIDIA
//     with volatile accesses in place of PTX over types x ops x WG x sizes (on NVIDIA, A-E run
//     it); everywhere, back-to-back launches and the epoch and slot tags they leave.
// Variants the device cannot run (unavailable_reason) are skipped with that reason.
// The suite "variants-full" (ctest -L full) runs the whole cross product of A and B.
// Sections are split over shards (CLREDUCE_TEST_SHARD=i/N) so ctest -j runs them side by side.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "support.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>

using namespace clreduce;
using namespace clreduce::test;

namespace {
std::vector<ElemType> types_under_test() {
  std::vector<ElemType> t{ElemType::Uint, ElemType::Int, ElemType::Float};
  if (session().device().fp64) t.push_back(ElemType::Double);
  return t;
}

// The work-group sizes part B takes for a variant: 32, 64, 256, and the largest power of two the
// variant's kernel allows here and half of it (4096 and 2048 on PoCL, 256 and 128 on NVIDIA, 32
// and 16 on Rusticl), each where the kernel allows it.
std::vector<std::size_t> wgs_under_test(const Variant& v) {
  const std::size_t allowed = allowed_wg(v.name);
  std::set<std::size_t> s{32, 64, 256, allowed, std::max<std::size_t>(1, allowed / 2)};
  std::vector<std::size_t> out;
  for (std::size_t w : s)
    if (w <= allowed) out.push_back(w);
  return out;
}

std::vector<std::uint64_t> edge_sizes(std::uint64_t wg, std::uint64_t per_item) {
  const std::uint64_t tile = wg * per_item;
  std::set<std::uint64_t> s{1, 2, 3, 31, 32, 33, 63, 64, 65, wg - 1, wg, wg + 1, tile - 1, tile, tile + 1};
  s.erase(0);
  return {s.begin(), s.end()};
}

// A work-group size over the kernel's own limit (CL_KERNEL_WORK_GROUP_SIZE: NVIDIA 256, Rusticl
// 32) must be refused with a clear message, and the size is skipped for that kernel.
bool available(const Variant& v) {
  const std::string why = v.unavailable_reason(session().device());
  if (!why.empty()) MESSAGE("skipped " << v.name << ": " << why);
  return why.empty();
}

bool kernel_allows(const ReduceConfig& cfg) {
  if (cfg.wg <= allowed_wg(cfg.variant, cfg.type)) return true;
  try {
    Prepared probe = prepare(session(), cfg, 1);
    return true;
  } catch (const Error& e) {
    const std::string msg = e.what();
    CHECK_MESSAGE(msg.find("(CL_KERNEL_WORK_GROUP_SIZE)") != std::string::npos, msg);
    MESSAGE("skipped work-group size " << cfg.wg << " for " << cfg.variant << ": " << msg);
    return false;
  }
}

void check_sizes(const ReduceConfig& cfg, const std::vector<std::uint64_t>& sizes,
                 DataKind kind = DataKind::Random) {
  if (!kernel_allows(cfg)) return;
  for (std::uint64_t n : sizes) {
    const Check c = reduce_and_check(cfg, n, kind);
    INFO(describe(cfg, n, kind));
    CHECK_MESSAGE(c.ok, c.detail);
  }
}

ReduceConfig config(const Variant& v, ElemType t, Op op, std::size_t wg) {
  ReduceConfig c;
  c.variant = v.name;
  c.type = t;
  c.op = op;
  c.wg = wg;
  return c;
}

// Part A for one variant.
void types_and_ops(const Variant& v, bool full) {
  for (ElemType t : types_under_test())
    for (Op op : all_ops()) {
      for (std::size_t wg : full ? wgs_under_test(v) : std::vector<std::size_t>{test_wg(v.name, 64)}) {
        const ReduceConfig cfg = config(v, t, op, wg);
        std::vector<std::uint64_t> sizes = edge_sizes(wg, v.items(v.default_times(), v.default_vec()));
        sizes.push_back(999983);  // a prime near 10^6
        if (op == Op::Sum || full) sizes.push_back((1ULL << 22) + 17);
        check_sizes(cfg, sizes);
      }
    }
}
// Part A (or, with full, the cross product with every work-group size) for this shard's variants.
void types_and_ops_in_shard(bool full) {
  std::size_t k = 0;
  for (const auto& v : variants()) {
    if (!in_shard(k++)) continue;
    if (!available(v)) continue;
    CAPTURE(v.name);
    types_and_ops(v, full);
  }
}
}  // namespace

// Where the device has no fp64, every suite leaves double out; this suite says so with the reason
// (ctest reports the test `fp64` as skipped: SKIP_REGULAR_EXPRESSION "SKIPPED: double") and
// checks that a double reduction is refused naming the extension. With fp64, it checks that the
// matrices above include double and runs each available variant on doubles once here.
TEST_SUITE("fp64") {
  TEST_CASE("double: run where the device has cl_khr_fp64, else skipped with the reason") {
    const DeviceInfo& d = session().device();
    const std::vector<ElemType> types = types_under_test();
    const bool has_double = std::find(types.begin(), types.end(), ElemType::Double) != types.end();
    CHECK(has_double == d.fp64);
    if (!d.fp64) {
      MESSAGE("SKIPPED: double: the device " << d.name
                                             << " does not report cl_khr_fp64; every suite leaves double out here");
      ReduceConfig cfg;
      cfg.variant = "naive";
      cfg.type = ElemType::Double;
      CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100), doctest::Contains("cl_khr_fp64"), Error);
      return;
    }
    for (const auto& v : variants()) {
      if (!available(v)) continue;
      for (Op op : all_ops()) check_sizes(config(v, ElemType::Double, op, test_wg(v.name, 64)), {1, 1001});
    }
  }
}

TEST_SUITE("variants") {
  TEST_CASE("A: every variant x type x operator at the edge sizes") {
    types_and_ops_in_shard(false);
  }

  TEST_CASE("B: every variant x work-group size {32, 64, 256, the kernel's largest and half of it}") {
    std::size_t k = 0;
    for (const auto& v : variants())
      for (std::size_t slot = 0; slot < 5; ++slot) {
        if (!in_shard(k++)) continue;
        if (!available(v)) continue;
        const std::vector<std::size_t> wgs = wgs_under_test(v);
        if (slot >= wgs.size()) continue;
        const std::size_t wg = wgs[slot];
        for (auto [t, op] : {std::pair{ElemType::Uint, Op::Sum}, std::pair{ElemType::Float, Op::Max},
                             std::pair{ElemType::Int, Op::Min}})
          check_sizes(config(v, t, op, wg), edge_sizes(wg, v.items(v.default_times(), v.default_vec())));
      }
  }

  TEST_CASE("C: strided and vector variants x every TIMES / VEC, and the groups-per-CU mode") {
    std::size_t k = 0;
    for (const auto& v : variants()) {
      if (!v.uses_times() || !available(v)) continue;
      const std::vector<unsigned> vecs = v.uses_vec() ? allowed_vec_widths() : std::vector<unsigned>{1};
      for (unsigned vec : vecs)
        for (unsigned times : {1u, 2u, 3u, 7u, 16u, 64u}) {
          if (!in_shard(k++)) continue;
          const std::size_t wg = test_wg(v.name, 64);
          ReduceConfig cfg = config(v, times % 2 ? ElemType::Float : ElemType::Uint, Op::Sum, wg);
          cfg.times = times;
          if (v.uses_vec()) cfg.vec = vec;
          check_sizes(cfg, edge_sizes(wg, v.items(times, vec)));
        }
      if (!in_shard(k++)) continue;
      for (unsigned g : {1u, 3u}) {
        ReduceConfig cfg = config(v, ElemType::Int, Op::Sum, test_wg(v.name, 64));
        cfg.groups_per_cu = g;
        check_sizes(cfg, {1, 65, 4097, 999983});
        cfg.type = ElemType::Uint;
        cfg.op = Op::Max;
        check_sizes(cfg, {3, 100003});
      }
    }
  }

  TEST_CASE("D: all-0xFFFFFFFF input and input i, exactly") {
    std::size_t k = 0;
    for (const auto& v : variants()) {
      if (!in_shard(k++) || !available(v)) continue;
      ReduceConfig cfg = config(v, ElemType::Uint, Op::Sum, test_wg(v.name, 64));
      for (std::uint64_t n : {1ULL, 7ULL, 4096ULL, 1000003ULL}) {
        INFO(describe(cfg, n, DataKind::Max));
        Value got;
        CHECK(reduce_and_check(cfg, n, DataKind::Max, &got).ok);
        CHECK(got.str() == std::to_string((n * 0xFFFFFFFFULL) % (1ULL << 32)));
        CHECK(reduce_and_check(cfg, n, DataKind::Iota, &got).ok);
        CHECK(got.str() == std::to_string((n * (n - 1) / 2) % (1ULL << 32)));
      }
      cfg.type = ElemType::Int;
      check_sizes(cfg, {2, 1000}, DataKind::Max);  // INT_MAX sums wrap
      cfg.type = ElemType::Float;
      check_sizes(cfg, {1, 2, 1000}, DataKind::Max);  // FLT_MAX alone, then overflow to +inf
    }
  }
}

TEST_SUITE("variants-full") {
  TEST_CASE("full cross product: every variant x type x operator x work-group size") {
    types_and_ops_in_shard(true);
  }
}

namespace {
// A runtime on the device under test whose DeviceInfo poses as an NVIDIA device with warps of 32,
// so the planner offers the NVIDIA-only variants; the tests then turn PTX off with -D (the last
// definition wins) so the shuffles are emulated in local memory.
const Session& posing_as_nvidia() {
  static std::unique_ptr<Session> rt;
  if (!rt) {
    DeviceInfo d = session().device();
    d.is_nvidia = true;
    d.lockstep_width = 32;
    d.lockstep_source = "CL_DEVICE_WARP_SIZE_NV";
    rt = std::make_unique<Session>(d, session().kernel_dir());
  }
  return *rt;
}

// Two random inputs of n elements, their sums and their device buffers.
struct AlternatingInputs {
  Reference ra, rb;
  cl::Buffer ia, ib;
};
AlternatingInputs alternating_inputs(const Prepared& r, ElemType t, std::uint64_t n) {
  const HostData a = generate_data(t, n, DataKind::Random, seed());
  const HostData b = generate_data(t, n, DataKind::Random, seed() + 1);
  return {host_reference(a, Op::Sum), host_reference(b, Op::Sum), r.upload(a), r.upload(b)};
}

// Fifteen launches of a one-pass reducer, alternating a and b: nine back-to-back with no wait
// between them (the last reads a), then six one at a time, each result checked.
void check_alternating_launches(Prepared& r, const AlternatingInputs& in) {
  const unsigned depth = r.plan().depth;
  for (int i = 0; i < 9; ++i) r.enqueue(i % 2 ? in.ib : in.ia);
  CHECK_MESSAGE(check_result(r.read_result(), in.ra, Op::Sum, depth).ok, "after 9 back-to-back launches");
  for (int i = 0; i < 6; ++i) {
    const Check c = check_result(r.run(i % 2 ? in.ib : in.ia), i % 2 ? in.rb : in.ra, Op::Sum, depth);
    CHECK_MESSAGE(c.ok, "launch " << i << ": " << c.detail);
  }
}

std::vector<Define> without_ptx(const Variant& v) {
  // NV_PTX=0 also plans LOCKSTEP 0 and NV_WARP_SYNC 0 (no inline PTX, so no lockstep tail): the
  // CPU posing as NVIDIA keeps every barrier.
  std::vector<Define> d{parse_define("NV_PTX=0")};
  if (v.single_pass) d.push_back(parse_define("SP_SHUFFLE=1"));
  return d;
}
}  // namespace

TEST_SUITE("variants") {
  TEST_CASE("E: single_pass: back-to-back launches on alternating inputs, each result right") {
    const Variant& v = find_variant("single_pass");
    if (!available(v)) return;
    std::size_t k = 0;
    for (ElemType t : {ElemType::Uint, ElemType::Float})
      for (int mode = 0; mode < 3; ++mode) {
        if (!in_shard(k++)) continue;
        ReduceConfig cfg = config(v, t, Op::Sum, test_wg(v.name, mode == 2 ? 256 : 64, t));
        if (mode == 0) cfg.groups_per_cu = 3;
        if (mode == 1) cfg.times = 1;  // hundreds of groups: the last group loops over the partials
        const std::uint64_t n = 100003;
        INFO(describe(cfg, n, DataKind::Random));
        Prepared r = prepare(session(), cfg, n);
        REQUIRE(r.plan().passes.size() == 1);
        CHECK(r.plan().passes[0].groups > 1);  // the last-group hand-over is exercised
        const AlternatingInputs in = alternating_inputs(r, t, n);
        check_alternating_launches(r, in);
        // Timed batches: every sample the same value, and the right one.
        TimingOptions opt;
        opt.warmup = 1;
        opt.repetitions = 3;
        opt.batch = 16;
        const Timed tm = r.time(in.ib, opt);
        CHECK(tm.consistent);
        CHECK(check_result(tm.value, in.rb, Op::Sum, r.plan().depth).ok);
      }
  }

  TEST_CASE("F: warp_shuffle and single_pass's shuffle path, with the shuffle emulated (off NVIDIA)") {
    if (session().device().is_nvidia) {
      MESSAGE("the device is NVIDIA: parts A-D test the real shuffles");
      return;
    }
    const Session& rt = posing_as_nvidia();
    std::size_t k = 0;
    for (const char* name : {"warp_shuffle", "single_pass"}) {
      const Variant& v = find_variant(name);
      REQUIRE(v.unavailable_reason(rt.device()).empty());
      for (ElemType t : types_under_test())
        for (Op op : all_ops()) {
          if (!in_shard(k++)) continue;
          for (std::size_t wg : {std::size_t{16}, test_wg(v.name, 64, t, &rt, without_ptx(v)),
                                 allowed_wg(v.name, t, &rt, without_ptx(v))}) {
            ReduceConfig cfg = config(v, t, op, wg);
            cfg.defines = without_ptx(v);
            std::vector<std::uint64_t> sizes = edge_sizes(wg, v.items(v.default_times(), v.default_vec()));
            sizes.push_back(999983);
            for (std::uint64_t n : sizes) {
              INFO(describe(cfg, n, DataKind::Random) << " (emulated shuffle)");
              const Check c = reduce_and_check(rt, cfg, n);
              CHECK_MESSAGE(c.ok, c.detail);
            }
          }
        }
    }
  }

  TEST_CASE("G: single_pass's slot finish (SP_FINISH 1), back-to-back and its state") {
    const Variant& v = find_variant("single_pass");
    if (!available(v)) return;
    // On NVIDIA the planner chooses the slots for 32-bit types (parts A-E run them); elsewhere
    // they are asked for, with volatile accesses in place of PTX.
    const bool nvidia = session().device().is_nvidia;
    // The slot finish relies on work-groups being dispatched in order (the last-numbered last).
    // NVIDIA does so by design; PoCL's CPU device takes groups in order; Rusticl's llvmpipe runs
    // them on several threads in any order, and gave wrong sums here: no in-order device, no test.
    if (!nvidia && session().device().platform_name.find("Portable Computing Language") == std::string::npos) {
      MESSAGE("skipped: the slot finish needs in-order dispatch of work-groups, which " << session().device().name
              << " (" << session().device().platform_name << ") does not promise");
      return;
    }
    const std::vector<Define> slots = nvidia ? std::vector<Define>{} : std::vector<Define>{parse_define("SP_FINISH=1")};
    const std::vector<ElemType> emulated =
        nvidia ? std::vector<ElemType>{} : std::vector<ElemType>{ElemType::Uint, ElemType::Int, ElemType::Float};
    std::size_t k = 0;
    for (ElemType t : emulated)
      for (Op op : all_ops()) {
        if (!in_shard(k++)) continue;
        for (std::size_t wg : {std::size_t{16}, test_wg(v.name, 64, t, nullptr, slots), test_wg(v.name, 256, t, nullptr, slots)}) {
          // TIMES 1: many groups, so the folding group reads many slot pairs, an odd count of
          // other groups included; the default grid: few groups.
          for (std::optional<unsigned> times : {std::optional<unsigned>(1), std::optional<unsigned>()}) {
            ReduceConfig cfg = config(v, t, op, wg);
            cfg.times = times;
            cfg.defines = slots;
            std::vector<std::uint64_t> sizes = edge_sizes(wg, v.items(times.value_or(v.default_times()), v.default_vec()));
            sizes.push_back(999983);
            for (std::uint64_t n : sizes) {
              INFO(describe(cfg, n, DataKind::Random) << " (slot finish)");
              const Check c = reduce_and_check(cfg, n);
              CHECK_MESSAGE(c.ok, c.detail);
            }
          }
        }
      }
    if (!in_shard(k++)) return;
    // Launches back-to-back on alternating inputs: each must use a new epoch, or the folding
    // group would take the previous launch's slots.
    for (ElemType t : {ElemType::Uint, ElemType::Float}) {
      ReduceConfig cfg = config(v, t, Op::Sum, test_wg(v.name, 64, t, nullptr, slots));
      cfg.times = 1;
      cfg.defines = slots;
      const std::uint64_t n = 100003;
      Prepared r = prepare(session(), cfg, n);
      REQUIRE(r.plan().passes.size() == 1);
      REQUIRE(r.plan().passes[0].options.find("SP_FINISH=1") != std::string::npos);
      CHECK(r.plan().passes[0].groups > 100);
      check_alternating_launches(r, alternating_inputs(r, t, n));
      // The protocol's state after 15 launches: epoch 15 in word 0, every other group's slot
      // tagged 15 (the last-numbered group publishes none).
      const std::uint64_t groups = r.plan().passes[0].groups;
      std::vector<cl_ulong> words(2 + groups);
      session().queue().enqueueReadBuffer(r.counter_buffer(), CL_TRUE, 0, words.size() * 8, words.data());
      CHECK((words[0] & 0xffffffffu) == 15);
      std::size_t tagged = 0;
      for (std::uint64_t g = 0; g + 1 < groups; ++g) tagged += (words[2 + g] >> 32) == 15;
      CHECK(tagged == groups - 1);
    }
  }

  TEST_CASE("variants the device cannot run say why, and the planner refuses them with it") {
    const DeviceInfo& dev = session().device();
    const std::string shuffle_why = find_variant("warp_shuffle").unavailable_reason(dev);
    if (has_nv_shuffle(dev)) {
      CHECK(shuffle_why.empty());
    } else {
      CHECK(shuffle_why.find("needs an NVIDIA platform reporting CL_DEVICE_WARP_SIZE_NV") != std::string::npos);
      ReduceConfig cfg;
      cfg.variant = "warp_shuffle";
      const std::string expected = "variant warp_shuffle is not available on " + dev.name + ": needs an NVIDIA platform";
      CHECK_THROWS_WITH_AS(prepare(session(), cfg, 100), doctest::Contains(expected.c_str()), Error);
    }
    const std::string sub_why = find_variant("subgroup").unavailable_reason(dev);
    CHECK(sub_why.empty() == dev.has_extension("cl_khr_subgroups"));
    if (!sub_why.empty()) CHECK(sub_why.find("needs the cl_khr_subgroups extension") != std::string::npos);
  }
}
