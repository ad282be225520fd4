// Every registered variant against the host reference on the device under test.
//
// How the matrix is cut (the whole cross product of variant x type x op x work-group size x n x
// TIMES/VEC is ~10^5 runs and ~10^3 kernel builds: too slow for CI on PoCL). Every variant is run
// against every value of every other dimension, with the edge sizes for every variant:
//  A. every variant x {uint, int, float, double if cl_khr_fp64} x {sum, min, max}, WG 64, at the
//     edge sizes {1, 2, 3, 31, 32, 33, 63, 64, 65, WG-1, WG, WG+1, WG*E-1, WG*E, WG*E+1} (E =
//     elements each work-item consumes) and a prime near 10^6; 2^22+17 for sums;
//  B. every variant x WG {32, 64, 256, device maximum} x {uint sum, float max, int min} at the edge
//     sizes for that WG;
//  C. the strided and vector variants x every TIMES in {1, 2, 3, 7, 16, 64} (VEC in {2, 4, 8, 16}
//     for vector) at the edge sizes, and the --groups-per-cu launch mode;
//  D. special data: all-0xFFFFFFFF and iota (sum n(n-1)/2 mod 2^32) for every variant.
// The suite "variants-full" (ctest -L full) runs the whole cross product of A and B.
// Sections are split over shards (CLREDUCE_TEST_SHARD=i/N) so ctest -j runs them side by side.
#include <doctest/doctest.h>

#include "errors.hpp"
#include "support.hpp"

#include <set>

using namespace clreduce;
using namespace clreduce::test;

namespace {
std::vector<ElemType> types_under_test() {
  std::vector<ElemType> t{ElemType::Uint, ElemType::Int, ElemType::Float};
  if (runtime().device().fp64) t.push_back(ElemType::Double);
  return t;
}

std::vector<std::size_t> wgs_under_test() {
  std::set<std::size_t> s{32, 64, 256, runtime().device().max_work_group_size};
  std::vector<std::size_t> out;
  for (std::size_t w : s)
    if (w <= runtime().device().max_work_group_size) out.push_back(w);
  return out;
}

std::vector<std::uint64_t> edge_sizes(std::uint64_t wg, std::uint64_t per_item) {
  const std::uint64_t tile = wg * per_item;
  std::set<std::uint64_t> s{1, 2, 3, 31, 32, 33, 63, 64, 65, wg - 1, wg, wg + 1, tile - 1, tile, tile + 1};
  s.erase(0);
  return {s.begin(), s.end()};
}

// The device maximum work-group size is tested "where allowed": a kernel may report a lower
// CL_KERNEL_WORK_GROUP_SIZE (NVIDIA reported 256 for some kernels built for 1024). Then the
// reducer must refuse it with a clear message, and the size is skipped for that kernel.
bool kernel_allows(const ReduceConfig& cfg) {
  if (cfg.wg <= 256) return true;
  try {
    Reducer probe(runtime(), cfg, 1);
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
      for (std::size_t wg : full ? wgs_under_test() : std::vector<std::size_t>{64}) {
        const ReduceConfig cfg = config(v, t, op, wg);
        std::vector<std::uint64_t> sizes = edge_sizes(wg, v.items(v.default_times, v.default_vec));
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
    if (!v.unavailable_reason(runtime().device()).empty()) continue;
    CAPTURE(v.name);
    types_and_ops(v, full);
  }
}
}  // namespace

TEST_SUITE("variants") {
  TEST_CASE("A: every variant x type x operator at the edge sizes") {
    types_and_ops_in_shard(false);
  }

  TEST_CASE("B: every variant x work-group size {32, 64, 256, device max}") {
    std::size_t k = 0;
    for (const auto& v : variants())
      for (std::size_t wg : wgs_under_test()) {
        if (!in_shard(k++)) continue;
        if (!v.unavailable_reason(runtime().device()).empty()) continue;
        for (auto [t, op] : {std::pair{ElemType::Uint, Op::Sum}, std::pair{ElemType::Float, Op::Max},
                             std::pair{ElemType::Int, Op::Min}})
          check_sizes(config(v, t, op, wg), edge_sizes(wg, v.items(v.default_times, v.default_vec)));
      }
  }

  TEST_CASE("C: strided and vector variants x every TIMES / VEC, and the groups-per-CU mode") {
    std::size_t k = 0;
    for (const auto& v : variants()) {
      if (!v.uses_times) continue;
      const std::vector<unsigned> vecs = v.uses_vec ? allowed_vec_widths() : std::vector<unsigned>{1};
      for (unsigned vec : vecs)
        for (unsigned times : {1u, 2u, 3u, 7u, 16u, 64u}) {
          if (!in_shard(k++)) continue;
          ReduceConfig cfg = config(v, times % 2 ? ElemType::Float : ElemType::Uint, Op::Sum, 64);
          cfg.times = times;
          if (v.uses_vec) cfg.vec = vec;
          check_sizes(cfg, edge_sizes(64, v.items(times, vec)));
        }
      if (!in_shard(k++)) continue;
      for (unsigned g : {1u, 3u}) {
        ReduceConfig cfg = config(v, ElemType::Int, Op::Sum, 64);
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
      if (!in_shard(k++)) continue;
      ReduceConfig cfg = config(v, ElemType::Uint, Op::Sum, 64);
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
