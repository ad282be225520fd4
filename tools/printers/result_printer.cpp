// The generic printers (result_printer.hpp).
#include "printers/result_printer.hpp"

#include "printers/table.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace clreduce {

using nlohmann::json;

namespace {
std::string header(const std::string& h, const std::string& bw) {
  const std::size_t at = h.find("$bw");
  return at == std::string::npos ? h : h.substr(0, at) + bw + h.substr(at + 3);
}

std::string text_cell(const ResultTable& t, const Column& c, const Cell& v, BandwidthUnit unit) {
  if (std::holds_alternative<std::monostate>(v)) return t.empty_text;
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
  if (const auto* j = std::get_if<json>(&v)) return j->dump();
  const double x = std::get<double>(v);
  switch (c.unit) {
    case Unit::Micros: return stats_cell(x);
    case Unit::Bandwidth: return bandwidth_cell(x, c.decimals, unit);
    case Unit::PctOfPeak: return pct_of_peak_cell(x, c.decimals);
    case Unit::Ratio: return fixed(x, c.decimals) + "x";
    case Unit::Percent: return fixed(x, c.decimals) + "%";
    default: return fixed(x, c.decimals);
  }
}

std::string csv_value(const Column& c, const Cell& v, BandwidthUnit unit) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* j = std::get_if<json>(&v)) return j->dump();
  const double x = c.unit == Unit::Bandwidth ? bandwidth_in_unit(std::get<double>(v), unit) : std::get<double>(v);
  return c.csv_decimals < 0 ? std::to_string(x) : fixed(x, c.csv_decimals);
}

// The indices of the columns a format shows, in its order: `order`'s keys, else the declared
// order of those with a header there.
std::vector<std::size_t> shown(const ResultTable& t, const std::vector<std::string>& order,
                               std::string Column::*header_of) {
  std::vector<std::size_t> out;
  if (order.empty()) {
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      if (!(t.columns[c].*header_of).empty()) out.push_back(c);
    return out;
  }
  for (const std::string& key : order) {
    std::size_t c = 0;
    while (c < t.columns.size() && t.columns[c].key != key) ++c;
    if (c == t.columns.size() || (t.columns[c].*header_of).empty())
      throw std::logic_error("result table: the order names '" + key + "', which no column of that format has");
    out.push_back(c);
  }
  return out;
}

TextTable csv_table(const ResultTable& t, BandwidthUnit u) {
  TextTable out;
  const std::vector<std::size_t> cols =
      t.csv_text ? shown(t, t.text_order, &Column::text) : shown(t, t.csv_order, &Column::csv);
  for (std::size_t c : cols)
    out.headers.push_back(t.csv_text ? header(t.columns[c].text, bandwidth_label(u))
                                     : header(t.columns[c].csv, bandwidth_csv_label(u)));
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (std::size_t c : cols)
      cells.push_back(t.csv_text ? text_cell(t, t.columns[c], row[c], u) : csv_value(t.columns[c], row[c], u));
    out.rows.push_back(std::move(cells));
  }
  return out;
}

void put(json& object, const std::string& path, json value) {
  const std::size_t slash = path.find('/');
  if (slash == std::string::npos) {
    json& at = object[path];
    if (at.is_object() && value.is_object()) at.update(value);  // "a/b" cells and an object at "a" meet
    else at = std::move(value);
    return;
  }
  put(object[path.substr(0, slash)], path.substr(slash + 1), std::move(value));
}
}  // namespace

std::string render_text(const ResultTable& t, BandwidthUnit u) {
  std::string out;
  for (const std::string& line : t.preamble) out += line;
  TextTable table;
  const std::vector<std::size_t> cols = shown(t, t.text_order, &Column::text);
  for (std::size_t c : cols) table.headers.push_back(header(t.columns[c].text, bandwidth_label(u)));
  bool marked = false;
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (std::size_t c : cols) {
      const Column& col = t.columns[c];
      cells.push_back(text_cell(t, col, row[c], u));
      if (col.unit == Unit::PctOfPeak)
        if (const auto* x = std::get_if<double>(&row[c])) marked = marked || above_peak(*x);
    }
    table.rows.push_back(std::move(cells));
  }
  out += table.render_text();
  if (marked && t.peak_note) out += kAbovePeakNote;
  for (const std::string& line : t.after) out += line;
  for (const std::string& note : t.notes) out += "\n" + note;
  return out + "\n";
}

std::string render_csv(const ResultTable& t, BandwidthUnit u) { return csv_table(t, u).render_csv(); }

std::string render_csv_rows(const ResultTable& t, BandwidthUnit u) {
  const std::string all = render_csv(t, u);
  return all.substr(all.find('\n') + 1);
}

