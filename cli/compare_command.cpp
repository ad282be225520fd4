// `clreduce compare OLD.json NEW.json`: two saved runs (bench or bench --sizes) matched row by
// row (type, operator, n, cache, variant), each pair's back-to-back samples compared with a
// Mann-Whitney U-test; `--fail-on-regression PCT` turns a significant slowdown into exit 1.
#include "cli.hpp"

#include "measure/stats.hpp"
#include "printers/run_json.hpp"

#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace clreduce::cli {

namespace {
struct CompareTexts {
  std::string old_path, new_path;
  double alpha = 0.05;
  double min_effect = 1.0;  // percent
  std::optional<double> fail_pct;
  std::string format = "table";
};

std::string p_cell(double p) {
  if (p < 1e-4) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1e", p);
    return buf;
  }
  return fixed(p, 4);
}

int compare(const CompareTexts& o) {
  if (!(o.min_effect >= 0 && o.min_effect <= 100))
    throw Error("--min-effect " + fixed(o.min_effect, 2) + " is outside the valid range: 0..100 (percent)");
  if (!(o.alpha > 0 && o.alpha < 1))
    throw Error("--alpha " + fixed(o.alpha, 4) + " is outside the valid range: a p-value threshold above 0 and below 1 (e.g. 0.05)");
  if (o.fail_pct && !(*o.fail_pct >= 0 && *o.fail_pct <= 1000))
    throw Error("--fail-on-regression " + fixed(*o.fail_pct, 2) + " is outside 0..1000 percent");
  const Format format = parse_format(o.format);
  const SavedRun before = read_saved_run(o.old_path);
  const SavedRun after = read_saved_run(o.new_path);
  // Verified rows are compared; the others are listed as not compared, with why.
  std::vector<SavedRow> old_rows, new_rows;
  std::vector<std::string> not_compared;
  for (const auto& [file, rows, name] : {std::tuple{&before, &old_rows, "old"}, std::tuple{&after, &new_rows, "new"}})
    for (SavedRow& r : saved_rows(*file)) {
      if (r.status == "ok") rows->push_back(std::move(r));
      else not_compared.push_back(std::string(name) + " " + r.key + ": " + r.status);
    }
  for (const auto* side : {&old_rows, &new_rows})
    for (const SavedRow& r : *side)
      if (r.report->timed.whole_us.samples.empty())
        throw Error((side == &old_rows ? o.old_path : o.new_path) + ": row " + r.key +
                    " keeps no raw samples (written before clreduce kept them); measure it again");
  std::map<std::string, const SavedRow*> by_key;
  for (const SavedRow& r : old_rows) by_key.emplace(r.key, &r);
  struct Pair {
    const SavedRow* a;
    const SavedRow* b;
    Comparison c;
  };
  std::vector<Pair> pairs;
  std::vector<std::string> only_new;
  std::map<std::string, bool> matched;
  for (const SavedRow& r : new_rows) {
    auto it = by_key.find(r.key);
    if (it == by_key.end()) {
      only_new.push_back(r.key);
      continue;
    }
    matched[r.key] = true;
    pairs.push_back({it->second, &r,
                     compare_samples(it->second->report->timed.whole_us.samples, r.report->timed.whole_us.samples, o.alpha,
                                     o.min_effect)});
  }
  std::vector<std::string> only_old;
  for (const SavedRow& r : old_rows)
    if (!matched.count(r.key)) only_old.push_back(r.key);
  if (pairs.empty()) {
    const auto first = [](const std::vector<SavedRow>& rows) {
      return rows.empty() ? std::string("no verified row") : rows.front().key + (rows.size() > 1 ? ", ..." : "");
    };
    throw Error("no row of " + o.old_path + " (" + first(old_rows) + ") matches a row of " + o.new_path + " (" +
                first(new_rows) + "); rows match by type, operator, n, cache and variant" +
                (not_compared.empty() ? std::string()
                                      : "; not compared: " + not_compared.front() +
                                            (not_compared.size() > 1 ? " and " + std::to_string(not_compared.size() - 1) + " more" : "")));
  }
  if (before.device.label() != after.device.label())
    warn("the files come from different devices or drivers: " + before.device.label() + " and " + after.device.label());

  bool regression = false;
  const bool colour = format == Format::Table && ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  const auto paint = [colour](const std::string& text, const std::string& verdict) {
    if (!colour || verdict == "same") return text;
    return std::string(verdict == "slower" ? "\033[31m" : "\033[32m") + text + "\033[0m";
  };
  TextTable t;
  t.headers = {"type", "op", "n", "cache", "variant", "old µs", "new µs", "new/old", "p-value", "verdict", "note"};
  nlohmann::json rows = nlohmann::json::array();
  for (const Pair& p : pairs) {
    const bool reg = o.fail_pct && p.c.regression(*o.fail_pct);
    regression = regression || reg;
    std::string note = p.a->launch == p.b->launch ? "" : "launch differs: " + p.a->launch + " -> " + p.b->launch;
    if (reg) note = std::string("REGRESSION over ") + fixed(*o.fail_pct, 1) + "%" + (note.empty() ? "" : "; " + note);
    std::string verdict = p.c.verdict;
    if (p.c.significant && !p.c.below_effect) verdict += " " + fixed(100 * std::abs(p.c.ratio - 1), 1) + "%";
    if (p.c.below_effect)
      note = "p < alpha, but under --min-effect " + fixed(o.min_effect, 1) + "%" + (note.empty() ? "" : "; " + note);
    t.rows.push_back({std::string(name_of(p.b->type)), std::string(name_of(p.b->op)), std::to_string(p.b->n), p.b->cache,
                      p.b->variant, stats_cell(p.c.old_median), stats_cell(p.c.new_median), fixed(p.c.ratio, 3) + "x",
                      p_cell(p.c.test.p_value), paint(verdict, p.c.verdict), note});
    rows.push_back({{"type", name_of(p.b->type)}, {"op", name_of(p.b->op)}, {"n", p.b->n}, {"cache", p.b->cache},
                    {"variant", p.b->variant}, {"old_launch", p.a->launch}, {"new_launch", p.b->launch},
                    {"old_median_us", p.c.old_median}, {"new_median_us", p.c.new_median}, {"ratio", p.c.ratio},
                    {"old_samples", p.a->report->timed.whole_us.samples.size()},
                    {"new_samples", p.b->report->timed.whole_us.samples.size()}, {"u", p.c.test.u},
                    {"p_value", p.c.test.p_value}, {"significant", p.c.significant}, {"below_min_effect", p.c.below_effect}, {"verdict", p.c.verdict},
                    {"regression", reg}});
  }
  if (format == Format::Json) {
    nlohmann::json j{{"kind", "compare"},
                     {"old", o.old_path},
                     {"new", o.new_path},
                     {"alpha", o.alpha},
                     {"min_effect_pct", o.min_effect},
                     {"test", "Mann-Whitney U, two-sided, normal approximation with tie and continuity corrections, "
                              "on the back-to-back samples"},
                     {"fail_on_regression_pct", o.fail_pct ? nlohmann::json(*o.fail_pct) : nlohmann::json()},
                     {"rows", rows},
                     {"only_old", only_old},
                     {"only_new", only_new},
                     {"not_compared", not_compared},
                     {"regression", regression},
                     {"meta", meta_json()}};
    std::cout << json_text(j);
  } else if (format == Format::Csv) {
    for (auto& row : t.rows) row[9] = pairs[static_cast<std::size_t>(&row - &t.rows[0])].c.verdict;
    std::cout << t.render_csv();
  } else {
    std::cout << "old: " << o.old_path << " (" << before.device.label() << ", " << before.doc.value("meta", nlohmann::json::object()).value("date", "no date") << ")\n"
              << "new: " << o.new_path << " (" << after.device.label() << ", " << after.doc.value("meta", nlohmann::json::object()).value("date", "no date") << ")\n"
              << "test: Mann-Whitney U on the back-to-back samples (two-sided, normal approximation with tie and "
                 "continuity corrections); significant where p < " << fixed(o.alpha, 3) << " and the medians "
                 "differ by at least " << fixed(o.min_effect, 1) << "% (--min-effect); medians in µs\n"
              << t.render_text();
    for (const auto& k : only_old) std::cout << "only in old: " << k << "\n";
    for (const auto& k : only_new) std::cout << "only in new: " << k << "\n";
    for (const auto& k : not_compared) std::cout << "not compared: " << k << "\n";
    if (regression) std::cout << "regression: at least one row is significantly slower by more than " << fixed(*o.fail_pct, 1) << "%\n";
  }
  return regression ? 1 : 0;
}
}  // namespace

void register_compare_command(Cli& cli) {
  auto o = std::make_shared<CompareTexts>();
  CLI::App* c = cli.add(
      "compare",
      "compare two saved runs (JSON of bench or bench --sizes): rows matched by type, operator, n, cache and "
      "variant; medians, their ratio and a Mann-Whitney U-test on the raw samples. No device needed",
      [o] { return compare(*o); });
  c->add_option("OLD", o->old_path, "the baseline run (JSON)")->required();
  c->add_option("NEW", o->new_path, "the run to judge (JSON)")->required();
  c->add_option("--alpha", o->alpha, "significance threshold of the p-value")->capture_default_str();
  c->add_option("--min-effect", o->min_effect,
                "PCT: a significant difference of the medians under this is reported as the same (two runs of one "
                "build drift by a few tenths of a percent, which the U-test alone calls significant)")
      ->capture_default_str();
  c->add_option("--fail-on-regression", o->fail_pct,
                "exit 1 when a row is significantly slower by more than PCT percent (for CI)");
  c->add_option("--format", o->format, "table, csv or json (colour on a terminal unless NO_COLOR is set)")
      ->capture_default_str();
}

}  // namespace clreduce::cli
