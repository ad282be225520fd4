// Renderings of the size benchmark: a variant's row at one size declared once (the result model,
// measure/result_table.hpp), every format from the generic printers.
#include "printers/sizes_printer.hpp"

#include "printers/common_columns.hpp"
#include "printers/reduce_printer.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <sstream>

namespace clreduce {

using nlohmann::json;

std::string config_label(const ReduceReport& r, const DeviceInfo& dev) {
  const PassPlan& p = r.plan.passes.front();
  std::string s = "wg " + std::to_string(p.wg) + ", " + std::to_string(p.groups) +
                  (p.groups == 1 ? " group" : " groups");
  if (r.config.groups_per_cu) s += " (" + std::to_string(*r.config.groups_per_cu) + "/CU)";
  else if (dev.compute_units && p.groups % dev.compute_units == 0 && r.plan.variant->default_fills_device)
    s += " (" + std::to_string(p.groups / dev.compute_units) + "/CU)";
  s += ", times " + std::to_string(p.times);
  if (p.vec > 1) s += ", vec " + std::to_string(p.vec);
  s += ", " + std::to_string(r.plan.passes.size()) + (r.plan.passes.size() == 1 ? " pass" : " passes");
  if (!r.tuned.empty()) s += ", tuned";
  return s;
}

namespace {
std::string status(const VariantRun& row) {
  if (!row.unavailable.empty()) return "skipped";
  if (row.measured() == 0) return "ERROR";
  return row.ok() ? "ok" : "FAILED";
}

// The best one-call-at-a-time figure across every variant and candidate of one size.
const ReduceReport* best_of(const SizeRun& s, bool single) {
  const ReduceReport* best = nullptr;
  for (const auto& row : s.variants) {
    const int i = single ? row.best_single() : row.best();
    if (i < 0) continue;
    const ReduceReport* r = &*row.points[i].report;
    const double t = single ? r->timed.single_us.median : r->timed.whole_us.median;
    if (!best || t < (single ? best->timed.single_us.median : best->timed.whole_us.median)) best = r;
  }
  return best;
}

// A variant at one size as its columns read it: its best candidate back-to-back (b) and one call at
// a time (bs), null where none was measured.
struct Line {
  const Run* run;
  const SizeRun* s;
  const VariantRun* v;
  const DeviceInfo* dev;
  const ReduceReport *b, *bs;
  Line(const Run& r, const SizeRun& size, const VariantRun& row, const DeviceInfo& d)
      : run(&r), s(&size), v(&row), dev(&d), b(row.best() < 0 ? nullptr : &*row.points[row.best()].report),
        bs(b ? &*row.points[row.best_single()].report : nullptr) {}
};

// Every candidate tried, with its report (for `clreduce report`) where it ran.
json candidates_json(const Line& l) {
  json tried = json::array();
  for (const auto& c : l.v->points) {
    const ReduceParams& cp = c.report ? static_cast<const ReduceParams&>(c.report->config) : c.point.params;
    json cj{{"wg", cp.wg}};
    if (cp.groups_per_cu) cj["groups_per_cu"] = *cp.groups_per_cu;
    if (cp.vec) cj["vec"] = *cp.vec;
    if (c.report)
      cj.update({{"config", config_label(*c.report, *l.dev)}, {"b2b_us", stats_json(c.report->timed.whole_us)},
                 {"single_us", stats_json(c.report->timed.single_us)},
                 {"single_events_us", stats_json(c.report->timed.single_events_us)}, {"ok", c.report->ok()},
                 {"report", report_core_json(*c.report)}});
    if (!c.skipped.empty()) cj["refused"] = c.skipped;
    if (!c.error.empty()) cj["error"] = c.error;
    tried.push_back(cj);
  }
  return tried;
}

// {{key, json path, text header, csv header, unit, text decimals, csv decimals}, cell}: each format
// takes the columns that name a header or a path there, in this order.
const std::vector<ColumnOf<Line>>& columns() {
  using R = ReduceReport;
  using L = Line;
  static const std::vector<ColumnOf<L>> c = join<L>({
      {{{"n", "", "", "n", Unit::Count}, [](const L& l) { return u64(l.s->n); }},
       {{"type", "", "", "type"}, [](const L& l) { return Cell(std::string(name_of(l.run->type))); }},
       {{"op", "", "", "op"}, [](const L& l) { return Cell(std::string(name_of(l.run->op))); }},
       {{"variant", "variant", "variant", "variant"}, [](const L& l) { return Cell(l.v->variant); }},
       {{"config", "best/config", "best configuration", ""},
        [](const L& l) { return l.b ? Cell(config_label(*l.b, *l.dev)) : Cell(); }},
       {{"wg", "", "", "wg", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.plan.passes.front().wg); })},
       {{"groups", "", "", "groups", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.plan.passes.front().groups); })},
       {{"groups_per_cu", "", "", "groups_per_cu", Unit::Count},
        [](const L& l) { return l.b && l.b->config.groups_per_cu ? u64(*l.b->config.groups_per_cu) : Cell(); }},
       {{"times", "", "", "times", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.plan.passes.front().times); })},
       {{"vec", "", "", "vec", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.plan.passes.front().vec); })},
       {{"passes", "", "", "passes", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.plan.passes.size()); })},
       {{"b2b_us", "", "b2b µs", "b2b_median_us", Unit::Micros, 2, 3}, when(&L::b, [](const R& r) { return r.timed.whole_us.median; })},
       {{"spread", "", "spread", ""}, when(&L::b, [](const R& r) { return noise_cell(r.timed); })},
       {{"b2b_min_us", "", "", "b2b_min_us", Unit::Micros, 2, 3}, when(&L::b, [](const R& r) { return r.timed.whole_us.min; })},
       {{"single_us", "", "1 call µs", "single_median_us", Unit::Micros, 2, 3},
        when(&L::b, [](const R& r) { return r.timed.single_us.median; })},
       {{"single_events_us", "", "", "single_events_median_us", Unit::Micros, 2, 3},
        when(&L::b, [](const R& r) { return r.timed.single_events_us.median; })},
       {{"gbps", "", "$bw", "$bw", Unit::Bandwidth, 1, 2}, when(&L::b, [](const R& r) { return r.gbps; })}},
      peak_columns<L>([](const L& l) { return &l.s->peak; },
                      [](const L& l) { return l.b ? std::optional(l.s->pct_of_peak(l.b->gbps)) : std::nullopt; }, {}),
      {{{"floor_us", "", "", "floor_us", Unit::Micros, 2, 3}, [](const L& l) { return Cell(l.s->floor_us(l.run->type)); }},
       {{"best_single_us", "", "best 1 call µs", "best_single_median_us", Unit::Micros, 2, 3},
        when(&L::bs, [](const R& r) { return r.timed.single_us.median; })},
       {{"best_single_config", "best_single/config", "", "best_single_config"},
        [](const L& l) { return l.bs ? Cell(config_label(*l.bs, *l.dev)) : Cell(); }},
       {{"candidates_run", "", "", "candidates_run", Unit::Count}, [](const L& l) { return u64(l.v->measured()); }},
       {{"candidates", "", "candidates", ""},
        [](const L& l) {
          return Cell(std::to_string(l.v->measured()) + " run" +
                      (l.v->skipped() ? ", " + std::to_string(l.v->skipped()) + " refused" : std::string()));
        }}},
      check_columns<L>([](const L& l) { return status(*l.v); }, nullptr, [](const L& l) { return l.v->unavailable; },
                       nullptr, "skipped"),
      {{{"cache", "", "", "cache"}, [](const L& l) { return Cell(std::string(l.s->cold ? "cold" : "warm")); }},
       {{"b2b_spread_pct", "", "", "b2b_spread_pct", Unit::Number, 1, 2}, when(&L::b, [](const R& r) { return r.timed.whole_us.spread_pct(); })},
       {{"b2b_samples", "", "", "b2b_samples", Unit::Count}, when(&L::b, [](const R& r) { return u64(r.timed.whole_us.samples.size()); })},
       {{"noise_reached", "", "", "noise_reached"}, when(&L::b, [](const R& r) { return std::string(r.timed.noise_reached ? "yes" : "no"); })},
       // JSON only: the best candidates' reports (their configs above) and every candidate.
       {{"best", "best", "", ""}, when(&L::b, [](const R& r) { return report_core_json(r); })},
       {{"best_single", "best_single", "", ""}, when(&L::bs, [](const R& r) { return report_core_json(r); })},
       {{"candidates_json", "candidates", "", ""}, [](const L& l) { return Cell(candidates_json(l)); }}}});
  return c;
}

