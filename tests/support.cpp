// Test fixtures.
#include "support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fstream>
#include <unistd.h>
#include <map>
#include <memory>
#include <tuple>
#include <sstream>

namespace clreduce::test {

Session& session() {
  static std::unique_ptr<Session> s;
  if (!s) s = std::make_unique<Session>(select_device({}), CLREDUCE_SOURCE_KERNEL_DIR);
  return *s;
}

Prepared prepare(const Session& s, const ReduceConfig& cfg, std::uint64_t n) {
  ReducerOptions opt;
  opt.params = cfg;
  opt.tuning.enabled = false;
  Reducer r = s.reducer(opt);
  std::shared_ptr<const Launch> l = introspect::prepare(r, cfg.type, cfg.op, n);
  return Prepared{&s, std::move(r), std::move(l)};
}

ReduceReport run_config(const Session& s, const ReduceConfig& cfg, const HostData& data, const TimingOptions& timing) {
  ReducerOptions opt;
  opt.params = cfg;
  opt.tuning.enabled = false;
  Reducer r = s.reducer(opt);
  return run_reduce(s, r, data, cfg.op, timing);
}

std::size_t allowed_wg(const std::string& variant, ElemType t, const Session* on, const std::vector<Define>& defines) {
  const Session& s = on ? *on : session();
  std::string key_defines;
  for (const Define& d : defines) key_defines += d.str() + " ";
  static std::map<std::tuple<const Session*, std::string, ElemType, std::string>, std::size_t> known;
  const auto key = std::make_tuple(&s, variant, t, key_defines);
  if (auto it = known.find(key); it != known.end()) return it->second;
  ReduceConfig cfg;
  cfg.variant = variant;
  cfg.type = t;
  cfg.defines = defines;
  const std::size_t limit = std::min(prepare(s, cfg, 1 << 16).launch->kernel_max_wg, s.device().max_work_group_size);
  std::size_t wg = 1;
  while (wg * 2 <= limit) wg *= 2;
  return known[key] = wg;
}

std::size_t test_wg(const std::string& variant, std::size_t preferred, ElemType t, const Session* on,
                    const std::vector<Define>& defines) {
  return std::min(preferred, allowed_wg(variant, t, on, defines));
}

Timed Prepared::time(const cl::Buffer& in, const TimingOptions& opt) {
  return time_reduction(
      *session, [&](const cl::CommandQueue& q, bool ev) { return introspect::enqueue(reducer, *launch, in, 0, &q, ev); },
      [&] { return introspect::read_result(reducer, *launch); }, opt);
}

Value Prepared::run(const cl::Buffer& in) {
  enqueue(in, false);
  return read_result();
}

CliRun run_cli_killed_after(unsigned seconds, const std::string& args) {
  // run_cli puts `env` in front of the program: `timeout` there runs clreduce under it.
  return run_cli(args, "timeout -s KILL " + std::to_string(seconds));
}

CliRun run_cli(const std::string& args, const std::string& env) {
  // An empty configuration directory (no tuning database), removed when the test process ends.
  static const ScratchDir config_dir("clreduce-test-config");
  const std::string empty_config = config_dir.path.string();
  const std::string cmd = "env -u CLREDUCE_TUNING_DB XDG_CONFIG_HOME=" + empty_config + " " + env +
                          " " + std::string(CLREDUCE_CLI_PATH) + " " + args;
  // The shell runs the command with stdout and stderr on two pipes, read as they come (poll), so
  // that `out` keeps their order and each stays apart too.
  int out_pipe[2], err_pipe[2];
  REQUIRE(pipe(out_pipe) == 0);
  REQUIRE(pipe(err_pipe) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    close(out_pipe[0]), close(out_pipe[1]), close(err_pipe[0]), close(err_pipe[1]);
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  CliRun r;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* into[2] = {&r.stdout_text, &r.stderr_text};
  int open_fds = 2;
  std::array<char, 4096> buf{};
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      FAIL("poll: " << std::strerror(errno));
    }
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = read(fds[k].fd, buf.data(), buf.size());
      if (got > 0) {
        into[k]->append(buf.data(), static_cast<std::size_t>(got));
        r.out.append(buf.data(), static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  r.peak_rss_kib = usage.ru_maxrss;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    const char* env = std::getenv("CLREDUCE_TEST_SEED");
    return env && *env ? std::strtoull(env, nullptr, 10) : 20261121ULL;
  }();
  return s;
}

std::string describe(const ReduceConfig& cfg, std::uint64_t n, DataKind kind) {
  std::ostringstream ss;
  ss << "variant=" << cfg.variant << " type=" << name_of(cfg.type) << " op=" << name_of(cfg.op)
     << " wg=" << cfg.wg << " n=" << n << " data=" << name_of(kind) << " seed=" << seed();
  if (cfg.times) ss << " times=" << *cfg.times;
  if (cfg.groups_per_cu) ss << " groups_per_cu=" << *cfg.groups_per_cu;
  if (cfg.vec) ss << " vec=" << *cfg.vec;
  return ss.str();
}

Check reduce_and_check(const Session& s, const ReduceConfig& cfg, std::uint64_t n, DataKind kind) {
  const HostData data = generate_data(cfg.type, n, kind, seed() ^ (n * 0x9E3779B97F4A7C15ULL));
  Prepared r = prepare(s, cfg, n);
  return check_result(r.run(r.upload(data)), host_reference(data, cfg.op), cfg.op, r.plan().depth);
}

Check reduce_and_check(const ReduceConfig& cfg, std::uint64_t n, DataKind kind, Value* device_value,
                       Reference* reference) {
  const HostData data = generate_data(cfg.type, n, kind, seed() ^ (n * 0x9E3779B97F4A7C15ULL));
  Prepared r = prepare(session(), cfg, n);
  const Value v = r.run(r.upload(data));
  const Reference ref = host_reference(data, cfg.op);
  if (device_value) *device_value = v;
  if (reference) *reference = ref;
  return check_result(v, ref, cfg.op, r.plan().depth);
}

namespace {

// splitmix64's finaliser: a well-mixed 64-bit hash of the seed, the loop and the item.
std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Sample {
  std::uint64_t one_in = 1;  // 1: every item
  std::uint64_t seed = 0;
};

Sample sample_from_env() {
  Sample s;
  const char* m = std::getenv("CLREDUCE_TEST_SAMPLE");
  if (!m || !*m) return s;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(m, &end, 10);
  REQUIRE_MESSAGE((*end == 0 && v >= 1), "CLREDUCE_TEST_SAMPLE='" << m << "': expected M >= 1 (keep one item in M)");
  s.one_in = v;
  const char* seed = std::getenv("CLREDUCE_TEST_SAMPLE_SEED");
  if (seed && *seed) {
    s.seed = std::strtoull(seed, &end, 10);
    REQUIRE_MESSAGE(*end == 0, "CLREDUCE_TEST_SAMPLE_SEED='" << seed << "': expected an unsigned integer");
  } else {
    s.seed = static_cast<std::uint64_t>(std::time(nullptr)) / 86400;
  }
  std::fprintf(stderr,
               "test sample: one item in %llu of each matrix, seed %llu (repeat it with "
               "CLREDUCE_TEST_SAMPLE=%llu CLREDUCE_TEST_SAMPLE_SEED=%llu)\n",
               static_cast<unsigned long long>(s.one_in), static_cast<unsigned long long>(s.seed),
               static_cast<unsigned long long>(s.one_in), static_cast<unsigned long long>(s.seed));
  return s;
}

const Sample& the_sample() {
  static const Sample sample = sample_from_env();
  return sample;
}

}  // namespace

bool in_shard(std::size_t k) {
  const Sample& sample = the_sample();
  // Each loop over a matrix counts its items from 0; counting the loops keeps one loop's sample
  // apart from the next one's (the order of the loops is fixed, so the sample repeats).
  static std::uint64_t loop = 0;
  if (k == 0) ++loop;
  if (sample.one_in > 1 && mix64(sample.seed ^ mix64(loop * 0x100000001b3ull + k)) % sample.one_in != 0)
    return false;
  const char* env = std::getenv("CLREDUCE_TEST_SHARD");
  if (!env || !*env) return true;
  unsigned i = 0, count = 1;
  if (std::sscanf(env, "%u/%u", &i, &count) != 2 || count == 0) return true;
  return k % count == i;
}

bool in_diagonal(std::size_t i, std::size_t j, std::size_t width) {
  const Sample& sample = the_sample();
  const std::uint64_t m = std::min<std::uint64_t>(sample.one_in, width);
  if (m <= 1) return true;
  return (i + j + mix64(sample.seed) % m) % m == 0;
}

std::string source_kernels_text() {
  std::string all;
  for (const auto& f : std::filesystem::directory_iterator(CLREDUCE_SOURCE_KERNEL_DIR))
    if (f.is_regular_file()) {
      std::ifstream in(f.path());
      std::stringstream ss;
      ss << in.rdbuf();
      all += ss.str();
    }
  return all;
}

TimingOptions quick_timing(unsigned warmup, unsigned repetitions) {
  TimingOptions t;
  t.warmup = warmup;
  t.repetitions = repetitions;
  t.batch = 1;
  return t;
}

ScratchDir::ScratchDir(const std::string& tag)
    : path(std::filesystem::temp_directory_path() / (tag + "-" + std::to_string(getpid()))) {
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;  // a destructor reports nothing; a directory left behind harms no test
  std::filesystem::remove_all(path, ec);
}

std::filesystem::path copy_kernels(const std::string& tag) {
  namespace fs = std::filesystem;
  // The process id keeps shards that run the same test side by side apart.
  const fs::path dir =
      fs::temp_directory_path() / ("clreduce_kernels_" + tag + "_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::copy(CLREDUCE_SOURCE_KERNEL_DIR, dir, fs::copy_options::recursive);
  return dir;
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << file);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void replace_in_file(const std::filesystem::path& file, const std::string& from,
                     const std::string& to) {
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' not found in " << file);
  text.replace(at, from.size(), to);
  std::ofstream(file, std::ios::trunc) << text;
}

DeviceInfo fake_device() {
  DeviceInfo d;
  d.name = "Fake Device";
  d.platform_name = "Fake Platform";
  d.compute_units = 4;
  d.max_work_group_size = 512;
  d.max_work_item_sizes = {512, 256, 64};
  d.local_mem_bytes = 1024;  // 256 uints: a 512-wide group of uint needs 2 KiB
  d.max_alloc_bytes = 1 << 20;
  d.global_mem_bytes = 4 << 20;
  d.fp64 = false;
  return d;
}

}  // namespace clreduce::test

namespace clreduce::test {

DeviceInfo fake_nvidia_device() {
  DeviceInfo d = fake_device();
  d.name = "Fake NVIDIA";
  d.platform_name = "NVIDIA CUDA";
  d.platform_vendor = "NVIDIA Corporation";
  d.is_gpu = true;
  d.is_nvidia = true;
  d.compute_units = 132;
  d.max_work_group_size = 1024;
  d.local_mem_bytes = 48 << 10;
  d.lockstep_width = 32;
  d.lockstep_source = "CL_DEVICE_WARP_SIZE_NV";
  d.resident_items_per_cu = 2048;
  d.resident_groups_limit = 32;
  return d;
}

void check_declared_options(const KernelSpec& spec, const std::string& options, const std::string& after) {
  std::size_t at = 0;
  for (const KernelParam& param : spec.params) {
    const std::string d = "-D " + param.define + "=";
    const std::size_t found = options.find(d);
    CAPTURE(param.define);
    REQUIRE(found != std::string::npos);
    CHECK(found >= at);
    CHECK(options.find(d, found + 1) == std::string::npos);
    at = found;
  }
  CHECK(options.find(after) > at);
  CHECK(options.find(after) != std::string::npos);
}

void expect_refused(const std::string& args, const std::string& text) {
  const CliRun e = run_cli(args);
  INFO(args << "\n" << e.out);
  CHECK(e.code == 2);
  CHECK(e.stdout_text.empty());
  CHECK(std::count(e.stderr_text.begin(), e.stderr_text.end(), '\n') == 1);
  CHECK(e.stderr_text.find(text) != std::string::npos);
}

}  // namespace clreduce::test
