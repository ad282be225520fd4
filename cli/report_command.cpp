// `clreduce report FILE.json`: a saved run rendered again as the table, CSV or JSON the command that
// measured it wrote, without a device: bench and bench --sizes through their own printers (and
// charts), any other document with a "schema" marker from the result tables it keeps ("table").
#include "cli.hpp"

#include "printers/family_printer.hpp"
#include "printers/result_charts.hpp"
#include "printers/result_printer.hpp"
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

// --units, else the unit the run's own table used (meta.units.text_bandwidth).
BandwidthUnit units_of(const nlohmann::json& doc, const ReportTexts& o) {
  if (o.units) return parse_bandwidth_unit(*o.units);
  const nlohmann::json meta = doc.value("meta", nlohmann::json::object());
  const nlohmann::json units = meta.is_object() ? meta.value("units", nlohmann::json::object()) : nlohmann::json();
  const nlohmann::json was = units.is_object() ? units.value("text_bandwidth", nlohmann::json("GB/s")) : nlohmann::json();
  return was == "GiB/s" ? BandwidthUnit::GiB : BandwidthUnit::GB;
}

// A document of the result model (any schema but bench's and bench --sizes'): its "table" rendered
// by the generic printers, its JSON as it was written.
int report_table(const nlohmann::json& doc, const std::string& schema, const ReportTexts& o) {
  if (schema_listed(schema, kOneRunSchemaNames))
    throw Error(o.path + ": " + schema + " is one run's report of `clreduce reduce`, not a table; its JSON is the whole "
                "record. report renders benchmark tables: bench, bench --sizes, sweep, tune and the other bench kinds");
  if (o.chart) throw Error("--chart draws a bench or bench --sizes run; " + o.path + " is " + schema);
  if (!doc.contains("table"))
    throw Error(o.path + ": schema " + schema + " but no \"table\" to render (a file cut short or edited?)");
  TableView v;
  try {
    v = table_view_of(doc["table"]);
  } catch (const std::runtime_error& e) {
    throw Error(o.path + ": " + e.what());
  }
  const BandwidthUnit units = units_of(doc, o);
  note_units(units);
  if (doc.contains("meta")) note_saved_kernels(doc["meta"]);
  emit(render_text(v, units), render_csv(v, units), doc, o.output);
  for (const char* ok : {"all_ok", "ok"})
    if (doc.contains(ok) && doc[ok].is_boolean() && !doc[ok].get<bool>()) return 1;
  return 0;
}

int report(const ReportTexts& o) {
  check_outputs(o.output, named("--chart", o.chart), {{"FILE", o.path}});
  if (o.units) parse_bandwidth_unit(*o.units);  // refused before the file is read
  const nlohmann::json doc = read_saved_document(o.path, kReportKinds);
  const std::string schema = saved_schema(doc, o.path);
  if (!schema.empty() && schema != "clreduce.bench" && schema != "clreduce.bench_sizes")
    return report_table(doc, schema, o);
  if (schema.empty() && doc.is_object() && doc.contains("table") && !doc.contains("kind"))
    throw Error(o.path + ": a \"table\" but no \"schema\" marker; expected " + std::string(kReportKinds));
  if (schema.empty() && doc.is_object() &&
      (!doc.contains("kind") || (doc["kind"] != "bench" && doc["kind"] != "bench_sizes")))
    throw Error(o.path + ": no \"schema\" marker and not a bench or bench --sizes run (a file of another command "
                "written before the marker, schema version 1, keeps no table to render: run it again); expected " +
                std::string(kReportKinds));
  const SavedRun s = saved_run_of(doc, o.path);
  const BandwidthUnit units = units_of(s.doc, o);
  note_units(units);
  const Run& run = s.run;
  const DeviceInfo& dev = s.device;
  nlohmann::json j = s.kind == "bench" ? bench_json(run, dev) : sizes_json(run, dev);
  if (s.doc.contains("meta")) {
    j["meta"] = s.doc["meta"];  // the measurement's, not this rendering's
    note_saved_kernels(s.doc["meta"]);
  }
  if (s.kind == "bench") {
    emit(bench_text(run, dev, units), bench_csv(run, units), j, o.output);
    if (o.chart) write_chart(o.output, *o.chart, render_svg(bench_chart(run, dev)));
  } else {
    if (o.chart) {
      bool warm = false, cold = false;
      for (const auto& size : run.sizes) (size.cold ? cold : warm) = true;
      if (warm && cold) throw Error("--chart draws one cache; this file holds warm and cold sizes");
    }
    emit(sizes_text(run, dev, units), sizes_csv(run, dev, units), j, o.output);
    if (o.chart) write_chart(o.output, *o.chart, render_svg(scaling_chart(run, dev)));
  }
  return run.all_ok() ? 0 : 1;
}
}  // namespace

void register_report_command(Cli& cli) {
  auto o = std::make_shared<ReportTexts>();
  CLI::App* c = cli.add("report",
                        "render a saved run (the JSON of any benchmark: bench, bench --sizes, sweep, tune, ...) again "
                        "as a table, CSV or JSON (bench and bench --sizes: also charts), without a device",
                        [o] { return report(*o); });
  c->add_option("FILE", o->path, "the saved run (JSON)")->required();
  add_output_options(c, o->output);
  c->add_option("--chart", o->chart, "write the run's SVG chart (bench: GB/s per variant; --sizes: time and GB/s against n)");
  c->add_option("--units", o->units, "bandwidth unit of the table and CSV: GB or GiB (default: the run's own)");
}

}  // namespace clreduce::cli
