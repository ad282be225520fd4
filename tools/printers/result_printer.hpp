// The three generic printers of the result model (measure/result_table.hpp): any ResultTable as an
// aligned text table (numbers right-aligned), as CSV, or as a JSON document. Units are formatted
// here alone (printers/table.hpp's cells: stats_cell, bandwidth_cell, pct_of_peak_cell), in the
// bandwidth unit given for text and CSV (GB/s unless the command offers --units). Thread-safety:
// pure functions of their arguments.
#pragma once

#include "measure/result_table.hpp"
#include "printers/table.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace clreduce {

// The preamble, the table (empty cells as empty_text), kAbovePeakNote where a PctOfPeak cell is
// above 100 (unless peak_note is false), the lines `after`, each note after a '\n', then a final '\n'.
std::string render_text(const ResultTable& t, BandwidthUnit u = BandwidthUnit::GB);
// The header line and every row; csv_rows: the rows alone (for rows written as they are measured).
std::string render_csv(const ResultTable& t, BandwidthUnit u = BandwidthUnit::GB);
std::string render_csv_rows(const ResultTable& t, BandwidthUnit u = BandwidthUnit::GB);
// meta's keys and "rows": an array of one object a row (its cells at their columns' paths).
nlohmann::json render_json(const ResultTable& t);
// That array alone: a table nested in another's rows (a shape's rows inside the shape) is a Json cell
// of the outer table holding the inner one's rows.
nlohmann::json render_json_rows(const ResultTable& t);

// The schema marker of every JSON document the result model writes: a top-level
// "schema": {"name": "clreduce.<kind>", "version": kSchemaVersion}. Version 1 is the documents
// written before the marker (they carry none); the version grows when a key changes meaning or
// goes away (keys only added keep it). kind: bench, bench_sizes, sweep, bench_axis,
// bench_descriptors, bench_transpose, bench_access, bench_multi, reduce_segments, transpose,
// tune, tune_axis, tune_descriptors; and the one-run reports of `clreduce reduce` (no table):
// reduce, reduce_axis, reduce_descriptor.
inline constexpr int kSchemaVersion = 2;
nlohmann::json schema_json(const std::string& kind);
// `doc` with its "schema" marker.
nlohmann::json with_schema(nlohmann::json doc, const std::string& kind);

}  // namespace clreduce

namespace clreduce {

// A command's text and CSV output as result tables, so that a saved JSON document renders them again
// without knowing its kind: the text output is its parts in order (each a table as render_text
// writes it, less its closing '\n' where `chop`, or lines as they are), the CSV one table (or the
// table of text part csv_part).
struct TextPart {
  std::string lines;                // a part of lines (where no table)
  std::optional<ResultTable> table;
  bool chop = false;                // the table's text without render_text's closing '\n'
};
struct TableView {
  std::vector<TextPart> text;
  ResultTable csv;
  int csv_part = -1;  // >= 0: the CSV is that text part's table
};
std::string render_text(const TableView& v, BandwidthUnit u = BandwidthUnit::GB);
std::string render_csv(const TableView& v, BandwidthUnit u = BandwidthUnit::GB);
// The document's "table": {"text": [{"lines": ...} | {"table": T, "chop": bool}], "csv": T | {"part": i}},
// each T {"columns": [{"key", "json", "text", "csv", "unit", "decimals", "csv_decimals"}], "text_order",
// "csv_order", "preamble", "after", "notes", "empty_text", "peak_note", "csv_text", "cells": [[...]]}:
// the columns a format shows and their cells (null: empty; {"json": v}: a JSON cell; {"double": "nan"}:
// a number JSON has no literal for).
nlohmann::json table_json(const TableView& v);
// Back from that object; throws std::runtime_error naming the field that is wrong (its path under "table").
TableView table_view_of(const nlohmann::json& j);
// `doc` with its "schema" marker of `kind` and its "table".
nlohmann::json with_table(nlohmann::json doc, const std::string& kind, const TableView& v);

}  // namespace clreduce
