// Bar charts, line-chart panels and heat maps drawn with SvgWriter: scales with nice ticks,
// layout, marks with tooltips, legends; and writing a chart to a file.
#include "printers/charts.hpp"

#include "clreduce/error.hpp"
#include "printers/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace clreduce {

namespace {

constexpr double kWidth = 900;
constexpr double kTitleFont = 16;
constexpr double kLabelFont = 13;  // axis labels
constexpr double kTickFont = 12;   // tick labels, legend
constexpr double kSmallFont = 11;  // values on bars and in cells
const char* const kInk = "#222222";
const char* const kAxisInk = "#666666";
const char* const kGridInk = "#e5e5e5";
const char* const kReferenceInk = "#444444";
const char* const kBarFill = "#4c78a8";
const char* const kEmptyFill = "#f2f2f2";
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr std::size_t kPaletteSize = sizeof kPalette / sizeof kPalette[0];

double dbl(std::size_t n) { return static_cast<double>(n); }
std::string num(double x) { return svg_number(x); }
std::string data_number(double x) { return format_significant(x, 15); }

// ---- text ----

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// A sans-serif estimate: 0.6 em per character.
double text_width(const std::string& s, double font) { return dbl(code_points(s)) * font * 0.6; }

// At most max_points code points, the last one "…" when cut.
std::string shorten(const std::string& s, std::size_t max_points) {
  if (code_points(s) <= max_points) return s;
  std::string out;
  std::size_t points = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80 && ++points == max_points) break;
    out += static_cast<char>(c);
  }
  return out + "\xE2\x80\xA6";
}

// "bandwidth (GB/s)" -> "GB/s"; a label without a trailing unit in parentheses is its own unit.
std::string unit_of(const std::string& label) {
  const std::size_t open = label.rfind('(');
  if (!label.empty() && label.back() == ')' && open != std::string::npos)
    return label.substr(open + 1, label.size() - open - 2);
  return label;
}

// "n (elements)" -> "n"; `fallback` for an empty label.
std::string name_of(const std::string& label, const std::string& fallback) {
  std::string name = label;
  const std::size_t open = label.rfind(" (");
  if (!label.empty() && label.back() == ')' && open != std::string::npos && open > 0)
    name = label.substr(0, open);
  return name.empty() ? fallback : name;
}

// Tooltips and bar labels: integers exactly, 1 decimal from 100 on, else 4 significant digits.
std::string value_text(double v) {
  if (!std::isfinite(v)) return format_significant(v, 3);
  if (v == 0) return "0";
  const double a = std::fabs(v);
  if (a >= 1e15) return format_significant(v, 4);
  if (v == std::floor(v)) return format_fixed(v, 0);
  if (a >= 100) return format_fixed(v, 1);
  return format_significant(v, 4);
}

std::string with_unit(const std::string& value, const std::string& unit) {
  return unit.empty() ? value : value + " " + unit;
}

const char* const kSiSuffixes[] = {"", "K", "M", "G", "T", "P", "E"};

// 1K = 1000, as sizes on the command line: "1K", "1.05M", "2G".
std::string si_text(double v, int digits) {
  double a = std::fabs(v);
  const double rounds_to_1000 = 1000 - 0.5 * std::pow(10.0, 3 - digits);
  int k = 0;
  while (a >= rounds_to_1000 && k < 6) {
    a /= 1000;
    v /= 1000;
    ++k;
  }
  return format_significant(v, digits) + kSiSuffixes[k];
}

// "2e-5", "1e-7".
std::string exponent_text(double v) {
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(v)) + 1e-9));
  return format_significant(v / std::pow(10.0, e), 2) + "e" + std::to_string(e);
}

// Cells: at most 4 characters or so: "2931", "45.2", "0.123", "1.05M".
std::string compact_text(double v) {
  const double a = std::fabs(v);
  if (v == 0) return "0";
  if (a >= 1e4) return si_text(v, 3);
  if (a >= 100) return format_fixed(v, 0);
  if (a >= 10) return format_fixed(v, 1);
  if (a < 1e-3) return exponent_text(v);
  return format_significant(v, 3);
}

// ---- scales ----

// A 1-2-5 step giving about `target` intervals over span; 0 when there is none.
double nice_step(double span, int target) {
  if (!(span > 0) || !std::isfinite(span)) return 0;
  const double raw = span / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  if (!(magnitude > 0) || !std::isfinite(magnitude)) return 0;
  const double m = raw / magnitude;
  return (m < 1.5 ? 1 : m < 3 ? 2 : m < 7 ? 5 : 10) * magnitude;
}

