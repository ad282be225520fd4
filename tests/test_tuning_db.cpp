// The tuning database: JSON round trip, strict reading (every malformed file warns, names the
// file and the problem, and is ignored), merge-save, the lookup rules (foreign device, stale
// driver), apply_tuned and where the file lives. Files go to a fresh directory in /tmp; no
// OpenCL device is needed.
#include <doctest/doctest.h>

#include "clreduce/error.hpp"
#include "clreduce/tuning.hpp"
#include "reduce/apply_tuned.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace clreduce;
namespace fs = std::filesystem;

namespace {

// A fresh directory named after `tag` and the process, removed with its contents at the end.
struct TempDir {
  fs::path dir;
  explicit TempDir(const std::string& tag)
      : dir(fs::path("/tmp") / ("clreduce_tuning_db_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

// Sets (or with nullopt, unsets) an environment variable for a scope and restores it after.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> old;
  ScopedEnv(std::string n, const std::optional<std::string>& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    if (value) setenv(name.c_str(), value->c_str(), 1);
    else unsetenv(name.c_str());
  }
  ~ScopedEnv() {
    if (old) setenv(name.c_str(), old->c_str(), 1);
    else unsetenv(name.c_str());
  }
};

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}
std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const DeviceKey kH100{"NVIDIA CUDA", "NVIDIA H100 80GB HBM3", "580.159.04"};
const DeviceKey kPocl{"Portable Computing Language", "cpu-haswell-AMD EPYC 7B13", "6.0+debian"};

// An entry as tune writes it: vector in the groups-per-CU mode, stride_global with a fixed TIMES,
// single_pass the best.
TuningEntry sample_entry(ElemType type, Op op, std::size_t vector_wg) {
  TuningEntry e;
  e.type = type;
  e.op = op;
  e.date = "2026-11-21T12:00:00Z";
  e.sizes = {1u << 20, 1u << 24, 1u << 26};
  e.best_variant = "single_pass";
  TunedVariant vec;
  vec.params.wg = vector_wg;
  vec.params.groups_per_cu = 8;
  vec.params.vec = 4;
  vec.measurements = {{1u << 20, 6.1, 7.9, 687.0}, {1u << 24, 40.25, 52.5, 1667.123456789}};
  vec.gain_over_default = 1.12;
  e.variants["vector"] = vec;
  TunedVariant sg;
  sg.params.wg = 128;
  sg.params.times = 16;
  e.variants["stride_global"] = sg;
  TunedVariant sp;
  sp.params.wg = 512;
  sp.params.groups_per_cu = 4;
  sp.measurements = {{1u << 26, 101.5, 130.0, 2645.0}};
  sp.gain_over_default = 1.28;
  e.variants["single_pass"] = sp;
  return e;
}

// A whole file around one variant object, one entry object or one device object.
std::string db_with_devices(const std::string& devices) {
  return R"({"format": "clreduce-tuning-db", "version": 1, "devices": [)" + devices + "]}";
}
std::string db_with_entries(const std::string& entries) {
  return db_with_devices(R"({"platform": "P", "device": "D", "driver": "1", "entries": [)" + entries + "]}");
}
std::string db_with_variant(const std::string& variant) {
  return db_with_entries(R"({"type": "uint", "op": "sum", "variants": {"vector": )" + variant + "}}");
}
// A file of one device whose descriptor_entries are `entries`.
std::string db_with_descriptor_entries(const std::string& entries) {
  return db_with_devices(R"({"platform": "P", "device": "D", "driver": "1", "entries": [], "descriptor_entries": [)" +
                         entries + "]}");
}
// A valid rows entry of sum over f32, with `extra` fields spliced in after its params.
std::string rows_entry(const std::string& params = R"({"WG_SIZE": 64, "ROW_WIDTH": 8})", const std::string& extra = "") {
  return R"({"reduction": "sum", "inputs": ["f32"], "family": "rows", "class": "rows.short.many", "params": )" + params +
         extra + "}";
}
TunedDescriptorEntry descriptor_entry(const std::string& reduction, std::vector<Scalar> inputs, DescriptorFamily family,
                                      const std::string& cls,
                                      std::vector<std::pair<std::string, std::uint64_t>> params,
                                      std::optional<std::uint64_t> chunks = std::nullopt) {
  TunedDescriptorEntry e;
  e.reduction = reduction;
  e.inputs = std::move(inputs);
  e.family = family;
  e.shape_class = cls;
  e.date = "2026-12-01T10:00:00Z";
  e.params = std::move(params);
  e.chunks = chunks;
  return e;
}

// `n` copies of `item`, comma-separated.
std::string repeated(const std::string& item, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += (i ? "," : "") + item;
  return out;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("tuning database: JSON round trip keeps every field") {
    TuningDb db;
    db.devices.push_back({kH100, {sample_entry(ElemType::Uint, Op::Sum, 256),
                                  sample_entry(ElemType::Float, Op::Max, 1024)}});
    db.devices.push_back({kPocl, {sample_entry(ElemType::Int, Op::Min, 64)}});
    const std::string text = tuning_db_json(db);
    CHECK(text.find("\"format\": \"clreduce-tuning-db\"") != std::string::npos);
    CHECK(text.find("\n  \"version\": 1,") != std::string::npos);  // pretty, indent 2

    const TuningDb back = parse_tuning_db(text);
    REQUIRE(back.devices.size() == 2);
    CHECK(back.devices[0].key == kH100);
    CHECK(back.devices[1].key == kPocl);
    REQUIRE(back.devices[0].entries.size() == 2);
    const TuningEntry& e = back.devices[0].entries[0];
    CHECK(e.type == ElemType::Uint);
    CHECK(e.op == Op::Sum);
    CHECK(e.date == "2026-11-21T12:00:00Z");
    CHECK(e.sizes == std::vector<std::uint64_t>{1u << 20, 1u << 24, 1u << 26});
    CHECK(e.best_variant == "single_pass");
    REQUIRE(e.variants.size() == 3);
    const TunedVariant& v = e.variants.at("vector");
    CHECK(v.params.wg == 256);
    CHECK(!v.params.times);
    CHECK(v.params.groups_per_cu == 8u);
    CHECK(v.params.vec == 4u);
    REQUIRE(v.measurements.size() == 2);
    CHECK(v.measurements[1].n == 1u << 24);
    CHECK(v.measurements[1].tuned_us == 40.25);
    CHECK(v.measurements[1].default_us == 52.5);
    CHECK(v.measurements[1].gbps == 1667.123456789);  // doubles are written to round-trip exactly
    CHECK(v.gain_over_default == 1.12);
    const TunedVariant& sg = e.variants.at("stride_global");
    CHECK(sg.params.times == 16u);
    CHECK(!sg.params.groups_per_cu);
    CHECK(!sg.params.vec);
    CHECK(sg.measurements.empty());
    CHECK(back.devices[0].entries[1].type == ElemType::Float);
    CHECK(back.devices[0].entries[1].op == Op::Max);
    CHECK(back.devices[1].entries[0].variants.at("vector").params.wg == 64);
    CHECK(tuning_db_json(back) == text);
  }

  TEST_CASE("tuning database: a variant written by hand needs only wg") {
    const TuningDb db = parse_tuning_db(db_with_variant(R"({"wg": 128})"));
    const TunedVariant& v = db.devices.at(0).entries.at(0).variants.at("vector");
    CHECK(v.params.wg == 128);
    CHECK(!v.params.times);
    CHECK(!v.params.groups_per_cu);
    CHECK(!v.params.vec);
    CHECK(v.gain_over_default == 1);
    CHECK(db.devices[0].entries[0].best_variant.empty());
    // The best variant overall may be one whose default launch tune kept (not among variants).
    const TuningDb kept = parse_tuning_db(
        db_with_entries(R"({"type": "uint", "op": "sum", "best_variant": "naive", "variants": {}})"));
    CHECK(kept.devices[0].entries[0].best_variant == "naive");
    CHECK(kept.devices[0].entries[0].variants.empty());
  }

  TEST_CASE("tuning database: save, load and find_tuned give the tuned parameters") {
    TempDir tmp("save_load");
    // The default location ($XDG_CONFIG_HOME/clreduce/tuning.json): its directories are created.
    const ScopedEnv xdg("XDG_CONFIG_HOME", tmp.file("config")), named("CLREDUCE_TUNING_DB", std::nullopt);
    const std::string path = tuning_db_path(std::nullopt);
    REQUIRE(path == tmp.file("config/clreduce/tuning.json"));
    std::vector<std::string> warnings;
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    CHECK(warnings.empty());
    // Only the database is left in the directory (no temporary file).
    std::vector<std::string> names;
    for (const auto& f : fs::directory_iterator(fs::path(path).parent_path()))
      names.push_back(f.path().filename().string());
    CHECK(names == std::vector<std::string>{"tuning.json"});

    const LoadedTuningDb loaded = load_tuning_db(path, false);
    CHECK(loaded.warnings.empty());
    REQUIRE(loaded.db);
    CHECK(loaded.path == path);
    const TunedLookup hit = find_tuned(loaded, kH100, ElemType::Uint, Op::Sum, "vector");
    CHECK(hit.warnings.empty());
    REQUIRE(hit.entry);
    REQUIRE(hit.variant);
    CHECK(hit.entry->best_variant == "single_pass");
    CHECK(hit.variant->params.wg == 256);
    CHECK(hit.variant->params.groups_per_cu == 8u);
    CHECK(hit.variant->params.vec == 4u);

    // The DeviceInfo overload keys the device by platform name, name and driver version.
    DeviceInfo dev;
    dev.platform_name = kH100.platform;
    dev.name = kH100.device;
    dev.driver_version = kH100.driver;
    CHECK(device_key(dev) == kH100);
    CHECK(describe(kH100) == "NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver 580.159.04)");
    const TunedLookup by_dev = find_tuned(loaded, dev, ElemType::Uint, Op::Sum, "stride_global");
    REQUIRE(by_dev.variant);
    CHECK(by_dev.variant->params.times == 16u);
  }

  TEST_CASE("tuning database: save merges devices and (type, op) pairs and replaces the same key") {
    TempDir tmp("merge");
    const std::string path = tmp.file("tuning.json");
    std::vector<std::string> warnings;
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    save_tuning_entry(path, kPocl, sample_entry(ElemType::Uint, Op::Sum, 64), warnings);
    save_tuning_entry(path, kH100, sample_entry(ElemType::Float, Op::Max, 128), warnings);
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 512), warnings);  // replaces
    DeviceKey other_driver = kH100;
    other_driver.driver = "570.86";
    save_tuning_entry(path, other_driver, sample_entry(ElemType::Uint, Op::Sum, 32), warnings);
    CHECK(warnings.empty());