json render_json(const ResultTable& t) {
  json doc = t.meta;
  doc["rows"] = render_json_rows(t);
  return doc;
}

json render_json_rows(const ResultTable& t) {
  json rows = json::array();
  for (const auto& row : t.rows) {
    json j = json::object();
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      const Column& col = t.columns[c];
      const Cell& v = row[c];
      if (col.json.empty() || std::holds_alternative<std::monostate>(v)) continue;
      if (col.json == "*") {
        if (const auto* o = std::get_if<json>(&v)) j.update(*o);
        continue;
      }
      std::visit(
          [&](const auto& x) {
            if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, std::monostate>) put(j, col.json, json(x));
          },
          v);
    }
    rows.push_back(std::move(j));
  }
  return rows;
}

json schema_json(const std::string& kind) {
  return json{{"name", "clreduce." + kind}, {"version", kSchemaVersion}};
}

json with_schema(json doc, const std::string& kind) {
  doc["schema"] = schema_json(kind);
  return doc;
}

std::string render_text(const TableView& v, BandwidthUnit u) {
  std::string out;
  for (const TextPart& p : v.text) {
    if (!p.table) {
      out += p.lines;
      continue;
    }
    std::string t = render_text(*p.table, u);
    if (p.chop) t.pop_back();
    out += t;
  }
  return out;
}

std::string render_csv(const TableView& v, BandwidthUnit u) {
  if (v.csv_part < 0) return render_csv(v.csv, u);
  const TextPart& p = v.text.at(static_cast<std::size_t>(v.csv_part));
  if (!p.table) throw std::logic_error("table view: the CSV's part is no table");
  return render_csv(*p.table, u);
}