// The multiples of step within [lo, hi]; none when there would be more than 100.
std::vector<double> multiples_within(double lo, double hi, double step) {
  std::vector<double> out;
  if (!(step > 0) || !std::isfinite(step) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  const double first = std::ceil(lo / step - 1e-9);
  const double count = std::floor(hi / step + 1e-9) - first;
  if (!(count >= 0) || count > 100) return out;
  for (int i = 0; i <= static_cast<int>(count); ++i) {
    double t = (first + i) * step;
    if (std::fabs(t) < step * 1e-9) t = 0;
    out.push_back(t);
  }
  return out;
}

// Linear tick labels with one SI unit for the whole axis from 10^4 on ("0.2M", "1.4M").
std::vector<std::string> linear_tick_texts(const std::vector<double>& ticks, double step) {
  double largest = 0;
  for (double t : ticks) largest = std::max(largest, std::fabs(t));
  double unit = 1;
  int k = 0;
  if (largest >= 1e4)
    while (largest / unit >= 1000 && k < 6) {
      unit *= 1000;
      ++k;
    }
  const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(step / unit) + 1e-9)), 0, 12);
  std::vector<std::string> out;
  for (double t : ticks) out.push_back(t == 0 ? "0" : svg_number(t / unit, decimals) + kSiSuffixes[k]);
  return out;
}

// Log tick labels: "0.01", "500", "10K", "1M", "1e-5".
std::string log_tick_text(double v) {
  const double a = std::fabs(v);
  if (a >= 1e4) return si_text(v, 3);
  if (a < 1e-3) return exponent_text(v);
  return format_significant(v, 6);
}

// A data axis mapped to pixels, linear or log10 (lo and hi then hold log10 of the ends).
struct Scale {
  bool log = false;
  double lo = 0, hi = 1;
  double px_lo = 0, px_hi = 1;  // the pixels of lo and hi
  std::vector<double> ticks;    // data values
  std::vector<std::string> tick_texts;

  double operator()(double v) const {
    const double t = log ? std::log10(v) : v;
    const double span = hi - lo;
    const double f = span > 0 && std::isfinite(span) ? (t - lo) / span : 0.5;
    return px_lo + f * (px_hi - px_lo);
  }
};

// Nice ends around [mn, mx] (0 included when asked), 1-2-5 ticks.
Scale linear_scale(double mn, double mx, bool include_zero) {
  if (include_zero) {
    mn = std::min(mn, 0.0);
    mx = std::max(mx, 0.0);
  }
  if (!(mx > mn)) {  // a single value
    const double pad = mn == 0 ? 1 : std::fabs(mn) * 0.1;
    if (!(include_zero && mn == 0)) mn -= pad;
    mx += pad;
  }
  Scale s;
  s.lo = mn;
  s.hi = mx;
  const double step = nice_step(mx - mn, 5);
  if (step > 0) {
    s.lo = std::floor(mn / step) * step;
    s.hi = std::ceil(mx / step) * step;
    s.ticks = multiples_within(s.lo, s.hi, step);
    s.tick_texts = linear_tick_texts(s.ticks, step);
  }
  return s;
}

