// SVG charts: every document parses as XML (expat) with an <svg> root, one class="mark" element
// per drawable data point, escaped text, "no data" where there is nothing to draw; the writer.
#include <doctest/doctest.h>

#include "printers/charts.hpp"
#include "clreduce/error.hpp"
#include "printers/svg.hpp"
#include "svg_check.hpp"

#include <clocale>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <locale>
#include <map>
#include <set>
#include <sstream>

using namespace clreduce;

namespace {

using Parsed = test::SvgDocument;

// Parses and checks what every chart must be: well-formed, an SVG root, marks with tooltips,
// no coordinate written as nan or inf (a data-value may say nan: the data did).
Parsed check_svg(const std::string& svg) {
  Parsed p = test::parse_svg(svg);
  INFO(p.error);
  CHECK(p.ok);
  CHECK(p.root == "svg");
  CHECK(p.root_xmlns == "http://www.w3.org/2000/svg");
  CHECK(p.marks_with_title == p.marks());
  CHECK(p.bad_geometry == "");
  return p;
}

bool says_no_data(const Parsed& p) { return p.has_text("no data"); }

HeatMap wg_times_map() {
  HeatMap m;
  m.title = "vector: GB/s over WG and TIMES";
  m.x_label = "work-group size";
  m.y_label = "TIMES";
  m.value_label = "GB/s";
  m.x_values = {"64", "128", "256", "512"};
  m.y_values = {"1", "2", "4"};
  m.cells = {{1200.5, 1800.0, 2100.25, std::nullopt},
             {1500.0, 2400.0, 2931.4, 2800.0},
             {std::nullopt, 2500.0, 2900.0, std::nullopt}};
  return m;
}

}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("svg writer: escaped text and attributes, nesting closed, numbers without locale") {
    CHECK(xml_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(xml_escape("12.3 \xC2\xB5s") == "12.3 \xC2\xB5s");                // UTF-8 kept
    CHECK(xml_escape(std::string("a\x01""b\xFF")) == "a\xEF\xBF\xBD""b\xEF\xBF\xBD");  // not XML: U+FFFD
    CHECK(svg_number(12.5) == "12.5");
    CHECK(svg_number(3.0) == "3");
    CHECK(svg_number(-0.001) == "0");
    CHECK(svg_number(1.0 / 3) == "0.33");
    CHECK(svg_number(NAN) == "0");
    CHECK(format_fixed(2.5, 2) == "2.50");
    CHECK(format_significant(1048576, 15) == "1048576");

    // A comma-decimal locale, where this machine has one, changes nothing.
    const char* comma_locales[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    for (const char* name : comma_locales) {
      if (std::setlocale(LC_ALL, name) == nullptr) continue;
      std::locale previous;
      try {
        previous = std::locale::global(std::locale(name));
      } catch (const std::exception&) {
        std::setlocale(LC_ALL, "C");
        continue;
      }
      const std::string a = svg_number(1234.5), b = format_significant(0.25, 3);
      std::locale::global(previous);
      std::setlocale(LC_ALL, "C");
      CHECK(a == "1234.5");
      CHECK(b == "0.25");
      break;
    }

    SvgWriter w(100, 50, {{"font-family", "sans-serif"}});
    w.open("g", {{"class", "x&y"}});
    w.text("text", {{"x", "1"}}, "<b>");
    w.leaf("rect", {{"width", "2"}});
    const Parsed p = check_svg(w.str());  // the open <g> is closed by str()
    CHECK(p.count("x&y") == 1);
    CHECK(p.has_text("<b>"));
    w.close();
    CHECK_THROWS_AS(w.close(), std::logic_error);  // the root stays open until str()
  }

  TEST_CASE("bar chart: one mark per bar in order, the reference line and its label") {
    BarChart c;
    c.title = "reduction bandwidth, float sum, n = 2^26";
    c.y_label = "GB/s";
    c.bars = {{"naive", 410.2}, {"divergence_free", 1310.0}, {"vector", 2931.4}, {"single_pass", 2875.9}};
    c.reference = 3075.0;
    c.reference_label = "read peak 3075 GB/s";
    const std::string svg = render_svg(c);
    const Parsed p = check_svg(svg);
    CHECK(p.marks() == 4);
    REQUIRE(p.mark_titles.size() == 4);
    CHECK(p.mark_titles[0] == "naive: 410.2 GB/s");
    CHECK(p.mark_titles[2] == "vector: 2931.4 GB/s");
    CHECK(p.count("reference") == 1);
    CHECK(p.has_text("read peak 3075 GB/s"));
    CHECK(p.has_text("2931.4"));  // the value above the bar
    CHECK(p.has_text(c.title));
    CHECK(p.has_text("GB/s"));
    CHECK(svg.find("data-label=\"vector\" data-value=\"2931.4\"") != std::string::npos);
    CHECK_FALSE(says_no_data(p));
  }

  TEST_CASE("bar chart: many long labels are turned; a reference above every bar; a bar of 0") {
    BarChart c;
    c.y_label = "bandwidth (GB/s)";
    for (int i = 0; i < 14; ++i) c.bars.push_back({"last_wavefront_unroll wg=256 times=" + std::to_string(i), 100.0 * i});
    c.reference = 5000;
    const std::string svg = render_svg(c);
    const Parsed p = check_svg(svg);
    CHECK(p.marks() == 14);
    CHECK(svg.find("rotate(-45") != std::string::npos);
    CHECK(p.mark_titles[3] == "last_wavefront_unroll wg=256 times=3: 300 GB/s");  // unit from "(GB/s)"
    CHECK(p.has_text("5000 GB/s"));  // no reference_label: the value
  }

  TEST_CASE("titles and labels with XML special characters are escaped everywhere") {
    const std::string nasty = "a<b>&c\"d'e";
    BarChart bars{nasty, nasty, {{nasty, 1.0}, {"<x>", 2.0}}, 3.0, nasty};
    Parsed p = check_svg(render_svg(bars));
    CHECK(p.marks() == 2);
    CHECK(p.has_text(nasty));
    CHECK(p.mark_titles[0] == nasty + ": 1 " + nasty);

    LineChart line;
    line.title = line.x_label = line.y_label = line.reference_label = nasty;
    line.reference = 1.0;
    line.series = {{nasty, {{1, 2}, {2, 3}}}, {"<&>", {{1, 1}}}};
    p = check_svg(render_svg(std::vector<LineChart>{line}));
    CHECK(p.marks() == 3);
    CHECK(p.has_text(nasty));
    CHECK(p.has_text("<&>"));  // the legend

    HeatMap m{nasty, nasty, nasty, nasty, {nasty, "&"}, {"'"}, {{1.0, std::nullopt}}};
    p = check_svg(render_svg(m));
    CHECK(p.marks() == 1);
    CHECK(p.has_text(nasty));
    CHECK(p.count("empty") == 1);
  }

  TEST_CASE("line chart on log axes leaves out points with x <= 0 or y <= 0") {
    LineChart c;
    c.title = "time vs n";
    c.x_label = "n (elements)";
    c.y_label = "median time (\xC2\xB5s)";
    c.log_x = c.log_y = true;
    c.series = {{"naive", {{1024, 5.1}, {1 << 20, 12.3}, {1 << 26, 410.0}, {0, 3.0}, {-5, 2.0}}},
                {"vector", {{1024, 4.0}, {1 << 20, 0.0}, {1 << 26, 95.5}, {1 << 28, -1.0}}},
                {"single", {{4096, 7.0}}},
                {"nothing drawable", {{0, 0}, {NAN, 1}}}};
    const std::string svg = render_svg(std::vector<LineChart>{c});
    const Parsed p = check_svg(svg);
    CHECK(p.marks() == 3 + 2 + 1);
    CHECK(p.count("line") == 2);  // the single point has no line
    bool found = false;
    for (const auto& t : p.mark_titles) found = found || t == "naive, n=1048576: 12.3 \xC2\xB5s";
    CHECK(found);
    CHECK(p.has_text("1M"));  // a power of ten on the log x axis
    CHECK(p.has_text("vector"));  // legend
    CHECK_FALSE(says_no_data(p));

    // The same points on linear axes are all drawable except the NaN.
    c.log_x = c.log_y = false;
    CHECK(check_svg(render_svg(std::vector<LineChart>{c})).marks() == 5 + 4 + 1 + 1);
  }

  TEST_CASE("two panels side by side: marks summed over panels, one colour per series name") {
    LineChart time, bandwidth;
    time.title = "time vs n";
    time.x_label = bandwidth.x_label = "n";
    time.y_label = "\xC2\xB5s";
    bandwidth.title = "GB/s vs n";
    bandwidth.y_label = "GB/s";
    time.log_x = time.log_y = bandwidth.log_x = true;
    for (const char* name : {"naive", "vector", "warp_shuffle"}) {
      Series t{name, {}}, b{name, {}};
      for (double n = 1 << 10; n <= (1 << 28); n *= 4) {
        t.points.push_back({n, 2.0 + n / 3e5});
        b.points.push_back({n, 4 * n / ((2.0 + n / 3e5) * 1e3)});
      }
      time.series.push_back(t);
      bandwidth.series.push_back(b);
    }
    bandwidth.reference = 3075.0;
    bandwidth.reference_label = "read peak";
    const std::string svg = render_svg(std::vector<LineChart>{time, bandwidth});
    const Parsed p = check_svg(svg);
    CHECK(p.marks() == 2 * 3 * 10);
    CHECK(p.count("panel") == 2);
    CHECK(p.count("reference") == 1);
    CHECK(p.has_text("time vs n"));
    CHECK(p.has_text("GB/s vs n"));
    CHECK(p.has_text("read peak"));
    CHECK(svg.find("width=\"900\"") != std::string::npos);
  }

  TEST_CASE("heat map: present cells are marks, missing cells empty with 'no data', best outlined") {
    const HeatMap m = wg_times_map();
    const std::string svg = render_svg(m);
    const Parsed p = check_svg(svg);
    CHECK(p.marks() == 9);
    CHECK(p.count("empty") == 3);
    CHECK(p.count("best") == 1);
    CHECK(p.has_text("2931"));  // the best value in its cell
    CHECK(p.has_text("1200"));  // the smallest, in the cell and the legend
    CHECK(p.has_text("GB/s"));
    bool tooltip = false;
    for (const auto& t : p.mark_titles) tooltip = tooltip || t == "work-group size=256, TIMES=2: 2931.4 GB/s";
    CHECK(tooltip);
    CHECK(svg.find("work-group size=512, TIMES=1: no data") != std::string::npos);
    CHECK(svg.find("data-x=\"256\" data-y=\"2\" data-value=\"2931.4\"") != std::string::npos);

    // Rows shorter or longer than the labels: every present cell is still one mark.
    HeatMap ragged = m;
    ragged.cells[0].resize(2);
    ragged.cells.push_back({1.0, 2.0, 3.0, 4.0, 5.0});
    const Parsed r = check_svg(render_svg(ragged));
    CHECK(r.marks() == 2 + 4 + 2 + 5);
    CHECK(r.count("empty") == 4 * 5 - 13);
  }

  TEST_CASE("empty inputs render a valid SVG that says no data") {
    Parsed p = check_svg(render_svg(BarChart{"empty bars", "GB/s", {}, 3000.0, "peak"}));
    CHECK(p.marks() == 0);
    CHECK(says_no_data(p));
    CHECK(p.has_text("empty bars"));

    p = check_svg(render_svg(std::vector<LineChart>{}));
    CHECK(p.marks() == 0);
    CHECK(says_no_data(p));

    LineChart no_series;
    no_series.title = "nothing";
    p = check_svg(render_svg(std::vector<LineChart>{no_series}));
    CHECK(p.marks() == 0);
    CHECK(says_no_data(p));

    LineChart no_points;
    no_points.series = {{"a", {}}, {"b", {}}};
    LineChart none_drawable;
    none_drawable.log_x = true;
    none_drawable.series = {{"a", {{0, 1}, {-1, 2}}}};
    p = check_svg(render_svg(std::vector<LineChart>{no_points, none_drawable}));
    CHECK(p.marks() == 0);
    CHECK(says_no_data(p));

    p = check_svg(render_svg(HeatMap{}));
    CHECK(p.marks() == 0);
    CHECK(says_no_data(p));

    HeatMap labels_only;
    labels_only.x_values = {"64", "128"};
    labels_only.y_values = {"1"};
    p = check_svg(render_svg(labels_only));  // a grid of cells without data
    CHECK(p.marks() == 0);
    CHECK(p.count("empty") == 2);
    CHECK(p.count("legend") == 0);  // no colour scale without values
  }

  TEST_CASE("all-equal values, single values, zeros, huge and non-finite values never divide by zero") {
    Parsed p = check_svg(render_svg(BarChart{"zeros", "GB/s", {{"a", 0.0}, {"b", 0.0}}, std::nullopt, ""}));
    CHECK(p.marks() == 2);
    p = check_svg(render_svg(BarChart{"equal", "GB/s", {{"a", 7.0}, {"b", 7.0}, {"c", 7.0}}, 7.0, "peak"}));
    CHECK(p.marks() == 3);
    p = check_svg(render_svg(BarChart{"odd", "x", {{"nan", NAN}, {"neg", -3.0}, {"inf", INFINITY}, {"max", 1e308}},
                                      -1.0, "negative reference: not drawn"}));
    CHECK(p.marks() == 4);
    CHECK(p.count("reference") == 0);

    for (bool log_axes : {false, true}) {
      CAPTURE(log_axes);
      LineChart one;
      one.log_x = one.log_y = log_axes;
      one.series = {{"one point", {{1000, 5}}}};
      CHECK(check_svg(render_svg(std::vector<LineChart>{one})).marks() == 1);
      LineChart flat = one;
      flat.series = {{"flat", {{1, 3}, {2, 3}, {4, 3}}}, {"same x", {{2, 1}, {2, 2}}}};
      CHECK(check_svg(render_svg(std::vector<LineChart>{flat})).marks() == 5);
      LineChart zeros = one;
      zeros.series = {{"zeros", {{0, 0}, {0, 0}}}};
      CHECK(check_svg(render_svg(std::vector<LineChart>{zeros})).marks() == (log_axes ? 0 : 2));
      LineChart wide = one;
      wide.series = {{"wide", {{1e-300, 1e-300}, {1e300, 1e300}, {1e308, 1.0}}}};
      CHECK(check_svg(render_svg(std::vector<LineChart>{wide})).marks() == 3);
      LineChart narrow = one;
      narrow.series = {{"narrow", {{1.1e6, 100.0}, {1.2e6, 100.001}, {1.3e6, 100.002}}}};
      CHECK(check_svg(render_svg(std::vector<LineChart>{narrow})).marks() == 3);
    }
    LineChart extremes;
    extremes.series = {{"extremes", {{-1e308, -1e308}, {1e308, 1e308}, {INFINITY, 1}}}};
    CHECK(check_svg(render_svg(std::vector<LineChart>{extremes})).marks() == 2);

    HeatMap equal{"equal", "x", "y", "GB/s", {"a", "b"}, {"1", "2"}, {{5.0, 5.0}, {5.0, 5.0}}};
    p = check_svg(render_svg(equal));
    CHECK(p.marks() == 4);
    CHECK(p.count("best") == 1);
    HeatMap single{"single", "x", "y", "", {"a"}, {"1"}, {{0.0}}};
    CHECK(check_svg(render_svg(single)).marks() == 1);
    HeatMap odd{"odd", "x", "y", "", {"a", "b", "c"}, {"1"}, {{NAN, -INFINITY, 2.0}}};
    p = check_svg(render_svg(odd));
    CHECK(p.marks() == 1);  // a value that is not finite is no data
    CHECK(p.count("empty") == 2);
  }
}
