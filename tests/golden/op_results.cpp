// The cases of op_results.hpp. Only what the public headers of both trees have is used here
// (see the header); the data come from this file's own generator, so both trees reduce the same
// bits.
#include "op_results.hpp"
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <vector>

namespace clreduce::golden {

std::string hex(const unsigned char* p, std::size_t bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < bytes; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

namespace {

constexpr std::size_t kWg = 32;
constexpr unsigned kComputeUnits = 4;

std::vector<ElemType> types_of(const DeviceInfo& dev) {
  std::vector<ElemType> ts{ElemType::Uint, ElemType::Int, ElemType::Float};
  if (dev.fp64) ts.push_back(ElemType::Double);
  return ts;
}

// A reducer's options at the fixed launch (ReducerOptions or AxisReducerOptions).
template <class Options>
void fix_launch(Options& o, const std::string& variant, const std::filesystem::path& kernel_dir, const DeviceInfo& dev) {
  o.params.variant = variant;
  o.params.wg = kWg;
  o.tuning.enabled = false;
  o.kernel_dir = kernel_dir;
  o.device = dev;
}

std::string name(ElemType t) { return std::string(name_of(t)); }
std::string name(Op op) { return std::string(name_of(op)); }

}  // namespace

std::vector<unsigned char> data_of(ElemType t, std::uint64_t count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<unsigned char> bytes(count * size_of(t));
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-8, 8);
  for (std::uint64_t k = 0; k < count; ++k) {
    unsigned char* p = bytes.data() + k * size_of(t);
    if (t == ElemType::Uint || t == ElemType::Int) {
      const auto v = static_cast<std::uint32_t>(g());
      std::memcpy(p, &v, 4);
    } else {
      // Drawn in this order (the exponent first) on purpose: an ldexp(unit(g), exponent(g)) call
      // leaves the order to the compiler (GCC draws the exponent first, Clang the mantissa), and
      // the golden file's data were drawn exponent first.
      const int e = exponent(g);
      const double mantissa = unit(g);
      const double v = std::ldexp(mantissa, e);
      if (t == ElemType::Float) {
        const auto f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
      } else {
        std::memcpy(p, &v, 8);
      }
    }
  }
  return bytes;
}

std::string digest(const std::vector<unsigned char>& out, std::uint64_t count, ElemType t, bool arg) {
  std::uint64_t h = 1469598103934665603ull;
  const std::size_t stride = arg ? 16 : size_of(t);
  auto mix = [&](const unsigned char* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  for (std::uint64_t k = 0; k < count; ++k) {
    mix(out.data() + k * stride, size_of(t));
    if (arg) mix(out.data() + k * stride + 8, 8);
  }
  return std::to_string(count) + ":" + hex(reinterpret_cast<const unsigned char*>(&h), 8);
}

std::uint64_t whole_seed(ElemType t, std::uint64_t n) { return n * 31 + static_cast<unsigned>(t); }
std::uint64_t axis_seed(ElemType t, std::uint64_t m, std::uint64_t n) {
  return m * 7919 + n + static_cast<unsigned>(t);
}
std::uint64_t segments_seed(ElemType t) { return 4242 + static_cast<unsigned>(t); }
const std::vector<std::uint64_t>& segment_offsets() {
  static const std::vector<std::uint64_t> offsets{0, 0, 1, 40, 41, 41, 3000, 3033, 70000, 70001, 70129};
  return offsets;
}

Results op_results(const cl::CommandQueue& queue, const DeviceInfo& real, const std::filesystem::path& kernel_dir,
                   const std::function<bool(std::size_t, const std::string&)>& keep) {
  DeviceInfo dev = real;
  dev.compute_units = kComputeUnits;
  const cl::Context context = queue.getInfo<CL_QUEUE_CONTEXT>();
  Results results;
  std::size_t k = 0;
  auto upload = [&](const std::vector<unsigned char>& bytes) {
    return cl::Buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(),
                      const_cast<unsigned char*>(bytes.data()));
  };
  const std::vector<Op> value_ops{Op::Sum, Op::Min, Op::Max};
  const std::vector<Op> every_op{Op::Sum, Op::Min, Op::Max, Op::ArgMin, Op::ArgMax};

  // The whole array: every variant, sum/min/max, sizes from one element to several passes.
  for (const Variant& v : variants()) {
    for (ElemType t : types_of(dev)) {
      for (Op op : value_ops) {
        for (std::uint64_t n : {1ull, 7ull, 1000ull, 65539ull, 1048579ull}) {
          const std::string key = "whole/" + v.name + "/" + name(t) + "/" + name(op) + "/" + std::to_string(n);
          if (!keep(k++, key)) continue;
          ReducerOptions o;
          fix_launch(o, v.name, kernel_dir, dev);
          try {
            Reducer r(queue, o);
            const std::vector<unsigned char> data = data_of(t, n, whole_seed(t, n));
            const Value value = r.reduce(upload(data), t, n, op);
            unsigned char bytes[8] = {};
            std::visit([&](auto x) { std::memcpy(bytes, &x, sizeof x); }, value.v);
            results[key] = hex(bytes, size_of(t));
          } catch (const Error&) {
            results[key] = "refused";
          }
        }
      }
    }
  }

  // Rows and columns: every axis variant on its own axis, every operator it takes, a square-ish,
  // a tall and a wide matrix (odd sizes: tails everywhere).
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> shapes{{37, 1001}, {4099, 7}, {5, 20011}};
  for (const AxisVariant& v : axis_variants()) {
    // The descriptor variants came after the old tree: they are the descriptor path (whose float
    // sums add in their own order), checked against the host reference by tests/test_axis.cpp.
    if (v.runs_descriptor()) continue;
    for (Axis axis : {Axis::Rows, Axis::Cols}) {
      for (ElemType t : types_of(dev)) {
        for (Op op : every_op) {
          for (const auto& [m, n] : shapes) {
            const std::string key = "axis/" + v.name + "/" + name(t) + "/" + name(op) + "/" +
                                    std::string(name_of(axis)) + "/" + std::to_string(m) + "x" + std::to_string(n);
            if (!keep(k++, key)) continue;
            AxisReducerOptions o;
            fix_launch(o, v.name, kernel_dir, dev);
            const bool arg = op == Op::ArgMin || op == Op::ArgMax;
            const std::uint64_t outputs = axis == Axis::Rows ? m : n;
            try {
              const std::vector<unsigned char> data = data_of(t, m * n, axis_seed(t, m, n));
              const std::size_t out_bytes = outputs * (arg ? 16 : size_of(t));
              cl::Buffer out(context, CL_MEM_READ_WRITE, out_bytes);
              try {
                AxisReducer r(queue, o);
                r.reduce(upload(data), out, t, op, axis, m, n).wait();
              } catch (const Error&) {
                // The column-tile variants take TILE_X x ROWS_Y groups, not a work-group size:
                // their own default tile (32 x 8) on every device.
                o.params.wg.reset();
                AxisReducer r(queue, o);
                r.reduce(upload(data), out, t, op, axis, m, n).wait();
              }
              std::vector<unsigned char> host(out_bytes);
              queue.enqueueReadBuffer(out, CL_TRUE, 0, out_bytes, host.data());
              results[key] = digest(host, outputs, t, arg);
            } catch (const Error&) {
              results[key] = "refused";
            }
          }
        }
      }
    }
  }

  // Segments: one group per segment, split segments (3 parts), sliced (8 work-items a segment).
  const std::vector<std::uint64_t>& offsets = segment_offsets();
  struct Kernel {
    std::string name;
    std::optional<std::uint64_t> parts;
    std::optional<unsigned> slice;
  };
  for (const Kernel& kernel : {Kernel{"segments_group", 1, std::nullopt}, Kernel{"segments_split", 3, std::nullopt},
                               Kernel{"segments_sliced", std::nullopt, 8u}}) {
    for (ElemType t : types_of(dev)) {
      for (Op op : every_op) {
        const std::string key = "segments/" + kernel.name + "/" + name(t) + "/" + name(op);
        if (!keep(k++, key)) continue;
        SegmentedReducerOptions o;
        o.params.wg = kWg;
        o.params.parts = kernel.parts;
        o.params.slice = kernel.slice;
        o.kernel_dir = kernel_dir;
        o.device = dev;
        const bool arg = op == Op::ArgMin || op == Op::ArgMax;
        const std::uint64_t n = offsets.back(), segments = offsets.size() - 1;
        const std::vector<unsigned char> data = data_of(t, n, segments_seed(t));
        std::vector<unsigned char> host(segments * (arg ? 16 : size_of(t)));
        try {
          SegmentedReducer r(queue, o);
          auto run = [&](auto zero) {
            using T = decltype(zero);
            std::vector<T> values(n);
            std::memcpy(values.data(), data.data(), data.size());
            if (arg) {
              const auto out = r.reduce_arg(values, offsets, op);
              for (std::size_t s = 0; s < out.size(); ++s) {
                std::memcpy(host.data() + s * 16, &out[s].value, sizeof(T));
                std::memcpy(host.data() + s * 16 + 8, &out[s].index, 8);
              }
            } else {
              const auto out = r.reduce(values, offsets, op);
              std::memcpy(host.data(), out.data(), out.size() * sizeof(T));
            }
          };
          switch (t) {
            case ElemType::Uint: run(std::uint32_t{}); break;
            case ElemType::Int: run(std::int32_t{}); break;
            case ElemType::Float: run(float{}); break;
            default: run(double{}); break;
          }
          results[key] = digest(host, segments, t, arg);
        } catch (const Error&) {
          results[key] = "refused";
        }
      }
    }
  }
  return results;
}

}  // namespace clreduce::golden
