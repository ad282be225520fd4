// One result model for the benchmarks: a table whose columns are declared once (the key a row's
// cell is set by, its place in the JSON row, its headers in the terminal table and the CSV, its
// unit) and whose rows hold raw values, not text. printers/result_printer.hpp renders any such table
// as an aligned text table, CSV or JSON and chooses each unit's format in one place, so a benchmark
// declares its columns and fills its rows with no formatting code of its own.
// Thread-safety: a value type with no shared state.
#pragma once

#include <nlohmann/json.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace clreduce {

// How a cell's value is shown (the printers' one place for number formats):
enum class Unit {
  Text,       // a string, as it is
  Count,      // an integer (elements, bytes, groups)
  Number,     // a plain number: text with `decimals`
  Ratio,      // a speedup: text "1.23x"
  Micros,     // a time in µs: text with 2 decimals under 100 µs, else 1
  Bandwidth,  // GB/s: text and CSV in the unit the printer is given (--units), JSON in GB/s
  PctOfPeak,  // a % of a measured peak: text "87.3%", marked (with a note under the table) above 100
  Percent,    // any other percentage (of a copy's rate, a spread): text "87.3%", never marked
  Json,       // a JSON value (a stats object, the read peak): JSON only
};

// A column. `key` names it (in text_order and csv_order); `json` is its path in a row's JSON
// object ("a/b" nests b inside a; "" leaves it out of JSON; "*" merges a Json cell's object into
// the row: a report's shared keys); `text` and `csv` are its headers there ("" leaves it out). In a
// header, "$bw" stands for the bandwidth unit's label ("GB/s" in text, "GB_per_s" in CSV).
struct Column {
  std::string key;
  std::string json;
  std::string text;
  std::string csv;
  Unit unit = Unit::Text;
  int decimals = 1;       // Number, Ratio, Bandwidth, PctOfPeak and Percent in text
  int csv_decimals = -1;  // numbers in CSV: -1 as std::to_string writes them (6 decimals)
};

// A cell: nothing (text "-", CSV empty, left out of JSON), a string, an integer, a number, a flag
// or a JSON value.
using Cell = std::variant<std::monostate, std::string, std::uint64_t, double, bool, nlohmann::json>;

inline Cell u64(std::uint64_t x) { return x; }  // a count of any unsigned type as a cell

struct ResultTable {
  std::vector<std::string> preamble;  // text only: lines before the table (each ends with '\n')
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> after;  // text only: lines right under the table (each ends with '\n')
  std::vector<std::string> notes;  // text only: lines after those, each after a '\n'
  nlohmann::json meta = nlohmann::json::object();  // JSON only: the document's keys beside "rows"
  // Where the text table or the CSV orders its columns apart from the declaration: their keys in
  // that format's order (empty: the declared order of the columns with a header there).
  std::vector<std::string> text_order, csv_order;
  std::string empty_text = "-";  // text: an empty cell
  bool peak_note = true;         // text: kAbovePeakNote under a table with a marked cell (false: the caller's)
  // CSV: the text table's columns, headers and cells as text writes them (an output that predates the
  // model); the columns' CSV headers and csv_order are not used.
  bool csv_text = false;
};

// A column with the function that reads its cell off one of a benchmark's rows (of type R): a
// benchmark declares these and tabulate() fills the table.
template <class R>
struct ColumnOf {
  Column column;
  std::function<Cell(const R&)> cell;
};

// A cell read off what a row's member `part` points to, empty where it is null (a point that did
// not run has no report): when(&Line::report, [](const Report& r) { return r.gbps; }).
template <class R, class P, class F>
std::function<Cell(const R&)> when(const P* R::*part, F f) {
  return [part, f](const R& row) { return row.*part ? Cell(f(*(row.*part))) : Cell(); };
}

template <class R>
ResultTable tabulate(const std::vector<ColumnOf<R>>& columns, const std::vector<R>& rows) {
  ResultTable t;
  for (const ColumnOf<R>& c : columns) t.columns.push_back(c.column);
  for (const R& row : rows) {
    t.rows.emplace_back();
    for (const ColumnOf<R>& c : columns) t.rows.back().push_back(c.cell(row));
  }
  return t;
}

}  // namespace clreduce
