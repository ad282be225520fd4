// The multi-device reduction (clreduce/multi_device.hpp): the split of n between devices, the
// device lists, and the MultiReducer that runs one Reducer per device in its own host thread and
// folds their values in device order.
//
// Why one host thread per device rather than one thread enqueueing for all: each device's time is
// then simply the host clock around its own work (enqueue to its value on the host), a device that
// fails stops only its own thread (after waiting for what it launched), and the reducers keep
// their one-thread-at-a-time contract. The concurrency that matters (devices working at once) is
// the same either way. The threads are kept between calls (device_workers.hpp), the calling
// thread taking the first device's part.
//
// Why the host-copied path is a pipeline of chunks: a device's part copied whole and then reduced
// takes copy + reduce; in chunks, with two device buffers alternating, the copy of chunk k+1 runs
// while chunk k is reduced, so the part takes about max(copy, reduce) plus one chunk.
#include "clreduce/introspect/reduce.hpp"
#include "clreduce/multi_device.hpp"

#include "core/bound_queue.hpp"
#include "descriptor/common.hpp"
#include "multi_device/device_workers.hpp"
#include "multi_device/host_staging.hpp"
#include "reduce/descriptor_launch.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <sstream>
#include <thread>

namespace clreduce {

namespace {
using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}
double gbps_of(std::uint64_t bytes, double us) { return us > 0 ? static_cast<double>(bytes) / (us * 1e3) : 0; }

const char* const kSplitForms = "even, bandwidth, or comma-separated non-negative weights such as 3,1 (one per device)";

std::string device_label(std::size_t i, const DeviceInfo& d) {
  return "device " + std::to_string(i) + " (" + d.name + ")";
}
}  // namespace

std::string Split::str() const {
  if (kind == SplitKind::Even) return "even";
  if (kind == SplitKind::Bandwidth) return "bandwidth";
  std::ostringstream s;
  for (std::size_t i = 0; i < weights.size(); ++i) s << (i ? "," : "") << weights[i];
  return s.str();
}

Split parse_split(std::string_view text) {
  if (text == "even") return Split{SplitKind::Even, {}};
  if (text == "bandwidth") return Split{SplitKind::Bandwidth, {}};
  Split s{SplitKind::Weights, {}};
  const std::string all(text);
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = all.find(',', start);
    const std::string item = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    const double w = item.empty() ? std::nan("") : std::strtod(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(w) || w < 0 ||
        item.find_first_of(" \t\n") != std::string::npos)
      throw Error(Param::Split, "invalid split '" + all + "': '" + item + "' is not a non-negative number; valid: " + kSplitForms,
                  kSplitForms);
    s.weights.push_back(w);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (std::all_of(s.weights.begin(), s.weights.end(), [](double w) { return w == 0; }))
    throw Error(Param::Split, "invalid split '" + all + "': every weight is 0; valid: " + kSplitForms, kSplitForms);
  return s;
}

std::vector<std::uint64_t> split_counts(std::uint64_t n, const std::vector<double>& weights) {
  if (weights.empty()) throw Error(Param::Split, "a split needs one weight per device (got none)", kSplitForms);
  long double total = 0;
  for (double w : weights) {
    if (!std::isfinite(w) || w < 0)
      throw Error(Param::Split, "split weights must be finite and non-negative; valid: " + std::string(kSplitForms), kSplitForms);
    total += w;
  }
  if (total <= 0) throw Error(Param::Split, "split weights are all 0; valid: " + std::string(kSplitForms), kSplitForms);
  // Largest remainders: the floors of the exact shares, then one more element to each device in
  // order of its remainder (ties to the lower index) until n is reached. Only the weights and n
  // decide, so the same inputs always give the same parts.
  const std::size_t d = weights.size();
  std::vector<std::uint64_t> counts(d, 0);
  std::vector<long double> rem(d, 0);
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < d; ++i) {
    const long double q = static_cast<long double>(n) * weights[i] / total;
    const long double f = std::floor(q);
    counts[i] = std::min<std::uint64_t>(n - given, static_cast<std::uint64_t>(f));
    given += counts[i];
    rem[i] = q - f;
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < d; ++i)
    if (weights[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rem[a] > rem[b]; });
  for (std::size_t k = 0; given < n; k = (k + 1) % order.size()) {
    ++counts[order[k]];
    ++given;
  }
  return counts;
}

std::vector<DeviceInfo> default_devices(const DeviceSelector& sel) {
  const std::vector<DeviceInfo> all = list_devices();
  std::size_t platform = 0;
  if (sel.platform) {
    platform = *sel.platform;
  } else {
    platform = select_device(all, sel).platform_index;
  }
  std::vector<DeviceInfo> on, gpus;
  for (const DeviceInfo& d : all)
    if (d.platform_index == platform) {
      on.push_back(d);
      if (d.is_gpu) gpus.push_back(d);
    }
  if (on.empty()) select_device(all, DeviceSelector{platform, std::nullopt});  // throws naming the platforms
  return gpus.empty() ? on : gpus;
}