    const TuningDb db = parse_tuning_db(read_text(path));
    REQUIRE(db.devices.size() == 3);
    CHECK(db.devices[0].key == kH100);
    CHECK(db.devices[1].key == kPocl);
    CHECK(db.devices[2].key == other_driver);
    REQUIRE(db.devices[0].entries.size() == 2);  // uint sum replaced in place, float max kept
    CHECK(db.devices[0].entries[0].type == ElemType::Uint);
    CHECK(db.devices[0].entries[0].variants.at("vector").params.wg == 512);
    CHECK(db.devices[0].entries[1].type == ElemType::Float);
    CHECK(db.devices[0].entries[1].variants.at("vector").params.wg == 128);
    REQUIRE(db.devices[1].entries.size() == 1);
    CHECK(db.devices[1].entries[0].variants.at("vector").params.wg == 64);

    // Each driver finds its own entries (no stale warning while an exact match exists).
    const LoadedTuningDb loaded = load_tuning_db(path, true);
    const TunedLookup a = find_tuned(loaded, other_driver, ElemType::Uint, Op::Sum, "vector");
    CHECK(a.warnings.empty());
    REQUIRE(a.variant);
    CHECK(a.variant->params.wg == 32);
    const TunedLookup b = find_tuned(loaded, kH100, ElemType::Float, Op::Max, "vector");
    CHECK(b.warnings.empty());
    REQUIRE(b.variant);
    CHECK(b.variant->params.wg == 128);
  }

