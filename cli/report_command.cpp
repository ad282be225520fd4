// `clreduce report FILE.json`: a saved run (bench or bench --sizes) rendered again as the table,
// CSV, JSON or the charts the command that measured it writes, without a device.
#include "cli.hpp"

#include "printers/family_printer.hpp"
#include "printers/result_charts.hpp"
#include "printers/run_json.hpp"
#include "printers/sizes_printer.hpp"

namespace clreduce::cli {

namespace {
struct ReportTexts {
  std::string path;
  OutputTexts output;
  std::optional<std::string> chart;
  std::optional<std::string> units;
};

int report(const ReportTexts& o) {
  check_outputs(o.output, named("--chart", o.chart), {{"FILE", o.path}});
  if (o.units) set_bandwidth_unit(parse_bandwidth_unit(*o.units));
  const SavedRun s = read_saved_run(o.path);
  // Without --units: the unit the run's own table used (meta.units.text_bandwidth).
  if (!o.units) {
    const std::string was = s.doc.value("meta", nlohmann::json::object())
                                .value("units", nlohmann::json::object())
                                .value("text_bandwidth", std::string("GB/s"));
    set_bandwidth_unit(was == "GiB/s" ? BandwidthUnit::GiB : BandwidthUnit::GB);
  }
  const Run& run = s.run;
  const DeviceInfo& dev = s.device;
  nlohmann::json j = s.kind == "bench" ? bench_json(run, dev) : sizes_json(run, dev);
  if (s.doc.contains("meta")) {
    j["meta"] = s.doc["meta"];  // the measurement's, not this rendering's
    note_saved_kernels(s.doc["meta"]);
  }
  if (s.kind == "bench") {
    emit(bench_text(run, dev), bench_csv(run), j, o.output);
    if (o.chart) write_chart(o.output, *o.chart, render_svg(bench_chart(run, dev)));
  } else {
    if (o.chart) {
      bool warm = false, cold = false;
      for (const auto& size : run.sizes) (size.cold ? cold : warm) = true;
      if (warm && cold) throw Error("--chart draws one cache; this file holds warm and cold sizes");
    }
    emit(sizes_text(run, dev), sizes_csv(run, dev), j, o.output);
    if (o.chart) write_chart(o.output, *o.chart, render_svg(scaling_chart(run, dev)));
  }
  return run.all_ok() ? 0 : 1;
}
}  // namespace

void register_report_command(Cli& cli) {
  auto o = std::make_shared<ReportTexts>();
  CLI::App* c = cli.add("report",
                        "render a saved run (JSON of bench or bench --sizes) again as a table, CSV, JSON or "
                        "charts, without a device",
                        [o] { return report(*o); });
  c->add_option("FILE", o->path, "the saved run (JSON)")->required();
  add_output_options(c, o->output);
  c->add_option("--chart", o->chart, "write the run's SVG chart (bench: GB/s per variant; --sizes: time and GB/s against n)");
  c->add_option("--units", o->units, "bandwidth unit of the table and CSV: GB or GiB (default: the run's own)");
}

}  // namespace clreduce::cli
