// Reading an SVG document back in tests: parsed with expat (a strict XML parser, so a document
// that is not well-formed XML fails), with what the chart tests look at: the root, the elements
// per class (data marks have class="mark"), the marks' tooltips, every <text>, and coordinates
// written as nan or inf.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace clreduce::test {

struct SvgDocument {
  bool ok = false;     // well-formed XML
  std::string error;   // expat's message and line when not
  std::string root, root_xmlns;
  std::map<std::string, int> classes;  // class attribute -> elements
  int marks_with_title = 0;            // marks whose first child element is <title>
  std::vector<std::string> mark_titles, texts;  // tooltip texts of marks; every <text>'s content
  std::string bad_geometry;  // coordinates written as nan or inf
  int marks() const { return count("mark"); }
  int count(const std::string& cls) const { return classes.count(cls) ? classes.at(cls) : 0; }
  bool has_text(const std::string& s) const;
};

SvgDocument parse_svg(const std::string& text);

}  // namespace clreduce::test
