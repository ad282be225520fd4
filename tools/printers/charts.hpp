// Charts of benchmark results as self-contained SVG: bars (GB/s per variant against the measured
// peak), line charts in side-by-side panels (time and GB/s against n) and heat maps (GB/s over
// two parameters).
//
// Every data point drawn is exactly one element with class="mark" (a bar <rect>, a point
// <circle>, a heat-map cell <rect>) whose first child is a <title> tooltip naming it, with
// data-label/data-value (bars), data-x/data-y (points) or data-x/data-y/data-value (cells). Nothing
// else carries that class: connecting lines have class="line", a heat map's cells without data
// class="empty" (a dash, and a tooltip ending in "no data"). Input with nothing to draw renders a
// valid SVG that says "no data". Text is escaped; numbers do not depend on the locale.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clreduce {

// Bars in the given order, each with its value above it; the y axis runs from 0 to 1.1 times
// the largest of the values and the reference. A value that is negative or not finite is drawn
// as a bar of height 0 (its tooltip shows the value); a reference that is negative or not finite
// is not drawn.
struct BarChart {
  std::string title, y_label;                        // y_label: "GB/s" or "bandwidth (GB/s)"
  std::vector<std::pair<std::string, double>> bars;  // label, value (>= 0)
  std::optional<double> reference;                   // a dashed horizontal line, e.g. the read peak
  std::string reference_label;                       // e.g. "read peak 3075 GB/s"
};

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), joined by a line in order of x
};

// A point that cannot be drawn is left out, with no mark: x or y not finite, and on a log axis
// x <= 0 (log_x) or y <= 0 (log_y). A series with one drawable point still gets its mark.
struct LineChart {
  std::string title, x_label, y_label;
  bool log_x = false, log_y = false;  // log10 axes
  std::vector<Series> series;
  std::optional<double> reference;  // a dashed horizontal line, as in BarChart (log_y: only > 0)
  std::string reference_label;
};

// Cells coloured from the smallest to the largest present value (viridis), the value printed in
// each cell where it fits, a colour legend; the cell with the largest value is outlined.
// A value that is not finite counts as no data.
struct HeatMap {
  std::string title, x_label, y_label, value_label;        // value_label: "GB/s"
  std::vector<std::string> x_values, y_values;              // column / row labels in order
  std::vector<std::vector<std::optional<double>>> cells;    // cells[y][x]; nullopt: no data
};

std::string render_svg(const BarChart& c);
std::string render_svg(const HeatMap& c);
// One or more line charts as panels side by side in one SVG, each with its own axes, and one
// legend below them (a series' colour follows its name, the same in every panel).
std::string render_svg(const std::vector<LineChart>& panels);

}  // namespace clreduce
