// clreduce-mpi: one reduction across MPI ranks. Each rank generates its own shard of a global
// array (element i depends only on the seed and i, so no rank needs another's data), reduces it
// on its own devices through the multi-device library (MultiReducer), and the ranks' results meet
// at rank 0, which checks the result against the host references the ranks computed for their
// shards and combined the same way. Why the reference is combined rather than recomputed at the
// root: the root then needs no more memory than any rank.
//
// Two paths:
// - sum, min, max of uint, int, float, double: each rank's value, combined by MPI_Reduce. Integer
//   sums and min/max are exact in any order; float sums are checked within the rounding bound of
//   the deepest rank plus the ranks' combine (MPI_Reduce may combine floats in any order or tree,
//   so a float sum may differ in its last bits between MPI implementations or rank counts).
// - --exact (sum, mean, dot, sumsq, l2 of f16, bf16, f32, f64): each rank's accumulators, unfinished
//   (MultiReducer::accumulate: the exact digits of every chunk of every device), gathered at rank
//   0 and folded there in rank order, then rounded once (MultiReducer::finish). Nothing is
//   rounded before that, so the result is the exact sum rounded once: the same bits for every rank
//   count, device count, split and chunk size, and the same as one device's. The reference is each
//   rank's exact rational sum of its shard, merged at rank 0 (ExactSum::merge), checked bit for bit.
//
// Failures: every rank validates its arguments before any work; a rank that fails (a bad
// argument, an OpenCL error, a device that fails) prints one line with its rank and calls
// MPI_Abort, which ends every rank of the job (none waits forever in a collective).
#include "clreduce/multi_device.hpp"
#include "clreduce/timing.hpp"
#include "clreduce/watchdog.hpp"
#include "data/descriptor_reference.hpp"
#include "data/exact_reference.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "parse.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

namespace {
using namespace clreduce;

int g_rank = 0;

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "clreduce-mpi: rank %d: error: %s\n", g_rank, message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);  // not reached: MPI_Abort does not return
}

struct Args {
  std::string n_text = "2^24", type_text = "uint", op_text = "sum", split_text = "even", data_text = "random";
  bool exact = false;
  std::optional<std::string> accumulate;  // --accumulate f64 (--exact: a double result)
  std::optional<std::uint64_t> chunk_elements;
  std::vector<std::size_t> devices;
  std::optional<std::size_t> platform;
  bool device_per_rank = false;
  unsigned long long seed = 42;
  unsigned iterations = 3;
  std::optional<std::string> kernel_timeout;  // --kernel-timeout SECONDS (the watchdog's limit)
  // Parsed:
  std::uint64_t n = 0;
  ElemType type = ElemType::Uint;
  Op op = Op::Sum;
  DataKind data = DataKind::Random;
  Reduction exact_reduction;  // --exact: the exact built-in
  Split split;
};

// The MPI datatype and operator that combine rank values of `t` with `op`. Integer sums travel as
// MPI_UINT32_T, whose sum wraps modulo 2^32 (the int bits are the same: two's complement), as the
// devices' do; a signed MPI sum's overflow would be undefined.
MPI_Datatype mpi_type(ElemType t, Op op) {
  switch (t) {
    case ElemType::Uint: return MPI_UINT32_T;
    case ElemType::Int: return op == Op::Sum ? MPI_UINT32_T : MPI_INT32_T;
    case ElemType::Float: return MPI_FLOAT;
    case ElemType::Double: return MPI_DOUBLE;
  }
  return MPI_DATATYPE_NULL;
}
MPI_Op mpi_op(Op op) { return op == Op::Sum ? MPI_SUM : op == Op::Min ? MPI_MIN : MPI_MAX; }

// A rank with no elements contributes the operator's identity.
Value identity(ElemType t, Op op) {
  Value v;
  const auto pick = [&](auto zero, auto low, auto high) { v.v = op == Op::Sum ? zero : op == Op::Min ? high : low; };
  switch (t) {
    case ElemType::Uint: pick(std::uint32_t{0}, std::uint32_t{0}, std::numeric_limits<std::uint32_t>::max()); break;
    case ElemType::Int: pick(std::int32_t{0}, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()); break;
    case ElemType::Float: pick(0.0f, -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()); break;
    case ElemType::Double: pick(0.0, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()); break;
  }
  return v;
}

// Combines one value per rank at rank 0 (the value's 4 or 8 bytes in place).
Value combine(const Value& mine, ElemType t, Op op) {
  unsigned char in[8] = {}, out[8] = {};
  std::visit([&](auto x) { std::memcpy(in, &x, sizeof x); }, mine.v);
  MPI_Reduce(in, out, 1, mpi_type(t, op), mpi_op(op), 0, MPI_COMM_WORLD);
  return Value::from_bytes(t, out);
}