// Log10 axis over [mn, mx] (both > 0) with a little room: ticks at powers of 10 (every k-th over
// many decades, with 2 and 5 between them over few); 1-2-5 steps within less than a decade.
Scale log_scale(double mn, double mx) {
  Scale s;
  s.log = true;
  double lo = std::log10(mn), hi = std::log10(mx);
  if (!(hi - lo > 1e-9)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = 0.04 * (hi - lo);
  s.lo = lo - pad;
  s.hi = hi + pad;
  const double decades = s.hi - s.lo;
  const int every = decades > 10 ? static_cast<int>(std::ceil(decades / 8)) : 1;
  const std::vector<double> mantissas = decades <= 2.5 ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
  for (int e = static_cast<int>(std::floor(s.lo)); e <= static_cast<int>(std::ceil(s.hi)); ++e) {
    if (e % every != 0) continue;
    for (double m : mantissas) {
      const double v = m * std::pow(10.0, e);
      const double lv = std::log10(v);
      if (v > 0 && std::isfinite(v) && lv >= s.lo - 1e-9 && lv <= s.hi + 1e-9) s.ticks.push_back(v);
    }
  }
  if (s.ticks.size() < 2) {
    const double a = std::pow(10.0, s.lo), b = std::pow(10.0, s.hi);
    s.ticks.clear();
    for (double t : multiples_within(a, b, nice_step(b - a, 4)))
      if (t > 0) s.ticks.push_back(t);
  }
  for (double t : s.ticks) s.tick_texts.push_back(log_tick_text(t));
  return s;
}

double widest(const std::vector<std::string>& texts, double font) {
  double w = 0;
  for (const auto& t : texts) w = std::max(w, text_width(t, font));
  return w;
}

// ---- drawing ----

struct Box {
  double left, top, right, bottom;
  double mid_x() const { return (left + right) / 2; }
  double mid_y() const { return (top + bottom) / 2; }
};

void label(SvgWriter& w, const std::string& text, double x, double y, const char* anchor, double font,
           const SvgAttrs& extra = {}) {
  SvgAttrs a{{"x", num(x)}, {"y", num(y)}, {"text-anchor", anchor}, {"font-size", num(font)}, {"fill", kInk}};
  for (const auto& attr : extra) {
    auto same = std::find_if(a.begin(), a.end(), [&](const auto& p) { return p.first == attr.first; });
    if (same != a.end())
      same->second = attr.second;
    else
      a.push_back(attr);
  }
  w.text("text", a, text);
}

std::string rotate(double degrees, double x, double y) {
  return "rotate(" + num(degrees) + " " + num(x) + " " + num(y) + ")";
}

// A bold title centred at x within `room` pixels: a long one gets a smaller font (down to 11),
// then is cut.
void title_label(SvgWriter& w, const std::string& title, double x, double y, double room, double font) {
  while (font > 11 && text_width(title, font) > room) font -= 1;
  const auto fits = static_cast<std::size_t>(std::max(8.0, room / (font * 0.6)));
  label(w, shorten(title, fits), x, y, "middle", font, {{"class", "title"}, {"font-weight", "bold"}});
}

// The document: white background, sans-serif, a hover outline on marks, the title on top
// (shown, or only the document's <title>).
SvgWriter start_document(double width, double height, const std::string& title, bool show_title = true) {
  SvgWriter w(width, height, {{"font-family", "sans-serif"}, {"font-size", num(kTickFont)}});
  if (!title.empty()) w.text("title", {}, title);
  w.text("style", {}, ".mark:hover{stroke:#000;stroke-width:2px}");
  w.leaf("rect", {{"class", "background"}, {"width", "100%"}, {"height", "100%"}, {"fill", "white"}});
  if (show_title && !title.empty()) title_label(w, title, width / 2, 30, width - 16, kTitleFont);
  return w;
}

void no_data_text(SvgWriter& w, double x, double y) {
  label(w, "no data", x, y, "middle", kTitleFont, {{"class", "no-data"}, {"fill", "#888888"}});
}

std::string no_data_svg(const std::string& title) {
  SvgWriter w = start_document(kWidth, 200, title);
  no_data_text(w, kWidth / 2, 110);
  return w.str();
}

// Grid lines across the plot with tick labels left of it, the axis line, the axis label upright.
void draw_y_axis(SvgWriter& w, const Scale& s, const Box& plot, const std::string& axis_label, double label_x) {
  for (std::size_t i = 0; i < s.ticks.size(); ++i) {
    const double y = s(s.ticks[i]);
    if (!(y >= plot.top - 0.5 && y <= plot.bottom + 0.5)) continue;
    w.leaf("line", {{"class", "grid"}, {"x1", num(plot.left)}, {"x2", num(plot.right)}, {"y1", num(y)},
                    {"y2", num(y)}, {"stroke", kGridInk}});
    label(w, s.tick_texts[i], plot.left - 6, y + 4, "end", kTickFont, {{"fill", kAxisInk}});
  }
  w.leaf("line", {{"class", "axis"}, {"x1", num(plot.left)}, {"x2", num(plot.left)}, {"y1", num(plot.top)},
                  {"y2", num(plot.bottom)}, {"stroke", kAxisInk}});
  if (!axis_label.empty())
    label(w, axis_label, label_x, plot.mid_y(), "middle", kLabelFont,
          {{"class", "axis-label"}, {"transform", rotate(-90, label_x, plot.mid_y())}});
}

// Grid lines up the plot with tick labels below it (every k-th where they would overlap), the
// axis line, the axis label.
void draw_x_axis(SvgWriter& w, const Scale& s, const Box& plot, const std::string& axis_label) {
  double closest = plot.right - plot.left;
  for (std::size_t i = 1; i < s.ticks.size(); ++i)
    closest = std::min(closest, std::fabs(s(s.ticks[i]) - s(s.ticks[i - 1])));
  const double needed = widest(s.tick_texts, kTickFont) + 8;
  const std::size_t every =
      closest > 0 && needed > closest ? static_cast<std::size_t>(std::ceil(needed / closest)) : 1;
  for (std::size_t i = 0; i < s.ticks.size(); ++i) {
    const double x = s(s.ticks[i]);
    if (!(x >= plot.left - 0.5 && x <= plot.right + 0.5)) continue;
    w.leaf("line", {{"class", "grid"}, {"x1", num(x)}, {"x2", num(x)}, {"y1", num(plot.top)},
                    {"y2", num(plot.bottom)}, {"stroke", kGridInk}});
    if (i % every == 0) label(w, s.tick_texts[i], x, plot.bottom + 17, "middle", kTickFont, {{"fill", kAxisInk}});
  }
  w.leaf("line", {{"class", "axis"}, {"x1", num(plot.left)}, {"x2", num(plot.right)}, {"y1", num(plot.bottom)},
                  {"y2", num(plot.bottom)}, {"stroke", kAxisInk}});
  if (!axis_label.empty())
    label(w, axis_label, plot.mid_x(), plot.bottom + 38, "middle", kLabelFont, {{"class", "axis-label"}});
}

// A dashed horizontal line across the plot with its label at the right end above it.
void draw_reference(SvgWriter& w, const Box& plot, double y, const std::string& text) {
  w.leaf("line", {{"class", "reference"}, {"x1", num(plot.left)}, {"x2", num(plot.right)}, {"y1", num(y)},
                  {"y2", num(y)}, {"stroke", kReferenceInk}, {"stroke-width", "1.5"}, {"stroke-dasharray", "6 4"}});
  label(w, text, plot.right - 4, y - 6, "end", kTickFont,
        {{"class", "reference-label"}, {"fill", kReferenceInk}, {"stroke", "white"}, {"stroke-width", "3"},
         {"paint-order", "stroke"}});
}

// Labels under slots of `slot` pixels: horizontal when the widest fits, else turned 45 degrees
// (shortened to 24 characters), and then every k-th where even those would overlap.
struct SlotLabels {
  std::vector<std::string> texts;
  bool turned = false;
  std::size_t every = 1;
  double height = 0;         // below the plot
  double overhang_left = 0;  // how far the first turned label reaches left of its slot's centre
};

SlotLabels slot_labels(const std::vector<std::string>& raw, double slot) {
  SlotLabels l;
  l.texts = raw;
  if (widest(l.texts, kTickFont) <= slot - 6) {
    l.height = kTickFont + 8;
    return l;
  }
  l.turned = true;
  for (auto& t : l.texts) t = shorten(t, 24);
  const double w = widest(l.texts, kTickFont);
  l.every = slot >= kTickFont * 1.4 ? 1 : static_cast<std::size_t>(std::ceil(kTickFont * 1.4 / std::max(slot, 0.01)));
  l.height = w * 0.7072 + kTickFont + 4;
  l.overhang_left = w * 0.7072 + 4;
  return l;
}

void draw_slot_labels(SvgWriter& w, const SlotLabels& l, double x0, double slot, double y) {
  for (std::size_t i = 0; i < l.texts.size(); i += l.every) {
    const double cx = x0 + (dbl(i) + 0.5) * slot;
    if (!l.turned) {
      label(w, l.texts[i], cx, y + kTickFont + 3, "middle", kTickFont);
    } else {
      const double ax = cx + 4, ay = y + kTickFont;
      label(w, l.texts[i], ax, ay, "end", kTickFont, {{"transform", rotate(-45, ax, ay)}});
    }
  }
}

}  // namespace