  TEST_CASE("tuning database: a variant this clreduce does not have is said, not ignored without a word") {
    TempDir tmp("unknown_variant");
    const std::string path = tmp.file("tuning.json");
    write_text(path, db_with_entries(R"({"type": "uint", "op": "sum", "best_variant": "warp_drive", "variants": )"
                                     R"({"vector": {"wg": 128}, "warp_drive": {"wg": 64}}})"));
    const LoadedTuningDb loaded = load_tuning_db(path, true);
    REQUIRE(loaded.db);
    REQUIRE(loaded.warnings.size() == 2);
    CHECK(loaded.warnings[0].rfind("tuning database '" + path + "': devices[0].entries[0].best_variant names the "
                                   "variant 'warp_drive', which this clreduce does not have (valid: naive, ", 0) == 0);
    CHECK(loaded.warnings[0].find("); it is ignored") != std::string::npos);
    CHECK(loaded.warnings[1].find("devices[0].entries[0].variants.warp_drive names the variant 'warp_drive'") !=
          std::string::npos);
    // The rest of the file is used.
    const TunedLookup hit = find_tuned(loaded, DeviceKey{"P", "D", "1"}, ElemType::Uint, Op::Sum, "vector");
    REQUIRE(hit.variant);
    CHECK(hit.variant->params.wg == 128);
  }

  TEST_CASE("tuning database: a malformed file warns, naming the file and the problem, and is ignored") {
    TempDir tmp("malformed");
    const std::string path = tmp.file("tuning.json");
    std::string valid;
    {
      TuningDb db;
      db.devices.push_back({kH100, {sample_entry(ElemType::Uint, Op::Sum, 256)}});
      valid = tuning_db_json(db);
    }
    const std::string device = R"({"platform": "P", "device": "D", "driver": "1", "entries": []})";
    const std::string entry = R"({"type": "uint", "op": "sum", "variants": {}})";
    const std::string measurement = R"({"n": 1, "tuned_us": 1, "default_us": 1, "gbps": 0})";
    struct Case {
      std::string name, text, problem;
    };
    const std::vector<Case> cases{
        {"empty file", "", "the text is empty"},
        {"file too large", std::string(kTuningDbMaxBytes + 1, ' '), "the text is larger than 4 MiB"},
        {"bad JSON syntax", "{ nope }", "invalid JSON at byte 4: parse error at line 1, column 4: syntax error while parsing object key"},
        {"truncated file", valid.substr(0, valid.size() / 2), "invalid JSON at byte "},
        {"a number too large", db_with_variant(R"({"wg": 1e400})"), "invalid JSON: number overflow parsing '1e400'"},
        {"deep nesting", std::string(100, '[') + std::string(100, ']'), "JSON nested deeper than 32 levels at byte 32"},
        {"not an object", "[1, 2]", "expected a JSON object at the top level, got an array"},
        {"wrong format tag", R"({"format": "clreduce-bench", "version": 1, "devices": []})",
         "not a clreduce tuning database: \"format\" is the string \"clreduce-bench\", expected \"clreduce-tuning-db\""},
        {"no format tag", R"({"device": {}, "rows": []})", "not a clreduce tuning database: \"format\" is missing"},
        {"unsupported version", R"({"format": "clreduce-tuning-db", "version": 2, "devices": []})",
         "unsupported version 2; this clreduce reads version 1 only"},
        {"version of the wrong kind", R"({"format": "clreduce-tuning-db", "version": "1", "devices": []})",
         "version: expected an integer, got the string \"1\""},
        {"unknown top-level field", R"({"format": "clreduce-tuning-db", "version": 1, "devices": [], "x y": 1})",
         "[\"x y\"]: unknown field; valid fields: format, version, devices"},
        {"devices of the wrong kind", R"({"format": "clreduce-tuning-db", "version": 1, "devices": {}})",
         "devices: expected an array, got an object"},
        {"platform of the wrong kind", db_with_devices(R"({"platform": 3, "device": "D", "driver": "1", "entries": []})"),
         "devices[0].platform: expected a string, got 3"},
        {"driver missing", db_with_devices(R"({"platform": "P", "device": "D", "entries": []})"),
         "devices[0]: missing field \"driver\""},
        {"the same device twice", db_with_devices(device + "," + device),
         "devices[1]: the same device as devices[0] (D (P, driver 1))"},
        {"the same (type, op) twice", db_with_entries(entry + "," + entry),
         "devices[0].entries[1]: a second entry for uint sum (the first is devices[0].entries[0])"},
        {"unknown type name", db_with_entries(R"({"type": "half", "op": "sum", "variants": {}})"),
         "devices[0].entries[0].type: unknown type 'half'; valid types: uint, int, float, double"},
        {"unknown op name", db_with_entries(R"({"type": "uint", "op": "prod", "variants": {}})"),
         "devices[0].entries[0].op: unknown operator 'prod'; valid operators: sum, min, max"},
        {"variants of the wrong kind", db_with_entries(R"({"type": "uint", "op": "sum", "variants": []})"),
         "devices[0].entries[0].variants: expected an object, got an array"},
        {"wg not a power of two", db_with_variant(R"({"wg": 300})"),
         "devices[0].entries[0].variants.vector.wg: expected a power of two >= 1, got 300"},
        {"wg zero", db_with_variant(R"({"wg": 0})"), "variants.vector.wg: expected a power of two >= 1, got 0"},
        {"wg negative", db_with_variant(R"({"wg": -256})"), "variants.vector.wg: expected a power of two >= 1, got -256"},
        {"wg floating", db_with_variant(R"({"wg": 256.0})"), "variants.vector.wg: expected a power of two >= 1, got 256.0"},
        {"wg a string", db_with_variant(R"({"wg": "256"})"),
         "variants.vector.wg: expected a power of two >= 1, got the string \"256\""},
        {"wg missing", db_with_variant(R"({"vec": 4})"), "variants.vector: missing field \"wg\""},
        {"times over 32 bits", db_with_variant(R"({"wg": 256, "times": 4294967296})"),
         "variants.vector.times: expected an integer from 1 to 4294967295, got 4294967296"},
        {"groups_per_cu zero", db_with_variant(R"({"wg": 256, "groups_per_cu": 0})"),
         "variants.vector.groups_per_cu: expected an integer from 1 to 4294967295, got 0"},
        {"vec not a power of two", db_with_variant(R"({"wg": 256, "vec": 3})"),
         "variants.vector.vec: expected a power of two from 1 to 2147483648, got 3"},
        {"both times and groups_per_cu", db_with_variant(R"({"wg": 256, "times": 4, "groups_per_cu": 8})"),
         "devices[0].entries[0].variants.vector: has both times and groups_per_cu"},
        {"unknown variant field", db_with_variant(R"({"wg": 256, "colour": "red"})"),
         "variants.vector.colour: unknown field; valid fields: wg, times, groups_per_cu, vec, measurements, "
         "gain_over_default"},
        {"measurement of the wrong kind", db_with_variant(R"({"wg": 256, "measurements": [{"n": 1.5, "tuned_us": 1, "default_us": 1, "gbps": 1}]})"),
         "variants.vector.measurements[0].n: expected an integer >= 1, got 1.5"},
        {"negative time", db_with_variant(R"({"wg": 256, "measurements": [{"n": 1, "tuned_us": -1, "default_us": 1, "gbps": 1}]})"),
         "variants.vector.measurements[0].tuned_us: expected a number > 0, got -1"},
        {"gain of the wrong kind", db_with_variant(R"({"wg": 256, "gain_over_default": null})"),
         "variants.vector.gain_over_default: expected a number > 0, got null"},
        {"too many devices", db_with_devices(repeated(device, 257)),
         "devices: 257 devices, more than the 256 a tuning database may hold"},
        {"too many entries", db_with_entries(repeated(entry, 257)),
         "devices[0].entries: 257 entries, more than the 256 a tuning database may hold"},
        {"too many sizes", db_with_entries(R"({"type": "uint", "op": "sum", "variants": {}, "sizes": [)" + repeated("1", 300) + "]}"),
         "devices[0].entries[0].sizes: 300 sizes, more than the 256 a tuning database may hold"},
        {"too many measurements", db_with_variant(R"({"wg": 1, "measurements": [)" + repeated(measurement, 1000) + "]}"),
         "variants.vector.measurements: 1000 measurements, more than the 256 a tuning database may hold"},
    };
    std::string many_variants;
    for (int i = 0; i < 257; ++i) many_variants += (i ? ",\"v" : "\"v") + std::to_string(i) + "\": {\"wg\": 1}";
    std::vector<Case> all = cases;
    all.push_back({"too many variants", db_with_entries(R"({"type": "uint", "op": "sum", "variants": {)" + many_variants + "}}"),
                   "devices[0].entries[0].variants: 257 variants, more than the 256 a tuning database may hold"});
    for (const Case& c : all) {
      CAPTURE(c.name);
      write_text(path, c.text);
      const LoadedTuningDb loaded = load_tuning_db(path, false);
      CHECK(!loaded.db);
      REQUIRE(loaded.warnings.size() == 1);
      const std::string& w = loaded.warnings[0];
      CAPTURE(w);
      CHECK(w.rfind("tuning database '" + path + "' is malformed (", 0) == 0);
      CHECK(w.find(c.problem) != std::string::npos);
      CHECK(w.find("); it is ignored and defaults are used") != std::string::npos);
      CHECK_THROWS_AS(parse_tuning_db(c.text), Error);
      // Nothing found, and no further warning from the lookup.
      const TunedLookup none = find_tuned(loaded, kH100, ElemType::Uint, Op::Sum, "vector");
      CHECK(!none.entry);
      CHECK(none.warnings.empty());
    }
  }

