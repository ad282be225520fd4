// A minimal SVG document writer: nested elements, escaped text and attribute values, and numbers
// written the same whatever the global locale.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace clreduce {

// Attributes in the order they are written: {{"x", "10"}, {"fill", "white"}}.
using SvgAttrs = std::vector<std::pair<std::string, std::string>>;

// Text made safe for XML content and attribute values: & < > " ' become entities; characters XML
// forbids (control characters other than tab, newline and carriage return) and invalid UTF-8
// become U+FFFD.
std::string xml_escape(const std::string& text);

// Numbers with "." as the decimal point whatever the global C or C++ locale.
std::string format_fixed(double x, int decimals);      // printf "%.*f": "12.50"
std::string format_significant(double x, int digits);  // printf "%.*g": "12.5", "1e+06"
// Coordinates and lengths: at most `decimals` decimals, trailing zeros dropped ("12.5", "3"),
// never "-0"; a value that is not finite is written as "0".
std::string svg_number(double x, int decimals = 2);

// Builds one SVG document. The constructor writes the XML declaration and opens the root <svg>
// (xmlns, width, height, viewBox and `root_attrs`); str() returns the document with every element
// still open closed, so it is well-formed at any point.
class SvgWriter {
 public:
  SvgWriter(double width, double height, const SvgAttrs& root_attrs = {});

  void open(const std::string& tag, const SvgAttrs& attrs = {});  // <tag ...>, until close()
  void close();  // closes the innermost element opened by open(); std::logic_error when none is
  void leaf(const std::string& tag, const SvgAttrs& attrs = {});  // <tag .../>
  void text(const std::string& tag, const SvgAttrs& attrs, const std::string& content);  // <tag ...>content</tag>

  std::string str() const;

 private:
  void start_tag(const std::string& tag, const SvgAttrs& attrs);
  std::string out_;
  std::vector<std::string> open_;  // the root first
};

}  // namespace clreduce
