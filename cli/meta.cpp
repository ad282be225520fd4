// The `meta` object of every JSON document the command line writes: the tool's version and
// commit, the date, the command line, the device (or, for bench multi, each device), platform and
// driver, the hash of the kernel files, and the units.
#include "clreduce/watchdog.hpp"
#include "cli.hpp"

#include "clreduce_git_commit.h"
#include "printers/table.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace clreduce::cli {

namespace {
struct MetaState {
  std::string command_line;
  std::string date;
  nlohmann::json device;   // null until a session is made
  nlohmann::json devices;  // null unless a command runs on several devices (bench multi)
  std::string kernel_dir, kernel_dir_origin, kernel_hash;
  std::size_t kernel_files = 0;
  BandwidthUnit units = BandwidthUnit::GB;
};
MetaState& state() {
  static MetaState s;
  return s;
}

// FNV-1a, 64 bits, over each kernel file's name, a NUL, its bytes and a NUL, in name order
// (an unreadable file's bytes as "(unreadable)"; entries that are not regular files skipped).
void hash_kernels(const std::filesystem::path& dir, MetaState& m) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string ext = e.path().extension().string();
    std::error_code file_ec;  // a broken link or a loop is no kernel file: skipped, never thrown
    if ((ext == ".cl" || ext == ".clh") && e.is_regular_file(file_ec) && !file_ec) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::uint64_t h = 1469598103934665603ull;
  const auto add = [&h](const std::string& bytes) {
    for (unsigned char c : bytes) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0;
    h *= 1099511628211ull;
  };
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    else text << "(unreadable)";  // hashed as such: the session's own read reports the error
    add(f.filename().string());
    add(text.str());
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  m.kernel_hash = hex;
  m.kernel_files = files.size();
  m.kernel_dir = dir.string();
}
}  // namespace

void note_command_line(int argc, char** argv) {
  MetaState& m = state();
  m.command_line.clear();
  for (int i = 0; i < argc; ++i) {
    if (i) m.command_line += ' ';
    m.command_line += argv[i];
  }
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  m.date = buf;
}

namespace {
nlohmann::json device_meta(const DeviceInfo& d) {
  return nlohmann::json{{"name", d.name}, {"platform", d.platform_name}, {"driver", d.driver_version},
                        {"device_version", d.device_version}};
}
}  // namespace

namespace {
// Where the kernel directory came from, as the user would set it ("--kernel-dir",
// "CLREDUCE_KERNEL_DIR", "installed", "build tree"): kept for the output and told the watchdog.
void note_kernel_origin(MetaState& m, const std::string& origin) {
  m.kernel_dir_origin = origin == "given" ? "--kernel-dir" : origin;
  set_kernel_timeout_note("its kernel directory from " + m.kernel_dir_origin);
}
}  // namespace

void note_session(const Session& s) {
  MetaState& m = state();
  note_kernel_origin(m, s.kernels().origin);
  m.device = device_meta(s.device());
  hash_kernels(s.kernel_dir(), m);
}

void note_devices(const std::vector<DeviceInfo>& devices, const KernelDir& kernels) {
  const std::filesystem::path& kernel_dir = kernels.path;
  MetaState& m = state();
  note_kernel_origin(m, kernels.origin);
  m.devices = nlohmann::json::array();
  for (const DeviceInfo& d : devices) m.devices.push_back(device_meta(d));
  hash_kernels(kernel_dir, m);
}

std::string kernels_line() {
  const MetaState& m = state();
  if (m.kernel_dir.empty()) return std::string();
  return "kernels: " + m.kernel_dir + " (" + (m.kernel_dir_origin.empty() ? "" : "from " + m.kernel_dir_origin + "; ") +
         std::to_string(m.kernel_files) + " files, fnv1a64 " + m.kernel_hash + ")\n";
}

void note_saved_kernels(const nlohmann::json& meta) {
  if (!meta.is_object() || !meta.contains("kernel_dir") || !meta["kernel_dir"].is_string()) return;
  MetaState& m = state();
  m.kernel_dir = meta["kernel_dir"].get<std::string>();
  m.kernel_dir_origin = meta.value("kernel_dir_origin", nlohmann::json()).is_string()
                            ? meta["kernel_dir_origin"].get<std::string>()
                            : std::string();
  const nlohmann::json files = meta.value("kernel_files", nlohmann::json());
  m.kernel_files = files.is_number_unsigned() ? files.get<std::size_t>() : 0;
  const nlohmann::json hash = meta.value("kernels_fnv1a64", nlohmann::json());
  m.kernel_hash = hash.is_string() ? hash.get<std::string>() : std::string("?");
}

void note_units(BandwidthUnit u) { state().units = u; }

nlohmann::json meta_json() {
  const MetaState& m = state();
  nlohmann::json j{{"tool", "clreduce"},
                   {"version", CLREDUCE_VERSION},
                   {"git_commit", CLREDUCE_GIT_COMMIT},
                   {"date", m.date},
                   {"command_line", m.command_line},
                   {"units", {{"time", "µs"},
                              {"bandwidth", "GB/s (10^9 bytes per second) in JSON"},
                              {"text_bandwidth", bandwidth_label(m.units)},
                              {"spread", "interquartile range / median, percent"}}}};
  if (!m.devices.is_null()) j["devices"] = m.devices;
  if (!m.device.is_null()) j["device"] = m.device;
  if (!m.device.is_null() || !m.devices.is_null()) {
    j["kernel_dir"] = m.kernel_dir;
    j["kernel_dir_origin"] = m.kernel_dir_origin;
    j["kernel_files"] = m.kernel_files;
    j["kernels_fnv1a64"] = m.kernel_hash;
  }
  return j;
}

}  // namespace clreduce::cli
