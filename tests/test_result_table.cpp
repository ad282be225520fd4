// The result model (tools/measure/result_table.hpp) and its three generic printers
// (tools/printers/result_printer.hpp): each unit's format in text, CSV and JSON, empty cells,
// nested JSON paths, the bandwidth unit in headers and values, the above-peak note.
#include "measure/result_table.hpp"
#include "printers/result_printer.hpp"
#include "printers/table.hpp"

#include <doctest/doctest.h>
#include <stdexcept>

using namespace clreduce;

namespace {
ResultTable sample() {
  ResultTable t;
  t.preamble = {"device:  a test\n"};
  t.columns = {{"name", "name", "name", "name"},
               {"n", "n", "", "n", Unit::Count},
               {"us", "", "median µs", "median_us", Unit::Micros},
               {"gbps", "read/gbps", "$bw", "$bw", Unit::Bandwidth},
               {"pct", "pct", "% of peak", "pct", Unit::PctOfPeak},
               {"ok", "check/ok", "", ""},
               {"stats", "stats", "", "", Unit::Json}};
  t.rows = {{std::string("sum"), std::uint64_t{1024}, 12.3456, 2000.0, 101.5, true,
             nlohmann::json{{"median", 12.3456}}},
            {std::string("max, refused"), Cell(), Cell(), Cell(), Cell(), Cell(), Cell()}};  // a comma: quoted in CSV
  t.notes.push_back("max refused: a reason");
  t.meta = {{"device", "a test"}};
  return t;
}
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("result model: the text table takes the text columns, units formatted, empty cells '-', notes after") {
    const std::string text = render_text(sample());  // GB/s unless told
    CHECK(text.rfind("device:  a test\nname ", 0) == 0);
    CHECK(text.find("median µs") != std::string::npos);
    CHECK(text.find("GB/s") != std::string::npos);
    CHECK(text.find("12.35 |") != std::string::npos);  // Micros: 2 decimals under 100 µs
    CHECK(text.find("2000.0") != std::string::npos);         // Bandwidth: 1 decimal
    CHECK(text.find("101.5% *") != std::string::npos);       // above the peak: marked
    CHECK(text.find(kAbovePeakNote) != std::string::npos);  // and the note under the table
    CHECK(text.find("max, refused |         - |") != std::string::npos);  // empty: "-", aligned as a number
    CHECK(text.find("\nmax refused: a reason\n") != std::string::npos);
    CHECK(text.find("1024") == std::string::npos);  // n is not a text column
  }

  TEST_CASE("result model: CSV takes the CSV columns, raw numbers, the bandwidth unit in header and value") {
    const std::string csv = render_csv(sample(), BandwidthUnit::GiB);
    CHECK(csv.rfind("name,n,median_us,GiB_per_s,pct\n", 0) == 0);
    CHECK(csv.find("sum,1024,12.345600,1862.645149,101.500000\n") != std::string::npos);
    CHECK(csv.find("\"max, refused\",,,,\n") != std::string::npos);
    const std::string gb = render_csv(sample());
    CHECK(render_csv_rows(sample()) == gb.substr(gb.find('\n') + 1));  // the rows alone, for streaming
    CHECK(render_csv_rows(sample(), BandwidthUnit::GiB) == csv.substr(csv.find('\n') + 1));
    // The text in GiB/s too: the header and the cell (2000 GB/s = 1862.6 GiB/s), one call's choice.
    const std::string gib = render_text(sample(), BandwidthUnit::GiB);
    CHECK(gib.find("GiB/s") != std::string::npos);
    CHECK(gib.find("1862.6") != std::string::npos);
    CHECK(render_text(sample()).find("2000.0") != std::string::npos);
  }

  TEST_CASE("result model: JSON rows at the columns' paths, empty cells left out, meta beside rows") {
    const nlohmann::json j = render_json(sample());
    CHECK(j["device"] == "a test");
    REQUIRE(j["rows"].size() == 2);
    const auto& r = j["rows"][0];
    CHECK(r["name"] == "sum");
    CHECK(r["n"] == 1024);
    CHECK(r["read"]["gbps"] == 2000.0);  // GB/s in JSON whatever the text unit
    CHECK(r["check"]["ok"] == true);
    CHECK(r["stats"]["median"] == 12.3456);
    CHECK_FALSE(r.contains("us"));  // not a JSON column
    CHECK(j["rows"][1].size() == 1);  // the refused row: its name only
  }
}