  TEST_CASE("tuning database: a foreign device and a stale driver warn and give nothing") {
    TempDir tmp("foreign");
    const std::string path = tmp.file("tuning.json");
    std::vector<std::string> warnings;
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    const LoadedTuningDb loaded = load_tuning_db(path, false);
    REQUIRE(loaded.db);

    const TunedLookup foreign = find_tuned(loaded, kPocl, ElemType::Uint, Op::Sum, "vector");
    CHECK(!foreign.entry);
    CHECK(!foreign.variant);
    REQUIRE(foreign.warnings.size() == 1);
    CHECK(foreign.warnings[0] ==
          "tuning database '" + path + "' has no entry for cpu-haswell-AMD EPYC 7B13 (Portable Computing "
          "Language, driver 6.0+debian) (it holds: NVIDIA H100 80GB HBM3 (NVIDIA CUDA, driver "
          "580.159.04)); defaults are used");

    DeviceKey newer = kH100;
    newer.driver = "590.10";
    const TunedLookup stale = find_tuned(loaded, newer, ElemType::Uint, Op::Sum, "vector");
    CHECK(!stale.entry);
    CHECK(!stale.variant);
    REQUIRE(stale.warnings.size() == 1);
    CHECK(stale.warnings[0] ==
          "tuning database '" + path + "' was tuned for NVIDIA H100 80GB HBM3 (NVIDIA CUDA) with driver "
          "580.159.04, this device runs driver 590.10: ignored, defaults are used; run `clreduce tune` again");

    // The device is there but not this (type, op), or not this variant: silent.
    const TunedLookup other_op = find_tuned(loaded, kH100, ElemType::Uint, Op::Min, "vector");
    CHECK(!other_op.entry);
    CHECK(other_op.warnings.empty());
    const TunedLookup untuned = find_tuned(loaded, kH100, ElemType::Uint, Op::Sum, "naive");
    CHECK(untuned.entry);
    CHECK(!untuned.variant);
    CHECK(untuned.warnings.empty());

    // A file with many devices lists the first few.
    LoadedTuningDb many;
    many.path = "m.json";
    many.db = TuningDb{};
    for (int i = 0; i < 6; ++i) many.db->devices.push_back({{"P", "GPU " + std::to_string(i), "1"}, {}});
    const TunedLookup listed = find_tuned(many, kH100, ElemType::Uint, Op::Sum, "vector");
    REQUIRE(listed.warnings.size() == 1);
    CHECK(listed.warnings[0].find("(it holds: GPU 0 (P, driver 1); GPU 1 (P, driver 1); GPU 2 (P, driver 1); "
                                  "GPU 3 (P, driver 1); and 2 more)") != std::string::npos);
  }

  TEST_CASE("tuning database: a missing file is silent at the default location and warns when named") {
    TempDir tmp("missing");
    const std::string path = tmp.file("nothing-here.json");
    const LoadedTuningDb quiet = load_tuning_db(path, false);
    CHECK(quiet.path == path);
    CHECK(!quiet.db);
    CHECK(quiet.warnings.empty());
    const LoadedTuningDb named = load_tuning_db(path, true);
    CHECK(!named.db);
    REQUIRE(named.warnings.size() == 1);
    CHECK(named.warnings[0] ==
          "tuning database '" + path + "' does not exist; defaults are used (`clreduce tune` creates it)");
    // A directory where the file should be cannot be read: a warning even at the default location.
    const LoadedTuningDb dir = load_tuning_db(tmp.dir.string(), false);
    CHECK(!dir.db);
    REQUIRE(dir.warnings.size() == 1);
    CHECK(dir.warnings[0] == "tuning database '" + tmp.dir.string() +
                                 "' cannot be read (it is not a regular file); it is ignored and defaults are used");
  }