std::vector<DeviceInfo> devices_at(std::size_t platform, const std::vector<std::size_t>& indices) {
  const std::vector<DeviceInfo> all = list_devices();
  std::vector<DeviceInfo> on;
  for (const DeviceInfo& d : all)
    if (d.platform_index == platform) on.push_back(d);
  if (on.empty()) select_device(all, DeviceSelector{platform, std::nullopt});  // throws naming the platforms
  std::vector<std::string> valid;
  for (const DeviceInfo& d : on) valid.push_back(std::to_string(d.device_index) + " (" + d.name + ")");
  const std::string valid_text = join(valid);
  if (indices.empty())
    throw Error(Param::Devices, "the device list is empty; valid device indices on platform " +
                                    std::to_string(platform) + ": " + valid_text, valid_text);
  std::vector<DeviceInfo> out;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::size_t i = indices[k];
    if (std::find(indices.begin(), indices.begin() + static_cast<std::ptrdiff_t>(k), i) !=
        indices.begin() + static_cast<std::ptrdiff_t>(k))
      throw Error(Param::Devices, "device " + std::to_string(i) + " is listed twice; valid device indices on platform " +
                                      std::to_string(platform) + ": " + valid_text, valid_text);
    if (i >= on.size())
      throw Error(Param::Devices, "no device " + std::to_string(i) + " on platform " + std::to_string(platform) + " (" +
                                      on.front().platform_name + "); valid device indices: " + valid_text, valid_text);
    out.push_back(on[i]);
  }
  return out;
}

void require_multi_device_op(Op op) {
  if (op == Op::Sum || op == Op::Min || op == Op::Max) return;
  throw Error(Param::Op,
              "the multi-device reduction by Op takes sum, min and max, not " + std::string(name_of(op)) +
                  "; argmin, argmax and user files run there as reduction descriptors (MultiReducer::reduce with "
                  "builtin(Builtin::ArgMax, type) or load_reduction(file))",
              "sum, min, max");
}

