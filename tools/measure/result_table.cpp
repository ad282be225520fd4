// The result model (result_table.hpp).
#include "measure/result_table.hpp"

#include <stdexcept>

namespace clreduce {

void ResultTable::add_row() { rows.emplace_back(columns.size()); }

void ResultTable::set(const std::string& key, Cell value) {
  if (rows.empty()) throw std::logic_error("ResultTable::set('" + key + "') before add_row()");
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c].key == key) {
      rows.back()[c] = std::move(value);
      return;
    }
  throw std::logic_error("ResultTable::set: no column '" + key + "'");
}

}  // namespace clreduce
