// The generic printers (result_printer.hpp).
#include "printers/result_printer.hpp"

#include "printers/table.hpp"

#include <stdexcept>
#include <type_traits>

namespace clreduce {

using nlohmann::json;

namespace {
std::string header(const std::string& h, const std::string& bw) {
  const std::size_t at = h.find("$bw");
  return at == std::string::npos ? h : h.substr(0, at) + bw + h.substr(at + 3);
}

std::string text_cell(const ResultTable& t, const Column& c, const Cell& v) {
  if (std::holds_alternative<std::monostate>(v)) return t.empty_text;
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "yes" : "no";
  if (const auto* j = std::get_if<json>(&v)) return j->dump();
  const double x = std::get<double>(v);
  switch (c.unit) {
    case Unit::Micros: return stats_cell(x);
    case Unit::Bandwidth: return bandwidth_cell(x, c.decimals);
    case Unit::PctOfPeak: return pct_of_peak_cell(x, c.decimals);
    case Unit::Ratio: return fixed(x, c.decimals) + "x";
    case Unit::Percent: return fixed(x, c.decimals) + "%";
    default: return fixed(x, c.decimals);
  }
}

std::string csv_value(const Column& c, const Cell& v) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* u = std::get_if<std::uint64_t>(&v)) return std::to_string(*u);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* j = std::get_if<json>(&v)) return j->dump();
  const double x = c.unit == Unit::Bandwidth ? bandwidth_in_unit(std::get<double>(v)) : std::get<double>(v);
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

TextTable csv_table(const ResultTable& t) {
  TextTable out;
  const std::vector<std::size_t> cols =
      t.csv_text ? shown(t, t.text_order, &Column::text) : shown(t, t.csv_order, &Column::csv);
  for (std::size_t c : cols)
    out.headers.push_back(t.csv_text ? header(t.columns[c].text, bandwidth_label())
                                     : header(t.columns[c].csv, bandwidth_csv_label()));
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (std::size_t c : cols)
      cells.push_back(t.csv_text ? text_cell(t, t.columns[c], row[c]) : csv_value(t.columns[c], row[c]));
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

std::string render_text(const ResultTable& t) {
  std::string out;
  for (const std::string& line : t.preamble) out += line;
  TextTable table;
  const std::vector<std::size_t> cols = shown(t, t.text_order, &Column::text);
  for (std::size_t c : cols) table.headers.push_back(header(t.columns[c].text, bandwidth_label()));
  bool marked = false;
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (std::size_t c : cols) {
      const Column& col = t.columns[c];
      cells.push_back(text_cell(t, col, row[c]));
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

std::string render_csv(const ResultTable& t) { return csv_table(t).render_csv(); }

std::string render_csv_rows(const ResultTable& t) {
  const std::string all = render_csv(t);
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

}  // namespace clreduce