namespace {
// One device's context, queues, reducer and the stager its host-copied chunks go through.
struct Dev {
  DeviceInfo info;
  cl::Context context;
  cl::CommandQueue compute;  // the reducer's in-order queue: passes, then each chunk's value read
  cl::CommandQueue copy;     // in-order: the chunk writes, each after the chunk two before it was read
  std::unique_ptr<Reducer> reducer;
  // Host-copied chunks: each input's two slots (and the pinned path's staging buffers), made on
  // the first host part.
  std::unique_ptr<HostStager> stager;
  // The descriptor path, made on its first use: its view of `compute`, its launches, the chunks'
  // accumulators, and (device 0) the folded result.
  std::unique_ptr<BoundQueue> bound;
  std::unique_ptr<DescriptorReducer> descriptors;
  cl::Buffer parts, result;
  std::uint64_t parts_bytes = 0;
};

// What a device's thread brings back.
struct PartOut {
  Value value;
  std::vector<unsigned char> accumulators;  // descriptor parts: each chunk's, unfinished, in order
  std::uint64_t chunks = 0;
  unsigned depth = 0;
  std::string variant;
  double us = 0;
  Clock::time_point began;  // when the part started (its thread running)
  HostPath host_path = HostPath::Auto;  // host parts: the stager's path
  unsigned copy_threads = 0;
};

// Waits for everything already enqueued on the device's queues; used before an error leaves the
// device's thread, so nothing it launched is still running (or writing into freed host memory).
void drain(Dev& d) noexcept {
  try { d.copy.finish(); } catch (...) {}
  try { d.compute.finish(); } catch (...) {}
}

// Folds the chunk values read back (8 bytes each) in chunk order.
Value fold_chunks(const std::vector<unsigned char>& bytes, std::uint64_t chunks, ElemType t, Op op) {
  std::vector<Value> values;
  values.reserve(chunks);
  for (std::uint64_t k = 0; k < chunks; ++k) values.push_back(Value::from_bytes(t, bytes.data() + 8 * k));
  return fold_values(values, op);
}

// The chunk a host part takes: the caller's (MultiDeviceOptions::chunk_elements), else
// kDefaultChunkElements where chunks are copied, and as large as an allocation where the device
// reads them in place: there is no copy to overlap, and each chunk's launch ends in a tail where
// cores wait (PoCL, 2 cores, 2^24 floats in place: 15.6-17.5 GB/s in 4 chunks, 23.5-25.5 in one).
std::uint64_t default_chunk(const Dev& d, std::uint64_t chunk) {
  if (chunk) return chunk;
  return d.stager->resolved() == HostPath::InPlace ? std::numeric_limits<std::uint64_t>::max() : kDefaultChunkElements;
}

// The part's transfers so far and the share's record of its path.
void note_path(PartOut& out, const Dev& d) {
  out.host_path = d.stager->path();
  out.copy_threads = d.stager->copy_threads();
}

// Host part: chunk k is staged into slot k % 2 (HostStager: written on the copy queue, or read in
// place), reduced on the compute queue once its write event has fired, and its value read
// (non-blocking) right after its passes on the same in-order queue (so the reducer's scratch is
// free for the next chunk). The write of chunk k+2 into the same slot waits for chunk k's first
// pass, the only pass that reads the input. Both queues are flushed after each chunk so the device
// starts at once.
PartOut run_host_part(Dev& d, const unsigned char* bytes, ElemType t, std::uint64_t n, Op op, std::uint64_t chunk) {
  const std::uint64_t es = size_of(t);
  chunk = std::max<std::uint64_t>(1, std::min({default_chunk(d, chunk), n, chunk_elements(t, d.info)}));
  const std::uint64_t chunks = (n + chunk - 1) / chunk;
  d.stager->begin_part(chunks);
  d.stager->reserve({chunk * es});
  std::vector<unsigned char> values(8 * chunks, 0);
  std::vector<cl::Event> first_pass(chunks);
  std::vector<cl::Event> transfers;  // every write and read of the host's memory, waited for by name
  transfers.reserve(2 * chunks);
  PartOut out;
  out.chunks = chunks;
  note_path(out, d);
  const Clock::time_point t0 = Clock::now();
  out.began = t0;
  try {
    for (std::uint64_t k = 0; k < chunks; ++k) {
      const std::uint64_t count = std::min(chunk, n - k * chunk);
      std::vector<cl::Event> before;
      if (k >= 2) before.push_back(first_pass[k - 2]);
      std::vector<cl::Event> written;
      const Input slot = d.stager->stage(0, static_cast<unsigned>(k % 2), bytes + k * chunk * es, count * es, es, before, written);
      d.copy.flush();
      // In place, the launch reads from the caller's memory at its offset (host_staging.hpp).
      const std::shared_ptr<const Launch> launch = introspect::prepare(*d.reducer, t, op, count, slot.offset);
      out.depth = std::max(out.depth, launch->plan.depth);
      if (k == 0) out.variant = launch->plan.variant->name;
      transfers.insert(transfers.end(), written.begin(), written.end());
      const std::vector<cl::Event> passes =
          introspect::enqueue(*d.reducer, *launch, slot.buffer, slot.offset, nullptr, true, written.empty() ? nullptr : &written);
      first_pass[k] = passes.front();
      transfers.emplace_back();
      d.compute.enqueueReadBuffer(introspect::result_buffer(*d.reducer, *launch), CL_FALSE, 0, es, values.data() + 8 * k,
                                  nullptr, &transfers.back());
      d.compute.flush();
    }
    d.compute.finish();
    d.copy.finish();
    // Each transfer of the host's memory waited for by its event too: Rusticl 22.3 (Debian 12's
    // Mesa) returned from these finishes with chunk writes and value reads still to run, which
    // then read and wrote this function's memory after it was gone (a wrong sum, then a crash in
    // its buffer_subdata).
    cl::WaitForEvents(transfers);
  } catch (...) {
    drain(d);
    throw;
  }
  out.us = us_since(t0);
  out.value = fold_chunks(values, chunks, t, op);
  out.depth += static_cast<unsigned>(std::min<std::uint64_t>(chunks - 1, 0xffffffffu - out.depth));
  return out;
}

PartOut run_resident_part(Dev& d, const cl::Buffer& in, ElemType t, std::uint64_t n, Op op) {
  PartOut out;
  out.chunks = 1;
  const Clock::time_point t0 = Clock::now();
  out.began = t0;
  try {
    const std::shared_ptr<const Launch> launch = introspect::prepare(*d.reducer, t, op, n, 0);
    out.depth = launch->plan.depth;
    out.variant = launch->plan.variant->name;
    introspect::enqueue(*d.reducer, *launch, in, 0, nullptr, false);
    out.value = introspect::read_result(*d.reducer, *launch);
  } catch (...) {
    drain(d);
    throw;
  }
  out.us = us_since(t0);
  return out;
}

// The most elements of one chunk of every input of r on the device: the largest allocation over
// the widest input, whole multiples of 4096 elements (as chunk_elements).
std::uint64_t descriptor_chunk_elements(const Reduction& r, const DeviceInfo& dev) {
  const std::uint64_t most = dev.max_alloc_bytes / widest_input_bytes(r);
  return most >= 4096 ? most / 4096 * 4096 : std::max<std::uint64_t>(1, most);
}

// The parts buffer holds `count` accumulators of r (grown when too small).
void ensure_parts(Dev& d, const Reduction& r, std::uint64_t count) {
  const std::uint64_t need = std::max<std::uint64_t>(count * r.acc_bytes, 16);
  if (need <= d.parts_bytes) return;
  d.parts = cl::Buffer(d.context, CL_MEM_READ_WRITE, need);
  d.parts_bytes = need;
}

// Host part of a descriptor: chunk k of every input written into that input's slots[k % 2] on the
// copy queue, reduced on the compute queue as a PARTIAL launch whose indices start at
// index_base + k * chunk, its accumulator left at parts[k]; the write of chunk k+2 into a slot
// waits for chunk k's launch (the one launch that reads it). The accumulators are read once, at
// the end.
PartOut run_descriptor_host_part(Dev& d, const Reduction& r, const std::vector<const unsigned char*>& inputs,
                                 std::uint64_t n, std::uint64_t index_base, std::uint64_t chunk,
                                 const std::vector<ScalarArg>& scalars) {
  chunk = std::max<std::uint64_t>(1, std::min({default_chunk(d, chunk), n, descriptor_chunk_elements(r, d.info)}));
  const std::uint64_t chunks = (n + chunk - 1) / chunk;
  const std::size_t ni = r.inputs.size();
  std::vector<std::uint64_t> slot_bytes;
  for (std::size_t j = 0; j < ni; ++j) slot_bytes.push_back(chunk * size_of(r.inputs[j]));
  d.stager->begin_part(chunks);
  d.stager->reserve(slot_bytes);
  ensure_parts(d, r, chunks);
  PartOut out;
  out.chunks = chunks;
  note_path(out, d);
  out.accumulators.assign(chunks * r.acc_bytes, 0);
  std::vector<cl::Event> launched(chunks);
  std::vector<cl::Event> transfers;  // every write of the host's memory, waited for by name (as run_host_part)
  const Clock::time_point t0 = Clock::now();
  out.began = t0;
  try {
    for (std::uint64_t k = 0; k < chunks; ++k) {
      const std::uint64_t count = std::min(chunk, n - k * chunk);
      std::vector<cl::Event> before;
      if (k >= 2) before.push_back(launched[k - 2]);
      std::vector<cl::Event> written;
      std::vector<Input> in(ni);
      for (std::size_t j = 0; j < ni; ++j) {
        const std::uint64_t es = size_of(r.inputs[j]);
        in[j] = d.stager->stage(j, static_cast<unsigned>(k % 2), inputs[j] + k * chunk * es, count * es, es, before, written);
      }
      transfers.insert(transfers.end(), written.begin(), written.end());
      d.copy.flush();
      DescriptorLaunch l;
      launched[k] = d.descriptors->enqueue_part(r, in, count, DescriptorPart{index_base + k * chunk}, d.parts, k,
                                                scalars, written, nullptr, &l);
      out.depth = std::max(out.depth, l.depth);
      if (k == 0) out.variant = l.kernel;
      d.compute.flush();
    }
    d.compute.enqueueReadBuffer(d.parts, CL_TRUE, 0, chunks * r.acc_bytes, out.accumulators.data());
    d.copy.finish();
    if (!transfers.empty()) cl::WaitForEvents(transfers);
  } catch (...) {
    drain(d);
    throw;
  }
  out.us = us_since(t0);
  // The chunks' accumulators are folded in order after the part: one more combine per chunk.
  out.depth += static_cast<unsigned>(std::min<std::uint64_t>(chunks - 1, 0xffffffffu - out.depth));
  return out;
}

PartOut run_descriptor_resident_part(Dev& d, const Reduction& r, const std::vector<Input>& inputs, std::uint64_t n,
                                     std::uint64_t index_base, const std::vector<ScalarArg>& scalars) {
  PartOut out;
  out.chunks = 1;
  out.accumulators.assign(r.acc_bytes, 0);
  const Clock::time_point t0 = Clock::now();
  out.began = t0;
  try {
    ensure_parts(d, r, 1);
    DescriptorLaunch l;
    d.descriptors->enqueue_part(r, inputs, n, DescriptorPart{index_base}, d.parts, 0, scalars, {}, nullptr, &l);
    out.depth = l.depth;
    out.variant = l.kernel;
    d.compute.enqueueReadBuffer(d.parts, CL_TRUE, 0, r.acc_bytes, out.accumulators.data());
  } catch (...) {
    drain(d);
    throw;
  }
  out.us = us_since(t0);
  return out;
}

// The message of whatever a device's thread threw, for the one line that names the device.
std::string message_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const cl::Error& x) {
    return describe(x);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "unknown failure";
  }
}
}  // namespace