// The sum, min or max path: each rank's value combined by MPI_Reduce at rank 0. Returns whether
// the check passed (rank 0's word; the other ranks return 1).
int run_op(const Args& a, MultiReducer& mr, int ranks, std::uint64_t first, std::uint64_t count) {
  const HostData shard = generate_data_range(a.type, first, count, a.data, a.seed);
  Value value = identity(a.type, a.op);
  unsigned depth = 0;
  std::vector<double> times_us;  // rank 0: each timed run's slowest rank
  Reference ref;
  try {
    ref = count ? host_reference(shard, a.op) : Reference{identity(a.type, a.op)};
    for (unsigned it = 0; it <= a.iterations; ++it) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = std::chrono::steady_clock::now();
      if (count) {
        const MultiResult res = mr.reduce(shard.data(), a.type, count, a.op);
        value = res.value;
        depth = res.depth;
      }
      const Value total = combine(value, a.type, a.op);
      (void)total;
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      double slowest = 0;
      MPI_Reduce(&us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (it > 0 && g_rank == 0) times_us.push_back(slowest);  // the first run builds the kernels
    }
  } catch (const Error& e) {
    fail(e.what());
  } catch (const cl::Error& e) {
    fail(describe(e));
  }

  // The result (the last run's) and the reference, combined at rank 0.
  const Value got = combine(value, a.type, a.op);
  const Value want = combine(ref.value, a.type, a.op);
  long double sums[2] = {ref.sum, ref.sum_abs}, total[2] = {0, 0};
  MPI_Reduce(sums, total, 2, MPI_LONG_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  unsigned deepest = 0;
  MPI_Reduce(&depth, &deepest, 1, MPI_UNSIGNED, MPI_MAX, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (g_rank == 0) {
    Reference all;
    all.value = want;
    all.sum = total[0];
    all.sum_abs = total[1];
    if (is_floating(a.type) && a.op == Op::Sum)
      all.value = a.type == ElemType::Float ? Value{static_cast<float>(total[0])} : Value{static_cast<double>(total[0])};
    // Any order of the P rank values: each goes through at most P - 1 more additions.
    const unsigned bound_depth = deepest + static_cast<unsigned>(ranks - 1);
    const Check c = check_result(got, all, a.op, bound_depth);
    ok = c.ok ? 1 : 0;
    const Stats t = stats_of(times_us);
    const double gbps = t.median > 0 ? static_cast<double>(a.n * size_of(a.type)) / (t.median * 1e3) : 0;
    std::ostringstream s;
    s << "clreduce-mpi: " << ranks << " rank" << (ranks == 1 ? "" : "s") << ", n = " << a.n << " " << name_of(a.type)
      << " (" << shard.origin.substr(0, shard.origin.find(", elements")) << "), " << name_of(a.op) << " = " << got.str() << "\n"
      << "check: " << c.detail << (c.ok ? "" : "  <-- FAILED") << "\n"
      << "time: median " << t.median << " us, best " << t.min << " us, of " << a.iterations
      << " runs (each the slowest rank's, MPI_Reduce included); " << gbps << " GB/s over all ranks at the median\n";
    std::cout << s.str() << std::flush;
  }
  return ok;
}

// The bits of an f32 or f64 result, for the line that shows them (the same on every device).
std::string hex_of(const Result& r) {
  char hex[24];
  if (r.layout.type == Scalar::F64)
    std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(r.get<std::uint64_t>()));
  else
    std::snprintf(hex, sizeof hex, "0x%08x", static_cast<unsigned>(r.get<std::uint32_t>()));
  return hex;
}

// The --exact path: each rank's unfinished exact accumulators gathered at rank 0 (MPI_Gatherv of
// their bytes, in rank order), folded and rounded once there; the reference each rank's exact
// rational sum, merged at rank 0. Returns whether the check passed (rank 0's word).
int run_exact(const Args& a, MultiReducer& mr, int ranks, std::uint64_t first, std::uint64_t count) {
  const Reduction& r = a.exact_reduction;
  const Builtin b = *r.builtin;
  std::vector<ScalarData> shard;
  for (unsigned j = 0; j < r.inputs.size(); ++j)
    shard.push_back(generate_scalar_data_range(r.inputs[j], first, count, a.data, a.seed, j));
  std::vector<const void*> inputs;
  for (const ScalarData& d : shard) inputs.push_back(d.data());
  // The parts a rank sends: at most one per chunk of each device's part, and one more per device
  // for the chunks' remainders; rank 0 holds every rank's, within MPI's int counts.
  const std::uint64_t chunk = a.chunk_elements.value_or(kDefaultChunkElements);
  const std::uint64_t most = (a.n / chunk + static_cast<std::uint64_t>(ranks) * mr.devices().size()) * r.acc_bytes;
  if (most > static_cast<std::uint64_t>(INT_MAX))
    fail("--chunk-elements " + std::to_string(chunk) + " makes up to " + std::to_string(most) + " bytes of " +
         "accumulators at rank 0, past MPI's 2^31 - 1; give larger chunks (n / 2^31 x " +
         std::to_string(r.acc_bytes) + " elements or more)");
  ExactSum mine;
  const bool products = b != Builtin::Sum && b != Builtin::Mean;
  for (std::uint64_t i = 0; i < count; ++i) {
    const double x = static_cast<double>(shard[0].at(i));  // f16 .. f64: exact in a double
    if (!products) mine.add_value(x);
    else mine.add_product(x, b == Builtin::Dot ? static_cast<double>(shard[1].at(i)) : x);
  }

  Result got;
  std::uint64_t total_parts = 0;
  std::vector<double> times_us;  // rank 0: each timed run's slowest rank
  std::vector<int> sizes(static_cast<std::size_t>(ranks)), starts(static_cast<std::size_t>(ranks));
  std::vector<unsigned char> all;
  try {
    for (unsigned it = 0; it <= a.iterations; ++it) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto t0 = std::chrono::steady_clock::now();
      MultiResult m;
      if (count) m = mr.accumulate(r, inputs, count, first);
      const int size = static_cast<int>(m.parts.size());
      MPI_Gather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (g_rank == 0) {
        std::uint64_t bytes = 0;
        for (int k = 0; k < ranks; ++k) {
          starts[static_cast<std::size_t>(k)] = static_cast<int>(bytes);
          bytes += static_cast<std::uint64_t>(sizes[static_cast<std::size_t>(k)]);
        }
        all.resize(bytes);
      }
      MPI_Gatherv(m.parts.data(), size, MPI_BYTE, all.data(), sizes.data(), starts.data(), MPI_BYTE, 0,
                  MPI_COMM_WORLD);
      if (g_rank == 0) {
        total_parts = all.size() / r.acc_bytes;
        got = mr.finish(r, all.data(), total_parts, a.n);
      }
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      double slowest = 0;
      MPI_Reduce(&us, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (it > 0 && g_rank == 0) times_us.push_back(slowest);  // the first run builds the kernels
    }
  } catch (const Error& e) {
    fail(e.what());
  } catch (const cl::Error& e) {
    fail(describe(e));
  }

  // The reference: every rank's exact sum, merged at rank 0 in rank order.
  std::vector<unsigned char> sum_bytes(ExactSum::kBytes), sums;
  mine.to_bytes(sum_bytes.data());
  if (g_rank == 0) sums.resize(ExactSum::kBytes * static_cast<std::size_t>(ranks));
  MPI_Gather(sum_bytes.data(), static_cast<int>(ExactSum::kBytes), MPI_BYTE, sums.data(),
             static_cast<int>(ExactSum::kBytes), MPI_BYTE, 0, MPI_COMM_WORLD);
  int ok = 1;
  if (g_rank == 0) {
    ExactSum whole;
    for (int k = 0; k < ranks; ++k) whole.merge(ExactSum::from_bytes(sums.data() + ExactSum::kBytes * static_cast<std::size_t>(k)));
    const Check c = check_descriptor(got, exact_descriptor_reference(r, whole));
    ok = c.ok ? 1 : 0;
    const Stats t = stats_of(times_us);
    std::uint64_t element_bytes = 0;
    for (Scalar s : r.inputs) element_bytes += size_of(s);
    const double gbps = t.median > 0 ? static_cast<double>(a.n * element_bytes) / (t.median * 1e3) : 0;
    const std::string origin = shard[0].origin.substr(0, shard[0].origin.find(", elements"));  // rank 0 has elements
    std::ostringstream s;
    s << "clreduce-mpi: " << ranks << " rank" << (ranks == 1 ? "" : "s") << ", n = " << a.n << " " << a.type_text
      << (r.inputs.size() > 1 ? " x 2" : "") << " (" << origin << "), " << r.name << " exact = " << got.str()
      << " (" << hex_of(got) << ")\n"
      << "accumulator " << accumulator_str(r) << "; " << total_parts << " parts (every chunk of every device of every "
      << "rank) folded at rank 0 in rank order, rounded once\n"
      << "check: " << c.detail << (c.ok ? " (each rank's exact rational sum, merged at rank 0, rounded once)" : "  <-- FAILED")
      << "\n"
      << "time: median " << t.median << " us, best " << t.min << " us, of " << a.iterations
      << " runs (each the slowest rank's, the gather and rank 0's fold included); " << gbps
      << " GB/s over all ranks at the median\n";
    std::cout << s.str() << std::flush;
  }
  return ok;
}

int run(int argc, char** argv, int ranks) {
  Args a;
  CLI::App app{"clreduce-mpi: one reduction across MPI ranks, each on its own devices (clreduce multi-device)"};
  app.add_option("--n", a.n_text, "elements in all (sizes as clreduce: 1000, 64Mi, 2^26)")->capture_default_str();
  CLI::Option* type_option =
      app.add_option("--type", a.type_text, "uint, int, float, double; with --exact f16, bf16, f32 (default), f64")
          ->capture_default_str();
  app.add_option("--op", a.op_text, "sum, min, max; with --exact sum, mean, dot, sumsq, l2")->capture_default_str();
  app.add_flag("--exact", a.exact,
               "exact summation: the ranks' exact accumulators folded at rank 0 and rounded once (the same bits for "
               "any rank count)");
  app.add_option("--accumulate", a.accumulate, "with --exact: f64 for a double result of f16, bf16, f32 input");
  app.add_option("--data", a.data_text, "random, iota, ones, max (the type's largest value)")->capture_default_str();
  app.add_option("--chunk-elements", a.chunk_elements,
                 "elements each device copies and reduces at a time (default 2^22); sets the fold order of a default "
                 "float sum");
  app.add_option("--split", a.split_text, "each rank's split between its devices: even, bandwidth, w1,w2,...")
      ->capture_default_str();
  app.add_option("--platform", a.platform, "platform index (default: the default device's)");
  app.add_option("--devices", a.devices, "device indices on the platform, comma-separated (default: every GPU, else every device)")
      ->delimiter(',');
  app.add_flag("--device-per-rank", a.device_per_rank,
               "each rank takes one device: its rank on the node modulo the devices (one rank per GPU)");
  app.add_option("--seed", a.seed, "seed of the random data")->capture_default_str();
  app.add_option("--iterations", a.iterations, "timed runs (after one warm-up)")->capture_default_str();
  app.add_option("--kernel-timeout", a.kernel_timeout,
                 "seconds one kernel may run before this rank ends with exit status 3 naming it, which ends the "
                 "job; 0 waits forever (default 300; env CLREDUCE_KERNEL_TIMEOUT)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (g_rank == 0) std::cout << app.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    fail(std::string(e.what()) + " (see clreduce-mpi --help)");
  }

  // Every argument checked on this rank before any device work.
  try {
    a.n = parse_size(a.n_text);
    if (a.n == 0) throw Error(Param::N, "--n must be at least 1 (got 0)");
    if (a.exact) {
      if (type_option->count() == 0) a.type_text = "f32";
      std::optional<Scalar> acc;
      if (a.accumulate) acc = parse_scalar(*a.accumulate);
      a.exact_reduction = builtin(parse_builtin(a.op_text), parse_scalar(a.type_text), acc, Summation::Exact);
    } else {
      if (a.accumulate) throw Error("--accumulate is for --exact; give --exact, or leave --accumulate out");
      const Builtin* exact_one = nullptr;
      for (const Builtin& b : all_builtins())
        if (name_of(b) == a.op_text && exact_available(b, Scalar::F32)) exact_one = &b;
      if (exact_one && *exact_one != Builtin::Sum)
        throw Error(Param::Op, "--op " + a.op_text + " runs across ranks with --exact only; without it clreduce-mpi "
                               "takes sum, min, max", "sum, min, max; with --exact sum, mean, dot, sumsq, l2");
      a.type = parse_type(a.type_text);
      a.op = parse_op(a.op_text);
      require_multi_device_op(a.op);
    }
    a.data = parse_data_kind(a.data_text);
    if (a.chunk_elements && *a.chunk_elements == 0) throw Error("--chunk-elements must be at least 1 (got 0)");
    a.split = parse_split(a.split_text);
    if (a.iterations == 0) throw Error("--iterations must be at least 1");
    if (a.device_per_rank && !a.devices.empty()) throw Error("--device-per-rank and --devices exclude each other; give one");
    set_kernel_timeout(parse_kernel_timeout(a.kernel_timeout, std::getenv("CLREDUCE_KERNEL_TIMEOUT")));
  } catch (const Error& e) {
    fail(e.what());
  }
  // The ranks must reduce the same thing: rank 0's n, seed, data, chunk and reduction against this
  // rank's (the exact path: the descriptor's whole generated source, hashed; the ranks run one
  // binary, so one hash).
  const std::string what = a.exact ? "exact " + reduction_source(a.exact_reduction)
                                   : std::string(name_of(a.type)) + " " + std::string(name_of(a.op));
  std::uint64_t mine[5] = {a.n, a.seed, static_cast<std::uint64_t>(a.data), a.chunk_elements.value_or(0),
                           static_cast<std::uint64_t>(std::hash<std::string>{}(what))};
  std::uint64_t root[5];
  std::copy(mine, mine + 5, root);
  MPI_Bcast(root, 5, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!std::equal(mine, mine + 5, root))
    fail("this rank's --n, --type, --op, --exact, --accumulate, --seed, --data or --chunk-elements differ from rank "
         "0's; give every rank the same");

  // This rank's devices and shard: the first n mod P ranks hold one element more.
  std::vector<DeviceInfo> devices;
  MultiReducer* mr = nullptr;
  std::optional<MultiReducer> holder;
  const std::uint64_t base = a.n / static_cast<std::uint64_t>(ranks), extra = a.n % static_cast<std::uint64_t>(ranks);
  const std::uint64_t r = static_cast<std::uint64_t>(g_rank);
  const std::uint64_t count = base + (r < extra ? 1 : 0);
  const std::uint64_t first = r * base + std::min(r, extra);
  try {
    if (!a.devices.empty()) {
      const std::size_t platform = a.platform ? *a.platform : select_device(DeviceSelector{}).platform_index;
      devices = devices_at(platform, a.devices);
    } else {
      devices = default_devices(DeviceSelector{a.platform, std::nullopt});
    }
    if (a.device_per_rank) {
      MPI_Comm node;
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
      int local = 0;
      MPI_Comm_rank(node, &local);
      MPI_Comm_free(&node);
      devices = {devices[static_cast<std::size_t>(local) % devices.size()]};
    }
    if (a.split.kind == SplitKind::Weights && a.split.weights.size() != devices.size())
      throw Error(Param::Split, "--split gives " + std::to_string(a.split.weights.size()) + " weights for this rank's " +
                                    std::to_string(devices.size()) + " devices; give one weight per device, or even, or bandwidth");
    const bool fp64 = a.exact ? a.exact_reduction.needs_fp64() : a.type == ElemType::Double;
    for (const DeviceInfo& d : devices)
      if (fp64 && !d.fp64)
        throw Error(Param::Type, (a.exact ? a.exact_reduction.name + " of " + a.type_text : std::string("double")) +
                                     " needs cl_khr_fp64, which " + d.name + " lacks; valid types there: " +
                                     (a.exact ? "f16, bf16, f32 (without --accumulate f64)" : "uint, int, float"));
    MultiDeviceOptions opt;
    opt.split = a.split;
    if (a.chunk_elements) opt.chunk_elements = *a.chunk_elements;
    holder.emplace(devices, opt);
    mr = &*holder;
  } catch (const Error& e) {
    fail(e.what());
  } catch (const cl::Error& e) {
    fail(describe(e));
  }
  // Every rank has its devices: from here on, work.
  MPI_Barrier(MPI_COMM_WORLD);

  const int ok = a.exact ? run_exact(a, *mr, ranks, first, count) : run_op(a, *mr, ranks, first, count);
  // Each rank's line (its elements and devices), gathered to the root and printed there in rank
  // order: lines printed by the ranks themselves reach mpirun's output in any order.
  std::ostringstream line;
  line << "rank " << g_rank << ": elements [" << first << ", " << first + count << ") on";
  for (const DeviceInfo& d : devices) line << " [" << d.platform_index << ":" << d.device_index << "] " << d.name;
  line << "\n";
  const std::string text = line.str();
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(ranks)), starts(static_cast<std::size_t>(ranks));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (g_rank == 0) {
    int total_length = 0;
    for (int k = 0; k < ranks; ++k) {
      starts[static_cast<std::size_t>(k)] = total_length;
      total_length += lengths[static_cast<std::size_t>(k)];
    }
    all.resize(static_cast<std::size_t>(total_length));
  }
  MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), starts.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (g_rank == 0) std::cout << all << std::flush;
  int verdict = ok;
  MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return verdict ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  int code = 0;
  try {
    code = run(argc, argv, ranks);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  MPI_Finalize();
  return code;
}
