// clreduce-mpi: one reduction across MPI ranks (issue 18). Each rank generates its own shard of a
// global array (element i depends only on the seed and i, so no rank needs another's data),
// reduces it on its own devices through the multi-device library (MultiReducer), and the ranks
// combine their values with MPI_Reduce at rank 0, which checks the result against the host
// references the ranks computed for their shards and combined the same way.
//
// Why the reference is combined rather than recomputed at the root: the root then needs no more
// memory than any rank. Integer sums and min/max are exact in any order; float sums are checked
// within the rounding bound of the deepest rank plus the ranks' combine (whose order is MPI's:
// MPI_Reduce may combine floats in any order or tree, so a float sum may differ in its last bits
// between MPI implementations or rank counts; the bound allows any order of the P rank values).
//
// Failures: every rank validates its arguments before any work; a rank that fails (a bad
// argument, an OpenCL error, a device that fails) prints one line with its rank and calls
// MPI_Abort, which ends every rank of the job (none waits forever in a collective).
#include "clreduce/multi_device.hpp"
#include "clreduce/timing.hpp"
#include "clreduce/watchdog.hpp"
#include "data/host_data.hpp"
#include "data/reference.hpp"
#include "parse.hpp"

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  std::string n_text = "2^24", type_text = "uint", op_text = "sum", split_text = "even";
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

int run(int argc, char** argv, int ranks) {
  Args a;
  CLI::App app{"clreduce-mpi: one reduction across MPI ranks, each on its own devices (clreduce multi-device)"};
  app.add_option("--n", a.n_text, "elements in all (sizes as clreduce: 1000, 64Mi, 2^26)")->capture_default_str();
  app.add_option("--type", a.type_text, "uint, int, float, double")->capture_default_str();
  app.add_option("--op", a.op_text, "sum, min, max")->capture_default_str();
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
    a.type = parse_type(a.type_text);
    a.op = parse_op(a.op_text);
    require_multi_device_op(a.op);
    a.split = parse_split(a.split_text);
    if (a.iterations == 0) throw Error("--iterations must be at least 1");
    if (a.device_per_rank && !a.devices.empty()) throw Error("--device-per-rank and --devices exclude each other; give one");
    set_kernel_timeout(parse_kernel_timeout(a.kernel_timeout, std::getenv("CLREDUCE_KERNEL_TIMEOUT")));
  } catch (const Error& e) {
    fail(e.what());
  }
  // The ranks must reduce the same thing: rank 0's n, type, op and seed against this rank's.
  std::uint64_t mine[4] = {a.n, static_cast<std::uint64_t>(a.type), static_cast<std::uint64_t>(a.op), a.seed};
  std::uint64_t root[4] = {mine[0], mine[1], mine[2], mine[3]};
  MPI_Bcast(root, 4, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!std::equal(mine, mine + 4, root))
    fail("this rank's --n, --type, --op or --seed differ from rank 0's; give every rank the same");

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
    if (a.type == ElemType::Double)
      for (const DeviceInfo& d : devices)
        if (!d.fp64) throw Error(Param::Type, "double needs cl_khr_fp64, which " + d.name + " lacks; valid types there: uint, int, float");
    MultiDeviceOptions opt;
    opt.split = a.split;
    holder.emplace(devices, opt);
    mr = &*holder;
  } catch (const Error& e) {
    fail(e.what());
  } catch (const cl::Error& e) {
    fail(describe(e));
  }
  // Every rank has its devices: from here on, work.
  MPI_Barrier(MPI_COMM_WORLD);

  const HostData shard = generate_data_range(a.type, first, count, DataKind::Random, a.seed);
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
        const MultiResult res = mr->reduce(shard.data(), a.type, count, a.op);
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
      << " (random, seed " << a.seed << "), " << name_of(a.op) << " = " << got.str() << "\n"
      << "check: " << c.detail << (c.ok ? "" : "  <-- FAILED") << "\n"
      << "time: median " << t.median << " us, best " << t.min << " us, of " << a.iterations
      << " runs (each the slowest rank's, MPI_Reduce included); " << gbps << " GB/s over all ranks at the median\n";
    std::cout << s.str() << std::flush;
  }
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
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok ? 0 : 1;
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