namespace {
struct Point {
  std::string name;
  const double* gbps;  // null: the point did not run
};
}  // namespace

TEST_SUITE("unit") {
  TEST_CASE("result model: tabulate reads each column's cell off each row; when() leaves a missing part empty") {
    const double fast = 1500.0;
    const std::vector<ColumnOf<Point>> cols = {
        {{"name", "name", "name", "name"}, [](const Point& p) { return Cell(p.name); }},
        {{"gbps", "read/gbps", "$bw", "$bw", Unit::Bandwidth}, when(&Point::gbps, [](const double& g) { return g; })},
        {{"read", "read", "", ""}, [](const Point& p) { return Cell(nlohmann::json{{"ran", p.gbps != nullptr}}); }}};
    const ResultTable t = tabulate(cols, std::vector<Point>{{"a", &fast}, {"b", nullptr}});
    REQUIRE(t.rows.size() == 2);
    CHECK(std::get<double>(t.rows[0][1]) == 1500.0);
    CHECK(std::holds_alternative<std::monostate>(t.rows[1][1]));
    CHECK(render_csv(t) == "name,GB_per_s\na,1500.000000\nb,\n");
    const nlohmann::json rows = render_json_rows(t);
    // "read/gbps" and the object at "read" meet in one object, whichever comes first.
    CHECK(rows[0]["read"] == nlohmann::json{{"gbps", 1500.0}, {"ran", true}});
    CHECK(rows[1]["read"] == nlohmann::json{{"ran", false}});
  }

  TEST_CASE("result model: a format's own column order, and an order naming a column that format lacks") {
    ResultTable t = sample();
    t.csv_order = {"pct", "name"};
    CHECK(render_csv(t).rfind("pct,name\n101.500000,sum\n", 0) == 0);
    t.text_order = {"n"};  // n has no text header
    CHECK_THROWS_AS(render_text(t), std::logic_error);
  }

  TEST_CASE("result model: a table's text for empty cells, and the above-peak note left to the caller") {
    ResultTable t = sample();
    t.empty_text = "";
    t.peak_note = false;
    const std::string text = render_text(t);
    CHECK(text.find("max, refused |           |") != std::string::npos);  // empty, not "-"
    CHECK(text.find("101.5% *") != std::string::npos);                      // still marked
    CHECK(text.find(kAbovePeakNote) == std::string::npos);                  // but no note
  }
}

TEST_SUITE("unit") {
  TEST_CASE("result model: a plain percentage and a ratio in text, never marked above 100; raw in CSV") {
    ResultTable t;
    t.columns = {{"pct", "pct", "% of copy", "pct", Unit::Percent, 1, 2}, {"x", "x", "speedup", "x", Unit::Ratio, 2, 3}};
    t.rows = {{120.04, 1.5}};
    const std::string text = render_text(t);
    CHECK(text.find("120.0% |") != std::string::npos);
    CHECK(text.find("1.50x") != std::string::npos);
    CHECK(text.find('*') == std::string::npos);
    CHECK(text.find(kAbovePeakNote) == std::string::npos);
    CHECK(render_csv(t) == "pct,x\n120.04,1.500\n");
  }
}

TEST_SUITE("unit") {
  TEST_CASE("result model: CSV as the text table writes it (an output that predates the model)") {
    ResultTable t = sample();
    t.csv_text = true;
    const std::string csv = render_csv(t);
    CHECK(csv.rfind("name,median µs,GB/s,% of peak\n", 0) == 0);  // the text's headers, not the CSV's
    CHECK(csv.find("sum,12.35,2000.0,101.5% *\n") != std::string::npos);  // the text's cells
    CHECK(csv.find("\"max, refused\",-,-,-\n") != std::string::npos);
  }
}
