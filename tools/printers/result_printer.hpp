// The three generic printers of the result model (measure/result_table.hpp): any ResultTable as an
// aligned text table (numbers right-aligned), as CSV, or as a JSON document. Units are formatted
// here alone (printers/table.hpp's cells: stats_cell, bandwidth_cell, pct_of_peak_cell), in the
// process's bandwidth unit for text and CSV. Thread-safety: reads the process's bandwidth unit.
#pragma once

#include "measure/result_table.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace clreduce {

// The preamble, the table (empty cells as empty_text), kAbovePeakNote where a PctOfPeak cell is
// above 100 (unless peak_note is false), the lines `after`, each note after a '\n', then a final '\n'.
std::string render_text(const ResultTable& t);
// The header line and every row; csv_rows: the rows alone (for rows written as they are measured).
std::string render_csv(const ResultTable& t);
std::string render_csv_rows(const ResultTable& t);
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
// tune, tune_axis, tune_descriptors.
inline constexpr int kSchemaVersion = 2;
nlohmann::json schema_json(const std::string& kind);
// `doc` with its "schema" marker.
nlohmann::json with_schema(nlohmann::json doc, const std::string& kind);

}  // namespace clreduce