// ---- bar chart ----

std::string render_svg(const BarChart& c) {
  if (c.bars.empty()) return no_data_svg(c.title);
  double top_value = 0;
  for (const auto& bar : c.bars)
    if (std::isfinite(bar.second)) top_value = std::max(top_value, bar.second);
  const bool has_reference = c.reference && std::isfinite(*c.reference) && *c.reference >= 0;
  if (has_reference) top_value = std::max(top_value, *c.reference);
  double top = top_value * 1.1;
  if (!std::isfinite(top)) top = top_value;
  if (!(top > 0)) top = 1;

  Scale ys;
  ys.lo = 0;
  ys.hi = top;
  const double step = nice_step(top, 5);
  ys.ticks = multiples_within(0, top, step);
  ys.tick_texts = linear_tick_texts(ys.ticks, step);

  const std::size_t n = c.bars.size();
  Box plot{std::max(60.0, 30 + widest(ys.tick_texts, kTickFont) + 10), 60, kWidth - 20, 60 + 360};
  std::vector<std::string> names;
  for (const auto& bar : c.bars) names.push_back(bar.first);
  double slot = (plot.right - plot.left) / dbl(n);
  SlotLabels names_below = slot_labels(names, slot);
  if (names_below.turned && plot.left + slot / 2 - names_below.overhang_left < 4) {
    plot.left = std::min(kWidth / 2, names_below.overhang_left - slot / 2 + 4);
    slot = (plot.right - plot.left) / dbl(n);
  }
  const double height = plot.bottom + names_below.height + 16;
  ys.px_lo = plot.bottom;
  ys.px_hi = plot.top;

  SvgWriter w = start_document(kWidth, height, c.title);
  draw_y_axis(w, ys, plot, c.y_label, 20);
  const std::string unit = unit_of(c.y_label);
  const double bar_width = std::min(slot * 0.7, 80.0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [name, value] = c.bars[i];
    const double drawn = std::isfinite(value) && value > 0 ? value : 0;
    const double cx = plot.left + (dbl(i) + 0.5) * slot;
    const double y = ys(drawn);
    w.open("rect", {{"class", "mark"}, {"x", num(cx - bar_width / 2)}, {"y", num(y)}, {"width", num(bar_width)},
                    {"height", num(plot.bottom - y)}, {"fill", kBarFill}, {"data-label", name},
                    {"data-value", data_number(value)}});
    w.text("title", {}, name + ": " + with_unit(value_text(value), unit));
    w.close();
    const std::string text = value_text(value);
    if (text_width(text, kSmallFont) <= slot - 2)
      label(w, text, cx, y - 5, "middle", kSmallFont, {{"class", "value"}, {"pointer-events", "none"}});
    else
      label(w, text, cx + 4, y - 6, "start", kSmallFont,
            {{"class", "value"}, {"pointer-events", "none"}, {"transform", rotate(-90, cx + 4, y - 6)}});
  }
  w.leaf("line", {{"class", "axis"}, {"x1", num(plot.left)}, {"x2", num(plot.right)}, {"y1", num(plot.bottom)},
                  {"y2", num(plot.bottom)}, {"stroke", kAxisInk}});
  draw_slot_labels(w, names_below, plot.left, slot, plot.bottom);
  if (has_reference)
    draw_reference(w, plot, ys(*c.reference),
                   c.reference_label.empty() ? with_unit(value_text(*c.reference), unit) : c.reference_label);
  return w.str();
}

