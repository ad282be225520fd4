// `clreduce devices`, `clreduce variants` and `clreduce doctor`: what is here, before measuring.
#include "cli.hpp"

#include "benchmarks/access.hpp"
#include "clreduce/axis.hpp"
#include "clreduce/transpose.hpp"
#include "clreduce/kernel_spec.hpp"
#include "clreduce/variants.hpp"
#include "doctor.hpp"
#include "printers/reduce_printer.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

namespace clreduce::cli {

namespace {
int devices(const std::string& format) {
  const auto all = list_devices();
  const Format f = parse_format(format);
  if (f == Format::Json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& d : all) j.push_back(device_json(d));
    std::cout << json_text(j);
  } else if (f == Format::Csv) {
    TextTable t;
    for (const auto& d : all) {
      const nlohmann::json j = device_json(d);
      if (t.headers.empty())
        for (const auto& [key, value] : j.items()) t.headers.push_back(key);
      std::vector<std::string> row;
      for (const auto& [key, value] : j.items())
        row.push_back(value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      t.rows.push_back(row);
    }
    std::cout << t.render_csv();
  } else {
    std::cout << devices_text(all);
    const DeviceInfo def = select_device(all, {});
    std::cout << "default device: " << def.platform_index << ":" << def.device_index << " " << def.name << "\n";
  }
  return 0;
}

// One kernel's declared parameters in a line: each -D name, what sets it (its option, -D, or the
// host) and its fallback.
std::string params_line(const KernelSpec& k) {
  std::string s;
  for (const KernelParam& p : k.params) {
    s += (s.empty() ? "" : ", ") + p.define + " " +
         (!p.option.empty() ? p.option : p.caller_may_set ? std::string("-D") : std::string("host"));
    if (p.fallback) s += " (" + std::to_string(*p.fallback) + ")";
  }
  return s;
}

// `clreduce variants --params [--family F]`: every declared parameter of every variant's kernel
// (of family F), one row each.
int params_table(const std::string& family) {
  std::vector<std::string> families;
  for (const KernelSpec* k : kernel_specs())
    if (std::find(families.begin(), families.end(), k->family) == families.end()) families.push_back(k->family);
  if (!family.empty() && std::find(families.begin(), families.end(), family) == families.end())
    throw Error("--family " + printable(family) + ": no such kernel family; valid: " + join(families));
  TextTable t;
  t.headers = {"family", "variant", "kernel", "-D", "meaning", "valid", "default", "tune", "set by"};
  for (const NamedKernelSpec& named : named_kernel_specs()) {
    const KernelSpec* k = named.spec;
    if (!family.empty() && k->family != family) continue;
    for (const KernelParam& p : k->params) {
      // The fallback before its rule, unless the rule starts with it ("256, or the device's most").
      const std::string fallback = p.fallback ? std::to_string(*p.fallback) : "";
      const bool rule_says_it = !fallback.empty() && p.rule.rfind(fallback, 0) == 0 &&
                                (p.rule.size() == fallback.size() || !std::isdigit(static_cast<unsigned char>(p.rule[fallback.size()])));
      t.rows.push_back({k->family, named.name, k->kernel, p.define, p.meaning, p.valid_text(),
                        fallback.empty() || rule_says_it ? p.rule : fallback + " (" + p.rule + ")",
                        p.tunable ? "yes" : "no",
                        !p.option.empty() ? p.option + (p.caller_may_set ? " or -D" : "")
                        : p.caller_may_set  ? "-D"
                                            : "the host"});
    }
  }
  std::cout << "kernel parameters (clreduce/kernel_spec.hpp). A -D of one the host sets is refused; of one a caller "
               "may set, it is that value (reduce), or refused where an option sets it and the command searches "
               "the options itself (bench, sweep, tune, transpose)\n"
            << t.render_text();
  return 0;
}

int variants_table(bool all_params, const std::string& family) {
  if (!family.empty() && !all_params) throw Error("--family " + printable(family) + " is for --params: add --params");
  if (all_params) return params_table(family);
  TextTable t;
  t.headers = {"variant", "literature", "what it does", "parameters"};
  for (const auto& v : variants()) {
    std::string params = params_line(v.spec);
    if (v.contiguous_blocks) params += "; groups per CU (a block per work-item, sized from n)";
    if (v.default_fills_device) params += "; default grid fills the device once (occupancy)";
    if (v.single_pass) params += "; one launch (ticket counter)";
    t.rows.push_back({v.name, v.literature, v.summary, params});
  }
  std::cout << "reduction variants (clreduce reduce / bench)\n" << t.render_text();
  TextTable tt;
  tt.headers = {"transpose variant", "what it does", "trade-off", "parameters"};
  for (const auto& v : transpose_variants()) {
    const std::string params = v.shape == TransposeShape::Free
                                   ? "WG_X x WG_Y (default " + std::to_string(v.default_wg_x) + "x" +
                                         std::to_string(v.default_wg_y) + ")"
                               : v.shape == TransposeShape::Tile
                                   ? "TILE (default " + std::to_string(v.default_tile) + "), group TILE x TILE"
                                   : "TILE (default " + std::to_string(v.default_tile) + "), ROWS (default " +
                                         std::to_string(v.default_rows) + "), group TILE x ROWS";
    tt.rows.push_back({v.name, v.summary, v.tradeoff, params});
  }
  std::cout << "\ntranspose variants (clreduce transpose / bench transpose)\n" << tt.render_text();
  TextTable at;
  at.headers = {"access pattern", "kernel", "which elements a work-item reads"};
  for (const auto& p : access_patterns()) at.rows.push_back({p.name, p.kernel, p.summary});
  std::cout << "\naccess patterns (clreduce bench access)\n" << at.render_text();
  TextTable xt;
  xt.headers = {"axis variant", "axis", "what it does", "trade-off", "parameters"};
  for (const auto& v : axis_variants()) {
    std::string params = params_line(v.spec);
    if (v.takes_chunks())
      params += v.streams()           ? "; groups --chunks (4 per compute unit)"
                : v.runs_descriptor() ? (v.axis == Axis::Rows ? "; parts a row --chunks (its planner's)"
                                                               : "; row chunks --chunks (its planner's)")
                                      : "; chunks --chunks (8 groups per compute unit)";
    xt.rows.push_back({v.name, std::string(name_of(v.axis)), v.summary, v.tradeoff, params});
  }
  std::cout << "\naxis variants (clreduce reduce --axis rows|cols --shape MxN)\n" << xt.render_text();
  return 0;
}
}  // namespace

void register_info_commands(Cli& cli) {
  auto format = std::make_shared<std::string>("table");
  CLI::App* d = cli.add("devices", "list platforms and devices with their facts", [format] { return devices(*format); });
  d->add_option("--format", *format, "table, csv or json");
  auto params = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  CLI::App* v = cli.add("variants", "list the registered reduction and transpose variants",
                        [params, family] { return variants_table(*params, *family); });
  v->add_flag("--params", *params,
              "every kernel's declared parameters instead: -D name, meaning, valid values, default, whether tune "
              "searches it, what sets it");
  v->add_option("--family", *family,
                "with --params: one family's kernels (whole_array, axis, whole, lines, columns, segments, transpose)");
  cli.add("doctor",
          "explain a missing platform or GPU (ICD files, vendor libraries) and check the event timer "
          "against the host clock",
          [&cli] {
            const DoctorReport r = run_doctor(DeviceSelector{cli.global().platform, cli.global().device});
            std::cout << doctor_text(r);
            return r.ok() ? 0 : 1;
          });
}

}  // namespace clreduce::cli