  TEST_CASE("apply_tuned fills only the launch parameters the user left unset") {
    TunedParams gpc;
    gpc.wg = 256;
    gpc.groups_per_cu = 8;
    gpc.vec = 4;
    TunedParams times;
    times.wg = 128;
    times.times = 16;

    ReduceParams none;
    CHECK(apply_tuned(gpc, none) == std::vector<std::string>{"wg=256", "vec=4", "groups_per_cu=8"});
    CHECK(none.wg == 256);
    CHECK(none.vec == 4u);
    CHECK(none.groups_per_cu == 8u);
    CHECK(!none.times);

    ReduceParams user_times;  // --times suppresses the tuned groups_per_cu: one launch mode
    user_times.times = 4;
    CHECK(apply_tuned(gpc, user_times) == std::vector<std::string>{"wg=256", "vec=4"});
    CHECK(user_times.times == 4u);
    CHECK(!user_times.groups_per_cu);

    ReduceParams user_gpc;  // and --groups-per-cu the tuned times
    user_gpc.groups_per_cu = 2;
    CHECK(apply_tuned(times, user_gpc) == std::vector<std::string>{"wg=128"});
    CHECK(user_gpc.groups_per_cu == 2u);
    CHECK(!user_gpc.times);

    ReduceParams user_wg_vec;
    user_wg_vec.wg = 64;
    user_wg_vec.vec = 8;
    CHECK(apply_tuned(times, user_wg_vec) == std::vector<std::string>{"times=16"});
    CHECK(user_wg_vec.wg == 64);
    CHECK(user_wg_vec.vec == 8u);
    CHECK(user_wg_vec.times == 16u);

    ReduceParams all_set;
    all_set.wg = 32;
    all_set.vec = 2;
    all_set.times = 1;
    CHECK(apply_tuned(gpc, all_set).empty());
    CHECK(all_set.wg == 32);
    CHECK(all_set.vec == 2u);
    CHECK(all_set.times == 1u);
    CHECK(!all_set.groups_per_cu);

    ReduceParams untouched;
    CHECK(apply_tuned(TunedParams{}, untouched).empty());
    CHECK(untouched.wg == 0);
  }