struct MultiReducer::State {
  std::vector<DeviceInfo> devices;
  MultiDeviceOptions options;
  std::vector<Dev> devs;
  std::optional<std::vector<double>> bandwidth[2];  // [resident]
  DeviceWorkers workers;  // the devices' host threads, kept between calls (declared last: joined first)

  void check_type(ElemType t) const {
    if (t != ElemType::Double) return;
    for (std::size_t i = 0; i < devices.size(); ++i)
      if (!devices[i].fp64)
        throw Error(Param::Type, "double needs cl_khr_fp64, which " + device_label(i, devices[i]) +
                                     " lacks; valid types there: uint, int, float", "uint, int, float", devices[i].name);
  }

  // Runs part(i) for every device i with work, each on its own thread (the calling thread takes
  // the first, DeviceWorkers the others); waits for all; then throws the first failure in device
  // order, naming the device.
  template <class F>
  std::vector<PartOut> run_all(const std::vector<std::uint64_t>& counts, F&& part) {
    std::vector<PartOut> outs(devs.size());
    std::vector<std::exception_ptr> errors(devs.size());
    std::vector<bool> which(devs.size());
    for (std::size_t i = 0; i < devs.size(); ++i) which[i] = counts[i] > 0;
    workers.run(which, [&](std::size_t i) {
      try {
        outs[i] = part(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
    for (std::size_t i = 0; i < devs.size(); ++i)
      if (errors[i]) {
        std::string what = message_of(errors[i]);
        Param param = Param::None;
        try {
          std::rethrow_exception(errors[i]);
        } catch (const Error& e) {
          param = e.param();
        } catch (...) {
        }
        throw Error(param, device_label(i, devices[i]) + " failed: " + what, "", devices[i].name);
      }
    return outs;
  }

  // Each device's share of the call: its part of the input ([offset, offset + n), in device
  // order) and, where it had one, what its thread brought back. `last_end`: the latest part's
  // end, from t0.
  std::vector<DeviceShare> shares_of(const std::vector<PartOut>& outs, const std::vector<std::uint64_t>& counts,
                                     std::uint64_t element_bytes, Clock::time_point t0, double& last_end) const {
    std::vector<DeviceShare> shares;
    std::uint64_t offset = 0;
    last_end = 0;
    for (std::size_t i = 0; i < devs.size(); ++i) {
      DeviceShare s;
      s.device = i;
      s.name = devices[i].name;
      s.offset = offset;
      s.n = counts[i];
      offset += counts[i];
      if (s.n > 0) {
        s.chunks = outs[i].chunks;
        s.value = outs[i].value;
        s.variant = outs[i].variant;
        s.depth = outs[i].depth;
        s.us = outs[i].us;
        s.gbps = gbps_of(s.n * element_bytes, s.us);
        s.start_us = std::max(0.0, std::chrono::duration<double, std::micro>(outs[i].began - t0).count());
        s.host_path = outs[i].host_path;
        s.copy_threads = outs[i].copy_threads;
        last_end = std::max(last_end, s.start_us + s.us);
      }
      shares.push_back(std::move(s));
    }
    return shares;
  }

  MultiResult assemble(std::vector<PartOut> outs, const std::vector<std::uint64_t>& counts, ElemType t, Op op,
                       bool resident, Clock::time_point t0) {
    MultiResult r;
    r.type = t;
    r.op = op;
    r.resident = resident;
    double last_end = 0;
    r.shares = shares_of(outs, counts, size_of(t), t0, last_end);
    std::vector<Value> values;
    std::uint64_t offset = 0;
    unsigned deepest = 0;
    for (const DeviceShare& s : r.shares) {
      offset += s.n;
      if (s.n > 0) {
        values.push_back(s.value);
        deepest = std::max(deepest, s.depth);
      }
    }
    // Device values folded in device index order: the order that makes the result independent of
    // which device finished first.
    r.value = fold_values(values, op);
    r.us = us_since(t0);
    r.tail_us = std::max(0.0, r.us - last_end);
    r.n = offset;
    r.bytes = offset * size_of(t);
    r.depth = deepest + static_cast<unsigned>(values.size() - 1);
    r.gbps = gbps_of(r.n * size_of(t), r.us);
    return r;
  }

  // Device i's descriptor path, made on its first use.
  DescriptorReducer& descriptors(std::size_t i) {
    Dev& d = devs[i];
    if (!d.descriptors) {
      d.bound = std::make_unique<BoundQueue>(bind_queue(d.compute, d.info, options.reducer.kernel_dir,
                                                        options.reducer.programs, "MultiReducer"));
      d.descriptors = std::make_unique<DescriptorReducer>(*d.bound, options.reducer.params);
    }
    return *d.descriptors;
  }

  // What every descriptor call checks before any device works, once the counts of inputs and
  // scalars are checked: fp64 on every device with a part, and each such device's launch for its
  // parts (PARTIAL 1: built now, so a broken descriptor is refused with its log before data moves,
  // and the parts then find their program built).
  void check_descriptor(const Reduction& r, const std::vector<std::uint64_t>& counts) {
    for (std::size_t i = 0; i < devs.size(); ++i) {
      if (counts[i] == 0 && i != 0) continue;  // device 0 folds the parts: it needs the program too
      try {
        check_fp64(r, devices[i]);
        descriptors(i).prepare(r, std::max<std::uint64_t>(counts[i], 1), true);
      } catch (const Error& e) {
        throw Error(e.param(), device_label(i, devices[i]) + ": " + e.what(), "", devices[i].name);
      }
    }
  }

  // The descriptor call's shares, its parts (every chunk's accumulator of every device, in device
  // and chunk order) in m.parts, m.part_count, and its size and depth; the result left unset.
  MultiResult collect_descriptor(std::vector<PartOut> outs, const std::vector<std::uint64_t>& counts,
                                 const Reduction& r, bool resident, Clock::time_point t0) {
    std::uint64_t element_bytes = 0;
    for (Scalar s : r.inputs) element_bytes += size_of(s);
    MultiResult m;
    m.reduction = r.name;
    m.resident = resident;
    double last_end = 0;
    m.shares = shares_of(outs, counts, element_bytes, t0, last_end);
    unsigned deepest = 0;
    std::uint64_t offset = 0;
    for (const DeviceShare& s : m.shares) {
      offset += s.n;
      if (s.n == 0) continue;
      // The share's depth counts its own chunks' fold; the fold of every part is counted below.
      deepest = std::max(deepest, s.depth - static_cast<unsigned>(std::min<std::uint64_t>(s.chunks - 1, s.depth)));
      m.parts.insert(m.parts.end(), outs[s.device].accumulators.begin(), outs[s.device].accumulators.end());
      m.part_count += s.chunks;
    }
    m.us = us_since(t0);
    m.tail_us = std::max(0.0, m.us - last_end);
    m.n = offset;
    m.bytes = offset * element_bytes;
    // One work-item folds the parts in order: the first part's elements go through parts - 1 more.
    m.depth = deepest + static_cast<unsigned>(std::min<std::uint64_t>(m.part_count - 1, 0xffffffffu - deepest));
    m.gbps = gbps_of(m.bytes, m.us);
    return m;
  }

  // `count` parts of r folded on device 0 in their order and finished there, for n elements.
  Result fold_on_first(const Reduction& r, const unsigned char* parts, std::uint64_t count, std::uint64_t n) {
    Dev& d0 = devs[0];
    try {
      ensure_parts(d0, r, count);
      if (!d0.result()) d0.result = cl::Buffer(d0.context, CL_MEM_READ_WRITE, 16);
      unsigned char bytes[16] = {};
      with_cl_context("folding the parts on " + device_label(0, devices[0]), [&] {
        d0.compute.enqueueWriteBuffer(d0.parts, CL_FALSE, 0, count * r.acc_bytes, parts);
        descriptors(0).fold_parts(r, d0.parts, count, n, d0.result, 0, {});
        d0.compute.enqueueReadBuffer(d0.result, CL_TRUE, 0, r.out.bytes(), bytes);
      });
      return Result::from_bytes(r.out, bytes);
    } catch (const Error& e) {
      drain(d0);
      throw Error(e.param(), device_label(0, devices[0]) + " failed folding the parts: " + e.what(), "",
                  devices[0].name);
    } catch (...) {
      drain(d0);
      throw;
    }
  }

  // The descriptor's parts folded on device 0 in device and chunk order and finished there.
  MultiResult assemble_descriptor(std::vector<PartOut> outs, const std::vector<std::uint64_t>& counts,
                                  const Reduction& r, bool resident, Clock::time_point t0) {
    MultiResult m = collect_descriptor(std::move(outs), counts, r, resident, t0);
    const double parts_end = m.us - m.tail_us;
    m.result = fold_on_first(r, m.parts.data(), m.part_count, m.n);
    m.parts.clear();
    m.part_count = 0;
    m.us = us_since(t0);
    m.tail_us = std::max(0.0, m.us - parts_end);
    m.gbps = gbps_of(m.bytes, m.us);
    return m;
  }

  // One device at a time, the best of a few runs of the probe on that device alone.
  std::vector<double> measure_bandwidths(bool resident) {
    std::vector<double> out;
    for (std::size_t i = 0; i < devs.size(); ++i) {
      Dev& d = devs[i];
      const std::uint64_t n = std::min(kBandwidthProbeElements, chunk_elements(ElemType::Uint, d.info));
      const std::vector<std::uint32_t> ones(n, 1u);
      double best = 0;
      try {
        cl::Buffer in;
        if (resident) {
          in = cl::Buffer(d.context, CL_MEM_READ_ONLY, n * 4);
          d.compute.enqueueWriteBuffer(in, CL_TRUE, 0, n * 4, ones.data());
        }
        for (int rep = 0; rep < 4; ++rep) {  // the first run builds the kernels: not counted
          const PartOut p = resident ? run_resident_part(d, in, ElemType::Uint, n, Op::Sum)
                                     : run_host_part(d, reinterpret_cast<const unsigned char*>(ones.data()),
                                                     ElemType::Uint, n, Op::Sum, chunk_of(n));
          if (rep > 0) best = std::max(best, gbps_of(n * 4, p.us));
        }
      } catch (const cl::Error& e) {
        drain(d);
        throw Error(device_label(i, devices[i]) + " failed measuring its bandwidth: " + describe(e));
      } catch (const Error& e) {
        throw Error(e.param(), device_label(i, devices[i]) + " failed measuring its bandwidth: " + e.what(), "",
                    devices[i].name);
      }
      out.push_back(best);
    }
    return out;
  }

  // Host data of a descriptor, split by c (counts(n, false)) and copied chunk by chunk (indices from
  // index_base); finished on device 0 (reduce) or left as parts (accumulate).
  MultiResult host_descriptor(const Reduction& r, const std::vector<const void*>& inputs,
                              const std::vector<std::uint64_t>& c, std::uint64_t index_base,
                              const std::vector<ScalarArg>& scalars, bool finished);

  // The probe is split in 4 chunks whatever the options' chunk size, so that it measures the
  // pipeline (not one copy then one reduction) at a cost that does not grow with small chunks.
  static std::uint64_t chunk_of(std::uint64_t n) { return std::max<std::uint64_t>(1, n / 4); }
};

MultiResult MultiReducer::State::host_descriptor(const Reduction& r, const std::vector<const void*>& inputs,
                                                 const std::vector<std::uint64_t>& c,
                                                 std::uint64_t index_base, const std::vector<ScalarArg>& scalars,
                                                 bool finished) {
  check_counts(r, inputs.size(), scalars.size());
  check_descriptor(r, c);
  std::vector<std::uint64_t> offsets(c.size(), 0);
  for (std::size_t i = 1; i < c.size(); ++i) offsets[i] = offsets[i - 1] + c[i - 1];
  const std::uint64_t chunk = options.chunk_elements;  // 0: each device's default (default_chunk)
  const Clock::time_point t0 = Clock::now();
  std::vector<PartOut> outs = run_all(c, [&](std::size_t i) {
    std::vector<const unsigned char*> part;
    for (std::size_t j = 0; j < inputs.size(); ++j)
      part.push_back(static_cast<const unsigned char*>(inputs[j]) + offsets[i] * size_of(r.inputs[j]));
    return run_descriptor_host_part(devs[i], r, part, c[i], index_base + offsets[i], chunk, scalars);
  });
  return finished ? assemble_descriptor(std::move(outs), c, r, false, t0)
                  : collect_descriptor(std::move(outs), c, r, false, t0);
}

MultiReducer::MultiReducer(std::vector<DeviceInfo> devices, MultiDeviceOptions options)
    : s_(std::make_unique<State>()) {
  if (devices.empty()) throw Error(Param::Devices, "the device list is empty; give at least one device", "one device or more");
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (devices[i].device() == devices[j].device())
        throw Error(Param::Devices, "device " + devices[i].name + " is listed twice (positions " + std::to_string(j) +
                                        " and " + std::to_string(i) + "); list each device once",
                    "each device once");
  if (options.split.kind == SplitKind::Weights && options.split.weights.size() != devices.size())
    throw Error(Param::Split,
                "the split gives " + std::to_string(options.split.weights.size()) + " weights for " +
                    std::to_string(devices.size()) + " devices; give one weight per device, or even, or bandwidth",
                kSplitForms);
  s_->devices = std::move(devices);
  s_->options = std::move(options);
  // The pinned path's copy threads: the hardware's threads shared between the devices (each device's
  // own thread copies too), at most 8 a device (past that one socket's memory is the limit).
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned copy_threads =
      s_->options.copy_threads ? s_->options.copy_threads
                               : std::clamp(hw / static_cast<unsigned>(s_->devices.size()), 1u, 8u);
  for (std::size_t i = 0; i < s_->devices.size(); ++i) {
    const DeviceInfo& info = s_->devices[i];
    Dev d;
    d.info = info;
    with_cl_context("creating a context and queues on " + device_label(i, info), [&] {
      d.context = cl::Context(info.device);
      d.compute = cl::CommandQueue(d.context, info.device);
      d.copy = cl::CommandQueue(d.context, info.device);
    });
    ReducerOptions ro = s_->options.reducer;
    ro.device = info;
    d.reducer = std::make_unique<Reducer>(d.compute, ro);
    d.stager = std::make_unique<HostStager>(d.context, d.copy, info, s_->options.host_path, copy_threads);
    s_->devs.push_back(std::move(d));
  }
}

MultiReducer::MultiReducer(MultiReducer&&) noexcept = default;
MultiReducer& MultiReducer::operator=(MultiReducer&&) noexcept = default;
MultiReducer::~MultiReducer() = default;

bool same_model(const DeviceInfo& a, const DeviceInfo& b) {
  return a.platform_name == b.platform_name && a.name == b.name && a.driver_version == b.driver_version &&
         a.compute_units == b.compute_units && a.global_mem_bytes == b.global_mem_bytes;
}

std::vector<double> same_model_means(const std::vector<double>& measured, const std::vector<DeviceInfo>& devices) {
  if (measured.size() != devices.size())
    throw Error(Param::Devices, "same_model_means: " + std::to_string(measured.size()) + " measurements for " +
                                    std::to_string(devices.size()) + " devices", "one measurement per device");
  std::vector<double> out(measured.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t j = 0; j < devices.size(); ++j)
      if (same_model(devices[i], devices[j])) {
        sum += measured[j];
        ++count;
      }
    out[i] = sum / static_cast<double>(count);
  }
  return out;
}

const std::vector<DeviceInfo>& MultiReducer::devices() const { return s_->devices; }
const MultiDeviceOptions& MultiReducer::options() const { return s_->options; }
const cl::Context& MultiReducer::context(std::size_t i) const { return s_->devs.at(i).context; }
const cl::CommandQueue& MultiReducer::queue(std::size_t i) const { return s_->devs.at(i).compute; }

std::vector<double> MultiReducer::bandwidths(bool resident) {
  auto& kept = s_->bandwidth[resident ? 1 : 0];
  if (!kept) kept = s_->measure_bandwidths(resident);
  return *kept;
}

std::vector<std::uint64_t> MultiReducer::counts(std::uint64_t n, bool resident) {
  const Split& split = s_->options.split;
  if (split.kind == SplitKind::Weights) return split_counts(n, split.weights);
  if (split.kind == SplitKind::Even) return split_counts(n, std::vector<double>(s_->devices.size(), 1.0));
  // Bandwidths rounded to sixteenths of the fastest: the parts follow the devices' speeds but stay
  // the same through small changes of the measurement (a device measured at 0 gets the smallest step).
  const std::vector<double> bw = same_model_means(bandwidths(resident), s_->devices);
  const double top = *std::max_element(bw.begin(), bw.end());
  std::vector<double> w;
  for (double b : bw) w.push_back(top > 0 ? std::max(1.0, std::round(16.0 * b / top)) : 1.0);
  return split_counts(n, w);
}

MultiResult MultiReducer::reduce(const void* data, ElemType type, std::uint64_t n, Op op) {
  require_multi_device_op(op);
  if (n == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");
  if (!data) throw Error(Param::Buffer, "the host data pointer is null", "a pointer to n elements");
  s_->check_type(type);
  const std::vector<std::uint64_t> c = counts(n, false);
  std::vector<std::uint64_t> offsets(c.size(), 0);
  for (std::size_t i = 1; i < c.size(); ++i) offsets[i] = offsets[i - 1] + c[i - 1];
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::uint64_t es = size_of(type);
  const std::uint64_t chunk = s_->options.chunk_elements;  // 0: each device's default (default_chunk)
  const Clock::time_point t0 = Clock::now();
  std::vector<PartOut> outs = s_->run_all(c, [&](std::size_t i) {
    return run_host_part(s_->devs[i], bytes + offsets[i] * es, type, c[i], op, chunk);
  });
  return s_->assemble(std::move(outs), c, type, op, false, t0);
}

MultiResult MultiReducer::reduce_resident(const std::vector<cl::Buffer>& buffers, const std::vector<std::uint64_t>& counts,
                                          ElemType type, Op op) {
  require_multi_device_op(op);
  const std::size_t d = s_->devices.size();
  if (buffers.size() != d || counts.size() != d)
    throw Error(Param::Buffer,
                "resident input needs one buffer and one count per device (" + std::to_string(d) + "); got " +
                    std::to_string(buffers.size()) + " buffers and " + std::to_string(counts.size()) + " counts",
                "one buffer and one count per device");
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < d; ++i) {
    n += counts[i];
    if (counts[i] == 0) continue;
    const std::uint64_t have =
        with_cl_context("querying a buffer's size", [&] { return buffers[i].getInfo<CL_MEM_SIZE>(); });
    if (have < counts[i] * size_of(type))
      throw Error(Param::Buffer,
                  "the buffer of " + device_label(i, s_->devices[i]) + " holds " + std::to_string(have) +
                      " bytes, fewer than its " + std::to_string(counts[i]) + " " + std::string(name_of(type)) +
                      " elements need",
                  "a buffer of at least count elements", s_->devices[i].name);
  }
  if (n == 0) throw Error(Param::N, "n must be at least 1 (every count is 0)", ">= 1");
  s_->check_type(type);
  const Clock::time_point t0 = Clock::now();
  std::vector<PartOut> outs =
      s_->run_all(counts, [&](std::size_t i) { return run_resident_part(s_->devs[i], buffers[i], type, counts[i], op); });
  return s_->assemble(std::move(outs), counts, type, op, true, t0);
}

namespace {
// n >= 1 and no null input pointer: what a host descriptor call checks before it splits n.
void check_host_inputs(const std::vector<const void*>& inputs, std::uint64_t n) {
  if (n == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");
  for (std::size_t j = 0; j < inputs.size(); ++j)
    if (!inputs[j])
      throw Error(Param::Buffer, "the host pointer of input " + std::to_string(j) + " is null",
                  "a pointer to n elements");
}
}  // namespace

MultiResult MultiReducer::reduce(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                                 const std::vector<ScalarArg>& scalars) {
  check_host_inputs(inputs, n);
  return s_->host_descriptor(r, inputs, counts(n, false), 0, scalars, true);
}

MultiResult MultiReducer::accumulate(const Reduction& r, const std::vector<const void*>& inputs, std::uint64_t n,
                                     std::uint64_t index_base, const std::vector<ScalarArg>& scalars) {
  if (n > 0 && index_base > ~std::uint64_t{0} - (n - 1))
    throw Error(Param::N, "index_base " + std::to_string(index_base) + " + n " + std::to_string(n) +
                              " passes 2^64 - 1, the last index a reduction can have",
                "index_base + n - 1 <= 2^64 - 1");
  check_host_inputs(inputs, n);
  return s_->host_descriptor(r, inputs, counts(n, false), index_base, scalars, false);
}

Result MultiReducer::finish(const Reduction& r, const void* parts, std::uint64_t count, std::uint64_t n) {
  if (count == 0 || count > 0xffffffffu)
    throw Error(Param::N, "finishing " + std::to_string(count) + " parts; valid: 1 to 2^32 - 1", "1 to 2^32 - 1");
  if (n == 0) throw Error(Param::N, "n must be at least 1 (got 0)", ">= 1");
  if (!parts) throw Error(Param::Buffer, "the parts pointer is null", "a pointer to count accumulators");
  try {
    check_fp64(r, s_->devices[0]);
  } catch (const Error& e) {
    throw Error(e.param(), device_label(0, s_->devices[0]) + ": " + e.what(), "", s_->devices[0].name);
  }
  return s_->fold_on_first(r, static_cast<const unsigned char*>(parts), count, n);
}

MultiResult MultiReducer::reduce_resident(const Reduction& r, const std::vector<std::vector<Input>>& inputs,
                                          const std::vector<std::uint64_t>& counts,
                                          const std::vector<ScalarArg>& scalars) {
  const std::size_t d = s_->devices.size();
  if (inputs.size() != d || counts.size() != d)
    throw Error(Param::Buffer,
                "resident input needs one list of inputs and one count per device (" + std::to_string(d) + "); got " +
                    std::to_string(inputs.size()) + " lists and " + std::to_string(counts.size()) + " counts",
                "one list of inputs and one count per device");
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < d; ++i) {
    n += counts[i];
    if (counts[i] == 0) continue;
    try {
      check_call(r, inputs[i], scalars);
      for (std::size_t j = 0; j < inputs[i].size(); ++j)
        check_input_span(r, inputs[i], j, counts[i], "its count " + std::to_string(counts[i]));
    } catch (const Error& e) {
      throw Error(e.param(), device_label(i, s_->devices[i]) + ": " + e.what(), "", s_->devices[i].name);
    }
  }
  if (n == 0) throw Error(Param::N, "n must be at least 1 (every count is 0)", ">= 1");
  s_->check_descriptor(r, counts);  // the counts of inputs and scalars: check_call above
  std::vector<std::uint64_t> offsets(d, 0);
  for (std::size_t i = 1; i < d; ++i) offsets[i] = offsets[i - 1] + counts[i - 1];
  const Clock::time_point t0 = Clock::now();
  std::vector<PartOut> outs = s_->run_all(counts, [&](std::size_t i) {
    return run_descriptor_resident_part(s_->devs[i], r, inputs[i], counts[i], offsets[i], scalars);
  });
  return s_->assemble_descriptor(std::move(outs), counts, r, true, t0);
}

}  // namespace clreduce