// ---- line charts ----

namespace {

std::vector<std::pair<double, double>> drawable_points(const Series& s, const LineChart& c) {
  std::vector<std::pair<double, double>> out;
  for (const auto& [x, y] : s.points)
    if (std::isfinite(x) && std::isfinite(y) && (!c.log_x || x > 0) && (!c.log_y || y > 0)) out.emplace_back(x, y);
  return out;
}

const char* colour_of(const std::string& series, const std::vector<std::string>& names) {
  const auto at = std::find(names.begin(), names.end(), series) - names.begin();
  return kPalette[static_cast<std::size_t>(at) % kPaletteSize];
}

void draw_line_panel(SvgWriter& w, const LineChart& c, const Box& area, const std::vector<std::string>& names) {
  if (!c.title.empty())
    title_label(w, c.title, area.mid_x(), area.top + 24, area.right - area.left - 16, kTitleFont - 1);
  std::vector<std::vector<std::pair<double, double>>> points;
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  for (const auto& s : c.series) {
    points.push_back(drawable_points(s, c));
    for (const auto& [x, y] : points.back()) {
      x_min = std::min(x_min, x);
      x_max = std::max(x_max, x);
      y_min = std::min(y_min, y);
      y_max = std::max(y_max, y);
    }
  }
  if (!(x_min <= x_max)) {
    no_data_text(w, area.mid_x(), area.mid_y());
    return;
  }
  const bool has_reference = c.reference && std::isfinite(*c.reference) && (!c.log_y || *c.reference > 0);
  if (has_reference) {
    y_min = std::min(y_min, *c.reference);
    y_max = std::max(y_max, *c.reference);
  }
  Scale xs = c.log_x ? log_scale(x_min, x_max) : linear_scale(x_min, x_max, false);
  Scale ys = c.log_y ? log_scale(y_min, y_max) : linear_scale(y_min, y_max, y_min >= 0);
  const Box plot{area.left + 30 + widest(ys.tick_texts, kTickFont) + 10, area.top + 44, area.right - 24,
                 area.bottom - 50};
  xs.px_lo = plot.left;
  xs.px_hi = plot.right;
  ys.px_lo = plot.bottom;
  ys.px_hi = plot.top;
  draw_y_axis(w, ys, plot, c.y_label, area.left + 16);
  draw_x_axis(w, xs, plot, c.x_label);
  if (has_reference)
    draw_reference(w, plot, ys(*c.reference),
                   c.reference_label.empty() ? with_unit(value_text(*c.reference), unit_of(c.y_label))
                                             : c.reference_label);

  const std::string x_name = name_of(c.x_label, "x");
  const std::string unit = unit_of(c.y_label);
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const char* colour = colour_of(c.series[i].name, names);
    auto in_x_order = points[i];
    std::stable_sort(in_x_order.begin(), in_x_order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    if (in_x_order.size() > 1) {
      std::string line;
      for (const auto& [x, y] : in_x_order) line += (line.empty() ? "" : " ") + num(xs(x)) + "," + num(ys(y));
      w.leaf("polyline", {{"class", "line"}, {"points", line}, {"fill", "none"}, {"stroke", colour},
                          {"stroke-width", "2"}, {"stroke-linejoin", "round"}});
    }
    for (const auto& [x, y] : points[i]) {
      w.open("circle", {{"class", "mark"}, {"cx", num(xs(x))}, {"cy", num(ys(y))}, {"r", "3.5"}, {"fill", colour},
                        {"stroke", "white"}, {"stroke-width", "1"}, {"data-series", c.series[i].name},
                        {"data-x", data_number(x)}, {"data-y", data_number(y)}});
      const std::string who = c.series[i].name.empty() ? "" : c.series[i].name + ", ";
      w.text("title", {}, who + x_name + "=" + value_text(x) + ": " + with_unit(value_text(y), unit));
      w.close();
    }
  }
}

}  // namespace