std::vector<Line> lines_of(const Run& r, const DeviceInfo& dev, const SizeRun* only = nullptr) {
  std::vector<Line> out;
  for (const auto& s : r.sizes)
    if (!only || &s == only)
      for (const auto& row : s.variants) out.emplace_back(r, s, row, dev);
  return out;
}
}  // namespace

std::string sizes_text(const Run& r, const DeviceInfo& dev, BandwidthUnit u) {
  std::ostringstream out;
  out << "device: " << dev.label() << ", " << dev.compute_units << " compute units, occupancy "
      << (dev.resident_items_per_cu ? std::to_string(dev.resident_items_per_cu) + " work-items/CU, "
                                    : std::string())
      << dev.occupancy_source << "\n"
      << "reduce: " << name_of(r.op) << " of " << name_of(r.type)
      << "; each variant's best configuration (lowest back-to-back median) of the candidates tried, "
         "every candidate verified against the host reference\n"
      << "times:  whole reduction (all passes, to one value on the device), medians. b2b: a batch "
         "enqueued together, first start to last end / batch; 1 call: one call at a time "
         "(enqueue, wait) by the host clock on a queue without profiling, as the host clock "
         "around a CUDA call and a stream synchronize; GB/s = bytes / b2b\n"
      << clock_line(r.clock, r.clock_note) << noise_line(r.noise_target_pct);
  bool warm = false, cold = false;
  for (const auto& s : r.sizes) (s.cold ? cold : warm) = true;
  if (warm || r.sizes.empty()) out << cache_line(false, "");
  if (cold) out << cache_line(true, r.cache_note);
  for (const auto& s : r.sizes) {
    ResultTable t = tabulate(columns(), lines_of(r, dev, &s));
    t.preamble = {"n = " + size_label(s.n) + (s.cold ? " COLD" : " warm") + " (" + std::to_string(s.n) + " " +
                  std::string(name_of(r.type)) + ", " + bytes_human(s.n * size_of(r.type)) + ", " + s.data_origin +
                  "): read peak " + bandwidth_cell(s.peak.gbps, 1, u) + " " + bandwidth_label(u) +
                  " (stream_read.cl, same buffer), floor " + stats_cell(s.floor_us(r.type)) + " µs\n"};
    for (const Line& l : lines_of(r, dev, &s))
      if (l.b && !l.b->timed.noise_reached)
        t.after.push_back(l.v->variant + ": noise target not reached: spread " + spread_cell(l.b->timed.whole_us) +
                          " after " + std::to_string(l.b->timed.repetitions) + " samples (--max-time ends the sampling)\n");
    if (const ReduceReport* b = best_of(s, false))
      t.after.push_back("best b2b:    " + b->config.variant + " " + stats_cell(b->timed.whole_us.median) + " µs (" +
                        config_label(*b, dev) + ")\n");
    if (const ReduceReport* b = best_of(s, true))
      t.after.push_back("best one call: " + b->config.variant + " " + stats_cell(b->timed.single_us.median) + " µs (" +
                        config_label(*b, dev) + ")\n");
    for (const auto& row : s.variants) {
      if (!row.unavailable.empty()) t.after.push_back(row.variant + " skipped: " + row.unavailable + "\n");
      for (const auto& c : row.points) {
        if (!c.error.empty()) t.after.push_back(row.variant + " error: " + c.error + "\n");
        if (c.report && !c.report->ok())
          t.after.push_back(row.variant + " FAILED (" + config_label(*c.report, dev) + "): " + c.report->check.detail + "\n");
      }
    }
    // render_text ends with a blank line; here the next size's header gives it.
    const std::string text = render_text(t, u);
    out << "\n" << text.substr(0, text.size() - 1);
  }
  return out.str();
}

std::string sizes_csv(const Run& r, const DeviceInfo& dev, BandwidthUnit u) {
  return render_csv(tabulate(columns(), lines_of(r, dev)), u);
}

json sizes_json(const Run& r, const DeviceInfo& dev) {
  json sizes = json::array();
  for (const auto& s : r.sizes)
    sizes.push_back({{"n", s.n}, {"cache", s.cold ? "cold" : "warm"}, {"bytes", s.n * size_of(r.type)},
                     {"data", s.data_origin}, {"peak_read", peak_json(s.peak)}, {"host_reduce", host_reduce_json(s.host)},
                     {"floor_us", s.floor_us(r.type)}, {"rows", render_json_rows(tabulate(columns(), lines_of(r, dev, &s)))}});
  return json{{"kind", "bench_sizes"},
              {"schema", schema_json("bench_sizes")},
              {"device", device_json(dev)},
              {"clock", std::string(name_of(r.clock))},
              {"clock_note", r.clock_note},
              {"cache_note", r.cache_note},
              {"noise_target_pct", r.noise_target_pct},
              {"type", std::string(name_of(r.type))},
              {"op", std::string(name_of(r.op))},
              {"sizes", sizes},
              {"all_ok", r.all_ok()}};
}

}  // namespace clreduce