namespace {
const char* const kUnits[] = {"text", "count", "number", "ratio", "micros", "bandwidth", "pct_of_peak", "percent", "json"};
constexpr std::size_t kUnitCount = sizeof kUnits / sizeof kUnits[0];

json cell_json(const Cell& v) {
  if (std::holds_alternative<std::monostate>(v)) return nullptr;
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return *u;
  if (const auto* b = std::get_if<bool>(&v)) return *b;
  if (const auto* j = std::get_if<json>(&v)) return json{{"json", *j}};
  const double x = std::get<double>(v);
  if (std::isfinite(x)) return x;
  return json{{"double", std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf"}};
}

// The table as one format shows it: the columns with a header there (text or CSV) and their cells.
json one_table_json(const ResultTable& t) {
  std::vector<std::size_t> keep;
  for (std::size_t c = 0; c < t.columns.size(); ++c)
    if (!t.columns[c].text.empty() || !t.columns[c].csv.empty()) keep.push_back(c);
  json columns = json::array();
  for (std::size_t c : keep) {
    const Column& col = t.columns[c];
    columns.push_back({{"key", col.key}, {"json", col.json}, {"text", col.text}, {"csv", col.csv},
                       {"unit", kUnits[static_cast<std::size_t>(col.unit)]}, {"decimals", col.decimals},
                       {"csv_decimals", col.csv_decimals}});
  }
  json cells = json::array();
  for (const auto& row : t.rows) {
    json r = json::array();
    for (std::size_t c : keep) r.push_back(cell_json(row[c]));
    cells.push_back(std::move(r));
  }
  return json{{"columns", columns}, {"text_order", t.text_order}, {"csv_order", t.csv_order}, {"preamble", t.preamble},
              {"after", t.after}, {"notes", t.notes}, {"empty_text", t.empty_text}, {"peak_note", t.peak_note},
              {"csv_text", t.csv_text}, {"cells", cells}};
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::runtime_error("table" + where + ": " + what);
}

const json& field(const json& j, const std::string& key, const std::string& where) {
  if (!j.is_object()) bad(where, "not an object");
  const auto it = j.find(key);
  if (it == j.end()) bad(where, "no field \"" + key + "\"");
  return *it;
}

std::string text_of(const json& j, const std::string& key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_string()) bad(where + "." + key, "not a string");
  return v.get<std::string>();
}

bool flag_of(const json& j, const std::string& key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_boolean()) bad(where + "." + key, "not true or false");
  return v.get<bool>();
}

int int_of(const json& j, const std::string& key, const std::string& where, int lo, int hi) {
  const json& v = field(j, key, where);
  if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
    bad(where + "." + key, "not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(v.get<std::int64_t>());
}

std::vector<std::string> texts_of(const json& j, const std::string& key, const std::string& where) {
  const json& v = field(j, key, where);
  if (!v.is_array()) bad(where + "." + key, "not an array");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) bad(where + "." + key + "[" + std::to_string(i) + "]", "not a string");
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

Cell cell_of(const json& j, const std::string& where) {
  if (j.is_null()) return {};
  if (j.is_string()) return j.get<std::string>();
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_float()) return j.get<double>();
  if (j.is_object() && j.size() == 1 && j.contains("json")) return j["json"];
  if (j.is_object() && j.size() == 1 && j.contains("double") && j["double"].is_string()) {
    const std::string x = j["double"].get<std::string>();
    if (x == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (x == "inf") return std::numeric_limits<double>::infinity();
    if (x == "-inf") return -std::numeric_limits<double>::infinity();
  }
  bad(where, "not a cell (null, a string, true/false, a count, a number, {\"json\": ...} or {\"double\": \"nan\"})");
}

ResultTable one_table_of(const json& j, const std::string& where) {
  ResultTable t;
  const json& columns = field(j, "columns", where);
  if (!columns.is_array()) bad(where + ".columns", "not an array");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string at = where + ".columns[" + std::to_string(c) + "]";
    const json& col = columns[c];
    Column out;
    out.key = text_of(col, "key", at);
    out.json = text_of(col, "json", at);
    out.text = text_of(col, "text", at);
    out.csv = text_of(col, "csv", at);
    const std::string unit = text_of(col, "unit", at);
    std::size_t u = 0;
    while (u < kUnitCount && unit != kUnits[u]) ++u;
    if (u == kUnitCount) bad(at + ".unit", "unknown unit '" + unit + "'");
    out.unit = static_cast<Unit>(u);
    out.decimals = int_of(col, "decimals", at, 0, 17);
    out.csv_decimals = int_of(col, "csv_decimals", at, -1, 17);
    t.columns.push_back(std::move(out));
  }
  t.text_order = texts_of(j, "text_order", where);
  t.csv_order = texts_of(j, "csv_order", where);
  t.preamble = texts_of(j, "preamble", where);
  t.after = texts_of(j, "after", where);
  t.notes = texts_of(j, "notes", where);
  t.empty_text = text_of(j, "empty_text", where);
  t.peak_note = flag_of(j, "peak_note", where);
  t.csv_text = flag_of(j, "csv_text", where);
  // Every key an order names is a column with a header in that format (the printers' own check).
  const auto check_order = [&](const std::vector<std::string>& order, std::string Column::*header_of, const char* name) {
    for (const std::string& key : order) {
      bool found = false;
      for (const Column& c : t.columns) found = found || (c.key == key && !(c.*header_of).empty());
      if (!found) bad(where + "." + name, "names '" + key + "', which no column with a header there has");
    }
  };
  check_order(t.text_order, &Column::text, "text_order");
  check_order(t.csv_order, &Column::csv, "csv_order");
  const json& cells = field(j, "cells", where);
  if (!cells.is_array()) bad(where + ".cells", "not an array");
  for (std::size_t r = 0; r < cells.size(); ++r) {
    const std::string at = where + ".cells[" + std::to_string(r) + "]";
    if (!cells[r].is_array() || cells[r].size() != t.columns.size())
      bad(at, "not an array of " + std::to_string(t.columns.size()) + " cells");
    std::vector<Cell> row;
    for (std::size_t c = 0; c < cells[r].size(); ++c) row.push_back(cell_of(cells[r][c], at + "[" + std::to_string(c) + "]"));
    t.rows.push_back(std::move(row));
  }
  return t;
}
}  // namespace

json table_json(const TableView& v) {
  json text = json::array();
  for (const TextPart& p : v.text)
    text.push_back(p.table ? json{{"table", one_table_json(*p.table)}, {"chop", p.chop}} : json{{"lines", p.lines}});
  return json{{"text", text}, {"csv", v.csv_part >= 0 ? json{{"part", v.csv_part}} : one_table_json(v.csv)}};
}

TableView table_view_of(const json& j) {
  TableView v;
  const json& text = field(j, "text", "");
  if (!text.is_array()) bad(".text", "not an array");
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string at = ".text[" + std::to_string(i) + "]";
    const json& p = text[i];
    TextPart part;
    if (p.is_object() && p.contains("lines")) {
      part.lines = text_of(p, "lines", at);
    } else {
      part.table = one_table_of(field(p, "table", at), at + ".table");
      part.chop = flag_of(p, "chop", at);
    }
    v.text.push_back(std::move(part));
  }
  const json& csv = field(j, "csv", "");
  if (csv.is_object() && csv.contains("part")) {
    v.csv_part = int_of(csv, "part", ".csv", 0, static_cast<int>(v.text.size()) - 1);
    if (!v.text[static_cast<std::size_t>(v.csv_part)].table) bad(".csv.part", "names a part that is no table");
  } else {
    v.csv = one_table_of(csv, ".csv");
  }
  return v;
}

json with_table(json doc, const std::string& kind, const TableView& v) {
  doc["table"] = table_json(v);
  return with_schema(std::move(doc), kind);
}

}  // namespace clreduce