std::string render_svg(const std::vector<LineChart>& panels) {
  if (panels.empty()) return no_data_svg("");
  std::vector<std::string> names;  // every series name once, in order of appearance
  for (const auto& p : panels)
    for (const auto& s : p.series)
      if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);

  const double panel_width = std::max(420.0, kWidth / dbl(panels.size()));
  const double width = panel_width * dbl(panels.size());
  const double panel_height = 460;

  // The legend below the panels, in rows: every named series.
  struct Entry {
    std::string name;
    double x, y;
  };
  std::vector<Entry> legend;
  double x = 24, y = panel_height + 14;
  for (const auto& name : names) {
    if (name.empty()) continue;
    const std::string text = shorten(name, 40);
    const double entry_width = 28 + text_width(text, kTickFont) + 18;
    if (x > 24 && x + entry_width > width - 24) {
      x = 24;
      y += 22;
    }
    legend.push_back({text, x, y});
    x += entry_width;
  }
  const double height = legend.empty() ? panel_height + 10 : y + 26;

  std::string document_title;
  for (const auto& p : panels)
    if (!p.title.empty()) document_title += (document_title.empty() ? "" : " | ") + p.title;
  SvgWriter w = start_document(width, height, document_title, false);  // each panel shows its own
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const double left = dbl(i) * panel_width;
    w.open("g", {{"class", "panel"}});
    draw_line_panel(w, panels[i], Box{left, 0, left + panel_width, panel_height}, names);
    w.close();
  }
  if (!legend.empty()) {
    w.open("g", {{"class", "legend"}});
    for (const auto& e : legend) {
      const char* colour = colour_of(e.name, names);
      const double mid = e.y + 4;
      w.leaf("line", {{"x1", num(e.x)}, {"x2", num(e.x + 22)}, {"y1", num(mid)}, {"y2", num(mid)},
                      {"stroke", colour}, {"stroke-width", "2"}});
      w.leaf("circle", {{"cx", num(e.x + 11)}, {"cy", num(mid)}, {"r", "3.5"}, {"fill", colour}});
      label(w, e.name, e.x + 28, mid + 4, "start", kTickFont);
    }
    w.close();
  }
  return w.str();
}

// ---- heat map ----

namespace {

// Viridis, from matplotlib's table at nine evenly spaced points.
std::string viridis(double t) {
  static const unsigned char stops[9][3] = {{68, 1, 84},    {72, 40, 120},  {62, 73, 137},
                                             {49, 104, 142}, {38, 130, 142}, {31, 158, 137},
                                             {53, 183, 121}, {110, 206, 88}, {253, 231, 37}};
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) * 8 : 4;
  const int i = std::min(static_cast<int>(t), 7);
  const double f = t - i;
  char hex[8];
  int rgb[3];
  for (int k = 0; k < 3; ++k)
    rgb[k] = static_cast<int>(std::lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k])));
  std::snprintf(hex, sizeof hex, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  return hex;
}