  TEST_CASE("save_tuning_entry never replaces or makes a file that is not its database: foreign files, links, lock links, directories") {
    TempDir tmp("save_foreign");
    const std::string path = tmp.file("tuning.json");
    std::vector<std::string> warnings;
    const auto expect_refused = [&](const std::string& at, const std::string& why) {
      CHECK_THROWS_WITH_AS(save_tuning_entry(at, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings),
                           doctest::Contains(("cannot write tuning database '" + at + "': " + why).c_str()), Error);
      CHECK_THROWS_WITH_AS(check_tuning_db_writable(at),
                           doctest::Contains(("cannot write tuning database '" + at + "': " + why).c_str()), Error);
    };
    // A malformed file, a foreign JSON document (a saved bench run), a copy of /etc/passwd behind a
    // link: each refused, its bytes and mode as they were, nothing written beside it.
    const std::string passwd = tmp.file("passwd-copy");
    write_text(passwd, "root:x:0:0:root:/root:/bin/bash\n");
    fs::permissions(passwd, fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink(passwd, tmp.file("link.json"));
    for (const auto& [text, at] : std::vector<std::pair<std::string, std::string>>{
             {"{ broken", path}, {"{\"kind\": \"bench\", \"rows\": []}", path}, {"", tmp.file("link.json")}}) {
      if (at == path) write_text(path, text);
      const std::string before = read_text(fs::canonical(at).string());
      expect_refused(at, "the file there is not a clreduce tuning database (");
      CHECK(read_text(fs::canonical(at).string()) == before);
    }
    CHECK(fs::status(passwd).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK(fs::is_symlink(tmp.file("link.json")));
    fs::remove(path);
    // A directory that does not exist is not made for a path the caller names.
    expect_refused(tmp.file("no/such/dir/tuning.json"), "its directory '" + tmp.file("no/such/dir") + "' does not exist");
    CHECK_FALSE(fs::exists(tmp.file("no")));
    // A link planted at the lock's name: refused, and no file made at its target.
    fs::create_symlink(tmp.file("planted"), path + ".lock");
    CHECK_THROWS_WITH_AS(save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings),
                         doctest::Contains(("its lock file '" + path + ".lock' is a symbolic link").c_str()), Error);
    CHECK_FALSE(fs::exists(tmp.file("planted")));
    CHECK_FALSE(fs::exists(path));
    fs::remove(path + ".lock");
    // A database is saved into, its mode kept; a temporary left by a process killed mid-write
    // (its name: the database's + ".tmp-PID-N") is removed by the next save; other files stay.
    check_tuning_db_writable(path);  // missing, in a directory that exists: fine
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    write_text(path + ".tmp-4242-0", "half a datab");
    write_text(path + ".tmp-notes", "mine");
    save_tuning_entry(path, kH100, sample_entry(ElemType::Float, Op::Max, 128), warnings);
    CHECK(fs::status(path).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    CHECK_FALSE(fs::exists(path + ".tmp-4242-0"));
    CHECK(read_text(path + ".tmp-notes") == "mine");
    const LoadedTuningDb loaded = load_tuning_db(path, true);
    REQUIRE(loaded.db);
    CHECK(loaded.db->devices.at(0).entries.size() == 2);
    CHECK(warnings.empty());
  }

  TEST_CASE("save_tuning_entry refuses an entry that would not read back and a path it cannot write") {
    TempDir tmp("save_refused");
    const std::string path = tmp.file("tuning.json");
    std::vector<std::string> warnings;
    save_tuning_entry(path, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    const std::string before = read_text(path);

    TuningEntry bad = sample_entry(ElemType::Uint, Op::Sum, 300);
    CHECK_THROWS_WITH_AS(save_tuning_entry(path, kH100, bad, warnings),
                         ("cannot write tuning database '" + path +
                          "': the new entry would not read back (devices[0].entries[0].variants.vector.wg: "
                          "expected a power of two >= 1, got 300)").c_str(),
                         Error);
    TuningEntry both = sample_entry(ElemType::Uint, Op::Sum, 256);
    both.variants["vector"].params.times = 4;
    CHECK_THROWS_WITH_AS(save_tuning_entry(path, kH100, both, warnings),
                         doctest::Contains("has both times and groups_per_cu"), Error);
    CHECK(read_text(path) == before);

    // A regular file where a directory should be.
    const std::string under_file = path + "/sub/tuning.json";
    CHECK_THROWS_WITH_AS(save_tuning_entry(under_file, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings),
                         doctest::Contains(("cannot write tuning database '" + under_file + "': ").c_str()), Error);
    CHECK(warnings.empty());
    CHECK(read_text(path) == before);
  }

  TEST_CASE("save_tuning_entry: 12 processes saving at once into one database lose no entry") {
    // Each process saves 8 (type, op) entries of its own device: 96 entries in all must be there.
    TempDir tmp("concurrent");
    const std::string path = tmp.file("tuning.json");
    constexpr int kProcesses = 12, kEntries = 8;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = fork();
      REQUIRE(pid >= 0);
      if (pid == 0) {
        int code = 0;
        try {
          DeviceKey key = kPocl;
          key.device += " #" + std::to_string(p);
          std::vector<std::string> w;
          for (int e = 0; e < kEntries; ++e)
            save_tuning_entry(path, key, sample_entry(all_types()[e % 4], all_ops()[e / 4], 64), w);
        } catch (...) {
          code = 1;
        }
        _exit(code);
      }
      children.push_back(pid);
    }
    // Bounded in time: every child must be done within 120 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    int failed = 0, finished = 0;
    while (finished < kProcesses && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      const pid_t done = waitpid(-1, &status, WNOHANG);
      if (done > 0) {
        ++finished;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    if (finished < kProcesses)
      for (pid_t pid : children) kill(pid, SIGKILL);
    while (waitpid(-1, nullptr, WNOHANG) > 0) {}
    REQUIRE(finished == kProcesses);
    CHECK(failed == 0);
    const TuningDb db = parse_tuning_db(read_text(path));
    CHECK(db.devices.size() == static_cast<std::size_t>(kProcesses));
    std::size_t entries = 0;
    for (const auto& d : db.devices) entries += d.entries.size();
    CHECK(entries == static_cast<std::size_t>(kProcesses * kEntries));
  }

  TEST_CASE("save_tuning_entry through a symbolic link writes the link's target") {
    TempDir tmp("symlink");
    const std::string real = tmp.file("real.json");
    const std::string link = tmp.file("link.json");
    fs::create_symlink("real.json", link);
    std::vector<std::string> warnings;
    save_tuning_entry(link, kH100, sample_entry(ElemType::Uint, Op::Sum, 256), warnings);
    CHECK(fs::is_symlink(link));
    CHECK(fs::is_regular_file(real));
    CHECK(load_tuning_db(link, true).db);
  }

  TEST_CASE("tuning_db_path: --db, then CLREDUCE_TUNING_DB, then XDG_CONFIG_HOME, then HOME") {
    ScopedEnv db("CLREDUCE_TUNING_DB", "/env/tuning.json");
    ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg");
    ScopedEnv home("HOME", "/home/u");
    CHECK(tuning_db_path(std::string("/flag/db.json")) == "/flag/db.json");
    CHECK(tuning_db_path_is_explicit(std::string("/flag/db.json")));
    CHECK(tuning_db_path(std::nullopt) == "/env/tuning.json");
    CHECK(tuning_db_path_is_explicit(std::nullopt));
    CHECK_THROWS_WITH_AS(tuning_db_path(std::string("")), doctest::Contains("the tuning database path is empty"), Error);
    {
      ScopedEnv empty("CLREDUCE_TUNING_DB", "");  // empty: not set
      CHECK(tuning_db_path(std::nullopt) == "/xdg/clreduce/tuning.json");
      CHECK(!tuning_db_path_is_explicit(std::nullopt));
    }
    ScopedEnv no_db("CLREDUCE_TUNING_DB", std::nullopt);
    CHECK(tuning_db_path(std::nullopt) == "/xdg/clreduce/tuning.json");
    CHECK(!tuning_db_path_is_explicit(std::nullopt));
    {
      ScopedEnv relative("XDG_CONFIG_HOME", "relative/config");  // the XDG spec ignores relative paths
      CHECK(tuning_db_path(std::nullopt) == "/home/u/.config/clreduce/tuning.json");
    }
    ScopedEnv no_xdg("XDG_CONFIG_HOME", std::nullopt);
    CHECK(tuning_db_path(std::nullopt) == "/home/u/.config/clreduce/tuning.json");
    ScopedEnv no_home("HOME", std::nullopt);
    CHECK(tuning_db_path(std::nullopt) == "clreduce-tuning.json");
  }

  TEST_CASE("tuning database: descriptor entries round-trip; a file without them is byte for byte what it was") {
    TuningDb db;
    DeviceTuning dev{kPocl, {sample_entry(ElemType::Uint, Op::Sum, 256)}, {}, {}};
    TunedDescriptorEntry whole =
        descriptor_entry("sum", {Scalar::F16}, DescriptorFamily::Whole, "whole", {{"WG_SIZE", 64}, {"ITEMS", 8}, {"VEC", 16}});
    whole.measurements = {{0, 1u << 20, 30.5, 41.25, 68.75}, {0, 1u << 24, 400.125, 512.5, 83.5}};
    whole.gain_over_default = 1.31;
    dev.descriptor_entries.push_back(whole);
    TunedDescriptorEntry rows = descriptor_entry("argmax", {Scalar::BF16}, DescriptorFamily::Rows, "rows.long.few",
                                                 {{"WG_SIZE", 128}, {"ROW_WIDTH", 128}}, 4);
    rows.measurements = {{8, 131072, 90.5, 120.0, 23.25}};
    dev.descriptor_entries.push_back(rows);
    dev.descriptor_entries.push_back(descriptor_entry("dot", {Scalar::F32, Scalar::F32}, DescriptorFamily::Cols,
                                                      "cols.thin", {{"TILE_X", 8}, {"ROWS_Y", 4}, {"BLOCK", 0}}, 16));
    db.devices.push_back(dev);
    const std::string text = tuning_db_json(db);
    CHECK(text.find("\n  \"version\": 1,") != std::string::npos);
    CHECK(text.find("\"descriptor_entries\": [") != std::string::npos);
    const TuningDb back = parse_tuning_db(text);
    REQUIRE(back.devices.size() == 1);
    REQUIRE(back.devices[0].descriptor_entries.size() == 3);
    const TunedDescriptorEntry& w = back.devices[0].descriptor_entries[0];
    CHECK(w.reduction == "sum");
    CHECK(w.inputs == std::vector<Scalar>{Scalar::F16});
    CHECK(w.family == DescriptorFamily::Whole);
    CHECK(w.shape_class == "whole");
    CHECK(w.date == "2026-12-01T10:00:00Z");
    CHECK(w.params == std::vector<std::pair<std::string, std::uint64_t>>{{"WG_SIZE", 64}, {"ITEMS", 8}, {"VEC", 16}});
    CHECK(!w.chunks);
    REQUIRE(w.measurements.size() == 2);
    CHECK(w.measurements[0].m == 0);
    CHECK(w.measurements[1].n == (1u << 24));
    CHECK(w.measurements[1].tuned_us == 400.125);
    CHECK(w.gain_over_default == 1.31);
    CHECK(w.launch_label() == "WG_SIZE=64 ITEMS=8 VEC=16");
    const TunedDescriptorEntry& r = back.devices[0].descriptor_entries[1];
    CHECK(r.family == DescriptorFamily::Rows);
    CHECK(r.chunks == std::optional<std::uint64_t>(4));
    CHECK(r.measurements[0].m == 8);
    CHECK(r.launch_label() == "WG_SIZE=128 ROW_WIDTH=128 chunks=4");
    const TunedDescriptorEntry& c = back.devices[0].descriptor_entries[2];
    CHECK(c.inputs == std::vector<Scalar>{Scalar::F32, Scalar::F32});
    CHECK(describe(key_of(c)) == "dot f32 x f32 cols cols.thin");
    CHECK(tuning_db_json(back) == text);
    // The whole-array entries beside them are untouched; without descriptor entries the key is not
    // written, and such a file reads and writes back byte for byte.
    CHECK(back.devices[0].entries.size() == 1);
    TuningDb plain;
    plain.devices.push_back({kPocl, {sample_entry(ElemType::Uint, Op::Sum, 256)}, {}, {}});
    const std::string plain_text = tuning_db_json(plain);
    CHECK(plain_text.find("descriptor_entries") == std::string::npos);
    CHECK(tuning_db_json(parse_tuning_db(plain_text)) == plain_text);
    // By hand: the key and one parameter are enough; a NumPy name is read as its type.
    const TuningDb hand = parse_tuning_db(db_with_descriptor_entries(
        R"({"reduction": "l2", "inputs": ["float16"], "family": "cols", "class": "cols.square", "params": {"ITEMS": 2}})"));
    CHECK(hand.devices[0].descriptor_entries[0].inputs == std::vector<Scalar>{Scalar::F16});
    CHECK(hand.devices[0].descriptor_entries[0].measurements.empty());
    CHECK(parse_tuning_db(db_with_descriptor_entries(rows_entry("{}", R"(, "chunks": 8)")))
              .devices[0].descriptor_entries[0].chunks == std::optional<std::uint64_t>(8));
  }

  TEST_CASE("tuning database: every malformed descriptor entry is refused with its JSON path") {
    const std::string at = "devices[0].descriptor_entries[0]";
    struct Case {
      std::string text, message;
    };
    const std::vector<Case> cases{
        {db_with_descriptor_entries(rows_entry(R"({"WG_SIZE": 64})", R"(, "colour": 1)")),
         at + ".colour: unknown field; valid fields: reduction, inputs, family, class, date, params, chunks, "
              "measurements, gain_over_default"},
        {db_with_descriptor_entries(R"({"inputs": ["f32"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ": missing field \"reduction\""},
        {db_with_descriptor_entries(R"({"reduction": "sum", "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ": missing field \"inputs\""},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ": missing field \"family\""},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "rows", "params": {"ITEMS": 2}})"),
         at + ": missing field \"class\""},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "rows", "class": "rows.short.many"})"),
         at + ": missing field \"params\""},
        {db_with_descriptor_entries(R"({"reduction": "summ", "inputs": ["f32"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".reduction: unknown operator 'summ'; valid operators: sum, sum_wrap"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f17"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".inputs[0]: unknown type 'f17'"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": [], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".inputs: expected the built-in's input types, got an empty array"},
        {db_with_descriptor_entries(R"({"reduction": "dot", "inputs": ["f32"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".inputs: dot of f32 reads [f32, f32], not these 1 input(s)"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32", "f32"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".inputs: sum of f32 reads [f32], not these 2 input(s)"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "segments", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".family: unknown descriptor family 'segments'; valid: whole, rows, cols"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "cols", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".class: unknown shape class 'rows.short.many' for cols; valid: cols.thin, cols.square, cols.wide"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "whole", "class": "rows.short.many", "params": {"ITEMS": 2}})"),
         at + ".class: the whole family has one class, \"whole\"; got 'rows.short.many'"},
        {db_with_descriptor_entries(rows_entry(R"({"TILE_X": 32})")),
         at + ".params.TILE_X: not a tunable parameter of reduce_descriptor_lines.cl (the rows family); valid: WG_SIZE, "
              "ROW_WIDTH, ITEMS, VEC"},
        {db_with_descriptor_entries(rows_entry(R"({"SPLIT": 1})")),
         at + ".params.SPLIT: not a tunable parameter of reduce_descriptor_lines.cl (the rows family)"},
        {db_with_descriptor_entries(rows_entry(R"({"ITEMS": 3})")),
         at + ".params.ITEMS: expected one of 1, 2, 4, 8, got 3"},
        {db_with_descriptor_entries(rows_entry(R"({"VEC": "4"})")),
         at + ".params.VEC: expected one of 1, 2, 4, 8, 16, got the string \"4\""},
        {db_with_descriptor_entries(rows_entry(R"([64])")),
         at + ".params: expected an object, got an array"},
        {db_with_descriptor_entries(rows_entry(R"({})")),
         at + ".params: expected at least one parameter"},
        {db_with_descriptor_entries(rows_entry(R"({"WG_SIZE": 64, "ROW_WIDTH": 128})")),
         at + ".params: ROW_WIDTH 128 is more than WG_SIZE 64; it must divide the work-group"},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "whole", "class": "whole", "params": {"ITEMS": 2}, "chunks": 2})"),
         at + ".chunks: the whole family is not cut into chunks"},
        {db_with_descriptor_entries(rows_entry(R"({"ITEMS": 2})", R"(, "chunks": 0)")),
         at + ".chunks: expected an integer from 1 to 1024, got 0"},
        {db_with_descriptor_entries(rows_entry(R"({"ITEMS": 2})", R"(, "chunks": 1025)")),
         at + ".chunks: expected an integer from 1 to 1024, got 1025"},
        {db_with_descriptor_entries(rows_entry(R"({"ITEMS": 2})", R"(, "measurements": [{"n": 1, "tuned_us": 1, "default_us": 1, "gbps": 0}])")),
         at + ".measurements[0]: missing field \"m\""},
        {db_with_descriptor_entries(R"({"reduction": "sum", "inputs": ["f32"], "family": "whole", "class": "whole", "params": {"ITEMS": 2}, "measurements": [{"m": 1, "n": 1, "tuned_us": 1, "default_us": 1, "gbps": 0}]})"),
         at + ".measurements[0].m: unknown field"},
        {db_with_descriptor_entries(rows_entry(R"({"ITEMS": 2})", R"(, "gain_over_default": -1)")),
         at + ".gain_over_default: expected a number > 0, got -1"},
        {db_with_descriptor_entries(rows_entry() + "," + rows_entry(R"({"ITEMS": 4})")),
         "devices[0].descriptor_entries[1]: a second descriptor entry for sum f32 rows rows.short.many (the first is "
         "devices[0].descriptor_entries[0])"},
        {R"({"format": "clreduce-tuning-db", "version": 1, "devices": [{"platform": "P", "device": "D", "driver": "1", "entries": [], "descriptor_entries": {}}]})",
         "devices[0].descriptor_entries: expected an array, got an object"},
    };
    for (const Case& c : cases) {
      INFO(c.text);
      std::string message;
      try {
        parse_tuning_db(c.text);
      } catch (const Error& e) {
        message = e.what();
      }
      CHECK(message.rfind(c.message, 0) == 0);
      CHECK(message.find('\n') == std::string::npos);
    }
    // The limits: descriptor entries of a device, parameters of an entry.
    std::string many;
    for (std::size_t i = 0; i <= kTuningDbMaxDescriptorEntries; ++i)
      many += std::string(i ? "," : "") + R"({"reduction": "sum", "inputs": ["f32"], "family": "rows", "class": "rows.short.many", "params": {"ITEMS": 2}})";
    std::string message;
    try {
      parse_tuning_db(db_with_descriptor_entries(many));
    } catch (const Error& e) {
      message = e.what();
    }
    CHECK(message == "devices[0].descriptor_entries: " + std::to_string(kTuningDbMaxDescriptorEntries + 1) +
                         " descriptor entries, more than the " + std::to_string(kTuningDbMaxDescriptorEntries) +
                         " a tuning database may hold");
    std::string params = "{";
    for (std::size_t i = 0; i <= kTuningDbMaxDescriptorParams; ++i) params += std::string(i ? "," : "") + "\"P" + std::to_string(i) + "\": 1";
    message.clear();
    try {
      parse_tuning_db(db_with_descriptor_entries(rows_entry(params + "}")));
    } catch (const Error& e) {
      message = e.what();
    }
    CHECK(message == at + ".params: 17 parameters, more than the 16 a tuning database may hold");
  }

  TEST_CASE("save_tuning_descriptor_entries merges, replaces and clears by key; find_tuned_descriptor keeps the device rules") {
    TempDir tmp("descriptor");
    const std::string path = tmp.file("tuning.json");
    std::vector<std::string> warnings;
    save_tuning_entry(path, kPocl, sample_entry(ElemType::Float, Op::Sum, 256), warnings);
    const TunedDescriptorEntry a =
        descriptor_entry("sum", {Scalar::F32}, DescriptorFamily::Rows, "rows.short.many", {{"ITEMS", 4}});
    const TunedDescriptorEntry b =
        descriptor_entry("sum", {Scalar::F32}, DescriptorFamily::Cols, "cols.thin", {{"TILE_X", 8}}, 4);
    save_tuning_descriptor_entries(path, kPocl, {a, b}, {}, warnings);
    TunedDescriptorEntry a2 = a;
    a2.params = {{"ITEMS", 8}};
    const TunedDescriptorEntry h = descriptor_entry("argmax", {Scalar::F16}, DescriptorFamily::Whole, "whole", {{"VEC", 8}});
    // a replaced, b cleared (tune kept its default), h added for another device.
    save_tuning_descriptor_entries(path, kPocl, {a2}, {key_of(b)}, warnings);
    save_tuning_descriptor_entries(path, kH100, {h}, {}, warnings);
    CHECK(warnings.empty());
    const LoadedTuningDb db = load_tuning_db(path, true);
    REQUIRE(db.db);
    CHECK(db.warnings.empty());
    REQUIRE(db.db->devices.size() == 2);
    CHECK(db.db->devices[0].entries.size() == 1);  // the whole-array entry is kept
    REQUIRE(db.db->devices[0].descriptor_entries.size() == 1);
    CHECK(db.db->devices[0].descriptor_entries[0].params == std::vector<std::pair<std::string, std::uint64_t>>{{"ITEMS", 8}});
    const TunedDescriptorLookup found = find_tuned_descriptor(db, kPocl, key_of(a));
    REQUIRE(found.entry);
    CHECK(found.entry->launch_label() == "ITEMS=8");
    CHECK(found.warnings.empty());
    CHECK(!find_tuned_descriptor(db, kPocl, key_of(b)).entry);
    CHECK(!find_tuned_descriptor(db, kPocl, key_of(h)).entry);  // another device's
    const TunedDescriptorLookup stale = find_tuned_descriptor(db, {kPocl.platform, kPocl.device, "7.0"}, key_of(a));
    CHECK(!stale.entry);
    REQUIRE(stale.warnings.size() == 1);
    CHECK(stale.warnings[0].find("with driver 6.0+debian, this device runs driver 7.0") != std::string::npos);
    const TunedDescriptorLookup foreign = find_tuned_descriptor(db, {"P", "Another", "1"}, key_of(a));
    CHECK(!foreign.entry);
    REQUIRE(foreign.warnings.size() == 1);
    CHECK(foreign.warnings[0].find("has no entry for Another") != std::string::npos);
    // An entry that would not read back is refused before the file is touched.
    const std::string before = read_text(path);
    TunedDescriptorEntry bad = a;
    bad.params = {{"ITEMS", 3}};
    CHECK_THROWS_WITH_AS(save_tuning_descriptor_entries(path, kPocl, {bad}, {}, warnings),
                         doctest::Contains("the new entry would not read back (devices[0].descriptor_entries[0].params.ITEMS: "
                                           "expected one of 1, 2, 4, 8, got 3)"),
                         Error);
    CHECK(read_text(path) == before);
  }
}
