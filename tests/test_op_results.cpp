// The old types and operators after the descriptor issue: the Op path (every whole-array and axis
// variant, each segmented kernel) gives the results the tree before it gave, bit for bit
// (tests/golden/op_results.json, written from 914d6c3 by tests/golden/make_op_results.sh), and
// the descriptor path agrees with those results wherever the order of the operations cannot
// matter: a u32/i32 sum in 64 bits equals the old wrapped sum modulo 2^32, the named 32-bit
// accumulator (sum_wrap) gives the old result itself, and min, max, argmin and argmax give the
// same values and indices. (A float sum through the descriptor's kernels adds in another order
// than a variant's: its bound is the descriptor suite's.)
//
// The cases: every variant x uint, int, float, double x every operator x the sizes and shapes of
// tests/golden/op_results.cpp. The default run takes a seeded sample (CLREDUCE_TEST_SAMPLE, set
// by ctest); op_results_full_0/1 (label full) run all of them.
#include "golden/op_results.hpp"
#include "support.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

namespace clreduce::test {
namespace {

using golden::Results;

// The old tree's results on this device: its own entry in the file where it has one (the GPUs
// run variants a CPU refuses, and plan their own column tiles), else the default device's (a PoCL
// CPU: op_results.cpp fixes every launch parameter a planner would take from the device).
const Results& old_results() {
  static const Results r = [] {
    const std::string path = std::string(CLREDUCE_SOURCE_TESTS_DIR) + "/golden/op_results.json";
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    // This device's entry; else one of the same implementation (the name's first word: llvmpipe's
    // name carries its LLVM version and vector width); else the default (PoCL's).
    const std::string& name = session().device().name;
    const auto first_word = [](const std::string& n) { return n.substr(0, n.find_first_of(" (")); };
    std::string device = doc.at("default_device").get<std::string>();
    for (auto it = doc.at("devices").begin(); it != doc.at("devices").end(); ++it)
      if (it.key() == name || (first_word(it.key()) == first_word(name) && device != name)) device = it.key();
    MESSAGE("old results: " << doc.at("source").get<std::string>() << " on " << device);
    return doc.at("devices").at(device).get<Results>();
  }();
  return r;
}

std::string type_name(ElemType t) { return std::string(name_of(t)); }

// The old result of a case that every variant of a family computes alike (an exact operator:
// sums of integers, min, max, argmin/argmax): that of the first of `names` whose entry
// "<family>/<name><tail>" the file holds, neither refused nor marked wrong; "" where none has one.
std::string first_old(const std::string& family, const std::vector<std::string>& names, const std::string& tail) {
  for (const std::string& name : names) {
    auto it = old_results().find(family + "/" + name + tail);
    if (it != old_results().end() && it->second != "refused" && it->second.rfind("wrong", 0) != 0) return it->second;
  }
  return {};
}

Builtin builtin_of(Op op, bool wrap) {
  switch (op) {
    case Op::Sum: return wrap ? Builtin::SumWrap : Builtin::Sum;
    case Op::Min: return Builtin::Min;
    case Op::Max: return Builtin::Max;
    case Op::ArgMin: return Builtin::ArgMin;
    default: return Builtin::ArgMax;
  }
}

// Descriptor results as the Op path lays them out: the value's size_of(t) bytes (a 64-bit sum cut
// to its low 32 bits), and for argmin/argmax the u64 index at byte 8 of 16.
std::vector<unsigned char> op_layout(const std::vector<Result>& rs, ElemType t, bool arg) {
  const std::size_t stride = arg ? 16 : size_of(t);
  std::vector<unsigned char> out(rs.size() * stride);
  for (std::size_t k = 0; k < rs.size(); ++k) {
    std::memcpy(out.data() + k * stride, rs[k].bytes.data(), size_of(t));
    if (arg) std::memcpy(out.data() + k * stride + 8, rs[k].bytes.data() + 8, 8);
  }
  return out;
}

}  // namespace

TEST_SUITE("op_results") {
  TEST_CASE("every variant of the Op path gives the result of the tree before the descriptor, bit for bit") {
    const Session& s = session();
    std::size_t compared = 0, refused = 0;
    std::vector<std::string> missing, differ, wrong_before;
    const Results now = golden::op_results(s.queue(), s.device(), s.kernel_dir(), [&](std::size_t k, const std::string&) {
      return in_shard(k);
    });
    for (const auto& [key, value] : now) {
      auto it = old_results().find(key);
      if (it == old_results().end()) {
        missing.push_back(key);
        continue;
      }
      // A result the old tree got wrong on this device (checked against the host reference when
      // the file was written, and marked there) is not compared: the fix changed it.
      if (it->second.rfind("wrong", 0) == 0) {
        wrong_before.push_back(key);
        continue;
      }
      ++compared;
      if (value == "refused") ++refused;
      if (value != it->second) differ.push_back(key + ": " + it->second + " before, " + value + " now");
    }
    MESSAGE(compared << " cases compared with tests/golden/op_results.json (" << refused << " refused, as before); "
                     << wrong_before.size() << " the old tree got wrong here not compared");
    CHECK(compared > 0);
    for (const std::string& m : missing) FAIL_CHECK("a case the old tree did not have: " << m);
    for (const std::string& d : differ) FAIL_CHECK(d);
  }

  TEST_CASE("the descriptor path agrees with the old results where the order cannot matter") {
    const Session& s = session();
    ReducerOptions ro;
    ro.tuning.enabled = false;
    ro.device = s.device();
    ro.kernel_dir = s.kernel_dir();
    Reducer red(s.queue(), ro);
    AxisReducerOptions ao;
    ao.tuning.enabled = false;
    ao.device = s.device();
    ao.kernel_dir = s.kernel_dir();
    AxisReducer axis_red(s.queue(), ao);
    SegmentedReducerOptions so;
    so.device = s.device();
    so.kernel_dir = s.kernel_dir();
    SegmentedReducer seg_red(s.queue(), so);
    const cl::Context context = s.queue().getInfo<CL_QUEUE_CONTEXT>();

    std::vector<ElemType> types{ElemType::Uint, ElemType::Int, ElemType::Float};
    if (s.device().fp64) types.push_back(ElemType::Double);
    std::size_t item = 0, compared = 0;
    for (ElemType t : types) {
      const bool integer = !is_floating(t);
      // (op, wrap): sums of integers both ways; min, max (and argmin/argmax where the family has
      // them) of every type.
      std::vector<std::pair<Op, bool>> cases{{Op::Min, false}, {Op::Max, false}};
      if (integer) cases.insert(cases.begin(), {{Op::Sum, true}, {Op::Sum, false}});
      for (const auto& [op, wrap] : cases) {
        const Reduction r = builtin(builtin_of(op, wrap), to_scalar(t));
        const std::string what = std::string(name_of(builtin_of(op, wrap))) + "<" + type_name(t) + ">";
        for (std::uint64_t n : {1ull, 7ull, 1000ull, 65539ull, 1048579ull}) {
          if (!in_shard(item++)) continue;
          const std::vector<unsigned char> data = golden::data_of(t, n, golden::whole_seed(t, n));
          const cl::Buffer in(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size(),
                              const_cast<unsigned char*>(data.data()));
          const Result got = red.reduce(r, {Input{in, 0}}, n);
          const std::string tail = "/" + type_name(t) + "/" + std::string(name_of(op)) + "/" + std::to_string(n);
          const std::string old = first_old("whole", variant_names(), tail);
          REQUIRE_MESSAGE(!old.empty(), "no old whole-array result for " << tail);
          CHECK_MESSAGE(golden::hex(got.bytes.data(), size_of(t)) == old, what << " of " << n);
          if (op == Op::Sum) CHECK(got.layout.type == (wrap ? to_scalar(t) : t == ElemType::Uint ? Scalar::U64 : Scalar::I64));
          ++compared;
        }
      }
      // Rows and columns, segments: the same, with argmin/argmax too; the old results are those of
      // the first variant on the axis that took the case.
      for (Op op : {Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax}) {
        for (bool wrap : {true, false}) {
          if (op == Op::Sum && !integer) continue;  // float sums: another order
          if (op != Op::Sum && !wrap) continue;     // one descriptor for each other operator
          const bool arg = op == Op::ArgMin || op == Op::ArgMax;
          const Reduction r = builtin(builtin_of(op, wrap), to_scalar(t));
          const std::string what = std::string(name_of(builtin_of(op, wrap))) + "<" + type_name(t) + ">";
          for (Axis axis : {Axis::Rows, Axis::Cols}) {
            for (const auto& [m, n] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{{37, 1001}, {4099, 7}, {5, 20011}}) {
              if (!in_shard(item++)) continue;
              const std::string tail = "/" + type_name(t) + "/" + std::string(name_of(op)) + "/" +
                                       std::string(name_of(axis)) + "/" + std::to_string(m) + "x" + std::to_string(n);
              const std::string old = first_old("axis", axis_variant_names(), tail);
              REQUIRE_MESSAGE(!old.empty(), "no old result for " << tail);
              const std::vector<unsigned char> data = golden::data_of(t, m * n, golden::axis_seed(t, m, n));
              const std::vector<Result> got = axis_red.reduce(r, {data.data()}, axis, MatrixShape{m, n, 0});
              CHECK_MESSAGE(golden::digest(op_layout(got, t, arg), got.size(), t, arg) == old, what << tail);
              ++compared;
            }
          }
          if (!in_shard(item++)) continue;
          const std::vector<std::uint64_t>& offsets = golden::segment_offsets();
          const std::string key = "segments/segments_group/" + type_name(t) + "/" + std::string(name_of(op));
          REQUIRE(old_results().count(key) == 1);
          const std::vector<unsigned char> data = golden::data_of(t, offsets.back(), golden::segments_seed(t));
          const std::vector<Result> got = seg_red.reduce(r, {data.data()}, offsets.back(), offsets);
          CHECK_MESSAGE(golden::digest(op_layout(got, t, arg), got.size(), t, arg) == old_results().at(key),
                        what << " of segments");
          ++compared;
        }
      }
    }
    MESSAGE(compared << " descriptor results compared with the old ones");
    CHECK(compared > 0);
  }
}

}  // namespace clreduce::test