// Black text on light colours, white on dark ones.
const char* ink_on(double t) {
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.5;
  return t > 0.55 ? "#111111" : "#ffffff";
}

}  // namespace

std::string render_svg(const HeatMap& c) {
  std::size_t nx = c.x_values.size();
  for (const auto& row : c.cells) nx = std::max(nx, row.size());
  const std::size_t ny = std::max(c.y_values.size(), c.cells.size());
  if (nx == 0 || ny == 0) return no_data_svg(c.title);

  auto value_at = [&](std::size_t y, std::size_t x) -> std::optional<double> {
    if (y < c.cells.size() && x < c.cells[y].size() && c.cells[y][x] && std::isfinite(*c.cells[y][x]))
      return c.cells[y][x];
    return std::nullopt;
  };
  auto label_at = [](const std::vector<std::string>& labels, std::size_t i) {
    return i < labels.size() ? labels[i] : std::string();
  };
  double lowest = INFINITY, highest = -INFINITY;
  std::size_t best_x = 0, best_y = 0;
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x)
      if (const auto v = value_at(y, x)) {
        lowest = std::min(lowest, *v);
        if (*v > highest) {
          highest = *v;
          best_x = x;
          best_y = y;
        }
      }
  const bool any = lowest <= highest;
  const double span = any ? highest - lowest : 0;
  auto position = [&](double v) { return span > 0 && std::isfinite(span) ? (v - lowest) / span : 0.5; };

  std::vector<std::string> row_labels, column_labels;
  for (std::size_t y = 0; y < ny; ++y) row_labels.push_back(shorten(label_at(c.y_values, y), 20));
  for (std::size_t x = 0; x < nx; ++x) column_labels.push_back(label_at(c.x_values, x));
  const std::string legend_top = any ? compact_text(highest) : "", legend_bottom = any ? compact_text(lowest) : "";
  const double legend_width = any ? 24 + 16 + 6 + std::max({widest({legend_top, legend_bottom}, kTickFont), 60.0}) : 0;

  Box plot{std::max(60.0, 30 + widest(row_labels, kTickFont) + 10), 60, kWidth - 20 - legend_width, 0};
  double cell_w = std::min(120.0, (plot.right - plot.left) / dbl(nx));
  SlotLabels columns = slot_labels(column_labels, cell_w);
  if (columns.turned && plot.left + cell_w / 2 - columns.overhang_left < 4) {
    plot.left = std::min(kWidth / 2, columns.overhang_left - cell_w / 2 + 4);
    cell_w = std::min(120.0, (plot.right - plot.left) / dbl(nx));
  }
  plot.right = plot.left + cell_w * dbl(nx);
  const double cell_h = std::min(36.0, 560.0 / dbl(ny));
  plot.bottom = plot.top + cell_h * dbl(ny);
  const double legend_x = plot.right + 24;
  const double legend_h = std::clamp(plot.bottom - plot.top, 120.0, 240.0);
  const double x_label_y = plot.bottom + columns.height + 16;
  const double height = std::max(c.x_label.empty() ? plot.bottom + columns.height + 16 : x_label_y + 16,
                                 any ? plot.top + legend_h + 50 : 0.0);

  SvgWriter w = start_document(kWidth, height, c.title);
  if (any) {
    w.open("defs");
    w.open("linearGradient", {{"id", "clreduce-heat-scale"}, {"x1", "0"}, {"y1", "1"}, {"x2", "0"}, {"y2", "0"}});
    for (int i = 0; i <= 8; ++i)
      w.leaf("stop", {{"offset", num(i / 8.0)}, {"stop-color", viridis(i / 8.0)}});
    w.close();
    w.close();
  }

  const std::string x_name = name_of(c.x_label, "x"), y_name = name_of(c.y_label, "y");
  const std::string unit = unit_of(c.value_label);
  // Values in the cells: in every cell or in none, so that the map reads evenly.
  const bool values_fit_height = cell_h >= kSmallFont + 3;
  bool values_fit = values_fit_height;
  for (std::size_t y = 0; y < ny && values_fit; ++y)
    for (std::size_t x = 0; x < nx && values_fit; ++x)
      if (const auto v = value_at(y, x)) values_fit = text_width(compact_text(*v), kSmallFont) <= cell_w - 4;
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) {
      const double x0 = plot.left + dbl(x) * cell_w, y0 = plot.top + dbl(y) * cell_h;
      const double cx = x0 + cell_w / 2, cy = y0 + cell_h / 2;
      const std::string xl = label_at(c.x_values, x), yl = label_at(c.y_values, y);
      const std::string where = x_name + "=" + xl + ", " + y_name + "=" + yl + ": ";
      SvgAttrs box{{"x", num(x0)}, {"y", num(y0)}, {"width", num(cell_w)}, {"height", num(cell_h)}};
      if (const auto v = value_at(y, x)) {
        const double t = position(*v);
        SvgAttrs a{{"class", "mark"}};
        a.insert(a.end(), box.begin(), box.end());
        a.insert(a.end(), {{"fill", viridis(t)}, {"stroke", "white"}, {"stroke-width", "1"}, {"data-x", xl},
                           {"data-y", yl}, {"data-value", data_number(*v)}});
        w.open("rect", a);
        w.text("title", {}, where + with_unit(value_text(*v), unit));
        w.close();
        const std::string text = compact_text(*v);
        if (values_fit)
          label(w, text, cx, cy + 4, "middle", kSmallFont,
                {{"class", "value"}, {"fill", ink_on(t)}, {"pointer-events", "none"}});
      } else {
        SvgAttrs a{{"class", "empty"}};
        a.insert(a.end(), box.begin(), box.end());
        a.insert(a.end(), {{"fill", kEmptyFill}, {"stroke", "white"}, {"stroke-width", "1"}, {"data-x", xl},
                           {"data-y", yl}});
        w.open("rect", a);
        w.text("title", {}, where + "no data");
        w.close();
        if (values_fit_height)
          label(w, "\xE2\x80\x93", cx, cy + 4, "middle", kSmallFont,  // an en dash
                {{"class", "empty-label"}, {"fill", "#999999"}, {"pointer-events", "none"}});
      }
    }
  if (any) {
    const double inset = 1.5;
    w.leaf("rect", {{"class", "best"}, {"x", num(plot.left + dbl(best_x) * cell_w + inset)},
                    {"y", num(plot.top + dbl(best_y) * cell_h + inset)}, {"width", num(std::max(cell_w - 2 * inset, 0.0))},
                    {"height", num(std::max(cell_h - 2 * inset, 0.0))}, {"fill", "none"}, {"stroke", "#000000"},
                    {"stroke-width", "2.5"}, {"pointer-events", "none"}});
  }

  // Row labels (every k-th where rows are thin), column labels, axis labels.
  const std::size_t row_every = cell_h >= kTickFont ? 1 : static_cast<std::size_t>(std::ceil(kTickFont / cell_h));
  for (std::size_t y = 0; y < ny; y += row_every)
    label(w, row_labels[y], plot.left - 6, plot.top + (dbl(y) + 0.5) * cell_h + 4, "end", kTickFont);
  draw_slot_labels(w, columns, plot.left, cell_w, plot.bottom);
  if (!c.y_label.empty())
    label(w, c.y_label, 20, plot.mid_y(), "middle", kLabelFont,
          {{"class", "axis-label"}, {"transform", rotate(-90, 20, plot.mid_y())}});
  if (!c.x_label.empty()) label(w, c.x_label, plot.mid_x(), x_label_y, "middle", kLabelFont, {{"class", "axis-label"}});

  // The colour legend: the largest value on top, the smallest at the bottom.
  if (any) {
    const double top = plot.top + 14;
    const double bottom = top + legend_h - 14;
    w.open("g", {{"class", "legend"}});
    if (!c.value_label.empty()) label(w, shorten(c.value_label, 16), legend_x, top - 6, "start", kTickFont);
    w.leaf("rect", {{"x", num(legend_x)}, {"y", num(top)}, {"width", "16"}, {"height", num(bottom - top)},
                    {"fill", "url(#clreduce-heat-scale)"}, {"stroke", kAxisInk}, {"stroke-width", "0.5"}});
    label(w, legend_top, legend_x + 22, top + 10, "start", kTickFont, {{"fill", kAxisInk}});
    label(w, legend_bottom, legend_x + 22, bottom, "start", kTickFont, {{"fill", kAxisInk}});
    w.leaf("rect", {{"x", num(legend_x)}, {"y", num(bottom + 14)}, {"width", "16"}, {"height", "12"}, {"fill", "none"},
                    {"stroke", "#000000"}, {"stroke-width", "2"}});
    label(w, "best", legend_x + 22, bottom + 24, "start", kTickFont, {{"fill", kAxisInk}});
    w.close();
  }
  return w.str();
}

}  // namespace clreduce
